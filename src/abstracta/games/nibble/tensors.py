"""Nibble's observation tensor for the research adapters (issue 19; spine: ``State.observation_tensor``).

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
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ...core.game import check_player
from ...core.tensors import Plane, TensorBuilder
from .geometry import geometry

if TYPE_CHECKING:  # pragma: no cover
    from .rules import NibbleGame, NibbleState


@lru_cache(maxsize=None)
def _layout(variant: str) -> tuple[tuple[Plane, ...], tuple[int, ...], int]:
    """(planes, flat grid index of each cell, grid size) of one board."""
    g = geometry(variant)
    rs = [rc[1] if not g.hex else rc[0] for rc in g.coords]
    cs = [rc[0] if not g.hex else rc[1] for rc in g.coords]
    r0, c0 = min(rs), min(cs)
    rows, cols = max(rs) - r0 + 1, max(cs) - c0 + 1
    index = tuple((r - r0) * cols + (c - c0) for r, c in zip(rs, cs))
    k = g.colours
    planes = (Plane("discs", (k, rows, cols), "1 where a disc of colour k lies"),
              Plane("cells", (rows, cols), "1 where the board has a cell"),
              Plane("own_collected", (k,), "discs of each colour the observer took / discs per colour"),
              Plane("opponent_collected", (k,), "the same for the other player"),
              Plane("open_take", (k,), "1 at the colour of the take in progress"),
              Plane("to_move", (1,), "1 when the observer is to move"))
    return planes, index, rows * cols


def planes(game: "NibbleGame") -> tuple[Plane, ...]:
    return _layout(game.options["variant"])[0]


def observation_tensor(state: "NibbleState", player: int) -> list[float]:
    """Spec: nibble.md §1–§5. Raises ``ValueError`` for a player that is not 0 or 1."""
    player = check_player(player, 2)
    g = state.geometry
    planes_, index, area = _layout(g.variant)
    t = TensorBuilder(planes_)
    board = state.board
    for i, b in enumerate(g.bit):
        t.set("cells", index[i])
        colour = board[b]
        if colour >= 0:
            t.set("discs", colour * area + index[i])
    per = float(g.per_colour)
    for c in range(g.colours):
        t.set("own_collected", c, state.coll[player][c] / per)
        t.set("opponent_collected", c, state.coll[1 - player][c] / per)
    if state.take >= 0:
        t.set("open_take", state.take)
    if state.to_move == player and state.winner < 0:
        t.set("to_move", 0)
    return t.data
