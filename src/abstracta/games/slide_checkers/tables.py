"""Precomputed geometry tables of the 12×12 board (shared by every board option).

Square index ``sq = x * 12 + y``; bitboards are ``int`` with bit ``sq``. The *rank* of a square
(:data:`RANK`) is its position in the ASCII order of square names (``a1 a10 a11 a12 a2 … l9``);
action ids are built from ranks so that sorting ids sorts their strings (Spec §4.3 "Canonical
order"). Because names sort by file first, ``RANK[x*12+y] = x*12 + YRANK[y]``.
"""

from __future__ import annotations

from ...core.bitboard import bits  # noqa: F401  (re-exported for the game modules)

from ...core.rng import SplitMix64
from .geometry import NUM_SQUARES, SIZE, SQUARE_NAMES

FULL = (1 << NUM_SQUARES) - 1
_Y0 = sum(1 << (x * SIZE) for x in range(SIZE))
_Y11 = sum(1 << (x * SIZE + SIZE - 1) for x in range(SIZE))
#: masks used by :func:`dilate`: a shift by ±1 must not wrap between files
NOT_Y0 = FULL ^ _Y0
NOT_Y11 = FULL ^ _Y11

#: the eight directions N NE E SE S SW W NW as (dx, dy) (Spec §1)
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

#: YRANK[y]: position of rank name str(y+1) among "1".."12" in ASCII order
YRANK: tuple[int, ...] = tuple(sorted(range(SIZE), key=lambda y: str(y + 1)).index(y) for y in range(SIZE))
RANK: tuple[int, ...] = tuple((sq // SIZE) * SIZE + YRANK[sq % SIZE] for sq in range(NUM_SQUARES))
SQ_OF_RANK: tuple[int, ...] = tuple(sorted(range(NUM_SQUARES), key=lambda sq: RANK[sq]))
assert [SQUARE_NAMES[s] for s in SQ_OF_RANK] == sorted(SQUARE_NAMES)

#: COLK[v]: for a 12-bit file mask v (bit y), the rank offsets YRANK[y] of its set bits, ascending
COLK: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(YRANK[y] for y in range(SIZE) if v >> y & 1)) for v in range(1 << SIZE))
#: COLY[v]: the set bits y of v, in rank (ASCII name) order
COLY: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted((y for y in range(SIZE) if v >> y & 1), key=lambda y: YRANK[y])) for v in range(1 << SIZE))


def _neighbours(sq: int) -> int:
    x, y = divmod(sq, SIZE)
    out = 0
    for dx, dy in DIRECTIONS:
        nx, ny = x + dx, y + dy
        if 0 <= nx < SIZE and 0 <= ny < SIZE:
            out |= 1 << (nx * SIZE + ny)
    return out


#: NB[sq]: bitboard of the (up to 8) adjacent squares
NB: tuple[int, ...] = tuple(_neighbours(sq) for sq in range(NUM_SQUARES))


def _jumps(sq: int) -> tuple[tuple[int, int, int], ...]:
    x, y = divmod(sq, SIZE)
    out = []
    for d, (dx, dy) in enumerate(DIRECTIONS):
        lx, ly = x + 2 * dx, y + 2 * dy
        if 0 <= lx < SIZE and 0 <= ly < SIZE:
            out.append((d, (x + dx) * SIZE + y + dy, lx * SIZE + ly))
    return tuple(out)


#: JUMPS[sq]: (direction, jumped square, landing square) for each on-board jump geometry
JUMPS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(_jumps(sq) for sq in range(NUM_SQUARES))
#: DIR_STEP[d]: square-index offset of direction d
DIR_STEP: tuple[int, ...] = tuple(dx * SIZE + dy for dx, dy in DIRECTIONS)


def dilate(b: int) -> int:
    """``b`` plus every square adjacent to a square of ``b`` (king-step dilation)."""
    v = b | ((b << 1) & NOT_Y0) | ((b >> 1) & NOT_Y11)
    return (v | (v << SIZE) | (v >> SIZE)) & FULL




def _zobrist() -> tuple[tuple[int, ...], ...]:
    rng = SplitMix64(0x51DE)
    return tuple(tuple(rng.next() for _ in range(NUM_SQUARES)) for _ in range(4))


#: ZOBRIST[seat][sq]: random 64-bit keys of a piece of ``seat`` on ``sq``
ZOBRIST = _zobrist()
