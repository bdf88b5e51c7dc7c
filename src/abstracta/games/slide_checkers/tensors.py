"""Slide Checkers' observation tensor for the research adapters (issue 19; Spec §1–§5).

Seats are listed from the observer on: seat ``(player + i) mod n`` is index ``i`` (so index 0
is always the observer). Squares form a 12 × 12 grid in square-index order (file a..l = row
0..11, rank 1..12 = column 0..11, ``geometry.square_name``).

==================  ============  ==========================================================
name                shape         value
==================  ============  ==========================================================
pieces              (n, 12, 12)   1 where seat index i has a piece
colour_squares      (n, 12, 12)   1 on the squares of seat index i's colour (slides, §4)
jumping             (12, 12)      1 at the piece in the middle of a jump chain
to_move             (n,)          1 at the seat index to move
placement           (1,)          1 during the placement phase (§3)
to_place            (n,)          pieces each seat index has still to place / pieces per seat
no_jump             (1,)          turns since the last jump / 100 (the §5 draw rule)
==================  ============  ==========================================================

2 players: 4·144 + 144 + 2 + 1 + 2 + 1 = 726 floats; 3: 1,016; 4: 1,306. Perfect
information: the information-state tensor is the same.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ...core.game import check_player
from ...core.tensors import Plane, TensorBuilder
from .geometry import NUM_SQUARES

if TYPE_CHECKING:  # pragma: no cover
    from .rules import SlideCheckersGame, SlideCheckersState


@lru_cache(maxsize=None)
def planes_for(n: int) -> tuple[Plane, ...]:
    return (Plane("pieces", (n, 12, 12), "1 where seat index i has a piece"),
            Plane("colour_squares", (n, 12, 12), "1 on the squares of seat index i's colour"),
            Plane("jumping", (12, 12), "1 at the piece in the middle of a jump chain"),
            Plane("to_move", (n,), "1 at the seat index to move"),
            Plane("placement", (1,), "1 during the placement phase"),
            Plane("to_place", (n,), "pieces still to place / pieces per seat"),
            Plane("no_jump", (1,), "turns since the last jump / 100"))


def planes(game: "SlideCheckersGame") -> tuple[Plane, ...]:
    return planes_for(game.num_players)


def observation_tensor(state: "SlideCheckersState", player: int) -> list[float]:
    """Raises ``ValueError`` for a player that is not a seat."""
    n = state._n
    player = check_player(player, n)
    game = state.game
    t = TensorBuilder(planes_for(n))
    for i in range(n):
        seat = (player + i) % n
        base = i * NUM_SQUARES
        m = state._bb[seat]
        while m:
            low = m & -m
            t.set("pieces", base + low.bit_length() - 1)
            m ^= low
        m = game.friend[seat]
        while m:
            low = m & -m
            t.set("colour_squares", base + low.bit_length() - 1)
            m ^= low
        t.set("to_place", i, state._remain[seat] / game.pieces_per_player)
    if state._jsq >= 0:
        t.set("jumping", state._jsq)
    mover = state.current_player()
    if mover >= 0:
        t.set("to_move", (mover - player) % n)
    if state.phase == "placement":
        t.set("placement", 0)
    t.set("no_jump", 0, min(state._nj, 100) / 100.0)
    return t.data
