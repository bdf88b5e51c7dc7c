"""Fibonacci's observation and information-state tensors for the research adapters (issue 19).

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

from ...core.game import check_player
from ...core.tensors import Plane, TensorBuilder
from .geometry import BIT, COL_OF, ROW_OF

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
_NAMES = ("own_core", "own_attackers", "own_supports", "opponent_core", "opponent_attackers",
          "opponent_supports")
#: padded bit -> flat grid index
_INDEX = {b: (ROW_OF[b] - 1) * 11 + (COL_OF[b] - 1) for b in BIT}


def planes(game: "FibonacciGame") -> tuple[Plane, ...]:
    return _BASE + (_CARDS if game.variant == "cards" else ())


def information_state_planes(game: "FibonacciGame") -> tuple[Plane, ...]:
    return planes(game) + (_CARDS_INFO if game.variant == "cards" else ())


@lru_cache(maxsize=None)
def _cells() -> tuple[int, ...]:
    return tuple(_INDEX[b] for b in BIT)


def _fill(state: "FibonacciState", player: int, t: TensorBuilder) -> None:
    player = check_player(player, 2)
    bb = state.bitboards
    for code in range(1, 7):
        side, kind = divmod(code - 1, 3)  # codes 1..3 Red core/attack/support, 4..6 Green
        name = _NAMES[kind + (0 if side == player else 3)]
        m = bb[code]
        while m:
            low = m & -m
            t.set(name, _INDEX[low.bit_length() - 1])
            m ^= low
    for i in _cells():
        t.set("cells", i)
    if state.current_player() == player:
        t.set("to_move", 0)
    t.set("moves_left", 0, max(0, min(state.left, 6)) / 6.0)
    t.set("turn", 0, min(state.turn, 300) / 300.0)
    t.set("placement", 0, state.placed / 26.0)
    if state._cards:
        if state.card is not None and not state._pending:
            t.set("card", state.card - 1)
        t.set("own_pile_size", 0, len(state.piles[player]) / 12.0)
        t.set("opponent_pile_size", 0, len(state.piles[1 - player]) / 12.0)


def observation_tensor(state: "FibonacciState", player: int) -> list[float]:
    """Spec: fibonacci.md §2–§5, §9. Raises ``ValueError`` for a player that is not 0 or 1."""
    t = TensorBuilder(planes(state.game))
    _fill(state, player, t)
    return t.data


def information_state_tensor(state: "FibonacciState", player: int) -> list[float]:
    t = TensorBuilder(information_state_planes(state.game))
    _fill(state, player, t)
    if state._cards:
        for who, name in ((player, "own_pile_left"), (1 - player, "opponent_pile_left")):
            pile = state.piles[who]
            for v in range(1, 7):
                t.set(name, v - 1, pile.count(v) / 2.0)
    return t.data
