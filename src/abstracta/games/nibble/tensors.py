"""Nibble's observation tensor for the research adapters (issues 19, 45; spine: ``State.observation_tensor``).

The board is laid on a grid of ``R × C`` cells (square boards: rank 1 = row 0, file a = column
0; hexagon: row = ``r − 1``, column = ``c − 1`` of its ``(r, c)`` names); ``K`` colours.

==================  ==========  =========================================================
name                shape       value
==================  ==========  =========================================================
discs               (K, R, C)   1 where a disc of colour k lies
cells               (R, C)      1 where the board has a cell (all 1 on square boards)
own_collected       (K,)        discs of each colour the observer took / discs per colour
opponent_collected  (K,)        the same for the other player
open_take           (K,)        1 at the colour of the take in progress (§5), else 0
to_move             (1,)        1 when the observer is to move
==================  ==========  =========================================================

square9 (9 × 9): 9·81 + 81 + 3·9 + 1 = 838 floats; square13 (13 × 13): 2,406; hex (15 × 15 grid
of 169 cells): 13·225 + 225 + 3·13 + 1 = 3,190.
Perfect information: the information-state tensor is the same.

The blocks are the state's colour bitboards as they are (``cmask[k]``), so a take changes one
bit (:mod:`abstracta.core.tensors`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ...core.options import check_player
from ...core.tensors import Features, Layout, Plane, TensorSpec
from .geometry import geometry

if TYPE_CHECKING:  # pragma: no cover
    from .rules import NibbleGame, NibbleState


@lru_cache(maxsize=None)
def _grid(variant: str) -> tuple[tuple[int, ...], int, int]:
    """(flat grid index of each canonical cell, rows, columns) of one board."""
    g = geometry(variant)
    rs = [rc[1] if not g.hex else rc[0] for rc in g.coords]
    cs = [rc[0] if not g.hex else rc[1] for rc in g.coords]
    r0, c0 = min(rs), min(cs)
    rows, cols = max(rs) - r0 + 1, max(cs) - c0 + 1
    return tuple((r - r0) * cols + (c - c0) for r, c in zip(rs, cs)), rows, cols


@lru_cache(maxsize=None)
def planes_for(variant: str) -> tuple[Plane, ...]:
    _, rows, cols = _grid(variant)
    k = geometry(variant).colours
    return (Plane("discs", (k, rows, cols), "1 where a disc of colour k lies"),
            Plane("cells", (rows, cols), "1 where the board has a cell"),
            Plane("own_collected", (k,), "discs of each colour the observer took / discs per colour"),
            Plane("opponent_collected", (k,), "the same for the other player"),
            Plane("open_take", (k,), "1 at the colour of the take in progress"),
            Plane("to_move", (1,), "1 when the observer is to move"))


@lru_cache(maxsize=None)
def layout_for(variant: str) -> Layout:
    """Blocks: colour k's discs (bitboard ``cmask[k]``) for each k, the board's cells, the open
    take's colour (``1 << k``), to move. Scalars: the collected counts (own, then the
    opponent's), each divided by the discs per colour."""
    g = geometry(variant)
    index, rows, cols = _grid(variant)
    area = rows * cols
    k = g.colours
    layout = Layout(planes_for(variant))
    grid = [index[i] if i >= 0 else -1 for i in g.cell_of_bit]  # padding bits: never set
    tables = [layout.cells("discs", [c * area + x if x >= 0 else -1 for x in grid]) for c in range(k)]
    tables += [layout.cells("cells", grid), layout.cells("open_take"), layout.cells("to_move")]
    scalars = [layout.scalar_of("own_collected", c) for c in range(k)] + \
              [layout.scalar_of("opponent_collected", c) for c in range(k)]
    return layout.with_blocks(tables, scalars=scalars, divisors=[g.per_colour] * (2 * k))


class NibbleTensors(TensorSpec):
    """Spec: nibble.md §1–§5."""

    def __init__(self, game: "NibbleGame"):
        self.game = game
        g = game.geometry
        self.observation = self.information_state = layout_for(g.variant)
        self._cells = g.all_mask

    def observation_features(self, state: "NibbleState", player: int) -> Features:
        """Raises ``ValueError`` for a player that is not 0 or 1."""
        if type(player) is not int or player >> 1:  # a plain int 0 or 1 passes at once
            player = check_player(player, 2)
        take = state.take
        coll = state.coll
        return ((*state.cmask, self._cells, 1 << take if take >= 0 else 0,
                 1 if state.to_move == player and state.winner < 0 else 0),
                (*coll[player], *coll[1 - player]))


def planes(game: "NibbleGame") -> tuple[Plane, ...]:
    return planes_for(game.options["variant"])
