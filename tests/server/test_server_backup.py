"""Issue 44 §4: ``abstracta db backup`` / ``abstracta db restore`` round trips — the restored games
open as they were and play on (server/backup.py). On SQLite always; on PostgreSQL when
``ABSTRACTA_TEST_DB_URL`` names one (CI), with pg_dump and pg_restore."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url

from apiutil import Creator, make_app

PG = os.environ.get("ABSTRACTA_TEST_DB_URL", "")


def played(client: Creator, plies: int) -> tuple[str, dict]:
    """A match between two people on this device with ``plies`` moves: (id, its view)."""
    mid = client.post("/api/matches", json={"game": "fanorona", "options": {"size": "dimy"},
                                            "seats": ["human", "human"]}).json()["id"]
    for _ in range(plies):
        view = client.get(f"/api/matches/{mid}").json()
        assert client.post(f"/api/matches/{mid}/actions", json={"action": view["legal"][0],
                                                                "ply": view["ply"]}).status_code == 200
    return mid, client.get(f"/api/matches/{mid}").json()


def opens_and_plays_on(db_url: str, tokens: dict[str, dict[int, str]], views: dict[str, dict]) -> None:
    """Every match of ``views`` reads back as it was (its moves, revision, tokens) and takes
    its next move."""
    with TestClient(make_app(db_url, rate_limits=False)) as raw:
        client = Creator(raw)
        client.tokens = {mid: dict(seats) for mid, seats in tokens.items()}
        assert {m["id"] for m in client.get("/api/matches").json()} == set(views)
        for mid, before in views.items():
            now = client.get(f"/api/matches/{mid}").json()
            assert (now["moves"], now["ply"], now["revision"], now["my_seats"]) == (
                before["moves"], before["ply"], before["revision"], before["my_seats"])
            moved = client.post(f"/api/matches/{mid}/actions", json={"action": now["legal"][0], "ply": now["ply"]})
            assert moved.status_code == 200 and moved.json()["ply"] == before["ply"] + 1


def test_sqlite_backup_while_serving_then_restore_into_a_new_file(tmp_path: Path):
    from abstracta.server.backup import backup, restore

    source = f"sqlite:///{tmp_path / 'club.db'}"
    with TestClient(make_app(source, rate_limits=False)) as raw:  # serving while the backup is made
        client = Creator(raw)
        views = dict(played(client, n) for n in (0, 3, 7))
        done = backup(source, tmp_path / "club.backup")
        assert (done.kind, done.matches) == ("sqlite", 3) and done.size > 0
        # played after the backup: not in it
        later = next(mid for mid, v in views.items() if v["ply"] == 3)
        view = client.get(f"/api/matches/{later}").json()
        client.post(f"/api/matches/{later}/actions", json={"action": view["legal"][0], "ply": 3})
        tokens = client.tokens
    assert not (tmp_path / "club.backup.partial").exists()
    target = f"sqlite:///{tmp_path / 'restored' / 'club.db'}"
    assert restore(target, tmp_path / "club.backup").matches == 3
    opens_and_plays_on(target, tokens, views)


def test_a_restore_replaces_games_only_when_asked(tmp_path: Path):
    from abstracta.server.backup import BackupError, backup, restore

    url = f"sqlite:///{tmp_path / 'club.db'}"
    with TestClient(make_app(url, rate_limits=False)) as raw:
        client = Creator(raw)
        views = dict([played(client, 2)])
        backup(url, tmp_path / "before.db")
        extra, _ = played(client, 1)  # a game the backup does not have
        tokens = client.tokens
    with pytest.raises(BackupError, match="holds 2 games: a restore replaces them all"):
        restore(url, tmp_path / "before.db")
    assert restore(url, tmp_path / "before.db", replace=True).matches == 1
    opens_and_plays_on(url, {k: v for k, v in tokens.items() if k != extra}, views)


def test_what_is_no_backup_is_refused(tmp_path: Path):
    from abstracta.server.backup import BackupError, restore

    url = f"sqlite:///{tmp_path / 'club.db'}"
    text = tmp_path / "notes.txt"
    text.write_text("not a backup")
    with pytest.raises(BackupError, match="is not a backup"):
        restore(url, text)
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(BackupError, match="no matches table"):
        restore(url, other)
    with pytest.raises(BackupError, match="cannot read"):
        restore(url, tmp_path / "missing.db")
    dump = tmp_path / "club.dump"
    dump.write_bytes(b"PGDMP\x01\x0e\x00" + b"\x00" * 64)
    with pytest.raises(BackupError, match="PostgreSQL dump: restore it into a PostgreSQL database"):
        restore(url, dump)


def test_a_database_a_server_holds_is_not_restored_into(tmp_path: Path):
    from abstracta.server.backup import BackupError, backup, restore
    from abstracta.server.storage import serve_alone

    url = f"sqlite:///{tmp_path / 'club.db'}"
    backup_file = tmp_path / "b.db"
    with TestClient(make_app(url, rate_limits=False)) as raw:
        played(Creator(raw), 1)
    backup(url, backup_file)
    held = serve_alone(url)  # as abstracta serve holds it
    try:
        with pytest.raises(BackupError, match="served by another abstracta serve process"):
            restore(url, backup_file, replace=True)
    finally:
        held.release()


def test_the_db_commands(tmp_path: Path):
    from typer.testing import CliRunner

    from abstracta.cli import app

    url = f"sqlite:///{tmp_path / 'club.db'}"
    with TestClient(make_app(url, rate_limits=False)) as raw:
        client = Creator(raw)
        views = dict([played(client, 4)])
        tokens = client.tokens
    runner = CliRunner()
    made = runner.invoke(app, ["db", "backup", "--db", str(tmp_path / "club.db"), str(tmp_path / "b.db")])
    assert made.exit_code == 0, made.output
    assert "1 games backed up to" in made.output
    into = tmp_path / "new.db"
    back = runner.invoke(app, ["db", "restore", "--db", str(into), str(tmp_path / "b.db")])
    assert back.exit_code == 0 and "1 games restored" in back.output
    again = runner.invoke(app, ["db", "restore", "--db", str(into), str(tmp_path / "b.db")])
    assert again.exit_code == 2 and "--replace" in again.output
    opens_and_plays_on(f"sqlite:///{into}", tokens, views)


@pytest.mark.skipif(not PG.startswith("postgresql"), reason="needs ABSTRACTA_TEST_DB_URL=postgresql…")
def test_postgresql_dump_and_restore(db_url: str, tmp_path: Path):
    from sqlalchemy import create_engine, text

    from abstracta.server.backup import BackupError, backup, restore
    from abstracta.server.schema import METADATA

    with TestClient(make_app(db_url, rate_limits=False)) as raw:
        client = Creator(raw)
        views = dict(played(client, n) for n in (1, 5))
        tokens = client.tokens
        assert backup(db_url, tmp_path / "club.dump").kind == "postgresql"
        assert (tmp_path / "club.dump").read_bytes()[:5] == b"PGDMP"
        # the server listening on it: no restore under its feet
        with pytest.raises(BackupError, match="1 abstracta serve process is connected"):
            restore(db_url, tmp_path / "club.dump", replace=True)
    engine = create_engine(db_url)
    for metadata in reversed(METADATA):  # the database lost: every table, its schema's revision too
        metadata.drop_all(engine)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    engine.dispose()
    assert restore(db_url, tmp_path / "club.dump").matches == 2
    opens_and_plays_on(db_url, tokens, views)
    # and an SQLite backup (a club moving from `make run` to `make club`) restores into it too
    sqlite_url = f"sqlite:///{tmp_path / 'home.db'}"
    with TestClient(make_app(sqlite_url, rate_limits=False)) as raw:
        client = Creator(raw)
        home = dict([played(client, 3)])
        home_tokens = client.tokens
    backup(sqlite_url, tmp_path / "home.backup")
    assert restore(db_url, tmp_path / "home.backup", replace=True).matches == 1
    opens_and_plays_on(db_url, home_tokens, home)
    assert make_url(db_url).get_backend_name() == "postgresql"
