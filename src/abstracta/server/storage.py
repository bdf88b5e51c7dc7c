"""Persistence of played games (issue 7 §1, issue 14 §1): one row per match, holding its
record and revision; each move played since as an appended row (``moves``); seat tokens,
invitations and each match's live state (clock, takeback request) in tables of their own.

SQLAlchemy 2. The default database is an SQLite file in the user's data directory (created on
first start, WAL journal); any SQLAlchemy URL works (``--db``); several processes may share
one PostgreSQL database (every commit sends ``NOTIFY abstracta, '<match id>:<revision>'``).

A match is its row's record JSON (:class:`abstracta.core.records.Record`, the "base": the moves
up to some ply) followed by its move rows (the actions after the base, one row per ply, in
notation). A move appends rows and bumps the row's revision in one transaction, guarded by
the revision it was computed from (optimistic concurrency); the record is rewritten only when
what it holds besides moves changes (result, termination, players) or a takeback reaches
into the base. The schema is Alembic's (:mod:`abstracta.server.migrations`): :func:`make_engine`
upgrades a database of an earlier version to it. One of an earlier version still (records only,
no ``moves`` table, no ``turns`` column) has its records read as the base of their matches, and
a count of turns an earlier version stored (``turns_version``) is counted again when the match
is listed.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from sqlalchemy import (DateTime, Integer, String, Text, bindparam, create_engine, delete, event, false, insert,
                        select, text, update)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import QueuePool
from sqlalchemy.sql.dml import Insert

from . import migrations
from .errors import StaleRevision, StorageFailed

log = logging.getLogger("abstracta.server")


#: the rule ``matches.turns`` is counted by: 1 for the move list's entries made by players
#: (core.turns.turns_played); earlier versions counted the record's entries, a seat's actions
#: in a row, then the numbered turns alone (leaving out a placement phase); 2: the row keeps
#: the seat to move too (``matches.to_move``, Your games says whose move it is). Raise it when
#: the count changes: rows of a lower one are counted again (:meth:`Store.recount`).
TURNS_VERSION = 2


class Base(DeclarativeBase):
    pass


class MatchRow(Base):
    """One match: its record (options, seed, players, moves, result, tags) and bookkeeping."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), index=True)
    record: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default="playing")  # playing | over
    revision: Mapped[int] = mapped_column(Integer, default=0)
    plies: Mapped[int] = mapped_column(Integer, default=0)
    # the turns played as the move list lists them (core.turns.turns_played); NULL in
    # databases of an earlier version, read as the record's entries
    turns: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    # how ``turns`` was counted (TURNS_VERSION); NULL or lower: by an earlier version, whose
    # count a player would not read in the move list, so it is counted again when listed
    turns_version: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    # the seat to move (Match.to_move), NULL when none is (over, a chance outcome next) or in a
    # row counted by an earlier version (turns_version < 2), counted again when listed
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MoveRow(Base):
    """One action played after the match's stored record: its 1-based ply and notation."""

    __tablename__ = "moves"

    match_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[str] = mapped_column(Text)
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeatTokenRow(Base):
    """A seat held by whoever knows a token: only the token's SHA-256 (hex) is stored."""

    __tablename__ = "seat_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_id: Mapped[str] = mapped_column(String(32), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class InviteRow(Base):
    """An invitation to one open person seat (SHA-256 of its code); claimed once."""

    __tablename__ = "invites"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_id: Mapped[str] = mapped_column(String(32), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, default=None)


class LiveRow(Base):
    """What a match has besides its record: clock settings and times, a pending takeback
    request, seats out on time (JSON, see :class:`abstracta.play.live.Live`)."""

    __tablename__ = "match_live"

    match_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    data: Mapped[str] = mapped_column(Text)


