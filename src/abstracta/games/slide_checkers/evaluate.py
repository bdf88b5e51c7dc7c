"""Heuristic evaluation for Slide Checkers search bots: material, capture threats, mobility.

Spec: slide-checkers.md §4–§5 (the rules it estimates). Written for two players; with more
players the opponents are pooled (their average counts as "the opponent").
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable

from .tables import FULL, dilate

if TYPE_CHECKING:
    from .rules import SlideCheckersState

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

    Terminal states give their return; a seat with no pieces left while others play on (3–4
    players) −1. Otherwise ``tanh((material + tempo + threats + mobility) / SCALE)`` where
    material counts pieces on the board plus pieces still to place, tempo is ±:data:`TEMPO`
    when the side to move has a capture (in ``player``'s favour when it is ``player``), threats
    count jumpable pieces. The weighted evaluator (:func:`make_evaluator`) with the hand-set
    :data:`WEIGHTS`; a function of its own name, which the level fingerprints hash.
    """
    return _hand_set(state, player)


def is_out(state: "SlideCheckersState", player: int) -> bool:
    """``player`` has no pieces left, on the board or to place: with 3–4 players, out."""
    return not state.pieces(player) and not state.to_place[player]


def evaluate_multiplayer(state: "SlideCheckersState", player: int) -> float:
    """:func:`evaluate` under the name the 3–4 player levels declare (their fingerprints hash it).

    Written apart when :func:`evaluate` counted an eliminated seat's last piece as one piece of
    material (about −0.4), so that a search saw elimination as a small loss; both now read it
    as −1 (with two players the position is terminal instead).
    """
    return _hand_set(state, player)


# --------------------------------------------------------------------------- tuning (issue 18 §4)
#: The tuner's terms (``GameDescription.tuning``), from ``player``'s view: material (pieces on
#: the board and to place, minus the opponents' average), tempo (+1 when ``player`` moves and
#: can capture, −1 when an opponent moves and can capture one of ``player``'s pieces), threats
#: (enemy pieces ``player`` can jump minus own pieces the opponents can jump) and mobility
#: (empty squares next to own pieces minus the opponents' average). In the placement phase only
#: material counts.
TERMS = ("material", "tempo", "threats", "mobility")
WEIGHTS = (1.0, TEMPO, THREAT, MOBILITY)


def squash(x: float) -> float:
    """``tanh(x / SCALE)`` clamped to ±0.999."""
    return max(-0.999, min(0.999, math.tanh(x / SCALE)))


def _counts(state: "SlideCheckersState", player: int):
    """``(material, tempo, threats, mobility)`` or ``None`` when no opponent is left."""
    n = state.num_players
    bbs = [state.pieces(i) for i in range(n)]
    own = bbs[player]
    opponents = [i for i in range(n) if i != player and (bbs[i] or state.to_place[i])]
    if not opponents:
        return None
    k = len(opponents)
    others = 0
    for i in opponents:
        others |= bbs[i]
    to_place = state.to_place
    mine = own.bit_count() + to_place[player]
    theirs = (others.bit_count() + sum(to_place[i] for i in opponents)) / k
    tempo = threats = mobility = 0.0
    if state.phase == "movement":
        mover = state.current_player()
        my_targets = state.jump_targets(player) & others
        their_targets = 0
        for i in opponents:
            their_targets |= state.jump_targets(i) & own
        if mover == player:
            if my_targets:
                tempo = 1.0
        elif state.jump_targets(mover) & own:
            tempo = -1.0
        threats = my_targets.bit_count() - their_targets.bit_count()
        empty = FULL ^ (own | others)
        mobility = (dilate(own) & empty).bit_count() - (dilate(others) & empty).bit_count() / k
    return mine - theirs, tempo, threats, mobility


def terms(state: "SlideCheckersState", player: int) -> tuple[float, float, float, float] | None:
    """The :data:`TERMS` of a running position from ``player``'s view; ``None`` when no
    opponent is left (the evaluator then gives 0.99) or ``player`` has no pieces left (it is
    out: −1, :func:`evaluate_multiplayer`)."""
    if is_out(state, player):
        return None
    counts = _counts(state, player)
    return None if counts is None else tuple(float(c) for c in counts)  # type: ignore[return-value]


def make_evaluator(weights: tuple[float, ...]) -> Callable[["SlideCheckersState", int], float]:
    """:func:`evaluate` with ``weights`` for :data:`TERMS` (the same arithmetic, so today's
    weights give today's values exactly)."""
    w_mat, w_tempo, w_threat, w_mob = weights

    def weighted(state: "SlideCheckersState", player: int) -> float:
        if state.is_terminal():
            return float(state.returns()[player])
        if is_out(state, player):
            return -1.0  # eliminated while others play on (evaluate_multiplayer)
        counts = _counts(state, player)
        if counts is None:
            return 0.99
        material, tempo, threats, mobility = counts
        x = w_mat * material
        if tempo > 0:
            x += w_tempo
        elif tempo < 0:
            x -= w_tempo
        x += w_threat * threats
        x += w_mob * mobility
        return max(-0.999, min(0.999, math.tanh(x / SCALE)))

    return weighted


_hand_set = make_evaluator(WEIGHTS)
