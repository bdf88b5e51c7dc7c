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

Every process of a deployment (``make club``: several ``abstracta serve`` workers on one
database) hears of a chat line and of the watchers of a match through the fan-out
(:mod:`.fanout`, topics :data:`CHAT_TOPIC` and :data:`WATCHERS_TOPIC`), as the lobby does:

* a line written is stored, then announced (``{"m": match id}``); every process, this one
  included, wakes its room sockets of that match, which read the lines they have not sent from
  the database (a process that missed messages wakes all its rooms: nothing is lost);
* each process announces its own spectators of a match when their number changes
  (``{"m", "p": process, "n"}``) and all of them again every :data:`WATCHERS_SECONDS`; a
  count not said again within :data:`WATCHERS_KEPT` seconds (a process gone) stops counting.
* the chat's rate limits are a :class:`~abstracta.people.throttle.Throttle` whose storage is a
  ``limits`` URI: the Redis of the deployment, where there is one, shares them between
  processes (as the request limits).
"""

from __future__ import annotations

import asyncio
import logging
import os
import uuid
from typing import Any

from ..people.throttle import Throttle
from .chat import CHAT_LIMITS, Chat
from .company import Company
from .fanout import Fanout
from .live import LiveGames
from .push import room_key
from .service import MatchService
from .webpush import WebPush

log = logging.getLogger("abstracta.server")

#: the fan-out's topics: a chat line written, a process's watchers of a match
CHAT_TOPIC, WATCHERS_TOPIC = "chat", "watchers"
#: seconds between a process's announcements of all its watchers, and how long one is kept
WATCHERS_SECONDS, WATCHERS_KEPT = 15.0, 45.0


class Social:
    """The company of the matches of one process: :attr:`chat`, :attr:`webpush`, :attr:`live`.

    ``fanout``: the deployment's channel to every process (default: this process alone);
    ``rate_limits``: whether the chat counts lines (``abstracta serve --no-rate-limits``: no);
    ``limits_storage``: the ``limits`` storage URI of its counters; ``push``: keyword
    arguments of :class:`~.webpush.WebPush` (``schemes``, ``allow_local``, ``contact``: the
    VAPID contact, by default ``$ABSTRACTA_PUSH_CONTACT``). Call :meth:`start` on the
    running loop (the app's lifespan) and :meth:`close` at the end."""

    def __init__(self, service: MatchService, fanout: Fanout | None = None, *, rate_limits: bool = True,
                 limits_storage: str = "memory://", push: dict[str, Any] | None = None):
        self.service = service
        self.fanout = fanout if fanout is not None else Fanout()
        #: this process among the deployment's (its watchers' announcements name it)
        self.process = uuid.uuid4().hex[:12]
        kernel = service.kernel
        self.company = Company(kernel.store, service.owners)
        self.chat = Chat(kernel, self.company, Throttle(storage=limits_storage, limits=dict(CHAT_LIMITS),
                                                        enabled=rate_limits))
        self.chat.announce = self.announce_line
        push = dict(push or {})
        push.setdefault("contact", os.environ.get("ABSTRACTA_PUSH_CONTACT") or "mailto:operator@abstracta.invalid")
        self.webpush = WebPush(kernel, **push)
        self.live = LiveGames(kernel, service.views, self.company)
        kernel.react("chat", self.chat.react)
        kernel.react("webpush", self.webpush.react)
        self._unsubscribe = [
            self.fanout.subscribe(CHAT_TOPIC, self._heard_line, on_gap=self._wake_rooms),
            self.fanout.subscribe(WATCHERS_TOPIC, self._heard_watchers, on_gap=self._announce_watchers),
        ]
        service.hub.on_watchers = self._tell_watchers
        self._refresh: asyncio.Task | None = None

    async def start(self) -> None:
        """On the running loop, after the fan-out's start: announce this process's watchers
        every :data:`WATCHERS_SECONDS` (only where there are other processes to hear it)."""
        if self.fanout.shared and self._refresh is None:
            self._refresh = asyncio.create_task(self._refreshing())

    async def _refreshing(self) -> None:
        while True:
            await asyncio.sleep(WATCHERS_SECONDS)
            self._announce_watchers()

    # --- chat lines ----------------------------------------------------------------------------
    def announce_line(self, match_id: str) -> None:
        """A line was written in (or a deletion took) ``match_id``'s chat: every process's room
        sockets of it are woken (any thread)."""
        self.fanout.publish(CHAT_TOPIC, {"m": match_id})

    def _heard_line(self, message: dict[str, Any]) -> None:
        match_id = message.get("m")
        if isinstance(match_id, str):
            self.line_written(match_id)

    def line_written(self, match_id: str) -> None:
        """Wake the room sockets of ``match_id`` in this process (each reads the lines it has
        not sent yet from the database)."""
        self.service.hub.publish(room_key(match_id))

    def _wake_rooms(self) -> None:
        """Messages may have been missed: every room of this process reads what it has not sent."""
        hub = self.service.hub
        for key in hub.subscribed():
            if key.startswith(room_key("")):
                hub.publish(key)

    # --- watchers ------------------------------------------------------------------------------
    def _tell_watchers(self, match_id: str, count: int) -> None:
        if self.fanout.shared:
            self.fanout.publish(WATCHERS_TOPIC, {"m": match_id, "p": self.process, "n": count})

    def _announce_watchers(self) -> None:
        for match_id, count in self.service.hub.watched_here().items():
            self._tell_watchers(match_id, count)

    def _heard_watchers(self, message: dict[str, Any]) -> None:
        match_id, process, count = message.get("m"), message.get("p"), message.get("n")
        if (not isinstance(match_id, str) or not isinstance(process, str) or process == self.process
                or isinstance(count, bool) or not isinstance(count, int)):
            return
        self.service.hub.watchers_elsewhere(match_id, process, count, WATCHERS_KEPT)

    def close(self) -> None:
        if self._refresh is not None:
            self._refresh.cancel()
            self._refresh = None
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self.service.hub.on_watchers = None
        self.webpush.close()


__all__ = ["CHAT_TOPIC", "Social", "WATCHERS_KEPT", "WATCHERS_SECONDS", "WATCHERS_TOPIC"]
