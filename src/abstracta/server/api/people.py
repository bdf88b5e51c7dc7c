"""The people's side of the HTTP edge (issue 41): who a request is (the session cookie, a personal
API token), the dependencies of the people's routes (:data:`Anyone`, :data:`Session`,
:data:`Reader`), the table turning the people's refusals into statuses (:data:`STATUS`, applied by
:class:`PeopleRoute`), and the cookie's making and clearing. The routes are
:mod:`.routes.accounts` (accounts, sign-in, guests, sessions, API tokens) and :mod:`.routes.players`
(profiles, leaderboards, the computer levels' ratings); the rules are :mod:`abstracta.people`'s.
Who a request is: the session cookie (``abstracta``; over HTTPS ``__Host-abstracta``, which
also has ``Secure``), else an API token sent as ``Authorization: Bearer abst_…`` (only where
its scope allows; managing the account needs the browser session). The cookie is ``HttpOnly``
and ``SameSite=Lax``; it is ``Secure`` when the request came over HTTPS — directly, or through
a proxy uvicorn trusts (``--forwarded-allow-ips``, whose ``X-Forwarded-Proto`` it reads) —
and not on plain ``http://127.0.0.1``, where a browser would drop a Secure cookie.

Cross-site request forgery: every state-changing request sends JSON (415 otherwise, so a form
on another site cannot), a browser's request from another origin is refused (403,
``security.origin_check``) and a foreign ``Host`` too (400); and ``SameSite=Lax`` keeps the
cookie off other sites' requests in the first place.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated, Any, Callable, Coroutine

from fastapi import Depends, Request, Response
from starlette.requests import HTTPConnection
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute

from ...people import People, Principal
from ...people import errors as pe
from ...people.credentials import is_api_token
from ..signed_in import Watch

#: the cookie's name over plain HTTP and over HTTPS (the ``__Host-`` prefix: Secure, path /,
#: no Domain — a sibling subdomain cannot plant one)
COOKIE, SECURE_COOKIE = "abstracta", "__Host-abstracta"
#: the cookie's lifetime in the browser (Chromium keeps at most 400 days); the server ends an
#: unused session sooner (``people.sessions.SESSION_IDLE``)
COOKIE_SECONDS = 400 * 86400

#: the HTTP status of each kind of refusal (subclasses answer as their nearest listed base)
STATUS: dict[type[pe.PeopleError], int] = {
    pe.InvalidInput: 422, pe.NameTaken: 409, pe.Conflict: 409, pe.SignInFailed: 401, pe.NotSignedIn: 401,
    pe.Forbidden: 403, pe.UnknownPerson: 404, pe.TooManyAttempts: 429,
}


def status_of(exc: pe.PeopleError) -> int:
    for kind in type(exc).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    return 503  # the database refused (StorageUnavailable)


def refusal(exc: pe.PeopleError) -> JSONResponse:
    headers = {"Cache-Control": "no-store"}
    if exc.retry_after is not None:
        headers["Retry-After"] = str(exc.retry_after)
    body: dict[str, Any] = {"error": exc.message}
    if exc.i18n:
        body["i18n"] = exc.i18n
    return JSONResponse(body, status_code=status_of(exc), headers=headers)


class PeopleRoute(APIRoute):
    """A route whose domain refusals become their statuses, and whose answers are never
    cached (they are one person's)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route(request: Request) -> Response:
            try:
                response = await handler(request)
            except pe.PeopleError as exc:
                return refusal(exc)
            response.headers.setdefault("Cache-Control", "no-store")
            return response

        return route


#: what each refusal of these routes means (the body is the app's ErrorBody: {error, i18n})
ANSWERS: dict[int, str] = {
    400: "Invalid host header (not a name this server serves)",
    401: "not signed in (no session cookie, or it ended), or a wrong username, password or recovery code",
    403: "another origin's page (Origin), a disabled account, an API token without the scope, or an act "
         "only a signed-in browser may do",
    404: "no such player, pool, session or token",
    409: "the name is taken (in any case), or not possible now",
    415: "a body that is not JSON (Content-Type: application/json)",
    422: "a name or password that breaks its rule (the message says which), or a malformed body",
    429: "too many sign-in attempts (for the account, or from this address) or sign-ups: wait Retry-After seconds",
    503: "the database refused: nothing was changed; try again later",
}


def answers(*codes: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route answering ``codes`` besides its success (and 400 always)."""
    out: dict[int | str, dict[str, Any]] = {}
    for code in sorted({400, *codes}):
        out[code] = {"description": ANSWERS[code],
                     "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
        if code in (429, 503):
            out[code]["headers"] = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}
    return out


# --- who is asking --------------------------------------------------------------------------
def people_of(request: Request) -> People:
    return request.app.state.people


def secure(request: Request) -> bool:
    """Whether the request came over HTTPS (uvicorn sets the scheme from a trusted proxy's
    ``X-Forwarded-Proto``)."""
    return request.url.scheme in ("https", "wss")


def cookie_secret(request: Request) -> str | None:
    value = request.cookies.get(SECURE_COOKIE if secure(request) else COOKIE)
    return value if value and len(value) <= 128 else None


def bearer_token(request: Request) -> str | None:
    """The first ``abst_…`` token of ``Authorization: Bearer`` (seat tokens beside it are the
    match routes' business)."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return next((t for t in (p.strip() for p in value.split(",")) if is_api_token(t)), None)


def who(request: Request) -> Principal | None:
    """The person a request comes from (None: nobody signed in). Read once per request."""
    if "principal" not in request.scope.setdefault("state", {}):
        request.state.principal = people_of(request).sessions.authenticate(cookie_secret(request), bearer_token(request))
    return request.state.principal


def still_signed_in(connection: HTTPConnection, person_id: int) -> bool:
    """Whether the credentials a WebSocket was opened with (its handshake's session cookie or
    API token) still name the person ``person_id`` — read now, not as at the handshake: a
    session ended since (signed out, ended from another browser, the password changed, the
    account deleted or disabled) or a token revoked no longer does, and the socket must stop
    sending that person's views. False too when the database cannot say. Blocking."""
    try:
        principal = people_of(connection).sessions.authenticate(cookie_secret(connection), bearer_token(connection))
    except pe.PeopleError:
        return False
    return principal is not None and principal.person.id == person_id


def watch_signed_in(connection: HTTPConnection, person_id: int) -> Watch:
    """A socket's watch on its credentials (opened by ``person_id``): ``await watch.still()``
    says whether they still name that person, from the database only when needed
    (:mod:`abstracta.server.signed_in`)."""
    return connection.app.state.signed_in.watch(connection, person_id)


def woken_at_end(connection: HTTPConnection, person_id: int | None,
                 event: asyncio.Event) -> contextlib.AbstractContextManager[asyncio.Event]:
    """While inside: ``event`` is set whenever an end of a credential of ``person_id`` is heard
    (:meth:`abstracta.server.signed_in.SignedIn.waking`), so that the socket waiting on it asks
    its watch at once; ``person_id`` None (nobody signed in, or a spectator's socket, which
    shows nothing of its person): nothing."""
    if person_id is None:
        return contextlib.nullcontext(event)
    return connection.app.state.signed_in.waking(person_id, event)


def signed_in(request: Request) -> Principal:
    principal = who(request)
    if principal is None:
        raise pe.NotSignedIn("sign in first", key="people.error.signed_out")
    return principal


def by_session(request: Request) -> Principal:
    """A browser session's person (an API token manages nothing of the account)."""
    principal = signed_in(request)
    people_of(request).sessions.needs_session(principal, "this")
    return principal


def check_scope(principal: Principal, scope: str) -> None:
    """Forbidden (403) when ``principal`` is an API token without ``scope`` (a browser session
    may do everything)."""
    if not principal.may(scope):
        raise pe.Forbidden(f"this API token lacks the scope {scope!r}", key="people.error.scope", scope=scope)


def scoped(scope: str) -> Callable[[Request], Principal]:
    def dependency(request: Request) -> Principal:
        principal = signed_in(request)
        check_scope(principal, scope)
        return principal

    return dependency


Anyone = Annotated[Principal | None, Depends(who)]
Session = Annotated[Principal, Depends(by_session)]
Reader = Annotated[Principal, Depends(scoped("read"))]


def client(request: Request) -> tuple[str, str]:
    """(address, user agent) of the request; the address as uvicorn reports it (a trusted
    proxy's ``X-Forwarded-For``)."""
    return (request.client.host if request.client else "unknown"), request.headers.get("user-agent", "")[:200]


def set_session(response: Response, request: Request, secret: str) -> None:
    name = SECURE_COOKIE if secure(request) else COOKIE
    response.set_cookie(name, secret, max_age=COOKIE_SECONDS, path="/", httponly=True, samesite="lax",
                        secure=secure(request))


def clear_session(response: Response, request: Request) -> None:
    response.delete_cookie(SECURE_COOKIE if secure(request) else COOKIE, path="/", httponly=True, samesite="lax",
                           secure=secure(request))


def person_json(principal: Principal | None) -> dict[str, Any]:
    if principal is None:
        return {"kind": None, "name": None}
    out: dict[str, Any] = {"kind": principal.person.kind, "name": principal.person.name,
                           "member_since": (principal.person.account_at or principal.person.created_at).isoformat()}
    if principal.token_id:
        out["token"] = {"id": principal.token_id, "scopes": sorted(principal.scopes)}
    return out


__all__ = ["ANSWERS", "Anyone", "COOKIE", "COOKIE_SECONDS", "PeopleRoute", "Reader", "SECURE_COOKIE", "STATUS",
           "Session", "answers", "bearer_token", "check_scope", "clear_session", "client", "cookie_secret", "people_of",
           "person_json", "refusal", "secure", "set_session", "signed_in", "status_of", "still_signed_in",
           "watch_signed_in", "who", "woken_at_end"]
