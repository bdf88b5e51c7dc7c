"""Operations (issue 44 §4): ``/metrics``, ``/healthz``, ``/readyz``, request ids and JSON logs.

* ``GET /metrics`` — Prometheus' text format (:mod:`.metrics`), this process's counters.
* ``GET /healthz`` — 200 ``{"status": "ok"}`` while the process answers at all (a liveness
  probe: restart the process when it stops answering).
* ``GET /readyz`` — 200 ``{"status": "ready", "checks": {...}}`` when the database answers a
  query (``database``), the shared counters and fan-out answer (``redis``: a ``PING``, when
  configured; else on PostgreSQL ``listen``: the fan-out's ``LISTEN`` connection is up) and the
  match service is open; else 503 with the failing check's reason (a readiness probe: send
  players elsewhere meanwhile). Each check has :data:`CHECK_SECONDS`.
* Request ids and the edge's metrics, applied by the outermost ASGI layer
  (``security.Edge``): every request gets an id (:func:`request_id_of`: the ``X-Request-ID`` a
  proxy sent, when it is a plain token, else a new one), answers with it in ``X-Request-ID``,
  keeps it for the log lines the request causes (:func:`request_id`), and is counted
  (:func:`observe_http`: answers, act latencies, acknowledged moves; :func:`socket_gauge`: open
  WebSockets, :mod:`.metrics`).
* :class:`JsonLines` — a logging formatter writing one JSON object per line (``time``,
  ``level``, ``logger``, ``message``, ``request_id`` when the line belongs to a request, and the
  exception's type and place, never its message, which may quote a hidden card);
  :func:`configure_logging` installs it (``abstracta serve --log-format json``).

None of these routes is in the OpenAPI schema (they are for operators, not players), none is
rate-limited, and each answers GET and HEAD only (``security.MethodRule``).
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import re
import secrets
import sys
import time
import weakref
from datetime import datetime, timezone
from typing import Any, Awaitable, Callable

from . import metrics

#: Seconds each readiness check may take.
CHECK_SECONDS = 2.0
#: An ``X-Request-ID`` a proxy sends is kept when it looks like one (nginx's ``$request_id`` is 32
#: hex digits); anything else is replaced, so a client cannot put text of its choosing in the log.
REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{8,64}")

_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("abstracta_request_id", default=None)

#: Which state-changing requests are which act (method, path pattern, act), as the rate limits
#: name them (security.LIMITED).
ACTS: list[tuple[str, re.Pattern[str], str]] = [
    ("POST", re.compile(r"/api/matches/?"), "create"),
    ("POST", re.compile(r"/api/matches/import/?"), "import"),
    ("POST", re.compile(r"/api/invites/claim/?"), "claim"),
    ("POST", re.compile(r"/api/matches/[^/]+/invites/?"), "invite"),
    ("POST", re.compile(r"/api/matches/[^/]+/actions/?"), "move"),
    ("POST", re.compile(r"/api/matches/[^/]+/(undo|takeback|draw|flag|resign)/?"), ""),
    ("POST", re.compile(r"/api/matches/[^/]+/(takeback|draw)/answer/?"), "_answer"),
    ("DELETE", re.compile(r"/api/matches/[^/]+/?"), "delete"),
]


def request_id() -> str | None:
    """The id of the request the running code serves (None outside one)."""
    return _request_id.get()


def act_of(method: str, path: str) -> str | None:
    """The act a request is (``move``, ``undo``, ``draw_answer``, …), or None for a read."""
    for m, pattern, act in ACTS:
        if m == method:
            found = pattern.fullmatch(path)
            if found is not None:
                if act == "":
                    return found.group(1)
                if act == "_answer":
                    return found.group(1) + "_answer"
                return act
    return None


def _route_of(scope: Any) -> str:
    """The route template that answered (``/api/matches/{match_id}``): bounded label values."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if path is None:
        return "unmatched"
    return path or "static"  # the static files are mounted at "/" (a Mount's path is "")


def request_id_of(given: str | None) -> str:
    """The id of a request: the ``X-Request-ID`` a proxy sent when it is a plain token
    (:data:`REQUEST_ID`), else a new one (16 hex digits)."""
    return given if given is not None and REQUEST_ID.fullmatch(given) else secrets.token_hex(8)


def enter_request(rid: str) -> contextvars.Token:
    """Keep ``rid`` for the log lines the request causes (:func:`request_id`); give the token
    back to :func:`leave_request` when the request is answered."""
    return _request_id.set(rid)


def leave_request(token: contextvars.Token) -> None:
    _request_id.reset(token)


def observe_http(scope: Any, method: str, path: str, status: int, started: float) -> None:
    """Count an answered HTTP request (``status``; ``started``: its ``time.perf_counter()`` on
    arrival) in the edge's metrics: the answers by route, method and status, an act's latency,
    an acknowledged move (:mod:`.metrics`). Called by ``security.Edge`` once the request is done."""
    metrics.HTTP_SERIES(_route_of(scope), method, str(status)).inc()
    act = act_of(method, path)
    if act is not None:
        metrics.ACT_SERIES(act).observe(time.perf_counter() - started)
        if act == "move" and status == 200:
            metrics.MOVES.inc()


