"""Fanorona's observation tensor for the research adapters (issues 19, 45; spine: ``State.observation_tensor``).

Planes, from the observer's side (``H`` ranks × ``W`` files, rank 1 = row 0, file a = column 0):

==================  =========  ==========================================================
name                shape      value
==================  =========  ==========================================================
own_stones          (H, W)     1 where the observer has a stone
opponent_stones     (H, W)     1 where the other side has a stone
chain_stone         (H, W)     1 at the stone of an open capture chain (§3.2)
chain_visited       (H, W)     1 at the points that stone visited this turn
to_move             (1,)       1 when the observer is to move
no_progress         (1,)       turns since the last capture / 100 (§4 draw rule)
==================  =========  ==========================================================

Tsivy: 4 × 45 + 2 = 182 floats; dimy 102; telo 38. Perfect information: the information-state
tensor is the same.

The blocks are the state's own bitboards (point index ``p = file * H + rank``), as they are
(:mod:`abstracta.core.tensors`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ...core.options import check_player
from ...core.tensors import Features, Layout, Plane, TensorSpec

if TYPE_CHECKING:  # pragma: no cover
    from .rules import FanoronaGame, FanoronaState


@lru_cache(maxsize=None)
def planes_for(width: int, height: int) -> tuple[Plane, ...]:
    hw = (height, width)
    return (Plane("own_stones", hw, "1 where the observer has a stone"),
            Plane("opponent_stones", hw, "1 where the other side has a stone"),
            Plane("chain_stone", hw, "1 at the stone of an open capture chain"),
            Plane("chain_visited", hw, "1 at the points that stone visited this turn"),
            Plane("to_move", (1,), "1 when the observer is to move"),
            Plane("no_progress", (1,), "turns since the last capture / 100"))


@lru_cache(maxsize=None)
def layout_for(width: int, height: int) -> Layout:
    """Blocks: own stones, opponent's, chain stone, visited (point bitboards), to move."""
    layout = Layout(planes_for(width, height))
    # point p = x * H + y -> plane cell y * W + x
    order = [(p % height) * width + p // height for p in range(width * height)]
    tables = [layout.cells(name, order) for name in ("own_stones", "opponent_stones", "chain_stone", "chain_visited")]
    return layout.with_blocks(tables + [layout.cells("to_move")], scalars=[layout.scalar_of("no_progress")],
                              divisors=[100])


class FanoronaTensors(TensorSpec):
    """Spec: fanorona.md §2–§4."""

    def __init__(self, game: "FanoronaGame"):
        self.game = game
        g = game.geometry
        self.observation = self.information_state = layout_for(g.width, g.height)

    def observation_features(self, state: "FanoronaState", player: int) -> Features:
        """Raises ``ValueError`` for a player that is not 0 or 1."""
        if type(player) is not int or player >> 1:  # a plain int 0 or 1 passes at once
            player = check_player(player, 2)
        side = state._side
        chain = state._ch
        stone = visited = 0
        if chain is not None:
            stone = 1 << chain[0]
            for p in chain[3]:
                visited |= 1 << p
        nc = state._nc
        scalars = (nc if nc < 100 else 100,)
        if side == player:
            return (state._own, state._opp, stone, visited, 1 if state._result is None else 0), scalars
        return (state._opp, state._own, stone, visited, 0), scalars


def planes(game: "FanoronaGame") -> tuple[Plane, ...]:
    g = game.geometry
    return planes_for(g.width, g.height)
