"""Whether a socket's person is still signed in, without a database read at every push (issue
44 §1).

A WebSocket opened with a session cookie or an API token stops sending that person's views
once the credential has ended (signed out, ended from another browser, the password changed,
the account deleted or disabled, the token revoked). It used to read the credential again from
the database before every push and every move: a thread hop and a query each, which doubled the
web process's CPU per move for people signed in (``benchmarks/load.py --signed-in``).

Now each socket remembers when its last reading that found it valid began, and reads it again
only

* when a credential of its person has ended since: the people service says so after the commit
  (:meth:`abstracta.people.database.Database.ends`, heard by ``on_ended``), this process hears it at once and
  every other web process of the deployment through the fan-out (topic ``sessions``; a
  reconnected fan-out counts as news for everybody);
* or when :data:`RECHECK_SECONDS` have passed: what no web process was told of (an
  administrator's ``abstracta`` command run beside the server, the idle limit of a session): the
  socket stops sending within that bound and closes at its next change — as lichess's sockets,
  which authenticate when they open and are closed by a message when their session ends.

An end heard also wakes that person's sockets (:meth:`SignedIn.waking`), as a change of what
they watch would: each reads its credential at once and closes (4401) if it has ended, rather
than at its next change, which on a quiet lobby or a game whose opponent thinks may be minutes
away. A reconnected fan-out wakes nobody: every socket reads at its next change instead of all
of them at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import threading
import time
from collections import OrderedDict
from typing import Any, Callable, Iterator

from starlette.requests import HTTPConnection

from .fanout import Fanout

#: Longest time (s) a socket goes on trusting the last reading of its credential when nothing
#: was heard of its person: under the people service's touch interval (10 minutes), so that a
#: socket in use still marks its session as used.
RECHECK_SECONDS = 60.0
#: The fan-out topic of ended credentials: ``{"person": <id>}``.
TOPIC = "sessions"


class SignedIn:
    """When this process last heard that a credential of a person ended, for the sockets'
    :class:`Watch` es to know whether their last reading may still be trusted. ``read``: the
    blocking database reading of one connection's credential (``(connection, person_id) ->
    bool``: still names that person); ``clock``: monotonic seconds (tests move it)."""

    def __init__(self, read: Callable[[HTTPConnection, int], bool], fanout: Fanout | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.read, self.clock = read, clock
        self._lock = threading.Lock()
        #: person id -> when an end of one of their credentials was last heard, oldest first.
        #: Dropped once older than :data:`RECHECK_SECONDS`: no watch trusts a reading that old,
        #: so the memory holds the last minute's ends, not every person who ever signed out.
        self._ended_at: OrderedDict[int, float] = OrderedDict()
        #: when the fan-out last came back after a gap (anything may have been missed meanwhile)
        self._gap_at = -math.inf
        #: person id -> the events of their open sockets, each with its loop (set from any thread)
        self._wakes: dict[int, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}
        self._fanout = fanout
        if fanout is not None:
            fanout.subscribe(TOPIC, self._heard, on_gap=self.forget_all)

    def ended(self, person_id: int) -> None:
        """A credential of ``person_id`` ended (any thread): this process's watches of that
        person read again at once, and every other web process is told."""
        self._heard_end(person_id)
        if self._fanout is not None:
            self._fanout.publish(TOPIC, {"person": person_id})

    def forget_all(self) -> None:
        """Every watch reads its credential again (news may have been missed)."""
        now = self.clock()
        with self._lock:
            self._gap_at = now

    def watch(self, connection: HTTPConnection, person_id: int) -> "Watch":
        """The watch of one socket, opened with ``connection``'s credentials by ``person_id``."""
        return Watch(self, connection, person_id)

    @contextlib.contextmanager
    def waking(self, person_id: int, event: asyncio.Event) -> Iterator[asyncio.Event]:
        """While inside (on an event loop): ``event`` is set, on that loop, whenever an end of
        a credential of ``person_id`` is heard, here or through the fan-out; the socket waiting
        on it then asks its :class:`Watch` at once."""
        entry = (asyncio.get_running_loop(), event)
        with self._lock:
            self._wakes.setdefault(person_id, set()).add(entry)
        try:
            yield event
        finally:
            with self._lock:
                entries = self._wakes.get(person_id)
                if entries is not None:
                    entries.discard(entry)
                    if not entries:
                        del self._wakes[person_id]

    def trusts(self, person_id: int, began: float) -> bool:
        """Whether a reading of ``person_id``'s credential that began at ``began`` (this clock)
        and said "still valid" may be trusted now: it is under :data:`RECHECK_SECONDS` old, and
        no end of theirs nor any gap was heard since it began (an end heard at the very moment
        it began counts as since)."""
        now = self.clock()
        with self._lock:
            return (now - began < RECHECK_SECONDS and self._gap_at < began
                    and self._ended_at.get(person_id, -math.inf) < began)

    def _heard_end(self, person_id: int) -> None:
        now = self.clock()
        with self._lock:
            self._ended_at[person_id] = now
            self._ended_at.move_to_end(person_id)
            horizon = now - RECHECK_SECONDS
            while self._ended_at and next(iter(self._ended_at.values())) < horizon:
                self._ended_at.popitem(last=False)
            woken = list(self._wakes.get(person_id, ()))
        for loop, event in woken:
            with contextlib.suppress(RuntimeError):  # its loop closed (the server stopping)
                loop.call_soon_threadsafe(event.set)

    def remembered(self) -> int:
        """Ends held in memory (those heard within :data:`RECHECK_SECONDS`)."""
        with self._lock:
            return len(self._ended_at)

    def _heard(self, message: dict[str, Any]) -> None:
        person = message.get("person")
        if isinstance(person, int) and not isinstance(person, bool):
            self._heard_end(person)


class Watch:
    """One socket's credential: :meth:`still` says whether it still names its person."""

    __slots__ = ("owner", "connection", "person_id", "_began", "_refused")

    def __init__(self, owner: SignedIn, connection: HTTPConnection, person_id: int):
        self.owner, self.connection, self.person_id = owner, connection, person_id
        # when the reading it trusts began (None: none yet, read at the first call, although the
        # handshake has just read it: an end between that reading and this watch would go unseen)
        self._began: float | None = None
        # when the latest reading that said "ended" began: an older "valid" answering later
        # (the socket's pushes and moves share the watch) must not be trusted over it
        self._refused = -math.inf

    async def still(self) -> bool:
        """Whether the credential still names the person: from memory while the last reading is
        under :data:`RECHECK_SECONDS` old, counted from when it began, and nothing was heard of
        the person since; else read from the database (in a thread). False once it has ended
        (or the database cannot say)."""
        owner = self.owner
        if self._began is not None and owner.trusts(self.person_id, self._began):
            return True
        began = owner.clock()  # the reading sees the database as it is from now on
        valid = await asyncio.to_thread(owner.read, self.connection, self.person_id)
        if not valid:
            self._refused = max(self._refused, began)
            self._began = None
        elif began > self._refused and (self._began is None or began > self._began):
            self._began = began
        return valid


__all__ = ["RECHECK_SECONDS", "SignedIn", "TOPIC", "Watch"]
