"""The lobby's API contract (issue 42): seeks made with a session cookie, listed, taken by
another person (both seated, each seeing the match in GET /api/matches with their cookie), one's
own refused; a rematch offered by one seat and accepted by the other, seats swapped; abort;
challenges accepted and declined; blocks."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from apiutil import bearer, hand_clock, make_app

from abstracta.people.credentials import Passwords
from abstracta.server import i18n
from abstracta.server.api.bodies import SeekBody

PW = "correct horse"
LIVE = {"initial": 300, "increment": 3}


@pytest.fixture
def app(db_url):
    app = make_app(db_url, rate_limits=False)
    app.state.people.passwords = Passwords.light()
    return app


@pytest.fixture
def anna(app):
    with TestClient(app) as c:  # the first client runs the app's lifespan
        assert c.post("/api/accounts", json={"username": "anna", "password": PW}).status_code == 201
        yield c


def person(app, name: str | None = None) -> TestClient:
    """Another browser: an account named ``name``, or a guest."""
    c = TestClient(app)
    r = c.post("/api/accounts", json={"username": name, "password": PW}) if name else c.post("/api/guests")
    assert r.status_code == 201, r.text
    return c


def seek(c: TestClient, **body) -> str:
    r = c.post("/api/seeks", json={"game": "toy-nim", "options": {"stones": 9}, "clock": LIVE, "rated": False, **body})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_a_seek_is_listed_taken_by_another_and_both_are_seated(app, anna):
    ben = person(app, "ben")
    sid = seek(anna)
    listed = ben.get("/api/seeks").json()
    assert [(s["id"], s["player"], s["game"], s["clock"], s["acceptable"]) for s in listed] == \
        [(sid, "anna", "toy-nim", {"initial": 300.0, "increment": 3.0}, True)]
    assert anna.get("/api/seeks").json()[0]["refusal"] == "own"
    r = ben.post(f"/api/seeks/{sid}/accept")
    assert r.status_code == 201, r.text
    mid = r.json()["id"]
    assert ben.get("/api/seeks").json() == []  # taken: no longer listed
    mine = {}
    for who in (anna, ben):
        rows = who.get("/api/matches").json()
        assert [row["id"] for row in rows] == [mid]
        mine[who] = rows[0]["my_seats"]
    assert sorted(mine[anna] + mine[ben]) == [0, 1]
    view = anna.get(f"/api/matches/{mid}").json()
    assert view["waiting_for"] == [] and view["my_seats"] == mine[anna]
    assert view["clock"]["control"] == {"initial": 300.0, "increment": 3.0}
    assert app.state.lobby.game(mid) == {"source": "seek", "rated": False}
    # the seats are the people's (issue 41's way): named on the view, held by the session, no token
    assert [p and p["name"] for p in view["people"]] == ["anna" if i in mine[anna] else "ben" for i in range(2)]
    assert r.json()["my_seats"] == mine[ben] and "tokens" not in r.json()
    assert ben.get(f"/api/matches/{mid}").json()["my_seats"] == mine[ben]
    assert TestClient(app).get(f"/api/matches/{mid}").json()["my_seats"] == []  # nobody signed in: a spectator


def test_ones_own_seek_is_409_and_a_taken_one_410(app, anna):
    sid = seek(anna)
    r = anna.post(f"/api/seeks/{sid}/accept")
    assert r.status_code == 409 and r.json()["i18n"]["key"] == "lobby.error.own_seek"
    assert person(app, "ben").post(f"/api/seeks/{sid}/accept").status_code == 201
    assert person(app, "cara").post(f"/api/seeks/{sid}/accept").status_code == 410
    assert person(app).post("/api/seeks/nosuchseek/accept").status_code == 404


def test_seeks_need_a_person_and_a_clock_people_choose(app, anna):
    stranger = TestClient(app)
    assert stranger.post("/api/seeks", json={"game": "toy-nim"}).status_code == 401
    assert stranger.get("/api/seeks").status_code == 200  # reading needs nobody
    for clock, key in (({"initial": 10}, "lobby.error.clock_initial"), ({"initial": 60, "increment": 181},
                       "lobby.error.clock_increment"), ({"per_turn": 3600}, "lobby.error.clock_days"),
                       ({"per_turn": 15 * 86400}, "lobby.error.clock_days")):
        r = anna.post("/api/seeks", json={"game": "toy-nim", "clock": clock})
        assert r.status_code == 422 and r.json()["i18n"]["key"] == key, (clock, r.text)
    for clock in ({"initial": 15}, {"initial": 10800, "increment": 180}, {"per_turn": 86400},
                  {"per_turn": 14 * 86400}, None):
        assert anna.post("/api/seeks", json={"game": "toy-nim", "clock": clock}).status_code == 201, clock


@pytest.mark.parametrize("clock, normal", [
    (None, None), ({"initial": 15}, {"initial": 15.0, "increment": 0.0}),
    ({"initial": 10800, "increment": 180}, {"initial": 10800.0, "increment": 180.0}),
    ({"initial": 300.0, "increment": 3}, {"initial": 300.0, "increment": 3.0}),
    ({"per_turn": 86400}, {"per_turn": 86400.0}), ({"per_turn": 14 * 86400}, {"per_turn": 1209600.0}),
])
def test_the_clocks_people_choose_are_read_once_at_the_edge(clock, normal):
    body = SeekBody.model_validate({"game": "toy-nim", "clock": clock})
    assert (body.control.clock if body.control else None) == normal


@pytest.mark.parametrize("body, key, where", [
    ({"clock": {"initial": 14}}, "clock_initial", "clock.initial"), ({"clock": {"initial": 10801}}, "clock_initial",
                                                                     "clock.initial"),
    ({"clock": {"initial": 60, "increment": -1}}, "clock_increment", "clock.increment"),
    ({"clock": {"initial": 60, "increment": 181}}, "clock_increment", "clock.increment"),
    ({"clock": {"per_turn": 86399}}, "clock_days", "clock.per_turn"),
    ({"clock": {"per_turn": 1.5 * 86400}}, "clock_days", "clock.per_turn"),
    ({"clock": {"per_turn": 15 * 86400}}, "clock_days", "clock.per_turn"),
    ({"clock": {"minutes": 5}}, "clock_shape", "clock"), ({"clock": [300, 3]}, "clock_shape", "clock"),
    ({"clock": {"initial": 60, "per_turn": 86400}}, "clock_shape", "clock"),
    ({"clock": {"initial": "300"}}, "clock_number", "clock.initial"),
    ({"clock": {"initial": True}}, "clock_number", "clock.initial"),
    ({"clock": {"initial": None}}, "clock_number", "clock.initial"),
    ({"rating_range": [1700, 1600]}, "range", "rating_range"), ({"rating_range": [0, 5000]}, "range", "rating_range"),
    ({"rating_range": [1, 2, 3]}, "range", "rating_range"), ({"rating_range": "1500"}, "range", "rating_range"),
    ({"seat": 2}, "seat", "seat"), ({"seat": True}, "seat", "seat"), ({"seat": "0"}, "seat", "seat"),
    ({"options": {"stones": [9]}}, "options", "options.stones"), ({"options": {"stones": 9.5}}, "options",
                                                                  "options.stones"),
])
def test_a_seek_the_lobby_refuses_is_422_at_the_edge_naming_the_field_and_its_words(app, anna, body, key, where):
    r = anna.post("/api/seeks", json={"game": "toy-nim", **body})
    assert r.status_code == 422, r.text
    answer = r.json()
    assert answer["error"].startswith(f"{where}: "), answer
    assert answer["i18n"]["key"] == f"lobby.error.{key}"
    # the same refusal in Finnish, every parameter of the catalog's words given
    finnish = i18n.format_message(answer["i18n"], i18n.catalog("fi"), "fi")
    assert "{" not in finnish and finnish != i18n.format_message(answer["i18n"], i18n.catalog("en")), finnish
    assert anna.get("/api/seeks").json() == []  # nothing was made


def test_json_numbers_without_a_fraction_are_the_lobbys_integers(app, anna):
    sid = seek(anna, seat=1.0, rating_range=[1000.0, None], clock={"initial": 300.0, "increment": 3.0},
               options={"stones": 9.0})
    listed = anna.get("/api/seeks").json()[0]
    assert (listed["id"], listed["seat"], listed["rating_range"], listed["options"], listed["clock"]) == \
        (sid, 1, [1000, None], {"stones": "9"}, {"initial": 300.0, "increment": 3.0})


def test_a_guest_seeks_casual_games_only(app):
    guest = person(app)
    r = guest.post("/api/seeks", json={"game": "fanorona", "clock": LIVE, "rated": True})
    assert r.status_code == 403 and r.json()["i18n"]["key"] == "lobby.error.rated_guest"


def test_rated_seeks_challenges_and_waits_follow_the_seats_rated_game_rules(app, anna):
    person(app, "ben")
    rated = {"game": "fanorona", "options": {"vela": True}, "clock": LIVE, "rated": True}  # a variant's rules changed
    for path, body in (("/api/seeks", rated), ("/api/challenges", {**rated, "to": "ben"}), ("/api/quick", rated)):
        r = anna.post(path, json=body)
        assert r.status_code == 422 and r.json()["i18n"] == {"key": "error.rated_options",
                                                             "params": {"options": "vela"}}, (path, r.text)
    assert anna.get("/api/seeks").json() == [] and anna.get("/api/quick").json() is None  # nothing was made
    assert anna.post("/api/seeks", json={**rated, "options": {"vela": True}, "rated": False}).status_code == 201


def test_a_wait_whose_game_is_being_made_names_no_match_yet(app, anna, monkeypatch):
    # between the pairing's claim and its game's start the stored wait holds a marker, not a
    # match id: a client that opened it would find no such game
    ben = person(app, "ben")
    body = {"game": "toy-nim", "options": {"stones": 9}, "clock": LIVE, "rated": False}
    lobby, seen = app.state.lobby, []
    real = lobby.start

    def looked(*args):
        seen.append(anna.get("/api/quick").json())
        return real(*args)

    with anna.websocket_connect("/api/lobby/ws"), ben.websocket_connect("/api/lobby/ws"):  # present: not swept
        assert anna.post("/api/quick", json=body).json()["match"] is None
        monkeypatch.setattr(lobby, "start", looked)
        paired = ben.post("/api/quick", json=body).json()["match"]
    assert len(seen) == 1 and seen[0]["match"] is None and seen[0]["computer"] is None
    assert paired is not None and anna.get("/api/quick").json()["match"] == paired
    assert anna.get(f"/api/matches/{paired}").status_code == 200


def test_play_now_alone_offers_the_computer_after_30_s_and_seats_the_person(app, anna, monkeypatch):
    # anna keeps the lobby open (its socket): a wait whose person has no connection ends after
    # 10 s, and the lobby's own sweep, reading the clock moved on below, may run at any moment
    with anna.websocket_connect("/api/lobby/ws"):
        body = {"game": "toy-nim", "options": {"stones": 9}, "clock": LIVE, "rated": False}
        r = anna.post("/api/quick", json=body)
        assert r.status_code == 200 and r.json()["computer"] is None and r.json()["match"] is None
        assert anna.post("/api/quick/computer").status_code == 409  # not before 30 s alone
        db = app.state.people.db
        later = db.now() + timedelta(seconds=31)
        monkeypatch.setattr(db, "now", lambda: later)
        offer = anna.get("/api/quick").json()["computer"]
        assert 1 <= offer["level"] <= 6
        r = anna.post("/api/quick/computer")
        assert r.status_code == 201, r.text
        mid, (seat,) = r.json()["id"], r.json()["my_seats"]
        view = anna.get(f"/api/matches/{mid}").json()
        assert view["my_seats"] == [seat] and view["players"][1 - seat] == f"level:{offer['level']}"
        assert view["people"][seat]["name"] == "anna" and view["people"][1 - seat] is None  # the computer: no person
        assert view["rated"] is False and view["waiting_for"] == [] and view["start_deadline"] is None
        assert anna.get("/api/quick").json() is None  # the wait is over


def test_a_rating_range_keeps_others_out(app, anna):
    sid = seek(anna, rating_range=[1600, 2000])
    ben = person(app, "ben")
    assert ben.get("/api/seeks").json()[0]["refusal"] == "range"  # a new player is 1500
    assert ben.post(f"/api/seeks/{sid}/accept").status_code == 409


def test_integer_fields_read_13_0_as_13_and_refuse_what_is_no_integer(app, anna):
    sid = seek(anna, seat=1.0, rating_range=[1400.0, None])
    listed = anna.get("/api/seeks").json()[0]
    assert (listed["id"], listed["seat"], listed["rating_range"]) == (sid, 1, [1400, None])
    for bad in ({"seat": "1"}, {"seat": True}, {"seat": 0.5}, {"rating_range": ["1400", None]}):
        r = anna.post("/api/seeks", json={"game": "toy-nim", "clock": LIVE, **bad})
        assert r.status_code == 422, (bad, r.text)


def test_a_rematch_swaps_the_seats(app, anna):
    ben = person(app, "ben")
    sid = seek(anna, seat=0)
    mid = ben.post(f"/api/seeks/{sid}/accept").json()["id"]
    assert anna.post(f"/api/matches/{mid}/rematch").status_code == 409  # the game runs
    # anna (seat 0) resigns: her session holds her seat
    assert anna.post(f"/api/matches/{mid}/resign").status_code == 200
    offered = anna.post(f"/api/matches/{mid}/rematch")
    assert offered.status_code == 202 and offered.json()["rematch"]["by"] == 0
    agreed = ben.post(f"/api/matches/{mid}/rematch")
    assert agreed.status_code == 201, agreed.text
    new = agreed.json()["id"]
    assert new != mid and agreed.json()["my_seats"] == [0]  # ben was seat 1
    again = anna.post(f"/api/matches/{mid}/rematch")  # anna follows it: the same game, her seat
    assert again.status_code == 200 and again.json()["id"] == new and again.json()["my_seats"] == [1]
    seats = {who: next(r["my_seats"] for r in who.get("/api/matches").json() if r["id"] == new) for who in (anna, ben)}
    assert seats == {anna: [1], ben: [0]}
    old, fresh = anna.get(f"/api/matches/{mid}").json(), anna.get(f"/api/matches/{new}").json()
    assert old["rematch"]["next"] == new  # spectators follow it from the old game
    assert fresh["clock"]["control"] == old["clock"]["control"] and fresh["options"] == old["options"]
    assert TestClient(app).get(f"/api/matches/{mid}").json()["rematch"]["next"] == new


def test_a_rematch_of_players_without_a_session_gives_each_a_token_of_the_new_seat(app, anna):
    first, second = TestClient(app), TestClient(app)  # nobody signed in: seats held by tokens alone
    made = first.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9},
                                            "seats": ["human", "human"], "take": [0]}).json()
    mid, t0 = made["id"], made["tokens"][0]["token"]
    t1 = second.post("/api/invites/claim", json={"code": made["invites"][0]["code"]}).json()["tokens"][0]["token"]
    assert first.post(f"/api/matches/{mid}/resign", headers=bearer(t0)).status_code == 200
    assert first.post(f"/api/matches/{mid}/rematch").status_code == 401  # no token, nobody signed in
    assert first.post(f"/api/matches/{mid}/rematch", headers=bearer(t0)).status_code == 202
    agreed = second.post(f"/api/matches/{mid}/rematch", headers=bearer(t1))
    assert agreed.status_code == 201, agreed.text
    new, (token,) = agreed.json()["id"], agreed.json()["tokens"]
    assert token["seat"] == 0 and agreed.json()["my_seats"] == [0]  # seat 1 went round to seat 0
    again = first.post(f"/api/matches/{mid}/rematch", headers=bearer(t0)).json()
    assert (again["id"], again["my_seats"], [t["seat"] for t in again["tokens"]]) == (new, [1], [1])
    view = second.get(f"/api/matches/{new}", headers=bearer(token["token"])).json()
    assert view["my_seats"] == [0] and view["waiting_for"] == [] and view["people"] == [None, None]
    assert first.get(f"/api/matches/{new}", headers=bearer(again["tokens"][0]["token"])).json()["my_seats"] == [1]


def test_either_side_aborts_before_its_first_move_and_nothing_is_rated(app, anna):
    ben = person(app, "ben")
    sid = seek(anna, seat=0, rated=False)
    mid = ben.post(f"/api/seeks/{sid}/accept").json()["id"]
    view = ben.get(f"/api/matches/{mid}").json()
    assert view["abortable"] and view["start_deadline"]["seat"] == 0
    r = ben.post(f"/api/matches/{mid}/abort")
    assert r.status_code == 200, r.text
    done = r.json()
    assert (done["status"], done["termination"], done["result"], done["aborted"]) == \
        ("over", "aborted", None, {"seat": 1, "why": "abort"})
    assert anna.post(f"/api/matches/{mid}/abort").status_code == 409


def test_a_first_move_not_made_in_time_aborts_the_game(app, anna, monkeypatch):
    clock = hand_clock(monkeypatch)
    ben = person(app, "ben")
    mid = ben.post(f"/api/seeks/{seek(anna, seat=0)}/accept").json()["id"]
    assert anna.get(f"/api/matches/{mid}").json()["start_deadline"] == {"seat": 0, "at": clock.now + 30}
    clock.now += 31
    view = anna.get(f"/api/matches/{mid}").json()
    assert view["termination"] == "aborted" and view["aborted"] == {"seat": 0, "why": "no_start"}


def test_a_challenge_accepted_and_one_declined(app, anna):
    ben = person(app, "ben")
    body = {"to": "Ben", "game": "toy-nim", "options": {"stones": 9}, "clock": LIVE, "rated": False, "seat": 1}
    r = anna.post("/api/challenges", json=body)
    assert r.status_code == 201, r.text
    cid = r.json()["id"]
    assert anna.post("/api/challenges", json=body).status_code == 409  # one open to him already
    incoming = ben.get("/api/challenges").json()["in"]
    assert [(c["id"], c["from"], c["clock"], c["seat"]) for c in incoming] == \
        [(cid, "anna", {"initial": 300.0, "increment": 3.0}, 1)]
    accepted = ben.post(f"/api/challenges/{cid}/accept")
    assert accepted.status_code == 201 and accepted.json()["my_seats"] == [0]
    mid = accepted.json()["id"]
    assert [r["my_seats"] for r in anna.get("/api/matches").json() if r["id"] == mid] == [[1]]
    cid2 = anna.post("/api/challenges", json=body).json()["id"]
    assert ben.post(f"/api/challenges/{cid2}/decline").json() == {"status": "declined", "match": None}
    out = {c["id"]: c["status"] for c in anna.get("/api/challenges").json()["out"]}
    assert out[cid2] == "declined"
    assert ben.post(f"/api/challenges/{cid2}/accept").status_code == 410
    assert anna.post("/api/challenges", json={**body, "to": "nobody"}).status_code == 404


def test_a_block_stops_challenges_and_seeks_between_them(app, anna):
    ben = person(app, "ben")
    assert ben.post("/api/blocks", json={"name": "anna"}).status_code == 201
    assert [b["name"] for b in ben.get("/api/blocks").json()] == ["anna"]
    r = anna.post("/api/challenges", json={"to": "ben", "game": "toy-nim"})
    assert r.status_code == 403 and r.json()["i18n"]["key"] == "lobby.error.challenge_blocked"
    sid = seek(anna)
    assert ben.get("/api/seeks").json() == []  # not shown to him
    assert ben.post(f"/api/seeks/{sid}/accept").status_code == 403
    assert app.state.lobby.blocks.blocks(ben_id(app), anna_id(app))
    assert app.state.lobby.blocks.blocked_by(ben_id(app)) == {anna_id(app)}  # what the chat reads
    assert ben.delete("/api/blocks/anna").status_code == 204
    assert anna.post("/api/challenges", json={"to": "ben", "game": "toy-nim"}).status_code == 201


def test_a_block_hides_the_blocked_persons_chat_lines_from_the_blocker(app, anna):
    ben = person(app, "ben")
    mid = ben.post(f"/api/seeks/{seek(anna)}/accept").json()["id"]  # people apart: the game has a chat

    def texts(c):
        return [line["text"] for line in c.get(f"/api/matches/{mid}/chat").json()["lines"]]

    assert anna.post(f"/api/matches/{mid}/chat", json={"text": "good luck"}).status_code == 201
    assert ben.post(f"/api/matches/{mid}/chat", json={"text": "thanks"}).status_code == 201
    assert texts(ben) == ["good luck", "thanks"]
    assert ben.post("/api/blocks", json={"name": "anna"}).status_code == 201
    assert anna.post(f"/api/matches/{mid}/chat", json={"text": "are you there?"}).status_code == 201
    assert texts(ben) == ["thanks"]  # no chat from the person he blocks, before the block or since
    assert texts(anna) == ["good luck", "thanks", "are you there?"]  # hers are hidden from him only
    assert ben.delete("/api/blocks/anna").status_code == 204
    assert texts(ben) == ["good luck", "thanks", "are you there?"]


def ben_id(app) -> int:
    return app.state.people.accounts._account("ben").id


def anna_id(app) -> int:
    return app.state.people.accounts._account("anna").id


def rated_game(app, first, second, clock):
    """A rated Fanorona Telo game from a seek of ``first`` (seat 0) taken by ``second``: its
    match id (each holds their seat by their session)."""
    sid = seek(first, game="fanorona", options={"size": "telo"}, rated=True, seat=0)
    mid = second.post(f"/api/seeks/{sid}/accept").json()["id"]
    assert first.get(f"/api/matches/{mid}").json()["rated"] is True
    return mid


def move(c, mid):
    view = c.get(f"/api/matches/{mid}").json()
    r = c.post(f"/api/matches/{mid}/actions", json={"action": view["legal"][0], "ply": view["ply"]})
    assert r.status_code == 200, r.text


def ratings(c, name):
    return c.get(f"/api/players/{name}").json()["ratings"]


def test_aborts_leave_ratings_unchanged_and_a_claimed_game_changes_them(app, anna, monkeypatch):
    clock = hand_clock(monkeypatch)
    ben = person(app, "ben")
    # a rated game aborted: nobody's rating moves, no result is recorded
    mid = rated_game(app, anna, ben, clock)
    move(anna, mid)
    assert ben.post(f"/api/matches/{mid}/abort").json()["termination"] == "aborted"
    assert ratings(anna, "anna") == {} and ratings(anna, "ben") == {}
    assert anna.get("/api/players/anna").json()["recent_games"] == []
    # the same two finish a rated game: ben is gone 60 s on his turn and anna claims it
    mid = rated_game(app, anna, ben, clock)
    move(anna, mid)
    move(ben, mid)
    move(anna, mid)
    clock.now += 59
    early = anna.post(f"/api/matches/{mid}/claim")
    assert early.status_code == 409 and early.json()["at"] == pytest.approx(clock.now + 1)
    clock.now += 1
    won = anna.post(f"/api/matches/{mid}/claim", json={"draw": False}).json()
    assert (won["termination"], won["result"], won["left"]) == ("left", [1.0, -1.0], 1)
    pool = "fanorona.telo.blitz"
    assert ratings(anna, "anna")[pool]["rating"] > 1500 > ratings(anna, "ben")[pool]["rating"]
    assert ratings(anna, "anna")[pool]["games"] == 1
    assert [c["change"] > 0 for c in won["rating_changes"]] == [True, False]  # the seats' rated-game end
    # their rematch is rated too, its seats the same two accounts' (swapped)
    assert anna.post(f"/api/matches/{mid}/rematch").status_code == 202
    new = ben.post(f"/api/matches/{mid}/rematch").json()["id"]
    fresh = anna.get(f"/api/matches/{new}").json()
    assert fresh["rated"] is True and [p["name"] for p in fresh["people"]] == ["ben", "anna"]
    assert fresh["my_seats"] == [1]


def test_presence_says_who_is_connected_and_when_a_claim_opens(app, anna, monkeypatch):
    clock = hand_clock(monkeypatch)
    ben = person(app, "ben")
    mid = rated_game(app, anna, ben, clock)
    with anna.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.send_json({"tokens": [], "presence": True})  # the cookie says who it is
        assert "revision" in ws.receive_json()  # the view first
        said = ws.receive_json()["presence"]
        assert said["online"] == [True, False] and said["gone_since"][0] is None
        seen = ben.get(f"/api/matches/{mid}/presence").json()["presence"]
        assert seen["online"] == [True, False] and seen["claim_at"] is None  # before the first moves
    move(anna, mid)
    move(ben, mid)
    at = clock.now
    later = anna.get(f"/api/matches/{mid}/presence").json()["presence"]
    assert later["online"] == [False, False]
    # anna is to move: ben may claim 60 s after she was last seen (her move)
    assert ben.get(f"/api/matches/{mid}/presence").json()["presence"]["claim_at"] == pytest.approx(at + 60)
    assert later["claim_at"] is None  # not against herself


def test_a_block_hides_the_lines_the_blocked_person_writes_with_a_seat_token_alone(app, anna):
    """A seat of anna's is hers in the chat however she holds it: what she writes with its
    token and no cookie is hidden from ben, who blocks her, as what she writes signed in."""
    made = anna.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"], "take": [0]}).json()
    mid, t0 = made["id"], made["tokens"][0]["token"]
    ben = person(app, "ben")
    assert ben.post("/api/invites/claim", json={"code": made["invites"][0]["code"]}).status_code == 200
    assert ben.post("/api/blocks", json={"name": "anna"}).status_code == 201
    tokenless = TestClient(app)  # anna's script: her seat's token, no cookie
    assert tokenless.post(f"/api/matches/{mid}/chat", json={"text": "you cannot hide"}, headers=bearer(t0)).status_code == 201
    assert [line["text"] for line in ben.get(f"/api/matches/{mid}/chat").json()["lines"]] == []
    assert [line["text"] for line in anna.get(f"/api/matches/{mid}/chat").json()["lines"]] == ["you cannot hide"]


def test_a_deleted_account_leaves_the_lobby_with_nothing_of_it_open(app, anna):
    """Anna's seek, quick pairing wait, challenge and block end with her account: the lobby is
    read by everyone as before (no row without a name), and nobody is seated against a
    deleted player by taking her seek or waiting for the same game."""
    ben, cleo = person(app, "ben"), person(app, "cleo")
    sid = seek(anna)
    game = {"game": "toy-nim", "options": {"stones": 9}, "clock": LIVE, "rated": False}
    assert anna.post("/api/quick", json=game).status_code == 200
    assert anna.post("/api/challenges", json={"to": "ben", **game}).status_code == 201
    assert cleo.post("/api/blocks", json={"name": "anna"}).status_code == 201
    assert anna.request("DELETE", "/api/me", json={"password": PW}).status_code == 204
    for c in (ben, cleo, TestClient(app)):
        assert c.get("/api/lobby").status_code == 200
        assert c.get("/api/seeks").json() == []
    assert ben.get("/api/challenges").json() == {"in": [], "out": []}
    assert cleo.get("/api/blocks").json() == []
    assert ben.post(f"/api/seeks/{sid}/accept").status_code == 410
    assert ben.post("/api/quick", json=game).json()["match"] is None
    app.state.lobby.quick.pair()
    assert ben.get("/api/quick").json()["match"] is None


def test_no_rematch_is_offered_or_accepted_between_a_blocker_and_the_blocked(app, anna):
    """A rematch is a challenge: after ben blocks anna she cannot offer him one (nor with her
    seat's token alone), and he cannot accept one she offered before; both may still decline."""
    ben = person(app, "ben")
    mid = ben.post(f"/api/seeks/{seek(anna, seat=0)}/accept").json()["id"]
    assert anna.post(f"/api/matches/{mid}/resign").status_code == 200
    assert ben.post("/api/blocks", json={"name": "anna"}).status_code == 201
    refused = anna.post(f"/api/matches/{mid}/rematch")
    assert refused.status_code == 403 and refused.json()["i18n"]["key"] == "lobby.error.blocked"
    assert ben.post(f"/api/matches/{mid}/rematch").status_code == 403
    assert ben.delete("/api/blocks/anna").status_code == 204
    assert anna.post(f"/api/matches/{mid}/rematch").status_code == 202  # offered before the block
    assert ben.post("/api/blocks", json={"name": "anna"}).status_code == 201
    assert ben.post(f"/api/matches/{mid}/rematch").status_code == 403
    assert anna.get(f"/api/matches/{mid}").json()["rematch"]["next"] is None
    assert ben.post(f"/api/matches/{mid}/rematch", json={"accept": False}).status_code == 200


def test_a_rated_game_is_never_deleted_in_play_or_over(app, anna):
    """Deleting a game leaves no result: a rated game in play is refused (409), so a player
    about to lose cannot make the game and the rating change vanish for both; one over is
    refused too (its rating changes, on both profiles, link to it)."""
    ben = person(app, "ben")
    mid = rated_game(app, anna, ben, LIVE)
    move(anna, mid)
    move(ben, mid)
    refused = anna.delete(f"/api/matches/{mid}")
    assert refused.status_code == 409 and refused.json()["i18n"]["key"] == "error.rated_delete"
    assert ben.get(f"/api/matches/{mid}").json()["status"] == "playing"
    assert anna.post(f"/api/matches/{mid}/resign").status_code == 200
    before = ratings(ben, "ben")
    refused = anna.delete(f"/api/matches/{mid}")
    assert refused.status_code == 409 and refused.json()["i18n"]["key"] == "error.rated_delete"
    assert ben.delete(f"/api/matches/{mid}").status_code == 409
    assert ratings(ben, "ben") == before and ben.get(f"/api/matches/{mid}").json()["status"] == "over"
    won = ben.get("/api/players/ben").json()["recent_games"]
    assert [(g["id"], g["outcome"], g["deleted"]) for g in won] == [(mid, "win", False)]
    assert [(m["id"], m["deletable"]) for m in anna.get("/api/matches").json()] == [(mid, False)]


def test_a_casual_game_between_two_is_deleted_by_neither(app, anna):
    """A casual game another person is in is theirs too: neither deletes it for both (409), in
    play or over, and neither's list offers it; the one nobody else is in goes as before."""
    ben = person(app, "ben")
    casual = ben.post(f"/api/seeks/{seek(anna, seat=0)}/accept").json()["id"]
    move(anna, casual)
    for c in (anna, ben):
        refused = c.delete(f"/api/matches/{casual}")
        assert refused.status_code == 409 and refused.json()["i18n"]["key"] == "error.delete_shared"
        assert [(m["id"], m["deletable"]) for m in c.get("/api/matches").json()] == [(casual, False)]
    assert ben.get(f"/api/matches/{casual}").json()["status"] == "playing"
    assert ben.post(f"/api/matches/{casual}/resign").status_code == 200
    assert anna.delete(f"/api/matches/{casual}").status_code == 409
    assert ben.get(f"/api/matches/{casual}").json()["status"] == "over"
    # against the computer: anna's alone
    alone = anna.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9},
                                            "seats": ["human", "level:1"]}).json()["id"]
    assert {m["id"]: m["deletable"] for m in anna.get("/api/matches").json()} == {casual: False, alone: True}
    assert anna.delete(f"/api/matches/{alone}").status_code == 204


