"""The match store's tables, as the server of e426a3e wrote them (issue 40 §2).

A database written before Alembic keeps what it has: a table it lacks is created, and so are the
columns of ``matches`` that versions before e426a3e added by hand (``turns``, ``turns_version``,
``to_move``; read as counted by an earlier version, and counted again when listed).

Revision ID: 0001
Revises:
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

#: the columns of ``matches`` added after it was first written, nullable (NULL: an earlier count)
LATER_COLUMNS = ("turns", "turns_version", "to_move")


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    present = set(inspector.get_table_names())
    if "matches" not in present:
        op.create_table(
            "matches",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("record", sa.Text(), nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("revision", sa.Integer(), nullable=False),
            sa.Column("plies", sa.Integer(), nullable=False),
            sa.Column("turns", sa.Integer(), nullable=True),
            sa.Column("turns_version", sa.Integer(), nullable=True),
            sa.Column("to_move", sa.Integer(), nullable=True),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        )
        op.create_index("ix_matches_game", "matches", ["game"])
    else:
        columns = {c["name"] for c in inspector.get_columns("matches")}
        for name in LATER_COLUMNS:
            if name not in columns:
                op.add_column("matches", sa.Column(name, sa.Integer(), nullable=True))
    if "moves" not in present:
        op.create_table(
            "moves",
            sa.Column("match_id", sa.String(32), primary_key=True),
            sa.Column("ply", sa.Integer(), primary_key=True),
            sa.Column("action", sa.Text(), nullable=False),
            sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        )
    if "seat_tokens" not in present:
        op.create_table(
            "seat_tokens",
            sa.Column("token_hash", sa.String(64), primary_key=True),
            sa.Column("match_id", sa.String(32), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        )
        op.create_index("ix_seat_tokens_match_id", "seat_tokens", ["match_id"])
    if "invites" not in present:
        op.create_table(
            "invites",
            sa.Column("code_hash", sa.String(64), primary_key=True),
            sa.Column("match_id", sa.String(32), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        )
        op.create_index("ix_invites_match_id", "invites", ["match_id"])
    if "match_live" not in present:
        op.create_table(
            "match_live",
            sa.Column("match_id", sa.String(32), primary_key=True),
            sa.Column("data", sa.Text(), nullable=False),
        )


def downgrade() -> None:
    for table in ("match_live", "invites", "seat_tokens", "moves", "matches"):
        op.drop_table(table)
