"""Persistence of played games (issue 7 §1): one row per match, holding its record.

SQLAlchemy 2. The default database is an SQLite file in the user's data directory (created on
first start, WAL journal); any SQLAlchemy URL works (``--db``). Each row stores the match's
record JSON (:class:`abstracta.core.records.Record`) and is rewritten in the same transaction
that accepts a move, so a match survives a restart at its last accepted move.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from sqlalchemy import DateTime, Integer, String, Text, create_engine, event, select
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
             plies: int, expected_revision: int | None) -> None:
        """Insert or update a row in one transaction.

        ``expected_revision`` (None for a new row) guards against lost updates: the row must
        still be at that revision, otherwise :class:`RuntimeError` and nothing is written.
        """
        with self.session() as s, s.begin():
            row = s.get(MatchRow, match_id)
            stamp = now()
            if row is None:
                if expected_revision is not None:
                    raise RuntimeError(f"match {match_id} vanished from the database")
                s.add(MatchRow(id=match_id, game=game, record=record_json, status=status,
                               revision=revision, plies=plies, created_at=stamp, updated_at=stamp))
            else:
                if expected_revision is None or row.revision != expected_revision:
                    raise RuntimeError(f"match {match_id} was changed concurrently")
                row.record = record_json
                row.status = status
                row.revision = revision
                row.plies = plies
                row.updated_at = stamp

    def delete(self, match_id: str) -> bool:
        """Remove the row ``match_id``; False if there was none."""
        with self.session() as s, s.begin():
            row = s.get(MatchRow, match_id)
            if row is None:
                return False
            s.delete(row)
            return True

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