def test_a_rated_invitation_nobody_claimed_is_withdrawn_by_deleting_it(app, anna):
    """Nobody else is in it and no result can come of it yet: deleting it is how its creator
    withdraws it (a challenge cancelled); once claimed it is a rated game between two."""
    def invite():
        r = anna.post("/api/matches", json={"game": "fanorona", "options": {"size": "telo"}, "clock": LIVE,
                                            "seats": ["human", "human"], "rated": True})
        assert r.status_code == 201, r.text
        return r.json()

    open_one = invite()
    assert [(m["id"], m["deletable"]) for m in anna.get("/api/matches").json()] == [(open_one["id"], True)]
    assert anna.delete(f"/api/matches/{open_one['id']}").status_code == 204
    claimed = invite()
    ben = person(app, "ben")
    assert ben.post("/api/invites/claim", json={"code": claimed["invites"][0]["code"]}).status_code == 200
    refused = anna.delete(f"/api/matches/{claimed['id']}")
    assert refused.status_code == 409 and refused.json()["i18n"]["key"] == "error.rated_delete"


def test_the_notices_socket_tells_a_person_of_challenges_and_of_their_games_moves(app, anna):
    # the header of every page (issue: "your move" off the game page): woken by the person's own
    # news only — a challenge to them, a game started, a move in one of their games
    ben = person(app, "ben")
    with ben.websocket_connect("/api/notices/ws") as ws:
        assert ws.receive_json() == {"notices": {"challenges": [], "started": [], "turns": 0}}
        body = {"to": "ben", "game": "toy-nim", "options": {"stones": 9}, "clock": LIVE, "rated": False, "seat": 1}
        cid = anna.post("/api/challenges", json=body).json()["id"]
        got = ws.receive_json()["notices"]
        assert [(c["id"], c["from"], c["status"]) for c in got["challenges"]] == [(cid, "anna", "open")]
        assert got["turns"] == 0
        mid = ben.post(f"/api/challenges/{cid}/accept").json()["id"]
        got = ws.receive_json()["notices"]
        while got["challenges"] or mid not in got["started"]:  # the answer, then the seating
            got = ws.receive_json()["notices"]
        assert got["challenges"] == [] and got["started"] == [mid]
        turns = got["turns"]
        view = ben.get(f"/api/matches/{mid}").json()
        assert view["to_move"] == 0 and view["my_seats"] == [0]
        assert ben.post(f"/api/matches/{mid}/actions", json={"action": view["legal"][0], "ply": view["ply"]}).status_code == 200
        after_ben = ws.receive_json()["notices"]["turns"]
        assert after_ben > turns  # ben's own move: anna is to move now (his other tabs say so)
        view = anna.get(f"/api/matches/{mid}").json()
        assert anna.post(f"/api/matches/{mid}/actions", json={"action": view["legal"][0], "ply": view["ply"]}).status_code == 200
        assert ws.receive_json()["notices"]["turns"] > after_ben  # anna moved: ben's move


