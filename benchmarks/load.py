"""Load on the match server (issue 14 §5): N concurrent matches of mixed games, from outside.

Starts its own ``abstracta serve`` (a subprocess on a free loopback port, a fresh database,
rate limits off) and plays N matches at once for S seconds: every game of the catalogue in
turn, three quarters between people, a quarter against the computer at levels 1–3 (a person
at seat 0, the computer elsewhere). Each person is a scripted asyncio client with its own seat
token (the creator's, or one claimed with an invitation) and its own WebSocket: it waits for
the pushed view that says it is to move, thinks ``--think-ms`` (default 150 ms, uniform within
±50 %: very fast people — with 100 matches, the rate the issue's 300 moves/s asks for; 0: flat out, a stress test whose latency is queueing), picks
a random legal move and sends it — over its WebSocket (``--moves-over ws``, the default: as the
browser does, answered by an ack while the view comes as the push) or as ``POST …/actions``
(``--moves-over http``, answered with the view); a finished match is replaced by a new one.

Afterwards every match is read back through the API: each acknowledged move must be in its
match's move list exactly once, at the ply it was played at (``lost``: missing or different;
``duplicated``: more moves by people than were acknowledged, or sent and left without an answer —
``unanswered``, a connection that failed, as a client dropping off may have its move stored). At
the end no move is sent, and those sent are answered, before the sockets close.

Measured: ``moves_per_s`` (acknowledged moves by people per second), ``p50_ms``/``p99_ms``
(a move's round trip between people: from sending its frame to its ack, or the POST's), ``bot_p99_ms`` (from a person's acknowledged move
until the computer's answer is pushed; ``bot_p50_ms_by_level``/``bot_p99_ms_by_level`` the same by
the computer's level: 1-2 answer in the fast lane, 3 searches in the deep lane), ``server_errors`` (5xx answers, internal errors in the
server's log, WebSockets closed with an error), ``server_cpu_ms_per_move`` (the web process's CPU
per move by anyone, people and computer; its bot worker processes not counted), and of it
``bot_search_cpu_ms_per_move`` (searches run inside the web process: the computer thinking, not
the server serving — levels 1-2 search in a worker process of their own, so this is 0 unless
that worker died under a job, which is then answered in the web process; with ``--bot-workers 0``
all of them) and ``serving_cpu_ms_per_move`` (the rest: HTTP, the act, the commit, the pushes,
and handing the computer's jobs to their workers); apart from it, ``fast_worker_cpu_ms_per_move``
(the searches of levels 1-2 in their worker process, as it measured them: the computer's CPU
that moved out of the web process). All from the processes' ``/metrics``
(``abstracta_bot_search_cpu_seconds{lane, where}``).

    python benchmarks/load.py --games 100 --seconds 30 [--moves-over ws|http] [--db URL] [--json]

``--floor``: the same client against an empty route of the same server stack (every middleware:
request ids and metrics, security headers, Host and Origin checks, the body limit, rate limits
as the measured run has them — off), to measure first what a request costs before any match is
touched. Each match's seats still take turns, think the same and send the same token header,
but a "move" is ``GET /healthz`` and the next seat is told by the client itself (no WebSocket,
no push): ``server_cpu_ms_per_move`` is then the server's CPU per request, the floor under the
CPU per move of a real run (which adds the body's validation, the match's lock, commit and
views, and one pushed frame per seat).

``--workers N`` (N ≥ 2, a PostgreSQL ``--db``) starts N ``abstracta serve`` processes on that
database behind nginx, configured as ``make club`` configures it (deploy/club.py), and plays
through nginx: the server's CPU is then the workers' together.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import httpx
import orjson
import websockets

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fresh_db(url: str | None, folder: str) -> str:
    """``url`` emptied (a PostgreSQL database: its tables dropped), or a new SQLite file."""
    if not url:
        return f"sqlite:///{folder}/load.db"
    sys.path.insert(0, str(ROOT / "src"))
    from sqlalchemy import create_engine

    from abstracta.server.schema import drop_schema

    # on a plain engine: make_engine would create the schema first
    engine = create_engine(url)
    drop_schema(engine)
    engine.dispose()
    return url


class Server:
    """``abstracta serve`` in a subprocess (its own process group: the bot workers go with it)."""

    def __init__(self, db: str, log_path: Path):
        self.db, self.port, self.log_path = db, free_port(), log_path
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        #: how Python starts ``abstracta serve`` (soak.py bounds the match cache through it)
        self.python_args = ["-m", "abstracta"]

    def start(self, timeout: float = 90.0) -> None:
        env = {**os.environ, "ABSTRACTA_RATE_LIMITS": "off", "PYTHONUNBUFFERED": "1"}
        self.log = open(self.log_path, "ab")
        self.proc = subprocess.Popen([sys.executable, *self.python_args, "serve", "--port", str(self.port),
                                      "--db", self.db, "--no-rate-limits"], stdout=self.log, stderr=self.log,
                                     env=env, cwd=ROOT, start_new_session=True)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"the server exited: see {self.log_path}")
            try:
                if httpx.get(self.base + "/api/games", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise SystemExit("the server did not start in time")

    def kill(self) -> None:
        """SIGKILL the server and everything it started."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def cpu_seconds(self) -> float:
        """CPU time the web process used so far (user + system; its bot workers not counted)."""
        return sum(cpu_seconds(pid) for pid in self.pids())

    def pids(self) -> list[int]:
        """The web processes (here one)."""
        return [self.proc.pid] if self.proc is not None else []

    def internal_errors(self) -> int:
        self.log.flush()
        return self.log_path.read_text(errors="replace").count("internal error")


