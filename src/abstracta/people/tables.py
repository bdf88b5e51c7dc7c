"""The people tables (issue 41), SQLAlchemy 2 declarative, in the style of
``abstracta.server.storage``: SQLite by default, PostgreSQL by URL, timestamps with time zone.

They have their own :data:`metadata` (this package does not import the server). In the web
app's database Alembic's revision 0002 creates them (``abstracta.server.migrations``; a change
here is a new revision there); :func:`create_tables` makes them on a database of their own. Links to matches are
plain ``match_id`` columns, as the server's own tables link theirs (no foreign keys across the
two).

Secrets are never stored in clear: ``password_hash`` is Argon2id's PHC string; sessions, API
tokens and recovery codes are kept as the SHA-256 of their secret.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


metadata = Base.metadata


class PersonRow(Base):
    """A person: a guest (a name, no password) or an account (a username and a password hash).
    A guest who signs up becomes the account in this same row, so seats held by its id stay
    theirs. A deleted account keeps its row without name or hash (``kind`` ``deleted``), so that
    its games read "deleted player" and its id is never given again."""

    __tablename__ = "people"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(8))  # guest | account | deleted
    name: Mapped[str | None] = mapped_column(String(20), nullable=True)
    # the name in lower case: unique (NULL for the deleted; NULLs never clash)
    name_key: Mapped[str | None] = mapped_column(String(20), nullable=True, unique=True)
    password_hash: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # when the guest made the account (member since)
    account_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    disabled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class SessionRow(Base):
    """A signed-in browser (or a guest's): the SHA-256 of the cookie's secret."""

    __tablename__ = "people_sessions"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # shown in the list of sessions
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    user_agent: Mapped[str] = mapped_column(String(200), default="")
    ip: Mapped[str] = mapped_column(String(64), default="")


class ApiTokenRow(Base):
    """A personal API token (``abst_…``): its SHA-256, what it may do, when last used."""

    __tablename__ = "api_tokens"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    description: Mapped[str] = mapped_column(String(60))
    scopes: Mapped[str] = mapped_column(String(200))  # space-separated
    hint: Mapped[str] = mapped_column(String(12))  # its first characters ("abst_AbC"), to tell tokens apart
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class RecoveryCodeRow(Base):
    """One recovery code of an account (SHA-256 of its normal form); used once."""

    __tablename__ = "recovery_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class RatingRow(Base):
    """A person's Glicko-2 rating in one pool (``<game>.<variant>.<speed>``)."""

    __tablename__ = "ratings"

    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), primary_key=True)
    pool: Mapped[str] = mapped_column(String(140), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    rated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # its last rated game

    __table_args__ = (Index("ix_ratings_pool_rating", "pool", "rating"),)


class RatingHistoryRow(Base):
    """A rating after one rated game (the profile's graph, the leaderboard's activity)."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"))
    pool: Mapped[str] = mapped_column(String(140))
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    before: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_rating_history_person_pool_at", "person_id", "pool", "at"),
                      Index("ix_rating_history_pool_at", "pool", "at"))


class GameResultRow(Base):
    """How a finished game went for one person seated in it: the profile's results per game
    and recent games, the rating change shown at the game's end."""

    __tablename__ = "game_results"

    match_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(64))
    pool: Mapped[str | None] = mapped_column(String(140), nullable=True)  # null: no declared variant
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    outcome: Mapped[str] = mapped_column(String(8))  # win | draw | loss
    score: Mapped[float] = mapped_column(Float)  # this seat's share of the pairwise results, 0…1
    rating_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    rating_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_game_results_person_at", "person_id", "finished_at"),)


class SeatPersonRow(Base):
    """A seat that belongs to a person (an account, or a guest by its session): the game opens
    with its controls wherever they are signed in. Written by the match service when a
    signed-in person creates a match or claims an invitation (the integration of issue 41 §2)."""

    __tablename__ = "seat_people"

    match_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LevelResultRow(Base):
    """A rated-account person's result against a computer level (never rated for them): the
    evidence, beside the level ladder, for each level's approximate rating."""

    __tablename__ = "level_results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(String(32))
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    family: Mapped[str] = mapped_column(String(140))  # <game>.<variant>
    level: Mapped[int] = mapped_column(Integer)
    score: Mapped[float] = mapped_column(Float)  # the person's: 1, 0.5, 0
    rating: Mapped[float] = mapped_column(Float)  # the person's rating then (their pool's)
    deviation: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_level_results_family_level", "family", "level"),)


def create_tables(engine: Engine) -> None:
    """Create the tables of this module that ``engine``'s database lacks (never alters one)."""
    metadata.create_all(engine)


__all__ = ["ApiTokenRow", "Base", "GameResultRow", "LevelResultRow", "PersonRow", "RatingHistoryRow", "RatingRow",
           "RecoveryCodeRow", "SeatPersonRow", "SessionRow", "create_tables", "metadata"]