def test_the_notices_socket_tells_of_a_rematch_agreed_while_its_offerer_is_elsewhere(app, anna):
    # ben offers a rematch and goes to the lobby; anna accepts: the new game's first move is due
    # soon, so ben's header must learn of it (no seek of the lobby started it: not "started")
    ben = person(app, "ben")
    sid = seek(anna, seat=0)
    mid = ben.post(f"/api/seeks/{sid}/accept").json()["id"]
    assert anna.post(f"/api/matches/{mid}/resign").status_code == 200
    assert ben.post(f"/api/matches/{mid}/rematch").status_code == 202
    with ben.websocket_connect("/api/notices/ws") as ws:
        first = ws.receive_json()["notices"]
        agreed = anna.post(f"/api/matches/{mid}/rematch")
        assert agreed.status_code == 201, agreed.text
        new = agreed.json()["id"]
        assert ben.get(f"/api/matches/{new}").json()["my_seats"] == [0]  # the seats swapped: his first move
        # something surely addressed to ben after it, so that the test ends without the fix too
        anna.post("/api/challenges", json={"to": "ben", "game": "toy-nim", "options": {"stones": 9}, "clock": LIVE})
        got = ws.receive_json()["notices"]
        assert got["turns"] > first["turns"]
        assert new not in got["started"]


