"""Fibonacci's observation and information-state tensors for the research adapters (issues 19, 45).

The hexagon sits on an 11 × 11 grid: row = the cell's row letter (a = 0), column = its number
− 1. "own" is the observer's side.

==================  ========  ==============================================================
name                shape     value
==================  ========  ==============================================================
own_core            (11, 11)  1 at the observer's core (likewise own_attackers, own_supports)
own_attackers       (11, 11)
own_supports        (11, 11)
opponent_core       (11, 11)  the other side's pieces, same three planes
opponent_attackers  (11, 11)
opponent_supports   (11, 11)
cells               (11, 11)  1 at the 91 cells of the board
to_move             (1,)      1 when the observer is to move
moves_left          (1,)      moves left this turn / 6 (§3)
turn                (1,)      turn number / 300 (the length cap, §5)
placement           (1,)      placements done / 26 (Go start, §9.3; 1 once movement began)
==================  ========  ==============================================================

Card variant (§9.2) only, appended: ``card`` (6,) one-hot of this turn's revealed value
(1..6), ``own_pile_size`` and ``opponent_pile_size`` (1,) cards left / 12. Its information
state adds ``own_pile_left`` and ``opponent_pile_left`` (6,): cards of each value still in
each pile / 2 — what the reveals so far tell about the hidden order's contents.

Standard and Go: 7·121 + 4 = 851 floats (information state the same); cards: 859 and 871.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ...core.options import check_player
from ...core.tensors import Features, Layout, Plane, TensorSpec
from .geometry import BIT, COL_OF, ROW_OF, STRIDE

if TYPE_CHECKING:  # pragma: no cover
    from .rules import FibonacciGame, FibonacciState

_GRID = (11, 11)
_BASE = (
    Plane("own_core", _GRID, "1 at the observer's core"),
    Plane("own_attackers", _GRID, "1 at the observer's attack pieces"),
    Plane("own_supports", _GRID, "1 at the observer's support pieces"),
    Plane("opponent_core", _GRID, "1 at the other side's core"),
    Plane("opponent_attackers", _GRID, "1 at the other side's attack pieces"),
    Plane("opponent_supports", _GRID, "1 at the other side's support pieces"),
    Plane("cells", _GRID, "1 at the cells of the board"),
    Plane("to_move", (1,), "1 when the observer is to move"),
    Plane("moves_left", (1,), "moves left this turn / 6"),
    Plane("turn", (1,), "turn number / 300"),
    Plane("placement", (1,), "placements done / 26"),
)
_CARDS = (
    Plane("card", (6,), "one-hot of this turn's revealed card value 1..6"),
    Plane("own_pile_size", (1,), "cards left in the observer's pile / 12"),
    Plane("opponent_pile_size", (1,), "cards left in the other pile / 12"),
)
_CARDS_INFO = (
    Plane("own_pile_left", (6,), "cards of each value left in the observer's pile / 2"),
    Plane("opponent_pile_left", (6,), "cards of each value left in the other pile / 2"),
)
#: bit width of a padded bitboard (rows 0..12 of STRIDE bits)
_WIDTH = STRIDE * 13
#: padded bit -> flat grid index
_INDEX = {b: (ROW_OF[b] - 1) * 11 + (COL_OF[b] - 1) for b in BIT}
_CELLS = sum(1 << b for b in BIT)
#: the piece codes (1..3 Red core/attack/support, 4..6 Green) in plane order, per observer
_CODES = ((1, 2, 3, 4, 5, 6), (4, 5, 6, 1, 2, 3))


def planes(game: "FibonacciGame") -> tuple[Plane, ...]:
    return _BASE + (_CARDS if game.variant == "cards" else ())


def information_state_planes(game: "FibonacciGame") -> tuple[Plane, ...]:
    return planes(game) + (_CARDS_INFO if game.variant == "cards" else ())


@lru_cache(maxsize=None)
def layout_for(cards: bool, info: bool) -> Layout:
    """Blocks: the six piece planes and the cells (padded bitboards), to move, the card
    (``1 << value - 1``). Scalars: moves left, turn, placements, then (cards) the pile sizes
    and (information state) the cards of each value left in each pile."""
    layout = Layout(_BASE + (_CARDS if cards else ()) + (_CARDS_INFO if info else ()))
    order = [_INDEX.get(b, -1) for b in range(_WIDTH)]
    tables = [layout.cells(plane.name, order) for plane in _BASE[:7]] + [layout.cells("to_move")]
    if cards:
        tables.append(layout.cells("card"))
    scalars = [layout.scalar_of("moves_left"), layout.scalar_of("turn"), layout.scalar_of("placement")]
    divisors = [6, 300, 26]
    if cards:
        scalars += [layout.scalar_of("own_pile_size"), layout.scalar_of("opponent_pile_size")]
        divisors += [12, 12]
    if info:
        scalars += [layout.scalar_of("own_pile_left", v) for v in range(6)]
        scalars += [layout.scalar_of("opponent_pile_left", v) for v in range(6)]
        divisors += [2] * 12
    return layout.with_blocks(tables, scalars=scalars, divisors=divisors)


class FibonacciTensors(TensorSpec):
    """Spec: fibonacci.md §2–§5, §9."""

    def __init__(self, game: "FibonacciGame"):
        self.game = game
        self._cards = cards = game.variant == "cards"
        self.observation = layout_for(cards, False)
        self.information_state = layout_for(cards, cards)  # the piles are what the standard game lacks

    def observation_features(self, state: "FibonacciState", player: int) -> Features:
        """Raises ``ValueError`` for a player that is not 0 or 1."""
        if type(player) is not int or player >> 1:  # a plain int 0 or 1 passes at once
            player = check_player(player, 2)
        bb = state.bitboards
        blocks = (*(bb[code] for code in _CODES[player]), _CELLS, 1 if state.current_player() == player else 0)
        left = state.left
        scalars: tuple[int, ...] = (0 if left < 0 else 6 if left > 6 else left,
                                    state.turn if state.turn < 300 else 300, state.placed)
        if self._cards:
            card = state.card
            blocks += (1 << (card - 1) if card is not None and not state._pending else 0,)
            piles = state.piles
            scalars += (len(piles[player]), len(piles[1 - player]))
        return blocks, scalars

    def information_state_features(self, state: "FibonacciState", player: int) -> Features:
        blocks, scalars = self.observation_features(state, player)
        if self._cards:
            mine, theirs = state.piles[player], state.piles[1 - player]
            scalars += tuple(mine.count(v) for v in range(1, 7)) + tuple(theirs.count(v) for v in range(1, 7))
        return blocks, scalars
