"""Seats that belong to people (issue 41 §2–4): the API contract walked with session cookies
instead of seat tokens — accounts, sign-in and its limit, a rated game from its invitation to
its end, the games of a person on any device, names on the seats, ratings after the game — and
guests, API tokens, deletion and the record of every way a game ends."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from apiutil import bearer, hand_clock, make_app

from abstracta.people.credentials import Passwords
from abstracta.people.throttle import Throttle

PW = "correct horse"
BLITZ = {"initial": 300, "increment": 3}
POOL = "fanorona.tsivy.blitz"


@pytest.fixture
def app(db_url):
    app = make_app(db_url, rate_limits=False)
    app.state.people.passwords = Passwords.light()  # Argon2id all the same, with small parameters
    return app


@pytest.fixture
def anna(app):
    with TestClient(app) as c:
        assert c.post("/api/accounts", json={"username": "anna", "password": PW}).status_code == 201
        yield c


def browser(app) -> TestClient:
    """Another browser (its own cookie jar) on the same app (the app runs: ``anna`` started it)."""
    return TestClient(app)


def account(app, name: str) -> TestClient:
    c = browser(app)
    r = c.post("/api/accounts", json={"username": name, "password": PW})
    assert r.status_code == 201, r.text
    return c


def rated_game(anna: TestClient, ben: TestClient, clock=BLITZ) -> dict:
    """anna creates a rated Fanorona game (seat 0, by her cookie alone) and ben claims seat 1."""
    r = anna.post("/api/matches", json={"game": "fanorona", "seats": ["human", "human"], "take": [0],
                                        "clock": clock, "rated": True})
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["rated"] is True and made["my_seats"] == [0] and len(made["invites"]) == 1
    claimed = ben.post("/api/invites/claim", json={"code": made["invites"][0]["code"]})
    assert claimed.status_code == 200, claimed.text
    return made


def play_some(mid: str, by_seat: dict[int, TestClient], plies: int) -> dict:
    """``plies`` actions, each the first legal one, sent by the cookie of the seat to move."""
    view = by_seat[0].get(f"/api/matches/{mid}").json()
    for _ in range(plies):
        mover = view["to_move"]
        view = by_seat[mover].get(f"/api/matches/{mid}").json()
        r = by_seat[mover].post(f"/api/matches/{mid}/actions", json={"action": view["legal"][0], "ply": view["ply"]})
        assert r.status_code == 200, r.text
        view = r.json()
    return view


def test_the_api_contract_with_session_cookies(app, anna):
    # accounts: 201 and a cookie; a taken name in any case 409; a short password 422
    ben = account(app, "ben")
    assert browser(app).post("/api/accounts", json={"username": "ANNA", "password": PW}).status_code == 409
    assert browser(app).post("/api/accounts", json={"username": "cleo", "password": "short"}).status_code == 422
    # sign-in: 200 and an HttpOnly cookie; wrong 401; more than 10 wrong for one account in a minute 429
    app.state.people.throttle = Throttle()  # the limits as abstracta serve has them (the app's are off)
    second = browser(app)
    r = second.post("/api/session", json={"username": "Anna", "password": PW})
    assert r.status_code == 200 and "HttpOnly" in r.headers["set-cookie"]
    wrong = [browser(app).post("/api/session", json={"username": "ben", "password": f"wrong {i}"}).status_code
             for i in range(11)]
    assert wrong == [401] * 10 + [429]
    app.state.people.throttle = Throttle(enabled=False)

    # a rated game: created by the cookie alone (no seat token sent), claimed by ben's account
    made = rated_game(anna, ben)
    mid = made["id"]
    info = browser(app).post("/api/invites/lookup", json={"code": made["invites"][0]["code"]}).json()
    assert info["rated"] is True and info["people"][0] == {"name": "anna", "kind": "account"}

    # GET /api/matches with a cookie lists the person's games, as for tokens
    mine = anna.get("/api/matches").json()
    assert [(m["id"], m["my_seats"], m["rated"]) for m in mine] == [(mid, [0], True)]
    assert mine[0]["people"] == [{"name": "anna", "kind": "account"}, {"name": "ben", "kind": "account"}]
    assert mine[0]["claimed"] == [True, True]
    assert browser(app).get("/api/matches").json() == []  # nobody signed in, no token: nothing

    # the view names the seats; each browser sees its own seat
    view = anna.get(f"/api/matches/{mid}").json()
    assert view["people"] == [{"name": "anna", "kind": "account"}, {"name": "ben", "kind": "account"}]
    assert (view["my_seats"], view["rated"], view["rating_changes"]) == ([0], True, None)
    assert ben.get(f"/api/matches/{mid}").json()["my_seats"] == [1]
    # anna's second browser, signed in: her seat and its controls, with no token at all
    again = second.get(f"/api/matches/{mid}").json()
    assert again["my_seats"] == [0] and again["viewer"] == 0 and again["legal"]

    # every act with the cookie instead of a seat token
    seats = {0: anna, 1: ben}
    view = play_some(mid, seats, 3)
    mover, other = seats[view["to_move"]], seats[1 - view["to_move"]]
    assert other.post(f"/api/matches/{mid}/actions", json={"action": view["legal"][0] if view["legal"] else "a1",
                                                             "ply": view["ply"]}).status_code in (403, 409)
    assert mover.post(f"/api/matches/{mid}/draw").json()["draw_offer"]["by"] == view["to_move"]
    assert other.post(f"/api/matches/{mid}/draw/answer", json={"accept": False}).json()["draw_offer"] is None
    asked = mover.post(f"/api/matches/{mid}/takeback").json()
    assert asked["takeback"]["by"] == view["to_move"]
    taken = other.post(f"/api/matches/{mid}/takeback/answer", json={"accept": True}).json()
    assert taken["takeback"] is None and taken["ply"] < view["ply"]
    assert anna.post(f"/api/matches/{mid}/flag").status_code == 409  # no flag has fallen
    assert second.post(f"/api/matches/{mid}/invites").json() == {"invites": []}  # every seat taken
    # a stranger's cookie holds no seat: 403; no cookie and no token: 401
    cleo = account(app, "cleo")
    assert cleo.post(f"/api/matches/{mid}/resign").status_code == 403
    assert browser(app).post(f"/api/matches/{mid}/resign").status_code == 401
    assert cleo.get(f"/api/matches/{mid}").json()["my_seats"] == []  # a spectator

    # ben resigns (by his cookie): the winner's rating has gone up, the loser's down
    over = ben.post(f"/api/matches/{mid}/resign").json()
    assert over["status"] == "over" and over["termination"] == "resignation" and over["resigned"] == 1
    changes = over["rating_changes"]
    assert changes[0]["pool"] == changes[1]["pool"] == POOL
    assert changes[0]["after"] > changes[0]["before"] == 1500 and changes[1]["after"] < changes[1]["before"] == 1500
    assert changes[0]["change"] == changes[0]["after"] - changes[0]["before"] > 0 and changes[0]["provisional"]
    assert anna.get(f"/api/matches/{mid}").json()["rating_changes"] == changes  # both players see it
    profile = browser(app).get("/api/players/anna").json()
    rating = profile["ratings"][POOL]
    assert set(rating) >= {"rating", "rd", "games"} and rating["games"] == 1 and rating["rating"] > 1500
    assert browser(app).get("/api/players/BEN").json()["ratings"][POOL]["rating"] < 1500
    recent = profile["recent_games"][0]
    assert (recent["id"], recent["outcome"], recent["rated"], recent["rating_change"]) == (mid, "win", True,
                                                                                          changes[0]["change"])
    assert recent["opponents"] == [{"seat": 1, "name": "ben", "kind": "account"}]
    assert browser(app).get("/api/players/nobody").status_code == 404

    # a rated game is never deleted: both profiles link to it
    assert anna.delete(f"/api/matches/{mid}").status_code == 409
    # one nobody else is in, deleted by the cookie: its seats belong to nobody any more
    alone = anna.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9},
                                            "seats": ["human", "level:1"]}).json()["id"]
    assert list(app.state.people.standings.owners_of(alone)) == [0]
    assert anna.delete(f"/api/matches/{alone}").status_code == 204
    assert [m["id"] for m in anna.get("/api/matches").json()] == [mid]
    assert app.state.people.standings.owners_of(alone) == {}


def test_a_browser_holding_both_seats_of_two_accounts_deletes_nothing(app, anna):
    """Two people who played on one browser left both tokens in it: the seats are still two
    accounts', and the game is not deleted by either token or cookie (409), nor listed as deletable."""
    made = anna.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9},
                                           "seats": ["human", "human"], "take": [0]}).json()
    ben = account(app, "ben")
    t1 = ben.post("/api/invites/claim", json={"code": made["invites"][0]["code"]}).json()["tokens"][0]["token"]
    both = bearer(made["tokens"][0]["token"], t1)
    for c in (browser(app), anna):  # signed out; signed in as anna, with ben's token too
        assert [(m["my_seats"], m["deletable"]) for m in c.get("/api/matches", headers=both).json()] == \
            [([0, 1], False)]
        refused = c.delete(f"/api/matches/{made['id']}", headers=both)
        assert refused.status_code == 409 and refused.json()["i18n"]["key"] == "error.delete_shared"
    assert ben.get(f"/api/matches/{made['id']}").json()["my_seats"] == [1]


