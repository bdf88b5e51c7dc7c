"""The HTTP routes of people (issue 41): accounts, sign-in, guests, sessions, API tokens,
profiles, leaderboards and the computer levels' ratings. Only HTTP lives here: the rules are
:mod:`abstracta.people`'s, and its errors become statuses in one table (:data:`STATUS`).

Included by ``create_app`` (``app.state.people`` holds the :class:`~abstracta.people.People`).

Who a request is: the session cookie (``abstracta``; over HTTPS ``__Host-abstracta``, which
also has ``Secure``), else an API token sent as ``Authorization: Bearer abst_…`` (only where
its scope allows; managing the account needs the browser session). The cookie is ``HttpOnly``
and ``SameSite=Lax``; it is ``Secure`` when the request came over HTTPS — directly, or through
a proxy uvicorn trusts (``--forwarded-allow-ips``, whose ``X-Forwarded-Proto`` it reads) —
and not on plain ``http://127.0.0.1``, where a browser would drop a Secure cookie.

Cross-site request forgery: every state-changing request sends JSON (415 otherwise, so a form
on another site cannot), a browser's request from another origin is refused (403,
``security.OriginCheck``) and a foreign ``Host`` too (400); and ``SameSite=Lax`` keeps the
cookie off other sites' requests in the first place.
"""

from __future__ import annotations

import functools
import json
from typing import Annotated, Any, Callable, Coroutine

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ..core.registry import load_game, registered_games
from ..people import People, Principal
from ..people import errors as pe
from ..people.credentials import is_api_token
from ..people.pools import Pool, parse_key, pools_of, variant_id
from ..people.standings import pools_by_key
from ..people.values import SCOPES

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


router = APIRouter(route_class=PeopleRoute, tags=["people"])


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


def scoped(scope: str) -> Callable[[Request], Principal]:
    def dependency(request: Request) -> Principal:
        principal = signed_in(request)
        if not principal.may(scope):
            raise pe.Forbidden(f"this API token lacks the scope {scope!r}", key="people.error.scope", scope=scope)
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


# --- bodies ---------------------------------------------------------------------------------
class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(Body):
    username: StrictStr = Field(max_length=64, description="2–20 letters (a–z), digits, _ or -; any case")
    password: StrictStr = Field(max_length=1024, description="at least 8 characters")


class Recovery(Body):
    username: StrictStr = Field(max_length=64)
    code: StrictStr = Field(max_length=64, description="one of the recovery codes shown at sign-up")
    password: StrictStr = Field(max_length=1024, description="the new password (at least 8 characters)")


class NewName(Body):
    name: StrictStr = Field(max_length=64, description="2–20 letters (a–z), digits, _ or -")


class Password(Body):
    password: StrictStr = Field(max_length=1024, description="the account's password, typed again")


class PasswordChange(Body):
    current: StrictStr = Field(max_length=1024)
    new: StrictStr = Field(max_length=1024, description="at least 8 characters")


class TokenRequest(Body):
    description: StrictStr = Field(max_length=60, description="what the token is for (1–60 characters)")
    scopes: list[StrictStr] = Field(max_length=len(SCOPES), description="some of: " + ", ".join(
        f"{k} ({v})" for k, v in SCOPES.items()))


# --- signing up, in and out -------------------------------------------------------------------
@router.post("/api/accounts", status_code=201, summary="Sign up: an account, its session cookie and recovery codes",
             responses=answers(403, 409, 415, 422, 429, 503))
def sign_up(body: Credentials, request: Request, response: Response, current: Anyone) -> dict[str, Any]:
    """A guest signing up keeps its games and seats: the guest becomes the account. The
    recovery codes are shown this once (each signs in once with a new password)."""
    ip, agent = client(request)
    guest = current if current is not None and current.person.kind == "guest" and current.by_session else None
    started = people_of(request).accounts.sign_up(body.username, body.password, ip, agent, guest=guest)
    set_session(response, request, started.secret)
    return {**person_json(started.principal), "recovery_codes": list(started.recovery_codes)}


