"""Board geometries of Nibble: cells, names, adjacency and bitboard tables.

Spec: nibble.md §1 (boards, coordinates, canonical order), §4 (free discs, connectivity).

Cells are numbered ``0 … cells−1`` in the spec's canonical order (square: by rank, then file;
hex: by row, then column). Bitboards are Python integers over a *padded* grid, so that
neighbours are plain shifts:

* square n×n: bit ``y·(n+1) + x``; the guard column ``x = n`` is never a cell;
* hex: bit ``(r−1)·16 + (c−1)``; column index 15 and the cells with ``|r − c| > 7`` are never
  cells.

Bit order is increasing in canonical order, so walking a bitboard from its lowest bit gives
cells in canonical order.

Tables are built once per variant (:func:`geometry`) and shared by every state.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

from ...core.rng import SplitMix64

VARIANTS = ("square9", "square13", "hex")

#: Display names of the colours (cosmetic, nibble.md §2).
COLOUR_NAMES = ("red", "orange", "yellow", "lime", "green", "teal", "blue", "purple", "pink",
                "brown", "grey", "white", "black")


@dataclass(eq=False)
class Geometry:
    """Precomputed tables of one variant.

    Attributes:
        variant: ``square9``, ``square13`` or ``hex``.
        hex: whether the board is hexagonal.
        cells: number of cells (= discs) — 81 or 169.
        colours: number of colours k (9 or 13); each colour has ``per_colour`` discs.
        per_colour: discs per colour n (9 or 13) — also instant win A's count.
        triple: instant win B's count per colour (7 or 10).
        majority: discs that make a majority in a colour (5 or 7).
        majorities: majorities needed to win on an empty board (5 or 7).
        names: cell names in canonical order.
        index: cell name -> canonical index.
        bit: canonical index -> bit position.
        cell_of_bit: bit position -> canonical index (``-1`` for padding bits).
        neighbours: canonical index -> canonical indices of adjacent cells.
        nmask: bit position -> bitboard of adjacent cells (0 for padding bits).
        all_mask: bitboard of every cell.
        coords: canonical index -> ``(x, y)`` (square) or ``(r, c)`` (hex, 1-based).
        rows: the position text's rows, top first: each a list of canonical indices.
        shifts: the neighbour shifts of the padded grid (``+s`` and ``−s`` for each s).
        ring: bit position -> bitboard of the cells around it (hex: the 6 neighbours; square:
            the 4 neighbours and the 4 diagonal cells).
        local_ok: bit position -> the occupancies of ``ring`` in which the occupied neighbours
            are connected through occupied ring cells (so removing the disc splits nothing).
    """

    variant: str
    hex: bool
    cells: int
    colours: int
    per_colour: int
    triple: int
    majority: int
    majorities: int
    stride: int
    names: list[str] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)
    bit: list[int] = field(default_factory=list)
    cell_of_bit: list[int] = field(default_factory=list)
    neighbours: list[tuple[int, ...]] = field(default_factory=list)
    nmask: list[int] = field(default_factory=list)
    all_mask: int = 0
    coords: list[tuple[int, int]] = field(default_factory=list)
    rows: list[list[int]] = field(default_factory=list)
    shifts: tuple[int, ...] = ()
    ring: list[int] = field(default_factory=list)
    local_ok: list[frozenset[int]] = field(default_factory=list)
    free_mask: Callable[[int], int] = field(default=lambda occ: 0)
    dilate: Callable[[int], int] = field(default=lambda m: 0)

    @property
    def letters(self) -> str:
        return "ABCDEFGHIJKLM"[: self.colours]

    def __reduce__(self) -> tuple:
        # pickles as its variant: free_mask and dilate are closures, and every state of a
        # variant shares one instance (geometry() is cached)
        return geometry, (self.variant,)


def _square(variant: str, n: int) -> Geometry:
    s = n + 1
    g = Geometry(variant, False, n * n, n, n, 7 if n == 9 else 10, (n + 1) // 2, (n + 1) // 2, s)
    files = "abcdefghijklm"
    for y in range(n):
        for x in range(n):
            g.names.append(f"{files[x]}{y + 1}")
            g.coords.append((x, y))
            g.bit.append(y * s + x)
    size = n * s
    g.cell_of_bit = [-1] * (size + s + 2)
    for i, b in enumerate(g.bit):
        g.cell_of_bit[b] = i
        g.all_mask |= 1 << b
    at = {xy: i for i, xy in enumerate(g.coords)}
    for i, (x, y) in enumerate(g.coords):
        # cyclic side order N, E, S, W (§1)
        nb = [at.get(p) for p in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y))]
        g.neighbours.append(tuple(j for j in nb if j is not None))
    g.rows = [[at[(x, y)] for x in range(n)] for y in range(n - 1, -1, -1)]
    g.shifts = (1, s)

    def free_mask(occ: int, s: int = s) -> int:
        """Occupied cells with two exposed sides at right angles (§4)."""
        hn = occ >> s
        he = occ >> 1
        hs = occ << s
        hw = occ << 1
        return occ & ~((hn | he) & (he | hs) & (hs | hw) & (hw | hn))

    def dilate(m: int, s: int = s) -> int:
        return m | (m << 1) | (m >> 1) | (m << s) | (m >> s)

    g.free_mask = free_mask
    g.dilate = dilate
    return g


def _hex(variant: str) -> Geometry:
    s = 16
    g = Geometry(variant, True, 169, 13, 13, 10, 7, 7, s)
    rows = "abcdefghijklmno"
    for r in range(1, 16):
        for c in range(1, 16):
            if abs(r - c) <= 7:
                g.names.append(f"{rows[r - 1]}{c}")
                g.coords.append((r, c))
                g.bit.append((r - 1) * s + (c - 1))
    g.cell_of_bit = [-1] * (15 * s + s + 2)
    for i, b in enumerate(g.bit):
        g.cell_of_bit[b] = i
        g.all_mask |= 1 << b
    at = {rc: i for i, rc in enumerate(g.coords)}
    for i, (r, c) in enumerate(g.coords):
        # cyclic side order E, NE, NW, W, SW, SE (§1)
        nb = [at.get(p) for p in ((r, c + 1), (r + 1, c + 1), (r + 1, c), (r, c - 1), (r - 1, c - 1), (r - 1, c))]
        g.neighbours.append(tuple(j for j in nb if j is not None))
    g.rows = [[at[(r, c)] for c in range(1, 16) if (r, c) in at] for r in range(15, 0, -1)]
    g.shifts = (1, s, s + 1)
    t = s + 1

    def free_mask(occ: int, s: int = s, t: int = t) -> int:
        """Occupied cells with three consecutive exposed sides (§4)."""
        he = occ >> 1
        hne = occ >> t
        hnw = occ >> s
        hw = occ << 1
        hsw = occ << t
        hse = occ << s
        a = he | hne
        b = hnw | hw
        c = hsw | hse
        blocked = ((a | hnw) & (hne | b) & (b | hsw) & (hw | c) & (c | he) & (hse | a))
        return occ & ~blocked

    def dilate(m: int, s: int = s, t: int = t) -> int:
        return m | (m << 1) | (m >> 1) | (m << s) | (m >> s) | (m << t) | (m >> t)

    g.free_mask = free_mask
    g.dilate = dilate
    return g


@lru_cache(maxsize=None)
def geometry(variant: str) -> Geometry:
    """The shared tables of ``variant`` (built on first use). Raises ``KeyError`` for others."""
    if variant == "square9":
        g = _square(variant, 9)
    elif variant == "square13":
        g = _square(variant, 13)
    elif variant == "hex":
        g = _hex(variant)
    else:
        raise KeyError(variant)
    g.index = {name: i for i, name in enumerate(g.names)}
    g.nmask = [0] * len(g.cell_of_bit)
    for i, nbs in enumerate(g.neighbours):
        m = 0
        for j in nbs:
            m |= 1 << g.bit[j]
        g.nmask[g.bit[i]] = m
    _build_local(g)
    return g


def _local_patterns(offsets: tuple[tuple[int, int], ...], sides: tuple[tuple[int, int], ...]) -> list[int]:
    """Patterns (bit k = ring cell ``offsets[k]`` occupied) whose occupied neighbours (offsets in
    ``sides``) are connected through occupied ring cells."""
    out = []
    for pattern in range(1 << len(offsets)):
        occupied = [o for k, o in enumerate(offsets) if pattern >> k & 1]
        nbs = [o for o in occupied if o in sides]
        if len(nbs) > 1:
            seen = {nbs[0]}
            todo = [nbs[0]]
            while todo:
                x = todo.pop()
                for y in occupied:
                    if y not in seen and (y[0] - x[0], y[1] - x[1]) in sides:
                        seen.add(y)
                        todo.append(y)
            if not all(o in seen for o in nbs):
                continue
        out.append(pattern)
    return out


def _build_local(g: Geometry) -> None:
    """Fill ``ring`` and ``local_ok`` (see :class:`Geometry`)."""
    if g.hex:
        sides = ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))
        around = sides
    else:
        sides = ((0, 1), (1, 0), (0, -1), (-1, 0))
        around = sides + ((1, 1), (1, -1), (-1, -1), (-1, 1))
    at = {xy: i for i, xy in enumerate(g.coords)}
    g.ring = [0] * len(g.cell_of_bit)
    g.local_ok = [frozenset()] * len(g.cell_of_bit)
    shapes: dict[tuple[tuple[int, int], ...], list[int]] = {}
    for i, (u, v) in enumerate(g.coords):
        offsets = tuple(o for o in around if (u + o[0], v + o[1]) in at)
        patterns = shapes.get(offsets)
        if patterns is None:
            patterns = shapes[offsets] = _local_patterns(offsets, sides)
        values = [1 << g.bit[at[(u + o[0], v + o[1])]] for o in offsets]
        keys = [0] * (1 << len(offsets))
        for p in range(1, len(keys)):
            low = p & -p
            keys[p] = keys[p ^ low] | values[low.bit_length() - 1]
        me = g.bit[i]
        g.ring[me] = keys[-1]
        g.local_ok[me] = frozenset(keys[p] for p in patterns)


_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_LANES: dict[int, tuple[int, int, int, int]] = {}


def _lanes(n: int) -> tuple[int, int, int, int]:
    """Packed constants for the n−1 draws of a shuffle of n items: 128-bit lanes holding 1,
    t·gamma (t = 1…n−1) and the 64-bit lane mask, and the byte length."""
    t = _LANES.get(n)
    if t is None:
        ones = steps = mask = 0
        for k in range(n - 1):
            ones |= 1 << (128 * k)
            steps |= ((k + 1) * _GAMMA) << (128 * k)
            mask |= _MASK64 << (128 * k)
        t = _LANES[n] = (ones, steps, mask, 16 * (n - 1))
    return t


def shuffle(rng: SplitMix64, items: list) -> None:
    """Exactly :meth:`SplitMix64.shuffle` (same result, same generator state afterwards), with
    the n−1 SplitMix64 outputs computed at once in 128-bit lanes of one big integer: the
    outputs of draw t depend only on ``state + t·gamma``, and every lane product stays below
    2^128, so lanes never mix."""
    n = len(items)
    if n < 2:
        return
    if sys.byteorder != "little":  # pragma: no cover - the word view below assumes it
        rng.shuffle(items)
        return
    ones, steps, mask, nbytes = _lanes(n)
    base = rng.state
    x = (base * ones + steps) & mask
    x = ((x ^ (x >> 30)) & mask) * _M1 & mask
    x = ((x ^ (x >> 27)) & mask) * _M2 & mask
    x ^= x >> 31
    rng.state = (base + (n - 1) * _GAMMA) & _MASK64
    m = n - 1
    for z in memoryview(x.to_bytes(nbytes, "little")).cast("Q")[::2]:
        j = z % (m + 1)
        items[m], items[j] = items[j], items[m]
        m -= 1


def generate_layout(g: Geometry, rng: SplitMix64) -> list[int]:
    """A random layout: colour index per cell (canonical order). Spec: nibble.md §8.

    Bag draw (weighted by the discs left of each colour) with backtracking, exactly as the
    spec's pseudo-code, consuming ``rng``.
    """
    cells = g.cells
    k = g.colours
    nbrs = g.neighbours
    while True:
        remaining = [g.per_colour] * k
        colour: list[int] = [-1] * cells
        options: list[list[int] | None] = [None] * cells
        i = 0
        steps = 0
        while 0 <= i < cells and steps < 2000:
            opts = options[i]
            if opts is None:
                forbidden = {colour[q] for q in nbrs[i] if colour[q] >= 0}
                bag = [c for c in range(k) for _ in range(remaining[c])]
                shuffle(rng, bag)
                opts = [c for c in dict.fromkeys(bag) if c not in forbidden]
                options[i] = opts
            if colour[i] >= 0:
                remaining[colour[i]] += 1
                colour[i] = -1
            if opts:
                c = opts.pop(0)
                colour[i] = c
                remaining[c] -= 1
                i += 1
            else:
                options[i] = None
                i -= 1
            steps += 1
        if i == cells:
            return colour


@lru_cache(maxsize=512)
def seeded_layout(variant: str, seed: int) -> tuple[tuple[int, ...], int]:
    """``(layout, generator state after it)`` for ``seed`` (§8), memoised: generating a
    169-cell layout costs ~15k generator draws, and tests and benchmarks reuse seeds."""
    rng = SplitMix64(seed)
    layout = generate_layout(geometry(variant), rng)
    return tuple(layout), rng.state
