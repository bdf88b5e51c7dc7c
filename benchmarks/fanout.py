"""The fan-out between web processes (issue 44 §3): PostgreSQL LISTEN/NOTIFY against Redis pub/sub.

Publishes messages the size of a presence or a seek (~150 bytes of JSON) through
:mod:`abstracta.server.fanout` (the server's own code: ``PostgresFanout`` and ``RedisFanout``) to
``--listeners`` other processes, each subscribed as a web worker would be, and measures:

* ``latency``: ``--rate`` messages a second for ``--seconds``: p50/p99/max from publishing to
  arrival in the listening processes (one machine, one clock);
* ``burst``: ``--burst`` messages as fast as the publisher sends them: messages a second until
  the last one arrived everywhere, and the publisher's CPU per message;
* ``commits`` (PostgreSQL only): what NOTIFY costs the moves' own commits — ``--writers``
  connections each committing an UPDATE of a row of their own, with and without a
  ``pg_notify`` in the same transaction (as a move's commit sends one): commits a second.
  A notifying commit takes a cluster-wide lock to queue its notification, so notifying commits
  run one at a time.

    python benchmarks/fanout.py --db postgresql://user@127.0.0.1:5433/db --redis redis://:pw@127.0.0.1:6390/0 [--json]

(``make club`` starts both: ``PGPASSFILE=.club/pgpass``; the Redis URL with its password is in
``.club/secrets.json``.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from abstracta.server.fanout import PostgresFanout, RedisFanout  # noqa: E402

PAD = "x" * 100


def make(kind: str, url: str):
    return RedisFanout(url) if kind == "redis" else PostgresFanout(url)


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


# --- a listening process ------------------------------------------------------------------------
async def listen(kind: str, url: str) -> None:
    """Subscribe to ``bench``; on ``{"done": phase}`` print that phase's arrivals as one JSON
    line; exit on ``{"quit": true}``."""
    fanout = make(kind, url)
    await fanout.start()
    arrivals: list[tuple[int, float, float]] = []  # (i, sent, arrived)
    quit_ = asyncio.Event()

    def on_message(message: dict[str, Any]) -> None:
        now = time.time()
        if "done" in message:
            print(json.dumps({"phase": message["done"], "arrivals": arrivals}), flush=True)
            arrivals.clear()
        elif message.get("quit"):
            quit_.set()
        else:
            arrivals.append((message["i"], message["t"], now))

    fanout.subscribe("bench", on_message)
    print(json.dumps({"ready": True}), flush=True)
    await quit_.wait()
    await fanout.close()


# --- the publisher ------------------------------------------------------------------------------
class Listeners:
    def __init__(self, kind: str, url: str, n: int):
        self.procs = [subprocess.Popen([sys.executable, __file__, "--listen", kind, "--url", url],
                                       stdout=subprocess.PIPE, text=True, env={**os.environ}) for _ in range(n)]
        for proc in self.procs:
            line = proc.stdout.readline()
            if not line or not json.loads(line).get("ready"):
                raise SystemExit(f"a {kind} listener did not start")

    def collect(self) -> list[list[tuple[int, float, float]]]:
        return [json.loads(proc.stdout.readline())["arrivals"] for proc in self.procs]

    def close(self) -> None:
        for proc in self.procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


async def publish_phase(fanout, phase: str, count: int, rate: float | None) -> tuple[float, float]:
    """Publish ``count`` messages (at ``rate`` a second, or as fast as they go): (wall seconds
    of publishing, CPU seconds of this process)."""
    cpu, started = time.process_time(), time.perf_counter()
    for i in range(count):
        if rate:
            delay = started + i / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
        fanout.publish("bench", {"i": i, "t": time.time(), "pad": PAD})
        if not rate and i % 200 == 199:
            await asyncio.sleep(0)  # let the sender run
    await asyncio.sleep(0.5)  # the last ones on their way before the end marker
    fanout.publish("bench", {"done": phase})
    return time.perf_counter() - started, time.process_time() - cpu


async def run_kind(kind: str, url: str, listeners: int, rate: float, seconds: float, burst: int) -> dict[str, Any]:
    procs = Listeners(kind, url, listeners)
    fanout = make(kind, url)
    await fanout.start()
    try:
        out: dict[str, Any] = {"kind": kind, "listeners": listeners}
        n = int(rate * seconds)
        await publish_phase(fanout, "latency", n, rate)
        got = await asyncio.to_thread(procs.collect)
        lat = [(arrived - sent) * 1000 for per in got for _, sent, arrived in per]
        out["latency"] = {"rate": rate, "messages": n, "received": [len(per) for per in got],
                          "p50_ms": round(percentile(lat, 0.5), 3), "p99_ms": round(percentile(lat, 0.99), 3),
                          "max_ms": round(max(lat), 3)}
        wall, cpu = await publish_phase(fanout, "burst", burst, None)
        got = await asyncio.to_thread(procs.collect)
        firsts = [min(s for _, s, _ in per) for per in got if per]
        lasts = [max(a for _, _, a in per) for per in got if per]
        span = max(lasts) - min(firsts) if lasts else float("nan")
        out["burst"] = {"messages": burst, "received": [len(per) for per in got],
                        "per_s": round(burst / span, 1), "publisher_cpu_us_per_message": round(1e6 * cpu / burst, 1)}
        fanout.publish("bench", {"quit": True})
        await asyncio.sleep(0.3)
    finally:
        await fanout.close()
        procs.close()
    return out


def commits(url: str, writers: int, seconds: float) -> dict[str, Any]:
    """Commits a second of ``writers`` connections updating a row each, without and with a
    pg_notify in the transaction."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS fanout_bench (id int PRIMARY KEY, n int)")
        conn.execute("DELETE FROM fanout_bench")
        for i in range(writers):
            conn.execute("INSERT INTO fanout_bench VALUES (%s, 0)", (i,))
    result: dict[str, Any] = {"writers": writers}
    try:
        for notify in (False, True):
            counts = [0] * writers
            stop = threading.Event()

            def write(i: int) -> None:
                with psycopg.connect(url) as conn:
                    while not stop.is_set():
                        with conn.transaction():
                            conn.execute("UPDATE fanout_bench SET n = n + 1 WHERE id = %s", (i,))
                            if notify:
                                conn.execute("SELECT pg_notify('fanout_bench', %s)", (f"m{i}:{counts[i]}",))
                        counts[i] += 1

            threads = [threading.Thread(target=write, args=(i,)) for i in range(writers)]
            for t in threads:
                t.start()
            time.sleep(seconds)
            stop.set()
            for t in threads:
                t.join()
            result["with_notify" if notify else "without_notify"] = round(sum(counts) / seconds, 1)
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS fanout_bench")
    return result


