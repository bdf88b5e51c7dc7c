"""The tables of a match's company (issue 43): chat lines, reports of lines, chat bans, Web Push
subscriptions, and the server's own keys (the VAPID key pair).

The server of main created these before Alembic (``create_all``, from 628567d on): a table a
database has already is left as it is.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    present = set(sa.inspect(op.get_bind()).get_table_names())

    def table(name: str, *columns: sa.Column | sa.Constraint, indexes: tuple[tuple[str, list[str]], ...] = ()) -> None:
        if name in present:
            return
        op.create_table(name, *columns)
        for index, on in indexes:
            op.create_index(index, name, on)

    table("chat_lines",
          sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
          sa.Column("match_id", sa.String(32), nullable=False),
          sa.Column("room", sa.String(12), nullable=False),
          sa.Column("seat", sa.Integer(), nullable=True),
          sa.Column("person_id", sa.Integer(), nullable=True),
          sa.Column("name", sa.String(40), nullable=False),
          sa.Column("seat_named", sa.Boolean(), nullable=False),
          sa.Column("name_key", sa.String(80), nullable=True),
          sa.Column("text", sa.String(560), nullable=False),
          sa.Column("ply", sa.Integer(), nullable=False),
          sa.Column("at", WHEN, nullable=False),
          indexes=(("ix_chat_lines_match_id", ["match_id", "id"]),
                   ("ix_chat_lines_person_id", ["person_id"])))
    table("chat_reports",
          sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
          sa.Column("line_id", sa.Integer(), nullable=False),
          sa.Column("match_id", sa.String(32), nullable=False),
          sa.Column("room", sa.String(12), nullable=False),
          sa.Column("author_person_id", sa.Integer(), nullable=True),
          sa.Column("author_name", sa.String(40), nullable=False),
          sa.Column("text", sa.String(560), nullable=False),
          sa.Column("reporter", sa.String(80), nullable=False),
          sa.Column("reporter_name", sa.String(40), nullable=False),
          sa.Column("at", WHEN, nullable=False),
          sa.UniqueConstraint("line_id", "reporter", name="uq_chat_reports_line_reporter"))
    table("chat_bans",
          sa.Column("person_id", sa.Integer(), primary_key=True, autoincrement=False),
          sa.Column("at", WHEN, nullable=False))
    table("push_subscriptions",
          sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
          sa.Column("match_id", sa.String(32), nullable=False),
          sa.Column("seat", sa.Integer(), nullable=False),
          sa.Column("endpoint", sa.Text(), nullable=False),
          sa.Column("endpoint_hash", sa.String(64), nullable=False),
          sa.Column("p256dh", sa.String(200), nullable=False),
          sa.Column("auth", sa.String(100), nullable=False),
          sa.Column("lang", sa.String(8), nullable=False),
          sa.Column("created_at", WHEN, nullable=False),
          sa.UniqueConstraint("match_id", "seat", "endpoint_hash", name="uq_push_subscriptions_seat"),
          indexes=(("ix_push_subscriptions_match_id", ["match_id"]),))
    table("server_keys",
          sa.Column("name", sa.String(40), primary_key=True),
          sa.Column("value", sa.Text(), nullable=False),
          sa.Column("created_at", WHEN, nullable=False))


def downgrade() -> None:
    for name in ("server_keys", "push_subscriptions", "chat_bans", "chat_reports", "chat_lines"):
        op.drop_table(name)
