"""Slide Checkers' observation tensor for the research adapters (issues 19, 45; Spec §1–§5).

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

The blocks are the seats' bitboards as they are (square ``sq = x * 12 + y`` is the plane's
flat cell; :mod:`abstracta.core.tensors`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ...core.options import check_player
from ...core.tensors import Features, Layout, Plane, TensorSpec
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


@lru_cache(maxsize=None)
def layout_for(n: int, pieces_per_player: int) -> Layout:
    """Blocks: the pieces of each seat index, the colour squares of each, the jumping piece
    (square bitboards), to move (``1 << seat index``), placement. Scalars: pieces to place per
    seat index, turns without a jump."""
    layout = Layout(planes_for(n))
    tables = [layout.cells("pieces", start=i * NUM_SQUARES)[:NUM_SQUARES] for i in range(n)]
    tables += [layout.cells("colour_squares", start=i * NUM_SQUARES)[:NUM_SQUARES] for i in range(n)]
    tables += [layout.cells("jumping"), layout.cells("to_move"), layout.cells("placement")]
    scalars = [layout.scalar_of("to_place", i) for i in range(n)] + [layout.scalar_of("no_jump")]
    return layout.with_blocks(tables, scalars=scalars, divisors=[pieces_per_player] * n + [100])


class SlideCheckersTensors(TensorSpec):
    """Spec: slide-checkers.md §1–§5 (seat index ``i`` is seat ``(player + i) mod n``)."""

    def __init__(self, game: "SlideCheckersGame"):
        self.game = game
        n = game.num_players
        self.observation = self.information_state = layout_for(n, game.pieces_per_player)
        self._n = n
        #: per observer: the colour-square blocks (they never change)
        self._colours = tuple(tuple(game.friend[(player + i) % n] for i in range(n)) for player in range(n))

    def observation_features(self, state: "SlideCheckersState", player: int) -> Features:
        """Raises ``ValueError`` for a player that is not a seat."""
        n = self._n
        if type(player) is not int or not 0 <= player < n:
            player = check_player(player, n)
        bb = state._bb
        jsq = state._jsq
        mover = state.current_player()
        remain = state._remain
        nj = state._nj
        return ((*bb[player:], *bb[:player], *self._colours[player], 1 << jsq if jsq >= 0 else 0,
                 1 << (mover - player) % n if mover >= 0 else 0, 1 if state._phase == 0 else 0),  # 0: placement
                (*remain[player:], *remain[:player], nj if nj < 100 else 100))


def planes(game: "SlideCheckersGame") -> tuple[Plane, ...]:
    return planes_for(game.num_players)
