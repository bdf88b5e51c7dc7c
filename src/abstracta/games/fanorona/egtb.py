"""Retrograde analysis of Fanorona by material: endgame tables and whole small boards
(Spec: fanorona.md §3–§4; issue 18).

A *table* holds every position with a given material, seen from the side to move: ``a``
stones of the mover against ``b`` of the other side (``a``v``b``). Fanorona's rules treat the
two colours alike (no forward direction; without ``vela`` and ``first_turn_single_capture``),
so "White to move with W, B" and "Black to move with the same sets swapped" are one entry.

Index of a position (``own`` mover's bitboard with ``a`` stones, ``opp`` with ``b``)::

    index = rank(own) * C(n, b) + rank(opp)        rank = colexicographic rank of the point set

(``n`` points on the board). Slots where the two sets overlap are never used (about 10% of a
9×5 table), which keeps the index a few additions instead of a ranking in the complement.

One byte per position (:data:`numpy.uint8`):

* ``0``: a draw — neither side can force a win (or an unused slot);
* ``v ≥ 1``: the game ends after ``d = v − 1`` more turns under perfect play (the winner wins
  as fast as possible, the loser holds out as long as possible); ``d`` even: the side to move
  loses (``d = 0``: it has no stone or no legal action now), ``d`` odd: it wins.

How the draw rules enter (Spec §4; a decision of issue 18, see docs: measurements/perfect-play.md):
values are those of a position with a fresh history (as read from text: no earlier
occurrence, no-progress counter 0). A position from which neither side can force a win is a
draw — play can cycle, and the repetition and 100-turn rules end such games drawn. A won
position is won under the real rules as long as its distance is below 100 turns: along a
shortest win the distance falls by one every turn, so no position repeats and no stretch
without a capture reaches the 100-turn limit. The builder checks that bound (every distance
in the tables built here is far below it) and refuses to write a table that breaks it.

Only the paika positions of a table lead back into the same material (a capture changes it),
so a table pair ``a``v``b`` / ``b``v``a`` is solved in three steps: capture positions take their
value from smaller tables, positions without an action are lost, and the paika positions are
solved by a level-by-level sweep (level ``k`` settles every position whose distance is ``k``)
over their successor lists, vectorised with numpy.
"""

from __future__ import annotations

import json
import os
from array import array
import time
from dataclasses import dataclass
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

import numpy as np

from ...executors import check_executor, map_unordered, session
from .geometry import Geometry
from .movegen import generators
from .rules import FanoronaGame, FanoronaState

#: Distances must stay below the no-progress limit for the table values to be the real results.
DISTANCE_BOUND = 100
DRAW, WIN, LOSS = 0, 1, -1

Progress = Callable[[str], None]


# --- codes -----------------------------------------------------------------------------------------

def decode(code: int) -> tuple[int, int | None]:
    """``(value, distance)`` of a table byte for the side to move: value +1/0/−1, distance in
    turns to the end (``None`` for a draw)."""
    if code == 0:
        return DRAW, None
    d = code - 1
    return (WIN if d & 1 else LOSS), d


def encode(value: int, distance: int | None) -> int:
    """The table byte of ``(value, distance)`` (inverse of :func:`decode`)."""
    return 0 if value == DRAW else distance + 1  # type: ignore[operator]


def after_turn(code: int) -> int:
    """Rank of a successor's code (from the successor's mover, i.e. the opponent) for the side
    that moves into it: larger is better. Wins by fewest turns first, then draws, then losses by
    most turns."""
    if code == 0:
        return 0
    d = code - 1
    if d & 1:  # the opponent wins in d turns: we lose in d + 1, the longer the better
        return -1000 + d
    return 1000 - d  # the opponent loses in d turns: we win in d + 1


def best_code(succ_codes: list[int]) -> int:
    """The code of a position from the codes of the positions its turns reach."""
    best = max(succ_codes, key=after_turn)
    return 0 if best == 0 else best + 1


# --- indexing ----------------------------------------------------------------------------------------

