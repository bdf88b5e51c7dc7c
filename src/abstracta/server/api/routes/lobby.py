"""The routes of the lobby (issue 42): seeks, quick pairing, challenges, blocks, the lobby as one
person sees it, and the lobby's WebSocket. Only HTTP lives here: the rules are
:mod:`abstracta.lobby`'s, and its refusals become statuses in one table (:data:`STATUS`, applied
by :class:`LobbyRoute`); the wiring is :mod:`abstracta.server.lobby_service`.

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

from ....lobby import Lobby
from ....lobby import errors as le
from ....people import Principal
from ....people import errors as pe
from ...lobby_service import LOBBY_KEY, PERSON_KEY, TURNS_KEY
from .. import people
from ..bodies import ChallengeBody, GameBody, NameBody, SeekBody
from ..models import (BlockInfo, Blocked, ChallengeAnswered, ChallengeInfo, Challenges, GameStarted, LobbyView, QuickWait,
                      SeekInfo)
from ..sockets import SESSION_ENDED, refuse

log = logging.getLogger("abstracta.server")

#: the HTTP status of each kind of the lobby's refusals (subclasses: their nearest listed base)
STATUS: dict[type[le.LobbyError], int] = {
    le.InvalidInput: 422, le.NotSignedIn: 401, le.Refused: 403, le.Gone: 410, le.Unknown: 404, le.Conflict: 409,
}


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
                return people.refusal(exc)
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


Person = Annotated[Principal, Depends(people.scoped("lobby"))]


def seen(request: Request, principal: Principal) -> None:
    """A request of the person is a sign of life (their seeks stay listed)."""
    request.app.state.presence.seen(person=principal.person.id)


def started_answer(request: Request, principal: Principal, match_id: str) -> dict[str, Any]:
    """``{"id": the match, "my_seats", "path"}``: the seats are the person's (seated as the
    seats module seats people), held by their session wherever they sign in: no token."""
    match = request.app.state.service.current(match_id)
    seats = sorted(seat for seat, person in match.people.items() if person == principal.person.id)
    return {"id": match_id, "my_seats": seats, "path": f"/#/match/{match_id}"}


# --- seeks -------------------------------------------------------------------------------------
@router.get("/api/seeks", summary="The open seeks (those of players you block, or who block you, left out)",
            response_model=list[SeekInfo], responses=answers())
def list_seeks(request: Request) -> list[dict[str, Any]]:
    """Each: ``{id, player, rating, provisional, game, options, clock, rated, rating_range, seat,
    created, mine, acceptable, refusal}`` (``rating``: the seeker's now; ``refusal``: why you may
    not take it: ``own``, ``range``, ``rated_guest``, ``signed_out``)."""
    principal = people.who(request)
    return lobby_of(request).seeks.listed(principal.person if principal else None)


@router.post("/api/seeks", status_code=201, summary="Seek a game: listed in the lobby until someone takes it",
             response_model=SeekInfo, responses=answers(401, 403, 409, 413, 415, 429))
def create_seek(body: SeekBody, request: Request, principal: Person) -> dict[str, Any]:
    """Listed until taken, withdrawn (DELETE), 60 s after your last connection closed (the lobby
    page, a game page), or 10 minutes; a live seek also once you start a live game (correspondence
    seeks stay). The same seek open already: 409. Answers the seek (``id``)."""
    seen(request, principal)
    return lobby_of(request).seeks.open(principal.person, body.game, body.options, body.control, body.rated,
                                        body.rating_range, body.seat)


@router.delete("/api/seeks/{seek_id}", status_code=204, summary="Withdraw your seek", responses=answers(401, 404))
def delete_seek(seek_id: str, request: Request, principal: Person) -> Response:
    lobby_of(request).seeks.cancel(principal.person, seek_id)
    return Response(status_code=204)


@router.post("/api/seeks/{seek_id}/accept", status_code=201, summary="Take a seek: the game starts, both seated",
             response_model=GameStarted, responses=answers(401, 403, 404, 409, 410, 413, 415, 429))
def accept_seek(seek_id: str, request: Request, principal: Person) -> dict[str, Any]:
    """``{"id": the new match, "my_seats", "path"}``; the seeker is taken there by the lobby's
    WebSocket (or finds it in ``GET /api/matches`` with their cookie). Your own seek: 409."""
    seen(request, principal)
    match_id = lobby_of(request).seeks.take(principal.person, seek_id)
    return started_answer(request, principal, match_id)


# --- quick pairing -----------------------------------------------------------------------------
@router.post("/api/quick", summary="Play now: wait to be paired for this game and clock", response_model=QuickWait, responses=answers(401, 403, 409, 413, 415, 429))
def quick_wait(body: GameBody, request: Request, principal: Person) -> dict[str, Any]:
    """Your wait: ``{game, options, clock, rated, since, computer_at, computer, match}`` —
    ``match`` once paired (the lobby's WebSocket takes you there), ``computer: {level}`` once
    you have waited 30 s alone (``POST /api/quick/computer`` plays it). 409 while a live game is
    being started for you (your wait just paired, your seek being taken): play that one first."""
    seen(request, principal)
    lobby = lobby_of(request)
    state = lobby.quick.wait(principal.person, body.game, body.options, body.control, body.rated)
    request.app.state.arm_sweep()
    return state


@router.get("/api/quick", summary="Your wait in quick pairing (null: none)", response_model=QuickWait | None, responses=answers(401))
def quick_state(request: Request, principal: Person) -> dict[str, Any] | None:
    return lobby_of(request).quick.state(principal.person)


@router.delete("/api/quick", status_code=204, summary="Stop waiting", responses=answers(401))
def quick_leave(request: Request, principal: Person) -> Response:
    lobby_of(request).quick.leave(principal.person)
    return Response(status_code=204)


@router.post("/api/quick/computer", status_code=201, summary="Play the computer offered after 30 s alone",
             response_model=GameStarted, responses=answers(401, 404, 409, 413, 415, 429))
def quick_computer(request: Request, principal: Person) -> dict[str, Any]:
    match_id = lobby_of(request).quick.play_computer(principal.person)
    return started_answer(request, principal, match_id)


# --- challenges --------------------------------------------------------------------------------
@router.get("/api/challenges", summary="Challenges to you (in) and yours (out)", response_model=Challenges, responses=answers(401))
def list_challenges(request: Request, principal: Person) -> dict[str, list[dict[str, Any]]]:
    """Each: ``{id, from, to, game, options, clock, rated, seat, status, match, mine, rating,
    provisional, created, expires}`` (``status``: open, accepted, declined, cancelled, expired)."""
    return lobby_of(request).challenges.listed(principal.person)


@router.post("/api/challenges", status_code=201, summary="Challenge a player by name",
             response_model=ChallengeInfo, responses=answers(401, 403, 404, 409, 413, 415, 429))
def create_challenge(body: ChallengeBody, request: Request, principal: Person) -> dict[str, Any]:
    seen(request, principal)
    return lobby_of(request).challenges.send(principal.person, body.to, body.game, body.options, body.control,
                                             body.rated, body.seat)


@router.post("/api/challenges/{challenge_id}/accept", status_code=201, summary="Accept a challenge: the game starts",
             response_model=GameStarted, responses=answers(401, 403, 404, 410, 413, 415, 429))
def accept_challenge(challenge_id: str, request: Request, principal: Person) -> dict[str, Any]:
    answer = lobby_of(request).challenges.answer(principal.person, challenge_id, True)
    return started_answer(request, principal, answer["match"])


@router.post("/api/challenges/{challenge_id}/decline", summary="Decline a challenge",
             response_model=ChallengeAnswered, responses=answers(401, 404, 410, 413, 415, 429))
def decline_challenge(challenge_id: str, request: Request, principal: Person) -> dict[str, Any]:
    return lobby_of(request).challenges.answer(principal.person, challenge_id, False)


@router.delete("/api/challenges/{challenge_id}", status_code=204, summary="Withdraw your challenge",
               responses=answers(401, 404))
def cancel_challenge(challenge_id: str, request: Request, principal: Person) -> Response:
    lobby_of(request).challenges.cancel(principal.person, challenge_id)
    return Response(status_code=204)


# --- blocks ------------------------------------------------------------------------------------
@router.get("/api/blocks", summary="The players you block", response_model=list[BlockInfo], responses=answers(401))
def list_blocks(request: Request, principal: Person) -> list[dict[str, Any]]:
    return lobby_of(request).blocks.listed(principal.person)


@router.post("/api/blocks", status_code=201, summary="Block a player: no challenges, chat or pairing between you",
             response_model=Blocked, responses=answers(401, 404, 409, 413, 415))
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
    return {"me": people.person_json(principal),
            "seeks": lobby.seeks.listed(person),
            "challenges": lobby.challenges.listed(person) if person else {"in": [], "out": []},
            "quick": lobby.quick.state(person) if person else None,
            "started": lobby.started(person.id) if person else [],
            "waiting": lobby.quick.waiting()}


@router.get("/api/lobby", summary="The lobby as one person sees it (what its WebSocket pushes)", response_model=LobbyView, response_model_exclude_unset=True, responses=answers(403))
def get_lobby(request: Request) -> dict[str, Any]:
    """Nobody signed in: the open seeks alone. An API token needs the ``lobby`` scope (403): the
    lobby shows its person's challenges, quick pairing and games started."""
    principal = people.who(request)
    if principal is not None:
        people.check_scope(principal, "lobby")
    return snapshot(request.app, principal)


#: the close code of a lobby or notices socket opened with an API token without the ``lobby``
#: scope: 4000 + the 403 its HTTP routes answer (as the match sockets' refusals, ``refusal_code``)
NO_SCOPE = 4403


async def signed_in_person(ws: WebSocket) -> tuple[Principal | None, bool]:
    """Accept a lobby or notices socket: the person of its handshake (None: nobody), and whether
    it stays open. A browser session may read the lobby, an API token only with the ``lobby``
    scope (what these sockets push is what ``GET /api/lobby`` and ``/api/challenges`` answer):
    without it the socket is closed at once (:data:`NO_SCOPE`) and False returned."""
    await ws.accept()
    try:
        principal = await asyncio.to_thread(people.who, ws)
    except pe.PeopleError:
        return None, True
    if principal is not None and not principal.may("lobby"):
        await refuse(ws, "this API token lacks the scope 'lobby'", NO_SCOPE)
        return principal, False
    return principal, True


async def listen(ws: WebSocket, closed: asyncio.Event) -> None:
    """Read what the client of a lobby or notices socket sends (nothing is expected) until it
    goes or sends anything but short text (at most 100 characters), then set ``closed``."""
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


@router.websocket("/api/lobby/ws")
async def lobby_socket(ws: WebSocket) -> None:
    """The lobby, live: ``{"lobby": <GET /api/lobby>}`` each time it changes for this person
    (the session cookie says who, or an API token with the ``lobby`` scope: without it the socket
    is closed at once, 4403). While it is open the person counts as connected: their
    seeks stay listed, their quick pairing wait goes on. Client frames: short text, ignored."""
    principal, allowed = await signed_in_person(ws)
    if not allowed:
        return
    app = ws.app
    hub, presence = app.state.service.hub, app.state.presence
    keys = [LOBBY_KEY] + ([PERSON_KEY.format(principal.person.id)] if principal else [])
    closed = asyncio.Event()
    reader = asyncio.create_task(listen(ws, closed))
    last = None
    watch = people.watch_signed_in(ws, principal.person.id) if principal is not None else None
    try:
        with contextlib.ExitStack() as stack:
            events = [stack.enter_context(hub.subscribe(key)) for key in keys]
            # an end of the person's session wakes the loop as a change of the lobby does
            events.append(stack.enter_context(people.woken_at_end(
                ws, principal.person.id if principal is not None else None, asyncio.Event())))
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
                if watch is not None and not await watch.still():
                    # the session ended since: this person's lobby no more (a browser reopens as it
                    # is now), closed as the game's and the room's sockets are
                    await refuse(ws, "your session has ended: sign in again", SESSION_ENDED)
                    return
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


def notices(app: FastAPI, principal: Principal, turns: int) -> dict[str, Any]:
    """What the header of every page shows one person: ``{"challenges": the open challenges to
    them, "started": the ids of the games the lobby started for them lately, "turns": a count
    that grows each time whose move it is may have changed in one of their games}``."""
    lobby: Lobby = app.state.lobby
    person = principal.person
    return {"challenges": [c for c in lobby.challenges.listed(person)["in"] if c.get("status") == "open"],
            "started": [g["id"] for g in lobby.started(person.id)], "turns": turns}


@router.websocket("/api/notices/ws")
async def notices_socket(ws: WebSocket) -> None:
    """A person's notices, on every page: ``{"notices": {challenges, started, turns}}`` at the
    start and each time it changes (the session cookie says who, or an API token with the
    ``lobby`` scope: without it closed at once, 4403; nobody signed in: closed at once, 1000).
    Woken only by that person's own news — a challenge, a game started for them, a move or an
    end in one of their games — never by the lobby's other changes, so thousands may be
    open; ``turns`` changing says "read your games again" (``GET /api/matches``). Unlike the
    lobby's socket it keeps no seek listed. Client frames: short text, ignored."""
    principal, allowed = await signed_in_person(ws)
    if not allowed:
        return
    app = ws.app
    closed = asyncio.Event()
    reader = asyncio.create_task(listen(ws, closed))
    try:
        if principal is None:  # nobody signed in (seat tokens only): nothing is addressed to this browser
            await ws.close(code=1000)
            return
        pid = principal.person.id
        hub, turns, last, data = app.state.service.hub, 0, None, None
        watch = people.watch_signed_in(ws, pid)
        with contextlib.ExitStack() as stack:
            lobby_event = stack.enter_context(hub.subscribe(PERSON_KEY.format(pid)))
            turns_event = stack.enter_context(hub.subscribe(TURNS_KEY.format(pid)))
            turns_event.clear()  # the first message says turns 0: the page has just read its games
            ended = stack.enter_context(people.woken_at_end(ws, pid, asyncio.Event()))
            events = [lobby_event, turns_event, ended]
            while not closed.is_set() and not app.state.service.closed:
                waiters = [asyncio.create_task(e.wait()) for e in events]
                done, _ = await asyncio.wait({*waiters, reader}, return_when=asyncio.FIRST_COMPLETED)
                for w in waiters:
                    w.cancel()
                if reader in done:
                    break
                if turns_event.is_set():
                    turns += 1
                # a move wakes its people: only the count changed, so the challenges and games
                # started last read are sent again with it (any other wake, a gap's too, reads afresh)
                turns_only = turns_event.is_set() and not lobby_event.is_set() and not ended.is_set()
                for e in events:
                    e.clear()
                if not await watch.still():
                    await refuse(ws, "your session has ended: sign in again", SESSION_ENDED)
                    return
                if turns_only and data is not None:
                    data = {**data, "turns": turns}
                else:
                    data = await asyncio.to_thread(notices, app, principal, turns)
                text = json.dumps({"notices": data})
                if text != last:
                    await ws.send_text(text)
                    last = text
    except Exception as exc:  # noqa: BLE001 - a client gone, or a bug (logged by type)
        if ws.client_state.name == "CONNECTED" and ws.application_state.name == "CONNECTED":
            log.error("internal error %s in the notices' live updates", type(exc).__name__)
    finally:
        reader.cancel()
        if ws.client_state.name == "CONNECTED":
            with contextlib.suppress(Exception):
                await ws.close(code=1001)


__all__ = ["STATUS", "LobbyRoute", "router"]
