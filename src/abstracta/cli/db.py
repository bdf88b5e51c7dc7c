"""``abstracta db``: the games database's backup and restore (issue 44 §4) — a thin wrapper
over :mod:`abstracta.server.backup`, which holds the logic."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..server.backup import BackupError, backup, restore
from ..server.storage import default_db_url
from .base import _Group, _Typer, app, CliError, console, database_url, guarded

db_app = _Typer(cls=_Group, help="The games database: a backup, and its restore (docs/club.md).", no_args_is_help=True)
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
