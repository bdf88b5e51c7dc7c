"""The HTTP routes of the lobby (issue 42): seeks, quick pairing, challenges, blocks, and the
lobby's WebSocket. Only HTTP lives here: the rules are :mod:`abstracta.lobby`'s, and its
refusals become statuses in one table (:data:`STATUS`). :func:`install` wires the lobby, the
presence and the round concerns (``rounds.py``) into the app: one line in ``create_app``.

Every act needs a person: the session cookie (a guest's or an account's: ``POST /api/guests``
makes a guest), or an API token with the ``lobby`` scope. Reading the open seeks needs nobody.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Annotated, Any, Callable, Coroutine

from fastapi import APIRouter, Depends, FastAPI, Request, Response, WebSocket
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from ..lobby import Lobby
from ..lobby import errors as le
from ..lobby.controls import GameSpec
from ..people import Principal
from ..people import errors as pe
from . import people_routes, round_routes
from .fields import Integer
from .owners import changed_options
from .pairing import start_game
from .presence import Presence
from .rounds import Rounds

log = logging.getLogger("abstracta.server")

#: the HTTP status of each kind of the lobby's refusals (subclasses: their nearest listed base)
STATUS: dict[type[le.LobbyError], int] = {
    le.InvalidInput: 422, le.NotSignedIn: 401, le.Refused: 403, le.Gone: 410, le.Unknown: 404, le.Conflict: 409,
}
#: the hub's key of everyone's list of seeks, and of one person's lobby
LOBBY_KEY, PERSON_KEY = "lobby", "person:{}"
#: the fan-out's topic of the lobby's changes (to every process of a deployment)
LOBBY_TOPIC = "lobby"
#: the hub's timer key of the lobby's sweep (expiries, quick pairing)
SWEEP_KEY = "lobby:sweep"
#: seconds between sweeps while someone waits in quick pairing (its range widens with time)
QUICK_TICK = 1.0


def status_of(exc: le.LobbyError) -> int:
    for kind in type(exc).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    return 400


class LobbyRoute(APIRoute):
    """A route whose lobby and people refusals become their statuses; answers never cached."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route(request: Request) -> Response:
            try:
                response = await handler(request)
            except le.LobbyError as exc:
                body: dict[str, Any] = {"error": exc.message}
                if exc.i18n:
                    body["i18n"] = exc.i18n
                return JSONResponse(body, status_code=status_of(exc), headers={"Cache-Control": "no-store"})
            except pe.PeopleError as exc:
                return people_routes.refusal(exc)
            response.headers.setdefault("Cache-Control", "no-store")
            return response

        return route


router = APIRouter(route_class=LobbyRoute, tags=["lobby"])

