"""A crash in the middle of play (issue 14 §5): nothing acknowledged is lost, every match goes on.

Starts ``abstracta serve`` on a fresh database, plays ``--games`` matches at once as
``benchmarks/load.py`` does (people with their tokens and WebSockets, a quarter against the
computer) for ``--before`` seconds, then SIGKILLs the server's whole process group (the web
process and its bot workers) while moves are in flight, restarts it on the same database and
checks every match through the API:

* ``acknowledged``: moves whose POST was answered 200 before the kill; ``found``: those in
  their match's move list at their ply after the restart; ``lost`` = the difference (must be 0);
* ``continued``: unfinished matches that accept the next move (a person to move plays one; a
  computer to move answers by itself) — ``all_continue`` when every one does;
* ``stored_unacknowledged``: moves stored whose answer the kill cut off (normal, a few);
* ``survivors``: processes of the killed server still alive a second later (must be 0).

    python benchmarks/crash.py [--games 20] [--before 8] [--db URL] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import Api, Run, Server, fresh_db  # noqa: E402


def survivors(pgid: int) -> int:
    """Processes left in the killed server's process group."""
    count = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            count += 1
    return count


async def continues(http: Api, mid: str, info: dict[str, Any]) -> str:
    """``over``, ``continued`` or ``stuck``: does the match take its next move after the restart?"""
    tokens = info["tokens"]
    everyone = ",".join(tokens.values())
    _, view = await http.call("GET", f"/api/matches/{mid}", tokens=everyone)
    if view["status"] == "over":
        return "over"
    if view["human_to_move"]:
        seat = view["to_move"]
        _, mine = await http.call("GET", f"/api/matches/{mid}", tokens=tokens[seat])
        status, _ = await http.call("POST", f"/api/matches/{mid}/actions",
                                    {"action": random.choice(mine["legal"]), "ply": view["ply"]}, tokens[seat])
        return "continued" if status == 200 else "stuck"
    deadline = time.time() + 60  # the computer is to move: the restarted server resumes it
    while time.time() < deadline:
        _, now = await http.call("GET", f"/api/matches/{mid}", tokens=everyone)
        if now["ply"] > view["ply"] or now["status"] == "over":
            return "continued"
        await asyncio.sleep(0.2)
    return "stuck"


def crash(games: int, before: float, db: str | None, seed: int) -> dict[str, Any]:
    random.seed(seed)
    with tempfile.TemporaryDirectory(prefix="abstracta-crash-") as folder:
        url = fresh_db(db, folder)
        server = Server(url, Path(folder) / "server.log")
        server.start()
        catalogue = httpx.get(server.base + "/api/games", timeout=30).json()
        run = Run(server, catalogue, 0.0, seed)

        async def busy() -> int:
            await run.http.open()
            slots = [asyncio.create_task(run.slot(i)) for i in range(games)]
            await asyncio.sleep(before)
            pgid = server.proc.pid
            server.kill()  # SIGKILL to the process group: the web process and every bot worker
            run.stopping = True
            await asyncio.wait(slots, timeout=30)
            await run.http.close()
            await asyncio.sleep(1.0)
            return survivors(pgid)

        left = asyncio.run(busy())
        restarted = Server(url, Path(folder) / "restarted.log")
        restarted.start()
        try:
            run.server = restarted
            run.stats.acked = {m: v for m, v in run.stats.acked.items() if v}

            async def check() -> tuple[int, int, dict[str, int]]:
                run.http = await Api(restarted.base).open()
                lost, duplicated = await run.verify()
                outcomes: dict[str, int] = {"over": 0, "continued": 0, "stuck": 0}
                sem = asyncio.Semaphore(10)

                async def one(mid: str, info: dict[str, Any]) -> None:
                    async with sem:
                        outcomes[await continues(run.http, mid, info)] += 1

                await asyncio.gather(*(one(m, i) for m, i in run.stats.matches.items()))
                await run.http.close()
                return lost, duplicated, outcomes

            lost, duplicated, outcomes = asyncio.run(check())
            errors = restarted.internal_errors()
        finally:
            restarted.stop()
    acknowledged = sum(len(v) for v in run.stats.acked.values())
    return {"games": games, "before_s": before, "matches": len(run.stats.matches), "acknowledged": acknowledged,
            "found": acknowledged - lost, "lost": lost,
            # moves stored whose answer the kill cut off (the client never heard of them)
            "stored_unacknowledged": duplicated,
            "over": outcomes["over"], "continued": outcomes["continued"], "stuck": outcomes["stuck"],
            "all_continue": outcomes["stuck"] == 0, "survivors": left, "server_errors_after_restart": errors,
            "db": "postgresql" if db and db.startswith("postgresql") else "sqlite"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="concurrent matches (default 20)")
    parser.add_argument("--before", type=float, default=8.0, help="seconds of play before the kill (default 8)")
    parser.add_argument("--db", default=None, help="SQLAlchemy URL of an empty database (default: a new SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="end with one JSON object")
    args = parser.parse_args()
    result = crash(args.games, args.before, args.db, args.seed)
    for key, value in result.items():
        print(f"{key:<28}{value}")
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
