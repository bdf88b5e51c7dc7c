"""The people tables' connection: sessions on a shared engine (the match store's), with
SQLite's writers queued on one lock as ``abstracta.server.storage`` queues its own."""

from __future__ import annotations

import contextlib
import logging
import threading
from datetime import datetime, timezone
from typing import Callable, Iterable, Iterator

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from .errors import PeopleError
from .tables import PersonRow, create_tables
from .values import Person

log = logging.getLogger("abstracta.people")


class StorageUnavailable(PeopleError):
    """The database refused a read or a write (nothing was changed)."""

    retry_after = 10


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def aware(moment: datetime | None) -> datetime | None:
    """A stored time with its zone (SQLite gives back naive datetimes, stored as UTC)."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=timezone.utc)


class Database:
    """Sessions on ``engine`` (tables created); ``now``: the clock (tests move it)."""

    def __init__(self, engine: Engine, now: Callable[[], datetime] = utcnow):
        create_tables(engine)
        self.engine = engine
        self.now = now
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._lock = threading.Lock() if engine.dialect.name == "sqlite" else contextlib.nullcontext()
        #: called with a person's id once a transaction that ended some of their sessions or API
        #: tokens (or disabled them) has committed (:meth:`ends`): the web app's sockets, which
        #: do not read the database at every push, hear of it at once (server/signed_in.py)
        self.on_ended: list[Callable[[int], None]] = []

    @contextlib.contextmanager
    def writing(self) -> Iterator[Session]:
        """A write transaction (committed at the end, rolled back on an error)."""
        with self._refused(True), self._lock, self._sessions() as s, s.begin():
            yield s
        for person_id in s.info.pop(_ENDED, ()):
            for hook in list(self.on_ended):
                try:
                    hook(person_id)
                except Exception:  # noqa: BLE001 - a listener's bug must not undo a sign-out
                    log.exception("a listener of ended sessions failed")

    @staticmethod
    def ends(s: Session, person_id: int) -> None:
        """Say, inside a :meth:`writing` transaction, that it ends sessions or API tokens of
        ``person_id`` (deletes them, or disables the person): :attr:`on_ended` hears it once
        the transaction has committed, never for one rolled back. Every change that can end a
        credential says so; one that did not would be noticed by a socket only at its next
        reading of the database (server/signed_in.py: within a minute)."""
        s.info.setdefault(_ENDED, set()).add(person_id)

    @contextlib.contextmanager
    def reading(self) -> Iterator[Session]:
        with self._refused(False), self._sessions() as s:
            yield s

    @staticmethod
    @contextlib.contextmanager
    def _refused(writing: bool) -> Iterator[None]:
        try:
            yield
        except OperationalError as exc:
            # the driver's reason in the operator's log, never the statement's values
            reason = str(getattr(exc, "orig", exc)).splitlines()[0][:200] if str(getattr(exc, "orig", exc)) else type(exc).__name__
            log.warning("the people database %s: %s", "refused a change" if writing else "could not be read", reason)
            raise StorageUnavailable("the database could not be used just now: nothing was changed; try again later",
                                     key="people.error.storage") from None


#: The key of :meth:`Database.ends`'s people in a transaction's ``Session.info``.
_ENDED = "abstracta.ended"


def hold(s: Session, people: Iterable[int]) -> None:
    """Inside a write transaction that reads something of ``people`` and then writes it back (a
    rating, a count against a limit, a row keyed by them): lock their rows, always in the order
    of their ids, so that two such transactions sharing a person take turns on PostgreSQL (the
    second reads what the first committed) and never wait for each other crosswise.
    SQLite queues every writer already (:meth:`Database.writing`)."""
    s.execute(select(PersonRow.id).where(PersonRow.id.in_(sorted(set(people)))).order_by(PersonRow.id)
              .with_for_update()).all()


def person_of(row: PersonRow) -> Person:
    return Person(id=row.id, kind=row.kind, name=row.name, created_at=aware(row.created_at),
                  account_at=aware(row.account_at), disabled=row.disabled_at is not None)


__all__ = ["Database", "StorageUnavailable", "aware", "hold", "person_of", "utcnow"]
