"""``abstracta db``: the games database's backup and restore (issue 44 §4) and its schema's
upgrade (issue 40 §2) — thin wrappers over :mod:`abstracta.server.backup` and
:mod:`abstracta.server.migrations`, which hold the logic."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..server.backup import BackupError, backup, restore
from ..server.storage import default_db_url
from .base import _Group, _Typer, app, CliError, console, database_url, guarded

db_app = _Typer(cls=_Group, help="The games database: a backup, its restore, its schema's upgrade (docs/club.md).",
                no_args_is_help=True)
app.add_typer(db_app, name="db")
DbArg = typer.Option(None, "--db", help="SQLAlchemy URL or an SQLite file's path, as for serve (default: "
                                         "SQLite in the user data directory).")


@db_app.command("backup")
@guarded
def db_backup_cmd(file: Path = typer.Argument(..., help="Where to write the backup (replaced once complete)."),
                  db: Optional[str] = DbArg) -> None:
    """Back up every game: SQLite's online backup (while serve plays on) or pg_dump."""
    try:
        done = backup(database_url(db) or default_db_url(), file)
    except BackupError as exc:
        raise CliError(str(exc)) from None
    console.print(f"{done.matches} games backed up to {file} ({done.size:,} bytes, {done.kind})")


@db_app.command("restore")
@guarded
def db_restore_cmd(file: Path = typer.Argument(..., help="A backup written by abstracta db backup."),
                   db: Optional[str] = DbArg,
                   replace: bool = typer.Option(False, "--replace", help="Replace the games the database holds.")) -> None:
    """Restore a backup: its games replace the database's (refused while a server uses it)."""
    try:
        done = restore(database_url(db) or default_db_url(), file, replace=replace)
    except BackupError as exc:
        raise CliError(str(exc)) from None
    console.print(f"{done.matches} games restored from {file} ({done.kind})")


@db_app.command("upgrade")
@guarded
def db_upgrade_cmd(db: Optional[str] = DbArg,
                   to: str = typer.Option("head", "--to", help="The revision to upgrade to (default: the newest).")) -> None:
    """Upgrade the database's schema to this version's (abstracta serve does it when it starts)."""
    from sqlalchemy import create_engine

    from ..server import migrations

    url = database_url(db) or default_db_url()
    try:
        engine = create_engine(url)
    except Exception as exc:  # noqa: BLE001 - a URL that does not parse, a driver not installed
        raise CliError(f"cannot use the database {url}: {exc}") from None
    try:
        before, after = migrations.upgrade(engine, to)
    except Exception as exc:  # noqa: BLE001 - the database's or Alembic's reason, in one line
        raise CliError(f"the database {url} could not be upgraded: {str(exc).strip().splitlines()[0]}") from None
    finally:
        engine.dispose()
    if before == after:
        console.print(f"the database is at revision {after}, the newest: nothing to do")
    else:
        console.print(f"the database was upgraded from {before or 'no revision (written before migrations)'} "
                      f"to revision {after}")


@db_app.command("revision")
@guarded
def db_revision_cmd(db: Optional[str] = DbArg) -> None:
    """The schema revision the database is at, and the newest this version knows."""
    from sqlalchemy import create_engine

    from ..server import migrations

    url = database_url(db) or default_db_url()
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            at = migrations.current(conn)
    except Exception as exc:  # noqa: BLE001
        raise CliError(f"cannot read the database {url}: {str(exc).strip().splitlines()[0]}") from None
    finally:
        engine.dispose()
    console.print(f"at revision {at or 'none (never upgraded)'}; the newest is {migrations.head()}")
