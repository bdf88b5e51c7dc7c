"""Move generation tables of Fibonacci: what the side to move's pieces may do (Spec: fibonacci.md §4).

A move action is ``from·91 + to`` over dense cell indices (a1 = 0 … k11 = 90, see
:mod:`.notation`); :data:`FROM_BIT` and :data:`TO_BIT` give its two padded bits (see
:mod:`.geometry`). :func:`type_moves` computes, for the pieces of one owner and type, each piece's
destination mask ``D(p)`` and the sorted move actions, memoised per bitboard and per group:
``D(p)`` depends only on the bitboard of ``p``'s own owner and type (any destination may be
occupied, §4). The rules (:mod:`.rules`) call it for the mover's attack and support bitboards.

Pure functions of bitboards: below the rules, importing only the geometry and the action ids.
"""

from __future__ import annotations

from abstracta.core.memos import memo

from .geometry import BIT, DENSE, NUM_CELLS, VALID, dense_list
from .notation import NMOVE

#: Padded bit of the ``from`` cell of each move action (index: action 0 … 8280).
FROM_BIT: list[int] = [BIT[a // NUM_CELLS] for a in range(NMOVE)]
#: Padded bit of the ``to`` cell of each move action.
TO_BIT: list[int] = [BIT[a % NUM_CELLS] for a in range(NMOVE)]


#: registered (core.memos): a web process bounds them tighter than a search does
_TYPE_MEMO: dict[int, tuple[dict[int, int], list[int]]] = memo("fibonacci.type_moves")
_GROUP_MEMO: dict[int, tuple[dict[int, int], list[int]]] = memo("fibonacci.group_moves")
#: Memo sizes (entries); a full memo is simply cleared.
_TYPE_LIMIT = 20_000
_GROUP_LIMIT = 50_000


def _group_moves(g: int, d: int) -> tuple[dict[int, int], list[int]]:
    """Moves of one group ``g`` (a bitboard) whose neighbourhood (dilation) is ``d``: every piece
    shares ``D = d − g`` (§4). Returns ``({from bit: destination mask}, actions)``, the actions in
    canonical order (from, then to)."""
    dest = d & ~g
    dl = dense_list(dest)
    dm: dict[int, int] = {}
    acts: list[int] = []
    while g:
        low = g & -g
        fb = low.bit_length() - 1
        dm[fb] = dest
        base = DENSE[fb] * NUM_CELLS
        acts += [base + x for x in dl]
        g ^= low
    return dm, acts


def type_moves(mask: int) -> tuple[dict[int, int], list[int]]:
    """Moves of the pieces of one owner and type occupying ``mask`` (§4): ``({from bit: destination
    mask}, sorted actions)``. Groups are flooded once and share their destinations; results are
    memoised per mask and per group (they depend on nothing else: any destination may be occupied).

    ``mask``: a bitboard over the padded bits of :mod:`.geometry`, the cells of one owner's pieces of
    one type (attack or support). Returns the memo's own entry: callers must not mutate it (the
    rules copy the action lists before sorting them together). Raises nothing."""
    entry = _TYPE_MEMO.get(mask)
    if entry is not None:
        return entry
    gmemo = _GROUP_MEMO
    rem = mask
    dm: dict[int, int] | None = None
    acts: list[int] = []
    while rem:
        g = rem & -rem
        while True:
            d = ((g << 1) | (g >> 1) | (g << 12) | (g >> 12) | (g << 13) | (g >> 13)) & VALID
            ng = g | (d & mask)
            if ng == g:
                break
            g = ng
        rem ^= g
        part = gmemo.get(g)
        if part is None:
            if len(gmemo) >= _GROUP_LIMIT:
                gmemo.clear()
            part = gmemo[g] = _group_moves(g, d)
        if dm is None and not rem:
            entry = part
            break
        if dm is None:
            dm = {}
        dm.update(part[0])
        acts += part[1]
    else:
        acts.sort()
        entry = (dm or {}, acts)
    if len(_TYPE_MEMO) >= _TYPE_LIMIT:
        _TYPE_MEMO.clear()
    _TYPE_MEMO[mask] = entry
    return entry


__all__ = ["FROM_BIT", "TO_BIT", "type_moves"]
