"""A match survives a restart at its last accepted move (issue 7 §1, §5)."""

from __future__ import annotations

import time

from apiutil import Creator, make_app
from fastapi.testclient import TestClient

import abstracta


def test_restart_continues_where_it_stopped(db_url):
    with TestClient(make_app(db_url, bot_workers=0)) as raw:
        c = keeper = Creator(raw)
        mid = c.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 12}, "seats": ["human", "human"]}).json()["id"]
        c.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0})
        c.post(f"/api/matches/{mid}/actions", json={"action": "2", "ply": 1})
        r = c.post(f"/api/matches/{mid}/actions", json={"action": "9", "ply": 2})  # refused, not stored
        assert r.status_code == 422
    with TestClient(make_app(db_url, bot_workers=0)) as raw:
        c = Creator(raw)
        c.tokens = keeper.tokens  # the browser kept its tokens; the server kept their digests
        view = c.get(f"/api/matches/{mid}").json()
        assert view["ply"] == 2 and view["position"] == "9 0" and view["moves"] == ["1", "2"]
        view = c.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 2}).json()
        assert view["ply"] == 3
        assert [m["id"] for m in c.get("/api/matches").json()] == [mid]


def test_restart_resumes_a_thinking_bot(db_url):
    with TestClient(make_app(db_url, bot_workers=0)) as c:
        mid = c.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 12}, "seats": ["human", "human"],
                                           "take": "all"}).json()["id"]
    # the stored record now says a bot sits at seat 0 (as if the server stopped while it thought)
    from abstracta.server.storage import Store

    store = Store(db_url)
    row = store.get(mid)
    record = abstracta.Record.from_json(row.record)
    record.players = ["level:1", "human"]
    store.commit(mid, row.revision, status="playing", plies=0, turns=0, keep=0, record_json=record.to_json())
    store.dispose()
    with TestClient(make_app(db_url, bot_workers=0)) as c:
        deadline = time.time() + 10
        while c.get(f"/api/matches/{mid}").json()["ply"] == 0:
            assert time.time() < deadline
            time.sleep(0.02)


def test_a_match_not_read_at_start_resumes_its_bot_when_asked_for(db_url, monkeypatch):
    # a read that failed at start-up (the database busy, a connection dropped) skipped the
    # match: its computer's search never started again, and its view said thinking for ever
    from abstracta.server.errors import StorageFailed
    from abstracta.server.storage import Store

    with TestClient(make_app(db_url, bot_workers=0)) as raw:
        c = Creator(raw)
        mid = c.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 12},
                                           "seats": ["human", "human"], "take": "all"}).json()["id"]
    store = Store(db_url)
    row = store.get(mid)
    record = abstracta.Record.from_json(row.record)
    record.players = ["level:1", "human"]  # as if the server stopped while the computer thought
    store.commit(mid, row.revision, status="playing", plies=0, turns=0, keep=0, record_json=record.to_json())
    store.dispose()
    real, failed = Store.load, []

    def first_read_fails(self, match_id):
        if match_id == mid and not failed:
            failed.append(match_id)
            raise StorageFailed("the games database could not be read (database is locked): try again later")
        return real(self, match_id)

    monkeypatch.setattr(Store, "load", first_read_fails)
    with TestClient(make_app(db_url, bot_workers=0)) as raw:
        assert failed == [mid]  # read at start-up, and refused
        deadline = time.time() + 10
        while (view := raw.get(f"/api/matches/{mid}").json())["ply"] == 0:  # a spectator asks for it
            assert time.time() < deadline, view["thinking"]
            time.sleep(0.02)
        assert (view["ply"], view["movers"], view["to_move"], view["thinking"]) == (1, [0], 1, False)


def test_bot_in_worker_process_and_restart(db_url):
    """A real game with the bot in a worker process; the game is reloaded by replaying its record."""
    with TestClient(make_app(db_url, bot_workers=1)) as raw:
        c = Creator(raw)
        view = c.post("/api/matches", json={"game": "fanorona", "options": {"size": "telo"},
                                            "seats": ["human", "level:1"]}).json()
        mid = view["id"]
        view = c.post(f"/api/matches/{mid}/actions", json={"action": view["legal"][0], "ply": 0}).json()
        assert view["thinking"] or view["ply"] > 1
        deadline = time.time() + 60
        while view["thinking"] or (view["status"] == "playing" and not view["human_to_move"]):
            assert time.time() < deadline, view
            time.sleep(0.05)
            view = c.get(f"/api/matches/{mid}").json()
        before = (view["ply"], view["position"], view["moves"])
        # level 1 was answered in the fast lane's worker process, not in the web process
        stats = c.get("/api/bots").json()
        assert (stats["fast_executor"], stats["executor"], stats["in_thread"]) == ("process", "process", 0)
        assert stats["answered"] >= 1
    with TestClient(make_app(db_url, bot_workers=1)) as c:
        view = c.get(f"/api/matches/{mid}").json()
        assert (view["ply"], view["position"], view["moves"]) == before
