"""Persistence of played games (issue 7 §1): one row per match, holding its record; seat
tokens, invitations and each match's live state (clock, takeback request) in tables of their own
(issue 13; ``create_all`` adds them to an existing database).

SQLAlchemy 2. The default database is an SQLite file in the user's data directory (created on
first start, WAL journal); any SQLAlchemy URL works (``--db``). Each row stores the match's
record JSON (:class:`abstracta.core.records.Record`) and is rewritten in the same transaction
that accepts a move, so a match survives a restart at its last accepted move.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from sqlalchemy import DateTime, Integer, String, Text, create_engine, delete, event, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker


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
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


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
    request, seats out on time (JSON, see :class:`abstracta.server.matches.Live`)."""

    __tablename__ = "match_live"

    match_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    data: Mapped[str] = mapped_column(Text)


def now() -> datetime:
    return datetime.now(timezone.utc)


def default_db_url() -> str:
    """``sqlite:///<user data dir>/abstracta.db`` (the directory is created)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("abstracta"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'abstracta.db'}"


def make_engine(url: str | None) -> Engine:
    """An engine for ``url`` (default: :func:`default_db_url`), tables created."""
    url = url or default_db_url()
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        path = url.split(":///", 1)[1] if ":///" in url else ""
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

    Base.metadata.create_all(engine)
    return engine


class Store:
    """Thin repository over the ``matches`` table."""

    def __init__(self, url: str | None):
        self.engine = make_engine(url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def session(self) -> Session:
        return self._sessions()

    def get(self, match_id: str) -> MatchRow | None:
        with self.session() as s:
            return s.get(MatchRow, match_id)

    def save(self, match_id: str, game: str, record_json: str, status: str, revision: int,
             plies: int, expected_revision: int | None, *, live: str | None = None,
             tokens: list[tuple[str, int]] = (), invites: list[tuple[str, int]] = ()) -> None:
        """Insert or update a row in one transaction, with the match's live state (JSON text,
        when given) and, for a new match, its seat tokens and invitations
        (``(sha256 hex, seat)`` pairs).

        ``expected_revision`` (None for a new row) guards against lost updates: the row must
        still be at that revision, otherwise :class:`RuntimeError` and nothing is written.
        """
        with self.session() as s, s.begin():
            row = s.get(MatchRow, match_id)
            stamp = now()
            if live is not None:
                live_row = s.get(LiveRow, match_id)
                if live_row is None:
                    s.add(LiveRow(match_id=match_id, data=live))
                else:
                    live_row.data = live
            if row is None:
                if expected_revision is not None:
                    raise RuntimeError(f"match {match_id} vanished from the database")
                s.add(MatchRow(id=match_id, game=game, record=record_json, status=status,
                               revision=revision, plies=plies, created_at=stamp, updated_at=stamp))
                for digest, seat in tokens:
                    s.add(SeatTokenRow(token_hash=digest, match_id=match_id, seat=seat, created_at=stamp))
                for digest, seat in invites:
                    s.add(InviteRow(code_hash=digest, match_id=match_id, seat=seat, created_at=stamp))
            else:
                if expected_revision is None or row.revision != expected_revision:
                    raise RuntimeError(f"match {match_id} was changed concurrently")
                row.record = record_json
                row.status = status
                row.revision = revision
                row.plies = plies
                row.updated_at = stamp

    def delete(self, match_id: str) -> bool:
        """Remove the row ``match_id`` with its tokens, invitations and live state; False if
        there was none."""
        with self.session() as s, s.begin():
            row = s.get(MatchRow, match_id)
            if row is None:
                return False
            s.delete(row)
            for table in (SeatTokenRow, InviteRow, LiveRow):
                s.execute(delete(table).where(table.match_id == match_id))
            return True

    # --- seats, invitations, live state ---------------------------------------------------------
    def seat_tokens(self, match_id: str) -> list[tuple[str, int]]:
        """``(sha256 hex, seat)`` of every token of the match."""
        with self.session() as s:
            return [(r.token_hash, r.seat) for r in
                    s.scalars(select(SeatTokenRow).where(SeatTokenRow.match_id == match_id))]

    def matches_of(self, digests: list[str]) -> dict[str, set[int]]:
        """Match id -> seats held, for the tokens whose SHA-256 (hex) are ``digests``."""
        out: dict[str, set[int]] = {}
        if not digests:
            return out
        with self.session() as s:
            for r in s.scalars(select(SeatTokenRow).where(SeatTokenRow.token_hash.in_(digests))):
                out.setdefault(r.match_id, set()).add(r.seat)
        return out

    def rows(self, ids: list[str], limit: int) -> list[MatchRow]:
        """The match rows ``ids``, most recently played first."""
        if not ids:
            return []
        with self.session() as s:
            return list(s.scalars(select(MatchRow).where(MatchRow.id.in_(ids))
                                  .order_by(MatchRow.updated_at.desc()).limit(limit)))

    def invite(self, code_hash: str) -> InviteRow | None:
        with self.session() as s:
            return s.get(InviteRow, code_hash)

    def invites_of(self, match_id: str) -> list[InviteRow]:
        with self.session() as s:
            return list(s.scalars(select(InviteRow).where(InviteRow.match_id == match_id)))

    def claim(self, code_hash: str, token_hash: str) -> tuple[str, int] | None:
        """Claim the invitation ``code_hash`` for the token ``token_hash`` in one transaction:
        ``(match id, seat)``, or None if there is no such invitation or it was claimed already
        (a conditional UPDATE, so two concurrent claims cannot both win)."""
        with self.session() as s, s.begin():
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

    def replace_invites(self, match_id: str, invites: list[tuple[str, int]]) -> None:
        """Drop the unclaimed invitations of the match and store ``invites`` (``(sha256 hex,
        seat)``) instead, in one transaction."""
        with self.session() as s, s.begin():
            s.execute(delete(InviteRow).where(InviteRow.match_id == match_id, InviteRow.claimed_at.is_(None)))
            stamp = now()
            for digest, seat in invites:
                s.add(InviteRow(code_hash=digest, match_id=match_id, seat=seat, created_at=stamp))

    def live(self, match_id: str) -> str | None:
        with self.session() as s:
            row = s.get(LiveRow, match_id)
            return row.data if row is not None else None

    def save_live(self, match_id: str, data: str) -> None:
        with self.session() as s, s.begin():
            row = s.get(LiveRow, match_id)
            if row is None:
                s.add(LiveRow(match_id=match_id, data=data))
            else:
                row.data = data

    def list(self, limit: int = 50) -> list[MatchRow]:
        with self.session() as s:
            rows = s.scalars(select(MatchRow).order_by(MatchRow.updated_at.desc()).limit(limit))
            return list(rows)

    def unfinished_ids(self) -> Iterator[str]:
        with self.session() as s:
            for (mid,) in s.execute(select(MatchRow.id).where(MatchRow.status == "playing")):
                yield mid

    def dispose(self) -> None:
        self.engine.dispose()