def rank(bb: int) -> int:
    """Colexicographic rank of the point set ``bb`` among sets of its size: ``Σ C(p_i, i)``
    over its points ``p_1 < p_2 < …`` (``i`` from 1)."""
    r = 0
    i = 1
    while bb:
        low = bb & -bb
        r += comb(low.bit_length() - 1, i)
        i += 1
        bb ^= low
    return r


@dataclass(frozen=True)
class Material:
    """Mover's stones ``a`` against the other side's ``b`` on a board of ``n`` points."""

    a: int
    b: int

    def name(self, size: str) -> str:
        """File stem, e.g. ``tsivy-2v1``."""
        return f"{size}-{self.a}v{self.b}"

    def slots(self, n: int) -> int:
        return comb(n, self.a) * comb(n, self.b)


def materials_with(stones: int, per_side: int | None = None) -> list[tuple[Material, ...]]:
    """The table pairs with ``stones`` stones in all, each side at least one (at most
    ``per_side``): ``(a v b, b v a)`` solved together (one entry when ``a == b``)."""
    out = []
    for a in range(stones - 1, 0, -1):
        b = stones - a
        if a < b or (per_side is not None and a > per_side):
            continue
        out.append((Material(a, b),) if a == b else (Material(a, b), Material(b, a)))
    return out


# --- the builder -----------------------------------------------------------------------------------

class _Ranks:
    """Rank look-ups for one board: dictionaries for small sets (fast in the builder's inner
    loop), :func:`rank` otherwise."""

    def __init__(self, n: int):
        self.n = n
        self._dicts: dict[int, dict[int, int]] = {}

    def table(self, k: int) -> dict[int, int] | None:
        if comb(self.n, k) > 400_000:
            return None
        d = self._dicts.get(k)
        if d is None:
            d = {}
            for pts in combinations(range(self.n), k):
                bb = 0
                for p in pts:
                    bb |= 1 << p
                d[bb] = rank(bb)
            self._dicts[k] = d
        return d


def _sets(n: int, k: int, forbidden: int = 0) -> Iterator[int]:
    """Every bitboard of ``k`` points out of ``n`` that avoids ``forbidden``."""
    points = [p for p in range(n) if not forbidden >> p & 1]
    for pts in combinations(points, k):
        bb = 0
        for p in pts:
            bb |= 1 << p
        yield bb


def turn_ends(state: "FanoronaState", out: list[tuple[int, int]]) -> None:
    """Append ``(own, opp)`` — the position after each complete turn from ``state``, seen from
    the next mover — for every way to finish the current turn (capture chains with and without
    ``end``). ``state`` must be at a turn start or inside a chain; it is restored."""
    side = state.current_player()
    for action in list(state.legal_actions()):
        state.apply_action(action)
        if state.current_player() == side:
            turn_ends(state, out)
        else:
            white, black = state.bitboards()
            out.append((black, white) if side == 0 else (white, black))
        state.undo_action()


class Lookup:
    """Codes of positions in tables already built (in memory or memory-mapped files)."""

    def __init__(self, n: int, tables: Mapping[Material, np.ndarray] | None = None):
        self.n = n
        self.tables: dict[Material, np.ndarray] = dict(tables or {})

    def code(self, own: int, opp: int) -> int | None:
        """The code of ``(own, opp)`` (mover first), ``None`` when its table is not here."""
        a, b = own.bit_count(), opp.bit_count()
        if a == 0:
            return 1  # no stone: lost now (§3.3)
        if b == 0:  # only from a text: the other side has already lost everything
            return 2
        table = self.tables.get(Material(a, b))
        if table is None:
            return None
        return int(table[rank(own) * comb(self.n, b) + rank(opp)])


