"""The database refuses to write (club36): a read-only SQLite file, a full disk, a second
server process on the same file. Each is said in words, to the player and in the operator's
log, and nothing accepted is lost.

SQLite only: the refusals are made real with its pragmas (``query_only`` is the error a
read-only file gives, "attempt to write a readonly database")."""

from __future__ import annotations

import logging
import os
import time
import weakref

import pytest
from apiutil import Creator, bearer, make_app
from fastapi.testclient import TestClient
from sqlalchemy import event

import abstracta

pytestmark = pytest.mark.skipif(bool(os.environ.get("ABSTRACTA_TEST_DB_URL")),
                                reason="SQLite's own refusals (pragmas) make the faults")


_FLAGS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # engine: {"on", "listening"}


def read_only(app, on: bool = True) -> None:
    """Every connection of the app's database from now on is read-only (or writable again).

    The listener is added once and reads a flag: removing it while a retry thread of the server
    opens a connection mutated SQLAlchemy's listener deque under that thread's iteration
    (RuntimeError, "deque mutated during iteration": a fault of this harness, not the server's)."""
    engine = app.state.service.store.engine
    flags = _FLAGS.setdefault(engine, {"on": False})
    if not flags.get("listening"):
        def query_only(dbapi_conn, _record):
            if flags["on"]:
                cursor = dbapi_conn.cursor()
                cursor.execute("PRAGMA query_only=ON")
                cursor.close()
        event.listen(engine, "connect", query_only)
        flags["listening"] = True
    flags["on"] = on
    engine.dispose()  # pooled connections opened before are replaced


def test_a_read_only_database_is_a_503_that_says_why_and_changes_nothing(db_url, caplog):
    """Every write was a 500 'internal error: OperationalError': the player could not tell a
    bug from a full disk, and the log said 'OperationalError at default.py:954' only."""
    app = make_app(db_url, rate_limits=False)
    with TestClient(app) as raw:
        view = raw.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9},
                                              "seats": ["human", "human"], "take": "all"}).json()
        mid, auth = view["id"], bearer(*[t["token"] for t in view["tokens"]])
        assert raw.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0}, headers=auth).status_code == 200
        read_only(app)
        with caplog.at_level(logging.WARNING, logger="abstracta.server"):
            r = raw.post(f"/api/matches/{mid}/actions", json={"action": "2", "ply": 1}, headers=auth)
            created = raw.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"]})
        assert r.status_code == 503, r.text
        assert r.json()["error"] == ("the games database refused to store this (attempt to write a readonly "
                                     "database): nothing was changed; try again later")
        assert r.json()["i18n"] == {"key": "error.storage_refused",
                                    "params": {"reason": "attempt to write a readonly database"}}
        assert created.status_code == 503 and "attempt to write a readonly database" in created.json()["error"]
        assert "Retry-After" in r.headers
        assert any("attempt to write a readonly database" in rec.getMessage() for rec in caplog.records)
        view = raw.get(f"/api/matches/{mid}", headers=auth).json()
        assert (view["ply"], view["moves"]) == (1, ["1"])  # the refused move was not played
        read_only(app, False)
        r = raw.post(f"/api/matches/{mid}/actions", json={"action": "2", "ply": 1}, headers=auth)
        assert r.status_code == 200 and r.json()["moves"] == ["1", "2"]
    with TestClient(make_app(db_url, rate_limits=False)) as raw:  # and it was stored
        assert raw.get(f"/api/matches/{mid}", headers=auth).json()["moves"] == ["1", "2"]


def test_a_computers_move_the_database_refused_is_stored_once_it_can_be(db_url, monkeypatch):
    """The computer's answer was dropped when its commit failed (silently: no log line), the
    view stopped saying it thought, and the game waited for it for ever, also after the disk
    had room again (only a restart moved it)."""
    from abstracta.server import matches

    monkeypatch.setattr(matches, "STORE_RETRY_SECONDS", 0.2, raising=False)
    with TestClient(make_app(db_url, rate_limits=False)) as raw:
        c = Creator(raw)
        mid = c.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 12},
                                           "seats": ["human", "human"]}).json()["id"]
    # as if the server stopped while the computer (seat 0) was to move
    from abstracta.server.storage import Store

    store = Store(db_url)
    row = store.get(mid)
    record = abstracta.Record.from_json(row.record)
    record.players = ["level:1", "human"]
    store.commit(mid, row.revision, status="playing", plies=0, turns=0, keep=0, record_json=record.to_json())
    store.dispose()

    app = make_app(db_url, rate_limits=False)
    read_only(app)  # the computer answers at start, into a database that refuses it
    with TestClient(app) as raw:
        c.raw = raw
        time.sleep(1.0)
        view = c.get(f"/api/matches/{mid}").json()
        assert view["ply"] == 0 and view["thinking"], view  # still the computer's turn, said so
        read_only(app, False)
        deadline = time.time() + 10
        while c.get(f"/api/matches/{mid}").json()["ply"] == 0:
            assert time.time() < deadline, "the computer's move was never stored"
            time.sleep(0.05)
        view = c.get(f"/api/matches/{mid}").json()
        assert view["ply"] == 1 and view["human_to_move"]
    with TestClient(make_app(db_url, rate_limits=False)) as raw:
        c.raw = raw
        assert c.get(f"/api/matches/{mid}").json()["ply"] == 1


