"""Backups of the games database and their restore (issue 44 §4): ``abstracta db backup`` and
``abstracta db restore``.

* SQLite — :func:`backup` copies the file with SQLite's online backup API (a consistent copy
  while ``abstracta serve`` plays on: one read transaction); :func:`restore` copies a backup
  into the database file the same way, once no ``abstracta serve`` holds it.
* PostgreSQL — ``pg_dump --format=custom`` and ``pg_restore --clean --single-transaction``
  (Debian's ``postgresql-client``; the newest installed, which reads older servers). The
  password travels in ``PGPASSWORD``, never on a command line.
* An SQLite backup restored into PostgreSQL is copied table by table (a club moving from
  ``make run`` to ``make club``); a PostgreSQL dump cannot be restored into SQLite.

A backup is written beside its target and renamed into place once complete, so a backup file
is never half written. A restore replaces every game of the database it restores into: it is
refused when that database holds games unless ``replace`` is given, and on PostgreSQL while an
``abstracta serve`` process is connected to it (their copies of the games would be stale).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import func, insert, select
from sqlalchemy.engine import URL, make_url

from .storage import Base, DatabaseError, MatchRow, make_engine, serve_alone

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


@dataclass(frozen=True)
class Done:
    """What a backup or restore did: ``kind`` sqlite | postgresql, the ``matches`` in the copy
    and the file's ``size`` in bytes."""

    kind: str
    matches: int
    size: int


def backup(db_url: str, path: str | Path) -> Done:
    """Write a backup of the database at ``db_url`` (SQLAlchemy URL) to ``path``. Raises
    :class:`BackupError`."""
    path = Path(path)
    url = _url(db_url)
    kind = url.get_backend_name()
    partial = path.with_name(path.name + ".partial")
    try:
        if kind == "sqlite":
            _sqlite_backup(_sqlite_file(url, must_exist=True), partial)
        elif kind == "postgresql":
            _pg_dump(url, partial)
        else:
            raise BackupError(f"backups of {kind} databases are not supported (SQLite and PostgreSQL are)")
        os.replace(partial, path)
    except OSError as exc:
        raise BackupError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        partial.unlink(missing_ok=True)
    return Done(kind, _count(db_url), path.stat().st_size)


def restore(db_url: str, path: str | Path, replace: bool = False) -> Done:
    """Restore the backup ``path`` into the database at ``db_url``: its games replace all that
    the database held. Raises :class:`BackupError` when ``path`` is no backup, when the
    database holds games and ``replace`` is false, or while a server uses it."""
    path = Path(path)
    url = _url(db_url)
    kind = url.get_backend_name()
    try:
        with open(path, "rb") as f:
            head = f.read(16)
    except OSError as exc:
        raise BackupError(f"cannot read {path}: {exc.strerror or exc}") from None
    if head.startswith(SQLITE_MAGIC):
        made_by = "sqlite"
    elif head.startswith(PG_MAGIC):
        made_by = "postgresql"
    else:
        raise BackupError(f"{path} is not a backup of abstracta db backup (neither an SQLite database nor "
                          "a pg_dump archive)")
    if kind not in ("sqlite", "postgresql"):
        raise BackupError(f"restoring into {kind} databases is not supported (SQLite and PostgreSQL are)")
    if made_by == "postgresql" and kind == "sqlite":
        raise BackupError(f"{path} is a PostgreSQL dump: restore it into a PostgreSQL database "
                          "(--db postgresql+psycopg://…), not into SQLite")
    if made_by == "sqlite":
        _check_sqlite_backup(path)
    lock = None
    if kind == "sqlite":
        try:
            lock = serve_alone(db_url)  # held during the restore: no server starts on it meanwhile
        except DatabaseError as exc:
            raise BackupError(f"cannot restore: {exc}; stop it first") from None
    try:
        if kind == "postgresql":
            _no_server_connected(url)
        held = _count(db_url)
        if held and not replace:
            raise BackupError(f"the database holds {held} game{'s' if held != 1 else ''}: a restore replaces "
                              "them all (--replace to do so)")
        if kind == "sqlite":
            _sqlite_restore(path, _sqlite_file(url, must_exist=False))
        elif made_by == "postgresql":
            _pg_restore(url, path)
        else:
            _copy_tables(path, db_url)
    finally:
        if lock is not None:
            lock.release()
    make_engine(db_url).dispose()  # a backup of an earlier version gets the columns it lacks
    return Done(kind, _count(db_url), path.stat().st_size)


# --- SQLite ------------------------------------------------------------------------------------
def _sqlite_file(url: URL, must_exist: bool) -> Path:
    name = url.database or ""
    if not name or name == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up or restore into")
    if url.query.get("uri") and name.startswith("file:"):
        name = name[len("file:"):].split("?", 1)[0]
    path = Path(name)
    if must_exist and not path.is_file():
        raise BackupError(f"no database at {path}")
    return path


