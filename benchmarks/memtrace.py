"""What grows in a server process (issue 44 §5): a diagnostic harness for benchmarks/soak.py
``--trace-memory DIR``, never part of the server (it stalls it while it samples: a diagnosis,
not a result).

:func:`start` runs inside the web process before ``abstracta serve`` starts, with the settings
soak.py passes in ``ABSTRACTA_MEMTRACE`` (JSON; ``SOAK_MEMTRACE`` adds to them: ``trace``,
``trim``, ``frames``, ``big``, ``holders``). A daemon thread appends, every ``every`` seconds,
one line of JSON to ``DIR/samples.jsonl`` —

* ``rss_mb`` (the kernel's count) and ``smaps``: the RSS by kind of mapping (:func:`smaps`);
* ``traced_mb``: the Python heap tracemalloc has seen allocated since its start (at the first
  sample, once the server is up; ``trace: false``: not traced);
* ``pymalloc``: Python's object allocator, its arenas and how full they are (:func:`pymalloc`);
* ``sqlite_mb``: ``sqlite3_memory_used()``, SQLite's own heap, page caches included, which
  tracemalloc does not see;
* ``malloc``: glibc's ``mallinfo2()`` in MB over all arenas — ``arena`` (their heaps),
  ``hblkhd`` (mmapped blocks), ``uordblks`` (in use), ``fordblks`` (free but kept);
* ``rss_after_trim_mb`` (``trim: true``): the RSS once ``malloc_trim(0)`` gave back what glibc
  held free — the part of the RSS that was the C allocator's retention, not live data;
* ``objects``: live objects of the classes given, and the 25 commonest (gc); ``big``: every
  dict, set, list, deque or OrderedDict of at least ``big`` items, by where it is held (the
  module global or attribute naming it); ``holders``: who refers to the objects of the classes
  given —

and, from the first sample at or after ``baseline`` seconds on (tracing), ``DIR/growth-<t>.txt``:
the allocations grown since that baseline, grouped by traceback, largest first. RSS growing
with ``uordblks``, ``sqlite_mb`` and the pymalloc arenas flat is the allocator's retention; the
pymalloc arenas growing with the objects is Python data, and ``big`` names the container.

    python benchmarks/soak.py --minutes 12 --warmup-minutes 3 --every 60 --trace-memory /tmp/mt
    SOAK_MEMTRACE='{"trace": false, "trim": true}' python benchmarks/soak.py ... --trace-memory /tmp/mt
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import json
import os
import threading
import time
import tracemalloc
from collections import Counter, OrderedDict, deque
from pathlib import Path
from typing import Any

MB = 1024 * 1024


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def _libc() -> Any:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallinfo2.restype = _Mallinfo2
        return libc
    except (OSError, AttributeError):
        return None


def _sqlite() -> Any:
    try:
        import _sqlite3  # noqa: F401  (loads the library this process uses)

        lib = ctypes.CDLL(ctypes.util.find_library("sqlite3") or "libsqlite3.so.0")
        lib.sqlite3_memory_used.restype = ctypes.c_int64
        return lib
    except (OSError, AttributeError, ImportError):
        return None


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _holder(container: Any) -> str:
    """Where ``container`` is held: ``Class.attribute`` of an object whose ``__dict__`` names it,
    or the referrers' types."""
    for ref in gc.get_referrers(container):
        if isinstance(ref, dict):
            for owner in gc.get_referrers(ref):
                if getattr(owner, "__dict__", None) is ref:
                    for key, value in ref.items():
                        if value is container:
                            return f"{type(owner).__module__}.{type(owner).__qualname__}.{key}"
            if ref.get("__name__") and ref.get("__builtins__") is not None:  # a module's globals
                for key, value in ref.items():
                    if value is container:
                        return f"{ref['__name__']}.{key}"
    return "?" + ",".join(sorted({type(r).__name__ for r in gc.get_referrers(container)}))[:80]


def _big(minimum: int) -> list[dict[str, Any]]:
    kinds = (dict, set, list, deque, OrderedDict)
    found = []
    for obj in gc.get_objects():
        if isinstance(obj, kinds) and len(obj) >= minimum:
            found.append(obj)
    out = [{"kind": type(obj).__name__, "len": len(obj), "held": _holder(obj)} for obj in found]
    out.sort(key=lambda item: -item["len"])
    return out[:40]


