"""The web app (issue 7): a JSON API documented by its OpenAPI schema (``/docs``,
``/openapi.json``) and the static browser client at ``/``. :func:`create_app` wires the HTTP edge
(:mod:`abstracta.server.api`: routes by resource, their dependencies, request and response
models) to a match service, the people's service and a match's company (chat, push notices, live
games); the routes only translate HTTP.

Every refused request gets a 4xx status and a JSON body ``{"error": "..."}`` naming the
problem (echoed input cut at 100 characters); the match it was aimed at is unchanged.

Decisions (the API's rules, also stated in the OpenAPI description):

* Seats belong to people (docs: api/guide.md). Creating a match answers
  with a secret token for each seat the creator takes (``take``, default the first person
  seat) and an invitation code for every other person seat; ``POST /api/invites/claim``
  (``{"code": ...}``) claims that seat once and answers with its token. Every act (move,
  resign, undo, takeback request and answer, draw offer and answer, flag, delete, new invitations) carries
  ``Authorization: Bearer <token>``
  (several tokens of one browser: comma-separated): none is 401, none of this match or not
  the acting seat's is 403; one longer than 64 characters (no seat token is) is 401 on any
  request, never read as no token. ``GET /api/matches`` lists only the matches of the tokens sent.
* People (issue 41): a request from a browser signed in (its session cookie) or with a personal
  API token of scope ``play`` (``Bearer abst_…``) acts as that person too: the seats they took
  signed in (creating the match, claiming its invitation) are theirs on every device, beside
  the tokens. Every act, view and list accepts the cookie instead of a seat token. A rated
  game (``rated`` at creation) is between accounts only; its end changes their ratings.
* Each response is the view of the seats the request's tokens hold; no token of the match:
  a spectator, who sees public information only. ``?seat=`` picks one of the held seats and
  is 403 for any other. A WebSocket sends ``{"tokens": [...]}`` (or ``[]``) as its first
  message, never in its URL.
* Undo is immediate when the tokens hold every person seat (against the computer, pass and
  play); otherwise a takeback is asked for and happens once every other person accepts. An
  action that revealed hidden information or a chance outcome is never taken back (409).
* A draw is offered (``POST …/draw``) and happens once every other seat still in accepts
  (``POST …/draw/answer``); a move by a seat that has still to answer declines it. The
  computer never agrees to a draw: none is offered where it would have to (409).
* Clocks (``clock`` at creation): none, ``{"initial": s, "increment": s}`` or
  ``{"per_turn": s}``; the server keeps time and applies a fallen flag by itself.
* Request bodies are limited to 1 MB (record imports: 2 MB); a larger one gets 413. A POST or
  DELETE that sends a body must send JSON (415 otherwise; 422 if it is not valid UTF-8 JSON,
  or names a field the request does not have); an act without any token is 401 before its
  body is read.
* Safe defaults (``security.py``): a Host header the server does not serve is 400, a WebSocket
  from another origin is refused (close 1008), too many requests from one address or token are
  429 with ``Retry-After``, a method a path does not answer is 405 with ``Allow``.
* Hidden information stays hidden while such a game runs: positions are the viewing seat's
  observation, a computer seat's view is refused (403), the record (whose seed rebuilds every
  hand) is refused with 409 until the game is over; the stored record keeps the seed.
* A move names its seat either in the body (``seat``) or as ``?seat=``; both given and
  different is 422. A move naming a seat that is not to move is 409; a move without a token
  of the seat to move is 403.
* Imports: the record's ``players`` must be valid seat specs, one per player (or empty: people
  everywhere); a termination that contradicts the rules (``resignation`` on a game the rules
  ended, ``normal`` on one they did not, ``time`` on one they ended but for a 3-4 player game
  whose result is the rules' with its ``OutOfTime`` seats at -1) or an ending that could not
  have happened (a result other than the resigning seat's or the flags' give, a ``Resigned``
  seat already out, ``Resigned`` without termination ``resignation``) does not replay and is
  refused with 422, as ``abstracta replay`` refuses it; a seed on a game without chance
  is dropped (normalised to null), as it is for matches created with one.
* Finished games cannot be taken back (undo is 409 once the game is over).
* A spectator never sees a hidden card while the game runs, computer against computer
  included; a finished game shows everything.
* A match's WebSocket takes moves too: ``{"move": <the body of POST …/actions>, "id": n}``, played
  as that POST plays it (the same checks, statuses and rate limits) and answered ``{"ack": n,
  "ply": …}`` or ``{"error", "status", "id"}``; the new view comes as the usual push. Other
  short text frames are ignored; a binary, malformed or long frame closes the socket with 1003.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import inspect
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from ..people import People
from ..people.throttle import Throttle
from . import lobby_service, ops, push, security
from .api import errors, openapi
from .api.people import still_signed_in
from .api.routes import FIRST_MATCHED, ROUTERS
from .api.routes.acts import plain_move_route
from .fanout import make_fanout
from .service import MatchService
from .signed_in import SignedIn
from .social import Social
from .storage import Store

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
#: FastAPI's ``telemetry`` setting: its spans, metrics and logs all off (see :func:`create_app`)
NO_TELEMETRY = {"tracing": False, "metrics": False, "logs": False}
log = logging.getLogger("abstracta.server")


def create_app(db_url: str | None = None, bot_workers: int | str = 2,
               security_settings: security.Security | None = None, analysis_scale: float = 1.0,
               redis_url: str | None = None) -> FastAPI:
    """The ASGI app storing matches at ``db_url`` (default: SQLite in the user data dir),
    running searching bots in ``bot_workers`` worker processes (0: one thread, for tests;
    ``"ray"`` or ``"ray:ADDRESS"``: Ray tasks; see :mod:`abstracta.server.botjobs`), with the
    abuse limits and safe defaults of ``security_settings`` (default: a server on localhost,
    rate limits on unless ``ABSTRACTA_RATE_LIMITS=off``); ``analysis_scale`` multiplies every
    game's analysis budget (tests: small); ``redis_url`` (default: the settings', else
    ``ABSTRACTA_REDIS_URL``, else none) is the Redis of a deployment of several processes: the
    rate limits count there and the fan-out (:mod:`.fanout`) goes through it (docs/club.md)."""
    settings = security_settings or security.Security(rate_limits=security.rate_limits_from_env())
    redis_url = redis_url or settings.redis_url or security.redis_url_from_env()
    if redis_url and settings.redis_url is None:
        settings = dataclasses.replace(settings, redis_url=redis_url)
    store = Store(db_url)
    # people (issue 41): accounts, sessions, ratings on the match store's database, sign-in
    # limits counted where the request limits are (one Redis for every worker, when given);
    # the match service seats them and records their games
    people = People(store.engine, throttle=Throttle(storage=security.sync_limits_uri(settings.redis_url),
                                                    enabled=settings.rate_limits))
    service = MatchService(store, bot_workers=bot_workers, analysis_scale=analysis_scale, people=people)
    fanout = make_fanout(redis_url, service.store.listen_url())

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        service.hub.attach(asyncio.get_running_loop())
        listener = None
        url = service.store.listen_url()
        if url is not None:  # other processes may serve this database: hear their changes
            ready = asyncio.Event()
            listener = asyncio.create_task(push.listen(url, service.changed_elsewhere, ready, service.forget_all))
            try:
                await asyncio.wait_for(ready.wait(), timeout=10)
            except asyncio.TimeoutError:
                log.warning("LISTEN on the database is not ready yet; changes by other processes "
                            "reach this one once it is")
        await fanout.start()
        await _app.state.social.start()
        await asyncio.to_thread(service.resume_bots)
        try:
            yield
        finally:
            _app.state.social.close()
            await fanout.close()
            if listener is not None:
                listener.cancel()
                with contextlib.suppress(BaseException):
                    await listener
            service.close()  # the routes answer 503 from now on (api.deps.service_of)

    # FastAPI's own OpenTelemetry is off: the server's metrics are Prometheus' (ops, metrics), and
    # its log lines never quote an exception's message (it may show a hidden card), which
    # FastAPI's would once a provider is configured; on, every request looked its providers up
    # (three environment reads) before anything else. (A FastAPI older than its telemetry has none.)
    quiet = {"telemetry": NO_TELEMETRY} if "telemetry" in inspect.signature(FastAPI.__init__).parameters else {}
    app = FastAPI(title="abstracta", version="0.1.0", lifespan=lifespan, **quiet,
                  description="Play abstract games (GET /api/games lists them). "
                              "Errors are 4xx with a body {\"error\": \"...\"}.\n\n"
                              + __doc__.split("Decisions (the API's rules, also stated in the OpenAPI description):", 1)[-1].strip()
                              .replace("``", "`"))
    app.state.service = service
    app.state.fanout = fanout  # presence, seeks, lobby: one channel to every process (fanout.py)
    app.state.people = people
    # whether a socket's person is still signed in: read again when an end of their sessions is
    # heard (here, or from another process through the fan-out), else once a minute (signed_in.py)
    app.state.signed_in = SignedIn(still_signed_in, fanout)
    people.db.on_ended.append(app.state.signed_in.ended)
    # a match's company (issue 43): its chat, Web Push notices of correspondence games, live games;
    # its lines and watchers reach every process through the fan-out, its limits count where the
    # request limits do
    app.state.social = Social(service, fanout, rate_limits=settings.rate_limits,
                              limits_storage=security.sync_limits_uri(settings.redis_url))
    lobby_service.install(app)  # seeks, quick pairing, challenges, blocks; abort, claim, rematch (issue 42)
    # the request path's checks, request ids and metrics: two ASGI layers (and the rate limits'
    # between them when on), security.Edge outermost
    security.install(app, settings)
    ops.install(app, fanout)  # /metrics, /healthz, /readyz

    errors.install(app)
    # the routes of a move are matched first: FastAPI tries the routes in order (some twenty
    # Python calls each), and POST …/actions came after about a hundred others (py-spy: routing
    # took 9 % of the web process's CPU under load.py). Included once more ahead of the others,
    # left out of the schema (which keeps the order of ROUTERS); no route included before them
    # answers a path of theirs (tests/server/test_server_routes_order.py).
    # and a plain move ahead of them all, without FastAPI's per-request work (acts.PlainMoveRoute)
    app.router.routes.append(plain_move_route())
    for router in FIRST_MATCHED:
        app.include_router(router, include_in_schema=False)
    for router in ROUTERS:
        app.include_router(router)
    openapi.install(app)  # the statuses the middleware answers, on every operation they reach

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    app.mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web")
    return app


__all__ = ["create_app"]
