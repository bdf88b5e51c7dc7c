"""More ways a socket's credential ends (server/signed_in.py, docs/accounts.md "Sessions"): each
must stop the person's views and moves on a socket opened with it, at its next change; a socket
opened with seat tokens only never reads a session. And how long a reading is trusted."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from apiutil import make_app
from test_signed_in import Clock, Reads, counting, run

from abstracta.people.credentials import Passwords
from abstracta.server.signed_in import RECHECK_SECONDS, SignedIn

PW = "correct horse"
BOTH_SEATS = {"game": "nibble", "seats": ["human", "human"], "take": [0, 1]}


@pytest.fixture
def app(db_url):
    app = make_app(db_url, rate_limits=False)
    app.state.people.passwords = Passwords.light()
    return app


def close_code(ws) -> int:
    """The code the socket is closed with (frames before it, such as the error, skipped)."""
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            ws.receive_json()
    return closed.value.code


def first_view(ws) -> dict:
    ws.send_json({"tokens": []})
    view = ws.receive_json()
    assert view["my_seats"] == [0, 1]
    return view


def test_a_reading_is_trusted_a_minute_from_when_it_was_made_not_from_when_it_returned():
    """A slow reading (the touch of a session waits for SQLite's writer lock; a loaded
    database) says what the credential was when it was made: an end committed just after it,
    by a process that tells nobody (an administrator's command), must be noticed within
    RECHECK_SECONDS of the reading, as docs/accounts.md promises ("within a minute"), not within
    a minute of when the slow reading returned."""
    reads, clock = Reads(), Clock()
    signed = SignedIn(reads, clock=clock)
    anna = signed.watch(None, 1)

    def slow() -> None:
        clock.at += 30.0  # the reading takes 30 s; what it read is as at its start

    reads.during = slow
    made = clock.at
    assert run(anna.still())
    reads.during = None
    reads.answer[1] = False  # disabled beside the server just after the reading was made
    clock.at = made + RECHECK_SECONDS + 1.0  # a minute and a second after the reading
    assert not run(anna.still()), "a reading over a minute old was trusted"


def test_a_socket_opened_with_an_api_token_stops_when_the_token_is_revoked(app):
    with TestClient(app) as anna:
        assert anna.post("/api/accounts", json={"username": "anna", "password": PW}).status_code == 201
        made = anna.post("/api/me/tokens", json={"description": "bot", "scopes": ["play"]}).json()
        bot, bearer = TestClient(app), {"Authorization": f"Bearer {made['token']}"}
        mid = bot.post("/api/matches", json=BOTH_SEATS, headers=bearer).json()["id"]
        with bot.websocket_connect(f"/api/matches/{mid}/ws", headers=bearer) as ws:
            view = first_view(ws)
            assert anna.delete(f"/api/me/tokens/{made['id']}").status_code == 204
            ws.send_json({"move": {"action": view["legal"][0], "ply": 0}, "id": 1})
            assert close_code(ws) == 4401
        assert anna.get(f"/api/matches/{mid}").json()["ply"] == 0  # the move not played


@pytest.mark.parametrize("how", ["signs up", "signs in"])
def test_a_guests_socket_stops_when_the_guest_signs_up_or_in_from_its_browser(app, how):
    """The guest's session ends when the browser signs up (the guest becomes the account, the
    same person, a new session) or signs in over it: a copy of the old cookie acts no more."""
    with TestClient(app) as guest:
        if how == "signs in":
            assert TestClient(app).post("/api/accounts", json={"username": "anna", "password": PW}).status_code == 201
        assert guest.post("/api/guests").status_code == 201
        mid = guest.post("/api/matches", json=BOTH_SEATS).json()["id"]
        copy = TestClient(app)
        copy.cookies.update(guest.cookies)
        with copy.websocket_connect(f"/api/matches/{mid}/ws") as ws:
            view = first_view(ws)
            if how == "signs up":
                assert guest.post("/api/accounts", json={"username": "kalle", "password": PW}).status_code == 201
            else:
                assert guest.post("/api/session", json={"username": "anna", "password": PW}).status_code == 200
            ws.send_json({"move": {"action": view["legal"][0], "ply": 0}, "id": 1})
            assert close_code(ws) == 4401
        assert guest.get(f"/api/matches/{mid}").json()["ply"] == 0


def test_a_socket_with_seat_tokens_only_never_reads_a_session(app):
    with TestClient(app) as client:
        made = client.post("/api/matches", json=BOTH_SEATS).json()
        tokens = [x["token"] for x in made["tokens"]]
        reads = counting(app)
        with client.websocket_connect(f"/api/matches/{made['id']}/ws") as ws:
            ws.send_json({"tokens": tokens})
            view = ws.receive_json()
            app.state.signed_in.forget_all()  # as after a fan-out gap: still nobody's to read
            for ident in (1, 2, 3):
                ws.send_json({"move": {"action": view["legal"][0], "ply": view["ply"]}, "id": ident})
                frames = [ws.receive_json(), ws.receive_json()]
                assert {"ack": ident, "ply": ident} in frames
                view = next(f for f in frames if "struct" in f)
        assert reads == []


def test_the_lobby_socket_of_an_ended_session_closes_with_4401_as_documented(app):
    """docs/accounts.md, "Sessions": a WebSocket opened by a session (a game, its chat, the
    lobby) closes with 4401 at the next change once the session has ended. The lobby's closed
    with 1001 (going away), which a client cannot tell from a server restarting."""
    with TestClient(app) as anna:
        assert anna.post("/api/accounts", json={"username": "anna", "password": PW}).status_code == 201
        other, ben = TestClient(app), TestClient(app)
        assert other.post("/api/session", json={"username": "anna", "password": PW}).status_code == 200
        assert ben.post("/api/accounts", json={"username": "ben", "password": PW}).status_code == 201
        with other.websocket_connect("/api/lobby/ws") as lobby:
            assert lobby.receive_json()["lobby"]["me"]["name"] == "anna"
            assert anna.delete("/api/me/sessions").json() == {"ended": 1}  # the other browser's
            assert ben.post("/api/challenges", json={"to": "anna", "game": "nibble"}).status_code == 201
            assert close_code(lobby) == 4401


def closed_within(ws, seconds: float = 10.0) -> int:
    """:func:`close_code`, failing (not hanging) when the socket is not closed within
    ``seconds``: the test client's receive has no timeout of its own."""
    import concurrent.futures

    pool = concurrent.futures.ThreadPoolExecutor(1)
    try:
        return pool.submit(close_code, ws).result(timeout=seconds)
    finally:
        pool.shutdown(wait=False)


