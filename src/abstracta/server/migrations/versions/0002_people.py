"""The people's tables (issue 41): people, their sessions, API tokens and recovery codes,
ratings and their history, game results, the seats people hold, results against the levels.

The server of main created these before Alembic (``create_all``): a table a database has already
is left as it is.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def person() -> sa.ForeignKey:
    return sa.ForeignKey("people.id")


def upgrade() -> None:
    present = set(sa.inspect(op.get_bind()).get_table_names())

    def table(name: str, *columns: sa.Column | sa.Index, indexes: tuple[tuple[str, list[str]], ...] = ()) -> None:
        if name in present:
            return
        op.create_table(name, *columns)
        for index, on in indexes:
            op.create_index(index, name, on)

    table("people",
          sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
          sa.Column("kind", sa.String(8), nullable=False),
          sa.Column("name", sa.String(20), nullable=True),
          sa.Column("name_key", sa.String(20), nullable=True, unique=True),
          sa.Column("password_hash", sa.Text(), nullable=True),
          sa.Column("created_at", WHEN, nullable=False),
          sa.Column("account_at", WHEN, nullable=True),
          sa.Column("last_seen_at", WHEN, nullable=False),
          sa.Column("disabled_at", WHEN, nullable=True),
          sa.Column("deleted_at", WHEN, nullable=True))
    table("people_sessions",
          sa.Column("id", sa.String(16), primary_key=True),
          sa.Column("secret_hash", sa.String(64), nullable=False, unique=True),
          sa.Column("person_id", sa.Integer(), person(), nullable=False),
          sa.Column("created_at", WHEN, nullable=False),
          sa.Column("last_seen_at", WHEN, nullable=False),
          sa.Column("user_agent", sa.String(200), nullable=False),
          sa.Column("ip", sa.String(64), nullable=False),
          indexes=(("ix_people_sessions_person_id", ["person_id"]),))
    table("api_tokens",
          sa.Column("id", sa.String(16), primary_key=True),
          sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
          sa.Column("person_id", sa.Integer(), person(), nullable=False),
          sa.Column("description", sa.String(60), nullable=False),
          sa.Column("scopes", sa.String(200), nullable=False),
          sa.Column("hint", sa.String(12), nullable=False),
          sa.Column("created_at", WHEN, nullable=False),
          sa.Column("last_used_at", WHEN, nullable=True),
          indexes=(("ix_api_tokens_person_id", ["person_id"]),))
    table("recovery_codes",
          sa.Column("code_hash", sa.String(64), primary_key=True),
          sa.Column("person_id", sa.Integer(), person(), nullable=False),
          sa.Column("created_at", WHEN, nullable=False),
          sa.Column("used_at", WHEN, nullable=True),
          indexes=(("ix_recovery_codes_person_id", ["person_id"]),))
    table("ratings",
          sa.Column("person_id", sa.Integer(), person(), primary_key=True),
          sa.Column("pool", sa.String(140), primary_key=True),
          sa.Column("rating", sa.Float(), nullable=False),
          sa.Column("deviation", sa.Float(), nullable=False),
          sa.Column("volatility", sa.Float(), nullable=False),
          sa.Column("games", sa.Integer(), nullable=False),
          sa.Column("wins", sa.Integer(), nullable=False),
          sa.Column("draws", sa.Integer(), nullable=False),
          sa.Column("losses", sa.Integer(), nullable=False),
          sa.Column("rated_at", WHEN, nullable=False),
          indexes=(("ix_ratings_pool_rating", ["pool", "rating"]),))
    table("rating_history",
          sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
          sa.Column("person_id", sa.Integer(), person(), nullable=False),
          sa.Column("pool", sa.String(140), nullable=False),
          sa.Column("match_id", sa.String(32), nullable=True),
          sa.Column("at", WHEN, nullable=False),
          sa.Column("before", sa.Float(), nullable=False),
          sa.Column("rating", sa.Float(), nullable=False),
          sa.Column("deviation", sa.Float(), nullable=False),
          indexes=(("ix_rating_history_person_pool_at", ["person_id", "pool", "at"]),
                   ("ix_rating_history_pool_at", ["pool", "at"])))
    table("game_results",
          sa.Column("match_id", sa.String(32), primary_key=True),
          sa.Column("person_id", sa.Integer(), person(), primary_key=True),
          sa.Column("seat", sa.Integer(), nullable=False),
          sa.Column("game", sa.String(64), nullable=False),
          sa.Column("pool", sa.String(140), nullable=True),
          sa.Column("rated", sa.Boolean(), nullable=False),
          sa.Column("outcome", sa.String(8), nullable=False),
          sa.Column("score", sa.Float(), nullable=False),
          sa.Column("rating_before", sa.Float(), nullable=True),
          sa.Column("rating_after", sa.Float(), nullable=True),
          sa.Column("finished_at", WHEN, nullable=False),
          indexes=(("ix_game_results_person_at", ["person_id", "finished_at"]),))
    table("seat_people",
          sa.Column("match_id", sa.String(32), primary_key=True),
          sa.Column("seat", sa.Integer(), primary_key=True),
          sa.Column("person_id", sa.Integer(), person(), nullable=False),
          sa.Column("created_at", WHEN, nullable=False),
          indexes=(("ix_seat_people_person_id", ["person_id"]),))
    table("level_results",
          sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
          sa.Column("match_id", sa.String(32), nullable=False),
          sa.Column("person_id", sa.Integer(), person(), nullable=False),
          sa.Column("family", sa.String(140), nullable=False),
          sa.Column("level", sa.Integer(), nullable=False),
          sa.Column("score", sa.Float(), nullable=False),
          sa.Column("rating", sa.Float(), nullable=False),
          sa.Column("deviation", sa.Float(), nullable=False),
          sa.Column("at", WHEN, nullable=False),
          indexes=(("ix_level_results_person_id", ["person_id"]),
                   ("ix_level_results_family_level", ["family", "level"])))


def downgrade() -> None:
    for name in ("level_results", "seat_people", "game_results", "rating_history", "ratings", "recovery_codes",
                 "api_tokens", "people_sessions", "people"):
        op.drop_table(name)
