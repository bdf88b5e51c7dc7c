"""Soak (issue 44 §5): ``--games`` matches at once for ``--minutes``, watching the web process for
leaks — its resident memory (RSS) and open file descriptors, sampled every ``--every`` seconds —
and every acknowledged move read back at the end (0 lost, 0 duplicated).

The players are benchmarks/load.py's scripted people (each a seat token and a WebSocket, moving
when the pushed view says so after ``--think-ms``; finished matches replaced by new ones), on a
server of its own (a fresh database, rate limits off), one process or ``--workers N`` behind
nginx (a PostgreSQL ``--db``).

A person resigns, at their turn, a game past ``--resign-after`` actions (400; see
:data:`RESIGN_AFTER`): the steady state of games people play, so that the memory is compared
against games that end, not against random Fibonacci games that lengthen for the whole run.

After ``--warmup-minutes`` the figures that count: ``rss_growth_pct`` and ``fds_growth_pct``,
the mean of the last three samples against the mean of the first three after the warm-up
(≤ 10 % each to pass); the bot workers' memory is reported beside. The web process keeps the
1,000 matches last used in memory (``abstracta_matches_cached`` of its /metrics, sampled too):
until that cache is full its memory grows with the matches played, which is no leak, so the
result says whether the cache was full (``cache_full``) and how much memory each match added to
it took (``kb_per_cached_match``): a leak grows with the moves once the cache is full. A full
cache still grows as the games it holds go on (a held match keeps its state's history, its
move list and its views: memory in proportion to its actions), so the actions held are sampled
too (``abstracta_plies_cached``): ``kb_per_cached_ply`` is the memory the growth took for each
action added to the matches held — a few kB, what one action of a held match costs, says the
growth is the cache's matches getting longer (bounded by the cache's size times the longest
games, reached once the long games in play end); memory growing while the actions held do not
is a leak.
The cache is bounded by size too: the actions of the matches it holds, summed, stay within
``CACHE_PLIES`` (the least recently used match dropped first), so a full cache stops growing with
its games; ``cache_full`` says whether either bound held it after the warm-up.
On a machine too slow to fill the cache within the run, ``--cache-matches N`` and
``--cache-plies N`` start the server with a smaller cache (its constants ``CACHE_MATCHES`` and
``CACHE_PLIES`` set before it serves: a benchmark's device, not an option of the server), so that
the leak test is made with a full cache.
What grows, when something does: ``--trace-memory DIR`` runs the web process under
benchmarks/memtrace.py (tracemalloc's growth by traceback after the warm-up, Python's and C's
allocators and SQLite's heap beside the RSS, the largest containers by name; see its docstring),
a diagnosis that slows the server, never a result to keep.

    python benchmarks/soak.py --minutes 30 --games 100 [--db URL] [--workers N] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx  # noqa: E402

import load  # noqa: E402  (benchmarks/load.py: the server, the scripted people)

#: pass marks of the issue
GROWTH_LIMIT_PCT = 10.0
#: A person resigns, at their turn, a game past this many actions. Random play ends every game of
#: the catalogue within about 240 actions but Fibonacci, whose random players never ring a core:
#: about 1,660 actions a game (30 random games), so without it a fifth of the games in play
#: lengthened for the whole run and the server's memory with them (the games held, not a leak),
#: and the run never reached the steady state a leak is measured against. People's games end.
RESIGN_AFTER = 400
#: the classes whose live objects ``--trace-memory`` counts at each sample
TRACED_CLASSES = ("abstracta.server.matches.Match", "abstracta.core.records.Record", "builtins.dict",
                  "builtins.tuple", "builtins.list", "builtins.coroutine", "_asyncio.Task", "_asyncio.Future")


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` in MB (0 once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def open_fds(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (a web process's bot workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return found


#: ``python -c`` starting ``abstracta serve`` with the match cache bounded to {n} matches and
#: {plies} actions
SMALL_CACHE = ("import sys; import abstracta.server.matches as m; m.CACHE_MATCHES = {n}; m.CACHE_PLIES = {plies}; "
               "from abstracta.cli import main; sys.argv[0] = 'abstracta'; main()")
#: ``python -c`` prefix tracing the web process's memory (benchmarks/memtrace.py, its settings in
#: ``ABSTRACTA_MEMTRACE``): ``--trace-memory DIR``
TRACED = "import sys; sys.path.insert(0, {bench!r}); import memtrace; memtrace.from_env(); "


def cached_matches(server: Any) -> int | None:
    """The matches the web processes hold in memory (their /metrics); None when one does not
    answer in time (a busy machine)."""
    return held(server)[0]


def held(server: Any) -> tuple[int | None, int | None]:
    """``(matches, plies)``: the matches the web processes hold in memory and the actions played
    in them (their /metrics: ``abstracta_matches_cached``, ``abstracta_plies_cached``); None
    when a process does not answer in time (a busy machine) or does not say."""
    urls = server.club.worker_urls() if hasattr(server, "club") else [server.base]
    matches = plies = 0
    said = False
    for url in urls:
        try:
            text = httpx.get(url + "/metrics", timeout=30).text
        except httpx.HTTPError:
            return None, None
        for line in text.splitlines():
            if line.startswith("abstracta_matches_cached "):
                matches += int(float(line.split()[1]))
            elif line.startswith("abstracta_plies_cached "):
                plies += int(float(line.split()[1]))
                said = True
    return matches, plies if said else None


def sample(server: Any, run: Any, started: float) -> dict[str, Any]:
    pids = server.pids()
    bots = [c for pid in pids for c in children(pid)]
    matches, plies = held(server)
    return {"t": round(time.monotonic() - started, 1), "rss_mb": round(sum(rss_mb(p) for p in pids), 1),
            "cached": matches, "plies_cached": plies,
            "fds": sum(open_fds(p) for p in pids), "bot_rss_mb": round(sum(rss_mb(p) for p in bots), 1),
            "moves": run.stats.moves, "matches": run.stats.games, "sockets": len(run.sockets),
            "plies_in_play": sum(run.in_play.values()),
            "cpu_s": round(server.cpu_seconds(), 1)}


def growth(samples: list[dict[str, Any]], key: str) -> tuple[float | None, float | None, float | None]:
    """(mean of the first three, mean of the last three, growth in %), of the samples that
    have ``key`` (None: too few)."""
    values = [s[key] for s in samples if s.get(key) is not None]
    if not values:
        return None, None, None
    first, last = values[:3], values[-3:]
    a, b = sum(first) / len(first), sum(last) / len(last)
    return round(a, 1), round(b, 1), round(100 * (b - a) / a, 1) if a else None


def summary(samples: list[dict[str, Any]], warmup_minutes: float) -> dict[str, Any]:
    """The figures of the samples after the warm-up (see the module docstring)."""
    steady = [s for s in samples if s["t"] >= warmup_minutes * 60] or samples
    rss_start, rss_end, rss_growth = growth(steady, "rss_mb")
    fds_start, fds_end, fds_growth = growth(steady, "fds")
    cached_start, cached_end, _ = growth(steady, "cached")
    plies_start, plies_end, plies_growth = growth(steady, "plies_cached")
    play_start, play_end, play_growth = growth(steady, "plies_in_play")
    # full: the matches held stopped growing, or the actions they hold did (the bound by size)
    full = cached_start is not None and (cached_end - cached_start <= 0.01 * max(1.0, cached_end)
                                         or (plies_start is not None and plies_growth is not None
                                             and plies_growth <= GROWTH_LIMIT_PCT))
    return {"rss_mb_after_warmup": rss_start, "rss_mb_end": rss_end, "rss_growth_pct": rss_growth,
            "rss_mb_max": max(x["rss_mb"] for x in steady),
            "fds_after_warmup": fds_start, "fds_end": fds_end, "fds_growth_pct": fds_growth,
            "fds_max": max(x["fds"] for x in steady), "bot_rss_mb_end": steady[-1]["bot_rss_mb"],
            # full: the matches held stopped growing after the warm-up (the server's own bound)
            "cached_after_warmup": cached_start, "cached_end": cached_end, "cache_full": full,
            "kb_per_cached_match": round(1024 * (rss_end - rss_start) / (cached_end - cached_start), 1)
            if cached_start is not None and cached_end - cached_start >= 10 else None,
            # a full cache's matches still grow as their games go on: the actions they hold, and
            # the memory the growth took for each action added to them (None: they did not grow)
            "plies_cached_after_warmup": plies_start, "plies_cached_end": plies_end,
            "plies_cached_growth_pct": plies_growth,
            "kb_per_cached_ply": round(1024 * (rss_end - rss_start) / (plies_end - plies_start), 2)
            if plies_start is not None and plies_end - plies_start >= 100 else None,
            # the games in play get longer as the short ones end and the long ones go on (random
            # players: a Fibonacci game runs to its 300 turns): the actions they hold, summed, and
            # the memory the growth took for each action added to them
            "plies_in_play_after_warmup": play_start, "plies_in_play_end": play_end,
            "plies_in_play_growth_pct": play_growth,
            "kb_per_ply_in_play": round(1024 * (rss_end - rss_start) / (play_end - play_start), 2)
            if play_start is not None and play_end - play_start >= 100 else None}


def soak(minutes: float, games: int, warmup_minutes: float, every: float, db: str | None, workers: int,
         think_ms: float, seed: int, cache_matches: int | None = None, cache_plies: int | None = None,
         trace_memory: str | None = None, out=sys.stdout,
         resign_after: int | None = RESIGN_AFTER) -> dict[str, Any]:
    random.seed(seed)
    with tempfile.TemporaryDirectory(prefix="abstracta-soak-") as folder:
        os.chmod(folder, 0o755)
        server = load.make_server(db, folder, workers)
        if cache_matches is not None or cache_plies is not None or trace_memory:
            if workers > 1:
                raise SystemExit("--cache-matches, --cache-plies and --trace-memory are for one web process")
            from abstracta.server.matches import CACHE_MATCHES, CACHE_PLIES

            code = SMALL_CACHE.format(n=int(cache_matches or CACHE_MATCHES), plies=int(cache_plies or CACHE_PLIES))
            if trace_memory:
                os.environ["ABSTRACTA_MEMTRACE"] = json.dumps(
                    {"folder": str(Path(trace_memory).resolve()), "every": every,
                     "baseline": warmup_minutes * 60, "classes": TRACED_CLASSES, "big": 1000,
                     **json.loads(os.environ.get("SOAK_MEMTRACE", "{}"))})
                code = TRACED.format(bench=str(Path(__file__).resolve().parent)) + code
            server.python_args = ["-c", code]
        try:
            server.start(**({"timeout": 300.0} if trace_memory else {}))
            catalogue = httpx.get(server.base + "/api/games", timeout=30).json()
            run = load.Run(server, catalogue, think_ms / 1000, seed, resign_after=resign_after)
            samples: list[dict[str, Any]] = []

            async def go() -> tuple[float, int, int]:
                await run.http.open()
                run.measuring = True  # every move counts: the whole run is measured
                started = time.monotonic()
                slots = [asyncio.create_task(run.slot(i)) for i in range(games)]
                while time.monotonic() - started < minutes * 60:
                    await asyncio.sleep(min(every, max(0.0, minutes * 60 - (time.monotonic() - started))))
                    samples.append(await asyncio.to_thread(sample, server, run, started))
                    s = samples[-1]
                    print(f"{s['t']:>7.0f} s  RSS {s['rss_mb']:>7.1f} MB  fds {s['fds']:>5}  cached {s['cached']!s:>5}"
                          f"  plies {s['plies_cached']!s:>7}  in play {s['plies_in_play']:>6}"
                          f"  bots {s['bot_rss_mb']:>7.1f} MB"
                          f"  moves {s['moves']:>8}  matches {s['matches']:>6}", file=out, flush=True)
                elapsed = time.monotonic() - started
                run.measuring = False
                await run.wind_down()
                await asyncio.wait(slots, timeout=60)
                lost, duplicated = await run.verify()
                await run.http.close()
                return elapsed, lost, duplicated

            elapsed, lost, duplicated = asyncio.run(go())
            errors = run.stats.server_errors + server.internal_errors()
        finally:
            server.stop()
    figures = summary(samples, warmup_minutes)
    s = run.stats
    return {"minutes": minutes, "games": games, "warmup_minutes": warmup_minutes, "think_ms": think_ms,
            "workers": workers, "db": "postgresql" if db and db.startswith("postgresql") else "sqlite",
            "cache_matches": cache_matches, "cache_plies": cache_plies,
            "resign_after": resign_after, "resigned": s.resigned,
            "seconds": round(elapsed, 1), "moves": s.moves, "moves_per_s": round(s.moves / elapsed, 1),
            "matches_played": s.games, "p50_ms": load.ms(load.percentile(s.latencies, 0.5)),
            "p99_ms": load.ms(load.percentile(s.latencies, 0.99)), **figures,
            "server_cpu_ms_per_move": round(1000 * samples[-1]["cpu_s"] / max(1, s.moves + s.bot_moves), 2)
            if samples else None,
            "acknowledged": sum(len(v) for v in s.acked.values()), "lost": lost, "duplicated": duplicated,
            "unanswered": sum(s.unanswered.values()),
            "server_errors": errors, "errors": s.errors,
            "passed": passed(figures, lost, duplicated, errors),
            "load_average": os.getloadavg()[0], "samples": samples}


def passed(figures: dict[str, Any], lost: int, duplicated: int, errors: int) -> bool:
    """Growth of memory and descriptors within the limit, with a full cache; nothing lost."""
    return bool(figures["cache_full"] and figures["rss_growth_pct"] is not None
                and figures["rss_growth_pct"] <= GROWTH_LIMIT_PCT and figures["fds_growth_pct"] <= GROWTH_LIMIT_PCT
                and lost == 0 and duplicated == 0 and errors == 0)


def recompute(path: str, warmup_minutes: float | None) -> dict[str, Any]:
    """A stored result's figures again from its samples (a sampler that once wrote 0 for a
    /metrics that did not answer: read as no sample)."""
    result = json.loads(Path(path).read_text())
    for sample_ in result["samples"]:
        if sample_.get("cached") == 0 and sample_["moves"] > 0:
            sample_["cached"] = None
    warmup = result["warmup_minutes"] if warmup_minutes is None else warmup_minutes
    result.update(summary(result["samples"], warmup), warmup_minutes=warmup)
    result["passed"] = passed(result, result["lost"], result["duplicated"], result["server_errors"])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="length of the run (default 30)")
    parser.add_argument("--games", type=int, default=100, help="matches at once (default 100)")
    parser.add_argument("--warmup-minutes", type=float, default=5.0,
                        help="minutes before the memory and descriptors are compared (default 5)")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between samples (default 30)")
    parser.add_argument("--db", default=None, help="SQLAlchemy URL of a database to use (its tables are dropped; "
                                                   "default: a new SQLite file)")
    parser.add_argument("--workers", type=int, default=1, help="web processes behind nginx (PostgreSQL --db)")
    parser.add_argument("--think-ms", type=float, default=150.0, help="a person's mean thinking time (default 150)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--resign-after", type=int, default=RESIGN_AFTER, metavar="PLIES",
                        help=f"a person resigns a game past PLIES actions (default {RESIGN_AFTER}; 0: never)")
    parser.add_argument("--json", action="store_true", help="end with one JSON object")
    parser.add_argument("--cache-matches", type=int, help="bound the server's match cache to N matches (a slow "
                                                          "machine that cannot fill the 1,000 within the run)")
    parser.add_argument("--cache-plies", type=int, help="bound the actions the server's match cache holds to N "
                                                        "(default: the server's CACHE_PLIES)")
    parser.add_argument("--trace-memory", metavar="DIR", help="trace the web process's memory into DIR "
                        "(benchmarks/memtrace.py: tracemalloc's growth by traceback after the warm-up, the Python "
                        "heap, SQLite's and the allocator's beside RSS; slows the server: a diagnosis, not a result)")
    parser.add_argument("--out", help="also write the JSON object to this file")
    parser.add_argument("--recompute", metavar="FILE", help="recompute the figures of a stored result (to --out)")
    args = parser.parse_args()
    if args.recompute:
        result = recompute(args.recompute, None)
    else:
        result = soak(args.minutes, args.games, args.warmup_minutes, args.every, args.db, args.workers,
                      args.think_ms, args.seed, args.cache_matches, args.cache_plies, args.trace_memory,
                      resign_after=args.resign_after or None)
    for key in ("minutes", "games", "moves", "moves_per_s", "matches_played", "p50_ms", "p99_ms",
                "rss_mb_after_warmup", "rss_mb_end", "rss_growth_pct", "rss_mb_max", "fds_after_warmup", "fds_end",
                "fds_growth_pct", "cached_after_warmup", "cached_end", "cache_full", "kb_per_cached_match",
                "plies_cached_after_warmup", "plies_cached_end", "plies_cached_growth_pct", "kb_per_cached_ply",
                "plies_in_play_after_warmup", "plies_in_play_end", "plies_in_play_growth_pct", "kb_per_ply_in_play",
                "bot_rss_mb_end", "server_cpu_ms_per_move", "resigned", "acknowledged", "lost", "duplicated",
                "server_errors", "passed", "load_average"):
        print(f"{key:<28}{result.get(key)}")
    text = json.dumps(result)
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    if args.json:
        print(text)


if __name__ == "__main__":
    main()
