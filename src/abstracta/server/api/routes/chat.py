"""The HTTP routes of a match's chat (issue 43 §2) and its room socket. Only HTTP here: the
rules are :mod:`abstracta.server.chat`'s; who is asking is :func:`.deps.who_acts`'s.

* ``POST /api/matches/{id}/chat`` ``{"text", "room"?}`` — 201 and the line. A seat (its token,
  or its person's session cookie) writes in the players' chat, anyone else signed in (a guest
  too) in the spectators'. The text is checked first: over 140 characters is 422 whatever else
  is wrong; then 404 (no match), 409 (no chat in this game), 401/403 (not allowed in that
  room), 429 (too fast, ``Retry-After``).
* ``GET /api/matches/{id}/chat?room=&after=`` — the lines the request may read.
* ``POST /api/matches/{id}/chat/{line}/report`` — 201 (kept for the operator), 200 if this
  reader had reported it already.
* ``WS /api/matches/{id}/room`` — the room: first message ``{"tokens": [...]}`` (as the match's
  socket; the session cookie comes with the handshake); then ``{"type": "room", …}`` (what
  ``GET …/chat`` answers, and ``watchers``), ``{"type": "lines", "lines": [...]}`` for each new
  line and ``{"type": "watchers", "watchers": n}`` when the number of spectators changes.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, Query, Request, Response, WebSocket, WebSocketDisconnect

from ...chat import LINE_ID_MAX, check_text
from ...errors import MatchError
from ...push import room_key
from ...matches import Holder
from ..bodies import ChatBody, Room
from ..deps import ChatTokens, acting_person, split_tokens, who_acts
from ..errors import company_errors
from ..models import ChatLine, ChatLines, Reported
from ..people import watch_signed_in, woken_at_end
from ..sockets import SESSION_ENDED, close, drain, refusal_code, refuse

router = APIRouter(tags=["chat"])

#: as the match's socket: the first message's longest text and how long it is waited for
WS_AUTH_LIMIT, WS_AUTH_SECONDS = 16_000, 10.0


def social(request: Any) -> Any:
    return request.app.state.social


@router.post("/api/matches/{match_id}/chat", status_code=201, response_model=ChatLine,
             responses=company_errors(401, 403, 404, 409, 413, 415, 422, 429, 503),
             summary="Write a line in a match's chat (a seat: the players'; anyone signed in: the spectators')")
def post_chat(match_id: str, body: ChatBody, request: Request, holder: ChatTokens) -> dict[str, Any]:
    check_text(body.text)  # first: a line too long is 422 whoever sends it and whatever the limits say
    speaker = who_acts(request, match_id, holder)
    return social(request).chat.post(match_id, speaker, body.room or
                                     ("players" if speaker.seats else "spectators"), body.text)


@router.get("/api/matches/{match_id}/chat", response_model=ChatLines, responses=company_errors(403, 404, 422, 503),
            summary="The lines of a match's chat this request may read")
def get_chat(match_id: str, request: Request, holder: ChatTokens,
             room: Room | None = Query(None, description="only this room (403 for the players' chat unless a seat)"),
             after: int = Query(0, ge=0, le=LINE_ID_MAX, description="only lines after this line id")) -> Response:
    speaker = who_acts(request, match_id, holder)
    answer = social(request).chat.read(match_id, speaker, room, after)
    return Response(json.dumps(answer), media_type="application/json", headers={"Cache-Control": "no-store"})


@router.post("/api/matches/{match_id}/chat/{line_id}/report", response_model=Reported, status_code=201,
             responses={200: {"model": Reported, "description": "reported already"},
                        **company_errors(401, 403, 404, 413, 415, 422, 503)},
             summary="Report a line to the server's operator")
def report_line(match_id: str, line_id: int, request: Request, response: Response,
                holder: ChatTokens) -> dict[str, Any]:
    speaker = who_acts(request, match_id, holder)
    fresh = social(request).chat.report(match_id, line_id, speaker)
    if not fresh:
        response.status_code = 200
    return {"reported": fresh}


@router.websocket("/api/matches/{match_id}/room")
async def room_socket(ws: WebSocket, match_id: str) -> None:
    """The match's room: its chat lines and how many watch it, as they change (see the
    module's docstring). Refusals close the socket with 4000 + the HTTP status (a token too long
    to be one: 4400, as 4401 is kept for an ended session)."""
    await ws.accept()
    try:
        first = await asyncio.wait_for(ws.receive(), timeout=WS_AUTH_SECONDS)
    except Exception:  # noqa: BLE001 - no first message in time, or the client went away
        await close(ws, 1008)
        return
    if first.get("type") == "websocket.disconnect":
        return
    tokens = None
    text = first.get("text")
    if text is not None and len(text) <= WS_AUTH_LIMIT:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            data = None
        if isinstance(data, dict) and isinstance(data.get("tokens"), list) and all(isinstance(t, str) for t in data["tokens"]):
            tokens = data["tokens"]
    if tokens is None:
        await refuse(ws, 'the first message must be {"tokens": [...]} (empty: a spectator)', 1008)
        return
    chat, hub = social(ws).chat, ws.app.state.service.hub
    try:
        holder = Holder(tuple(split_tokens(",".join(tokens))), await acting_person(ws, "chat"))
        speaker = await asyncio.to_thread(who_acts, ws, match_id, holder)
        room = await asyncio.to_thread(chat.read, match_id, speaker)
    except MatchError as exc:
        await refuse(ws, exc.message, refusal_code(exc))
        return
    closed = asyncio.Event()


    reader = asyncio.create_task(drain(ws, closed))
    last = room["lines"][-1]["id"] if room["lines"] else 0
    watch = watch_signed_in(ws, holder.person.id) if holder.person is not None else None
    watchers = hub.watchers(match_id)
    try:
        await ws.send_json({"type": "room", **room, "watchers": watchers})
        with hub.subscribe(room_key(match_id)) as woken, woken_at_end(
                ws, holder.person.id if speaker.seats and holder.person is not None else None, woken):
            woken.clear()  # the first state is sent
            while not closed.is_set():
                waiter = asyncio.create_task(woken.wait())
                done, _ = await asyncio.wait({waiter, reader}, return_when=asyncio.FIRST_COMPLETED)
                if waiter not in done:
                    waiter.cancel()
                    break
                woken.clear()
                if speaker.seats and watch is not None and not await watch.still():
                    await refuse(ws, "your session has ended: sign in again", SESSION_ENDED)  # no more of its rooms
                    return
                if room["open"]:
                    try:
                        fresh = await asyncio.to_thread(chat.read, match_id, speaker, None, last)
                    except MatchError as exc:
                        await refuse(ws, exc.message, refusal_code(exc))
                        return
                    if fresh["lines"]:
                        last = fresh["lines"][-1]["id"]
                        await ws.send_json({"type": "lines", "lines": fresh["lines"]})
                now = hub.watchers(match_id)
                if now != watchers:
                    watchers = now
                    await ws.send_json({"type": "watchers", "watchers": now})
    except (WebSocketDisconnect, OSError, RuntimeError):  # the client went away
        pass
    finally:
        reader.cancel()
        await close(ws, 1001)


__all__ = ["router"]
