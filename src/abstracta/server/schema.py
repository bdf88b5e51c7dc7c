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

from sqlalchemy import MetaData

from ..lobby.tables import metadata as lobby
from ..people.tables import metadata as people
from .social_tables import metadata as social
from .storage import Base

#: the schema's parts, each a SQLAlchemy metadata of its own
METADATA: tuple[MetaData, ...] = (Base.metadata, people, social, lobby)

__all__ = ["METADATA"]
