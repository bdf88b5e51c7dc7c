"""Moves over a match's WebSocket (issue 44 §1; ``api.routes.live_moves``): a move sent as
``{"move": <the POST's body>, "id": n}`` is played as ``POST …/actions`` plays it — the same
effect, the same refusals with the POST's statuses, the same rate-limit budget, the same holder —
and answered ``{"ack": n, "ply": …}`` (the view comes as the usual push)."""

from __future__ import annotations

import json

import pytest
from apiutil import Creator, bearer, make_app
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from abstracta.server.api.routes.live_moves import MOVE_FRAME_LIMIT


def create(client, stones=7):
    """A toy-nim match between two people on this device (the client holds both tokens)."""
    r = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": str(stones)},
                                          "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def seat_socket(client, mid, *tokens):
    """The match's socket opened with ``tokens`` (none: a spectator's); its first view read."""
    ws = client.raw.websocket_connect(f"/api/matches/{mid}/ws").__enter__()
    ws.send_json({"tokens": list(tokens)})
    first = ws.receive_json()
    assert "ply" in first, first
    return ws


def answer_of(ws, ident):
    """The frames until the answer to move ``ident``: (that answer, the views pushed meanwhile)."""
    views = []
    while True:
        frame = ws.receive_json()
        if frame.get("id") == ident or frame.get("ack") == ident:
            return frame, views
        views.append(frame)


def send_move(ws, body, ident=1):
    ws.send_text(json.dumps({"move": body, "id": ident}))
    return answer_of(ws, ident)


def stored(client, mid):
    """What the match's record keeps (its header fields and moves, not its id or dates)."""
    record = client.get(f"/api/matches/{mid}/record").json()
    return {k: v for k, v in record.items() if k not in ("id", "tags", "created", "updated")}, \
        {k: v for k, v in record.get("tags", {}).items() if "date" not in k.lower() and "time" not in k.lower()
         and k.lower() not in ("site", "id", "match")}


def test_a_socket_move_has_the_same_effect_as_the_post(client):
    by_post, by_socket = create(client), create(client)
    tokens = client.tokens[by_socket]
    sockets = {seat: seat_socket(client, by_socket, token) for seat, token in tokens.items()}
    try:
        for ply, (seat, action) in enumerate([(0, "2"), (1, "1"), (0, "3")]):
            r = client.post(f"/api/matches/{by_post}/actions", json={"action": action, "ply": ply})
            assert r.status_code == 200, r.text
            ack, _ = send_move(sockets[seat], {"action": action, "ply": ply}, ident=100 + ply)
            assert ack == {"ack": 100 + ply, "ply": ply + 1}
        post_view, socket_view = (client.get(f"/api/matches/{m}").json() for m in (by_post, by_socket))
        for key in ("ply", "position", "moves", "movers", "status", "to_move", "legal", "revision"):
            assert post_view[key] == socket_view[key], key
        assert socket_view["moves"] == ["2", "1", "3"] and socket_view["position"] == "1 1"
        assert stored(client, by_post) == stored(client, by_socket)
        # the last move ends the game, over the socket as over the POST
        ack, _ = send_move(sockets[1], {"action": "1", "ply": 3}, ident=7)
        assert ack == {"ack": 7, "ply": 4}
        assert client.get(f"/api/matches/{by_socket}").json()["status"] == "over"
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)


def test_the_ack_follows_the_stored_move_and_the_view_comes_as_a_push(client):
    mid = create(client)
    token0 = client.tokens[mid][0]
    with client.raw.websocket_connect(f"/api/matches/{mid}/ws") as mover, \
            client.raw.websocket_connect(f"/api/matches/{mid}/ws") as watcher:
        mover.send_json({"tokens": [token0]})
        watcher.send_json({"tokens": []})
        assert mover.receive_json()["ply"] == 0 and watcher.receive_json()["ply"] == 0
        mover.send_text(json.dumps({"move": {"action": "2", "ply": 0}, "id": 41}))
        frames = [mover.receive_json(), mover.receive_json()]  # the ack and the mover's pushed view
        acks = [f for f in frames if "ack" in f]
        views = [f for f in frames if "ack" not in f]
        assert acks == [{"ack": 41, "ply": 1}]  # no view in the ack
        assert len(views) == 1 and views[0]["ply"] == 1 and views[0]["position"] == "5 1"
        assert views[0]["my_seats"] == [0]  # the mover's own eyes, as its pushes always are
        assert client.get(f"/api/matches/{mid}").json()["ply"] == 1  # stored when acknowledged
        spectator = watcher.receive_json()
        assert spectator["ply"] == 1 and spectator["my_seats"] == []