def libpq(url: str) -> str:
    """A libpq URL from a SQLAlchemy one (``postgresql+psycopg://`` → ``postgresql://``)."""
    scheme, rest = url.split("://", 1)
    return "postgresql://" + rest if scheme.startswith("postgresql") else url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", help="a PostgreSQL database (libpq or SQLAlchemy URL)")
    parser.add_argument("--redis", help="a Redis URL")
    parser.add_argument("--listeners", type=int, default=2, help="listening processes (default 2, as two workers)")
    parser.add_argument("--rate", type=float, default=1000.0, help="messages a second in the latency phase")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of the latency and commit phases")
    parser.add_argument("--burst", type=int, default=5000, help="messages in the burst phase")
    parser.add_argument("--writers", type=int, default=4, help="committing connections in the commit phase")
    parser.add_argument("--json", action="store_true", help="end with one JSON object")
    parser.add_argument("--listen", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.listen:
        asyncio.run(listen(args.listen, args.url))
        return
    if not args.db and not args.redis:
        parser.error("give --db (PostgreSQL) and/or --redis")
    results: dict[str, Any] = {"load_average": os.getloadavg()[0]}
    if args.db:
        results["notify"] = asyncio.run(run_kind("postgres", libpq(args.db), args.listeners, args.rate,
                                                 args.seconds, args.burst))
        results["commits"] = commits(libpq(args.db), args.writers, args.seconds)
    if args.redis:
        results["redis"] = asyncio.run(run_kind("redis", args.redis, args.listeners, args.rate, args.seconds,
                                                args.burst))
    print(f"{'':<22}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'burst/s':>10}{'pub CPU µs':>12}")
    for name in ("notify", "redis"):
        if name in results:
            r = results[name]
            print(f"{name:<22}{r['latency']['p50_ms']:>9}{r['latency']['p99_ms']:>9}{r['latency']['max_ms']:>9}"
                  f"{r['burst']['per_s']:>10}{r['burst']['publisher_cpu_us_per_message']:>12}")
    if "commits" in results:
        c = results["commits"]
        print(f"commits/s of {c['writers']} writers: {c['without_notify']} without NOTIFY, {c['with_notify']} with")
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