def smaps() -> dict[str, float]:
    """RSS in MB by kind of mapping: ``heap`` (the main malloc arena), ``arena1m`` (anonymous
    mappings of 1 MiB: Python's object allocator's arenas), ``anon_big`` (anonymous mappings of
    32 MiB or more: other threads' malloc arenas, large mmapped blocks), ``anon_other``,
    ``files`` (code and data of libraries, mapped files)."""
    out = {"heap": 0.0, "arena1m": 0.0, "anon_big": 0.0, "anon_other": 0.0, "files": 0.0}
    kind = "anon_other"
    for line in Path("/proc/self/smaps").read_text().splitlines():
        parts = line.split()
        if "-" in parts[0] and len(parts) >= 5 and ":" in parts[3]:
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            size = hi - lo
            name = parts[5] if len(parts) > 5 else ""
            if name == "[heap]":
                kind = "heap"
            elif name and not name.startswith("["):
                kind = "files"
            elif size == MB:
                kind = "arena1m"
            elif size >= 32 * MB:
                kind = "anon_big"
            else:
                kind = "anon_other"
        elif parts[0] == "Rss:":
            out[kind] += int(parts[1]) / 1024
    return {k: round(v, 1) for k, v in out.items()}


def pymalloc() -> dict[str, float]:
    """Python's object allocator (``sys._debugmallocstats``, written to the C stderr, read back
    through a file for the moment): ``arenas_mb`` (its arenas now: what it holds of the RSS),
    ``used_mb`` (bytes in allocated blocks), ``free_mb`` (available blocks and unused pools:
    held by arenas that other blocks keep alive — its fragmentation). Empty while tracemalloc
    traces: its hooks stand in front of the allocator, which then says nothing."""
    import sys
    import tempfile

    with tempfile.TemporaryFile(mode="w+b") as f:
        sys.stderr.flush()
        saved = os.dup(2)
        try:
            os.dup2(f.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        f.seek(0)
        text = f.read().decode(errors="replace")
    out: dict[str, float] = {}
    for line in text.splitlines():
        key, _, value = line.partition("=")
        key, value = key.strip(), value.strip().replace(",", "")
        if not value.isdigit():
            continue
        if key == "# arenas allocated current":
            out["arenas"] = int(value)
        elif key == "# bytes in allocated blocks":
            out["used_mb"] = round(int(value) / MB, 1)
        elif key in ("# bytes in available blocks", "# bytes lost to pool headers", "# bytes lost to quantization",
                     "# bytes lost to arena alignment"):
            out["free_mb"] = round(out.get("free_mb", 0.0) + int(value) / MB, 1)
        elif "unused pools" in key:
            out["free_mb"] = round(out.get("free_mb", 0.0) + int(value) / MB, 1)
        elif key == "Total" and "total_mb" not in out:
            out["total_mb"] = round(int(value) / MB, 1)
    return out


def _describe(ref: Any) -> str:
    """What kind of thing ``ref`` (a referrer) is: a frame by its function, a container by where
    it is held, an object by its class."""
    if isinstance(ref, type(_describe.__code__)) or type(ref).__name__ == "frame":
        code = ref.f_code
        return f"frame {Path(code.co_filename).name}:{code.co_name}"
    if type(ref).__name__ == "coroutine":
        code = ref.cr_code
        return f"coroutine {Path(code.co_filename).name}:{code.co_name} at line {ref.cr_frame.f_lineno if ref.cr_frame else '-'}"
    if isinstance(ref, (dict, list, set, tuple, deque, OrderedDict)):
        if isinstance(ref, dict):
            for owner in gc.get_referrers(ref):
                if getattr(owner, "__dict__", None) is ref:
                    return f"__dict__ of {type(owner).__module__}.{type(owner).__qualname__}"
        return f"{type(ref).__name__} held by {_holder(ref)}"
    return f"{type(ref).__module__}.{type(ref).__qualname__}"


def _holders(name: str, limit: int = 400) -> dict[str, int]:
    """Who refers to the live objects of class ``name`` (at most ``limit`` of them): referrer
    descriptions and their counts."""
    objs = [o for o in gc.get_objects() if f"{type(o).__module__}.{type(o).__qualname__}" == name][:limit]
    counts: Counter[str] = Counter()
    for obj in objs:
        for ref in gc.get_referrers(obj):
            if ref is objs:
                continue
            counts[_describe(ref)] += 1
    counts["(objects)"] = len(objs)
    counts["(with no referrer but this list)"] = sum(1 for o in objs if len(gc.get_referrers(o)) <= 1)
    return dict(counts.most_common(15))


def start(folder: str, every: float = 60.0, baseline: float = 300.0, frames: int = 10,
          classes: tuple[str, ...] = (), big: int = 500, holders: tuple[str, ...] = (),
          trace: bool = True, trim: bool = False) -> threading.Thread:
    """Trace this process's memory into ``folder`` (see the module docstring). tracemalloc
    starts at the first sample, once the server is up: tracing its imports made its start-up
    outlast the benchmark's patience on a busy machine."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    libc, sqlite = _libc(), _sqlite()
    started = time.monotonic()
    ignore = [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, __file__)]

    def one(base: list[tracemalloc.Snapshot]) -> None:
        if trace and not tracemalloc.is_tracing():
            tracemalloc.start(frames)
        t = time.monotonic() - started
        current, peak = tracemalloc.get_traced_memory()
        line: dict[str, Any] = {"t": round(t, 1), "rss_mb": round(rss_mb(), 1), "traced_mb": round(current / MB, 1),
                                "traced_peak_mb": round(peak / MB, 1)}
        if sqlite is not None:
            line["sqlite_mb"] = round(sqlite.sqlite3_memory_used() / MB, 2)
        if libc is not None:
            info = libc.mallinfo2()
            line["malloc"] = {k: round(getattr(info, k) / MB, 1) for k in ("arena", "hblkhd", "uordblks", "fordblks")}
        line["threads"] = threading.active_count()
        line["smaps"] = smaps()
        line["pymalloc"] = pymalloc()
        if trim and libc is not None:  # what the allocator holds free: given back, and measured
            libc.malloc_trim(0)
            line["rss_after_trim_mb"] = round(rss_mb(), 1)
            line["smaps_after_trim"] = smaps()
        if classes:
            counts = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.get_objects())
            line["objects"] = {name: counts.get(name, 0) for name in classes}
            line["objects_top"] = dict(counts.most_common(25))
        line["big"] = _big(big)
        if holders:
            line["holders"] = {name: _holders(name) for name in holders}
        with open(out / "samples.jsonl", "a") as f:
            f.write(json.dumps(line) + "\n")
        if t < baseline or not trace:
            return
        snap = tracemalloc.take_snapshot().filter_traces(ignore)
        if not base:
            base.append(snap)
            return
        stats = snap.compare_to(base[0], "traceback")
        lines = [f"t={t:.0f}s since baseline t={baseline:.0f}s: traced {current / MB:.1f} MB, RSS {rss_mb():.1f} MB"]
        for stat in stats[:25]:
            lines.append(f"\n{stat.size_diff / 1024:+.1f} kB ({stat.count_diff:+d} blocks), now {stat.size / 1024:.1f} kB")
            lines.extend("    " + str(frame) for frame in stat.traceback.format()[-2 * frames:])
        (out / f"growth-{int(t):05d}.txt").write_text("\n".join(lines) + "\n")

    def loop() -> None:
        base: list[tracemalloc.Snapshot] = []
        while True:
            time.sleep(every)
            try:
                one(base)
            except Exception as exc:  # noqa: BLE001 - a diagnostic: say so, keep going
                with open(out / "errors.txt", "a") as f:
                    f.write(f"{time.monotonic() - started:.0f}: {type(exc).__name__}: {exc}\n")

    thread = threading.Thread(target=loop, name="memtrace", daemon=True)
    thread.start()
    return thread


def from_env() -> None:
    """``start`` with the settings of ``ABSTRACTA_MEMTRACE`` (JSON: folder, every, baseline, ...)."""
    settings = json.loads(os.environ["ABSTRACTA_MEMTRACE"])
    start(**settings)
