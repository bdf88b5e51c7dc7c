"""The tables of a match's company (issue 43): its chat lines, the reports of lines and the
chat bans the operator keeps, the Web Push subscriptions of its seats, and the server's own
keys (the VAPID key pair of Web Push, made on first start).

SQLAlchemy 2 declarative, with a metadata of their own as :mod:`abstracta.people.tables` has.
Alembic's revision 0003 creates them (:mod:`abstracta.server.migrations`;
:data:`abstracta.server.schema.METADATA` lists this metadata with the others: a change here is a
new revision). Links to matches and
people are plain ``match_id`` / ``person_id`` columns, as the other tables link theirs.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


metadata = Base.metadata


class ChatLineRow(Base):
    """One line of a match's chat: its ``room`` (``players`` or ``spectators``), who wrote it
    (the seat for a player, the person where one is known) and the name shown at the time it
    was written, its text (at most 140 characters) and the ply it was written at (its place in
    the replay)."""

    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(String(32))
    room: Mapped[str] = mapped_column(String(12))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    person_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    name: Mapped[str] = mapped_column(String(40))
    # the name is the seat's in the game ("White", "Player 2"), not a person's; ``name_key``: the
    # catalog key of a seat's colour, said in the reader's language
    seat_named: Mapped[bool] = mapped_column(Boolean, default=False)
    name_key: Mapped[str | None] = mapped_column(String(80), nullable=True)
    text: Mapped[str] = mapped_column(String(560))  # 140 characters, up to 4 bytes each
    ply: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_chat_lines_match_id", "match_id", "id"),)


class ChatReportRow(Base):
    """A line someone reported, kept for the operator (``abstracta moderation list``) with a
    copy of the line: the match may be deleted meanwhile, the report stays. One report per line
    and reporter (``reporter``: ``p<person id>`` or ``s<match>:<seat>``)."""

    __tablename__ = "chat_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    line_id: Mapped[int] = mapped_column(Integer)
    match_id: Mapped[str] = mapped_column(String(32))
    room: Mapped[str] = mapped_column(String(12))
    author_person_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    author_name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(560))
    reporter: Mapped[str] = mapped_column(String(80))
    reporter_name: Mapped[str] = mapped_column(String(40))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (UniqueConstraint("line_id", "reporter", name="uq_chat_reports_line_reporter"),)


class ChatBanRow(Base):
    """A person the operator banned from every chat (``abstracta moderation ban NAME``): their
    lines are no longer shown and they cannot write."""

    __tablename__ = "chat_bans"

    person_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PushSubscriptionRow(Base):
    """A browser's Web Push subscription for one seat of one match (its endpoint URL and the
    keys the message is encrypted to: ``p256dh``, the browser's P-256 public key, and ``auth``,
    its secret; both base64url), with the language its notices are written in."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(String(32), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    endpoint: Mapped[str] = mapped_column(Text)
    endpoint_hash: Mapped[str] = mapped_column(String(64))  # SHA-256 of the endpoint: unique per seat
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    lang: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (UniqueConstraint("match_id", "seat", "endpoint_hash", name="uq_push_subscriptions_seat"),)


class ServerKeyRow(Base):
    """A key the server made for itself and keeps with its data (``vapid``: the Web Push key
    pair's private key, PEM). Made once, on first start; every process on the database uses it."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


__all__ = ["ChatBanRow", "ChatLineRow", "ChatReportRow", "PushSubscriptionRow", "ServerKeyRow", "metadata"]
