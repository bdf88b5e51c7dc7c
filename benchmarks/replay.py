"""What GET …/positions (a game's replay) costs the web process: bytes answered and CPU ms per
request, on a long game.

Starts its own ``abstracta serve`` (a free loopback port, a fresh SQLite database, rate limits
off), imports a finished Fibonacci game of random play (seed 0: 1,666 plies), and asks for its
replay: the default answer, one page in the middle (first time, then again), and every page of
the game in turn. CPU is the web process's user + system time (``/proc/<pid>/stat``) around
each request, so run it on an otherwise quiet machine (Linux only).

    python benchmarks/replay.py [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import abstracta
from abstracta.core.records import Record

ROOT = Path(__file__).resolve().parents[1]


def long_record(seed: int = 0) -> Record:
    game = abstracta.load_game("fibonacci")
    initial = game.new_initial_state()
    state, actions, rng = initial.clone(), [], random.Random(seed)
    while not state.is_terminal():
        actions.append(rng.choice(state.legal_actions()))
        state.apply_action(actions[-1])
    return Record.from_play(game, initial, actions, players=["human", "human"])


def serve(tmp: Path) -> tuple[subprocess.Popen, str]:
    out = (tmp / "serve.txt").open("wb")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen([sys.executable, "-m", "abstracta", "serve", "--port", "0", "--db", str(tmp / "replay.db"),
                             "--bot-workers", "1", "--no-rate-limits"], stdout=out, stderr=subprocess.STDOUT,
                            start_new_session=True, env=env)
    deadline = time.time() + 60
    while time.time() < deadline:
        text = (tmp / "serve.txt").read_text()
        if "open http://" in text:
            port = text.split("open http://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1]
            base = f"http://127.0.0.1:{port}"
            try:
                urllib.request.urlopen(f"{base}/api/games", timeout=2).read()
                return proc, base
            except OSError:
                pass
        time.sleep(0.1)
    raise SystemExit(f"the server did not start: {(tmp / 'serve.txt').read_text()}")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def fetch(base: str, path: str, pid: int) -> tuple[int, float]:
    """(bytes, CPU ms of the web process) of one GET."""
    before = cpu_seconds(pid)
    with urllib.request.urlopen(base + path, timeout=120) as r:
        size = len(r.read())
    time.sleep(0.05)  # let the process's clock ticks settle (10 ms granularity)
    return size, (cpu_seconds(pid) - before) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="requests per row (the figures are their mean)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    record = long_record()
    plies = len(record.moves)
    with tempfile.TemporaryDirectory() as folder:
        proc, base = serve(Path(folder))
        try:
            req = urllib.request.Request(f"{base}/api/matches/import", data=json.dumps({"record": record.to_dict()}).encode(),
                                         headers={"Content-Type": "application/json"})
            mid = json.load(urllib.request.urlopen(req))["id"]
            url = f"/api/matches/{mid}/positions"
            rows = []

            def row(name: str, paths: list[str]) -> None:
                sizes, cpus = zip(*(fetch(base, p, proc.pid) for p in paths))
                rows.append({"request": name, "requests": len(paths), "bytes": round(sum(sizes) / len(paths)),
                             "cpu_ms": round(sum(cpus) / len(paths), 1), "total_bytes": sum(sizes),
                             "total_cpu_ms": round(sum(cpus), 1)})

            row("default (no range)", [url] * args.repeat)
            mid_page = f"{url}?from=800"
            row("?from=800, first time", [mid_page])
            row("?from=800, again", [mid_page] * args.repeat)
            pages = [f"{url}?from={start}" for start in range(0, plies + 1, 100)]
            row(f"every page ?from=0,100,… (first time, {len(pages)} requests)", pages)
            row("every page again", pages)
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(20)
    if args.json:
        print(json.dumps({"plies": plies, "rows": rows}))
        return
    print(f"GET …/positions of a {plies}-ply Fibonacci game (web process CPU, mean per request)\n")
    print("| request | requests | bytes per request | CPU ms per request | total bytes | total CPU ms |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['request']} | {r['requests']} | {r['bytes']:,} | {r['cpu_ms']:,} | {r['total_bytes']:,} | {r['total_cpu_ms']:,} |")


if __name__ == "__main__":
    main()