def _sqlite_backup(source: Path, target: Path) -> None:
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)  # all pages in one step: one consistent snapshot
        finally:
            dst.close()
    except sqlite3.Error as exc:
        raise BackupError(f"the SQLite backup of {source} failed: {exc}") from None
    finally:
        src.close()


def _check_sqlite_backup(path: Path) -> None:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            ok = conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise BackupError(f"{path} is not a readable SQLite database: {exc}") from None
    if "matches" not in tables:
        raise BackupError(f"{path} is an SQLite database but not one of abstracta's (it has no matches table)")
    if not ok:
        raise BackupError(f"{path} is damaged (SQLite's quick_check fails)")


def _sqlite_restore(backup_file: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(target, timeout=30)
        try:
            src.backup(dst)
        finally:
            dst.close()
    except sqlite3.Error as exc:
        raise BackupError(f"restoring into {target} failed: {exc}") from None
    finally:
        src.close()


# --- PostgreSQL --------------------------------------------------------------------------------
def pg_tool(name: str) -> str:
    """The newest installed ``pg_dump``/``pg_restore`` (Debian keeps one per major version under
    /usr/lib/postgresql; a newer one reads an older server, not the reverse)."""
    versions = sorted((p for p in Path("/usr/lib/postgresql").glob(f"*/bin/{name}")),
                      key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0)
    if versions:
        return str(versions[-1])
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed (apt-get install postgresql-client)")
    return found


def _libpq(url: URL) -> tuple[str, dict[str, str]]:
    """A libpq URL without the password, and the environment that carries it."""
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def _run(args: list[str], env: dict[str, str], what: str) -> None:
    done = subprocess.run(args, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
        raise BackupError(f"{what} failed: {lines[-1] if lines else f'exit code {done.returncode}'}")


def _pg_dump(url: URL, target: Path) -> None:
    libpq, env = _libpq(url)
    _run([pg_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges", "--file", str(target),
          "--dbname", libpq], env, "pg_dump")


def _pg_restore(url: URL, backup_file: Path) -> None:
    libpq, env = _libpq(url)
    _run([pg_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction",
          "--exit-on-error", "--dbname", libpq, str(backup_file)], env, "pg_restore")


def _no_server_connected(url: URL) -> None:
    """Refuse while an ``abstracta serve`` process listens on the database (its LISTEN
    connection): it would go on serving its copies of the games the restore replaced."""
    import psycopg

    libpq, env = _libpq(url)
    try:
        with psycopg.connect(libpq, password=env.get("PGPASSWORD"), autocommit=True) as conn:
            n = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                             "AND query = 'LISTEN abstracta' AND pid <> pg_backend_pid()").fetchone()[0]
    except psycopg.Error as exc:
        raise BackupError(f"cannot connect to the database: {str(exc).strip().splitlines()[0]}") from None
    if n:
        raise BackupError(f"{n} abstracta serve process{'es are' if n != 1 else ' is'} connected to this "
                          "database: stop them first (make club-down stops the workers too)")


def _copy_tables(sqlite_backup: Path, db_url: str) -> None:
    """Every row of an SQLite backup into the database at ``db_url`` (emptied first), in one
    transaction."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="abstracta-restore-") as folder:
        # a copy: make_engine gives a backup of an earlier version the columns it lacks
        copy = Path(folder) / "backup.db"
        _sqlite_restore(sqlite_backup, copy)
        _copy_rows(make_engine(URL.create("sqlite", database=str(copy)).render_as_string()), db_url)


def _copy_rows(source, db_url: str) -> None:
    target = make_engine(db_url)
    try:
        with source.connect() as src, target.begin() as dst:
            for table in reversed(Base.metadata.sorted_tables):
                dst.execute(table.delete())
            for table in Base.metadata.sorted_tables:
                rows = [dict(row._mapping) for row in src.execute(select(table))]
                for start in range(0, len(rows), 1000):
                    dst.execute(insert(table), rows[start:start + 1000])
    finally:
        source.dispose()
        target.dispose()


# --- both ------------------------------------------------------------------------------------
def _url(db_url: str) -> URL:
    try:
        return make_url(db_url)
    except Exception as exc:  # noqa: BLE001 - SQLAlchemy's ArgumentError and friends
        raise BackupError(f"--db {db_url[:100]!r} is not a database URL ({exc})") from None


def _count(db_url: str) -> int:
    try:
        engine = make_engine(db_url)
    except DatabaseError as exc:
        raise BackupError(f"cannot use the database: {exc}") from None
    try:
        with engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(MatchRow)).scalar_one()
    finally:
        engine.dispose()


__all__ = ["BackupError", "Done", "backup", "restore"]