_matches, _moves, _lives = MatchRow.__table__, MoveRow.__table__, LiveRow.__table__
_BUMP = (update(_matches).where(_matches.c.id == bindparam("mid"), _matches.c.revision == bindparam("expected"))
         .values(revision=bindparam("revision"), status=bindparam("status"), plies=bindparam("plies"),
                 turns=bindparam("turns"), turns_version=TURNS_VERSION, to_move=bindparam("to_move"),
                 updated_at=bindparam("updated_at")))
_BUMP_WITH_RECORD = _BUMP.values(record=bindparam("record"))
_DROP_MOVES = delete(_moves).where(_moves.c.match_id == bindparam("mid"), _moves.c.ply > bindparam("keep"))
_ADD_MOVE = insert(_moves)
_RECOUNT = (update(_matches).where(_matches.c.id == bindparam("mid"), _matches.c.revision == bindparam("expected"))
            .values(turns=bindparam("turns"), turns_version=TURNS_VERSION, to_move=bindparam("to_move")))
_ADD_LIVE = insert(_lives)
_SET_LIVE = update(_lives).where(_lives.c.match_id == bindparam("mid")).values(data=bindparam("data"))


class _Statements:
    """The statements of a move (:meth:`Store.commit`) run as SQL compiled once: on SQLite
    straight on the connection's DBAPI cursor, without SQLAlchemy's per-execution work (its
    execution context, parameter processing and result wrapping were two thirds of a commit's
    CPU); elsewhere through SQLAlchemy. Same transaction, same SQL, the same text for a time
    (the dialect's own DateTime processing); an error of the database is SQLAlchemy's, as it
    raises it (a refusal: :class:`OperationalError`, which :func:`_refused` answers).

    On an SQLite file the moves are written on one pooled connection the store keeps checked
    out (:meth:`transaction`): a checkout and checkin per move, with SQLAlchemy's Connection and
    transaction objects around it, were a third of what was left of a commit's CPU (about 62 µs
    a move against 40 µs). It is the pool's own connection (its ``connect`` events, the WAL
    pragmas, applied), committed or rolled back as ``engine.begin()`` would; one that failed is given up
    (the next move checks out another), and so is the one held when the engine's pool is
    disposed (connections opened since may be set up otherwise: tests make them read-only)."""

    def __init__(self, engine: Engine, writing: Any = None):
        dialect = engine.dialect
        self.raw = dialect.name == "sqlite" and dialect.paramstyle in ("qmark", "named")
        self._compiled: dict[Any, tuple[str, tuple[str, ...], dict[str, Any]]] = {}
        self._time = DateTime(timezone=True).dialect_impl(dialect).bind_processor(dialect)
        self._dialect = dialect
        self._engine = engine
        # a pool of one connection per thread (an in-memory database) has no connection to keep
        self._keep = self.raw and isinstance(engine.pool, QueuePool)
        self._held: Any = None  # the pool's connection moves are written on (a checked-out "fairy")
        # the store's lock around its writes: a pool disposed waits for the move being written
        self._writing = writing if writing is not None else contextlib.nullcontext()
        if self._keep:
            event.listen(engine, "engine_disposed", self._disposed)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Any]:
        """A write transaction for :meth:`run`, committed at the end, rolled back on an error:
        SQLAlchemy's ``engine.begin()``, or on an SQLite file the DBAPI connection kept for it
        (the caller holds the store's writing lock: one thread at a time uses it)."""
        if not self._keep:
            with self._engine.begin() as conn:
                yield conn
            return
        held = self._held
        if held is None:
            held = self._held = self._engine.raw_connection()
        dbapi = held.dbapi_connection
        try:
            yield dbapi
            dbapi.commit()
        except BaseException as exc:
            try:
                dbapi.rollback()
            except Exception:  # noqa: BLE001 - the connection is given up below anyway
                pass
            if isinstance(exc, self._dialect.loaded_dbapi.Error) or isinstance(exc, DBAPIError):
                self._drop()
            if isinstance(exc, self._dialect.loaded_dbapi.Error):  # the commit's: as SQLAlchemy raises it
                raise DBAPIError.instance("COMMIT", None, exc, self._dialect.loaded_dbapi.Error,
                                          dialect=self._dialect) from exc
            raise

    def _disposed(self, _engine: Engine) -> None:
        with self._writing:
            self._drop()

    def _drop(self) -> None:
        """Give up the connection kept (closed, not returned to the pool; writing lock held)."""
        held, self._held = self._held, None
        if held is not None:
            with contextlib.suppress(Exception):
                held.invalidate()

    def _sql(self, statement: Any, keys: tuple[str, ...]) -> tuple[str, tuple[str, ...], dict[str, Any]]:
        found = self._compiled.get(statement)
        if found is None:
            compiled = statement.compile(dialect=self._dialect, column_keys=list(keys) or None)
            order = tuple(compiled.positiontup or ()) if compiled.positional else ()
            found = self._compiled[statement] = (compiled.string, order, dict(compiled.params))
        return found

    def _row(self, order: tuple[str, ...], fixed: dict[str, Any], values: dict[str, Any]) -> Any:
        merged = {**fixed, **values}
        for key, value in merged.items():
            if isinstance(value, datetime) and self._time is not None:
                merged[key] = self._time(value)
        return tuple(merged[k] for k in order) if order else merged

    def run(self, conn: Any, statement: Any, values: dict[str, Any] | list[dict[str, Any]]) -> int:
        """Execute ``statement`` with ``values`` (a list: once per row) in ``conn``'s
        transaction (:meth:`transaction`'s); the rows it changed."""
        if not self.raw:
            return conn.execute(statement, values).rowcount
        rows = values if isinstance(values, list) else [values]
        sql, order, fixed = self._sql(statement, tuple(rows[0]) if isinstance(statement, Insert) else ())
        cursor = (conn.connection.dbapi_connection if isinstance(conn, Connection) else conn).cursor()
        try:
            if isinstance(values, list):
                cursor.executemany(sql, [self._row(order, fixed, row) for row in rows])
            else:
                cursor.execute(sql, self._row(order, fixed, values))
            return cursor.rowcount
        except self._dialect.loaded_dbapi.Error as exc:  # as SQLAlchemy raises it (OperationalError: _refused)
            raise DBAPIError.instance(sql, None, exc, self._dialect.loaded_dbapi.Error, dialect=self._dialect) from exc
        finally:
            cursor.close()