def test_a_signed_out_tablet_deletes_no_game_an_account_is_in(app):
    """Alice, never signed in, creates a game on a tablet; Ben signs in there, claims seat 1 and
    signs out, leaving his token beside hers; he plays on from his phone. His account's seat
    makes the game his too: the tablet, holding both tokens but signed in as nobody, is neither
    offered Delete nor deletes it (409)."""
    with TestClient(app) as tablet:
        made = tablet.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9},
                                                 "seats": ["human", "human"], "take": [0]}).json()
        mid, t0 = made["id"], made["tokens"][0]["token"]
        assert tablet.post("/api/accounts", json={"username": "ben", "password": PW}).status_code == 201
        t1 = tablet.post("/api/invites/claim", json={"code": made["invites"][0]["code"]}).json()["tokens"][0]["token"]
        assert tablet.delete("/api/session").status_code == 204
        phone = browser(app)
        assert phone.post("/api/session", json={"username": "ben", "password": PW}).status_code == 200
        assert [(m["my_seats"], m["deletable"]) for m in phone.get("/api/matches").json()] == [([1], False)]
        both = bearer(t0, t1)
        assert [(m["my_seats"], m["deletable"]) for m in tablet.get("/api/matches", headers=both).json()] == \
            [([0, 1], False)]
        refused = tablet.delete(f"/api/matches/{mid}", headers=both)
        assert refused.status_code == 409 and refused.json()["i18n"]["key"] == "error.delete_shared"
        assert phone.get(f"/api/matches/{mid}").json()["my_seats"] == [1]


