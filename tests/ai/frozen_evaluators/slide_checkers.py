"""FROZEN COPY (commit 85db76f) of the evaluator before issue 18 §4, for the tests that the weighted evaluators with default weights equal it. Do not edit.

Heuristic evaluation for Slide Checkers search bots: material, capture threats, mobility.

Spec: slide-checkers.md §4–§5 (the rules it estimates). Written for two players; with more
players the opponents are pooled (their average counts as "the opponent").
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from abstracta.games.slide_checkers.tables import FULL, dilate

if TYPE_CHECKING:
    from abstracta.games.slide_checkers.rules import SlideCheckersState

#: value of having a capture available on one's own turn (an exchange swings two pieces)
TEMPO = 1.5
#: value of each enemy piece under threat (and cost of each own piece under threat)
THREAT = 0.25
#: value of each empty square next to a piece, relative to the opponents'
MOBILITY = 0.03
#: material difference (in pieces) that maps to tanh(1) ≈ 0.76
SCALE = 3.0


def evaluate(state: "SlideCheckersState", player: int) -> float:
    """Value of ``state`` for seat ``player`` in [-1, 1] (+1 = won, −1 = lost).

    Terminal states give their return. Otherwise
    ``tanh((material + tempo + threats + mobility) / SCALE)`` where material counts pieces on
    the board plus pieces still to place, tempo is ±:data:`TEMPO` when the side to move has a
    capture (in ``player``'s favour when it is ``player``), threats count jumpable pieces.
    """
    if state.is_terminal():
        return float(state.returns()[player])
    n = state.num_players
    bbs = [state.pieces(i) for i in range(n)]
    own = bbs[player]
    opponents = [i for i in range(n) if i != player and (bbs[i] or state.to_place[i])]
    if not opponents:
        return 0.99
    k = len(opponents)
    others = 0
    for i in opponents:
        others |= bbs[i]
    to_place = state.to_place
    mine = own.bit_count() + to_place[player]
    theirs = (others.bit_count() + sum(to_place[i] for i in opponents)) / k
    x = mine - theirs
    if state.phase == "movement":
        mover = state.current_player()
        my_targets = state.jump_targets(player) & others
        their_targets = 0
        for i in opponents:
            their_targets |= state.jump_targets(i) & own
        if mover == player:
            if my_targets:
                x += TEMPO
        elif state.jump_targets(mover) & own:
            x -= TEMPO
        x += THREAT * (my_targets.bit_count() - their_targets.bit_count())
        empty = FULL ^ (own | others)
        x += MOBILITY * ((dilate(own) & empty).bit_count() - (dilate(others) & empty).bit_count() / k)
    return max(-0.999, min(0.999, math.tanh(x / SCALE)))