def now() -> datetime:
    return datetime.now(timezone.utc)


def default_db_url() -> str:
    """``sqlite:///<user data dir>/abstracta.db`` (the directory is created)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("abstracta"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'abstracta.db'}"


class DatabaseError(Exception):
    """The database a URL names cannot be used: the URL does not parse, its driver is not
    installed, the file cannot be opened or the server does not answer (the message says which)."""


def make_engine(url: str | None) -> Engine:
    """An engine for ``url`` (default: :func:`default_db_url`), its schema upgraded to the
    newest revision (:func:`abstracta.server.migrations.upgrade`: tables created in a new
    database, an older one brought up to date). Raises :class:`DatabaseError` if the database
    cannot be used."""
    from alembic.util import CommandError

    try:
        return _make_engine(url)
    except (SQLAlchemyError, ImportError, OSError) as exc:
        raise DatabaseError(_why(exc)) from exc
    except CommandError as exc:  # a revision this version does not know: a newer one wrote the database
        raise DatabaseError(f"its schema cannot be upgraded by this version of abstracta ({exc})") from exc


def _why(exc: BaseException) -> str:
    """One line saying why a database could not be used (no SQL, no links to the docs)."""
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.strerror or exc}: {exc.filename}"
    if isinstance(exc, ImportError):
        return f"its driver is not installed ({exc})"
    cause = getattr(exc, "orig", None) or exc
    lines = str(cause).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _make_engine(url: str | None) -> Engine:
    url = url or default_db_url()
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        path = make_url(url).database or ""  # decoded: a file name may hold an escaped ? or #
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:  # pragma: no cover - trivial
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

    before, after = migrations.upgrade(engine)
    if before is not None and before != after:
        log.warning("the games database was upgraded from revision %s to %s", before, after)
    # a database that only reads (a read-only file, a standby server) would take no game nor
    # move: said now, not as the first player's refusal. A write that touches no row asks.
    with engine.begin() as conn:
        conn.execute(delete(_matches).where(false()))
    return engine


def serve_alone(url: str) -> Any:
    """For an SQLite file: hold a lock beside it while this process serves it (the returned
    object; released when the process ends, however it ends), since SQLite serves one process
    — a second would keep its own copy of every match and show games as they were before the
    first took their moves. None for any other database. Raises :class:`DatabaseError` if
    another process holds it."""
    from filelock import FileLock, Timeout

    parsed = make_url(url)
    path = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or path in ("", ":memory:"):
        return None
    if parsed.query.get("uri") and path.startswith("file:"):
        path = path[len("file:"):].split("?", 1)[0]
    lock = FileLock(f"{path}.lock", timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise DatabaseError(f"{path} is served by another abstracta serve process (SQLite serves one; "
                            "several processes need PostgreSQL)") from None
    except OSError as exc:
        raise DatabaseError(_why(exc)) from exc
    return lock


@contextlib.contextmanager
def _refused(writing: bool = True) -> Iterator[None]:
    """What the database refuses (SQLite: a read-only file, a full disk, a folder gone;
    PostgreSQL: a server gone) becomes :class:`StorageFailed`: the database's reason in the
    operator's log, its lead ("connection failed", not the host and port that follow) in the
    client's answer; never the statement or its values, which may hold a record with hidden
    cards."""
    try:
        yield
    except OperationalError as exc:
        reason = _why(exc)
        log.warning("the database %s: %s", "refused to store a change" if writing else "could not be read", reason)
        lead = reason.split(":", 1)[0][:100]
        if writing:
            raise StorageFailed(f"the games database refused to store this ({lead}): nothing was changed; "
                                "try again later", i18n={"key": "error.storage_refused", "params": {"reason": lead}}) from None
        raise StorageFailed(f"the games database could not be read ({lead}): try again later",
                            i18n={"key": "error.storage_unreadable", "params": {"reason": lead}}) from None


@dataclass
class Stored:
    """Everything stored of one match, read in one transaction."""

    row: MatchRow
    moves: list[tuple[int, str]]  # (ply, notation) after the record, in order
    tokens: list[tuple[str, int]]
    live: str | None


class Store:
    """Thin repository over the ``matches`` table."""

    def __init__(self, url: str | None):
        self.engine = make_engine(url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        #: other processes may serve the same database (PostgreSQL): cached matches are checked
        #: against it before an act, and commits are announced (NOTIFY)
        self.shared = self.engine.dialect.name == "postgresql"
        # SQLite has one writer at a time and makes the others sleep and retry (up to 100 ms
        # per try): writers of this process queue on a lock instead and are woken at once
        self._writing = threading.Lock() if self.engine.dialect.name == "sqlite" else contextlib.nullcontext()
        self._statements = _Statements(self.engine, self._writing)

    @contextlib.contextmanager
    def writing(self) -> Iterator[Session]:
        """A session in a write transaction (committed at the end, rolled back on error)."""
        with _refused(), self._writing, self.session() as s, s.begin():
            yield s

    def session(self) -> Session:
        return self._sessions()

    @contextlib.contextmanager
    def reading(self) -> Iterator[Session]:
        """A session for reads; a database that cannot be read raises :class:`StorageFailed`."""
        with _refused(writing=False), self.session() as s:
            yield s

    def get(self, match_id: str) -> MatchRow | None:
        with self.reading() as s:
            return s.get(MatchRow, match_id)

    def listen_url(self) -> str | None:
        """A libpq URL for a LISTEN connection (None: the database has no notifications)."""
        if self.engine.dialect.name != "postgresql":
            return None
        return self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def load(self, match_id: str) -> Stored | None:
        """The match row with its move rows, tokens and live state (None: no such match)."""
        with self.reading() as s:
            row = s.get(MatchRow, match_id)
            if row is None:
                return None
            moves = [(m.ply, m.action) for m in s.scalars(
                select(MoveRow).where(MoveRow.match_id == match_id).order_by(MoveRow.ply))]
            tokens = [(r.token_hash, r.seat) for r in
                      s.scalars(select(SeatTokenRow).where(SeatTokenRow.match_id == match_id))]
            live = s.get(LiveRow, match_id)
            return Stored(row, moves, tokens, live.data if live is not None else None)

    def revision(self, match_id: str) -> int | None:
        """The stored revision of the match (None: no such match): one indexed read."""
        with self.reading() as s:
            return s.scalar(select(MatchRow.revision).where(MatchRow.id == match_id))

    def create(self, match_id: str, game: str, record_json: str, status: str, plies: int, turns: int,
               *, live: str, to_move: int | None = None, tokens: list[tuple[str, int]] = (), invites: list[tuple[str, int]] = ()) -> None:
        """Insert a new match at revision 0 with its live state, seat tokens and invitations
        (``(sha256 hex, seat)`` pairs), in one transaction."""
        with self.writing() as s:
            stamp = now()
            s.add(MatchRow(id=match_id, game=game, record=record_json, status=status, revision=0,
                           plies=plies, turns=turns, turns_version=TURNS_VERSION, to_move=to_move, created_at=stamp,
                           updated_at=stamp))
            s.add(LiveRow(match_id=match_id, data=live))
            for digest, seat in tokens:
                if s.get(SeatTokenRow, digest) is None:  # a retried change stores it once
                    s.add(SeatTokenRow(token_hash=digest, match_id=match_id, seat=seat, created_at=stamp))
            for digest, seat in invites:
                s.add(InviteRow(code_hash=digest, match_id=match_id, seat=seat, created_at=stamp))
            self._notify(s, match_id, 0)

    def commit(self, match_id: str, expected_revision: int, *, status: str, plies: int, turns: int,
               keep: int, to_move: int | None = None, add: list[tuple[int, str]] = (), record_json: str | None = None,
               live: str | None = None, before: int | None = None) -> None:
        """Store one change of a match in one transaction: the row moves from
        ``expected_revision`` to the next, move rows after ply ``keep`` are dropped (a takeback;
        ``keep`` = the previous ply otherwise, or ``before``, the ply stored until now, is
        past it: rows replaced by ``add``, a computer's turn put in canonical order), ``add``
        rows ``(ply, notation)`` are appended,
        the record is replaced when ``record_json`` is given (then every move row goes: the
        record holds all moves), the live state when ``live`` is given.

        Raises :class:`abstracta.server.errors.StaleRevision` (nothing written) when the row is
        no longer at ``expected_revision`` (another process changed it) or is gone, and
        :class:`~abstracta.server.errors.StorageFailed` (nothing written) when the database
        refuses the write.
        """
        # statements built once (module level), run on a plain connection: a move is two or
        # three short statements, without the ORM's bookkeeping
        with _refused(), self._writing, self._statements.transaction() as conn:
            values: dict[str, Any] = {"mid": match_id, "expected": expected_revision, "revision": expected_revision + 1,
                                      "status": status, "plies": plies, "turns": turns, "to_move": to_move,
                                      "updated_at": now()}
            if record_json is not None:
                values["record"] = record_json
            run = self._statements.run
            if run(conn, _BUMP_WITH_RECORD if record_json is not None else _BUMP, values) != 1:
                raise StaleRevision(match_id)
            if record_json is not None:
                run(conn, _DROP_MOVES, {"mid": match_id, "keep": 0})
            else:
                if add and add[0][0] <= keep:
                    raise ValueError("appended move rows must come after the kept ones")
                # a takeback, rows replaced or no new move: the rows after keep go
                if keep < plies - len(add) or not add or (before is not None and keep < before):
                    run(conn, _DROP_MOVES, {"mid": match_id, "keep": keep})
                if add:
                    stamp = now()
                    run(conn, _ADD_MOVE, [{"match_id": match_id, "ply": ply, "action": action, "played_at": stamp}
                                          for ply, action in add])
            if live is not None:
                if run(conn, _SET_LIVE, {"mid": match_id, "data": live}) != 1:
                    run(conn, _ADD_LIVE, {"match_id": match_id, "data": live})
            self._notify(conn, match_id, expected_revision + 1)

    def recount(self, match_id: str, revision: int, turns: int, to_move: int | None = None) -> bool:
        """Store ``turns`` counted as :data:`TURNS_VERSION` counts for the match at ``revision``,
        and the seat to move then (False: it has moved on, and its next commit counts). Not a
        change of the match: its revision and time stay, nobody is told."""
        with _refused(), self._writing, self.engine.begin() as conn:
            return conn.execute(_RECOUNT, {"mid": match_id, "expected": revision, "turns": turns,
                                           "to_move": to_move}).rowcount == 1

    def _notify(self, s: Session | Connection, match_id: str, revision: int) -> None:
        """Tell the other processes on this database (delivered at commit, not before)."""
        if self.engine.dialect.name == "postgresql":
            s.execute(text("SELECT pg_notify('abstracta', :payload)"), {"payload": f"{match_id}:{revision}"})

    def delete(self, match_id: str) -> bool:
        """Remove the row ``match_id`` with its tokens, invitations and live state; False if
        there was none."""
        with self.writing() as s:
            row = s.get(MatchRow, match_id)
            if row is None:
                return False
            s.delete(row)
            for table in (SeatTokenRow, InviteRow, LiveRow, MoveRow):
                s.execute(delete(table).where(table.match_id == match_id))
            self._notify(s, match_id, -1)
            return True

    # --- seats, invitations, live state ---------------------------------------------------------
    def seat_tokens(self, match_id: str) -> list[tuple[str, int]]:
        """``(sha256 hex, seat)`` of every token of the match."""
        with self.reading() as s:
            return [(r.token_hash, r.seat) for r in
                    s.scalars(select(SeatTokenRow).where(SeatTokenRow.match_id == match_id))]

    def add_tokens(self, match_id: str, tokens: list[tuple[str, int]]) -> None:
        """Store more tokens of seats of the match (``(sha256 hex, seat)``): a person holding a
        seat by their session is given one for their browser (issue 42)."""
        with self.writing() as s:
            stamp = now()
            for digest, seat in tokens:
                if s.get(SeatTokenRow, digest) is None:  # a retried change stores it once
                    s.add(SeatTokenRow(token_hash=digest, match_id=match_id, seat=seat, created_at=stamp))

    def matches_of(self, digests: list[str]) -> dict[str, set[int]]:
        """Match id -> seats held, for the tokens whose SHA-256 (hex) are ``digests``."""
        out: dict[str, set[int]] = {}
        if not digests:
            return out
        with self.reading() as s:
            for r in s.scalars(select(SeatTokenRow).where(SeatTokenRow.token_hash.in_(digests))):
                out.setdefault(r.match_id, set()).add(r.seat)
        return out

    def claimed_of(self, ids: list[str]) -> dict[str, set[int]]:
        """Match id -> the seats someone holds a token of (``Match.claimed``), for ``ids``."""
        out: dict[str, set[int]] = {i: set() for i in ids}
        if not ids:
            return out
        with self.reading() as s:
            for mid, seat in s.execute(select(SeatTokenRow.match_id, SeatTokenRow.seat)
                                       .where(SeatTokenRow.match_id.in_(ids))):
                out[mid].add(seat)
        return out

    def rows(self, ids: list[str], limit: int) -> list[MatchRow]:
        """The match rows ``ids``, most recently played first."""
        if not ids:
            return []
        with self.reading() as s:
            return list(s.scalars(select(MatchRow).where(MatchRow.id.in_(ids))
                                  .order_by(MatchRow.updated_at.desc()).limit(limit)))

    def invite(self, code_hash: str) -> InviteRow | None:
        with self.reading() as s:
            return s.get(InviteRow, code_hash)

    def invites_of(self, match_id: str) -> list[InviteRow]:
        with self.reading() as s:
            return list(s.scalars(select(InviteRow).where(InviteRow.match_id == match_id)))

    def claim(self, code_hash: str, token_hash: str) -> tuple[str, int] | None:
        """Claim the invitation ``code_hash`` for the token ``token_hash`` in one transaction:
        ``(match id, seat)``, or None if there is no such invitation or it was claimed already
        (a conditional UPDATE, so two concurrent claims cannot both win)."""
        with self.writing() as s:
            invite = s.get(InviteRow, code_hash)
            if invite is None or invite.claimed_at is not None:
                return None
            done = s.execute(update(InviteRow).where(InviteRow.code_hash == code_hash,
                                                     InviteRow.claimed_at.is_(None))
                             .values(claimed_at=now()))
            if done.rowcount != 1:
                return None
            s.add(SeatTokenRow(token_hash=token_hash, match_id=invite.match_id, seat=invite.seat,
                               created_at=now()))
            return invite.match_id, invite.seat

    def unclaim(self, code_hash: str, token_hash: str) -> None:
        """Undo :meth:`claim` of the invitation ``code_hash`` for the token ``token_hash`` (its
        seat could not be given to its person): the token goes, the invitation works again."""
        with self.writing() as s:
            s.execute(delete(SeatTokenRow).where(SeatTokenRow.token_hash == token_hash))
            s.execute(update(InviteRow).where(InviteRow.code_hash == code_hash).values(claimed_at=None))

    def replace_invites(self, match_id: str, invites: list[tuple[str, int]]) -> None:
        """Drop the unclaimed invitations of the match and store ``invites`` (``(sha256 hex,
        seat)``) instead, in one transaction."""
        with self.writing() as s:
            s.execute(delete(InviteRow).where(InviteRow.match_id == match_id, InviteRow.claimed_at.is_(None)))
            stamp = now()
            for digest, seat in invites:
                s.add(InviteRow(code_hash=digest, match_id=match_id, seat=seat, created_at=stamp))

    def lives(self, ids: list[str]) -> dict[str, str]:
        """{match id: live state} of the matches ``ids`` that have one."""
        if not ids:
            return {}
        with self.reading() as s:
            return dict(s.execute(select(LiveRow.match_id, LiveRow.data).where(LiveRow.match_id.in_(ids))).all())

    def live(self, match_id: str) -> str | None:
        with self.reading() as s:
            row = s.get(LiveRow, match_id)
            return row.data if row is not None else None

    def save_live(self, match_id: str, data: str) -> None:
        with self.writing() as s:
            row = s.get(LiveRow, match_id)
            if row is None:
                s.add(LiveRow(match_id=match_id, data=data))
            else:
                row.data = data

    def list(self, limit: int = 50) -> list[MatchRow]:
        with self.reading() as s:
            rows = s.scalars(select(MatchRow).order_by(MatchRow.updated_at.desc()).limit(limit))
            return list(rows)

    def unfinished_ids(self) -> Iterator[str]:
        with self.reading() as s:
            for (mid,) in s.execute(select(MatchRow.id).where(MatchRow.status == "playing")):
                yield mid

    def dispose(self) -> None:
        self.engine.dispose()  # the connection moves were written on goes with the pool (_Statements)
