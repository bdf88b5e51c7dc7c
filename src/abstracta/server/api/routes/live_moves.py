"""Moves over a match's WebSocket (issue 44 §1): what the socket of ``/api/matches/{id}/ws``
(:mod:`.live`) reads from its client once it has authenticated.

lichess takes a player's moves on the socket that pushes the game to them; so does this one. A
move over ``POST …/actions`` cost the web process its whole HTTP path (the middleware, the
request's parsing, the answer's writing) and the mover's view built for the answer as well as
for the push; a move over the socket is one frame in, one short frame out, and the mover's new
view reaches it as the push every socket of the match gets.

The protocol (docs: api/guide.md, "Moves over the socket"):

* ``{"move": <the body of POST …/actions>, "id": <integer>}`` — the body is validated by the same
  model (:class:`~abstracta.server.api.bodies.PlayAction`: ``{"action": "<notation>", "ply": N}``,
  or ``actions``/``turn`` instead of ``action``, ``seat`` optional) and played by the same call
  (:func:`.acts.move`) for the socket's holder: the tokens of its first message and the person
  of its handshake, whose session must not have ended (ended: the socket closes with 4401, as
  its pushes do; :mod:`abstracta.server.signed_in` says when it is read again). It spends the
  rate-limit budget of the same POST from the same client
  (:func:`abstracta.server.security.socket_credentials`).
* Played: ``{"ack": id, "ply": <the match's ply after it>}``, sent once the move is stored. No
  view: the new view comes as the usual push, before or after the ack.
* Refused: ``{"error": "<message>", "status": <the POST's HTTP status>, "id": id, ...}`` with the
  POST's error body's other fields (``i18n``, a stale move's ``ply``; ``retry_after`` where the
  POST has a ``Retry-After`` header); the socket stays open and the match is unchanged. A
  socket opened as a spectator (it holds no seat) is refused with 403.
* A frame is read as a move when it is a JSON object with the key ``move``; one without an
  integer ``id`` or with other keys closes the socket (1003), as does any frame that is binary or
  longer than :data:`MOVE_FRAME_LIMIT` characters, or longer than 100 and no move. Shorter text
  that is no move is ignored (a keep-alive).

One socket's moves are played in the order they came, each answered before the next is read.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from fastapi import WebSocket
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from ... import metrics, security
from ...errors import Forbidden, InvalidRequest, MatchError, TooBusy
from ...matches import Holder, clip
from ...signed_in import Watch
from ..bodies import PlayAction
from ..deps import service_of
from ..errors import ApiError, status_of, validation_i18n, validation_message
from ..sockets import SESSION_ENDED, refuse
from .acts import move

log = logging.getLogger("abstracta.server")

#: Longest text frame a match socket reads as a move (characters): any move a person makes, and
#: within the transport's bound in UTF-8's widest characters (live.WS_MESSAGE_BYTES). A longer
#: move (only a long ``actions`` list could be) goes by POST …/actions, whose body may be 1 MB.
MOVE_FRAME_LIMIT = 16_000
#: Longest text frame that is no move and is ignored (a keep-alive); longer closes the socket.
SHORT_FRAME = 100
#: Largest ``id`` magnitude: an integer every client reads exactly (JavaScript's safe integers).
ID_LIMIT = 2 ** 53


class Malformed(Exception):
    """A frame that names a move but is not ``{"move": …, "id": <integer>}``."""


def move_frame(text: str) -> tuple[Any, int] | None:
    """``(the move's body, id)`` of a text frame that is a move, None for one that is no move.
    Raises :class:`Malformed` for an object with ``move`` but no integer ``id`` or other keys."""
    if not text.startswith("{"):
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested too deep for the parser
        return None
    if type(data) is not dict or "move" not in data:
        return None
    ident = data.get("id")
    if data.keys() != {"move", "id"} or type(ident) is not int or abs(ident) >= ID_LIMIT:
        raise Malformed('a move is {"move": {...}, "id": <integer>}')
    return data["move"], ident


def refused(exc: MatchError, ident: int) -> dict[str, Any]:
    """The frame of a refused move: the POST's error body (its message cut as the POST cuts
    it), its HTTP status, the move's ``id``, and ``retry_after`` where the POST says
    ``Retry-After``."""
    status = exc.status if isinstance(exc, ApiError) else status_of(exc)
    message = exc.message if len(exc.message) <= 500 else exc.message[:499] + "…"
    frame: dict[str, Any] = {"error": message, **exc.extra, "status": status, "id": ident}
    if exc.retry_after is not None:
        frame["retry_after"] = exc.retry_after
    return frame


class SessionEnded(Exception):
    """The session the socket was opened with has ended (closed with 4401)."""


class TooMany(TooBusy):
    """A move over the rate limits (the POST's 429)."""

    def __init__(self, wait: float):
        seconds, message, i18n = security.rate_refusal(wait)
        super().__init__(message, i18n=i18n)
        self.retry_after = seconds


class SocketMoves:
    """The moves of one match socket: ``holder`` (its first message's tokens, its handshake's
    person) holding ``held`` at match ``match_id`` when it opened; ``watch``: the person's
    credentials (None: nobody signed in), shared with the socket's pushes."""

    def __init__(self, ws: WebSocket, match_id: str, holder: Holder, held: Any, watch: Watch | None = None):
        self.ws, self.match_id, self.holder, self.held, self.watch = ws, match_id, holder, held, watch
        self.keys: list[str] | None = None  # what its moves are counted under (the first move's)

    async def read(self) -> None:
        """Read the client's frames until it goes or one closes the socket (see the module);
        play each move. The reader task of :func:`.live.match_socket`."""
        ws = self.ws
        try:
            while True:
                message = await ws.receive()
                if message.get("type") == "websocket.disconnect":
                    break
                text = message.get("text")
                if message.get("bytes") is not None or text is None or len(text) > MOVE_FRAME_LIMIT:
                    await ws.close(code=1003, reason="only short text frames and moves are accepted")
                    break
                try:
                    found = move_frame(text)
                except Malformed as exc:
                    await ws.close(code=1003, reason=str(exc))
                    break
                if found is None:
                    if len(text) > SHORT_FRAME:
                        await ws.close(code=1003, reason="only short text frames and moves are accepted")
                        break
                    continue
                if not await self.play(*found):
                    break
        except Exception:  # noqa: BLE001 - any failure ends the connection
            pass

    async def play(self, body: Any, ident: int) -> bool:
        """Play one move and answer it (see the module); False once the socket is closed."""
        started = time.perf_counter()
        try:
            frame = await self.answer(body, ident)
        except SessionEnded:
            await refuse(self.ws, "your session has ended: sign in again", SESSION_ENDED)
            return False
        finally:
            metrics.ACT_SERIES("move").observe(time.perf_counter() - started)
        await self.ws.send_text(json.dumps(frame))
        return True

    async def answer(self, body: Any, ident: int) -> dict[str, Any]:
        """The frame answering the move ``body`` of ``ident``: its ack, or its refusal."""
        ws = self.ws
        # as the pushes do: a session ended since the handshake acts no more (a POST would read
        # nobody signed in); read again only when it may have ended (server/signed_in.py)
        if self.watch is not None and not await self.watch.still():
            raise SessionEnded
        try:
            await self.spend()
            if not self.held:
                raise Forbidden("this socket holds no seat of this match (it was opened as a spectator's): "
                                "open it with the seat's token to move")
            try:
                # as FastAPI validates a body (from_attributes: its words for a body that is no
                # object; no JSON value has attributes to read)
                move_body = PlayAction.model_validate(body, from_attributes=True)
            except ValidationError as exc:
                invalid = RequestValidationError(exc.errors())
                keyed = validation_i18n(invalid)
                return {"error": validation_message(invalid), **({"i18n": keyed} if keyed else {}),
                        "status": 422, "id": ident}
            match = await move(service_of(ws), self.match_id, move_body, move_body.seat, self.holder)
        except MatchError as exc:
            return refused(exc, ident)
        except Exception as exc:  # noqa: BLE001 - a bug: logged (its type, not its message), the match unchanged
            log.error("internal error %s on a move over the WebSocket of match %s", type(exc).__name__,
                      clip(self.match_id))
            metrics.error(type(exc).__name__)
            return {"error": f"internal error: {type(exc).__name__}", "status": 500, "id": ident}
        metrics.MOVES.inc()
        return {"ack": ident, "ply": match.ply}

    async def spend(self) -> None:
        """Count the move against the rate limits of a POST …/actions by the same client (none
        when the app has them off); TooMany over them."""
        limiter = getattr(self.ws.app.state, "rate_limiter", None)
        if limiter is None or "act" not in limiter.items:
            return
        if self.keys is None:
            heads = security.request_heads(self.ws.scope)[0]
            problem = security.crowded(heads.get(b"authorization"), self.holder.tokens)
            if problem is not None:  # its credentials past the counted ones would go uncounted
                raise InvalidRequest(problem)
            self.keys = security.socket_credentials(self.ws.scope, self.holder.tokens)
        wait = await limiter.hit("act", security.client_ip(self.ws.scope), self.keys)
        if wait is not None:
            raise TooMany(wait)


__all__ = ["MOVE_FRAME_LIMIT", "SHORT_FRAME", "SocketMoves", "move_frame"]