def test_an_account_holding_an_anonymous_players_token_deletes_nothing(app, anna):
    """The mirror: Ben, signed in, also holds the token of the seat Alice took signed out. The
    game is Alice's too (a seat held by a token alone is someone's): not deletable, 409. One
    account at every seat taken deletes its game signed in as it, and not signed out."""
    alice = browser(app)
    made = alice.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9},
                                            "seats": ["human", "human"], "take": [0]}).json()
    ben = account(app, "ben")
    t1 = ben.post("/api/invites/claim", json={"code": made["invites"][0]["code"]}).json()["tokens"][0]["token"]
    both = bearer(made["tokens"][0]["token"], t1)
    assert [(m["my_seats"], m["deletable"]) for m in ben.get("/api/matches", headers=both).json()] == \
        [([0, 1], False)]
    refused = ben.delete(f"/api/matches/{made['id']}", headers=both)
    assert refused.status_code == 409 and refused.json()["i18n"]["key"] == "error.delete_shared"
    assert alice.get(f"/api/matches/{made['id']}", headers=bearer(made["tokens"][0]["token"])).json()["my_seats"] == [0]

    # anna's pass-and-play game: every seat hers; signed out, her tokens alone delete nothing
    hot = anna.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9},
                                          "seats": ["human", "human"], "take": "all"}).json()
    tokens = bearer(*(t["token"] for t in hot["tokens"]))
    signed_out = browser(app)
    assert [(m["my_seats"], m["deletable"]) for m in signed_out.get("/api/matches", headers=tokens).json()] == \
        [([0, 1], False)]
    assert signed_out.delete(f"/api/matches/{hot['id']}", headers=tokens).status_code == 409
    assert [(m["id"], m["deletable"]) for m in anna.get("/api/matches").json()] == [(hot["id"], True)]
    assert anna.delete(f"/api/matches/{hot['id']}").status_code == 204


