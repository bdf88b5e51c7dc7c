"""A club organiser's hostile afternoon (club31): what a stranger did to a served match, and
what the server now does about it. Each refusal is a clear error and the match is unchanged."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from apiutil import bearer

from abstracta.server.api.routes import live as web


def people(raw, stones=9):
    """A toy-nim match between two people on two devices: (id, token of seat 0, of seat 1)."""
    view = raw.post("/api/matches", json={"game": "toy-nim", "options": {"stones": stones},
                                          "seats": ["human", "human"]}).json()
    t1 = raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()["tokens"][0]["token"]
    return view["id"], view["tokens"][0]["token"], t1


# --- wrong types are refused, not read as something else ----------------------------------
@pytest.mark.parametrize("accept", ["no", "yes", "false", 0, 1, "on"])
def test_a_takeback_answer_that_is_not_a_json_boolean_is_refused(client, accept):
    """Pydantic's lax mode read "no" as false (the request was declined) and 1 as true."""
    raw = client.raw
    mid, t0, t1 = people(raw)
    raw.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0}, headers=bearer(t0))
    asked = raw.post(f"/api/matches/{mid}/takeback", headers=bearer(t0)).json()
    assert asked["takeback"]["by"] == 0
    r = raw.post(f"/api/matches/{mid}/takeback/answer", json={"accept": accept}, headers=bearer(t1))
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith("accept:")
    after = raw.get(f"/api/matches/{mid}").json()
    assert after["ply"] == 1 and after["takeback"] == asked["takeback"] and after["revision"] == asked["revision"]


@pytest.mark.parametrize("field, value", [("scale", "0.5"), ("scale", "1"), ("hint", "false"), ("hint", 0)])
def test_analysis_fields_of_another_type_are_refused(client, field, value):
    body = {"game": "toy-nim", "position": "7 0", field: value}
    r = client.raw.post("/api/analysis", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith(f"{field}:")
    good = {"game": "toy-nim", "position": "7 0", "scale": 0.5, "hint": False}
    assert client.raw.post("/api/analysis", json=good).status_code == 200


def test_a_clock_that_is_no_time_control_is_named_in_balanced_braces(client):
    r = client.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"], "clock": {"minutes": 5}})
    assert r.status_code == 422
    assert r.json()["error"] == ("clock: ['minutes'] is not a time control; give {'initial': s, 'increment': s} "
                                 "(a live clock) or {'per_turn': s} (a deadline per turn)")


# --- a spectator's reads do not hold up the players ----------------------------------------
def test_a_spectators_replay_does_not_hold_up_the_players_move(client, monkeypatch):
    """GET …/positions replays the whole game; a long game takes seconds (1,500 plies of
    Fibonacci: 1.5 s), and a stranger asking for it in a loop held the match's lock all the
    while: each move of the players waited 3-8 s. The replay now runs on the match as it was
    (a stored match is never changed in place), outside the lock."""
    raw, service = client.raw, client.app.state.service
    mid, t0, _t1 = people(raw)
    inside, release = threading.Event(), threading.Event()
    original = type(service.views).position

    def slow_position(match, state, viewer):  # the replay of a very long game
        inside.set()
        release.wait(10)
        return original(match, state, viewer)

    monkeypatch.setattr(type(service.views), "position", staticmethod(slow_position))
    answers = {}
    reader = threading.Thread(target=lambda: answers.setdefault("positions", raw.get(f"/api/matches/{mid}/positions")))
    reader.start()
    try:
        assert inside.wait(5)
        monkeypatch.setattr(type(service.views), "position", staticmethod(original))
        started = time.perf_counter()
        r = raw.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0}, headers=bearer(t0))
        assert r.status_code == 200 and r.json()["ply"] == 1
        assert time.perf_counter() - started < 3.0  # the replay is held up for 10 s
        assert reader.is_alive()
    finally:
        release.set()
        reader.join()
    # the replay shows the match as it was when asked for
    positions = answers["positions"].json()
    assert answers["positions"].status_code == 200 and positions["ply"] == 0 and positions["positions"] == ["9 0"]
    assert raw.get(f"/api/matches/{mid}/positions").json()["positions"] == ["9 0", "8 1"]


def test_a_replay_for_a_seat_not_held_is_still_refused(client):
    raw = client.raw
    mid, t0, _t1 = people(raw)
    assert raw.get(f"/api/matches/{mid}/positions?seat=1", headers=bearer(t0)).status_code == 403
    assert raw.get(f"/api/matches/{mid}/positions?seat=7", headers=bearer(t0)).status_code == 422
    assert raw.get("/api/matches/nope/positions").status_code == 404


# --- the served process: WebSocket frames are bounded by the transport ----------------------
@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``abstracta serve`` on a free port and a fresh SQLite file, rate limits on (as a club
    runs it); the base URL."""
    tmp = tmp_path_factory.mktemp("served")
    out = (tmp / "out.txt").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "abstracta", "serve", "--port", "0", "--db",
                             str(tmp / "club.db"), "--bot-workers", "1"],
                            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                            cwd=Path(__file__).resolve().parents[2])
    base, deadline = None, time.time() + 60
    while base is None and time.time() < deadline and proc.poll() is None:
        text = (tmp / "out.txt").read_text()
        if "open http://" in text:
            base = text.split("open http://", 1)[1].split("/", 1)[0]
        else:
            time.sleep(0.1)
    assert base is not None, (tmp / "out.txt").read_text()
    base = f"127.0.0.1:{base.rsplit(':', 1)[1]}"
    while time.time() < deadline:  # the port is bound before it is printed, listened on after
        try:
            httpx.get(f"http://{base}/api/games", timeout=2)
            break
        except httpx.HTTPError:
            time.sleep(0.1)
    try:
        yield base
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(20)


def test_an_oversized_websocket_frame_is_refused_by_the_transport(served):
    """uvicorn's default read up to 16 MiB per message before the app could look at it: 30
    sockets of one address (under the bound of 32) sending 16 MB each drove the web process
    from 141 MB to 865 MB. Frames are now bounded at what a first message may hold."""
    websockets = pytest.importorskip("websockets")
    WS_AUTH_LIMIT, WS_MESSAGE_BYTES = web.WS_AUTH_LIMIT, web.WS_MESSAGE_BYTES
    view = httpx.post(f"http://{served}/api/matches", json={"game": "fanorona", "options": {"size": "dimy"},
                                                           "seats": ["human", "human"]}).json()
    url = f"ws://{served}/api/matches/{view['id']}/ws"

    from websockets.sync.client import connect

    # the sync client: a browser test in the same worker leaves Playwright's event loop running
    # in this thread, where asyncio.run would refuse to start
    def attempt(first: str):
        with connect(url, max_size=None) as ws:
            ws.send(first)
            try:
                return json.loads(ws.recv(timeout=10))
            except websockets.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None

    assert attempt("x" * (WS_MESSAGE_BYTES + 1)) == 1009  # too big: closed unread
    # the longest first message the app reads still gets its answer, in any script
    tokens = json.dumps({"tokens": ["\U0001d11e" * (WS_AUTH_LIMIT - 20)]}, ensure_ascii=False)  # 4 bytes each
    assert len(tokens) <= WS_AUTH_LIMIT and WS_MESSAGE_BYTES - 100 < len(tokens.encode()) <= WS_MESSAGE_BYTES
    # (read whole, and refused for what it says: no seat token is that long)
    assert attempt(tokens) == {"error": f"a seat token is at most 64 characters (one sent has {WS_AUTH_LIMIT - 20})"}
    assert httpx.get(f"http://{served}/api/matches/{view['id']}").json()["ply"] == 0
