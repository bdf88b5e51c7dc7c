"""The same seek open twice is refused by the database: a unique index over what makes two seeks
the same (the seeker, the game as its spec text, the seat, the rating range), among open seeks
only. Two workers handling a double click at once both read "not open yet" and both inserted.

Seeks open twice already (that race) are closed first, the oldest of each kept: the index could
not be made over them.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

INDEX = "uq_seeks_open_same"
SAME = ("o.person_id = seeks.person_id AND o.spec = seeks.spec AND coalesce(o.seat, -1) = coalesce(seeks.seat, -1) "
        "AND coalesce(o.rating_min, -1) = coalesce(seeks.rating_min, -1) "
        "AND coalesce(o.rating_max, -1) = coalesce(seeks.rating_max, -1)")


def upgrade() -> None:
    op.execute(sa.text(
        "UPDATE seeks SET closed_at = created_at, how = 'cancelled' WHERE closed_at IS NULL AND EXISTS "
        f"(SELECT 1 FROM seeks o WHERE o.closed_at IS NULL AND {SAME} AND (o.created_at < seeks.created_at "
        "OR (o.created_at = seeks.created_at AND o.id < seeks.id)))"))
    open_only = sa.text("closed_at IS NULL")
    op.create_index(INDEX, "seeks", ["person_id", "spec", sa.text("coalesce(seat, -1)"),
                                     sa.text("coalesce(rating_min, -1)"), sa.text("coalesce(rating_max, -1)")],
                    unique=True, sqlite_where=open_only, postgresql_where=open_only)


def downgrade() -> None:
    op.drop_index(INDEX, table_name="seeks")
