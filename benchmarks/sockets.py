"""What a WebSocket costs the web process (issue 44 §6): memory per open live view, and CPU per
view pushed, for the capacity note of docs/club.md.

Starts its own ``abstracta serve`` (benchmarks/load.py's Server: a fresh database, rate limits
off), creates ``--matches`` matches of Fibonacci between two people (random legal moves: long games),
then:

1. plays ``--moves`` moves round the matches with nobody watching: CPU per move alone;
2. opens ``--watchers`` spectator WebSockets per match (at most 64, the server's bound per
   match) and waits for each one's first view: RSS per open socket;
3. plays as many moves again, each pushed to every watcher of its match: the extra CPU per
   move, divided by the watchers, is the CPU of one push to one socket.

    python benchmarks/sockets.py [--matches 4] [--watchers 50] [--moves 400] [--json]
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

import websockets  # noqa: E402

import load  # noqa: E402
from soak import rss_mb  # noqa: E402


#: the game played: Fibonacci's games last hundreds of plies, so the watched matches do not end
#: during the run (a finished match is replaced by one nobody watches)
GAME = "fibonacci"
RNG = random.Random(44)
#: pause after each move, so that each is pushed on its own (a burst of moves to one match is
#: coalesced into one push of the last view)
GAP = 0.02


async def play(api: load.Api, matches: list[dict[str, Any]], moves: int) -> int:
    """``moves`` moves, round the matches; a finished match is replaced (the replacement has no
    watchers). Returns moves made."""
    made = 0
    i = 0
    while made < moves:
        m = matches[i % len(matches)]
        i += 1
        status, view = await api.call("GET", f"/api/matches/{m['id']}", tokens=m["tokens"])
        if view["status"] == "over":
            matches[matches.index(m)] = await new_match(api)
            continue
        status, _ = await api.call("POST", f"/api/matches/{m['id']}/actions",
                                   {"action": RNG.choice(view["legal"]), "ply": view["ply"]}, m["tokens"])
        made += status == 200
        await asyncio.sleep(GAP)
    return made


async def new_match(api: load.Api) -> dict[str, Any]:
    status, created = await api.call("POST", "/api/matches", {"game": GAME, "seats": ["human", "human"],
                                                              "take": "all"})
    assert status == 201, created
    return {"id": created["id"], "tokens": ",".join(t["token"] for t in created["tokens"])}


async def watch(base: str, mid: str, counter: list[int], stop: asyncio.Event) -> None:
    """A spectator of ``mid``: counts itself open (``counter[0]``) and each view pushed to it
    (``counter[1]``) until ``stop``."""
    async with websockets.connect(base.replace("http", "ws") + f"/api/matches/{mid}/ws", open_timeout=60,
                                  ping_interval=None, max_size=2 ** 24) as ws:
        await ws.send(json.dumps({"tokens": []}))
        await ws.recv()
        counter[0] += 1

        async def close_on_stop() -> None:
            await stop.wait()
            await ws.close()

        closer = asyncio.create_task(close_on_stop())
        try:
            async for _ in ws:
                counter[1] += 1
        except websockets.ConnectionClosed:
            pass
        finally:
            closer.cancel()


async def measure(server: load.Server, n_matches: int, watchers: int, moves: int) -> dict[str, Any]:
    api = await load.Api(server.base).open()
    try:
        matches = [await new_match(api) for _ in range(n_matches)]
        await play(api, matches, 20)  # warm: imports, caches
        cpu = server.cpu_seconds()
        alone = await play(api, matches, moves)
        cpu_alone = (server.cpu_seconds() - cpu) / alone
        rss_before = rss_mb(server.proc.pid)
        counter = [0, 0]  # sockets open, views received
        stop = asyncio.Event()
        tasks = [asyncio.create_task(watch(server.base, m["id"], counter, stop))
                 for m in matches for _ in range(watchers)]
        deadline = time.monotonic() + 120
        while counter[0] < len(tasks) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        await asyncio.sleep(2)
        rss_after = rss_mb(server.proc.pid)
        opened = counter[0]
        received = counter[1]
        cpu = server.cpu_seconds()
        watched = await play(api, matches, moves)
        await asyncio.sleep(1)  # the last pushes
        cpu_watched = (server.cpu_seconds() - cpu) / watched
        pushes = counter[1] - received
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        await api.close()
    return {"matches": n_matches, "watchers_per_match": watchers, "sockets": opened, "moves": moves,
            "cpu_ms_per_move_unwatched": round(1000 * cpu_alone, 3),
            "cpu_ms_per_move_watched": round(1000 * cpu_watched, 3),
            "pushes": pushes, "cpu_us_per_push": round(1e6 * (cpu_watched - cpu_alone) * watched / max(1, pushes), 1),
            "rss_kb_per_socket": round(1024 * (rss_after - rss_before) / max(1, opened), 1),
            "load_average": os.getloadavg()[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--watchers", type=int, default=50, help="spectators per match (at most 64)")
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="abstracta-sockets-") as folder:
        server = load.Server(load.fresh_db(None, folder), Path(folder) / "server.log")
        try:
            server.start()
            result = asyncio.run(measure(server, args.matches, min(64, args.watchers), args.moves))
        finally:
            server.stop()
    for key, value in result.items():
        print(f"{key:<28}{value}")
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