def test_a_profile_lists_a_deleted_games_result_without_a_link(app, anna):
    """A game against the computer is its player's to delete; its result stays on the profile,
    marked deleted (no replay to open: the page shows no link to "No such game")."""
    mid = anna.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9},
                                          "seats": ["human", "level:1"]}).json()["id"]
    assert anna.post(f"/api/matches/{mid}/resign").status_code == 200
    recent = browser(app).get("/api/players/anna").json()["recent_games"]
    assert [(g["id"], g["outcome"], g["deleted"], g["players"]) for g in recent] == \
        [(mid, "loss", False, ["human", "level:1"])]
    assert anna.delete(f"/api/matches/{mid}").status_code == 204
    recent = browser(app).get("/api/players/anna").json()["recent_games"]
    assert [(g["id"], g["outcome"], g["deleted"], g["players"]) for g in recent] == [(mid, "loss", True, [])]


def test_a_websocket_reads_the_person_from_the_cookie_of_its_handshake(app, anna):
    ben = account(app, "ben")
    mid = rated_game(anna, ben)["id"]
    with anna.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.send_json({"tokens": []})  # no token: the cookie says who it is
        view = ws.receive_json()
    assert view["my_seats"] == [0] and view["viewer"] == 0
    with browser(app).websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.send_json({"tokens": []})
        assert ws.receive_json()["my_seats"] == []  # nobody signed in: a spectator


def test_a_websocket_stops_when_the_session_it_was_opened_with_ends(app, anna):
    """A copy of anna's session (a stolen cookie, a forgotten browser) watching her game, her
    room and her lobby is cut off once she ends it from her own browser: the next change sends
    it nothing more of hers (her view of the game, her players' chat, her challenges)."""
    from starlette.websockets import WebSocketDisconnect

    ben = account(app, "ben")
    made = rated_game(anna, ben)
    mid = made["id"]
    other = browser(app)
    assert other.post("/api/session", json={"username": "anna", "password": PW}).status_code == 200
    with other.websocket_connect(f"/api/matches/{mid}/ws") as game, \
            other.websocket_connect(f"/api/matches/{mid}/room") as room, \
            other.websocket_connect("/api/lobby/ws") as lobby:
        game.send_json({"tokens": []})
        assert game.receive_json()["my_seats"] == [0]
        room.send_json({"tokens": []})
        assert room.receive_json()["rooms"] == ["players", "spectators"]
        assert lobby.receive_json()["lobby"]["me"]["name"] == "anna"
        assert anna.delete("/api/me/sessions").json() == {"ended": 1}  # every session but hers
        play_some(mid, {0: anna, 1: ben}, 1)
        assert ben.post(f"/api/matches/{mid}/chat", json={"text": "for anna only"}).status_code == 201
        assert ben.post("/api/challenges", json={"to": "anna", "game": "nibble"}).status_code == 201
        ended = game.receive_json()
        assert "error" in ended and "struct" not in ended
        with pytest.raises(WebSocketDisconnect) as closed:
            game.receive_json()
        assert closed.value.code == 4401
        assert "error" in room.receive_json()
        assert "error" in lobby.receive_json()  # said, then closed as the game's socket is
        with pytest.raises(WebSocketDisconnect) as closed:
            lobby.receive_json()
        assert closed.value.code == 4401


def test_rated_games_are_between_accounts(app, anna):
    body = {"game": "fanorona", "seats": ["human", "human"], "take": [0], "clock": BLITZ, "rated": True}
    guest = browser(app)
    assert guest.post("/api/guests").status_code == 201
    refused = guest.post("/api/matches", json=body)
    assert refused.status_code == 403 and refused.json()["i18n"]["key"] == "error.rated_needs_account"
    assert browser(app).post("/api/matches", json=body).status_code == 403  # nobody signed in
    against = anna.post("/api/matches", json={**body, "seats": ["human", "level:3"]})
    assert against.status_code == 422 and against.json()["i18n"]["key"] == "people.error.rated_computer"
    both = anna.post("/api/matches", json={**body, "take": [0, 1]})
    assert both.status_code == 422 and both.json()["i18n"]["key"] == "error.rated_one_seat"
    handicap = anna.post("/api/matches", json={**body, "options": {"vela": True}})  # the variant's rules changed
    assert handicap.status_code == 422 and handicap.json()["i18n"] == {"key": "error.rated_options",
                                                                       "params": {"options": "vela"}}
    assert anna.post("/api/matches", json={**body, "options": {"size": "dimy"}}).status_code == 201  # a variant
    assert anna.post("/api/matches", json={**body, "rated": "yes"}).status_code == 422
    assert len(anna.get("/api/matches").json()) == 1  # nothing else was made

    code = anna.post("/api/matches", json=body).json()["invites"][0]["code"]
    for stranger in (guest, browser(app)):  # a guest, and someone with no session: only accounts
        r = stranger.post("/api/invites/claim", json={"code": code})
        assert r.status_code == 403 and r.json()["i18n"]["key"] == "error.rated_needs_account"
    assert anna.post("/api/invites/claim", json={"code": code}).status_code == 403  # not both seats
    ben = account(app, "ben")
    assert ben.post("/api/invites/claim", json={"code": code}).status_code == 200


