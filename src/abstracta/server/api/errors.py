"""Refusals at the HTTP edge: the one table turning the domain's errors into statuses
(:data:`STATUS`), the error body every refusal has (:class:`ErrorBody`), the documented refusals
of each route (:func:`errors`) and the app's exception handlers (:func:`install`).

Every refused request gets a 4xx status and a JSON body ``{"error": "..."}`` naming the
problem (echoed input cut at 100 characters); the match it was aimed at is unchanged.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse
from starlette.responses import Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import i18n
from ..errors import Conflict, Forbidden, Gone, InvalidRequest, MatchError, NotFound, TooBusy, Unauthorized, Unavailable
from .middleware import internal_error

#: The HTTP status of each kind of refusal (the one place the domain's errors become statuses;
#: subclasses answer as their nearest listed base).
STATUS: dict[type[MatchError], int] = {
    Unauthorized: 401, Forbidden: 403, NotFound: 404, Conflict: 409, Gone: 410, InvalidRequest: 422,
    TooBusy: 429, Unavailable: 503,
}


def status_of(exc: MatchError) -> int:
    for kind in type(exc).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    return 400


class ApiError(MatchError):
    """A refusal only HTTP has words for (a body of the wrong media type): its ``status``."""

    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message, **extra)
        self.status = status


class ErrorBody(BaseModel):
    error: str
    i18n: dict[str, Any] | None = Field(default=None, description="common refusals (illegal move, not your "
                                           "turn, game over, too many requests, a lobby clock out of its range) "
                                           "also as {key, params} of the "
                                           "client's catalogs; a refused move as the engine words it, its "
                                           "reason included (a parameter may itself be {key, params})")
    ply: int | None = Field(default=None, description="a stale move: the match's current ply; a record that "
                                                      "does not replay: the ply it fails at")
    reason: str | None = Field(default=None, description="a record that does not replay: why, in the "
                                                         "engine's words")
    at: float | None = Field(default=None, description="a claim against a gone opponent made too early: when it "
                                                       "opens (server Unix time)")


ERROR_TEXT: dict[int, str] = {
    400: "Invalid host header (not a name this server serves; see abstracta serve --allowed-host), "
         "or a Content-Length that is not a number",
    401: "no seat token given (Authorization: Bearer <token>), and nobody signed in (session cookie, or an "
         "API token of scope play)",
    403: "no token given holds the seat this needs (another seat's or another match's token; for a draw "
         "offer, a seat out of the game, or the offering seat accepting its own offer; for a takeback, "
         "the asking seat accepting its own request, or a seat out of time answering)",
    404: "no such match, game or invitation",
    409: "conflict: stale ply, game over, not a person's turn, a takeback past a revealed card, a whole "
         "'turn' sent in the middle of a turn, a draw offer already pending or none to answer, a draw the "
         "computer would have to agree, a resignation by a seat already out",
    410: "the invitation was used already",
    413: "request body too large (1 MB; imports 2 MB)",
    415: "a body that is not JSON (Content-Type: application/json), or one where the request takes none",
    422: "the request names something invalid (the message says what): a value the rules refuse, "
         "an illegal or unreadable move, a record that does not replay, a body that is not JSON",
    429: "too many requests from this address or with this token: wait Retry-After seconds "
         "(or, for analyses, too many of yours running at once)",
    503: "the server cannot answer this now (stopping, an analysis that did not finish in time, or the "
         "database refused to store a change or to be read: nothing was changed, try again after "
         "Retry-After seconds)",
}


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route answering ``codes`` besides its success (each with the
    error body); every route can also answer 400 (a foreign Host header)."""
    out: dict[int | str, dict[str, Any]] = {}
    for code in sorted({400, *codes}):
        out[code] = {"model": ErrorBody, "description": ERROR_TEXT[code]}
        if code in (429, 503):  # 503: when the database refused a write
            out[code]["headers"] = {"Retry-After": {"description": "seconds to wait",
                                                    "schema": {"type": "integer"}}}
        if code == 401:
            out[code]["headers"] = {"WWW-Authenticate": {"description": "Bearer", "schema": {"type": "string"}}}
    return out