def test_a_database_that_cannot_be_written_is_refused_at_start(tmp_path):
    """A read-only SQLite file served: the server started, said where its games were stored,
    and then refused every game and move with a 500."""
    from abstracta.server.storage import DatabaseError, make_engine

    path = tmp_path / "club.db"
    make_engine(f"sqlite:///{path}").dispose()
    with pytest.raises(DatabaseError, match="^attempt to write a readonly database$"):
        make_engine(f"sqlite:///file:{path}?mode=ro&uri=true")


def test_a_second_server_on_the_same_sqlite_file_is_refused(tmp_path):
    """Two `abstracta serve` on one SQLite file both started; each kept its own copy of the
    matches, so the second showed a game as it was before the first took a move (a spectator
    there never saw it) and a player there was told his moves were stale. SQLite serves one
    process; the second now says so and stops."""
    import signal
    import subprocess
    import sys
    from pathlib import Path

    db = tmp_path / "club.db"
    root = Path(__file__).resolve().parents[2]

    def serve(name):
        out = (tmp_path / name).open("wb")
        return subprocess.Popen([sys.executable, "-m", "abstracta", "serve", "--port", "0", "--db", str(db),
                                 "--bot-workers", "0"], stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True, cwd=root)

    first = serve("first.txt")
    try:
        deadline = time.time() + 60
        while "open http://" not in (tmp_path / "first.txt").read_text():
            assert first.poll() is None and time.time() < deadline, (tmp_path / "first.txt").read_text()
            time.sleep(0.1)
        second = serve("second.txt")
        try:
            assert second.wait(30) == 2
        finally:
            if second.poll() is None:
                os.killpg(second.pid, signal.SIGKILL)
        said = (tmp_path / "second.txt").read_text()
        assert said.startswith(f"error: cannot use the database (--db): {db} is served by another abstracta "
                               "serve process (SQLite serves one; several processes need PostgreSQL)"), said
        assert "open http://" not in said
        assert first.poll() is None  # the first goes on
    finally:
        os.killpg(first.pid, signal.SIGTERM)
        first.wait(20)
    # once the first has stopped, the file serves again
    third = serve("third.txt")
    try:
        deadline = time.time() + 60
        while "open http://" not in (tmp_path / "third.txt").read_text():
            assert third.poll() is None and time.time() < deadline, (tmp_path / "third.txt").read_text()
            time.sleep(0.1)
    finally:
        os.killpg(third.pid, signal.SIGTERM)
        third.wait(20)


def test_a_database_that_cannot_be_read_is_a_503_too(tmp_path):
    """The database's folder gone (a disk unmounted; or a PostgreSQL server stopped, where
    every act of a process sharing it first reads the stored revision): the list of one's
    games, an invitation looked up, was a 500 'internal error: OperationalError'."""
    folder = tmp_path / "games"
    url = f"sqlite:///{folder / 'club.db'}"
    with TestClient(make_app(url, rate_limits=False)) as raw:
        view = raw.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"]}).json()
        mid, auth, code = view["id"], bearer(view["tokens"][0]["token"]), view["invites"][0]["code"]
    app = make_app(url, rate_limits=False)
    with TestClient(app) as raw:  # a new process: the match is not in its memory
        app.state.service.store.engine.dispose()
        folder.rename(tmp_path / "elsewhere")
        try:
            for r in (raw.get("/api/matches", headers=auth), raw.post("/api/invites/lookup", json={"code": code})):
                assert r.status_code == 503, r.text
                assert r.json()["error"] == ("the games database could not be read (unable to open database file): "
                                             "try again later")
                assert r.json()["i18n"] == {"key": "error.storage_unreadable",
                                            "params": {"reason": "unable to open database file"}}
        finally:
            (tmp_path / "elsewhere").rename(folder)
        assert [m["id"] for m in raw.get("/api/matches", headers=auth).json()] == [mid]
