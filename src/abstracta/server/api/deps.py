"""The dependencies of the routes (FastAPI's template calls this module ``deps.py``): the match
service a request reaches (:data:`Service`); who it acts as, the one place the routes read it
(:data:`Tokens`: the :class:`~abstracta.server.matches.Holder` of its seat tokens and the person
signed in; :data:`ChatTokens`, the same with an API token's ``chat`` scope; :data:`Creator`, the
person creating a match or claiming a seat; :func:`who_acts`, the
:class:`~abstracta.server.chat.Speaker` of a match's company); the browser session it names
(:data:`Session`); a body that must be empty (:data:`NoBody`); and how a route runs an act on a
match (:func:`promptly`) or a long search (:func:`unless_gone`).

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
from typing import Annotated, Any, Callable, Sequence, TypeVar

from fastapi import Depends, Header, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from ...people import PeopleError, Person
from ...people.credentials import is_api_token
from .. import security
from ..chat import Speaker
from ..errors import Forbidden, InvalidRequest, Unauthorized, Unavailable
from ..matches import TOKEN_LIMIT, Holder, clip
from ..service import MatchService
from . import people
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
    "comma-separated (`Bearer <t1>,<t2>`), at most 200 in one request and 16 in an act while the rate limits are on "
    "(more: 422)."))


def split_tokens(text: str | None) -> list[str]:
    """The seat tokens of an ``Authorization: Bearer`` value (comma-separated; a personal API
    token, ``abst_…``, is set aside: it names a person, :func:`acting_person`). Unauthorized for one
    longer than any seat token: it is no token, and reading the request as a spectator's would
    hide the client's mistake. InvalidRequest for more than :data:`TOKEN_LIMIT`: answering from
    the first ones would leave out what the others hold with no sign (a client holding more
    asks in several requests, as the browser's "Your games" does)."""
    if not text:
        return []
    tokens = [t for t in (part.strip() for part in text.split(",")) if t and not is_api_token(t)]
    if len(tokens) > TOKEN_LIMIT:
        raise InvalidRequest(f"at most {TOKEN_LIMIT} seat tokens are read from one request (this one has {len(tokens)})")
    problem = security.too_long(tokens)
    if problem is not None:
        raise Unauthorized(problem)
    return tokens


def presents_person(connection: HTTPConnection) -> bool:
    """Whether ``connection`` carries a session cookie or a personal API token (valid or not)."""
    return people.cookie_secret(connection) is not None or people.bearer_token(connection) is not None


async def acting_person(connection: HTTPConnection, scope: str = "play") -> Person | None:
    """The person a request or WebSocket acts as (issue 41): signed in by the session cookie,
    or by a personal API token with ``scope`` (``play``; the chat's routes: ``chat``); None
    for nobody (no database work when the request carries neither). 503 when the people's
    database cannot be read."""
    if not presents_person(connection):
        return None
    try:
        principal = await run_in_threadpool(people.who, connection)
    except PeopleError as exc:
        raise Unavailable(exc.message) from None
    return principal.person if principal is not None and principal.may(scope) else None


async def request_tokens(request: Request,
                         credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> Holder:
    """Who a request acts as, the one place every match route reads it: the seat tokens it
    carries (empty: none) and the person signed in (:func:`acting_person`), whose seats it
    holds too. A coroutine: FastAPI runs a plain function dependency in a worker thread, a hop
    every request would pay for nothing."""
    tokens = split_tokens(credentials.credentials if credentials is not None else None)
    return Holder(tuple(tokens), await acting_person(request))


Tokens = Annotated[Holder, Depends(request_tokens)]


async def chat_tokens(request: Request, credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> Holder:
    """:func:`request_tokens` for the chat (issue 43): an API token acts for its person there
    with the scope ``chat`` (a browser session always)."""
    tokens = split_tokens(credentials.credentials if credentials is not None else None)
    return Holder(tuple(tokens), await acting_person(request, "chat"))


ChatTokens = Annotated[Holder, Depends(chat_tokens)]


async def request_person(request: Request) -> Person | None:
    """Who creates a match or claims a seat: the person signed in (:func:`acting_person`); the
    seat tokens a request carries hold no seat of what is not made yet, and are not read."""
    return await acting_person(request)


Creator = Annotated[Person | None, Depends(request_person)]

#: The header a browser names its session with (a random id it keeps), so that the analyses of
#: people behind one address are counted per person (analysis.ANALYSIS_PER_CLIENT)
SESSION_HEADER = "X-Abstracta-Session"
SESSION_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


Session = Annotated[str | None, Header(alias=SESSION_HEADER, description=(
    "optional: a browser's own random id (8-64 letters, digits, - or _), kept for its session: "
    "the analyses of people behind one address are counted per person, not per address"))]


def asker_of(who: Holder | Sequence[str], session: str | None) -> str:
    """Who asks for an analysis from the request's address: the person signed in, else its
    seat tokens (a digest: the count never holds a usable token), else the browser session it
    names, else "" (the address alone). A client may invent sessions; its address still has a
    bound of its own."""
    holder = Holder.of(who)
    if holder.person is not None:
        return f"person:{holder.person.id}"
    if holder.tokens:
        return "token:" + hashlib.sha256(",".join(sorted(holder.tokens)).encode()).hexdigest()[:32]
    return "session:" + session if session and SESSION_ID.fullmatch(session) else ""


def who_acts(conn: HTTPConnection, match_id: Any, holder: Holder) -> Speaker:
    """Who ``conn`` (a request or a WebSocket) acting as ``holder`` is at match ``match_id``:
    the seats it holds there (its tokens' and its person's, ``Kernel.held``: 403 when it gives
    tokens and holds no seat; 404 for no such match) and its person. Blocking (it reads the
    match): call it in a thread."""
    held = conn.app.state.service.seats_of(match_id, holder)
    if holder.tokens and not held:
        raise Forbidden("no token given is a token of this match")
    client = conn.client.host if conn.client else ""
    return Speaker(frozenset(held), holder.person, bool(holder.tokens) or presents_person(conn), client)


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


__all__ = ["ChatTokens", "Creator", "NoBody", "SESSION_HEADER", "Service", "Session", "Tokens", "acting_person",
           "asker_of", "bearer", "chat_tokens", "no_body", "presents_person", "promptly", "request_person",
           "request_tokens", "service_of", "split_tokens", "unless_gone", "who_acts"]