def socket_gauge(scope: Any) -> Any:
    """The gauge of open WebSockets a socket of ``scope`` counts in (by its kind)."""
    return metrics.SOCKETS.labels(metrics.socket_kind(scope.get("path", "")))


# --- readiness --------------------------------------------------------------------------------
Check = Callable[[], Awaitable[None]]


async def _timed(check: Check) -> str:
    """``"ok"`` or why not, within :data:`CHECK_SECONDS`."""
    try:
        await asyncio.wait_for(check(), CHECK_SECONDS)
    except asyncio.TimeoutError:
        return f"no answer within {CHECK_SECONDS:g} s"
    except Exception as exc:  # noqa: BLE001 - the reason is the answer
        reason = str(exc).strip().splitlines()
        return f"{type(exc).__name__}: {reason[0][:160]}" if reason else type(exc).__name__
    return "ok"


def database_check(service_now: Callable[[], Any]) -> Check:
    """The database of the service ``service_now()`` gives answers ``SELECT 1`` (in a worker
    thread: the driver blocks)."""
    from sqlalchemy import text

    async def check() -> None:
        service = service_now()
        if service is None or service.closed:
            raise RuntimeError("the match service is closed")

        def query() -> None:
            with service.store.engine.connect() as conn:
                conn.execute(text("SELECT 1"))

        await asyncio.to_thread(query)

    return check


def install(app: Any, fanout: Any = None) -> None:
    """Add ``/metrics``, ``/healthz`` and ``/readyz`` to ``app`` (before its static files'
    mount; the request ids and metrics of every request are ``security.Edge``'s). ``fanout``: the deployment's :class:`~abstracta.server.fanout.Fanout`,
    whose connection is a readiness check when it is shared."""
    from fastapi.responses import JSONResponse, Response
    from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry

    # the routes reach the service through a weak reference to the app: FastAPI keeps the
    # endpoints it served in module-level caches, and a closure holding the service kept every
    # app's service alive for good (see abstracta.server.api.deps)
    app_ref = weakref.ref(app)

    def service_now() -> Any:
        held = app_ref()
        return None if held is None else held.state.service

    own = CollectorRegistry(auto_describe=True)
    own.register(metrics.ServiceCollector(service_now))
    checks: dict[str, Check] = {"database": database_check(service_now)}
    if fanout is not None and fanout.shared:  # redis, or listen (PostgreSQL's LISTEN for the fan-out)
        # weakly too: the fan-out's subscribers hold the service (the chat's, the lobby's)
        ping = weakref.WeakMethod(fanout.ping)

        async def fanout_check() -> None:
            method = ping()
            if method is None:
                raise ConnectionError("the server has stopped")
            await method()

        checks["redis" if fanout.kind == "redis" else "listen"] = fanout_check

    @app.get("/metrics", include_in_schema=False)
    def get_metrics() -> Response:
        return Response(metrics.exposition(own), media_type=CONTENT_TYPE_LATEST)

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> JSONResponse:
        return JSONResponse({"status": "ok"})

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        names = list(checks)
        results = await asyncio.gather(*(_timed(checks[name]) for name in names))
        found = dict(zip(names, results))
        ready = all(r == "ok" for r in results)
        return JSONResponse({"status": "ready" if ready else "not ready", "checks": found},
                            status_code=200 if ready else 503)


# --- JSON log lines ---------------------------------------------------------------------------
class JsonLines(logging.Formatter):
    """One JSON object per log line: ``time`` (UTC, ISO 8601 with milliseconds), ``level``,
    ``logger``, ``message``, ``request_id`` (when the line belongs to a request) and, for a
    logged exception, ``exception`` (its type) and ``where`` (file:line) — not its text, which
    may quote a position with hidden cards (docs: measurements/server.md)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = _request_id.get()
        if rid is not None:
            line["request_id"] = rid
        if record.exc_info and record.exc_info[0] is not None:
            line["exception"] = record.exc_info[0].__name__
            tb = record.exc_info[2]
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            if tb is not None:
                line["where"] = f"{tb.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:{tb.tb_lineno}"
        return json.dumps(line, ensure_ascii=False)


def configure_logging(fmt: str = "text", level: int = logging.WARNING) -> None:
    """The server's log on standard error: ``fmt`` ``"json"`` (:class:`JsonLines`, for a log
    collector) or ``"text"`` (Python's default lines). Every logger propagates to the root's
    one handler, uvicorn's too (``abstracta serve`` then gives uvicorn no config of its own).
    Raises ``ValueError`` for another ``fmt``."""
    if fmt not in ("json", "text"):
        raise ValueError(f"log format {fmt!r}: expected json or text")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines() if fmt == "json" else logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True


__all__ = ["CHECK_SECONDS", "JsonLines", "act_of", "configure_logging", "enter_request", "install", "leave_request",
           "observe_http", "request_id", "request_id_of", "socket_gauge"]
