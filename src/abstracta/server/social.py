"""A match's company (issue 43), wired: the chat, the Web Push notices of correspondence games
and the list of live games, beside the match service (as :class:`~.service.MatchService` wires
the concerns of play).

============  ==========================================================================
module         concern
============  ==========================================================================
company        who plays at a distance; the names on a match's seats
chat           the players' and the spectators' chat, reports and bans (reacts to a deletion)
webpush        "your move" to subscribed browsers in correspondence games (reacts to every change)
live           the games in play, most watched first
============  ==========================================================================

The chat and the notices react to the kernel's announcements, after the pushes, the clocks and
the computer, and are never called from inside another concern.

Seams for what other branches bring (the lead wires them at merge):

* :attr:`Social.announce_line` — a chat line written: today it wakes this process's room
  sockets (``hub.publish(room_key(id))``); with several processes it goes through the club's
  cross-process fan-out (``server/fanout.py``, issue 44), whose receiving side calls
  :meth:`Social.line_written` in every process.
* ``hub.watchers(match_id)`` (``push.py``) — the spectators of this process; the lobby's
  presence (``server/presence.py``, issue 42) counts every process's.
* the chat's rate limits are a :class:`~abstracta.people.throttle.Throttle` whose storage is a
  ``limits`` URI: ``redis://…`` (issue 44) shares them between processes.
"""

from __future__ import annotations

import os
from typing import Any

from ..people import People
from ..people.throttle import Throttle
from .chat import CHAT_LIMITS, Chat
from .company import Company
from .live import LiveGames
from .push import room_key
from .service import MatchService
from .webpush import WebPush


class Social:
    """The company of the matches of one process: :attr:`chat`, :attr:`webpush`, :attr:`live`.

    ``rate_limits``: whether the chat counts lines (``abstracta serve --no-rate-limits``: no);
    ``limits_storage``: the ``limits`` storage URI of its counters; ``push``: keyword
    arguments of :class:`~.webpush.WebPush` (``schemes``, ``allow_local``, ``contact``: the
    VAPID contact, by default ``$ABSTRACTA_PUSH_CONTACT``)."""

    def __init__(self, service: MatchService, people: People, *, rate_limits: bool = True,
                 limits_storage: str = "memory://", push: dict[str, Any] | None = None):
        self.service = service
        kernel = service.kernel
        self.company = Company(kernel.store, people)
        self.chat = Chat(kernel, self.company, Throttle(storage=limits_storage, limits=dict(CHAT_LIMITS),
                                                        enabled=rate_limits))
        self.chat.announce = lambda match_id: self.announce_line(match_id)
        push = dict(push or {})
        push.setdefault("contact", os.environ.get("ABSTRACTA_PUSH_CONTACT") or "mailto:operator@abstracta.invalid")
        self.webpush = WebPush(kernel, **push)
        self.live = LiveGames(kernel, service.views, self.company)
        kernel.react("chat", self.chat.react)
        kernel.react("webpush", self.webpush.react)

    def announce_line(self, match_id: str) -> None:
        """A line was written in ``match_id``'s chat: the seam of the cross-process fan-out
        (see the module's docstring). Here: this process's readers."""
        self.line_written(match_id)

    def line_written(self, match_id: str) -> None:
        """Wake the room sockets of ``match_id`` in this process (each reads the lines it has
        not sent yet from the database)."""
        self.service.hub.publish(room_key(match_id))

    def close(self) -> None:
        self.webpush.close()


__all__ = ["Social"]