def test_casual_games_name_guests_and_a_guest_who_signs_up_keeps_its_seat(app, anna):
    guest = browser(app)
    name = guest.post("/api/guests").json()["name"]
    made = anna.post("/api/matches", json={"game": "fanorona", "seats": ["human", "human"], "take": [0]}).json()
    assert made["rated"] is False
    claimed = guest.post("/api/invites/claim", json={"code": made["invites"][0]["code"]}).json()
    assert claimed["people"] == [{"name": "anna", "kind": "account"}, {"name": name, "kind": "guest"}]
    assert len(claimed["tokens"]) == 1  # a seat token too, as ever
    assert guest.put("/api/me/name", json={"name": "Kalle"}).status_code == 200
    assert guest.post("/api/accounts", json={"username": "kalle2", "password": PW}).status_code == 201
    listed = guest.get("/api/matches").json()  # no token sent: the account's seat
    assert [(m["id"], m["my_seats"]) for m in listed] == [(made["id"], [1])]
    view = guest.get(f"/api/matches/{made['id']}").json()
    assert view["my_seats"] == [1]
    # casual: the end records results, rates nothing
    over = guest.post(f"/api/matches/{made['id']}/resign").json()
    assert over["rating_changes"] is None
    assert browser(app).get("/api/players/anna").json()["recent_games"][0]["rated"] is False


def test_guest_play_without_a_session_is_as_before(app, anna):
    stranger = browser(app)
    made = stranger.post("/api/matches", json={"game": "fanorona", "seats": ["human", "human"], "take": [0]}).json()
    token = made["tokens"][0]["token"]
    friend = browser(app).post("/api/invites/claim", json={"code": made["invites"][0]["code"]}).json()
    assert made["people"] == [None, None] and friend["people"] == [None, None]
    auth = {"Authorization": f"Bearer {token}"}
    assert stranger.get("/api/matches", headers=auth).json()[0]["my_seats"] == [0]
    assert stranger.post(f"/api/matches/{made['id']}/resign", headers=auth).json()["status"] == "over"
    assert app.state.people.standings.owners_of(made["id"]) == {}


def test_an_api_token_of_scope_play_acts_for_its_account(app, anna):
    ben = account(app, "ben")
    mid = rated_game(anna, ben)["id"]
    play = anna.post("/api/me/tokens", json={"description": "bot", "scopes": ["play"]}).json()["token"]
    read = anna.post("/api/me/tokens", json={"description": "reader", "scopes": ["read"]}).json()["token"]
    script = browser(app)
    seen = script.get(f"/api/matches/{mid}", headers={"Authorization": f"Bearer {play}"}).json()
    assert seen["my_seats"] == [0]
    assert script.get(f"/api/matches/{mid}", headers={"Authorization": f"Bearer {read}"}).json()["my_seats"] == []
    refused = script.post(f"/api/matches/{mid}/resign", headers={"Authorization": f"Bearer {read}"})
    assert refused.status_code == 401  # no seat token, and no person allowed to play
    r = script.post(f"/api/matches/{mid}/actions", json={"action": seen["legal"][0], "ply": 0},
                    headers={"Authorization": f"Bearer {play}"})
    assert r.status_code == 200 and r.json()["ply"] == 1
    listed = script.get("/api/matches", headers={"Authorization": f"Bearer {play}"}).json()
    assert [m["id"] for m in listed] == [mid]