@router.post("/api/session", summary="Sign in: a session cookie", responses=answers(401, 403, 415, 422, 429, 503))
def sign_in(body: Credentials, request: Request, response: Response, current: Anyone) -> dict[str, Any]:
    """A wrong name and a wrong password get the same 401; more than 10 wrong attempts for one
    account within a minute are 429 (and so is the next, right or wrong, until the minute
    has passed)."""
    ip, agent = client(request)
    started = people_of(request).accounts.sign_in(body.username, body.password, ip, agent,
                                                  replacing=current if current is not None and current.by_session else None)
    set_session(response, request, started.secret)
    return person_json(started.principal)


@router.post("/api/accounts/recover", summary="Sign in with a recovery code, setting a new password",
             responses=answers(401, 403, 415, 422, 429, 503))
def recover(body: Recovery, request: Request, response: Response, current: Anyone) -> dict[str, Any]:
    ip, agent = client(request)
    started = people_of(request).accounts.recover(body.username, body.code, body.password, ip, agent,
                                                  replacing=current if current is not None and current.by_session else None)
    set_session(response, request, started.secret)
    return person_json(started.principal)


@router.delete("/api/session", status_code=204, summary="Sign out (this browser)", responses=answers(403, 415, 503))
def sign_out(request: Request, current: Anyone) -> Response:
    if current is not None:
        people_of(request).sessions.sign_out(current)
    response = Response(status_code=204)
    clear_session(response, request)
    return response


@router.post("/api/guests", status_code=201, summary="Play as a guest: a generated name and its session cookie",
             responses=answers(403, 415, 429, 503))
def start_guest(request: Request, response: Response, current: Anyone) -> dict[str, Any]:
    """A browser already signed in (guest or account) gets its own person back (200)."""
    if current is not None and current.by_session:
        response.status_code = 200
        return person_json(current)
    ip, agent = client(request)
    started = people_of(request).sessions.start_guest(ip, agent)
    set_session(response, request, started.secret)
    return person_json(started.principal)


# --- me -------------------------------------------------------------------------------------
@router.get("/api/me", summary="Who this browser (or API token) is: kind and name, or nobody",
            responses=answers(503))
def me(current: Anyone) -> dict[str, Any]:
    return person_json(current)


@router.put("/api/me/name", summary="Change a guest's name (an account keeps its username)",
            responses=answers(401, 403, 409, 415, 422, 503))
def rename(body: NewName, request: Request, current: Session) -> dict[str, Any]:
    person = people_of(request).sessions.rename_guest(current, body.name)
    request.app.state.service.owners.forget_names()
    return person_json(Principal(person, session_id=current.session_id))


@router.get("/api/me/sessions", summary="Your sessions (browsers signed in), the most recently used first",
            responses=answers(401, 403, 503))
def list_sessions(request: Request, current: Session) -> list[dict[str, Any]]:
    return [{"id": s.id, "created": s.created_at.isoformat(), "last_seen": s.last_seen_at.isoformat(),
             "user_agent": s.user_agent, "ip": s.ip, "current": s.current}
            for s in people_of(request).sessions.sessions_of(current)]


@router.delete("/api/me/sessions/{session_id}", status_code=204, summary="End one of your sessions",
               responses=answers(401, 403, 404, 415, 422, 503))
def end_session(session_id: str, request: Request, current: Session) -> Response:
    people_of(request).sessions.end(current, session_id)
    response = Response(status_code=204)
    if session_id == current.session_id:
        clear_session(response, request)
    return response


@router.delete("/api/me/sessions", summary="End every session but this one", responses=answers(401, 403, 415, 503))
def end_other_sessions(request: Request, current: Session) -> dict[str, int]:
    return {"ended": people_of(request).sessions.end_all(current, keep_current=True)}


@router.get("/api/me/tokens", summary="Your personal API tokens (never the tokens themselves)",
            responses=answers(401, 403, 503))
def list_tokens(request: Request, current: Session) -> list[dict[str, Any]]:
    return [token_json(t) for t in people_of(request).sessions.tokens_of(current)]


def token_json(t: Any) -> dict[str, Any]:
    return {"id": t.id, "description": t.description, "scopes": list(t.scopes), "hint": t.hint,
            "created": t.created_at.isoformat(), "last_used": t.last_used_at.isoformat() if t.last_used_at else None}


@router.post("/api/me/tokens", status_code=201, summary="A new personal API token (shown this once)",
             responses=answers(401, 403, 409, 415, 422, 503))
