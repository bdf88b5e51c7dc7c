"""A match's chat (issue 43 §2): the API contract, the two rooms apart, the 140 characters and the
rate limit (validation first), reports and bans, no chat where nobody else could read it, the
room socket, and the live list with its spectator counts (§3)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from apiutil import bearer

from abstracta.people.throttle import Throttle
from abstracta.server.chat import CHAT_LIMITS


def apart(client, game: str = "toy-nim", **extra):
    """A match of two people at a distance: (id, creator's token, the friend's token)."""
    view = client.raw.post("/api/matches", json={"game": game, "seats": ["human", "human"], "take": [0], **extra}).json()
    t0 = view["tokens"][0]["token"]
    t1 = client.raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()["tokens"][0]["token"]
    return view["id"], t0, t1


def guest(client) -> TestClient:
    """Another browser, signed in as a guest (its own cookie jar)."""
    other = TestClient(client.raw.app)
    assert other.post("/api/guests").status_code == 201
    return other


def say(c, mid, text, token=None, room=None):
    body = {"text": text} if room is None else {"text": text, "room": room}
    return c.post(f"/api/matches/{mid}/chat", json=body, headers=bearer(token) if token else {})


def test_the_api_contract(client):
    mid, t0, t1 = apart(client)
    raw = client.raw
    posted = say(raw, mid, "good luck!", t0)
    assert posted.status_code == 201, posted.text
    line = posted.json()
    assert (line["room"], line["seat"], line["text"], line["author"]) == ("players", 0, "good luck!", "s0")
    # the other seat reads it
    read = raw.get(f"/api/matches/{mid}/chat", headers=bearer(t1)).json()
    assert [x["text"] for x in read["lines"] if x["room"] == "players"] == ["good luck!"]
    assert read["write"] == "players" and read["you"] == ["s1"]
    # a spectator cannot post to the players' chat, nor read it
    assert say(raw, mid, "hello players", room="players").status_code in (401, 403)
    assert say(guest(client), mid, "hello players", room="players").status_code == 403
    assert raw.get(f"/api/matches/{mid}/chat?room=players").status_code == 403
    assert [x["text"] for x in raw.get(f"/api/matches/{mid}/chat").json()["lines"]] == []
    # over 140 characters: 422, and nothing kept
    long = say(raw, mid, "x" * 141, t1)
    assert long.status_code == 422 and "140" in long.json()["error"]
    assert say(raw, mid, "x" * 140, t1).status_code == 201
    assert len(raw.get(f"/api/matches/{mid}/chat", headers=bearer(t0)).json()["lines"]) == 2


def test_the_rooms_are_apart(client):
    mid, t0, t1 = apart(client)
    anna, ben = guest(client), guest(client)
    assert say(anna, mid, "who wins?").status_code == 201  # a spectator: the spectators' room by default
    assert say(ben, mid, "white", room="spectators").status_code == 201
    # a player writes in the players' room only
    assert say(client.raw, mid, "psst", t0, room="spectators").status_code == 403
    assert say(client.raw, mid, "your move", t0).status_code == 201
    # spectators read theirs only; the players read both (the browser shows the spectators'
    # only when a player asks)
    seen = anna.get(f"/api/matches/{mid}/chat").json()
    assert seen["rooms"] == ["spectators"] and [x["text"] for x in seen["lines"]] == ["who wins?", "white"]
    assert seen["write"] == "spectators" and seen["you"][0].startswith("p")
    players = client.raw.get(f"/api/matches/{mid}/chat", headers=bearer(t1)).json()
    assert players["rooms"] == ["players", "spectators"]
    assert [(x["room"], x["text"]) for x in players["lines"]] == [
        ("spectators", "who wins?"), ("spectators", "white"), ("players", "your move")]
    only = client.raw.get(f"/api/matches/{mid}/chat?room=players", headers=bearer(t1)).json()
    assert [x["text"] for x in only["lines"]] == ["your move"]
    # a spectator's line carries its person's name; a player without a person, its seat's
    assert seen["lines"][0]["person"] and seen["lines"][0]["name"].startswith("Guest")
    assert players["lines"][2]["person"] is False and players["lines"][2]["seat"] == 0
    # nobody signed in reads the spectators' chat but may not write in it
    stranger = say(client.raw, mid, "hi")
    assert stranger.status_code == 401 and stranger.json()["i18n"]["key"] == "chat.error.sign_in"


def test_markup_is_kept_as_text_and_text_is_checked(client):
    mid, t0, _ = apart(client)
    raw = client.raw
    markup = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
    assert say(raw, mid, markup, t0).json()["text"] == markup  # kept as written: the client inserts text
    assert say(raw, mid, "  two   words\n", t0).json()["text"] == "two words"
    for bad, key in (("   ", "chat.error.empty"), ("a\u202eb", "chat.error.control"), ("a\x07b", "chat.error.control")):
        answer = say(raw, mid, bad, t0)
        assert answer.status_code == 422 and answer.json()["i18n"]["key"] == key, bad
    assert raw.post(f"/api/matches/{mid}/chat", json={"text": 5}, headers=bearer(t0)).status_code == 422
    assert raw.post(f"/api/matches/{mid}/chat", json={"text": "x", "room": "lobby"}, headers=bearer(t0)).status_code == 422
    assert say(raw, "nosuchmatch", "hello", t0).status_code == 404


def test_no_chat_against_the_computer_or_on_one_device(client):
    computer = client.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "level:1"]}).json()
    one_device = client.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"]}).json()
    for view in (computer, one_device):
        token = client.tokens[view["id"]][0]
        refused = say(client.raw, view["id"], "hello", token)
        assert refused.status_code == 409 and refused.json()["i18n"]["key"] == "chat.error.closed"
        assert client.raw.get(f"/api/matches/{view['id']}/chat", headers=bearer(token)).json()["open"] is False
        assert say(guest(client), view["id"], "hello").status_code == 409


def test_validation_comes_before_the_rate_limit(client):
    client.raw.app.state.social.chat.throttle = Throttle(limits=dict(CHAT_LIMITS))  # the fixture's app has none
    mid, t0, _ = apart(client)
    raw = client.raw
    for i in range(4):
        assert say(raw, mid, f"line {i}", t0).status_code == 201
    # one line left: a line too long is 422 and costs nothing of it
    assert say(raw, mid, "y" * 141, t0).status_code == 422
    assert say(raw, mid, "line 4", t0).status_code == 201
    busy = say(raw, mid, "line 5", t0)
    assert busy.status_code == 429 and int(busy.headers["Retry-After"]) >= 1
    assert busy.json()["i18n"]["key"] == "chat.error.too_fast"
    # used up: still 422 for a line too long, not 429
    assert say(raw, mid, "y" * 141, t0).status_code == 422
    assert [x["text"] for x in raw.get(f"/api/matches/{mid}/chat", headers=bearer(t0)).json()["lines"]] == [
        f"line {i}" for i in range(5)]


def test_a_reported_line_is_kept_for_the_operator_and_a_ban_hides_its_author(client):
    from abstracta.server.chat import ChatLog

    mid, t0, _ = apart(client)
    troll, reader = guest(client), guest(client)
    name = troll.get("/api/me").json()["name"]
    line = say(troll, mid, "you all stink").json()
    assert reader.post(f"/api/matches/{mid}/chat/{line['id']}/report").status_code == 201
    assert reader.post(f"/api/matches/{mid}/chat/{line['id']}/report").json() == {"reported": False}
    assert client.raw.post(f"/api/matches/{mid}/chat/{line['id']}/report", headers=bearer(t0)).status_code == 201
    # nobody signed in, and a line one cannot read, are refused
    assert client.raw.post(f"/api/matches/{mid}/chat/{line['id']}/report").status_code == 401
    secret = say(client.raw, mid, "between us", t0).json()
    assert reader.post(f"/api/matches/{mid}/chat/{secret['id']}/report").status_code == 404

    log = ChatLog(client.raw.app.state.service.store)
    reports = log.reports()
    assert [(r["author"], r["text"], r["reports"]) for r in reports] == [(name, "you all stink", 2)] * 2
    assert {r["reporter"] for r in reports} == {reader.get("/api/me").json()["name"], "Player 1"}
    shown, hidden = log.ban(name.lower())  # any case
    assert (shown, hidden) == (name, 1)
    assert log.reports()[0]["author_banned"]
    assert [x["text"] for x in reader.get(f"/api/matches/{mid}/chat").json()["lines"]] == []
    banned = say(troll, mid, "let me in")
    assert banned.status_code == 403 and banned.json()["i18n"]["key"] == "chat.error.banned"
    log.unban(name)
    assert say(troll, mid, "sorry").status_code == 201


def test_a_seat_of_a_signed_in_person_chats_without_its_token(client):
    """The API contract's "session cookie": a guest claims the invitation signed in, and the
    seat is hers on that session; her lines carry her name, and the other seat reads them."""
    view = client.raw.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"], "take": [0]}).json()
    mid, t0 = view["id"], view["tokens"][0]["token"]
    anna = guest(client)
    me = anna.get("/api/me").json()["name"]
    assert anna.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).status_code == 200
    posted = say(anna, mid, "my cookie is my seat")  # no token: the session cookie only
    assert posted.status_code == 201, posted.text
    assert (posted.json()["room"], posted.json()["seat"], posted.json()["name"], posted.json()["person"]) == (
        "players", 1, me, True)
    read = client.raw.get(f"/api/matches/{mid}/chat?room=players", headers=bearer(t0)).json()
    assert [(x["name"], x["text"]) for x in read["lines"]] == [(me, "my cookie is my seat")]
    # the session reads the players' room too, and another guest's session does not
    assert anna.get(f"/api/matches/{mid}/chat?room=players").status_code == 200
    assert guest(client).get(f"/api/matches/{mid}/chat?room=players").status_code == 403


def test_the_chat_stays_with_the_game_and_goes_with_it(client):
    mid, t0, t1 = apart(client)
    raw = client.raw
    say(raw, mid, "gg", t0)
    say(guest(client), mid, "well played")
    assert raw.post(f"/api/matches/{mid}/resign", headers=bearer(t1)).status_code == 200
    # over: the players still read both rooms (the replay shows them), a spectator only its own
    assert [x["text"] for x in raw.get(f"/api/matches/{mid}/chat", headers=bearer(t1)).json()["lines"]] == ["gg", "well played"]
    assert [x["text"] for x in raw.get(f"/api/matches/{mid}/chat").json()["lines"]] == ["well played"]
    from abstracta.server.chat import ChatLog
    log = ChatLog(raw.app.state.service.store)
    # a game the friend is in is theirs too: not deleted, its chat stays
    assert raw.delete(f"/api/matches/{mid}", headers=bearer(t0)).status_code == 409
    assert [x.text for x in log.lines(mid, ["players", "spectators"])] == ["gg", "well played"]
    # one nobody else is in (an invitation not claimed yet) is deleted, and its chat with it
    alone = raw.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"], "take": [0]}).json()
    token = alone["tokens"][0]["token"]
    assert say(raw, alone["id"], "anyone?", token).status_code == 201
    assert say(guest(client), alone["id"], "not yet").status_code == 201
    assert len(log.lines(alone["id"], ["players", "spectators"])) == 2
    assert raw.delete(f"/api/matches/{alone['id']}", headers=bearer(token)).status_code == 204
    assert log.lines(alone["id"], ["players", "spectators"]) == []


def test_the_room_socket_brings_lines_and_the_number_watching(client):
    mid, t0, t1 = apart(client)
    raw = client.raw
    with raw.websocket_connect(f"/api/matches/{mid}/room") as room:
        room.send_json({"tokens": [t1]})
        first = room.receive_json()
        assert (first["type"], first["open"], first["rooms"], first["watchers"]) == ("room", True, ["players", "spectators"], 0)
        say(raw, mid, "<b>hi</b>", t0)
        assert room.receive_json() == {"type": "lines", "lines": [raw.get(f"/api/matches/{mid}/chat", headers=bearer(t0)).json()["lines"][0]]}
        with raw.websocket_connect(f"/api/matches/{mid}/ws") as spectator:
            spectator.send_json({"tokens": []})
            spectator.receive_json()  # its first view
            assert room.receive_json() == {"type": "watchers", "watchers": 1}
            assert raw.get(f"/api/matches/{mid}/watchers").json() == {"watchers": 1}
        assert room.receive_json() == {"type": "watchers", "watchers": 0}
    with raw.websocket_connect(f"/api/matches/{mid}/room") as room:
        room.send_json({"tokens": ["x" * 22]})
        assert "error" in room.receive_json()


def test_the_live_list_puts_the_most_watched_first(client):
    quiet, _, _ = apart(client)
    watched, _, _ = apart(client, clock={"per_turn": 86400})
    computer = client.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "level:1"]}).json()["id"]
    waiting = client.raw.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"], "take": [0]}).json()["id"]
    raw = client.raw
    with raw.websocket_connect(f"/api/matches/{watched}/ws") as one, raw.websocket_connect(f"/api/matches/{watched}/ws") as two:
        for ws in (one, two):
            ws.send_json({"tokens": []})
            ws.receive_json()
        raw.app.state.social.live._kept = None  # not the list of a moment ago
        rows = raw.get("/api/live").json()
    ids = [r["id"] for r in rows]
    assert ids[:2] == [watched, quiet]
    assert computer not in ids and waiting not in ids
    top = rows[0]
    assert top["watchers"] == 2 and top["game"] == "toy-nim" and top["struct"] and top["clock"]["control"] == {"per_turn": 86400}
    assert [n["name"] for n in top["names"]] == ["Player 1", "Player 2"]
    assert rows[1]["watchers"] == 0


@pytest.mark.parametrize("path", ["/api/matches/{mid}/chat", "/api/matches/{mid}/chat/1/report"])
def test_a_page_of_another_site_cannot_chat(client, path):
    mid, t0, _ = apart(client)
    answer = client.raw.post(path.format(mid=mid), json={"text": "hi"},
                             headers={**bearer(t0), "Origin": "http://evil.example"})
    assert answer.status_code == 403


def test_chat_lines_and_watchers_reach_every_worker(db_url):
    """A club's workers (issue 44) on one database and one Redis: a line written through one
    worker wakes the rooms of the other, and the number watching counts both workers'
    spectators (the fan-out's topics ``chat`` and ``watchers``)."""
    import time

    from apiutil import make_app
    from services import redis_server

    def until(check, seconds=10.0):
        deadline = time.time() + seconds
        while not check() and time.time() < deadline:
            time.sleep(0.05)
        return check()

    with redis_server() as redis_url:
        a, b = (make_app(db_url, redis_url=redis_url, rate_limits=False) for _ in range(2))
        with TestClient(a) as ca, TestClient(b) as cb:
            view = ca.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"], "take": [0]}).json()
            mid, t0 = view["id"], view["tokens"][0]["token"]
            t1 = cb.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()["tokens"][0]["token"]
            woken: list[str] = []
            heard = a.state.social.line_written
            a.state.social.line_written = lambda match_id: (woken.append(match_id), heard(match_id))
            assert say(cb, mid, "through the other worker", t1).status_code == 201
            assert until(lambda: woken == [mid]), woken
            # ... and worker a's room reads it from the database
            assert [x["text"] for x in ca.get(f"/api/matches/{mid}/chat", headers=bearer(t0)).json()["lines"]] == [
                "through the other worker"]
            with cb.websocket_connect(f"/api/matches/{mid}/ws") as spectator:
                spectator.send_json({"tokens": []})
                spectator.receive_json()
                assert until(lambda: ca.get(f"/api/matches/{mid}/watchers").json() == {"watchers": 1})
                with ca.websocket_connect(f"/api/matches/{mid}/ws") as another:
                    another.send_json({"tokens": []})
                    another.receive_json()
                    assert until(lambda: cb.get(f"/api/matches/{mid}/watchers").json() == {"watchers": 2})
                    assert ca.get(f"/api/matches/{mid}/watchers").json() == {"watchers": 2}
            assert until(lambda: ca.get(f"/api/matches/{mid}/watchers").json() == {"watchers": 0})
            assert until(lambda: cb.get(f"/api/matches/{mid}/watchers").json() == {"watchers": 0})


def test_a_worker_that_stops_announcing_stops_counting():
    from abstracta.server.push import Hub

    hub = Hub()
    hub.watchers_elsewhere("m1", "worker-b", 3, seconds=0.2)
    hub.watchers_elsewhere("m1", "worker-c", 2, seconds=60)
    assert hub.watchers("m1") == 5 and hub.watched() == {"m1": 5}
    import time
    time.sleep(0.3)
    assert hub.watchers("m1") == 2  # worker b said nothing more: gone
    hub.watchers_elsewhere("m1", "worker-c", 0, seconds=60)
    assert hub.watchers("m1") == 0 and hub.watched() == {}


def test_a_banned_or_blocked_person_gains_nothing_by_sending_the_seats_token_alone(client):
    """A seat that is a person's is that person's in the chat however it is held: the line a
    banned person writes with the seat's token and no cookie is refused, and one written so by
    a person the reader blocks is hidden from the reader, as their lines with the cookie are."""
    from abstracta.server.chat import ChatLog

    view = client.raw.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"], "take": [0]}).json()
    mid, t0 = view["id"], view["tokens"][0]["token"]
    troll = guest(client)
    name = troll.get("/api/me").json()["name"]
    claimed = troll.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()
    t1 = claimed["tokens"][0]["token"]  # the seat is the troll's person's, and this token holds it too
    tokenless = TestClient(client.raw.app)  # no cookie: the seat's token alone
    assert say(tokenless, mid, "before the ban", t1).status_code == 201
    ChatLog(client.raw.app.state.service.store).ban(name)
    refused = say(tokenless, mid, "the token gets me in", t1)
    assert refused.status_code == 403 and refused.json()["i18n"]["key"] == "chat.error.banned"
    assert [x["text"] for x in client.raw.get(f"/api/matches/{mid}/chat", headers=bearer(t0)).json()["lines"]] == []


def test_a_line_id_past_the_databases_integers_and_an_invisible_line_are_refused(client):
    """A line id the id column cannot hold (32 bits on PostgreSQL) is no line (404 to report, 422
    as 'after'), not a database overflow answered 500; a line of invisible characters alone has
    no text (422)."""
    mid, t0, _ = apart(client)
    raw = client.raw
    assert say(raw, mid, "hello", t0).status_code == 201
    for past in (2**31, 2**64):
        assert raw.post(f"/api/matches/{mid}/chat/{past}/report", headers=bearer(t0)).status_code == 404
        assert raw.get(f"/api/matches/{mid}/chat?after={past}", headers=bearer(t0)).status_code == 422
    assert raw.post(f"/api/matches/{mid}/chat/{2**31 - 1}/report", headers=bearer(t0)).status_code == 404
    assert raw.get(f"/api/matches/{mid}/chat?after={2**31 - 1}", headers=bearer(t0)).json()["lines"] == []
    for invisible in ("\u200b", "\ufeff \u2060", "\u200d\u200c"):
        answer = say(raw, mid, invisible, t0)
        assert answer.status_code == 422 and answer.json()["i18n"]["key"] == "chat.error.empty", invisible
    assert say(raw, mid, "zero\u200bwidth", t0).status_code == 201  # beside visible text it is kept