def build_pair(game: "FanoronaGame", pair: tuple[Material, ...], lower: Lookup,
               progress: Progress | None = None) -> tuple[dict[Material, np.ndarray], dict[str, Any]]:
    """Solve the tables of ``pair`` (``a v b`` and ``b v a``) given every table with fewer stones
    in ``lower``. Returns the tables and figures (positions, wins, draws, losses, longest
    distance, seconds).

    Raises ``ValueError`` for a game with ``vela`` or ``first_turn_single_capture`` (their rules
    depend on colour or history) and ``RuntimeError`` if a distance reaches
    :data:`DISTANCE_BOUND`.
    """
    if game.vela or game.first_turn_single_capture:
        raise ValueError("endgame tables cover the standard rules only (no vela, no first_turn_single_capture)")
    t0 = time.perf_counter()
    g: Geometry = game.geometry
    n = g.n
    turn_start = generators(g)[0]
    move_mask = [step[0] for step in g.side_act[0]]
    ranks = _Ranks(n)
    base: dict[Material, int] = {}
    total = 0
    for m in pair:
        base[m] = total
        total += m.slots(n)
    if total >= 2**31:
        raise ValueError(f"{total:,} slots: too many for 32-bit successor indices")
    dist = np.full(total, -1, dtype=np.int16)   # -1: not settled
    kind = np.zeros(total, dtype=np.int8)       # 0 open, 1 win, 2 loss, 3 draw, 4 unused slot
    used = np.zeros(total, dtype=bool)
    # paika positions: index and CSR offsets (typed arrays: a Python list of ints costs ~5× the memory)
    starts = array("q")
    nodes = array("q")
    edges = array("i")                          # 32-bit: no table here has 2^31 slots
    stride = {m: comb(n, m.b) for m in pair}
    for m in pair:
        partner = Material(m.b, m.a)
        ra, rb = ranks.table(m.a), ranks.table(m.b)
        pa, pb = base[partner], stride[partner]
        count = 0
        for own in _sets(n, m.a):
            row = base[m] + (ra[own] if ra is not None else rank(own)) * stride[m]
            for opp in _sets(n, m.b, own):
                idx = row + (rb[opp] if rb is not None else rank(opp))
                used[idx] = True
                count += 1
                legal = turn_start(own, opp)
                if not legal:  # no legal action: lost (§3.3)
                    kind[idx], dist[idx] = 2, 0
                elif legal[0] % 3 == 0:  # paika turns: successors in the partner table
                    nodes.append(idx)
                    starts.append(len(edges))
                    r_opp = (rb[opp] if rb is not None else rank(opp)) * pb + pa
                    for action in legal:
                        own2 = own ^ move_mask[action]
                        edges.append(r_opp + (ra[own2] if ra is not None else rank(own2)))
                else:  # captures: every turn reaches a smaller table
                    ends: list[tuple[int, int]] = []
                    turn_ends(FanoronaState(game, own, opp, 0), ends)
                    c = best_code([lower.code(o, p) for o, p in ends])  # type: ignore[misc]
                    if c == 0:
                        kind[idx] = 3
                    else:
                        kind[idx], dist[idx] = (1 if (c - 1) & 1 else 2), c - 1
        if progress:
            progress(f"{m.name(g.size)}: {count:,} positions generated")
    kind[~used] = 4
    starts.append(len(edges))
    node_arr = np.frombuffer(nodes, dtype=np.int64).copy()
    start_arr = np.frombuffer(starts, dtype=np.int64)[:-1].copy()
    edge_arr = np.frombuffer(edges, dtype=np.int32)  # a view: no second copy of the largest array
    del nodes, starts
    # level-by-level sweep over the open paika positions (level k settles distance k)
    known_max = int(dist.max()) if total else 0
    k = 1
    while len(node_arr):
        sk = kind[edge_arr]
        sd = dist[edge_arr]
        won = np.logical_or.reduceat((sk == 2) & (sd == k - 1), start_arr)
        lost = np.logical_and.reduceat((sk == 1) & (sd <= k - 1), start_arr)
        settled = won | lost
        if settled.any():
            kind[node_arr[won]] = 1
            kind[node_arr[lost]] = 2
            dist[node_arr[settled]] = k
        elif k > known_max + 1:
            break
        if settled.any():  # drop settled positions from the sweep
            keep = ~settled
            lengths = np.diff(np.append(start_arr, len(edge_arr)))
            edge_keep = np.repeat(keep, lengths)
            node_arr = node_arr[keep]
            edge_arr = edge_arr[edge_keep]
            lengths = lengths[keep]
            start_arr = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64) if len(lengths) else start_arr[:0]
        k += 1
    longest = int(dist.max()) if total else 0
    if longest >= DISTANCE_BOUND:
        raise RuntimeError(f"a distance of {longest} turns reaches the no-progress limit: the table would not "
                           "give the real results")
    code = np.where((kind == 1) | (kind == 2), dist.astype(np.int32) + 1, 0).astype(np.uint8)
    out: dict[Material, np.ndarray] = {}
    figures: dict[str, Any] = {}
    for m in pair:
        lo, hi = base[m], base[m] + m.slots(n)
        part = kind[lo:hi]
        out[m] = code[lo:hi].copy()
        figures[m.name(g.size)] = {
            "positions": int((part != 4).sum()), "wins": int((part == 1).sum()),
            "draws": int(((part == 0) | (part == 3)).sum()), "losses": int((part == 2).sum()),
            "longest": int(dist[lo:hi].max()), "bytes": int(hi - lo)}
    seconds = time.perf_counter() - t0
    for f in figures.values():
        f["seconds"] = round(seconds, 2)
    return out, figures


