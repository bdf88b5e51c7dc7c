"""Schema migrations of the games database, with Alembic (issue 40 §2).

The revisions live in ``versions/`` beside this module and ship inside the package (the wheel
carries them): the server upgrades its database when it starts (:func:`upgrade`, from
:func:`abstracta.server.storage.make_engine`), and so does ``abstracta db upgrade``.

Revisions:

=========  =====================================================================================
0001       the match store's tables (matches, moves, seat_tokens, invites, match_live) as the server
           of e426a3e wrote them; a database written before Alembic gets what it lacks (a table, or
           the ``turns``, ``turns_version`` and ``to_move`` columns earlier versions added by hand)
0002       the people's tables (issue 41: people, sessions, API tokens, recovery codes, ratings,
           rating history, game results, seats of people, level results); created only where
           missing, since main's server created them before Alembic
0003       the tables of a match's company (issue 43: chat lines, reports, bans, Web Push
           subscriptions, the server's keys); created only where missing, as 0002
0004       the lobby's tables (issue 42: seeks, quick pairing's waits, challenges, blocks, the
           games the lobby started); created only where missing, as 0002
0005       the same seek open twice refused by the database (a unique index over the open seeks;
           duplicates a race left open are closed first, the oldest kept)
=========  =====================================================================================

All adopt a database written before Alembic (it has no ``alembic_version`` row): they create
only what it lacks, and every change made after them is an ordinary revision (docs/development.md
says how to add one). Several processes starting at once on one PostgreSQL database take turns:
each upgrades inside a transaction holding an advisory lock (:data:`LOCK_KEY`), so the second
finds the schema at its head and changes nothing (two processes creating the same tables at
once collided on PostgreSQL's ``pg_type``).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

HERE = Path(__file__).resolve().parent
#: PostgreSQL's advisory lock held while the schema is upgraded (any fixed 64-bit number that
#: no other lock of the database uses: "abstract" in ASCII)
LOCK_KEY = 0x6162737472616374 & 0x7FFFFFFFFFFFFFFF


def config(connection: Connection | None = None) -> Any:
    """Alembic's configuration: the scripts of this package, run on ``connection``."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


@functools.lru_cache(maxsize=1)
def head() -> str:
    """The newest revision (read from the scripts once per process)."""
    from alembic.script import ScriptDirectory

    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None, "no revisions in abstracta/server/migrations/versions"
    return found


def current(connection: Connection) -> str | None:
    """The revision the database is at (None: never upgraded by Alembic, or empty)."""
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, to: str = "head") -> tuple[str | None, str]:
    """Bring the database of ``engine`` to revision ``to`` (default: the newest), in one
    transaction; on PostgreSQL under :data:`LOCK_KEY`, so that processes starting together
    upgrade one after the other. Returns ``(before, after)``: the revisions it was at and is at
    now (equal: nothing to do). Raises SQLAlchemy's errors (the caller says what they mean)."""
    from alembic import command

    target = head() if to == "head" else to
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
        before = current(conn)
        if before != target:
            command.upgrade(config(conn), to)
    return before, target


__all__ = ["LOCK_KEY", "config", "current", "head", "upgrade"]
