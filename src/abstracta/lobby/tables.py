"""The lobby's tables (issue 42), SQLAlchemy 2 declarative in the style of
``abstracta.people.tables``: their own :data:`metadata`. In the web app's database Alembic's
revision 0004 creates them (``abstracta.server.migrations``; a change here is a new revision
there); :func:`create_tables` makes them on a database of their own. People and matches are linked by plain id
columns, as the people tables link matches.

The state of the lobby lives here, not in a process's memory, so that several server processes
share it: seeks, quick pairing's waits, challenges, blocks, and the games the lobby started.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Float, Index, Integer, String, Text, func
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


metadata = Base.metadata


class SeekRow(Base):
    """An open seek (``closed_at`` null) or one that was taken (``match_id``), cancelled or
    expired. ``spec``: the game as JSON (:class:`~abstracta.lobby.controls.GameSpec`)."""

    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    person_id: Mapped[int] = mapped_column(Integer, index=True)
    spec: Mapped[str] = mapped_column(Text)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the seat the seeker wants (null: either)
    rating: Mapped[float] = mapped_column(Float)  # the seeker's in the game's pool when made (listed: as it is now)
    provisional: Mapped[bool] = mapped_column(Boolean, default=True)
    rating_min: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rating_max: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    how: Mapped[str | None] = mapped_column(String(12), nullable=True)  # taken | cancelled | expired | playing (its seeker began a live game)
    accepted_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)

    __table_args__ = (Index("ix_seeks_open", "closed_at", "created_at"),)


# the same seek open twice (a double click handled by two workers at once) is refused by the
# database, which a read before the insert cannot do (both read "none yet"): what makes two seeks
# the same is what ``Seeks.open`` compares; null (either seat, an open bound) counts as a value
# here, as there, so -1 (no seat, no rating) stands for it
Index("uq_seeks_open_same", SeekRow.person_id, SeekRow.spec, func.coalesce(SeekRow.seat, -1),
      func.coalesce(SeekRow.rating_min, -1), func.coalesce(SeekRow.rating_max, -1), unique=True,
      sqlite_where=SeekRow.closed_at.is_(None), postgresql_where=SeekRow.closed_at.is_(None))


class QuickWaitRow(Base):
    """A person waiting in quick pairing ("Play now") for ``spec`` (its ``key``), since
    ``since``; ``match_id`` once paired (kept a little while, to take them there)."""

    __tablename__ = "quick_waits"

    person_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(400), index=True)
    spec: Mapped[str] = mapped_column(Text)
    rating: Mapped[float] = mapped_column(Float)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    paired_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ChallengeRow(Base):
    """A challenge from one person to another: ``status`` open | accepted | declined |
    cancelled | expired; ``match_id`` once accepted."""

    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    from_id: Mapped[int] = mapped_column(Integer, index=True)
    to_id: Mapped[int] = mapped_column(Integer, index=True)
    spec: Mapped[str] = mapped_column(Text)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the challenger's seat (null: either)
    status: Mapped[str] = mapped_column(String(10), default="open")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    answered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class BlockRow(Base):
    """``person_id`` blocks ``blocked_id``: no challenges, no chat, no pairing between them."""

    __tablename__ = "blocks"

    person_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    blocked_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LobbyGameRow(Base):
    """A match the lobby started (a seek taken, a quick pairing, a challenge accepted, a
    rematch, the computer offered): whether it is rated, and where it came from."""

    __tablename__ = "lobby_games"

    match_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    source: Mapped[str] = mapped_column(String(12))  # seek | quick | challenge | rematch | computer
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def create_tables(engine: Engine) -> None:
    """Create the lobby's tables that ``engine``'s database lacks (never alters one)."""
    metadata.create_all(engine)


__all__ = ["Base", "BlockRow", "ChallengeRow", "LobbyGameRow", "QuickWaitRow", "SeekRow", "create_tables",
           "metadata"]
