"""The web process's CPU per move on a fixed workload (issue 44 §1): the same moves every run, one
at a time, so that a change's effect shows on a machine too busy for load.py's rates to compare.

Starts its own ``abstracta serve`` (as benchmarks/load.py does: a fresh SQLite database, rate
limits off), creates ``--matches`` matches of every game between two people (each seat's token
claimed, each seat with its own WebSocket, as load.py's people), then plays them in turn, one move
at a time, a seeded random legal move each, until ``--moves`` moves are played (a finished match is
replaced by a new one of the same game): each move is sent over the mover's WebSocket and
acknowledged there (``--moves-over ws``, the default: as the browser does) or POSTed (``--moves-over
http``), and then every seat's pushed view of the new ply is waited for. Measured: the web
process's CPU (user + system) over the moves, per move (``server_cpu_ms_per_move``); the match
creation and the sockets' first views are outside it.
Also per span of the game's length (``by_ply``: the ply a move was made at, 0-49, 50-149, …), since
a move's work must not grow with the game: ``--games fibonacci`` alone (random players make its
games 1,600 plies long) measures a move at ply 20 against one at ply 300.

    python benchmarks/move_cpu.py [--moves 600] [--matches 2] [--games fibonacci,nibble] [--moves-over ws|http] [--json]
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
import orjson
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402  (the server in a subprocess, the API client)


class Table:
    """One match between two people: their tokens, their sockets, the last view each was sent."""

    def __init__(self, api: load.Api, base: str, game: str, over: str = "ws"):
        self.api, self.base, self.game, self.over = api, base, game, over
        self.views: dict[int, dict[str, Any]] = {}
        self.changed = asyncio.Event()
        self.answers: dict[int, asyncio.Future] = {}  # a move sent over a socket -> its answer
        self.ids = 0

    async def open(self) -> None:
        status, created = await self.api.call("POST", "/api/matches", {"game": self.game, "seats": ["human", "human"]})
        assert status == 201, (status, created)
        self.id = created["id"]
        tokens = {t["seat"]: t["token"] for t in created["tokens"]}
        for invite in created["invites"]:
            _, claim = await self.api.call("POST", "/api/invites/claim", {"code": invite["code"]})
            tokens[invite["seat"]] = claim["tokens"][0]["token"]
        self.tokens = tokens
        url = self.base.replace("http", "ws") + f"/api/matches/{self.id}/ws"
        self.sockets = {}
        for seat, token in tokens.items():
            ws = await websockets.connect(url, max_size=2 ** 24, ping_interval=None)
            await ws.send(json.dumps({"tokens": [token]}))
            self.sockets[seat] = ws
            self.views[seat] = orjson.loads(await ws.recv())
        self.readers = [asyncio.create_task(self.read(seat, ws)) for seat, ws in self.sockets.items()]

    async def read(self, seat: int, ws: Any) -> None:
        try:
            async for message in ws:
                frame = orjson.loads(message)
                ident = frame.get("ack", frame.get("id") if "error" in frame else None)
                if ident is not None:  # the answer to a move sent on this socket
                    waiting = self.answers.pop(ident, None)
                    if waiting is not None:
                        waiting.set_result(frame)
                    continue
                self.views[seat] = frame
                self.changed.set()
        except websockets.ConnectionClosed:
            pass

    def ply(self) -> int:
        return self.views[0]["ply"]

    async def move(self, rng: random.Random) -> bool:
        """One move by the seat to move; False once the match is over."""
        view = self.views[0]
        if view["status"] == "over":
            return False
        seat = view["to_move"]
        mine = self.views[seat]
        body = {"action": rng.choice(mine["legal"]), "ply": mine["ply"]}
        if self.over == "ws":
            self.ids += 1
            answered = self.answers[self.ids] = asyncio.get_running_loop().create_future()
            await self.sockets[seat].send(json.dumps({"move": body, "id": self.ids}))
            answer = await asyncio.wait_for(answered, 60)
            assert "ack" in answer, answer
        else:
            status, answer = await self.api.call("POST", f"/api/matches/{self.id}/actions", body, self.tokens[seat])
            assert status == 200, (status, answer)
        while any(v["ply"] != answer["ply"] for v in self.views.values()):  # every seat was pushed it
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 60)
        return self.views[seat]["status"] != "over"

    async def close(self) -> None:
        for ws in self.sockets.values():
            await ws.close()
        await asyncio.gather(*self.readers, return_exceptions=True)


#: the first ply of each span ``by_ply`` reports (a move made at ply 20 falls in the first)
SPANS = (0, 50, 150, 300, 600, 1000)


def span_of(ply: int) -> str:
    first = max(edge for edge in SPANS if edge <= ply)
    after = [edge for edge in SPANS if edge > ply]
    return f"{first}-{after[0] - 1}" if after else f"{first}-"


async def play(server: load.Server, moves: int, matches: int, seed: int, over: str = "ws",
               only: list[str] | None = None) -> dict[str, Any]:
    rng = random.Random(seed)
    api = await load.Api(server.base).open()
    games = [g["name"] for g in httpx.get(server.base + "/api/games", timeout=30).json() if g["num_players"] == 2
             and (only is None or g["name"] in only)]
    tables = [Table(api, server.base, game, over) for game in games for _ in range(matches)]
    for table in tables:
        await table.open()
    played, spare, cpu = 0, 0.0, server.cpu_seconds()
    spans: dict[str, list[float]] = {}  # per span of plies: [moves, CPU seconds]
    started = time.perf_counter()
    while played < moves:
        for i, table in enumerate(tables):
            if played >= moves:
                break
            ply, before = table.ply(), server.cpu_seconds()
            going = await table.move(rng)
            span = spans.setdefault(span_of(ply), [0, 0.0])
            span[0] += 1
            span[1] += server.cpu_seconds() - before
            if not going:
                paused = server.cpu_seconds()  # a finished match is replaced outside the count
                await table.close()
                tables[i] = Table(api, server.base, table.game, over)
                await tables[i].open()
                spare += server.cpu_seconds() - paused
            played += 1
    used = server.cpu_seconds() - cpu - spare
    elapsed = time.perf_counter() - started
    for table in tables:
        await table.close()
    await api.close()
    return {"moves": played, "moves_over": over, "games": games, "matches_per_game": matches,
            "seconds": round(elapsed, 1), "server_cpu_ms_per_move": round(1000 * used / played, 3),
            # the CPU clock counts in ticks (10 ms): a span's figure needs a few hundred moves
            "by_ply": [{"plies": name, "moves": n, "server_cpu_ms_per_move": round(1000 * seconds / n, 3)}
                       for name, (n, seconds) in sorted(spans.items(), key=lambda kv: int(kv[0].split("-")[0]))]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--matches", type=int, default=2, help="matches of each game at once (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves-over", choices=("ws", "http"), default="ws",
                        help="send each move over the mover's WebSocket, as the browser does (default), or POST it")
    parser.add_argument("--games", help="only these games (names, comma-separated; default every two-player game)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="abstracta-move-cpu-") as folder:
        server = load.Server(load.fresh_db(None, folder), Path(folder) / "server.log")
        try:
            server.start()
            result = asyncio.run(play(server, args.moves, args.matches, args.seed, args.moves_over,
                                      args.games.split(",") if args.games else None))
        finally:
            server.stop()
    for key, value in result.items():
        if key != "by_ply":
            print(f"{key:<26}{value}")
    for span in result["by_ply"]:
        print(f"  plies {span['plies']:<18}{span['moves']:>6} moves {span['server_cpu_ms_per_move']:>8} ms/move")
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
