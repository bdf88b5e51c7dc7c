"""Bot fairness under load (issue 14 §5): does a level-1 reply wait behind deep searches?

    python benchmarks/bot_fairness.py [--matches 20] [--seconds 90] [--bot-workers 2] [--json]

Starts its own server (``abstracta serve`` on loopback, a fresh SQLite database, rate limits
off), creates ``--matches`` matches of level 6 against level 6 (the five games in turn), and
meanwhile a scripted person plays Fanorona against level 1 over HTTP for ``--seconds``: each
move is a random legal action; the reply latency is the time from sending the move to seeing
the computer's answer in the match view (polled every 10 ms). A finished game is replaced by a
new one. Prints a table; with ``--json`` the last line is one JSON object with ``level1_p99_ms``
(target ≤ 1,000), ``random_fallbacks`` (must be 0), ``fallbacks`` (a search that did not answer,
replaced by a quick search), ``level1_replies``, ``level1_p50_ms``, ``level1_max_ms``,
``deep_moves`` (computer moves in the level-6 matches), ``load`` (1-minute load average before
and after: the machine may be shared).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

GAMES = ["fanorona", "nibble", "slide-checkers", "fibonacci", "fibonacci-cards"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: Path, workers: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "abstracta", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--db", f"sqlite:///{db}", "--bot-workers", workers, "--no-rate-limits"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.time() + 60
    while True:
        try:
            httpx.get(base + "/api/games", timeout=2)
            return proc, base
        except httpx.HTTPError:
            if proc.poll() is not None:
                sys.exit(f"the server did not start: {proc.stderr.read().decode()}")
            if time.time() > deadline:
                proc.kill()
                sys.exit("the server did not start within 60 s")
            time.sleep(0.2)


def stop_server(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def new_person_match(http: httpx.Client) -> tuple[str, dict, dict[str, str]]:
    r = http.post("/api/matches", json={"game": "fanorona", "seats": ["human", "level:1"]})
    r.raise_for_status()
    view = r.json()
    auth = {"Authorization": "Bearer " + view["tokens"][0]["token"]}
    return view["id"], view, auth


def play_person(http: httpx.Client, seconds: float, rng: random.Random) -> list[float]:
    """Play against level 1 for ``seconds``; the reply latencies in ms."""
    latencies: list[float] = []
    end = time.monotonic() + seconds
    mid, view, auth = new_person_match(http)
    while time.monotonic() < end:
        if view["status"] != "playing":
            mid, view, auth = new_person_match(http)
            continue
        if not view["human_to_move"]:
            time.sleep(0.01)
            view = http.get(f"/api/matches/{mid}", headers=auth).json()
            continue
        sent = time.monotonic()
        r = http.post(f"/api/matches/{mid}/actions", headers=auth,
                      json={"action": rng.choice(view["legal"]), "ply": view["ply"]})
        r.raise_for_status()
        view = r.json()
        if view["status"] != "playing" or view["human_to_move"]:
            continue  # the game ended, or the person's turn goes on (a capture chain)
        while view["ply"] == r.json()["ply"]:
            time.sleep(0.01)
            view = http.get(f"/api/matches/{mid}", headers=auth).json()
        latencies.append((time.monotonic() - sent) * 1000)
        time.sleep(0.05)  # a person is not instant
    return latencies


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=20, help="level-6 matches (default 20)")
    parser.add_argument("--seconds", type=float, default=90.0, help="how long the person plays (default 90)")
    parser.add_argument("--bot-workers", default="2", help="passed to abstracta serve (default 2)")
    parser.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    args = parser.parse_args()
    load_before = load_average()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(Path(tmp) / "bench.db", args.bot_workers)
        try:
            with httpx.Client(base_url=base, timeout=30) as http:
                deep = []
                for i in range(args.matches):
                    r = http.post("/api/matches", json={"game": GAMES[i % len(GAMES)],
                                                        "seats": ["level:6", "level:6"]})
                    r.raise_for_status()
                    deep.append(r.json()["id"])
                time.sleep(2.0)  # the deep lane is full and its queue long before the person starts
                latencies = play_person(http, args.seconds, random.Random(1))
                deep_moves = 0
                for mid in deep:
                    deep_moves += http.get(f"/api/matches/{mid}").json()["ply"]
                stats = http.get("/api/bots").json()
        finally:
            stop_server(proc)
    result = {
        "level1_p99_ms": round(percentile(latencies, 99), 1),
        "level1_p50_ms": round(percentile(latencies, 50), 1),
        "level1_max_ms": round(max(latencies), 1) if latencies else None,
        "level1_replies": len(latencies),
        "random_fallbacks": stats["random_fallbacks"],
        "fallbacks": stats["fallbacks"],
        "deep_moves": deep_moves,
        "matches": args.matches,
        "seconds": args.seconds,
        "bot_workers": args.bot_workers,
        "load": [load_before, load_average()],
        "cpus": os.cpu_count(),
    }
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"bot fairness: {args.matches} matches level 6 v level 6, a person v level 1 "
                        f"for {args.seconds:g} s, --bot-workers {args.bot_workers}")
    for col in ("level-1 replies", "p50 ms", "p99 ms", "max ms", "deep moves", "fallbacks", "random", "load"):
        table.add_column(col, justify="right")
    table.add_row(str(len(latencies)), f"{result['level1_p50_ms']:,.0f}", f"{result['level1_p99_ms']:,.0f}",
                  f"{result['level1_max_ms'] or 0:,.0f}", str(deep_moves), str(stats["fallbacks"]),
                  str(stats["random_fallbacks"]), f"{load_before}→{result['load'][1]}")
    Console(width=110).print(table)
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
