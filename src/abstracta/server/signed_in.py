"""Whether a socket's person is still signed in, without a database read at every push (issue
44 §1).

A WebSocket opened with a session cookie or an API token stops sending that person's views
once the credential has ended (signed out, ended from another browser, the password changed,
the account deleted or disabled, the token revoked). It used to read the credential again from
the database before every push and every move: a thread hop and a query each, which doubled the
web process's CPU per move for people signed in (``benchmarks/load.py --signed-in``).

Now each socket remembers when its credential was last read as valid, and reads it again only

* when a credential of its person has ended since: the people service says so after the commit
  (:attr:`abstracta.people.database.Database.on_ended`), this process hears it at once and
  every other web process of the deployment through the fan-out (topic ``sessions``; a
  reconnected fan-out counts as news for everybody);
* or when :data:`RECHECK_SECONDS` have passed: what no web process was told of (an
  administrator's ``abstracta`` command run beside the server, the idle limit of a session)
  is noticed within that bound — as lichess's sockets, which authenticate when they open and are
  closed by a message when their session ends.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any, Callable

from starlette.requests import HTTPConnection

from .fanout import Fanout

#: Longest time (s) a socket goes on trusting the last reading of its credential when nothing
#: was heard of its person: under the people service's touch interval (10 minutes), so that a
#: socket in use still marks its session as used.
RECHECK_SECONDS = 60.0
#: The fan-out topic of ended credentials: ``{"person": <id>}``.
TOPIC = "sessions"


class SignedIn:
    """Generations of what this process heard about ended credentials, by person, and the
    sockets' watches on them. ``read``: the blocking database reading of one connection's
    credential (``(connection, person_id) -> bool``: still names that person);
    ``clock``: monotonic seconds (tests move it)."""

    def __init__(self, read: Callable[[HTTPConnection, int], bool], fanout: Fanout | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.read, self.clock = read, clock
        self._lock = threading.Lock()
        #: person id -> how many times an end of one of their credentials was heard
        self._generations: dict[int, int] = {}
        #: bumped when anything may have been missed (the fan-out reconnected): every watch reads again
        self._epoch = 0
        self._fanout = fanout
        if fanout is not None:
            fanout.subscribe(TOPIC, self._heard, on_gap=self.forget_all)

    def ended(self, person_id: int) -> None:
        """A credential of ``person_id`` ended (any thread): this process's watches of that
        person read again at once, and every other web process is told."""
        self._bump(person_id)
        if self._fanout is not None:
            self._fanout.publish(TOPIC, {"person": person_id})

    def forget_all(self) -> None:
        """Every watch reads its credential again (news may have been missed)."""
        with self._lock:
            self._epoch += 1

    def watch(self, connection: HTTPConnection, person_id: int) -> "Watch":
        """The watch of one socket, opened with ``connection``'s credentials by ``person_id``."""
        return Watch(self, connection, person_id)

    def _stamp(self, person_id: int) -> tuple[int, int]:
        with self._lock:
            return self._epoch, self._generations.get(person_id, 0)

    def _bump(self, person_id: int) -> None:
        with self._lock:
            self._generations[person_id] = self._generations.get(person_id, 0) + 1

    def _heard(self, message: dict[str, Any]) -> None:
        person = message.get("person")
        if isinstance(person, int) and not isinstance(person, bool):
            self._bump(person)


class Watch:
    """One socket's credential: :meth:`still` says whether it still names its person."""

    __slots__ = ("owner", "connection", "person_id", "_stamp", "_read_at")

    def __init__(self, owner: SignedIn, connection: HTTPConnection, person_id: int):
        self.owner, self.connection, self.person_id = owner, connection, person_id
        # read at the first call (the socket's first push), although the handshake has just read
        # it: an end between that reading and this watch would otherwise go unseen
        self._stamp: tuple[int, int] | None = None
        self._read_at = 0.0

    async def still(self) -> bool:
        """Whether the credential still names the person: from memory while nothing was heard
        of them and the last reading is under :data:`RECHECK_SECONDS` old, else read from the
        database (in a thread). False once it has ended (or the database cannot say)."""
        owner = self.owner
        stamp = owner._stamp(self.person_id)
        if stamp == self._stamp and owner.clock() - self._read_at < RECHECK_SECONDS:
            return True
        # the stamp before the reading: an end heard while it runs makes the next call read again
        valid = await asyncio.to_thread(owner.read, self.connection, self.person_id)
        self._stamp, self._read_at = (stamp, owner.clock()) if valid else (None, 0.0)
        return valid


__all__ = ["RECHECK_SECONDS", "SignedIn", "TOPIC", "Watch"]