#: moves the POST refuses: (body, the status the POST answers), the toy-nim heap at 3 stones
REFUSED = [
    ({"action": "4", "ply": 0}, 422),  # not legal
    ({"action": "", "ply": 0}, 422),  # the model refuses it
    ({"action": "1", "ply": 3}, 409),  # stale
    ({"action": "1", "ply": -1}, 422),
    ({"action": "1", "ply": True}, 422),  # a JSON true is no ply
    ({"action": 1, "ply": 0}, 422),
    ({"action": "1", "ply": 0, "seat": 1}, 403),  # a seat the token does not hold
    ({"action": "1", "ply": 0, "extra": 1}, 422),
    ({"action": "1", "actions": ["1"], "ply": 0}, 422),  # two moves at once
    ({"turn": "1", "ply": 0}, 422),  # no whole-turn notation in this game
    ({"ply": 0}, 422),
    ([{"action": "1", "ply": 0}], 422),
    ("1", 422),
]


@pytest.mark.parametrize("body, status", REFUSED)
def test_a_refused_move_is_an_error_frame_with_the_posts_status_and_the_match_unchanged(client, body, status):
    mid = create(client, stones=3)
    token = client.tokens[mid][0]
    posted = client.post(f"/api/matches/{mid}/actions", json=body, headers=bearer(token))
    assert posted.status_code == status, posted.text
    ws = seat_socket(client, mid, token)
    try:
        frame, views = send_move(ws, body, ident=5)
        assert frame == {**posted.json(), "status": status, "id": 5}
        assert views == []  # nothing changed: nothing pushed
        # the socket stays open: a good move after it is played
        ack, _ = send_move(ws, {"action": "1", "ply": 0}, ident=6)
        assert ack == {"ack": 6, "ply": 1}
    finally:
        ws.__exit__(None, None, None)
    assert client.get(f"/api/matches/{mid}").json()["moves"] == ["1"]


def test_a_stale_ply_is_409_with_the_current_ply(client):
    mid = create(client)
    ws = seat_socket(client, mid, client.tokens[mid][0])
    try:
        assert send_move(ws, {"action": "1", "ply": 0}, 1)[0] == {"ack": 1, "ply": 1}
        frame, _ = send_move(ws, {"action": "1", "ply": 0}, 2)  # the same move again: stale
        posted = client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0})
        assert posted.status_code == 409
        assert frame == {**posted.json(), "status": 409, "id": 2} and frame["ply"] == 1
    finally:
        ws.__exit__(None, None, None)
    assert client.get(f"/api/matches/{mid}").json()["moves"] == ["1"]


def test_a_token_of_the_seat_not_to_move_is_refused_as_the_post_refuses_it(client):
    mid = create(client)
    other = client.tokens[mid][1]  # seat 1's: seat 0 is to move
    posted = client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0}, headers=bearer(other))
    named = client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0, "seat": 0},
                        headers=bearer(other))
    assert (posted.status_code, named.status_code) == (403, 403), (posted.text, named.text)
    ws = seat_socket(client, mid, other)
    try:
        assert send_move(ws, {"action": "1", "ply": 0}, 1)[0] == {**posted.json(), "status": 403, "id": 1}
        assert send_move(ws, {"action": "1", "ply": 0, "seat": 0}, 2)[0] == {**named.json(), "status": 403, "id": 2}
    finally:
        ws.__exit__(None, None, None)
    assert client.get(f"/api/matches/{mid}").json()["ply"] == 0


