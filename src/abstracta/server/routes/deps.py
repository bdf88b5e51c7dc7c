"""Who a request is (issues 41, 43): the one place the routes read it.

:func:`request_tokens` (``Tokens``) is the :class:`~abstracta.server.matches.Holder` a match
route acts as: the seat tokens of ``Authorization: Bearer t1,t2`` and the person signed in (the
session cookie, or a personal API token allowed to ``play``), whose seats it holds too.
:func:`who_acts` turns a holder into the :class:`~abstracta.server.chat.Speaker` of a match's
company (its chat, its room socket, its push subscriptions). The FastAPI template keeps these in
``api/deps.py`` beside the routes by resource; :mod:`abstracta.server.app` imports them.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from ...people import PeopleError, Person
from ...people.credentials import is_api_token
from .. import people_routes, security
from ..chat import Speaker
from ..errors import Forbidden, InvalidRequest, Unauthorized, Unavailable
from ..matches import TOKEN_LIMIT, Holder

bearer = HTTPBearer(auto_error=False, scheme_name="seat token", description=(
    "A seat's token, from the answer that created the match or claimed an invitation: "
    "`Authorization: Bearer <token>`. A browser holding several seats' tokens may send them "
    "comma-separated (`Bearer <t1>,<t2>`), at most 200 in one request (more: 422)."))


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
    return people_routes.cookie_secret(connection) is not None or people_routes.bearer_token(connection) is not None


async def acting_person(connection: HTTPConnection, scope: str = "play") -> Person | None:
    """The person a request or WebSocket acts as (issue 41): signed in by the session cookie,
    or by a personal API token with ``scope`` (``play``; the chat's routes: ``chat``); None
    for nobody (no database work when the request carries neither). 503 when the people's
    database cannot be read."""
    if not presents_person(connection):
        return None
    try:
        principal = await run_in_threadpool(people_routes.who, connection)
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


#: what each refusal of these routes means (the body is the app's ErrorBody: {error, i18n})
ANSWERS: dict[int, str] = {
    400: "Invalid host header (not a name this server serves)",
    401: "nobody: no seat token of this match and no session (sign in, or play as a guest)",
    403: "not allowed: another origin's page, a room or a seat that is not yours, a chat ban",
    404: "no such match or chat line",
    409: "not possible in this game: no chat (against the computer, on one device), or push notices in a game "
         "that is not correspondence",
    413: "request body too large (1 MB)",
    415: "a body that is not JSON (Content-Type: application/json)",
    422: "a line that is no text, empty or longer than 140 characters; a room, a subscription or a field that "
         "is not valid (the message says which)",
    429: "too many chat lines: wait Retry-After seconds",
    503: "the database could not be used just now: nothing was changed; try again later",
}


def answers(*codes: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` of a route answering ``codes`` besides its success (and 400 always), each
    with the app's error body."""
    out: dict[int | str, dict[str, Any]] = {}
    for code in sorted({400, *codes}):
        out[code] = {"description": ANSWERS[code],
                     "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
        if code in (429, 503):
            out[code]["headers"] = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}
    return out


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


__all__ = ["ANSWERS", "ChatTokens", "Creator", "Tokens", "acting_person", "answers", "bearer", "chat_tokens",
           "presents_person", "request_person", "request_tokens", "split_tokens", "who_acts"]
