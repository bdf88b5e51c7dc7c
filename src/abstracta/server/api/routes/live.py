"""Live updates of a match over a WebSocket (``/api/matches/{id}/ws``): its view each time it
changes, as GET /api/matches/{id} with the same tokens would answer it; and the moves its client
sends on it (:mod:`.live_moves`)."""

from __future__ import annotations

import asyncio
import json
import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ... import metrics
from ...errors import MatchError
from ...matches import Holder, clip
from ..deps import acting_person, promptly, service_of, split_tokens
from ..people import watch_signed_in, woken_at_end
from ..sockets import SESSION_ENDED, close, refusal_code, refuse
from .live_moves import SocketMoves

log = logging.getLogger("abstracta.server")
router = APIRouter()

#: Longest first WebSocket message (the tokens), and how long the server waits for it.
WS_AUTH_LIMIT, WS_AUTH_SECONDS = 16_000, 10.0
#: Largest WebSocket message the transport reads (``abstracta serve`` gives it to uvicorn, whose
#: default, 16 MiB, let one address hold half a gigabyte in 32 sockets): the longest first
#: message in UTF-8's widest characters; a longer one is closed with 1009 before the app sees it.
WS_MESSAGE_BYTES = 4 * WS_AUTH_LIMIT


@router.websocket("/api/matches/{match_id}/ws")
async def match_socket(ws: WebSocket, match_id: str) -> None:
    """Live updates: the match view (as GET /api/matches/{id} with the same tokens) each time
    it changes. The client's first message authenticates: ``{"tokens": ["<token>", ...]}``
    (``[]``: a spectator, unless the session cookie of the handshake names a person who holds
    a seat); tokens never go in the URL. With ``"presence": true`` in it, who is connected is
    sent too (``{"presence": …}`` as GET …/presence) whenever it changes. A first message that is not such an
    object, or none within 10 s, closes the socket (1008); a token of another match, 4403; one
    longer than 64 characters, 4400 (4401 is kept for an ended session); more than 200 tokens, 4422 (as 422 on a request);
    no such match, or the match deleted while the socket is open, 4404.
    Later frames: a move, ``{"move": <the body of POST …/actions>, "id": <integer>}``, played
    as that POST plays it and answered ``{"ack": id, "ply": N}`` or ``{"error", "status", "id"}``
    (:mod:`.live_moves`); other short text (ignored); anything else closes the socket (1003)."""
    await ws.accept()
    try:
        first = await asyncio.wait_for(ws.receive(), timeout=WS_AUTH_SECONDS)
    except (asyncio.TimeoutError, Exception):  # noqa: BLE001
        await close(ws, 1008)
        return
    if first.get("type") == "websocket.disconnect":
        return
    try:  # the person signed in: the session cookie of the handshake
        person = await acting_person(ws)
    except MatchError as exc:
        await refuse(ws, exc.message, refusal_code(exc))
        return
    text = first.get("text")
    tokens = None
    present = False  # the client asks for who is connected too ({"presence": true}; issue 42)
    if text is not None and len(text) <= WS_AUTH_LIMIT:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):  # not JSON, or nested too deep for the parser
            data = None
        present = isinstance(data, dict) and data.get("presence") is True
        if isinstance(data, dict) and isinstance(data.get("tokens"), list) and all(
                isinstance(t, str) for t in data["tokens"]):
            try:
                tokens = split_tokens(",".join(data["tokens"]))
            except MatchError as exc:
                await refuse(ws, exc.message, refusal_code(exc))
                return
    if tokens is None:
        await refuse(ws, 'the first message must be {"tokens": [...]} (empty: a spectator)', 1008)
        return
    try:
        service = service_of(ws)
        held = await asyncio.to_thread(service.seats_of, match_id, Holder(tuple(tokens), person))
    except MatchError as exc:
        await refuse(ws, exc.message, refusal_code(exc))
        return
    if tokens and not held:
        await refuse(ws, "no token given is a token of this match", 4403)
        return
    rounds = ws.app.state.rounds
    # the person's credentials, read again before a push or a move only when they may have ended
    watch = watch_signed_in(ws, person.id) if person is not None else None
    # the client's frames: its moves (played and answered there), keep-alives; done when it goes
    reader = asyncio.create_task(SocketMoves(ws, match_id, Holder(tuple(tokens), person), held, watch).read())
    last = last_presence = None
    try:
        with service.hub.subscribe(match_id, spectator=not held) as changed, ws.app.state.presence.connected(
                match_id, held, person.id if person is not None else None), \
                woken_at_end(ws, person.id if held and person is not None else None, changed):
            # the client going wakes the loop as a change does: one event to wait for, not a
            # task and a wait on two per change (the costly part of a push for the event loop)
            reader.add_done_callback(lambda _done: changed.set())
            while not service.closed:
                # woken by a change of this match (set at once for the first view)
                await changed.wait()
                if reader.done():
                    break
                changed.clear()
                if held and watch is not None and not await watch.still():
                    # a player's session (or token) it was opened with has ended: no more of that
                    # person's view (a hand of cards); a browser reopens as it is now. (A
                    # spectator's view is anyone's: no database read for it on every push.)
                    await refuse(ws, "your session has ended: sign in again", SESSION_ENDED)
                    return
                try:
                    key, payload = await promptly(service, match_id, service.push_view, match_id, held)
                except MatchError as exc:
                    await ws.send_json({"error": exc.message})
                    await ws.close(code=refusal_code(exc))
                    return
                if key != last and (key is not None or last is None):
                    await ws.send_text(payload.decode())
                    last = key if key is not None else (-1, False)  # a first view mid-turn
                if not present:
                    continue
                seen = await promptly(service, match_id, rounds.presence_view, match_id, held)
                same = json.dumps({**seen["presence"], "now": None})
                if same != last_presence:  # who is connected, when a claim opens
                    await ws.send_text(json.dumps(seen))
                    last_presence = same
    except (WebSocketDisconnect, OSError):  # the client went away
        pass
    except Exception as exc:  # noqa: BLE001 - a bug: logged (its type, not its message), socket closed
        if ws.client_state.name == "CONNECTED" and ws.application_state.name == "CONNECTED":
            log.error("internal error %s in the live updates of match %s", type(exc).__name__, clip(match_id))
            metrics.error(type(exc).__name__)
    finally:
        reader.cancel()
        await close(ws, 1001)


__all__ = ["WS_AUTH_LIMIT", "WS_AUTH_SECONDS", "WS_MESSAGE_BYTES", "router"]
