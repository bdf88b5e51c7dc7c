"""Two rules of the request path that ``security.Gate`` and ``security.Edge`` apply: the body limit
(:func:`read_body`: a request body's size and the time it may take to arrive) and the answer to a
bug (:func:`internal_error`: 500, logged, never re-raised)."""

from __future__ import annotations

import asyncio
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

class BodyRefused(Exception):
    """A request body :func:`read_body` refused: ``status`` (400, 413, 408) and ``message``
    (answered with ``Connection: close``: the rest of the body is not read)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


async def read_body(scope: Any, receive: Any, limits: dict[str | None, int] | None = None) -> bytes | None:
    """The whole body of an HTTP request (``receive``: its ASGI messages), or None when the client
    went away first. Raises :class:`BodyRefused`: 400 for a ``Content-Length`` that is not a
    number, 413 for a body over its path's limit (:data:`BODY_LIMITS`; by ``Content-Length``
    before reading, or while reading a chunked body), 408 for one that does not arrive within
    :data:`BODY_SECONDS` (uvicorn has no read timeout). The app reads it whole anyway, as JSON."""
    limits = limits or BODY_LIMITS
    limit = limits.get(scope.get("path"), limits[None])
    length = dict(scope.get("headers") or []).get(b"content-length")  # (the last one, as before)
    if length is not None:
        try:
            declared = int(length)
        except ValueError:
            raise BodyRefused(400, "the Content-Length header is not a number") from None
        if declared > limit:
            raise BodyRefused(413, f"request body too large: {declared} bytes, at most {limit}")
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
            raise BodyRefused(408, f"the request body did not arrive within {seconds:g} s") from None
        if message["type"] != "http.request":  # the client went away
            return None
        chunk = message.get("body", b"")
        total += len(chunk)
        if total > limit:
            raise BodyRefused(413, f"request body too large: more than {limit} bytes")
        chunks.append(chunk)
        if not message.get("more_body"):
            return b"".join(chunks)


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


__all__ = ["BODY_LIMITS", "BODY_SECONDS", "BodyRefused", "internal_error", "read_body"]