ANSWERS = {code: {"description": text, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
           for code, text in {400: "Invalid host header (not a name this server serves)",
                              401: "not signed in (no session cookie or API token)",
                              403: "not allowed between these players (one blocks the other), a guest asking for "
                                   "a rated game, another origin's page, or an API token without the 'lobby' scope",
                              404: "no such seek, challenge or player", 409: "not possible now (the message says why)",
                              410: "the seek or challenge was taken, withdrawn, answered or has expired",
                              413: "request body too large", 415: "a body that is not JSON",
                              422: "a game, options, clock, rating range or name that breaks its rule, or a "
                                   "malformed body",
                              429: "too many requests: wait Retry-After seconds",
                              503: "the database refused: nothing was changed; try again later"}.items()}


def answers(*codes: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` of a route answering ``codes`` besides its success; every route may also
    answer 400 (a foreign Host), 422 and 503."""
    out: dict[int | str, dict[str, Any]] = {code: ANSWERS[code] for code in sorted({400, 422, 503, *codes})}
    for code in (429, 503):
        if code in out:
            out[code] = {**out[code], "headers": {"Retry-After": {"description": "seconds to wait",
                                                                  "schema": {"type": "integer"}}}}
    return out


def lobby_of(request: Request | WebSocket) -> Lobby:
    return request.app.state.lobby


Person = Annotated[Principal, Depends(people_routes.scoped("lobby"))]


def seen(request: Request, principal: Principal) -> None:
    """A request of the person is a sign of life (their seeks stay listed)."""
    request.app.state.presence.seen(person=principal.person.id)


# --- bodies -------------------------------------------------------------------------------------
class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


CLOCK_TEXT = ("the time control: {'initial': seconds, 'increment': seconds} (¼–180 minutes, 0–180 s), "
              "{'per_turn': seconds} (1–14 whole days), or null (none)")


class GameBody(Body):
    game: str = Field(max_length=64, description="registry name (GET /api/games); a game of two players")
    options: dict[str, Any] = Field(default_factory=dict, description="rules options, as for POST /api/matches")
    clock: dict[str, Any] | None = Field(default=None, description=CLOCK_TEXT)
    rated: StrictBool = Field(default=False, description="rated (accounts only; options that make a declared "
                                                         "variant) or casual")


class SeekBody(GameBody):
    rating_range: list[Integer | None] | None = Field(default=None, min_length=2, max_length=2, description=(
        "[low, high]: only players rated within it (in this game's pool) may take it; null bounds: open"))
    seat: Integer | None = Field(default=None, description="the seat you want: 0 (the first to move), 1, or null (either)")


class ChallengeBody(GameBody):
    to: str = Field(max_length=64, description="the challenged player's name")
    seat: Integer | None = Field(default=None, description="your seat: 0, 1, or null (either)")


class NameBody(Body):
    name: str = Field(max_length=64, description="a player's name")


def started_answer(request: Request, principal: Principal, match_id: str) -> dict[str, Any]:
    """``{"id": the match, "my_seats", "path"}``: the seats are the person's (seated as the
    seats module seats people), held by their session wherever they sign in: no token."""
    match = request.app.state.service.current(match_id)
    seats = sorted(seat for seat, person in match.people.items() if person == principal.person.id)
    return {"id": match_id, "my_seats": seats, "path": f"/#/match/{match_id}"}


# --- seeks -------------------------------------------------------------------------------------
@router.get("/api/seeks", summary="The open seeks (those of players you block, or who block you, left out)",
            responses=answers())
def list_seeks(request: Request) -> list[dict[str, Any]]:
    """Each: ``{id, player, rating, provisional, game, options, clock, rated, rating_range, seat,
    created, mine, acceptable, refusal}`` (``refusal``: why you may not take it: ``own``,
    ``range``, ``rated_guest``, ``signed_out``)."""
    principal = people_routes.who(request)
    return lobby_of(request).seeks.listed(principal.person if principal else None)


@router.post("/api/seeks", status_code=201, summary="Seek a game: listed in the lobby until someone takes it",
             responses=answers(401, 403, 409, 413, 415, 429))
def create_seek(body: SeekBody, request: Request, principal: Person) -> dict[str, Any]:
    """Listed until taken, withdrawn (DELETE), 60 s after your last connection closed (the lobby
    page, a game page), or 10 minutes. Answers the seek (``id``)."""
    seen(request, principal)
    return lobby_of(request).seeks.open(principal.person, body.game, body.options, body.clock, body.rated,
                                        body.rating_range, body.seat)


@router.delete("/api/seeks/{seek_id}", status_code=204, summary="Withdraw your seek", responses=answers(401, 404))
def delete_seek(seek_id: str, request: Request, principal: Person) -> Response:
    lobby_of(request).seeks.cancel(principal.person, seek_id)
    return Response(status_code=204)


@router.post("/api/seeks/{seek_id}/accept", status_code=201, summary="Take a seek: the game starts, both seated",
             responses=answers(401, 403, 404, 409, 410, 413, 415, 429))
def accept_seek(seek_id: str, request: Request, principal: Person) -> dict[str, Any]:
    """``{"id": the new match, "my_seats", "path"}``; the seeker is taken there by the lobby's
    WebSocket (or finds it in ``GET /api/matches`` with their cookie). Your own seek: 409."""
    seen(request, principal)
    match_id = lobby_of(request).seeks.take(principal.person, seek_id)
    return started_answer(request, principal, match_id)


# --- quick pairing -----------------------------------------------------------------------------
@router.post("/api/quick", summary="Play now: wait to be paired for this game and clock", responses=answers(401, 403, 413, 415, 429))
def quick_wait(body: GameBody, request: Request, principal: Person) -> dict[str, Any]:
    """Your wait: ``{game, options, clock, rated, since, computer_at, computer, match}`` —
    ``match`` once paired (the lobby's WebSocket takes you there), ``computer: {level}`` once
    you have waited 30 s alone (``POST /api/quick/computer`` plays it)."""
    seen(request, principal)
    lobby = lobby_of(request)
    state = lobby.quick.wait(principal.person, body.game, body.options, body.clock, body.rated)
    request.app.state.arm_sweep()
    return state


@router.get("/api/quick", summary="Your wait in quick pairing (null: none)", responses=answers(401))
def quick_state(request: Request, principal: Person) -> dict[str, Any] | None:
    return lobby_of(request).quick.state(principal.person)


@router.delete("/api/quick", status_code=204, summary="Stop waiting", responses=answers(401))
def quick_leave(request: Request, principal: Person) -> Response:
    lobby_of(request).quick.leave(principal.person)
    return Response(status_code=204)


@router.post("/api/quick/computer", status_code=201, summary="Play the computer offered after 30 s alone",
             responses=answers(401, 404, 409, 413, 415, 429))
def quick_computer(request: Request, principal: Person) -> dict[str, Any]:
    match_id = lobby_of(request).quick.play_computer(principal.person)
    return started_answer(request, principal, match_id)


# --- challenges --------------------------------------------------------------------------------
@router.get("/api/challenges", summary="Challenges to you (in) and yours (out)", responses=answers(401))
def list_challenges(request: Request, principal: Person) -> dict[str, list[dict[str, Any]]]:
    """Each: ``{id, from, to, game, options, clock, rated, seat, status, match, mine, rating,
    provisional, created, expires}`` (``status``: open, accepted, declined, cancelled, expired)."""
    return lobby_of(request).challenges.listed(principal.person)


@router.post("/api/challenges", status_code=201, summary="Challenge a player by name",
             responses=answers(401, 403, 404, 409, 413, 415, 429))
def create_challenge(body: ChallengeBody, request: Request, principal: Person) -> dict[str, Any]:
    seen(request, principal)
    return lobby_of(request).challenges.send(principal.person, body.to, body.game, body.options, body.clock,
                                             body.rated, body.seat)


@router.post("/api/challenges/{challenge_id}/accept", status_code=201, summary="Accept a challenge: the game starts",
             responses=answers(401, 403, 404, 410, 413, 415, 429))
def accept_challenge(challenge_id: str, request: Request, principal: Person) -> dict[str, Any]:
    answer = lobby_of(request).challenges.answer(principal.person, challenge_id, True)
    return started_answer(request, principal, answer["match"])


@router.post("/api/challenges/{challenge_id}/decline", summary="Decline a challenge",
             responses=answers(401, 404, 410, 413, 415, 429))
def decline_challenge(challenge_id: str, request: Request, principal: Person) -> dict[str, Any]:
    return lobby_of(request).challenges.answer(principal.person, challenge_id, False)


@router.delete("/api/challenges/{challenge_id}", status_code=204, summary="Withdraw your challenge",
               responses=answers(401, 404))
def cancel_challenge(challenge_id: str, request: Request, principal: Person) -> Response:
    lobby_of(request).challenges.cancel(principal.person, challenge_id)
    return Response(status_code=204)


# --- blocks ------------------------------------------------------------------------------------
@router.get("/api/blocks", summary="The players you block", responses=answers(401))
def list_blocks(request: Request, principal: Person) -> list[dict[str, Any]]:
    return lobby_of(request).blocks.listed(principal.person)


@router.post("/api/blocks", status_code=201, summary="Block a player: no challenges, chat or pairing between you",
             responses=answers(401, 404, 409, 413, 415))
def block(body: NameBody, request: Request, principal: Person) -> dict[str, Any]:
    return lobby_of(request).blocks.block(principal.person, body.name)


@router.delete("/api/blocks/{name}", status_code=204, summary="Unblock a player", responses=answers(401, 404, 422))
def unblock(name: str, request: Request, principal: Person) -> Response:
    lobby_of(request).blocks.unblock(principal.person, name)
    return Response(status_code=204)


# --- the lobby as a whole ------------------------------------------------------------------------
def snapshot(app: FastAPI, principal: Principal | None) -> dict[str, Any]:
    """Everything the lobby page shows one person: ``{"me", "seeks", "challenges", "quick",
    "started", "waiting"}`` (``started``: the games the lobby started for them in the last two
    minutes, newest first: a browser goes to the newest it has not been to)."""
    lobby: Lobby = app.state.lobby
    person = principal.person if principal else None
    return {"me": people_routes.person_json(principal),
            "seeks": lobby.seeks.listed(person),
            "challenges": lobby.challenges.listed(person) if person else {"in": [], "out": []},
            "quick": lobby.quick.state(person) if person else None,
            "started": lobby.started(person.id) if person else [],
            "waiting": lobby.quick.waiting()}


@router.get("/api/lobby", summary="The lobby as one person sees it (what its WebSocket pushes)", responses=answers())
def get_lobby(request: Request) -> dict[str, Any]:
    return snapshot(request.app, people_routes.who(request))


@router.websocket("/api/lobby/ws")
async def lobby_socket(ws: WebSocket) -> None:
    """The lobby, live: ``{"lobby": <GET /api/lobby>}`` each time it changes for this person
    (the session cookie says who). While it is open the person counts as connected: their
    seeks stay listed, their quick pairing wait goes on. Client frames: short text, ignored."""
    await ws.accept()
    app = ws.app
    try:
        principal = await asyncio.to_thread(people_routes.who, ws)
    except pe.PeopleError:
        principal = None
    hub, presence = app.state.service.hub, app.state.presence
    keys = [LOBBY_KEY] + ([PERSON_KEY.format(principal.person.id)] if principal else [])
    closed = asyncio.Event()

    async def receiver() -> None:
        try:
            while True:
                message = await ws.receive()
                if message.get("type") == "websocket.disconnect" or message.get("bytes") is not None \
                        or len(message.get("text") or "") > 100:
                    break
        except Exception:  # noqa: BLE001 - any failure ends the connection
            pass
        finally:
            closed.set()

    reader = asyncio.create_task(receiver())
    last = None
    try:
        with contextlib.ExitStack() as stack:
            events = [stack.enter_context(hub.subscribe(key)) for key in keys]
            stack.enter_context(presence.connected(None, person=principal.person.id if principal else None))
            while not closed.is_set() and not app.state.service.closed:
                waiters = [asyncio.create_task(e.wait()) for e in events]
                done, _ = await asyncio.wait({*waiters, reader}, return_when=asyncio.FIRST_COMPLETED)
                for w in waiters:
                    w.cancel()
                if reader in done:
                    break
                for e in events:
                    e.clear()
                data = await asyncio.to_thread(snapshot, app, principal)
                text = json.dumps({"lobby": data})
                if text != last:
                    await ws.send_text(text)
                    last = text
    except Exception as exc:  # noqa: BLE001 - a client gone, or a bug (logged by type)
        if ws.client_state.name == "CONNECTED" and ws.application_state.name == "CONNECTED":
            log.error("internal error %s in the lobby's live updates", type(exc).__name__)
    finally:
        reader.cancel()
        if ws.client_state.name == "CONNECTED":
            with contextlib.suppress(Exception):
                await ws.close(code=1001)


# --- wiring ------------------------------------------------------------------------------------
def install(app: FastAPI) -> None:
    """Wire the lobby into ``app`` (after ``app.state.service`` and ``app.state.people``): the
    presence, the lobby, the round concerns reacting to every change, both routers, and the
    lobby's pushes and sweep (expired seeks, quick pairing) on the service's hub."""
    service, people = app.state.service, app.state.people
    presence = Presence(now=service.kernel.now)
    hub = service.hub

    def start(spec: GameSpec, players: list[str], seated: dict[int, int], source: str) -> str:
        return start_game(service, spec, players, seated).id

    # a rated game's rules are the seats' (owners.py): checked when a seek, a wait or a
    # challenge is made, and again when its match is created
    lobby = Lobby(people, start, gone_since=presence.person_gone_since, changed_options=changed_options)
    rounds = Rounds(service, presence, lobby)
    app.state.presence, app.state.lobby, app.state.rounds = presence, lobby, rounds
    social = getattr(app.state, "social", None)
    if social is not None:  # a block: no chat from the person blocked (issue 42 §2)
        social.chat.hidden = lobby.blocks.blocked_by
    service.kernel.react("rounds", rounds.react)
    # a seat's connection opened or closed: its match's sockets send who is there
    def connection(match: str | None, person: int | None) -> None:
        if match is not None:
            hub.publish(match)
        if person is not None:  # their seeks expire 60 s after their last connection closed
            arm(1.0)

    presence.listeners.append(connection)
    armed: dict[str, float | None] = {"due": None}  # when the sweep's timer fires (None: not armed)

    def sweep(_key: str) -> None:
        armed["due"] = None
        if service.closed:
            return
        soonest = lobby.seeks.sweep()
        lobby.challenges.expire()
        lobby.quick.pair()
        waits = [QUICK_TICK] if lobby.quick.waiting() else []
        delays = [d for d in [soonest, *waits] if d is not None]
        if delays:
            arm(min(delays))

    def arm(delay: float) -> None:
        """The sweep runs in ``delay`` seconds, unless it runs sooner already."""
        due = service.kernel.now() + delay
        if armed["due"] is None or due < armed["due"]:
            armed["due"] = due
            hub.set_timer(SWEEP_KEY, delay + 0.05, sweep)

    # a change of the lobby goes to every process of a deployment (the fan-out, fanout.py): each
    # wakes its own lobby sockets, which read the lobby afresh from the database
    fanout = getattr(app.state, "fanout", None)

    def wake(message: dict[str, Any]) -> None:
        people_ids = message.get("people")
        if people_ids is None:
            hub.publish(LOBBY_KEY)
            arm(1.0)
        else:
            for pid in people_ids:
                hub.publish(PERSON_KEY.format(pid))

    def gap() -> None:  # messages may have been missed: every lobby socket reads afresh
        for key in hub.subscribed():
            if key == LOBBY_KEY or key.startswith("person:"):
                hub.publish(key)

    def changed(people_ids: Any) -> None:
        message = {"people": None if people_ids is None else [int(p) for p in people_ids][:200]}
        if fanout is None:
            wake(message)
        else:
            fanout.publish(LOBBY_TOPIC, message)

    if fanout is not None:
        fanout.subscribe(LOBBY_TOPIC, wake, gap)
    lobby.listeners.append(changed)
    app.state.arm_sweep = lambda: arm(QUICK_TICK)
    app.include_router(router)
    app.include_router(round_routes.router)


__all__ = ["LOBBY_KEY", "PERSON_KEY", "install", "router", "snapshot"]