def test_a_move_wakes_the_notices_socket_without_reading_the_lobby(app, anna):
    # a move costs each of its people's sockets a message, not the lobby's reads (challenges,
    # games started): only the count changed
    ben = person(app, "ben")
    mid = ben.post(f"/api/seeks/{seek(anna, seat=0)}/accept").json()["id"]
    lobby = app.state.lobby
    reads = []
    listed = lobby.challenges.listed
    lobby.challenges.listed = lambda *a, **k: reads.append(1) or listed(*a, **k)
    with ben.websocket_connect("/api/notices/ws") as ws:
        first = ws.receive_json()["notices"]
        assert first["started"] == [mid] and len(reads) == 1
        view = anna.get(f"/api/matches/{mid}").json()
        assert anna.post(f"/api/matches/{mid}/actions", json={"action": view["legal"][0], "ply": view["ply"]}).status_code == 200
        got = ws.receive_json()["notices"]
        assert got == {**first, "turns": first["turns"] + 1}
        assert len(reads) == 1


def test_the_notices_socket_closes_at_once_for_nobody_signed_in(app, anna):
    with TestClient(app).websocket_connect("/api/notices/ws") as ws:
        with pytest.raises(Exception):
            ws.receive_json()


def test_the_lobby_and_the_notices_need_an_api_tokens_lobby_scope(app, anna):
    # what they show is the lobby routes' (challenges to the person, their quick pairing, the games
    # started for them): a token without the lobby scope reads none of it, at the socket's start
    from starlette.websockets import WebSocketDisconnect

    ben = person(app, "ben")
    cid = ben.post("/api/challenges", json={"to": "anna", "game": "toy-nim", "options": {"stones": 9},
                                            "clock": LIVE}).json()["id"]
    tokens = {scopes: anna.post("/api/me/tokens", json={"description": "bot", "scopes": list(scopes)}).json()["token"]
              for scopes in (("read", "play"), ("lobby",))}
    script = TestClient(app)
    refused = script.get("/api/lobby", headers=bearer(tokens["read", "play"]))
    assert refused.status_code == 403 and refused.json()["i18n"] == {"key": "people.error.scope",
                                                                     "params": {"scope": "lobby"}}
    assert script.get("/api/challenges", headers=bearer(tokens["read", "play"])).status_code == 403  # as before
    for path in ("/api/lobby/ws", "/api/notices/ws"):
        with script.websocket_connect(path, headers=bearer(tokens["read", "play"])) as ws:
            assert ws.receive_json() == {"error": "this API token lacks the scope 'lobby'"}
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4403
    # with the scope, each serves the person as a browser session does
    allowed = bearer(tokens["lobby",])
    assert [c["id"] for c in script.get("/api/lobby", headers=allowed).json()["challenges"]["in"]] == [cid]
    with script.websocket_connect("/api/lobby/ws", headers=allowed) as ws:
        assert [c["id"] for c in ws.receive_json()["lobby"]["challenges"]["in"]] == [cid]
    with script.websocket_connect("/api/notices/ws", headers=allowed) as ws:
        assert [c["id"] for c in ws.receive_json()["notices"]["challenges"]] == [cid]
    # nobody signed in reads the open seeks as ever
    nobody = TestClient(app).get("/api/lobby")
    assert nobody.status_code == 200 and nobody.json()["me"]["name"] is None and nobody.json()["challenges"]["in"] == []


