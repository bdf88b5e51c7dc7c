"""What the routes of a match's company share (issue 43): who a request is at a match.

:func:`who_acts` is the one seat authorization of the chat, the room socket and the push
subscriptions. Today it reads the seats from the request's seat tokens (as every act does,
``Kernel.held``) and adds the seats the signed-in person holds (``seat_people``, written once
seats belong to people). The seats branch of issue 41 makes every act accept the session
cookie through its own "who acts"; at merge this function becomes a call of that one.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import HTTPConnection

from ...people import PeopleError
from .. import people_routes, security
from ..chat import Speaker
from ..errors import Forbidden, InvalidRequest, Unauthorized, Unavailable
from ..matches import TOKEN_LIMIT


def tokens_of(conn: HTTPConnection) -> list[str]:
    """The seat tokens of ``Authorization: Bearer t1,t2`` (as ``app.split_tokens`` reads them:
    401 for one longer than any seat token, 422 for more than :data:`TOKEN_LIMIT`); a personal
    API token (``abst_…``) is the person's, not a seat's."""
    scheme, _, value = conn.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return []
    return split_tokens(value)


def split_tokens(value: str) -> list[str]:
    tokens = [t for t in (p.strip() for p in value.split(",")) if t and not t.startswith("abst_")]
    if len(tokens) > TOKEN_LIMIT:
        raise InvalidRequest(f"at most {TOKEN_LIMIT} seat tokens are read from one request (this one has {len(tokens)})")
    problem = security.too_long(tokens)
    if problem is not None:
        raise Unauthorized(problem)
    return tokens


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


def who_acts(conn: HTTPConnection, match_id: Any, tokens: list[str], scope: str = "chat") -> Speaker:
    """Who ``conn`` (a request or a WebSocket) is at match ``match_id``: the seats its
    ``tokens`` hold (403 when none is a token of this match; 404 for no such match) and those
    of its signed-in person, and that person (a browser session, or an API token with
    ``scope``). Blocking (it may read the match and the people tables): call it in a thread."""
    service = conn.app.state.service
    try:
        principal = people_routes.who(conn)  # type: ignore[arg-type] - reads the cookie and headers only
    except PeopleError as exc:
        raise Unavailable(exc.message) from None
    held = set(service.seats_of(match_id, tokens)) if tokens else set()
    if tokens and not held:
        raise Forbidden("no token given is a token of this match")
    person = None
    if principal is not None and principal.may(scope):
        person = principal.person
        try:
            held |= conn.app.state.people.standings.seats_of(person.id).get(match_id, set())
        except PeopleError as exc:
            raise Unavailable(exc.message) from None
    elif not tokens:
        service.seats_of(match_id, [])  # 404 for no such match, as with tokens
    client = conn.client.host if conn.client else ""
    return Speaker(frozenset(held), person, bool(tokens) or principal is not None, client)


__all__ = ["ANSWERS", "answers", "split_tokens", "tokens_of", "who_acts"]