def test_a_spectators_socket_is_refused_with_403(client):
    mid = create(client)
    ws = seat_socket(client, mid)
    try:
        frame, _ = send_move(ws, {"action": "1", "ply": 0}, 3)
        assert frame["status"] == 403 and frame["id"] == 3 and "spectator" in frame["error"]
        ws.send_text("ping")  # still open
        assert send_move(ws, {"action": "9", "ply": 0}, 4)[0]["status"] == 403
    finally:
        ws.__exit__(None, None, None)
    assert client.get(f"/api/matches/{mid}").json()["ply"] == 0


@pytest.mark.parametrize("frame", [
    '{"move": {"action": "1", "ply": 0}}',  # no id
    '{"move": {"action": "1", "ply": 0}, "id": "1"}',
    '{"move": {"action": "1", "ply": 0}, "id": true}',
    '{"move": {"action": "1", "ply": 0}, "id": 1.5}',
    '{"move": {"action": "1", "ply": 0}, "id": 9007199254740992}',
    '{"move": {"action": "1", "ply": 0}, "id": 1, "seat": 0}',
    "x" * (MOVE_FRAME_LIMIT + 1),
    '{"move": {"action": "1", "ply": 0}, "id": 1}' + " " * MOVE_FRAME_LIMIT,
    '{"no move": 1, "padding": "' + "x" * 200 + '"}',
])
def test_a_malformed_or_oversize_frame_closes_the_socket(client, frame):
    mid = create(client)
    ws = seat_socket(client, mid, client.tokens[mid][0])
    ws.send_text(frame)
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            ws.receive_json()
    assert closed.value.code == 1003
    ws.__exit__(None, None, None)
    assert client.get(f"/api/matches/{mid}").json()["ply"] == 0


def test_a_move_frame_longer_than_short_text_is_read(client):
    mid = create(client)
    ws = seat_socket(client, mid, client.tokens[mid][0])
    try:
        ws.send_text("ping")  # short text is still a keep-alive
        padded = json.dumps({"move": {"action": "2", "ply": 0}, "id": 8}) + " " * 4000
        ws.send_text(padded)
        assert answer_of(ws, 8)[0] == {"ack": 8, "ply": 1}
    finally:
        ws.__exit__(None, None, None)


@pytest.fixture
def limited(db_url):
    """Rate limits on: three acts a minute per token (six per address)."""
    limits = {"create": ("30/minute", "30/minute"), "invite": ("30/minute", "30/minute"),
              "act": ("6/minute", "3/minute")}
    with TestClient(make_app(db_url, limits=limits)) as c:
        yield Creator(c)


def test_socket_moves_spend_the_posts_rate_limit_budget(limited):
    mid = create(limited, stones=30)
    tokens = limited.tokens[mid]
    # the browser sends both tokens of this device with every POST, and in its socket's first message
    assert limited.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0}).status_code == 200
    ws = seat_socket(limited, mid, *tokens.values())
    try:
        assert send_move(ws, {"action": "1", "ply": 1}, 1)[0] == {"ack": 1, "ply": 2}
        assert send_move(ws, {"action": "1", "ply": 2}, 2)[0] == {"ack": 2, "ply": 3}
        frame, _ = send_move(ws, {"action": "1", "ply": 3}, 3)  # the fourth act of these tokens
        assert frame["status"] == 429 and frame["id"] == 3 and frame["retry_after"] >= 1
        assert frame["i18n"]["key"] == "error.rate_limited"
        r = limited.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 3})
        assert r.status_code == 429  # and the POST is over the budget too
        assert frame["error"].startswith("too many requests: try again in")
        ws.send_text("ping")  # the socket stays open
    finally:
        ws.__exit__(None, None, None)
    assert limited.get(f"/api/matches/{mid}").json()["ply"] == 3