@pytest.mark.parametrize("ending", ["agreement", "time"])
def test_every_ending_is_recorded_once(app, anna, monkeypatch, ending):
    clock = hand_clock(monkeypatch)
    ben = account(app, "ben")
    mid = rated_game(anna, ben)["id"]
    view = play_some(mid, {0: anna, 1: ben}, 2)
    if ending == "agreement":
        seats = {0: anna, 1: ben}
        seats[0].post(f"/api/matches/{mid}/draw")
        over = seats[1].post(f"/api/matches/{mid}/draw/answer", json={"accept": True}).json()
        expected = {"anna": "draw", "ben": "draw"}
    else:
        clock.now += 400  # the seat to move runs out of time; the server applies it when asked
        over = anna.get(f"/api/matches/{mid}").json()
        loser = view["to_move"]
        expected = {"anna": "loss" if loser == 0 else "win", "ben": "loss" if loser == 1 else "win"}
    assert over["status"] == "over" and over["termination"] == ending
    assert over["rating_changes"][0] is not None and over["rating_changes"][1] is not None
    for name, outcome in expected.items():
        profile = browser(app).get(f"/api/players/{name}").json()
        assert [g["outcome"] for g in profile["recent_games"]] == [outcome]
        assert profile["ratings"][POOL]["games"] == 1
    # viewed again and again, and announced again: recorded once
    service = app.state.service
    with service.locked(mid):
        service.results.record(service.load(mid))
    assert browser(app).get("/api/players/anna").json()["ratings"][POOL]["games"] == 1


def test_no_secret_in_any_answer_log_or_the_database(app, anna, caplog):
    import logging

    caplog.set_level(logging.DEBUG)
    ben = account(app, "ben")
    codes = ben.post("/api/me/recovery-codes", json={"password": PW}).json()["recovery_codes"]
    token = anna.post("/api/me/tokens", json={"description": "bot", "scopes": ["play"]}).json()["token"]
    made = rated_game(anna, ben)
    answers = [anna.get("/api/matches"), anna.get(f"/api/matches/{made['id']}"), ben.post(f"/api/matches/{made['id']}/resign"),
               browser(app).get("/api/players/anna"), browser(app).post("/api/session", json={"username": "anna",
                                                                                               "password": "wrong horse"})]
    secrets = [PW, "wrong horse", token, anna.cookies["abstracta"], ben.cookies["abstracta"], *codes]
    for r in answers:
        for bad in secrets + ["argon2", "$m="]:
            assert bad not in r.text, (r.request.url, bad)
    for bad in secrets + ["argon2"]:
        assert bad not in caplog.text
    engine = app.state.service.store.engine
    with engine.connect() as c:
        tables = [t for t, in c.execute(text("SELECT name FROM sqlite_master WHERE type='table'"))] \
            if engine.dialect.name == "sqlite" else [t for t, in c.execute(text(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"))]
        dump = "\n".join(str(row) for table in tables for row in c.execute(text(f'SELECT * FROM "{table}"')))
    for bad in secrets:
        assert bad not in dump
    assert dump.count("$argon2id$v=19$") == 2  # anna's and ben's passwords, hashed


def test_a_deleted_account_reads_as_deleted_player_and_its_seat_holds_nothing(app, anna):
    ben = account(app, "ben")
    mid = rated_game(anna, ben)["id"]
    assert anna.request("DELETE", "/api/me", json={"password": PW}).status_code == 204
    view = ben.get(f"/api/matches/{mid}").json()
    assert view["people"] == [{"name": None, "kind": "deleted"}, {"name": "ben", "kind": "account"}]
    assert ben.get("/api/matches").json()[0]["people"][0] == {"name": None, "kind": "deleted"}


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:9999"])
def test_an_act_with_the_cookie_from_another_origins_page_is_refused(app, anna, origin):
    ben = account(app, "ben")
    mid = rated_game(anna, ben)["id"]
    r = ben.post(f"/api/matches/{mid}/resign", headers={"Origin": origin})
    assert r.status_code == 403 and r.json()["i18n"]["key"] == "error.cross_origin"
    form = ben.post(f"/api/matches/{mid}/resign", content=b"seat=1",
                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert form.status_code == 415  # a form of another site cannot send JSON
    assert ben.get(f"/api/matches/{mid}").json()["status"] == "playing"