# --- one's seeks: never twice, withdrawn when one starts a live game, the seeker's rating now ------
DAILY = {"per_turn": 86400}


def test_the_same_seek_posted_twice_is_refused_and_listed_once(app, anna):
    sid = seek(anna)
    r = anna.post("/api/seeks", json={"game": "toy-nim", "options": {"stones": 9}, "clock": LIVE, "rated": False})
    assert r.status_code == 409 and r.json()["i18n"]["key"] == "lobby.error.seek_twice"
    assert [s["id"] for s in anna.get("/api/seeks").json()] == [sid]
    # a seek that differs in anything (its clock, seat or range) is another seek
    other = seek(anna, clock=DAILY)
    third = seek(anna, seat=0)
    assert [s["id"] for s in anna.get("/api/seeks").json()] == [sid, other, third]
    # once withdrawn, the same one may be posted again
    assert anna.delete(f"/api/seeks/{sid}").status_code == 204
    again = seek(anna)
    assert [s["id"] for s in anna.get("/api/seeks").json()] == [other, third, again]


def listed(c) -> list[tuple[str, str]]:
    return [(s["player"], s["id"]) for s in c.get("/api/seeks").json()]


def test_a_live_game_started_withdraws_the_players_other_live_seeks_and_keeps_correspondence(app, anna):
    ben, cara = person(app, "ben"), person(app, "cara")
    taken, spare, daily = seek(anna), seek(anna, options={"stones": 7}), seek(anna, clock=DAILY)
    bens = seek(ben, options={"stones": 11})
    with cara.websocket_connect("/api/lobby/ws") as ws:
        before = ws.receive_json()["lobby"]["seeks"]
        assert [s["id"] for s in before] == [taken, spare, daily, bens]
        assert ben.post(f"/api/seeks/{taken}/accept").status_code == 201
        # the lobby of anyone else drops them at once: the next push lists the daily seek alone
        assert [s["id"] for s in ws.receive_json()["lobby"]["seeks"]] == [daily]
    assert listed(cara) == [("anna", daily)]
    # the leftover seek can no longer start a game its seeker is not waiting for
    assert cara.post(f"/api/seeks/{spare}/accept").status_code == 410
    assert cara.post(f"/api/seeks/{bens}/accept").status_code == 410
    # a correspondence game started withdraws nothing: a move a day leaves room for other games
    live = seek(ben, options={"stones": 5})
    assert cara.post(f"/api/seeks/{daily}/accept").status_code == 201
    assert listed(cara) == [("ben", live)]


