"""Fanorona's observation tensor for the research adapters (issue 19; spine: ``State.observation_tensor``).

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
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ...core.game import check_player
from ...core.tensors import Plane, TensorBuilder

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


def planes(game: "FanoronaGame") -> tuple[Plane, ...]:
    g = game.geometry
    return planes_for(g.width, g.height)


@lru_cache(maxsize=None)
def _cell_index(names: tuple[str, ...], width: int) -> tuple[int, ...]:
    """Point index -> flat index ``rank * W + file`` of its plane cell."""
    return tuple((int(n[1:]) - 1) * width + (ord(n[0]) - 97) for n in names)


def observation_tensor(state: "FanoronaState", player: int) -> list[float]:
    """Spec: fanorona.md §2–§4. Raises ``ValueError`` for a player that is not 0 or 1."""
    player = check_player(player, 2)
    g = state._g
    cell = _cell_index(tuple(g.names), g.width)
    t = TensorBuilder(planes_for(g.width, g.height))
    mine, theirs = (state._own, state._opp) if state._side == player else (state._opp, state._own)
    for p in range(g.n):
        if mine >> p & 1:
            t.set("own_stones", cell[p])
        elif theirs >> p & 1:
            t.set("opponent_stones", cell[p])
    chain = state._ch
    if chain is not None:
        t.set("chain_stone", cell[chain[0]])
        for p in chain[3]:
            t.set("chain_visited", cell[p])
    if state._side == player and state._result is None:
        t.set("to_move", 0)
    t.set("no_progress", 0, min(state._nc, 100) / 100.0)
    return t.data
