"""Slide Checkers' learned value, two players (issue 47): the features a position is judged by,
and the model that ``abstracta learn slide-checkers`` trained on them (``learned.npz`` beside
this module; :class:`abstracta.core.learned.LearnedValue`).

The features split the hand-set evaluator's terms (:mod:`.evaluate`: material, tempo, threats,
mobility; spec slide-checkers.md §3–§5) seat by seat and add what its sum does not see: how
many jumps the mover has to choose from, the pieces in contact with the enemy, the empty
squares of each side's own colour next to its pieces (where a slide starts, §4.2), the pieces
still to place (§3) and the turns without a jump (the 100-turn draw, §5). All are from
``player``'s view; "signed" ones are + when ``player`` moves and − otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.learned import LearnedValue
from .tables import FULL, dilate

if TYPE_CHECKING:  # pragma: no cover
    from .rules import SlideCheckersState

#: Pieces a seat starts with in the two-player game (spec §3): the scale of the counts.
PIECES = 7.0
#: Turns without a jump that draw the game (spec §5).
NO_JUMP_DRAW = 100.0

#: The features, in the order of :func:`features` (and of the weights file).
FEATURES = (
    "material",        # the hand-set term: own − other pieces (on the board and to place) / 7
    "own", "other",    # each side's pieces, on the board and to place / 7
    "to_place_own", "to_place_other",  # pieces still to place (§3) / 7
    "tempo",           # signed: the mover can jump now (compulsory, §4.3)
    "targets_own",     # enemy pieces ``player`` could jump on its turn / 7
    "targets_other",   # own pieces the other side could jump on its turn / 7
    "mover_targets",   # signed: the pieces the mover can jump / 7
    "mobility_own", "mobility_other",  # empty squares next to each side's pieces / 24
    "slide_own", "slide_other",  # empty squares of the side's own colour next to its pieces / 24
    "contact_own", "contact_other",  # pieces of each side next to an enemy piece / 7
    "no_jump",         # turns since the last jump / 100
    "placement",       # 1 during the placement phase, else 0
    "to_move",         # +1 when ``player`` moves, −1 otherwise
)


def features(state: "SlideCheckersState", player: int) -> tuple[float, ...]:
    """The :data:`FEATURES` of a running two-player position from ``player``'s view (0 or 1)."""
    other = 1 - player
    own, theirs = state.pieces(player), state.pieces(other)
    to_place = state.to_place
    mine, their = own.bit_count() + to_place[player], theirs.bit_count() + to_place[other]
    mover = state.current_player()
    sign = 1.0 if mover == player else -1.0
    friend = state.game.friend  # type: ignore[attr-defined]
    empty = FULL ^ (own | theirs)
    near_own, near_theirs = dilate(own), dilate(theirs)
    if state.phase == "movement":
        mine_t = state.jump_targets(player) & theirs
        their_t = state.jump_targets(other) & own
        movable = mine_t if mover == player else their_t
        tempo = sign if movable else 0.0
        placement = 0.0
    else:
        mine_t = their_t = movable = 0
        tempo = 0.0
        placement = 1.0
    return ((mine - their) / PIECES, mine / PIECES, their / PIECES,
            to_place[player] / PIECES, to_place[other] / PIECES,
            tempo, mine_t.bit_count() / PIECES, their_t.bit_count() / PIECES,
            sign * movable.bit_count() / PIECES,
            (near_own & empty).bit_count() / 24.0, (near_theirs & empty).bit_count() / 24.0,
            (near_own & empty & friend[player]).bit_count() / 24.0,
            (near_theirs & empty & friend[other]).bit_count() / 24.0,
            (own & near_theirs).bit_count() / PIECES, (theirs & near_own).bit_count() / PIECES,
            min(state._nj, NO_JUMP_DRAW) / NO_JUMP_DRAW, placement, sign)


#: The learned value of the two-player game (weights read at its first evaluation). Kept: at
#: equal positions searched it beat the hand-set evaluator, SPRT of 0 against +50 Elo accepted
#: (benchmarks/learned.py; docs: strength.md, learned values), so level 4 plays it (description.py:
#: why level 4 alone).
LEARNED = LearnedValue(features, FEATURES, __package__, kept=True)