def test_quick_pairing_and_an_accepted_challenge_withdraw_live_seeks_too(app, anna):
    ben, cara, dan = person(app, "ben"), person(app, "cara"), person(app, "dan")
    annas, bens = seek(anna), seek(ben)
    with anna.websocket_connect("/api/lobby/ws"), ben.websocket_connect("/api/lobby/ws"):
        body = {"game": "toy-nim", "options": {"stones": 5}, "clock": LIVE, "rated": False}
        assert anna.post("/api/quick", json=body).status_code == 200
        assert ben.post("/api/quick", json=body).json()["match"]  # paired at once
    assert listed(dan) == []
    carass = seek(cara)
    dans = seek(dan, clock=DAILY)
    cid = cara.post("/api/challenges", json={"to": "dan", "game": "toy-nim", "clock": LIVE}).json()["id"]
    assert dan.post(f"/api/challenges/{cid}/accept").status_code == 201
    assert listed(anna) == [("dan", dans)]  # cara's live seek went, dan's correspondence one stays
    assert annas and bens and carass


def test_a_seek_shows_its_seekers_rating_as_it_is_now(app, anna):
    from abstracta.people.tables import RatingRow

    sid = seek(anna, game="fanorona", options={"size": "telo"}, rated=True)
    ben = person(app, "ben")
    assert [(s["rating"], s["provisional"]) for s in ben.get("/api/seeks").json()] == [(1500, True)]
    with app.state.people.db.writing() as s:  # her games since moved it: 1741, still provisional
        s.add(RatingRow(person_id=anna_id(app), pool="fanorona.telo.blitz", rating=1741.0, deviation=200.0,
                        volatility=0.06, games=3, rated_at=app.state.people.db.now()))
    seen = ben.get("/api/seeks").json()
    assert [(s["id"], s["rating"], s["provisional"]) for s in seen] == [(sid, 1741, True)]
    with app.state.people.db.writing() as s:
        s.get(RatingRow, (anna_id(app), "fanorona.telo.blitz")).deviation = 40.0
    assert [(s["rating"], s["provisional"]) for s in ben.get("/api/seeks").json()] == [(1741, False)]