def create_token(body: TokenRequest, request: Request, current: Session) -> dict[str, Any]:
    """Send it as ``Authorization: Bearer abst_…``; it acts for you within its scopes."""
    made = people_of(request).sessions.create_token(current, body.description, body.scopes)
    return {**token_json(made.info), "token": made.token}


@router.delete("/api/me/tokens/{token_id}", status_code=204, summary="Revoke an API token",
               responses=answers(401, 403, 404, 415, 422, 503))
def revoke_token(token_id: str, request: Request, current: Annotated[Principal, Depends(signed_in)]) -> Response:
    people_of(request).sessions.revoke_token(current, token_id)
    return Response(status_code=204)


@router.post("/api/me/password", status_code=204, summary="Change your password (every other session ends)",
             responses=answers(401, 403, 409, 415, 422, 429, 503))
def change_password(body: PasswordChange, request: Request, current: Session) -> Response:
    people_of(request).accounts.change_password(current, body.current, body.new)
    return Response(status_code=204)


@router.post("/api/me/recovery-codes", status_code=201, summary="New recovery codes (shown this once; the old ones stop)",
             responses=answers(401, 403, 409, 415, 422, 429, 503))
def new_codes(body: Password, request: Request, current: Session) -> dict[str, Any]:
    return {"recovery_codes": list(people_of(request).accounts.new_recovery_codes(current, body.password))}


@router.get("/api/me/recovery-codes", summary="How many recovery codes are left", responses=answers(401, 403, 503))
def codes_left(request: Request, current: Session) -> dict[str, int]:
    return {"left": people_of(request).accounts.recovery_codes_left(current)}


