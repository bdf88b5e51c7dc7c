"""Who is there (issue 42 §1, §5): the WebSockets open on each match, by seat, and each person's
connections, fed by the WebSocket handlers' connect and close (``app.py``'s match socket, the
lobby's socket) and by the acts people make.

Two rules read it. A **gone opponent** (``play.leaving``): since when a seat has been gone — its
last connection closed, or its last act, whichever is later; a seat never seen by this process
counts from the moment it started. A **seek's expiry** (``lobby``): since when its creator has
been gone — their last connection anywhere closed, or their last request.

This is the memory of one process, behind a small interface (:class:`Presence`): with several
server processes a shared one (Redis: a sorted set of last-seen times per key, refreshed by each
process for its open sockets) takes its place, and its changes go through the cross-process
fan-out channel instead of :attr:`Presence.listeners`. The notices' spectator counts read
:meth:`Presence.watching`.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable, Hashable, Iterable, Iterator

from ..play.opening import CORRESPONDENCE_SECONDS

#: what a listener is told: (match id or None, person id or None) whose presence changed
Listener = Callable[[str | None, int | None], None]
#: Seconds a last-seen time is kept (seat of a match, person): the longest a rule waits on one (a
#: correspondence game's gone opponent, a day) and an hour more. One kept for every seat of
#: every match ever played grew the process for ever (issue 44 §5); a time older than this
#: reads as "never seen here", which every rule judges alike, since each only asks whether a seat
#: or person has been gone longer than its wait.
SEEN_KEPT_SECONDS = CORRESPONDENCE_SECONDS + 3600.0


@dataclass(frozen=True)
class Ticket:
    """One open connection: on ``match`` (None: the lobby) holding ``seats``, by ``person``."""

    id: int
    match: str | None
    seats: frozenset[int] = field(default_factory=frozenset)
    person: int | None = None


class Presence:
    """The connections of this process (thread-safe). ``now``: the clock (Unix seconds)."""

    def __init__(self, now: Callable[[], float] = time.time):
        self.now = now
        self.started = now()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._open: dict[int, Ticket] = {}
        self._seat_open: dict[tuple[str, int], int] = {}
        # last seen, oldest first (pruned from the front: :meth:`_saw`)
        self._seat_seen: OrderedDict[tuple[str, int], float] = OrderedDict()
        self._person_open: dict[int, int] = {}
        self._person_seen: OrderedDict[int, float] = OrderedDict()
        self._watching: dict[str, int] = {}
        #: connections open on a match holding no seat, by match (counted: a count made by walking
        #: every open connection, at every push of a browser's socket, grew with the whole server)
        self._spectating: dict[str, int] = {}
        #: called (outside the lock) after a connection opened or closed
        self.listeners: list[Listener] = []

    # --- connections --------------------------------------------------------------------------
    def open(self, match: str | None, seats: Iterable[int] = (), person: int | None = None) -> Ticket:
        """A connection opened on ``match`` (None: the lobby), holding ``seats``, by ``person``."""
        ticket = Ticket(next(self._ids), match, frozenset(seats), person)
        with self._lock:
            self._open[ticket.id] = ticket
            if match is not None:
                self._watching[match] = self._watching.get(match, 0) + 1
                if not ticket.seats:
                    self._spectating[match] = self._spectating.get(match, 0) + 1
                for seat in ticket.seats:
                    self._seat_open[(match, seat)] = self._seat_open.get((match, seat), 0) + 1
            if person is not None:
                self._person_open[person] = self._person_open.get(person, 0) + 1
        self._tell(match, person)
        return ticket

    def close(self, ticket: Ticket) -> None:
        """The connection ``ticket`` closed (a second close of one is ignored)."""
        at = self.now()
        with self._lock:
            if self._open.pop(ticket.id, None) is None:
                return
            match, person = ticket.match, ticket.person
            if match is not None:
                self._drop(self._watching, match)
                if not ticket.seats:
                    self._drop(self._spectating, match)
                for seat in ticket.seats:
                    self._drop(self._seat_open, (match, seat))
                    self._saw(self._seat_seen, (match, seat), at)
            if person is not None:
                self._drop(self._person_open, person)
                self._saw(self._person_seen, person, at)
        self._tell(match, person)

    @contextlib.contextmanager
    def connected(self, match: str | None, seats: Iterable[int] = (), person: int | None = None) -> Iterator[Ticket]:
        """:meth:`open` for the time of a ``with`` block."""
        ticket = self.open(match, seats, person)
        try:
            yield ticket
        finally:
            self.close(ticket)

    def seen(self, match: str | None = None, seats: Iterable[int] = (), person: int | None = None) -> None:
        """An act (a move, a request) by ``seats`` of ``match`` or by ``person``: they were there."""
        at = self.now()
        with self._lock:
            for seat in seats:
                if match is not None:
                    self._saw(self._seat_seen, (match, seat), at)
            if person is not None:
                self._saw(self._person_seen, person, at)

    # --- what the rules read --------------------------------------------------------------------
    def seat_gone_since(self, match: str, seat: int) -> float | None:
        """None while a connection holding ``seat`` of ``match`` is open; else since when it has
        been gone (its last close or act; never seen here: since this process started)."""
        with self._lock:
            if self._seat_open.get((match, seat)):
                return None
            return self._seat_seen.get((match, seat), self.started)

    def seats_online(self, match: str, n: int) -> list[bool]:
        """Per seat of ``match`` (``n`` of them): whether a connection holding it is open."""
        with self._lock:
            return [bool(self._seat_open.get((match, seat))) for seat in range(n)]

    def person_online(self, person: int) -> bool:
        with self._lock:
            return bool(self._person_open.get(person))

    def person_gone_since(self, person: int, default: float) -> float | None:
        """None while one of ``person``'s connections is open; else since when they have been gone
        (their last close or request, or ``default`` — e.g. when their seek was made — if later or
        never seen here)."""
        with self._lock:
            if self._person_open.get(person):
                return None
            return max(self._person_seen.get(person, default), default)

    def watching(self, match: str) -> int:
        """Connections open on ``match``, players' and spectators' (the notices' figure)."""
        with self._lock:
            return self._watching.get(match, 0)

    def spectators(self, match: str) -> int:
        """Connections open on ``match`` that hold no seat."""
        with self._lock:
            return self._spectating.get(match, 0)

    def kept(self) -> int:
        """The last-seen times held (seats and people): bounded by those seen within
        :data:`SEEN_KEPT_SECONDS`."""
        with self._lock:
            return len(self._seat_seen) + len(self._person_seen)

    # --- internals --------------------------------------------------------------------------------
    @staticmethod
    def _saw(seen: "OrderedDict[Hashable, float]", key: Hashable, at: float) -> None:
        """``key`` seen ``at`` (lock held): made the newest, and the times older than
        :data:`SEEN_KEPT_SECONDS` dropped from the front (each time is dropped once: amortised
        constant time)."""
        seen[key] = at
        seen.move_to_end(key)
        horizon = at - SEEN_KEPT_SECONDS
        while seen:
            first = next(iter(seen))
            if seen[first] >= horizon:
                break
            del seen[first]

    @staticmethod
    def _drop(counts: dict, key: object) -> None:
        left = counts.get(key, 0) - 1
        if left > 0:
            counts[key] = left
        else:
            counts.pop(key, None)

    def _tell(self, match: str | None, person: int | None) -> None:
        for listener in list(self.listeners):
            try:
                listener(match, person)
            except Exception:  # noqa: BLE001 - a listener's bug must not close a connection
                pass


__all__ = ["Listener", "Presence", "Ticket"]