#: what each refusal of a match's company's routes means (chat, live games, push notices: issue 43) (the body is the app's ErrorBody: {error, i18n})
COMPANY_TEXT: dict[int, str] = {
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


def company_errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` of a route answering ``codes`` besides its success (and 400 always), each
    with the app's error body."""
    out: dict[int | str, dict[str, Any]] = {}
    for code in sorted({400, *codes}):
        out[code] = {"description": COMPANY_TEXT[code],
                     "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
        if code in (429, 503):
            out[code]["headers"] = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}
    return out


#: every status an act answers (a move, undo, takeback, draw offer, flag, resign)
ACT = errors(401, 403, 404, 409, 413, 415, 422, 429, 503)
#: the security of a route that also answers without a token (a spectator, an empty list)
TOKEN_OPTIONAL = {"security": [{}]}


def refusal(exc: MatchError) -> JSONResponse:
    """The answer to a refused request: its status, ``{"error", ...extra}``, and the headers
    its kind asks for (``WWW-Authenticate`` with 401, ``Retry-After`` when the domain gave one)."""
    status = exc.status if isinstance(exc, ApiError) else status_of(exc)
    message = exc.message if len(exc.message) <= 500 else exc.message[:499] + "…"
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else {}
    if exc.retry_after is not None:
        headers["Retry-After"] = str(exc.retry_after)
    return JSONResponse({"error": message, **exc.extra}, status_code=status, headers=headers or None)


def validation_message(exc: RequestValidationError) -> str:
    """A refused body in one line: each problem as ``field.path: message`` (the field named by
    the request's own names), a body that is not JSON in words."""
    parts = []
    for err in exc.errors():
        if err.get("type") == "json_invalid":  # loc is ('body', <character>): say it in words
            loc = err.get("loc", ())
            at = f" (at character {loc[-1]})" if loc and isinstance(loc[-1], int) else ""
            parts.append(f"the request body is not valid JSON{at}")
            continue
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
        parts.append(f"{where or 'body'}: {err.get('msg')}")
    return "; ".join(parts) or "invalid request"


def validation_i18n(exc: RequestValidationError) -> dict[str, Any] | None:
    """A refused body's one problem as ``{key, params}`` of the client's catalogs, when the
    body models word it so: a custom error whose type is a catalog key (the lobby's clock,
    options, seat and rating range: ``lobby.error.…``), its context the message's parameters.
    None for anything else (the English ``error`` is then the only words)."""
    problems = exc.errors()
    if len(problems) != 1 or problems[0].get("type") not in i18n.catalog(i18n.BASE):
        return None
    params = {k: v for k, v in (problems[0].get("ctx") or {}).items() if isinstance(v, (str, int, float))}
    return {"key": problems[0]["type"], "params": params}


def page_asked(request: Request) -> bool:
    """Whether a 404 was a browser asking for a page by a path the app keeps in its hash
    (``/lobby`` for ``/#/lobby``): a GET outside ``/api`` for HTML, not for a file (no dot in the
    last segment). Such a browser is sent to the page (an unknown one is the home page) instead
    of a bare JSON error it cannot act on; ``/#…`` is always this site, so it redirects nowhere else."""
    path = request.url.path
    return (request.method in ("GET", "HEAD") and not path.startswith("/api")
            and "text/html" in request.headers.get("accept", "") and "." not in path.rsplit("/", 1)[-1])


def install(app: FastAPI) -> None:
    """The exception handlers: a domain refusal as its status, a body the models refuse as 422,
    Starlette's own (404, 405) in the same body, and a bug as :func:`internal_error`."""

    @app.exception_handler(MatchError)
    async def _refused(_request: Request, exc: MatchError) -> JSONResponse:
        return refusal(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, exc: RequestValidationError) -> JSONResponse:
        keyed = validation_i18n(exc)
        return JSONResponse({"error": validation_message(exc), **({"i18n": keyed} if keyed else {})}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and page_asked(request):
            return RedirectResponse("/#" + quote(request.url.path, safe="/"), status_code=302)
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> JSONResponse:
        # only a bug outside security.Edge (which answers every other) gets here: Starlette
        # re-raises it to the server after this answer
        return internal_error(request.method, request.url.path, exc)


__all__ = ["ACT", "ApiError", "COMPANY_TEXT", "ERROR_TEXT", "ErrorBody", "STATUS", "TOKEN_OPTIONAL", "company_errors", "errors",
           "install", "page_asked", "refusal",
           "status_of", "validation_i18n", "validation_message"]
