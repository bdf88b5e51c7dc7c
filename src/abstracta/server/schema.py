"""Every table of the games database, by the part of the code that declares it (issue 40 §2):
the match store's (:data:`abstracta.server.storage.Base`), the people's
(:data:`abstracta.people.tables.metadata`, issue 41), a match's company's
(:data:`abstracta.server.social_tables.metadata`, issue 43) and the lobby's
(:data:`abstracta.lobby.tables.metadata`, issue 42).

Alembic compares these with the database (``revision --autogenerate``, in
``migrations/env.py``) and the tests compare them with what the revisions make. A part that adds
tables adds its metadata to :data:`METADATA` and a revision that creates them. Kept apart from
:mod:`abstracta.server.migrations`, which :mod:`abstracta.server.storage` runs: the migrations
need not import the store they upgrade.
"""

from __future__ import annotations

from contextlib import nullcontext

from sqlalchemy import Connection, Engine, MetaData, text

from ..lobby.tables import metadata as lobby
from ..people.tables import metadata as people
from .social_tables import metadata as social
from .storage import Base

#: the schema's parts, each a SQLAlchemy metadata of its own
METADATA: tuple[MetaData, ...] = (Base.metadata, people, social, lobby)


def drop_schema(connectable: Engine | Connection) -> None:
    """Drop every table of :data:`METADATA` and the schema's Alembic revision
    (``alembic_version``) through ``connectable``: an engine (in a transaction of its own) or a
    connection (in its caller's). The next server or test migrates from nothing. Dropping one
    part's tables alone would leave a revision that says the schema is there while a table of it
    is not, and the server refuses such a database."""
    for metadata in reversed(METADATA):
        metadata.drop_all(connectable)
    with connectable.begin() if isinstance(connectable, Engine) else nullcontext(connectable) as conn:
        conn.execute(text("DROP TABLE IF EXISTS alembic_version"))


__all__ = ["METADATA", "drop_schema"]