# --- a first move not made in time: aborted in the stored state and the lists, unopened -----------
def stored(app, mid):
    """The match's stored row as the lists read it (not the game's page, which applies time)."""
    (row,) = app.state.service.store.rows([mid], 1)
    return row.status, row.to_move


def quick_pair(app, first, second) -> str:
    body = {"game": "toy-nim", "options": {"stones": 9}, "clock": LIVE, "rated": False}
    with first.websocket_connect("/api/lobby/ws"), second.websocket_connect("/api/lobby/ws"):
        assert first.post("/api/quick", json=body).status_code == 200
        mid = second.post("/api/quick", json=body).json()["match"]
    assert mid
    return mid


def test_a_quick_paired_game_whose_first_move_is_missing_is_aborted_in_the_lists_unopened(app, anna, monkeypatch):
    clock = hand_clock(monkeypatch)
    guest = person(app)
    mid = quick_pair(app, anna, guest)
    (row,) = guest.get("/api/matches").json()
    if row["to_move"] in row["my_seats"]:  # the guest moves when theirs is the first move: anna does not
        move(guest, mid)
    (row,) = anna.get("/api/matches").json()
    mine = row["my_seats"]
    assert (row["status"], row["to_move"] in mine, row["due_in"]) == ("playing", True, pytest.approx(30.0, abs=0.01))
    # time passes and the clock's timer never fires here (a process that armed it stopped): nobody
    # opens the game, yet the lists say it is over, and so does the stored state they read
    clock.now += 31
    (row,) = anna.get("/api/matches").json()
    assert (row["status"], row["termination"], row["to_move"], row["due_in"]) == ("over", "aborted", None, None)
    assert stored(app, mid) == ("over", None)
    assert [(r["status"], r["termination"]) for r in guest.get("/api/matches").json()] == [("over", "aborted")]
    view = anna.get(f"/api/matches/{mid}").json()
    assert view["aborted"] == {"seat": mine[0], "why": "no_start"}


def test_the_clocks_timer_aborts_a_seek_game_whose_first_move_is_missing_with_nobody_reading(app, anna, monkeypatch):
    import time

    from abstracta.play import opening

    # the match service's time stands still while the game is made and ben moves (however slow
    # a loaded machine is, ben's first move is in time); the timer armed at his move waits its
    # deadline in real seconds, long enough for the test to move the time past it meanwhile
    clock = hand_clock(monkeypatch)
    monkeypatch.setattr(opening, "FIRST_MOVE_SECONDS", 2.0)  # the deadline of every live game made now
    ben = person(app, "ben")
    mid = ben.post(f"/api/seeks/{seek(anna, seat=1)}/accept").json()["id"]
    move(ben, mid)  # ben (seat 0) moves; anna never does, and nobody reads anything
    clock.now += 2.5
    assert stored(app, mid) == ("playing", 1)
    waited = 0.0
    while stored(app, mid)[0] == "playing" and waited < 20:
        time.sleep(0.1)
        waited += 0.1
    assert stored(app, mid) == ("over", None)
