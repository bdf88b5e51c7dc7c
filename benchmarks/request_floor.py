"""The fixed cost of a request through the web app's stack (issue 44 §1): CPU per request of the
ASGI middleware chain and of the whole server, on requests that do no game work.

Two measurements, each a few requests of each kind in turn (``--rounds``), the least of the rounds
reported (the round least disturbed by the machine's other processes: on a busy machine a
median moved by a quarter from run to run):

* ``asgi``: the app of :func:`abstracta.server.app.create_app` (a fresh SQLite database, rate
  limits off, no bot processes) called directly on this process's event loop, as uvicorn would
  call it, with no socket, no HTTP parsing: this process's CPU (``time.process_time``) per call.
  What differs between two versions of the middleware shows here with the least noise. Besides
  the app's own routes it answers ``POST /api/floor`` (added by this script, first in the route
  table, answering ``{}``): a JSON request that passes every check, the body read and parsed,
  as a move does, without a move's work.
* ``server``: ``abstracta serve`` in a subprocess (as benchmarks/load.py starts it), the same
  requests sent one at a time over one keep-alive connection: the web process's CPU (user +
  system, from /proc) per request, uvicorn's HTTP handling included — the floor under
  load.py's ``server_cpu_ms_per_move``.

The kinds: ``healthz`` (GET /healthz: every check passes, an empty route), ``floor`` (the POST
above; ``asgi`` only), ``404`` (POST to an /api/ path no route has: refused by the method
check), ``401`` (a move without a token: refused before its body is read).

    python benchmarks/request_floor.py [--requests 2000] [--rounds 5] [--json] [--only asgi|server]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402  (the server in a subprocess, a fresh database, the API client)

BODY = b'{"action": "1", "ply": 0}'

#: kind -> (method, path, headers besides Host, body)
KINDS: dict[str, tuple[str, str, list[tuple[bytes, bytes]], bytes]] = {
    "healthz": ("GET", "/healthz", [], b""),
    "floor": ("POST", "/api/floor", [(b"content-type", b"application/json"),
                                     (b"authorization", b"Bearer floor-xxxxxxxxxxxxxxxx")], BODY),
    "404": ("POST", "/api/nothing/here", [(b"content-type", b"application/json")], BODY),
    "401": ("POST", "/api/matches/abcdefgh/actions", [(b"content-type", b"application/json")], BODY),
}
STATUS = {"healthz": 200, "floor": 200, "404": 404, "401": 401}


def asgi_app(folder: str) -> Any:
    from abstracta.server import security
    from abstracta.server.app import create_app
    from starlette.responses import Response
    from starlette.routing import Route

    app = create_app(load.fresh_db(None, folder), bot_workers=0,
                     security_settings=security.Security(rate_limits=False))

    async def floor(request: Any) -> Response:
        await request.body()
        return Response(b"{}", media_type="application/json")

    app.router.routes.insert(0, Route("/api/floor", floor, methods=["POST"]))
    # as `abstracta serve` does before serving: what start-up made out of the collector's view, the
    # young generation collected less often (else full collections walking the app's hundreds of
    # thousands of objects made the figures jump)
    from abstracta.server import settle_garbage_collector

    settle_garbage_collector()
    return app


async def call(app: Any, kind: str) -> int:
    method, path, headers, body = KINDS[kind]
    scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
             "root_path": "", "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000),
             "headers": [(b"host", b"127.0.0.1:8000"), (b"user-agent", b"floor"), (b"accept", b"*/*"),
                         *headers, *([(b"content-length", str(len(body)).encode())] if body else [])],
             "state": {}}
    sent = False
    status = 0

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)  # a client that stays: the app never waits for this
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    await app(scope, receive, send)
    # one turn of the loop, as a server's between two requests: the timer a body's deadline
    # armed and cancelled is dropped there (without, cancelled timers piled up in the loop's heap)
    await asyncio.sleep(0)
    return status


async def measure_asgi(requests: int, rounds: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="abstracta-floor-") as folder:
        app = asgi_app(folder)
        per: dict[str, list[float]] = {k: [] for k in KINDS}
        for kind in KINDS:  # warm up: route decisions kept, caches filled
            for _ in range(50):
                status = await call(app, kind)
            assert status == STATUS[kind], (kind, status)
        for _ in range(rounds):
            for kind in KINDS:
                started = time.process_time()
                for _ in range(requests):
                    await call(app, kind)
                per[kind].append((time.process_time() - started) / requests * 1e6)
        app.state.service.close()
    return {kind: round(min(values), 1) for kind, values in per.items()}


async def measure_server(requests: int, rounds: int) -> dict[str, float]:
    import aiohttp

    with tempfile.TemporaryDirectory(prefix="abstracta-floor-") as folder:
        server = load.Server(load.fresh_db(None, folder), Path(folder) / "server.log")
        try:
            server.start()
            per: dict[str, list[float]] = {k: [] for k in KINDS if k != "floor"}
            async with aiohttp.ClientSession(server.base, connector=aiohttp.TCPConnector(limit=1)) as session:
                async def one(kind: str) -> int:
                    method, path, headers, body = KINDS[kind]
                    sent = {k.decode(): v.decode() for k, v in headers}
                    async with session.request(method, path, data=body or None, headers=sent) as r:
                        await r.read()
                        return r.status

                for kind in per:
                    for _ in range(50):
                        status = await one(kind)
                    assert status == STATUS[kind], (kind, status)
                for _ in range(rounds):
                    for kind in per:
                        cpu = server.cpu_seconds()
                        for _ in range(requests):
                            await one(kind)
                        per[kind].append((server.cpu_seconds() - cpu) / requests * 1e6)
        finally:
            server.stop()
    return {kind: round(min(values), 1) for kind, values in per.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000, help="requests of each kind per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", choices=("asgi", "server"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result: dict[str, Any] = {"requests": args.requests, "rounds": args.rounds}
    if args.only != "server":
        result["asgi_us_per_request"] = asyncio.run(measure_asgi(args.requests, args.rounds))
    if args.only != "asgi":
        result["server_us_per_request"] = asyncio.run(measure_server(args.requests, args.rounds))
    print(f"{'CPU per request (µs, least of rounds)':<40}" + "".join(f"{k:>10}" for k in KINDS))
    for key in ("asgi_us_per_request", "server_us_per_request"):
        if key in result:
            print(f"{key.split('_')[0]:<40}" + "".join(f"{result[key].get(k, ''):>10}" for k in KINDS))
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