def test_socket_moves_are_limited_by_the_address_too(db_url):
    """Four acts a minute from one address: sockets of other tokens and other matches share it."""
    limits = {"create": ("30/minute", "30/minute"), "invite": ("30/minute", "30/minute"),
              "act": ("4/minute", "100/minute")}
    with TestClient(make_app(db_url, limits=limits)) as raw:
        client = Creator(raw)
        mids = [create(client, stones=30) for _ in range(2)]
        sockets = [seat_socket(client, mid, *client.tokens[mid].values()) for mid in mids]
        try:
            answers = [send_move(sockets[i % 2], {"action": "1", "ply": i // 2}, i)[0] for i in range(5)]
        finally:
            for ws in sockets:
                ws.__exit__(None, None, None)
        assert [a.get("ack") for a in answers[:4]] == [0, 1, 2, 3]
        assert answers[4]["status"] == 429 and answers[4]["id"] == 4
        assert [client.get(f"/api/matches/{mid}").json()["ply"] for mid in mids] == [2, 2]


def test_a_socket_whose_session_ended_is_closed_with_4401_and_plays_nothing(db_url):
    from abstracta.people.credentials import Passwords

    app = make_app(db_url, rate_limits=False)
    app.state.people.passwords = Passwords.light()
    with TestClient(app) as anna:
        assert anna.post("/api/accounts", json={"username": "anna", "password": "correct horse"}).status_code == 201
        made = anna.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"], "take": [0]})
        assert made.status_code == 201, made.text
        mid = made.json()["id"]
        code = made.json()["invites"][0]["code"]
        assert TestClient(app).post("/api/invites/claim", json={"code": code}).status_code == 200
        with anna.websocket_connect(f"/api/matches/{mid}/ws") as ws:
            ws.send_json({"tokens": []})  # no token: the cookie of the handshake holds seat 0
            assert ws.receive_json()["my_seats"] == [0]
            assert send_move(ws, {"action": "1", "ply": 0}, 1)[0] == {"ack": 1, "ply": 1}
            assert anna.delete("/api/session").status_code == 204  # signed out
            ws.send_text(json.dumps({"move": {"action": "1", "ply": 1, "seat": 1}, "id": 2}))
            frames = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    frames.append(ws.receive_json())
            assert closed.value.code == 4401
            assert all("ack" not in f for f in frames) and "session has ended" in frames[-1]["error"]
        assert TestClient(app).get(f"/api/matches/{mid}").json()["ply"] == 1


def test_rate_limits_off_let_every_socket_move_through(client):
    mid = create(client, stones=60)
    ws = seat_socket(client, mid, *client.tokens[mid].values())
    try:
        for ply in range(20):
            assert send_move(ws, {"action": "1", "ply": ply}, ply)[0] == {"ack": ply, "ply": ply + 1}
    finally:
        ws.__exit__(None, None, None)


def test_moves_count_in_the_metrics(client):
    from abstracta.server import metrics

    mid = create(client)
    before = metrics.MOVES._value.get()
    ws = seat_socket(client, mid, client.tokens[mid][0])
    try:
        send_move(ws, {"action": "1", "ply": 0}, 1)
        send_move(ws, {"action": "1", "ply": 0}, 2)  # refused: not counted
    finally:
        ws.__exit__(None, None, None)
    assert metrics.MOVES._value.get() == before + 1


def test_a_bug_while_playing_is_a_500_frame_logged_and_the_socket_stays_open(client, monkeypatch, caplog):
    mid = create(client)
    service = client.raw.app.state.service
    real = service.play

    def broken(*args, **kw):
        raise RuntimeError("a position with hidden cards 7h Kd")

    ws = seat_socket(client, mid, client.tokens[mid][0])
    try:
        monkeypatch.setattr(service, "play", broken)
        frame, _ = send_move(ws, {"action": "1", "ply": 0}, 9)
        assert frame == {"error": "internal error: RuntimeError", "status": 500, "id": 9}
        assert "7h" not in caplog.text and "internal error RuntimeError" in caplog.text
        monkeypatch.setattr(service, "play", real)
        assert send_move(ws, {"action": "1", "ply": 0}, 10)[0] == {"ack": 10, "ply": 1}
    finally:
        ws.__exit__(None, None, None)