# --- files ------------------------------------------------------------------------------------------

def default_directory() -> Path:
    """Where tables live: ``$ABSTRACTA_EGTB_DIR``, else ``<user data dir>/abstracta/egtb``."""
    env = os.environ.get("ABSTRACTA_EGTB_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("abstracta")) / "egtb"


def table_path(directory: Path, size: str, m: Material) -> Path:
    return Path(directory) / f"fanorona-{m.name(size)}.u8"


MANIFEST = "fanorona-manifest.json"


class TableSet(Lookup):
    """The tables of one board size found in ``directory``, memory-mapped on first use."""

    def __init__(self, game: "FanoronaGame", directory: Path | None = None):
        super().__init__(game.geometry.n)
        self.size = game.geometry.size
        self.directory = Path(directory) if directory is not None else default_directory()
        self._missing: set[Material] = set()

    def table(self, m: Material) -> np.ndarray | None:
        t = self.tables.get(m)
        if t is None and m not in self._missing:
            path = table_path(self.directory, self.size, m)
            if path.is_file() and path.stat().st_size == m.slots(self.n):
                t = self.tables[m] = np.memmap(path, dtype=np.uint8, mode="r")
            else:
                self._missing.add(m)
        return t

    def code(self, own: int, opp: int) -> int | None:
        a, b = own.bit_count(), opp.bit_count()
        if a and b:
            self.table(Material(a, b))
        return super().code(own, opp)

    def covers(self, stones: int) -> bool:
        """Every table with at most ``stones`` stones is here."""
        return all(self.table(m) is not None for s in range(2, stones + 1) for pair in materials_with(s) for m in pair)


def _build_job(lower: Mapping[Material, np.ndarray], job: tuple[str, tuple[Material, ...]]) -> tuple[dict[Material, bytes], dict[str, Any]]:
    """One table pair, on any worker (maybe another machine): solve it from the smaller tables
    ``lower`` (handed over by value) and return its tables' bytes and figures — the caller
    writes the files, so nothing here touches the worker's disk."""
    size, pair = job
    game = FanoronaGame(size=size)
    tables, figures = build_pair(game, pair, Lookup(game.geometry.n, lower))
    return {m: arr.tobytes() for m, arr in tables.items()}, figures


def _load_lower(directory: Path, size: str, n: int, stones: int) -> dict[Material, np.ndarray]:
    """Every table with fewer than ``stones`` stones from ``directory``, in memory."""
    lower = {}
    for s in range(2, stones):
        for pair in materials_with(s):
            for m in pair:
                lower[m] = np.fromfile(table_path(directory, size, m), dtype=np.uint8)
                if len(lower[m]) != m.slots(n):
                    raise ValueError(f"{table_path(directory, size, m)}: {len(lower[m]):,} bytes, "
                                     f"expected {m.slots(n):,} (remove it and build again)")
    return lower


def build_tables(game: "FanoronaGame", stones: int, directory: Path | None = None, *,
                 executor: str = "serial", workers: int | None = None, ray_address: str | None = None,
                 progress: Progress | None = None) -> dict[str, Any]:
    """Build every table with 2..``stones`` stones for ``game``'s board into ``directory``
    (one file per material, ``fanorona-<size>-<a>v<b>.u8``) and return the manifest
    (``{file stem: figures}``, also written to ``fanorona-manifest.json``). Tables already
    present are kept.

    The table pairs of one stone count are independent jobs for
    :func:`abstracta.executors.map_unordered` (``executor`` ``serial``, ``process`` or ``ray``
    with ``workers`` and ``ray_address``): each job gets the smaller tables by value (once per
    worker or, on Ray, once per stone count in the object store) and returns its tables; this
    process writes every file, so the bytes are the same on every executor.

    Raises ``ValueError`` for an unknown executor, ``workers`` < 1 or rules the tables do not
    cover (``vela``, ``first_turn_single_capture``); ``ImportError`` for ``ray`` without Ray.
    """
    check_executor(executor, workers)
    if game.vela or game.first_turn_single_capture:
        raise ValueError("endgame tables cover the standard rules only (no vela, no first_turn_single_capture)")
    directory = Path(directory) if directory is not None else default_directory()
    directory.mkdir(parents=True, exist_ok=True)
    size, n = game.geometry.size, game.geometry.n
    manifest_path = directory / MANIFEST
    manifest: dict[str, Any] = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {}

    def write(job: tuple[str, tuple[Material, ...]], result: tuple[dict[Material, bytes], dict[str, Any]]) -> None:
        tables, figures = result
        for m, data in tables.items():
            path = table_path(directory, size, m)
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(data)
            tmp.replace(path)
        manifest.update(figures)
        manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
        if progress:
            progress(f"{', '.join(m.name(size) for m in job[1])}: solved in {figures[job[1][0].name(size)]['seconds']:.1f} s")

    todo = {total: [(size, pair) for pair in materials_with(total)
                    if not all(table_path(directory, size, m).is_file() and m.name(size) in manifest for m in pair)]
            for total in range(2, stones + 1)}
    if not any(todo.values()):
        return manifest
    with session(executor, workers, ray_address):  # one Ray for every stone count
        for total, jobs in todo.items():
            if not jobs:
                continue
            t0 = time.perf_counter()
            map_unordered(_build_job, jobs, executor, workers, ray_address,
                          on_done=lambda i, result: write(jobs[i], result),  # noqa: B023 - used within the call
                          shared=_load_lower(directory, size, n, total))
            if progress:
                progress(f"{size} {total} stones: {', '.join(m.name(size) for _, p in jobs for m in p)} "
                         f"in {time.perf_counter() - t0:.1f} s ({executor})")
    return manifest


def solve_in_memory(game: "FanoronaGame", stones: int, per_side: int | None = None,
                    progress: Progress | None = None) -> tuple[Lookup, dict[str, Any]]:
    """Every table with 2..``stones`` stones (at most ``per_side`` a side), in memory (small
    boards: the whole game)."""
    lookup = Lookup(game.geometry.n)
    figures: dict[str, Any] = {}
    for total in range(2, stones + 1):
        for pair in materials_with(total, per_side):
            tables, f = build_pair(game, pair, lookup, progress)
            lookup.tables.update(tables)
            figures.update(f)
    return lookup, figures


__all__ = ["DISTANCE_BOUND", "Lookup", "Material", "TableSet", "after_turn", "best_code", "build_pair",
           "build_tables", "decode", "default_directory", "encode", "materials_with", "rank", "solve_in_memory",
           "table_path", "turn_ends"]
