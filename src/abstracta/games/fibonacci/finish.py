"""Winning turns of Fibonacci's card variant (Spec: fibonacci.md §4, §9.2): the oracle of the
card variant's levels 4–6.

A card-variant game is a race: a side wins once its six attackers form one group with at least
three of them next to the enemy core, and its turn is as many moves as its card shows. The turn
search (``abstracta.ai.turns``) completes its candidate turns greedily and so often walks past a
win that takes the whole card (measured: in 8 games between two ``turns:d1`` bots, a winning
turn was missed 9 times). :func:`find_winning_turn` looks for one exactly:

* Only moves that can bring a win are tried: the mover's attacker moves and the moves that swap
  a piece with the enemy core (dragging it). The opponent does not move within the turn, and an
  attacker may swap with any piece, so nothing blocks; a support helps only by dragging the
  core (one that must first step next to it is not tried).
* Pruning by :func:`moves_to_win`, a lower bound on the moves the attackers still need with the
  enemy core where it stands; children are tried lowest bound first; positions already searched
  with as many moves left are skipped (transpositions: the same moves in another order).
* A node budget bounds the work; past it the search gives up (no answer).

Blind spots: a win that needs a support to step next to the core before dragging it, and one
that needs a drag after a position the bound rules out (the bound ignores that a later move
may drag the core nearer).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from .geometry import BIT, DIST, NBM, dilate
from .movegen import FROM_BIT, TO_BIT
from .rules import PASS

if TYPE_CHECKING:
    from .rules import FibonacciState

#: Nodes :func:`winning_action` lets one search visit (about a second of CPU at most; most
#: winning turns are found within 2 000).
ORACLE_NODES = 20_000

_WORD = (1 << 64) - 1
_BYTE_COUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


def _popcount(words: np.ndarray) -> np.ndarray:
    """Set bits of each uint64 (numpy < 2 has no ``bitwise_count``)."""
    count = getattr(np, "bitwise_count", None)
    if count is not None:
        return count(words)
    return _BYTE_COUNT[words.view(np.uint8)].reshape(-1, 8).sum(axis=1, dtype=np.uint8)


@lru_cache(maxsize=None)
def win_sets(core: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every winning pattern around a core on bit ``core`` (§9.2): the connected sets of six
    cells (the core's cell excluded) with at least three cells next to the core, as three uint64
    arrays (bits 0–63, 64–127 and 128–191 of the padded bitboard), one entry a pattern."""
    ring = NBM[core]
    level = {1 << b for b in BIT if ring >> b & 1}
    for size in range(2, 7):
        grown = set()
        for s in level:
            adj = dilate(s) & ~s & ~(1 << core)
            while adj:
                low = adj & -adj
                adj ^= low
                t = s | low
                # a set that cannot reach three cells around the core any more is dropped
                if (t & ring).bit_count() + 6 - size >= 3:
                    grown.add(t)
        level = grown
    wins = sorted(s for s in level if (s & ring).bit_count() >= 3)
    return (np.array([s & _WORD for s in wins], dtype=np.uint64),
            np.array([(s >> 64) & _WORD for s in wins], dtype=np.uint64),
            np.array([s >> 128 for s in wins], dtype=np.uint64))


_BOUND: dict[tuple[int, int], int] = {}


def moves_to_win(attackers: int, core: int) -> int:
    """A lower bound on the moves ``attackers`` (a bitboard of one side's attackers) need to win
    around the enemy core on bit ``core``, the core staying where it is; 0 when they have won.

    A move relocates one attacker, so ``6 − (most attackers already on one winning pattern)``;
    when every attacker is farther than four cells from the core (on no pattern), the nearest,
    ``d`` cells away, gets one cell nearer a move and three must reach the core: ``d + 1``.
    Memoised."""
    key = (attackers, core)
    got = _BOUND.get(key)
    if got is not None:
        return got
    w0, w1, w2 = win_sets(core)
    overlap = int((_popcount(w0 & np.uint64(attackers & _WORD)) + _popcount(w1 & np.uint64((attackers >> 64) & _WORD))
                   + _popcount(w2 & np.uint64(attackers >> 128))).max())
    if overlap:
        n = 6 - overlap
    else:
        row = DIST[core]
        near = 99
        m = attackers
        while m:
            low = m & -m
            near = min(near, row[low.bit_length() - 1])
            m ^= low
        n = near + 1
    if len(_BOUND) >= 200_000:
        _BOUND.clear()
    _BOUND[key] = n
    return n


def side_moves_to_win(state: "FibonacciState", player: int) -> int:
    """:func:`moves_to_win` of ``player``'s attackers around the opponent's core in ``state``."""
    bb = state.bitboards
    return moves_to_win(bb[2 + 3 * player], bb[4 - 3 * player].bit_length() - 1)


class _OutOfNodes(Exception):
    pass


def find_winning_turn(state: "FibonacciState", moves: int, max_nodes: int = ORACLE_NODES) -> list[int] | None:
    """Actions of the side to move in ``state`` (cards variant, a move due: never mutated) that
    win within ``moves`` moves, or ``None`` when the search finds none within ``max_nodes``
    nodes (see the module docstring for what it tries)."""
    player = state.side
    s = state.clone()
    bb = s.bitboards  # the list is updated in place by apply/undo
    ai, ci = 2 + 3 * player, 4 - 3 * player
    seen: dict[int, int] = {}
    nodes = 0

    def search(k: int) -> list[int] | None:
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            raise _OutOfNodes
        key = s.zobrist
        if seen.get(key, 0) >= k:
            return None
        seen[key] = k
        att, core = bb[ai], bb[ci]
        children = []
        for a in s.legal_actions():
            if a == PASS or not ((att >> FROM_BIT[a]) & 1 or (core >> TO_BIT[a]) & 1):
                continue
            s.apply_action(a)
            if s.result is not None:
                won = s.result[player] > 0
                s.undo_action()
                if won:
                    return [a]
                continue
            if k > 1:
                bound = moves_to_win(bb[ai], bb[ci].bit_length() - 1)
                if bound < k:
                    children.append((bound, a))
            s.undo_action()
        children.sort()
        for _, a in children:
            s.apply_action(a)
            found = search(k - 1)
            s.undo_action()
            if found is not None:
                return [a] + found
        return None

    if state.result is not None or moves < 1 or side_moves_to_win(state, player) > moves:
        return None
    try:
        return search(moves)
    except _OutOfNodes:
        return None


_PLANS: dict[tuple[int, int, int], int | None] = {}


def winning_action(state: "FibonacciState") -> int | None:
    """The card variant's oracle (``Search.oracle``): the next action of a turn that wins now
    (:func:`find_winning_turn` within the moves left, :data:`ORACLE_NODES` nodes), else
    ``None``. Reads only the board and the moves left (public); answers are remembered by
    position, so the rest of a found turn costs nothing."""
    if (state.result is not None or state.game.variant != "cards" or state.current_player() != state.side
            or state.left < 1):
        return None
    player = state.side
    if side_moves_to_win(state, player) > state.left:
        return None
    key = (state.zobrist, state.left, player)
    if key in _PLANS:
        return _PLANS[key]
    if len(_PLANS) >= 20_000:
        _PLANS.clear()
    plan = find_winning_turn(state, state.left, ORACLE_NODES)
    if plan is None:
        _PLANS[key] = None
        return None
    s = state.clone()
    for action in plan:
        _PLANS[(s.zobrist, s.left, player)] = action
        s.apply_action(action)
    return plan[0]
