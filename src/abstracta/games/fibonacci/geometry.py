"""Geometry of the 91-cell Fibonacci board, built once at import (Spec: fibonacci.md §1).

Cells live in a padded bitboard: cell ``(r, c)`` (row ``r`` = 1..11 for ``a``..``k``, column
``c`` = 1..11) is bit ``12·r + c``. Column 0 of every row and rows 0 and 12 are padding, so the
six neighbour directions are plain shifts (E +1, NE +13, NW +12, W −1, SW −13, SE −12)
masked by :data:`VALID`. Bit order equals the spec's canonical cell order (row, then column).

Actions use the dense cell index 0..90 (same order): see :data:`DENSE` and :data:`BIT`.
"""

from __future__ import annotations

from ...core.bitboard import bits  # noqa: F401  (re-exported for the game modules)

from abstracta.core.rng import SplitMix64

ROWS = "abcdefghijk"
STRIDE = 12

#: Neighbour offsets in the spec's fixed cyclic order E, NE, NW, W, SW, SE (§1).
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))


def exists(r: int, c: int) -> bool:
    """Whether cell (row ``r``, column ``c``) is on the board (§1: 1 ≤ c ≤ 11, |r − c| ≤ 5)."""
    return 1 <= r <= 11 and 1 <= c <= 11 and abs(r - c) <= 5


#: Bit index of every cell, canonical order (a1 … k11); dense index ``i`` ↔ ``BIT[i]``.
BIT: list[int] = [r * STRIDE + c for r in range(1, 12) for c in range(1, 12) if exists(r, c)]
NUM_CELLS = len(BIT)
assert NUM_CELLS == 91
#: Dense index of a bit (−1 for padding bits).
DENSE: list[int] = [-1] * (STRIDE * 13)
for _i, _b in enumerate(BIT):
    DENSE[_b] = _i
#: Row and column of a bit.
ROW_OF: list[int] = [b // STRIDE for b in range(STRIDE * 13)]
COL_OF: list[int] = [b % STRIDE for b in range(STRIDE * 13)]
#: Name of a bit (``"a1"``), '' for padding.
NAME: list[str] = ["" if DENSE[b] < 0 else f"{ROWS[ROW_OF[b] - 1]}{COL_OF[b]}" for b in range(STRIDE * 13)]
#: Bit of a cell name.
BIT_OF_NAME: dict[str, int] = {NAME[b]: b for b in BIT}

VALID = 0
for _b in BIT:
    VALID |= 1 << _b

#: Neighbour mask of each bit (0 for padding).
NBM: list[int] = [0] * (STRIDE * 13)
#: Neighbour bits of each bit in the fixed cyclic order E, NE, NW, W, SW, SE.
NEIGHBOURS: list[tuple[int, ...]] = [()] * (STRIDE * 13)
for _b in BIT:
    _r, _c = ROW_OF[_b], COL_OF[_b]
    _ns = tuple((_r + dr) * STRIDE + _c + dc for dr, dc in DIRECTIONS if exists(_r + dr, _c + dc))
    NEIGHBOURS[_b] = _ns
    for _n in _ns:
        NBM[_b] |= 1 << _n

#: Cells with six on-board neighbours (only these cores can be surrounded, §5).
DEG6 = 0
for _b in BIT:
    if len(NEIGHBOURS[_b]) == 6:
        DEG6 |= 1 << _b

#: Row lengths and first columns, for text and drawing.
ROW_CELLS: list[list[int]] = [[b for b in BIT if ROW_OF[b] == r] for r in range(12)]


def dilate(mask: int) -> int:
    """Cells adjacent to at least one cell of ``mask`` (may include cells of ``mask``)."""
    return ((mask << 1) | (mask >> 1) | (mask << 12) | (mask >> 12) | (mask << 13) | (mask >> 13)) & VALID


def group_of(seed_bit: int, same: int) -> int:
    """The connected component of ``same`` (a bitboard) containing the single bit ``seed_bit``."""
    g = seed_bit
    while True:
        ng = g | (dilate(g) & same)
        if ng == g:
            return g
        g = ng




# --- Zobrist keys ----------------------------------------------------------------------------
_z = SplitMix64(0xF1B0_7AC1_2026)
#: ZOBRIST[piece code][bit]; code 0 (empty) is all zero.
ZOBRIST: list[list[int]] = [[0] * (STRIDE * 13)] + [
    [_z.next() if DENSE[b] >= 0 else 0 for b in range(STRIDE * 13)] for _ in range(6)
]
Z_SIDE = _z.next()
Z_BASE: list[int] = [_z.next() for _ in range(7)]
Z_LEFT: list[int] = [_z.next() for _ in range(7)]
Z_PLACED: list[int] = [_z.next() for _ in range(27)]


def _row_tables() -> list[list[tuple[int, ...]]]:
    tables: list[list[tuple[int, ...]]] = []
    for r in range(12):
        table: list[tuple[int, ...]] = [()] * 4096
        cols = [b - r * STRIDE for b in ROW_CELLS[r]]
        for subset in range(1 << len(cols)):
            chunk = 0
            dense = []
            for j, col in enumerate(cols):
                if subset >> j & 1:
                    chunk |= 1 << col
                    dense.append(DENSE[r * STRIDE + col])
            table[chunk] = tuple(dense)
        tables.append(table)
    return tables


#: ROW_DENSE[r][chunk]: dense indices of the cells of row ``r`` set in the 12-bit ``chunk``.
ROW_DENSE: list[list[tuple[int, ...]]] = _row_tables()


def dense_list(mask: int) -> list[int]:
    """Dense indices of the cells of ``mask`` (a VALID-masked bitboard), ascending."""
    out: list[int] = []
    if not mask:
        return out
    r = ((mask & -mask).bit_length() - 1) // STRIDE
    m = mask >> (STRIDE * r)
    while m:
        c = m & 4095
        if c:
            out += ROW_DENSE[r][c]
        m >>= STRIDE
        r += 1
    return out


def hex_distance(a: int, b: int) -> int:
    """Steps between cells (bits) ``a`` and ``b`` on the board's neighbour graph (§1 directions)."""
    dr = ROW_OF[b] - ROW_OF[a]
    dc = COL_OF[b] - COL_OF[a]
    if dr * dc >= 0:
        return max(abs(dr), abs(dc))
    return abs(dr) + abs(dc)


#: DIST[a][b]: hex distance between bits (0 for padding).
DIST: list[list[int]] = [[hex_distance(a, b) if DENSE[a] >= 0 and DENSE[b] >= 0 else 0
                          for b in range(STRIDE * 13)] for a in range(STRIDE * 13)]
