"""What the WebSocket routes share: refusing a client in words, closing, and reading what a
client may still send once it is listening (nothing but short text)."""

from __future__ import annotations

import asyncio

from fastapi import WebSocket

from ..errors import MatchError
from .errors import status_of

#: The close code of a socket whose person's session ended after it opened: the browser reads
#: it as that (it asks who is signed in, and says so when nobody is).
SESSION_ENDED = 4401


def refusal_code(exc: MatchError) -> int:
    """The close code of a socket refused by ``exc``: 4000 + its HTTP status, except that
    :data:`SESSION_ENDED` is kept for an ended session. What HTTP answers 401 at a socket's
    start (a token too long to be any seat's) is a malformed first message there: 4400, so that
    a browser holding a mangled token is not told its session ended."""
    code = 4000 + status_of(exc)
    return 4400 if code == SESSION_ENDED else code


async def refuse(ws: WebSocket, message: str, code: int) -> None:
    """Tell a WebSocket client why, then close with ``code`` (a client already gone is fine)."""
    try:
        await ws.send_json({"error": message})
    except Exception:  # noqa: BLE001 - gone already
        pass
    await close(ws, code)


async def close(ws: WebSocket, code: int) -> None:
    """Close with ``code`` unless the socket is no longer connected."""
    if ws.client_state.name == "CONNECTED":
        try:
            await ws.close(code=code)
        except Exception:  # noqa: BLE001
            pass


async def drain(ws: WebSocket, closed: asyncio.Event) -> None:
    """Read until the client goes, then set ``closed``. Clients have nothing more to say; any
    frame but short text (at most 100 characters) closes the socket (1003)."""
    try:
        while True:
            message = await ws.receive()
            if message.get("type") == "websocket.disconnect":
                break
            if message.get("bytes") is not None or len(message.get("text") or "") > 100:
                await ws.close(code=1003, reason="only short text frames are accepted")
                break
    except Exception:  # noqa: BLE001 - any failure ends the connection
        pass
    finally:
        closed.set()


__all__ = ["close", "drain", "refuse"]
