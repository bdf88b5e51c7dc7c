"""The lobby's tables (issue 42): seeks, quick pairing's waits, challenges, blocks, and the games
the lobby started.

The server of main created these before Alembic (``create_all``, from ba3976c on): a table a
database has already is left as it is.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    present = set(sa.inspect(op.get_bind()).get_table_names())

    def table(name: str, *columns: sa.Column, indexes: tuple[tuple[str, list[str]], ...] = ()) -> None:
        if name in present:
            return
        op.create_table(name, *columns)
        for index, on in indexes:
            op.create_index(index, name, on)

    table("seeks",
          sa.Column("id", sa.String(16), primary_key=True),
          sa.Column("person_id", sa.Integer(), nullable=False),
          sa.Column("spec", sa.Text(), nullable=False),
          sa.Column("seat", sa.Integer(), nullable=True),
          sa.Column("rating", sa.Float(), nullable=False),
          sa.Column("provisional", sa.Boolean(), nullable=False),
          sa.Column("rating_min", sa.Integer(), nullable=True),
          sa.Column("rating_max", sa.Integer(), nullable=True),
          sa.Column("created_at", WHEN, nullable=False),
          sa.Column("closed_at", WHEN, nullable=True),
          sa.Column("how", sa.String(12), nullable=True),
          sa.Column("accepted_by", sa.Integer(), nullable=True),
          sa.Column("match_id", sa.String(32), nullable=True),
          indexes=(("ix_seeks_open", ["closed_at", "created_at"]), ("ix_seeks_person_id", ["person_id"])))
    table("quick_waits",
          sa.Column("person_id", sa.Integer(), primary_key=True, autoincrement=False),
          sa.Column("key", sa.String(400), nullable=False),
          sa.Column("spec", sa.Text(), nullable=False),
          sa.Column("rating", sa.Float(), nullable=False),
          sa.Column("since", WHEN, nullable=False),
          sa.Column("match_id", sa.String(32), nullable=True),
          sa.Column("paired_at", WHEN, nullable=True),
          indexes=(("ix_quick_waits_key", ["key"]),))
    table("challenges",
          sa.Column("id", sa.String(16), primary_key=True),
          sa.Column("from_id", sa.Integer(), nullable=False),
          sa.Column("to_id", sa.Integer(), nullable=False),
          sa.Column("spec", sa.Text(), nullable=False),
          sa.Column("seat", sa.Integer(), nullable=True),
          sa.Column("status", sa.String(10), nullable=False),
          sa.Column("created_at", WHEN, nullable=False),
          sa.Column("answered_at", WHEN, nullable=True),
          sa.Column("match_id", sa.String(32), nullable=True),
          indexes=(("ix_challenges_from_id", ["from_id"]), ("ix_challenges_to_id", ["to_id"])))
    table("blocks",
          sa.Column("person_id", sa.Integer(), primary_key=True, autoincrement=False),
          sa.Column("blocked_id", sa.Integer(), primary_key=True, autoincrement=False),
          sa.Column("created_at", WHEN, nullable=False))
    table("lobby_games",
          sa.Column("match_id", sa.String(32), primary_key=True),
          sa.Column("source", sa.String(12), nullable=False),
          sa.Column("rated", sa.Boolean(), nullable=False),
          sa.Column("created_at", WHEN, nullable=False))


def downgrade() -> None:
    for name in ("lobby_games", "blocks", "challenges", "quick_waits", "seeks"):
        op.drop_table(name)
