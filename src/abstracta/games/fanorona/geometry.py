"""Board geometry of Fanorona: points, lines, action ids and Zobrist keys (Spec: fanorona.md §1).

Everything here is computed once per board size and shared by every state of that size.

Point index: ``p = x * H + y`` (file-major), so that the order of point indices is the ASCII
order of the point names (``a1 < a2 < … < a5 < b1 …``) — boards never exceed 9 files or
9 ranks, so every name is one letter plus one digit. A bitboard is an ``int`` with bit ``p``
set for every point that holds a stone.

Action id (Spec: fanorona.md §3)::

    id = p * 24 + order(d) * 3 + kind        kind: 0 paika, 1 approach (A), 2 withdrawal (W)
    id = W * H * 24                           the action ``end``

where ``order`` ranks the eight directions by the name of the destination point
(SW, W, NW, S, N, SE, E, NE). With this layout the numeric order of action ids *is* the
canonical order of §3.2 (ASCII order of the strings, ``end`` last), so a legal list is
sorted with a plain ``list.sort()``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ...core.rng import SplitMix64

#: Direction names in the spec's order of §1 (index = direction number).
DIR_NAMES: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
#: Direction vectors (dx, dy), indexed like :data:`DIR_NAMES`.
DIR_VECTORS: tuple[tuple[int, int], ...] = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
#: Directions in canonical (destination-name) order: SW, W, NW, S, N, SE, E, NE.
DIR_CANONICAL: tuple[int, ...] = (5, 6, 7, 4, 0, 3, 2, 1)
#: ``DIR_ORDER[d]`` = rank of direction ``d`` in :data:`DIR_CANONICAL`.
DIR_ORDER: tuple[int, ...] = tuple(DIR_CANONICAL.index(d) for d in range(8))
DIR_BY_NAME: dict[str, int] = {name: i for i, name in enumerate(DIR_NAMES)}
VECTOR_TO_DIR: dict[tuple[int, int], int] = {v: i for i, v in enumerate(DIR_VECTORS)}

PAIKA, APPROACH, WITHDRAWAL = 0, 1, 2
KIND_SUFFIX = ("", "A", "W")

# The sides and the limits of the rules (the rules, the notation and the view read them here).
WHITE, BLACK = 0, 1
#: No-progress limit (Spec: fanorona.md §4 (b)): turns without a capture that draw the game.
NO_PROGRESS_LIMIT = 100
#: Vela phase lasts while Black has more than this many stones (Spec: fanorona.md §7).
VELA_STONES = 5

#: Board sizes by option value (Spec: fanorona.md §1): (files W, ranks H).
SIZES: dict[str, tuple[int, int]] = {"tsivy": (9, 5), "dimy": (5, 5), "telo": (3, 3)}
#: Start positions (Spec: fanorona.md §2), as position-text rows.
START_ROWS: dict[str, str] = {
    "tsivy": "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW",
    "dimy": "BBBBB/BBBBB/WB.WB/WWWWW/WWWWW",
    "telo": "BBB/B.W/WWW",
}

# Zobrist seeds: fixed so keys are the same in every process.
_ZOBRIST_SEED = 0xFA40_0A0A


# The tables below are built from these named records and stored as plain tuples: move
# generation unpacks them in its inner loops, and unpacking a tuple subclass misses CPython's
# exact-tuple fast path (measured: 5% of perft speed for the tables, 20% for undo frames).


class Step(NamedTuple):
    """The make-move record of one action id for one side (``Geometry.side_act``)."""

    move_mask: int  # from|to bits (0 for end)
    to_bit: int
    to_point: int
    direction: int
    kind: int  # PAIKA, APPROACH, WITHDRAWAL; 3 for end, -1 for an id that is no action
    ray: int  # the capture line from its first stone (target included)
    ray_up: bool  # the line runs towards higher bit numbers
    target_bit: int
    zkey: int  # Zobrist xor of the move (a paika also flips the side to move)
    zrun: tuple[int, ...]  # zrun[k]: Zobrist xor of removing the first k enemy stones of the line


class Shift(NamedTuple):
    """Bitboard shift masks of one axis (N, NE, E, SE) and its opposite (``Geometry.shifts``)."""

    step: int  # bit distance of one step up the axis
    order_up: int  # canonical direction order ×3 of the up direction
    order_down: int
    move_up: int  # points with a neighbour up the axis
    approach_up: int  # ... and one beyond it
    withdraw_up: int  # ... and a neighbour behind
    move_down: int
    approach_down: int
    withdraw_down: int


class Continuation(NamedTuple):
    """One capture step a stone on a point can try in a chain (``Geometry.cont``)."""

    direction: int
    to_bit: int
    approach_bit: int  # 0 when the approach target is off the board
    withdraw_bit: int
    base: int  # action id of the paika; +1 approach, +2 withdrawal


@dataclass(eq=False)
class Geometry:
    """Precomputed tables of one board size. Build with :func:`geometry`.

    Attributes:
        width, height: files W and ranks H.
        n: number of points ``W * H``.
        full: bitboard of every point.
        names: point index -> name (``"a1"``).
        index: point name -> index.
        neighbour: ``neighbour[p][d]`` = point one step from ``p`` in direction ``d`` along a
            line, or -1.
        end_action: id of ``end``; ``num_actions = end_action + 1``.
        action_strings: id -> notation (``""`` for ids that name no step on this board).
        action_ids: notation -> id.
        folded_ids: lower-cased notation -> id (points are lower case and the A/W suffix upper
            case, so case tells no two actions apart: ``D3-C3w`` reads as ``d3-c3W``).
        act: id -> ``(move_mask, to_bit, to_point, dir, kind, ray, ray_up, target_bit)`` for
            steps (``None`` otherwise): ``move_mask`` = from|to bits; ``ray`` = bitboard of the
            capture line starting at the first stone that would be taken (target included) for
            captures; ``ray_up`` = whether that line runs towards higher bit numbers.
        zmove: ``zmove[colour][id]`` = Zobrist xor of moving a stone of ``colour`` for the step.
        zrun: ``zrun[colour][id][k]`` = Zobrist xor of removing the first ``k`` stones of
            ``colour`` on the capture line of ``id``.
        zside: Zobrist key of "Black to move".
        zpoint: ``zpoint[colour][p]``.
        side_act: ``side_act[side][id]`` = the :class:`Step` (make-move record) of ``id`` for
            ``side``.
        cont: ``cont[p]`` = the :class:`Continuation` capture steps a stone on ``p`` can try,
            in canonical order.
        cont_near: ``cont_near[p]`` = bitboard of every capture target of ``cont[p]`` (a quick
            "no enemy within reach" test).
        shifts: per axis (N, NE, E, SE) the :class:`Shift` masks of bitboard move generation.
    """

    size: str
    width: int
    height: int
    n: int = 0
    full: int = 0
    names: list[str] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)
    neighbour: list[list[int]] = field(default_factory=list)
    strong: int = 0
    end_action: int = 0
    action_strings: list[str] = field(default_factory=list)
    action_ids: dict[str, int] = field(default_factory=dict)
    folded_ids: dict[str, int] = field(default_factory=dict)
    act: list[tuple | None] = field(default_factory=list)
    zmove: tuple[list[int], list[int]] = ((), ())  # type: ignore[assignment]
    zrun: tuple[list[tuple[int, ...]], list[tuple[int, ...]]] = ((), ())  # type: ignore[assignment]
    zside: int = 0
    zpoint: tuple[list[int], list[int]] = ((), ())  # type: ignore[assignment]
    cont: list[list[Continuation]] = field(default_factory=list)
    cont_near: list[int] = field(default_factory=list)
    shifts: list[Shift] = field(default_factory=list)
    start_rows: str = ""
    side_act: tuple[list[Step], list[Step]] = ((), ())  # type: ignore[assignment]

    @property
    def num_actions(self) -> int:
        return self.end_action + 1

    def point(self, x: int, y: int) -> int:
        """Index of point (x, y) (0-based file and rank)."""
        return x * self.height + y

    def xy(self, p: int) -> tuple[int, int]:
        return divmod(p, self.height)

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def is_strong(self, p: int) -> bool:
        x, y = self.xy(p)
        return (x + y) % 2 == 0


def _build(size: str) -> Geometry:
    width, height = SIZES[size]
    g = Geometry(size=size, width=width, height=height)
    n = g.n = width * height
    g.full = (1 << n) - 1
    g.start_rows = START_ROWS[size]
    g.names = [""] * n
    for x in range(width):
        for y in range(height):
            p = g.point(x, y)
            g.names[p] = f"{chr(ord('a') + x)}{y + 1}"
            if (x + y) % 2 == 0:
                g.strong |= 1 << p
    g.index = {name: p for p, name in enumerate(g.names)}

    # neighbours along lines (§1): orthogonal always, diagonal only from strong points
    g.neighbour = [[-1] * 8 for _ in range(n)]
    for p in range(n):
        x, y = g.xy(p)
        for d, (dx, dy) in enumerate(DIR_VECTORS):
            if dx and dy and (x + y) % 2:
                continue
            if g.on_board(x + dx, y + dy):
                g.neighbour[p][d] = g.point(x + dx, y + dy)

    def ray(start: int, d: int) -> int:
        mask, q = 0, start
        while q >= 0:
            mask |= 1 << q
            q = g.neighbour[q][d]
        return mask

    g.end_action = n * 24
    g.action_strings = [""] * (g.end_action + 1)
    g.action_strings[g.end_action] = "end"
    g.act = [None] * (g.end_action + 1)
    rng = SplitMix64(_ZOBRIST_SEED + n)
    g.zpoint = ([rng.next() for _ in range(n)], [rng.next() for _ in range(n)])
    g.zside = rng.next()
    zmove: tuple[list[int], list[int]] = ([0] * (g.end_action + 1), [0] * (g.end_action + 1))
    zrun: tuple[list[tuple[int, ...]], list[tuple[int, ...]]] = (
        [()] * (g.end_action + 1), [()] * (g.end_action + 1))
    g.cont = [[] for _ in range(n)]
    for p in range(n):
        for order, d in enumerate(DIR_CANONICAL):
            q = g.neighbour[p][d]
            if q < 0:
                continue
            back = (d + 4) % 8
            app_t = g.neighbour[q][d]
            wd_t = g.neighbour[p][back]
            base = p * 24 + order * 3
            for kind in (PAIKA, APPROACH, WITHDRAWAL):
                a = base + kind
                g.action_strings[a] = f"{g.names[p]}-{g.names[q]}{KIND_SUFFIX[kind]}"
                if kind == PAIKA:
                    line, up, target = 0, True, -1
                else:
                    target = app_t if kind == APPROACH else wd_t
                    if target < 0:
                        g.action_strings[a] = ""
                        continue
                    line_dir = d if kind == APPROACH else back
                    line = ray(target, line_dir)
                    up = (1 << target) == (line & -line)
                g.act[a] = ((1 << p) | (1 << q), 1 << q, q, d, kind, line, up, (1 << target) if target >= 0 else 0)
                for colour in (0, 1):
                    zmove[colour][a] = g.zpoint[colour][p] ^ g.zpoint[colour][q]
                    if kind != PAIKA:
                        run, acc, t = [0], 0, target
                        while t >= 0:
                            acc ^= g.zpoint[colour][t]
                            run.append(acc)
                            t = g.neighbour[t][line_dir]
                        zrun[colour][a] = tuple(run)
            g.cont[p].append(tuple(Continuation(d, 1 << q, (1 << app_t) if app_t >= 0 else 0,
                                                (1 << wd_t) if wd_t >= 0 else 0, base)))
    g.zmove, g.zrun = zmove, zrun
    g.cont_near = [0] * n
    for p in range(n):
        for _d, _tb, ab, wb, _base in g.cont[p]:
            g.cont_near[p] |= ab | wb
    g.action_ids = {s: a for a, s in enumerate(g.action_strings) if s}
    g.folded_ids = {s.lower(): a for s, a in g.action_ids.items()}
    assert len(g.folded_ids) == len(g.action_ids), "two actions differ only in case"
    side_act: tuple[list[Step], list[Step]] = ([], [])
    for side in (0, 1):
        for a, entry in enumerate(g.act):
            if a == g.end_action:
                side_act[side].append(Step(0, 0, -1, -1, 3, 0, True, 0, g.zside, ()))
            elif entry is None:
                side_act[side].append(Step(0, 0, -1, -1, -1, 0, True, 0, 0, ()))
            else:
                zkey = zmove[side][a] ^ (g.zside if entry[4] == PAIKA else 0)
                side_act[side].append(tuple(Step(*entry, zkey, zrun[1 - side][a])))
    g.side_act = side_act

    # bitboard shift tables, one per axis (N, NE, E, SE) with its opposite direction
    def mask_where(pred) -> int:
        return sum(1 << p for p in range(n) if pred(p))

    nb = g.neighbour
    for d_up in (0, 1, 2, 3):
        dx, dy = DIR_VECTORS[d_up]
        s = dx * height + dy
        d_dn = d_up + 4
        # from p: move to p+s needs neighbour; approach needs p+2s; withdrawal needs p-s
        m_up = mask_where(lambda p: nb[p][d_up] >= 0)
        a_up = mask_where(lambda p: nb[p][d_up] >= 0 and nb[nb[p][d_up]][d_up] >= 0)
        w_up = mask_where(lambda p: nb[p][d_up] >= 0 and nb[p][d_dn] >= 0)
        m_dn = mask_where(lambda p: nb[p][d_dn] >= 0)
        a_dn = mask_where(lambda p: nb[p][d_dn] >= 0 and nb[nb[p][d_dn]][d_dn] >= 0)
        w_dn = mask_where(lambda p: nb[p][d_dn] >= 0 and nb[p][d_up] >= 0)
        # sanity: shifts agree with the neighbour table
        for p in range(n):
            if nb[p][d_up] >= 0:
                assert nb[p][d_up] == p + s
            if nb[p][d_dn] >= 0:
                assert nb[p][d_dn] == p - s
        g.shifts.append(tuple(Shift(s, DIR_ORDER[d_up] * 3, DIR_ORDER[d_dn] * 3, m_up, a_up, w_up, m_dn, a_dn, w_dn)))
    return g


_CACHE: dict[str, Geometry] = {}


def geometry(size: str) -> Geometry:
    """The shared :class:`Geometry` of board ``size`` (``tsivy``, ``dimy`` or ``telo``)."""
    g = _CACHE.get(size)
    if g is None:
        g = _CACHE[size] = _build(size)
    return g