@router.get("/api/me/export", summary="Everything kept of you, as JSON", responses=answers(401, 403, 503))
def export(request: Request, current: Reader) -> Response:
    data = people_of(request).accounts.export(current)
    name = current.person.name or "person"
    return Response(json.dumps(data, indent=1), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="abstracta-{name}.json"'})


@router.delete("/api/me", status_code=204, summary="Delete your account (your games stay, under \"deleted player\")",
               responses=answers(401, 403, 409, 415, 422, 429, 503))
def delete_account(body: Password, request: Request, current: Session) -> Response:
    people_of(request).accounts.delete(current, body.password)
    # "deleted player" at once on this process's boards, not NAMES_SECONDS later
    request.app.state.service.owners.forget_names()
    response = Response(status_code=204)
    clear_session(response, request)
    return response


# --- players, leaderboards, levels ------------------------------------------------------------
def all_pools() -> dict[str, Pool]:
    """Every pool of every registered game (its declared variants × speeds)."""
    return _pools(tuple(registered_games()))


@functools.lru_cache(maxsize=4)
def _pools(names: tuple[str, ...]) -> dict[str, Pool]:
    pools: dict[str, Pool] = {}
    for name in names:
        try:
            pools.update(pools_by_key(pools_of(load_game(name))))
        except Exception:  # noqa: BLE001 - a plug-in that does not load has no pools
            continue
    return pools


@router.get("/api/players/{username}", summary="A player's profile: ratings per pool, history, results, games",
            responses=answers(404, 422, 503))
def player(username: str, request: Request) -> dict[str, Any]:
    """``ratings``: ``{pool: {rating, rd, games, provisional, wins, draws, losses, game,
    variant, speed, label_key}}`` with pools ``<game>.<variant>.<speed>``; ``history``: per
    pool ``[{at, rating, rd}]``; ``results``: per game; ``recent_games`` (finished: ``{id,
    game, outcome, rated, rating_change, opponents, players, …}``) and ``current_games`` (in
    play: ``{id, seats, opponents, game, players, status}``); ``opponents``: the other people
    seated (``{seat, name, kind}``), ``players``: each seat's ``human`` or ``level:N`` (the
    computer), each game a link to its replay (``#/match/<id>``)."""
    profile = people_of(request).standings.profile(username, all_pools())
    games = profile["recent_games"] + profile["current_games"]
    about = request.app.state.service.seats.about([g["id"] for g in games]) if games else {}
    for entry in games:
        known = about.get(entry["id"], {})
        entry.setdefault("game", known.get("game"))
        entry["players"] = known.get("players", [])
        entry["status"] = known.get("status", "over" if "outcome" in entry else None)
        entry["options"] = known.get("options", {})
    # a game deleted since is no current game (its seats were given up; a row may lag)
    profile["current_games"] = [g for g in profile["current_games"] if g["id"] in about and g["status"] == "playing"]
    return profile


@router.get("/api/leaderboards", summary="The pools: every game variant × speed, with how many are rated in each",
            responses=answers(503))
def leaderboards(request: Request) -> list[dict[str, Any]]:
    rated = people_of(request).standings.rated_pools()
    return [{"pool": key, "game": p.game, "variant": p.variant, "speed": p.speed, "label_key": p.label_key,
             "label": p.label, "players": rated.get(key, 0)} for key, p in all_pools().items()]


@router.get("/api/leaderboards/{pool}", summary="A pool's top 50 (at least 10 rated games in the last 90 days)",
            responses=answers(404, 422, 503))
def leaderboard(pool: str, request: Request) -> dict[str, Any]:
    try:
        parse_key(pool)
    except ValueError:
        raise pe.UnknownPerson(f"no pool {pool[:80]!r}", key="people.error.no_pool") from None
    known = all_pools().get(pool)
    if known is None:
        raise pe.UnknownPerson(f"no pool {pool[:80]!r}", key="people.error.no_pool")
    return {"pool": pool, "game": known.game, "variant": known.variant, "speed": known.speed,
            "label_key": known.label_key, "label": known.label,
            "players": people_of(request).standings.leaderboard(pool)}


@router.get("/api/levels", summary="Each computer level's approximate rating, per game variant",
            responses=answers(503))
def level_ratings(request: Request) -> dict[str, list[dict[str, Any]]]:
    """``{<game>.<variant>: [{level, rating, rd, ladder, games}]}``: from the level ladder
    (levels whose bot changed since it was measured have no ladder figure) and people's
    results against the levels."""
    from ..ai.levels import level_fingerprint

    out: dict[str, list[dict[str, Any]]] = {}
    for name in registered_games():
        try:
            game = load_game(name)
            variants = [(variant_id(name, v), load_game(name, **v.options)) for v in game.description.variants]
        except Exception:  # noqa: BLE001 - a plug-in that does not load has no levels to show
            continue
        for vid, instance in variants:
            figures = people_of(request).standings.level_ratings(
                f"{name}.{vid}", instance.description.level_numbers,  # the levels it declares
                fingerprint=lambda n, g=instance: level_fingerprint(g, n))
            out[f"{name}.{vid}"] = [{"level": f.level, "rating": round(f.rating), "rd": round(f.deviation),
                                     "ladder": round(f.ladder) if f.ladder is not None else None, "games": f.games}
                                    for f in figures]
    return out


@router.get("/api/levels/{game}", summary="The computer levels' approximate ratings for one game's options",
            responses=answers(404, 422, 503))
def game_level_ratings(game: str, request: Request) -> dict[str, Any]:
    """Query parameters are the game's options (as ``GET /api/games/{name}``): the declared
    variant they make (``family``: ``<game>.<variant>``, null when they make none, which a
    rated game needs) and its levels' figures, as ``GET /api/levels`` gives them (the new-game
    form's "Level 4 ≈ 1650")."""
    from ..ai.levels import level_fingerprint
    from ..core.errors import AbstractaError, UnknownGameError

    options = {k: v for k, v in request.query_params.items() if k != "lang"}
    try:
        instance = load_game(game, **options)
    except UnknownGameError:
        raise pe.UnknownPerson(f"no game {game[:64]!r}", key="people.error.no_game") from None
    except AbstractaError as exc:
        raise pe.InvalidInput(str(exc)[:200]) from None
    variant = instance.description.variant_of(instance.options)
    if variant is None:
        return {"family": None, "levels": []}
    family = f"{game}.{variant_id(game, variant)}"
    figures = people_of(request).standings.level_ratings(family, instance.description.level_numbers,
                                                         fingerprint=lambda n: level_fingerprint(instance, n))
    return {"family": family, "levels": [{"level": f.level, "rating": round(f.rating), "rd": round(f.deviation),
                                          "ladder": round(f.ladder) if f.ladder is not None else None,
                                          "games": f.games} for f in figures]}


__all__ = ["COOKIE", "SECURE_COOKIE", "router", "who"]
