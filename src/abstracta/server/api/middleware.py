"""The app's own ASGI middleware: :class:`BodyLimit` (a request body's size and the time it
may take to arrive) and :class:`CatchAll` (a bug answered as 500 and logged, never re-raised)."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from fastapi.responses import JSONResponse

from .. import metrics

log = logging.getLogger("abstracta.server")

#: Largest request body in bytes, per path (default: ``None`` key).
BODY_LIMITS: dict[str | None, int] = {None: 1_000_000, "/api/matches/import": 2_000_000}
#: Seconds a request's whole body may take to arrive (uvicorn has no read timeout: a client that
#: declared more than it sent was waited for without end). 2 MB in 30 s is 67 kB/s.
BODY_SECONDS = 30.0

class BodyLimit:
    """ASGI middleware: refuse request bodies over :data:`BODY_LIMITS` with 413 and a JSON
    error, before the app sees them (by Content-Length, or while reading a chunked body), and
    bodies that do not arrive within :data:`BODY_SECONDS` with 408 (the connection closed)."""

    def __init__(self, app: Any, limits: dict[str | None, int] | None = None):
        self.app = app
        self.limits = limits or BODY_LIMITS

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        limit = self.limits.get(scope.get("path"), self.limits[None])
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                await self._reply(send, 400, "the Content-Length header is not a number")
                return
            if declared > limit:
                await self._reply(send, 413, f"request body too large: {declared} bytes, at most {limit}")
                return
        chunks, total = [], 0
        seconds = BODY_SECONDS
        deadline = asyncio.get_running_loop().time() + seconds
        while True:
            try:
                # a deadline on this task, not wait_for's task around each receive (a task
                # created and scheduled for every request, its body nearly always there already)
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                await self._reply(send, 408, f"the request body did not arrive within {seconds:g} s")
                return
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            total += len(chunk)
            if total > limit:
                await self._reply(send, 413, f"request body too large: more than {limit} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Any:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _reply(send: Any, status: int, message: str) -> None:
        data = json.dumps({"error": message}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(data)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": data})


def internal_error(method: str, path: str, exc: BaseException) -> JSONResponse:
    """The 500 answer to a bug (or a stored match that does not replay), logged. The match is
    unchanged, since every change is computed on a copy. The message of an unexpected error
    may quote a position, hidden cards included: it leaves the server neither in the answer
    nor in the log (the type, the place it was raised and the path do)."""
    where = ""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is not None:
        where = f" at {tb.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:{tb.tb_lineno}"
    log.error("internal error %s%s on %s %s", type(exc).__name__, where, method, path)
    metrics.error(type(exc).__name__)
    return JSONResponse({"error": f"internal error: {type(exc).__name__}"}, status_code=500)


class CatchAll:
    """ASGI middleware around the routes: an exception no handler took (a bug) ends here as
    :func:`internal_error`'s answer. Starlette's handler of ``Exception`` would answer and then
    re-raise it to the server, which logs the whole traceback, message included, and drops
    the connection."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as exc:  # noqa: BLE001 - a bug: answered and logged here, not re-raised
            response = internal_error(scope.get("method", ""), scope.get("path", ""), exc)
            if not started:  # else the answer is cut short: the client sees a broken response
                await response(scope, receive, send)


__all__ = ["BODY_LIMITS", "BODY_SECONDS", "BodyLimit", "CatchAll", "internal_error"]