@pytest.mark.parametrize("socket", ["game", "room", "lobby", "notices"])
def test_an_end_closes_the_persons_sockets_at_once_without_a_change(app, socket):
    """Anna signs out her other browser from this one, and nothing else happens (her opponent
    thinks, the lobby is quiet): the other browser's game, room and lobby sockets close with
    4401 at once, woken by the end itself, not at a change that may be minutes away."""
    with TestClient(app) as anna:
        assert anna.post("/api/accounts", json={"username": "anna", "password": PW}).status_code == 201
        other = TestClient(app)
        assert other.post("/api/session", json={"username": "anna", "password": PW}).status_code == 200
        mid = other.post("/api/matches", json=BOTH_SEATS).json()["id"]
        path = {"game": f"/api/matches/{mid}/ws", "room": f"/api/matches/{mid}/room",
                "lobby": "/api/lobby/ws", "notices": "/api/notices/ws"}[socket]
        with other.websocket_connect(path) as ws:
            if socket == "lobby":
                assert ws.receive_json()["lobby"]["me"]["name"] == "anna"
            elif socket == "notices":
                assert ws.receive_json() == {"notices": {"challenges": [], "started": [], "turns": 0}}
            else:
                ws.send_json({"tokens": []})
                first = ws.receive_json()
                assert first.get("my_seats", [0, 1]) == [0, 1] and "error" not in first
            assert anna.delete("/api/me/sessions").json() == {"ended": 1}  # the other browser's
            assert closed_within(ws) == 4401
        assert not app.state.signed_in._wakes  # the closed sockets are woken no more


def test_an_end_of_someone_elses_session_leaves_a_players_socket_playing(app):
    """Ben's sign-out wakes nobody else's sockets; anna's woken by an end of her other session
    (not the one it was opened with) reads it, finds hers valid and plays on."""
    with TestClient(app) as anna:
        assert anna.post("/api/accounts", json={"username": "anna", "password": PW}).status_code == 201
        ben, laptop = TestClient(app), TestClient(app)
        assert ben.post("/api/accounts", json={"username": "ben", "password": PW}).status_code == 201
        assert laptop.post("/api/session", json={"username": "anna", "password": PW}).status_code == 200
        mid = anna.post("/api/matches", json=BOTH_SEATS).json()["id"]
        reads = counting(app)
        with anna.websocket_connect(f"/api/matches/{mid}/ws") as ws:
            view = first_view(ws)
            assert ben.delete("/api/session").status_code in (200, 204)
            assert laptop.delete("/api/session").status_code in (200, 204)  # anna's other session
            ws.send_json({"move": {"action": view["legal"][0], "ply": view["ply"]}, "id": 1})
            frames = [ws.receive_json(), ws.receive_json()]
            assert {"ack": 1, "ply": 1} in frames, frames
            assert len(reads) >= 2 and set(reads) == {reads[0]}  # anna's, read again after her end