def cpu_seconds(pid: int) -> float:
    """CPU time process ``pid`` used so far (user + system), in seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bot_search_cpu(server: "Server | Workers") -> tuple[float, float]:
    """CPU seconds the computer's searches took so far, from the web processes' /metrics
    (``abstracta_bot_search_cpu_seconds_total``): ``(inside, fast_worker)`` — the searches run
    inside the web processes (``where="web"``: in :meth:`Server.cpu_seconds`, reported apart so
    that a search is not taken for the cost of serving a move; a server without the labels ran
    its fast lane in a thread, so all of its figure is inside), and the searches of levels 1-2 in
    the fast lane's worker processes (``lane="fast", where="worker"``: not in it). NaN when a
    process does not answer."""
    urls = server.club.worker_urls() if hasattr(server, "club") else [server.base]
    inside = fast_worker = 0.0
    for url in urls:
        try:
            text = httpx.get(url + "/metrics", timeout=90).text
        except httpx.HTTPError:
            return float("nan"), float("nan")
        for line in text.splitlines():
            if not line.startswith("abstracta_bot_search_cpu_seconds_total"):
                continue
            name, value = line.rsplit(" ", 1)
            if name == "abstracta_bot_search_cpu_seconds_total" or 'where="web"' in name:
                inside += float(value)
            elif 'lane="fast"' in name and 'where="worker"' in name:
                fast_worker += float(value)
    return inside, fast_worker


def club_module():
    """``deploy/club.py`` as a module (its nginx and workers, as ``make club`` starts them)."""
    import importlib.util

    if "abstracta_club" in sys.modules:
        return sys.modules["abstracta_club"]
    spec = importlib.util.spec_from_file_location("abstracta_club", ROOT / "deploy" / "club.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class Workers:
    """N ``abstracta serve`` processes on one PostgreSQL database behind nginx, started by
    deploy/club.py in a folder of its own (rate limits off, no Redis: the moves do not need it);
    the same interface as :class:`Server`, its address nginx's."""

    def __init__(self, db: str, folder: str, workers: int):
        club = club_module()
        state = Path(folder) / "club"
        state.mkdir()
        state.chmod(0o755)
        self.club = club.Club(state, club.Settings(
            port=club.free_ports(1), worker_port=club.free_ports(workers), workers=workers, db_url=db,
            redis=False, rate_limits=False, bot_workers=str(max(1, 2 // workers)), venv=sys.prefix),
            out=open(os.devnull, "w"))
        self.base = self.club.base_url()
        self.log_paths = [state / "logs" / f"worker-{i}.log" for i in range(1, workers + 1)]

    def start(self) -> None:
        (self.club.state / "logs").mkdir(exist_ok=True)
        (self.club.state / "run").mkdir(exist_ok=True)
        self.club.workers_up()
        self.club.nginx_up()

    def pids(self) -> list[int]:
        return [pid for pid in (club_module()._read_pid(self.club.state / "run" / f"worker-{i}.pid")
                                for i in range(1, len(self.log_paths) + 1)) if pid]

    def cpu_seconds(self) -> float:
        return sum(cpu_seconds(pid) for pid in self.pids())

    def kill(self) -> None:
        for pid in self.pids():
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.club.nginx_down()

    def stop(self) -> None:
        self.club.down()

    def internal_errors(self) -> int:
        return sum(path.read_text(errors="replace").count("internal error") for path in self.log_paths if path.exists())


class Api:
    """The server's JSON API over one aiohttp session. (httpx's pool looks at every open
    connection on each request: with a few hundred clients the load generator, not the server,
    was the bottleneck.) Open and close it on the running loop."""

    ERRORS = (aiohttp.ClientError, asyncio.TimeoutError)

    def __init__(self, base: str):
        self.base = base
        self.session: aiohttp.ClientSession | None = None

    async def open(self) -> "Api":
        # idle connections are dropped before the server's 5 s keep-alive ends them (a request
        # on a connection the server is closing fails)
        self.session = aiohttp.ClientSession(self.base, connector=aiohttp.TCPConnector(limit=0, keepalive_timeout=2),
                                             timeout=aiohttp.ClientTimeout(total=60),
                                             cookie_jar=aiohttp.DummyCookieJar())
        return self

    async def call(self, method: str, path: str, body: Any = None, tokens: str | None = None) -> tuple[int, Any]:
        """``(status, parsed JSON body or None)``; raises one of :attr:`ERRORS` when the
        connection fails."""
        headers = {"Authorization": f"Bearer {tokens}"} if tokens else None
        async with self.session.request(method, path, json=body, headers=headers) as r:
            data = await r.read()
            try:
                return r.status, orjson.loads(data) if data else None
            except orjson.JSONDecodeError:
                return r.status, None

    async def guest_cookie(self) -> str:
        """A new guest's session cookie (``name=value``, for a ``Cookie`` header): a person signed
        in, whose sockets the server checks are still signed in (``--signed-in``). The session
        keeps no cookie: every guest is its own."""
        async with self.session.post("/api/guests", json={}) as r:
            await r.read()
            if r.status != 201:
                raise aiohttp.ClientResponseError(r.request_info, r.history, status=r.status, message="POST /api/guests")
            morsel = next(iter(r.cookies.values()))
            return f"{morsel.key}={morsel.value}"

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()


@dataclass
class Stats:
    moves: int = 0
    bot_moves: int = 0  # computer moves seen while measuring (from the plies of the views)
    latencies: list[float] = field(default_factory=list)  # s, POST round trips between people
    bot_waits: list[float] = field(default_factory=list)  # s, until the computer's answer is pushed
    bot_waits_by_level: dict[int, list[float]] = field(default_factory=dict)  # the same, by the computer's level
    server_errors: int = 0
    refused: dict[int, int] = field(default_factory=dict)  # 4xx status -> count (a stale ply is normal)
    acked: dict[str, list[tuple[int, str, int]]] = field(default_factory=dict)  # match -> (ply, move, seat)
    matches: dict[str, dict[str, Any]] = field(default_factory=dict)  # match -> players, tokens
    games: int = 0
    presence_frames: int = 0  # "who is connected" frames pushed (--presence)
    resigned: int = 0  # games a person resigned past Run.resign_after
    #: match -> moves sent that got no answer (the connection failed): the server may have stored
    #: them, as a client that drops off may have its move stored, so they are no duplicates
    unanswered: dict[str, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)  # what went wrong -> how often

    def error(self, what: str) -> None:
        self.server_errors += 1
        self.errors[what[:120]] = self.errors.get(what[:120], 0) + 1

    def ok(self, what: str, status: int) -> bool:
        """Whether ``status`` (of ``what``, a person's request) is a 200; a 5xx is counted as an
        error, any other status as a refusal (a stale ply is normal)."""
        if status >= 500:
            self.error(f"{what}: {status}")
        elif status != 200:
            self.refused[status] = self.refused.get(status, 0) + 1
        return status == 200


class Person:
    """One seat of one match: a token, a WebSocket, moves when its pushed view says so."""

    def __init__(self, run: "Run", mid: str, seat: int, token: str, against_bot: bool, level: int = 0):
        self.run, self.mid, self.seat, self.token, self.against_bot = run, mid, seat, token, against_bot
        self.level = level  # the computer's level when against_bot (levels 1-2: the fast lane)
        self.acked_at: float | None = None  # a person's move waiting for the computer's answer
        self.acked_ply = -1  # the ply after that move: a view past it shows the computer's answer
        self.ws: Any = None
        #: frames read while a move over the socket waited for its ack, to follow after it
        self.pending: list[bytes | str] = []

    async def play(self, done: asyncio.Event) -> None:
        run = self.run
        url = run.server.base.replace("http", "ws") + f"/api/matches/{self.mid}/ws"
        # a person signed in (--signed-in) opens the socket with its session cookie, as a browser does
        headers = {"Cookie": await run.http.guest_cookie()} if run.signed_in else None
        async with websockets.connect(url, max_size=2 ** 24, open_timeout=60, ping_interval=None,
                                      additional_headers=headers) as ws:
            run.sockets.add(ws)
            self.ws = ws
            try:
                # --presence: as the browser asks, who is connected too, pushed when it changes
                await ws.send(json.dumps({"tokens": [self.token], **({"presence": True} if run.presence else {})}))
                await self.follow(ws, done)
            finally:
                run.sockets.discard(ws)

    async def follow(self, ws: Any, done: asyncio.Event) -> None:
        """Read pushed views until the match ends or the run stops (it closes the socket)."""
        run = self.run
        try:
            while True:
                message = self.pending.pop(0) if self.pending else await ws.recv()
                if run.stopping:
                    return
                view = orjson.loads(message)
                if "presence" in view and "ply" not in view:  # who is connected (--presence)
                    run.stats.presence_frames += 1
                    continue
                if "error" in view and "ply" not in view:
                    run.stats.error(f"WebSocket: {view['error']}")
                    return
                run.in_play[self.mid] = view["ply"]
                if view["status"] == "over":
                    run.in_play.pop(self.mid, None)
                    self.note_bot_answer(view)
                    done.set()
                    return
                if view["to_move"] != self.seat or not view["human_to_move"] or not view["legal"]:
                    continue
                self.note_bot_answer(view)
                if run.think:
                    await asyncio.sleep(run.think * random.uniform(0.5, 1.5))
                if run.stopping:
                    return
                if run.resign_after is not None and view["ply"] >= run.resign_after:
                    await self.resign()
                    continue
                await self.move(view)
        except websockets.ConnectionClosed as exc:
            if not run.stopping and not isinstance(exc, websockets.ConnectionClosedOK):
                run.stats.error(f"WebSocket closed: {exc}")

    def note_bot_answer(self, view: dict[str, Any]) -> None:
        """The computer answered the move waiting for it, if ``view`` is past that move (a move
        that ended the game was answered by nobody)."""
        if self.acked_at is not None:
            if view["ply"] > self.acked_ply:
                if self.run.measuring:
                    self.run.stats.bot_moves += 1
                waited = time.perf_counter() - self.acked_at
                self.run.stats.bot_waits.append(waited)
                self.run.stats.bot_waits_by_level.setdefault(self.level, []).append(waited)
            self.acked_at = None

    async def move(self, view: dict[str, Any]) -> None:
        run, stats = self.run, self.run.stats
        action = random.choice(view["legal"])
        ply = view["ply"]
        started = time.perf_counter()
        if run.moves_over == "ws":
            run.in_flight += 1
            try:
                answered = await self.over_socket(action, ply)
            except websockets.ConnectionClosed:
                stats.unanswered[self.mid] = stats.unanswered.get(self.mid, 0) + 1
                raise
            finally:
                run.in_flight -= 1
            if answered is None:
                stats.unanswered[self.mid] = stats.unanswered.get(self.mid, 0) + 1
                return
            status, after = answered
            how = "WebSocket move"
        else:
            try:
                status, answer = await run.http.call("POST", f"/api/matches/{self.mid}/actions",
                                                     {"action": action, "ply": ply}, self.token)
            except Api.ERRORS as exc:
                stats.error(f"POST action: {type(exc).__name__}")
                stats.unanswered[self.mid] = stats.unanswered.get(self.mid, 0) + 1
                return
            after = answer.get("ply", -1) if isinstance(answer, dict) else -1
            how = "POST action"
        elapsed = time.perf_counter() - started
        if not stats.ok(how, status):
            return
        if run.measuring:
            stats.moves += 1
            if not self.against_bot:
                stats.latencies.append(elapsed)
        stats.acked.setdefault(self.mid, []).append((ply, action, self.seat))
        if self.against_bot:
            self.acked_at, self.acked_ply = time.perf_counter(), after

    async def over_socket(self, action: str, ply: int) -> tuple[int, int] | None:
        """The move sent on this seat's socket: ``(200, ply after it)`` once acknowledged, or
        ``(the refusal's status, -1)``; None if no answer came (counted as an error). The views
        pushed meanwhile are kept for :meth:`follow`."""
        run = self.run
        ident = next(run.move_ids)
        await self.ws.send(json.dumps({"move": {"action": action, "ply": ply}, "id": ident}))
        deadline = time.monotonic() + 60
        while True:
            try:
                raw = await asyncio.wait_for(self.ws.recv(), max(0.0, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                run.stats.error("WebSocket move: no answer within 60 s")
                return None
            frame = orjson.loads(raw)
            if frame.get("ack") == ident:
                return 200, frame["ply"]
            if "error" in frame and frame.get("id") == ident:
                return frame["status"], -1
            self.pending.append(raw)


    async def resign(self) -> None:
        """Resign this seat (:attr:`Run.resign_after`); the match's pushed end ends the play."""
        stats = self.run.stats
        try:
            status, _answer = await self.run.http.call("POST", f"/api/matches/{self.mid}/resign", None, self.token)
        except Api.ERRORS as exc:
            stats.error(f"POST resign: {type(exc).__name__}")
            return
        if stats.ok("POST resign", status):
            stats.resigned += 1


class Floor:
    """One match's seats taking turns against the empty route (``--floor``): no match, no
    WebSocket; the same think time and token header as :class:`Person`."""

    def __init__(self, run: "Run", seats: int):
        self.run, self.seats = run, seats
        self.token = "floor-" + "x" * 16

    async def play(self) -> None:
        run, stats = self.run, self.run.stats
        while not run.stopping:
            for _seat in range(self.seats):
                if run.think:
                    await asyncio.sleep(run.think * random.uniform(0.5, 1.5))
                if run.stopping:
                    return
                started = time.perf_counter()
                try:
                    status, _ = await run.http.call("GET", "/healthz", tokens=self.token)
                except Api.ERRORS as exc:
                    stats.error(f"GET floor: {type(exc).__name__}")
                    continue
                if stats.ok("GET floor", status) and run.measuring:
                    stats.moves += 1
                    stats.latencies.append(time.perf_counter() - started)


class Run:
    def __init__(self, server: Server, games: list[dict[str, Any]], think: float, seed: int, moves_over: str = "ws",
                 resign_after: int | None = None, signed_in: bool = False, presence: bool = False):
        self.server, self.catalogue, self.think, self.moves_over = server, games, think, moves_over
        #: every person is signed in (a guest's session cookie on its socket): the server then
        #: checks, at every push and move, that the session has not ended
        self.signed_in = signed_in
        #: every socket asks for who is connected too, as the browser's do: the server then reads
        #: the match's presence after every push
        self.presence = presence
        self.move_ids = itertools.count(1)  # the ids of the moves sent over the sockets
        self.in_flight = 0  # moves sent over the sockets and not yet answered
        #: a person resigns, at their turn, a game past this many actions (soak.py: games of a
        #: length people play; None: never)
        self.resign_after = resign_after
        self.stats = Stats()
        self.stopping = False
        self.measuring = False
        self.sockets: set[Any] = set()
        #: match -> its ply in the last view pushed, while it is played (soak.py: the length of the
        #: games in play, which the server's memory follows)
        self.in_play: dict[str, int] = {}
        self.rng = random.Random(seed)
        self.http = Api(server.base)

    async def slot(self, index: int) -> None:
        """One of the N concurrent matches: play one, then the next, until the run stops."""
        round_ = 0
        while not self.stopping:
            game = self.catalogue[(index + round_ * 7) % len(self.catalogue)]
            round_ += 1
            n = game["num_players"]
            against_bot = index % 4 == 3
            seats = (["human"] + [f"level:{1 + (index // 4) % 3}"] * (n - 1)) if against_bot else ["human"] * n
            try:
                status, created = await self.http.call("POST", "/api/matches", {"game": game["name"], "seats": seats})
            except Api.ERRORS as exc:
                self.stats.error(f"POST match: {type(exc).__name__}")
                await asyncio.sleep(0.5)
                continue
            if status != 201:
                if status >= 500:
                    self.stats.error(f"POST match: {status}")
                await asyncio.sleep(0.5)
                continue
            mid = created["id"]
            tokens = {t["seat"]: t["token"] for t in created["tokens"]}
            for invite in created["invites"]:
                try:
                    status, claim = await self.http.call("POST", "/api/invites/claim", {"code": invite["code"]})
                except Api.ERRORS as exc:
                    self.stats.error(f"POST claim: {type(exc).__name__}")
                    continue
                if status != 200:
                    if status >= 500:
                        self.stats.error(f"POST claim: {status}")
                    continue
                tokens[invite["seat"]] = claim["tokens"][0]["token"]
            self.stats.matches[mid] = {"players": seats, "tokens": tokens}
            self.stats.games += 1
            done = asyncio.Event()
            level = 1 + (index // 4) % 3 if against_bot else 0
            people = [Person(self, mid, seat, token, against_bot, level) for seat, token in tokens.items()]
            tasks = [asyncio.create_task(p.play(done)) for p in people]
            results = await asyncio.gather(*tasks, return_exceptions=True)
            for result in results:
                if isinstance(result, Exception) and not self.stopping:
                    self.stats.error(f"client: {type(result).__name__}: {result}")

    async def main(self, games: int, seconds: float, warmup: float, floor: bool = False) -> float:
        if floor:  # as many seats as the matches would have (the catalogue in turn)
            slots = [asyncio.create_task(Floor(self, self.catalogue[i % len(self.catalogue)]["num_players"]).play())
                     for i in range(games)]
        else:
            slots = [asyncio.create_task(self.slot(i)) for i in range(games)]
        await asyncio.sleep(warmup)
        # and until every slot has its first match: on a busy machine creating the first hundred
        # matches (and their invitations, sockets and first views) outlasted the warm-up, and
        # that burst was counted against the moves measured
        deadline = time.monotonic() + 120
        while not floor and self.stats.games < games and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        self.stats.moves, self.stats.latencies, self.stats.bot_waits = 0, [], []
        self.stats.bot_waits_by_level = {}
        self.measuring = True
        searched = await asyncio.to_thread(bot_search_cpu, self.server)
        started, cpu, mine = time.perf_counter(), self.server.cpu_seconds(), time.process_time()
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - started
        self.server_cpu = self.server.cpu_seconds() - cpu
        inside, fast_worker = await asyncio.to_thread(bot_search_cpu, self.server)
        self.search_cpu, self.fast_worker_cpu = inside - searched[0], fast_worker - searched[1]
        self.client_cpu = time.process_time() - mine
        self.measuring = False
        await self.wind_down()
        await asyncio.wait(slots, timeout=60)
        return elapsed

    async def wind_down(self) -> None:
        """Stop: no move is sent from here, the moves sent are answered, then the sockets close
        (a move the server received and stored, its ack cut off by the close, would read back as
        a move nobody acknowledged)."""
        self.stopping = True
        deadline = time.monotonic() + 15
        while self.in_flight and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        await asyncio.gather(*(ws.close() for ws in list(self.sockets)), return_exceptions=True)

    async def verify(self) -> tuple[int, int]:
        """``(lost, duplicated)``: every acknowledged move read back from the server."""
        lost = duplicated = 0
        sem = asyncio.Semaphore(20)

        async def check(mid: str, info: dict[str, Any]) -> None:
            nonlocal lost, duplicated
            async with sem:
                tokens = ",".join(info["tokens"].values())
                _, view = await self.http.call("GET", f"/api/matches/{mid}", tokens=tokens)
            moves, movers = view["moves"], view["movers"]
            acked = self.stats.acked.get(mid, [])
            for ply, action, seat in acked:
                if ply >= len(moves) or moves[ply] != action or movers[ply] != seat:
                    lost += 1
            by_people = sum(1 for s in movers if info["players"][s] == "human")
            duplicated += max(0, by_people - len(acked) - self.stats.unanswered.get(mid, 0))

        await asyncio.gather(*(check(mid, info) for mid, info in self.stats.matches.items()))
        return lost, duplicated


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 1)


def make_server(db: str | None, folder: str, workers: int = 1) -> "Server | Workers":
    """One ``abstracta serve`` on ``db`` (a fresh database), or ``workers`` of them behind nginx
    (a PostgreSQL ``db``: SystemExit otherwise)."""
    if workers <= 1:
        return Server(fresh_db(db, folder), Path(folder) / "server.log")
    if not db or not db.startswith("postgresql"):
        raise SystemExit("--workers N needs a PostgreSQL --db (SQLite serves one process)")
    return Workers(fresh_db(db, folder), folder, workers)


def load(games: int, seconds: float, db: str | None, think_ms: float, seed: int, warmup: float,
         workers: int = 1, floor: bool = False, moves_over: str = "ws", signed_in: bool = False,
         presence: bool = False) -> dict[str, Any]:
    random.seed(seed)
    with tempfile.TemporaryDirectory(prefix="abstracta-load-") as folder:
        os.chmod(folder, 0o755)
        server = make_server(db, folder, workers)
        try:
            server.start()
            catalogue = httpx.get(server.base + "/api/games", timeout=30).json()
            run = Run(server, catalogue, think_ms / 1000, seed, moves_over, signed_in=signed_in, presence=presence)

            async def go() -> tuple[float, int, int]:
                await run.http.open()
                elapsed = await run.main(games, seconds, warmup, floor)
                lost, duplicated = (0, 0) if floor else await run.verify()
                await run.http.close()
                return elapsed, lost, duplicated

            elapsed, lost, duplicated = asyncio.run(go())
            errors = run.stats.server_errors + server.internal_errors()
        finally:
            server.stop()
    s = run.stats
    return {"mode": "floor" if floor else "moves", "moves_over": None if floor else moves_over,
            "signed_in": signed_in, "presence": presence, "presence_frames": s.presence_frames,
            "games": games, "seconds": round(elapsed, 1),
            "think_ms": think_ms, "matches_played": s.games,
            "moves": s.moves, "moves_per_s": round(s.moves / elapsed, 1),
            # CPU of the web process per move by anyone (people and computer): a figure that a
            # busy machine does not distort as much as the rates
            "server_cpu_ms_per_move": round(1000 * run.server_cpu / max(1, s.moves + s.bot_moves), 2),
            # of which the computer's searches run inside the web process (levels 1-2 have a worker
            # process of their own: only a job whose worker died), and the rest: serving the moves
            # (HTTP, the act, the commit, the pushes, handing jobs to the bot workers)
            "bot_search_cpu_ms_per_move": round(1000 * run.search_cpu / max(1, s.moves + s.bot_moves), 2),
            "serving_cpu_ms_per_move": round(1000 * (run.server_cpu - run.search_cpu) / max(1, s.moves + s.bot_moves),
                                             2),
            # not in the web process's CPU: levels 1-2 searching in their own worker process
            "fast_worker_cpu_ms_per_move": round(1000 * run.fast_worker_cpu / max(1, s.moves + s.bot_moves), 2),
            "client_cpu_ms_per_move": round(1000 * run.client_cpu / max(1, s.moves + s.bot_moves), 2),
            "p50_ms": ms(percentile(s.latencies, 0.5)), "p99_ms": ms(percentile(s.latencies, 0.99)),
            "max_ms": ms(max(s.latencies) if s.latencies else None),
            "bot_p99_ms": ms(percentile(s.bot_waits, 0.99)), "bot_answers": len(s.bot_waits),
            # by level: 1-2 answer in the fast lane, 3 searches (0.2 s) in the deep lane's queue
            "bot_p50_ms_by_level": {str(k): ms(percentile(v, 0.5)) for k, v in sorted(s.bot_waits_by_level.items())},
            "bot_p99_ms_by_level": {str(k): ms(percentile(v, 0.99)) for k, v in sorted(s.bot_waits_by_level.items())},
            "server_errors": errors, "errors": run.stats.errors, "refused": {str(k): v for k, v in sorted(s.refused.items())},
            "acknowledged": sum(len(v) for v in s.acked.values()), "lost": lost, "duplicated": duplicated,
            "unanswered": sum(s.unanswered.values()),
            "db": "postgresql" if db and db.startswith("postgresql") else "sqlite", "workers": workers,
            "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="concurrent matches (default 20)")
    parser.add_argument("--seconds", type=float, default=20, help="measured seconds (default 20)")
    parser.add_argument("--db", default=None, help="SQLAlchemy URL of an empty database to use (its tables "
                                                   "are dropped; default: a new SQLite file)")
    parser.add_argument("--think-ms", type=float, default=150.0,
                        help="a person's mean thinking time before each move, uniform within ±50 %% "
                             "(default 150: with 100 matches about 300 moves/s are offered; 250: a fast "
                             "blitz player; 0: as fast as the server answers)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds played before measuring, and until "
                                                                   "every match has started (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="web processes behind nginx (default 1: one "
                                                               "process, no proxy; 2 or more need a PostgreSQL --db)")
    parser.add_argument("--floor", action="store_true", help="the same client against an empty route of the "
                                                               "same server stack (GET /healthz; no match, no push)")
    parser.add_argument("--moves-over", choices=("ws", "http"), default="ws",
                        help="how a person sends a move: over its match's WebSocket, as the browser does "
                             "(default), or as POST …/actions")
    parser.add_argument("--signed-in", action="store_true",
                        help="every person signed in as a guest (its session cookie on its socket), as a "
                             "club's members are: the server checks their sessions at every push and move")
    parser.add_argument("--presence", action="store_true",
                        help="every socket asks for who is connected too, as the browser's do")
    parser.add_argument("--json", action="store_true", help="end with one JSON object")
    args = parser.parse_args()
    if args.signed_in and args.floor:
        parser.error("--signed-in measures moves; --floor has none")
    result = load(args.games, args.seconds, args.db, args.think_ms, args.seed, args.warmup, args.workers, args.floor,
                  args.moves_over, args.signed_in, args.presence)
    print(f"{'matches at once':<28}{args.games}")
    for key in ("mode", "moves_over", "signed_in", "presence", "presence_frames", "seconds", "think_ms", "matches_played", "moves", "moves_per_s", "server_cpu_ms_per_move",
                "bot_search_cpu_ms_per_move", "serving_cpu_ms_per_move", "fast_worker_cpu_ms_per_move",
                "client_cpu_ms_per_move", "p50_ms", "p99_ms", "max_ms",
                "bot_p99_ms", "bot_p50_ms_by_level", "bot_p99_ms_by_level", "bot_answers", "server_errors", "errors", "refused", "acknowledged", "unanswered", "lost", "duplicated",
                "db", "workers", "load_average"):
        print(f"{key:<28}{result[key]}")
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
