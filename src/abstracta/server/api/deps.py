"""The dependencies of the routes (FastAPI's template calls this module ``deps.py``): the match
service a request reaches (:data:`Service`), the seat tokens it carries (:data:`Tokens`), the
browser session it names (:data:`Session`), a body that must be empty (:data:`NoBody`), and how a
route runs an act on a match (:func:`promptly`) or a long search (:func:`unless_gone`).

The routes are module-level functions: they reach the service through ``request.app.state``,
never through a closure (a closure kept every app's service alive as long as FastAPI's caches of
served endpoints, i.e. for good).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import threading
from typing import Annotated, Any, Callable, TypeVar

from fastapi import Depends, Header, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from .. import security
from ..errors import InvalidRequest, Unauthorized, Unavailable
from ..matches import TOKEN_LIMIT, clip
from ..service import MatchService
from .errors import ApiError

T = TypeVar("T")


def service_of(connection: HTTPConnection) -> MatchService:
    """The match service of the app a request (or WebSocket) reached; 503 once the app's
    lifespan has ended (its service closed: bot workers stopped, database disposed)."""
    service: MatchService = connection.app.state.service
    if service.closed:
        raise Unavailable("the server has stopped")
    return service


async def service_dependency(request: Request) -> MatchService:
    """:func:`service_of` as a dependency (a coroutine: a plain function would hop to a
    worker thread on every request)."""
    return service_of(request)


Service = Annotated[MatchService, Depends(service_dependency)]

#: Seat tokens as FastAPI's security scheme (so /openapi.json documents them)
bearer = HTTPBearer(auto_error=False, scheme_name="seat token", description=(
    "A seat's token, from the answer that created the match or claimed an invitation: "
    "`Authorization: Bearer <token>`. A browser holding several seats' tokens may send them "
    "comma-separated (`Bearer <t1>,<t2>`), at most 200 in one request (more: 422)."))


def split_tokens(text: str | None) -> list[str]:
    """The tokens of an ``Authorization: Bearer`` value (comma-separated). Unauthorized for one
    longer than any seat token: it is no token, and reading the request as a spectator's would
    hide the client's mistake. InvalidRequest for more than :data:`TOKEN_LIMIT`: answering from
    the first ones would leave out what the others hold with no sign (a client holding more
    asks in several requests, as the browser's "Your games" does)."""
    if not text:
        return []
    tokens = [t for t in (part.strip() for part in text.split(",")) if t]
    if len(tokens) > TOKEN_LIMIT:
        raise InvalidRequest(f"at most {TOKEN_LIMIT} seat tokens are read from one request (this one has {len(tokens)})")
    problem = security.too_long(tokens)
    if problem is not None:
        raise Unauthorized(problem)
    return tokens


async def request_tokens(credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> list[str]:
    """The tokens a request carries (empty: none). A coroutine: FastAPI runs a plain function
    dependency in a worker thread, a hop every request would pay for nothing."""
    return split_tokens(credentials.credentials if credentials is not None else None)


Tokens = Annotated[list[str], Depends(request_tokens)]

#: The header a browser names its session with (a random id it keeps), so that the analyses of
#: people behind one address are counted per person (analysis.ANALYSIS_PER_CLIENT)
SESSION_HEADER = "X-Abstracta-Session"
SESSION_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


Session = Annotated[str | None, Header(alias=SESSION_HEADER, description=(
    "optional: a browser's own random id (8-64 letters, digits, - or _), kept for its session: "
    "the analyses of people behind one address are counted per person, not per address"))]


def asker_of(tokens: list[str], session: str | None) -> str:
    """Who asks for an analysis from the request's address: its seat tokens (a digest: the
    count never holds a usable token), else the browser session it names, else "" (the
    address alone). A client may invent sessions; its address still has a bound of its own."""
    if tokens:
        return "token:" + hashlib.sha256(",".join(sorted(tokens)).encode()).hexdigest()[:32]
    return "session:" + session if session and SESSION_ID.fullmatch(session) else ""


async def no_body(request: Request) -> None:
    """For acts that take no body: an empty body or JSON ``{}``/``null``; anything else is
    refused (415 for another content type, 422 for other JSON), so a garbled request acts on
    nothing."""
    body = await request.body()
    if not body.strip():
        return
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise ApiError(415, f"this request takes no body, or JSON {{}} (Content-Type: application/json), "
                            f"not {clip(ctype or 'a body without a type')}")
    try:
        data = json.loads(body)
    except ValueError:
        raise InvalidRequest("the request body is not valid JSON") from None
    if data not in (None, {}):
        raise InvalidRequest("this request takes no body (or {})")


NoBody = Depends(no_body)


async def promptly(service: MatchService, match_id: str, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, a short act on one match: on the event loop when the match's lock is
    free (nearly always: no hop to a worker thread and back, which on a busy machine costs
    more than the act), else in a worker thread (the loop never waits for a lock)."""
    if not isinstance(match_id, str) or len(match_id) > 32:
        return fn(*args)
    lock = service.lock_for(match_id)
    if lock.acquire(blocking=False):
        try:
            return fn(*args)
        finally:
            lock.release()
    return await asyncio.to_thread(fn, *args)


async def unless_gone(request: Request, fn: Callable[[threading.Event], T]) -> T:
    """``fn(gone)`` in a worker thread (the pool of the plain ``def`` routes: asyncio's default
    one has a few threads, and an analysis waits in it for up to ANALYSIS_TIMEOUT, which would
    hold back every ``asyncio.to_thread``); ``gone`` is set once the client has gone before the
    answer (its connection closed: a page reloaded or closed), so that the service gives up
    work nobody waits for, or when this request is cancelled (the server stopping). Waits for
    the server's ``http.disconnect`` message rather than polling ``is_disconnected()``: the
    body has been read, nothing else comes on this request, and the search stops at once."""
    gone = threading.Event()

    async def disconnected() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass

    work = asyncio.ensure_future(run_in_threadpool(fn, gone))
    watch = asyncio.ensure_future(disconnected())
    try:
        await asyncio.wait({work, watch}, return_when=asyncio.FIRST_COMPLETED)
        if not work.done():
            gone.set()
        return await work
    finally:
        gone.set()
        watch.cancel()
        if not work.done():  # cancelled: its refusal (the service gave up) goes to nobody
            work.add_done_callback(lambda done: done.cancelled() or done.exception())


__all__ = ["NoBody", "SESSION_HEADER", "Service", "Session", "Tokens", "asker_of", "bearer", "no_body", "promptly",
           "service_of", "split_tokens", "unless_gone"]
