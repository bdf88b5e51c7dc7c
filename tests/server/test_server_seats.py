"""Seats belong to people (issue 13 §1–§2): tokens, invitations, acts that need a token,
listing by tokens, spectators' views and WebSocket authentication."""

from __future__ import annotations

import hashlib
import re
import time

import pytest
from apiutil import bearer
from sqlalchemy import text
from starlette.websockets import WebSocketDisconnect

CARD = re.compile(r"\b(?:[2-9TJQKA][cdhs])\b")


@pytest.fixture
def raw(client):
    """The bare client: requests carry only the headers a test gives."""
    return client.raw


def new_match(raw, seats=("human", "human"), game="toy-nim", options=None, **kw):
    r = raw.post("/api/matches", json={"game": game, "options": options or {"stones": 9},
                                       "seats": list(seats), **kw})
    assert r.status_code == 201, r.text
    return r.json()


def move(raw, mid, action, ply, *tokens):
    return raw.post(f"/api/matches/{mid}/actions", json={"action": action, "ply": ply}, headers=bearer(*tokens))


def test_creator_gets_seat_0_and_an_invitation_for_seat_1(raw):
    view = new_match(raw)
    assert [t["seat"] for t in view["tokens"]] == [0] and len(view["tokens"][0]["token"]) == 22
    assert [i["seat"] for i in view["invites"]] == [1]
    code = view["invites"][0]["code"]
    assert view["invites"][0]["path"] == f"/#/join/{code}"
    assert view["my_seats"] == [0] and view["viewer"] == 0 and view["claimed"] == [True, False]
    info = raw.post("/api/invites/lookup", json={"code": code}).json()
    assert (info["match"], info["seat"], info["claimed"], info["game"]) == (view["id"], 1, False, "toy-nim")
    joined = raw.post("/api/invites/claim", json={"code": code}).json()
    assert joined["id"] == view["id"] and [t["seat"] for t in joined["tokens"]] == [1]
    assert joined["my_seats"] == [1] and joined["claimed"] == [True, True] and joined["invites"] == []
    again = raw.post("/api/invites/claim", json={"code": code})
    assert again.status_code == 410 and "used already" in again.json()["error"]
    assert raw.post("/api/invites/lookup", json={"code": code}).json()["claimed"] is True
    assert raw.post("/api/invites/claim", json={"code": "nonsense"}).status_code == 404


def test_pass_and_play_takes_every_person_seat(raw):
    view = new_match(raw, seats=("human", "human"), take="all")
    assert [t["seat"] for t in view["tokens"]] == [0, 1] and view["invites"] == []
    view = new_match(raw, seats=("level:2", "human"), take=[1])
    assert [t["seat"] for t in view["tokens"]] == [1] and view["invites"] == []
    r = raw.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "level:1"], "take": [1]})
    assert r.status_code == 422 and "seat 1 is not a person seat" in r.json()["error"]


TAKE_REFUSED = "take: must be \"all\" or a list of person seat numbers ([0], [0, 1])"


@pytest.mark.parametrize("path", ["/api/matches", "/api/matches/import"])
@pytest.mark.parametrize("take, error", [
    ("al", TAKE_REFUSED), (3, TAKE_REFUSED), (["x"], TAKE_REFUSED), ([True], TAKE_REFUSED), ({}, TAKE_REFUSED),
    ([-1], TAKE_REFUSED), (list(range(20)), TAKE_REFUSED),  # no seat number (0…15), more than 16 seats
    ([0, 0], "take: a seat is listed twice"),
    ([1], "seat 1 is not a person seat of this match, so it cannot be taken (person seats: [0])"),
])
def test_a_bad_take_is_refused_in_the_servers_words(raw, path, take, error):
    # it was the validation library's, one message per branch of the field's type (the body's
    # field is named at the edge; the match service, which knows the person seats, words its own):
    # "take.list[constrained-int]: Input should be a valid list; take.literal['all']: Input should be 'all'"
    body = {"game": "toy-nim", "seats": ["human", "level:1"]}
    if path.endswith("import"):
        body = {"record": {"game": "toy-nim", "moves": []}, "seats": ["human", "level:1"]}
    r = raw.post(path, json={**body, "take": take})
    assert (r.status_code, r.json()) == (422, {"error": error})


def test_no_refusal_of_a_request_body_names_the_validation_librarys_types():
    # a field whose type has several forms (a list or "all") was refused once per form, each
    # named by the library's name for it ("list[constrained-int]", "literal['all']")
    from pydantic import ValidationError

    import abstracta.server.api.bodies as app

    bodies = [m for m in vars(app).values() if isinstance(m, type) and issubclass(m, app.Body) and m is not app.Body]
    assert len(bodies) >= 8
    seen = []
    for body in bodies:
        for name in body.model_fields:
            for value in (5, "x", [], {}, True, ["x"], [-1], 1.5, [True], None):
                try:
                    body.model_validate({name: value})
                except ValidationError as exc:
                    seen += [(body.__name__, err["loc"]) for err in exc.errors() if err["loc"][:1] == (name,)]
    assert seen and not [(b, loc) for b, loc in seen if any(isinstance(p, str) and not p.isidentifier() for p in loc)]


def test_tokens_are_stored_as_sha256_only(client, raw):
    view = new_match(raw)
    token, code = view["tokens"][0]["token"], view["invites"][0]["code"]
    engine = client.app.state.service.store.engine
    with engine.connect() as c:
        dump = " ".join(str(row) for table in ("seat_tokens", "invites", "matches", "match_live")
                        for row in c.execute(text(f"SELECT * FROM {table}")))
    assert token not in dump and code not in dump
    assert hashlib.sha256(token.encode()).hexdigest() in dump
    assert hashlib.sha256(code.encode()).hexdigest() in dump


def test_every_act_needs_the_right_token(raw):
    view = new_match(raw)
    mid, t0 = view["id"], view["tokens"][0]["token"]
    t1 = raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()["tokens"][0]["token"]
    other = new_match(raw)
    foreign = other["tokens"][0]["token"]
    acts = [("POST", f"/api/matches/{mid}/actions", {"action": "1", "ply": 0}),
            ("POST", f"/api/matches/{mid}/resign", {"seat": 0}),
            ("POST", f"/api/matches/{mid}/undo", None),
            ("POST", f"/api/matches/{mid}/takeback", None),
            ("POST", f"/api/matches/{mid}/takeback/answer", {"accept": True}),
            ("POST", f"/api/matches/{mid}/draw", None),
            ("POST", f"/api/matches/{mid}/draw/answer", {"accept": True}),
            ("POST", f"/api/matches/{mid}/flag", None),
            ("POST", f"/api/matches/{mid}/invites", None),
            ("DELETE", f"/api/matches/{mid}", None)]
    for method, url, body in acts:
        r = raw.request(method, url, json=body)
        assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer", (url, r.text)
        r = raw.request(method, url, json=body, headers={"Authorization": "Basic " + t0})
        assert r.status_code == 401, url
        r = raw.request(method, url, json=body, headers=bearer(foreign))
        assert r.status_code == 403 and "no token given is a token of this match" in r.json()["error"], url
    # seat 1's token never acts for seat 0 (seat 0 is to move), nor resigns it
    r = move(raw, mid, "1", 0, t1)
    assert r.status_code == 403 and "no token given holds seat 0" in r.json()["error"]
    r = raw.post(f"/api/matches/{mid}/resign", json={"seat": 0}, headers=bearer(t1))
    assert r.status_code == 403
    assert raw.get(f"/api/matches/{mid}").json()["ply"] == 0  # nothing changed
    assert move(raw, mid, "1", 0, t0).json()["ply"] == 1
    assert move(raw, mid, "2", 1, t0).status_code == 403
    assert move(raw, mid, "2", 1, t1).json()["position"] == "6 0"
    # a token of the other match deletes only that match (nobody claimed its invitation); the
    # friend's token deletes nothing it shares (409)
    assert raw.delete(f"/api/matches/{mid}", headers=bearer(foreign)).status_code == 403
    assert raw.delete(f"/api/matches/{mid}", headers=bearer(t1)).status_code == 409
    assert raw.delete(f"/api/matches/{other['id']}", headers=bearer(foreign)).status_code == 204
    assert raw.get(f"/api/matches/{other['id']}").status_code == 404
    assert raw.get(f"/api/matches/{mid}").status_code == 200


def test_list_shows_only_the_matches_of_the_tokens_sent(raw):
    a, b, c = new_match(raw), new_match(raw), new_match(raw)
    assert raw.get("/api/matches").json() == []
    ta, tb = a["tokens"][0]["token"], b["tokens"][0]["token"]
    listed = raw.get("/api/matches", headers=bearer(ta, tb)).json()
    assert sorted(m["id"] for m in listed) == sorted([a["id"], b["id"]])
    assert all(m["my_seats"] == [0] for m in listed)
    assert raw.get("/api/matches", headers=bearer("x" * 22)).json() == []
    assert c["id"] not in str(raw.get("/api/matches", headers=bearer(ta)).json())


def test_new_invitations_replace_the_open_ones(raw):
    view = new_match(raw)
    old = view["invites"][0]["code"]
    r = raw.post(f"/api/matches/{view['id']}/invites", headers=bearer(view["tokens"][0]["token"]))
    fresh = r.json()["invites"]
    assert [i["seat"] for i in fresh] == [1] and fresh[0]["code"] != old
    assert raw.post("/api/invites/claim", json={"code": old}).status_code == 404
    assert raw.post("/api/invites/claim", json={"code": fresh[0]["code"]}).status_code == 200


def test_spectators_see_public_information_only(raw):
    view = new_match(raw, seats=("human", "level:1"), game="fibonacci-cards",
                     options={"seed": "1", "first_player": "0"})
    mid = view["id"]
    assert view["viewer"] == 0 and "7d,9c" in view["position"]  # the creator's own hand
    seen = raw.get(f"/api/matches/{mid}").json()
    assert seen["viewer"] is None and seen["legal"] == [] and seen["my_seats"] == []
    assert seen["position"] == "7h 4h 2c | ?8 | ?8 | ?33 | 0"
    assert "?8" in seen["position"] and "7d" not in str(seen["struct"])
    for seat in (0, 1):  # ?seat= no longer reveals a hand
        r = raw.get(f"/api/matches/{mid}?seat={seat}")
        assert r.status_code == 403 and f"no token given holds seat {seat}" in r.json()["error"]
        assert raw.get(f"/api/matches/{mid}/positions?seat={seat}").status_code == 403
    positions = raw.get(f"/api/matches/{mid}/positions").json()["positions"]
    assert "7d" not in positions[0]


def test_websocket_authenticates_in_its_first_message(raw):
    view = new_match(raw)
    mid, t0 = view["id"], view["tokens"][0]["token"]
    raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]})  # the game starts
    with raw.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.send_json({"tokens": [t0]})
        first = ws.receive_json()
        assert first["my_seats"] == [0] and first["legal"] == ["1", "2", "3"]
        move(raw, mid, "2", 0, t0)
        assert ws.receive_json()["position"] == "7 1"
    with raw.websocket_connect(f"/api/matches/{mid}/ws") as ws:  # a spectator
        ws.send_json({"tokens": []})
        assert ws.receive_json()["my_seats"] == []
    foreign = new_match(raw)["tokens"][0]["token"]
    with raw.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.send_json({"tokens": [foreign]})
        assert ws.receive_json()["error"] == "no token given is a token of this match"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with raw.websocket_connect(f"/api/matches/{mid}/ws?token={t0}") as ws:  # not in the URL
        ws.send_text("hello")
        assert "first message" in ws.receive_json()["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008


def test_a_game_a_friend_is_in_is_deleted_by_neither(raw):
    """An invitation claimed puts another person in the game: it is theirs too, and neither
    token deletes it for both (409, with words), in play or over; their lists say so."""
    view = new_match(raw, take=[0])
    mid, t0 = view["id"], view["tokens"][0]["token"]
    t1 = raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()["tokens"][0]["token"]
    assert move(raw, mid, "1", 0, t0).status_code == 200
    for token in (t0, t1):
        refused = raw.delete(f"/api/matches/{mid}", headers=bearer(token))
        assert refused.status_code == 409, refused.text
        assert refused.json()["i18n"]["key"] == "error.delete_shared"
        assert "another player is in this game" in refused.json()["error"]
        assert [(m["id"], m["deletable"]) for m in raw.get("/api/matches", headers=bearer(token)).json()] == \
            [(mid, False)]
    assert raw.post(f"/api/matches/{mid}/resign", headers=bearer(t1)).status_code == 200
    assert raw.delete(f"/api/matches/{mid}", headers=bearer(t0)).status_code == 409
    assert raw.get(f"/api/matches/{mid}", headers=bearer(t1)).json()["status"] == "over"


def test_a_game_nobody_else_is_in_is_its_players_to_delete(raw):
    """Against the computer, hot-seat on one device, an invitation not claimed yet: listed as
    deletable, and deleted."""
    computer = new_match(raw, seats=("human", "level:1"))
    hot_seat = new_match(raw, take="all")
    invitation = new_match(raw, take=[0])
    tokens = [m["tokens"][0]["token"] for m in (computer, hot_seat, invitation)] + [hot_seat["tokens"][1]["token"]]
    listed = raw.get("/api/matches", headers=bearer(*tokens)).json()
    assert {m["id"]: m["deletable"] for m in listed} == {computer["id"]: True, hot_seat["id"]: True,
                                                         invitation["id"]: True}
    for made in (computer, hot_seat, invitation):
        mine = bearer(*(t["token"] for t in made["tokens"]))  # a hot-seat browser keeps both
        assert raw.delete(f"/api/matches/{made['id']}", headers=mine).status_code == 204
        assert raw.get(f"/api/matches/{made['id']}").status_code == 404


def test_a_match_deleted_closes_its_sockets_with_4404(raw):
    """The browser's match page reads 4404 as the game gone for good (match-live.js): it is sent to
    a socket open when the match is deleted, and to one opened after."""
    view = new_match(raw)
    mid, t0 = view["id"], view["tokens"][0]["token"]
    with raw.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.send_json({"tokens": []})
        assert ws.receive_json()["my_seats"] == []
        assert raw.delete(f"/api/matches/{mid}", headers=bearer(t0)).status_code == 204
        assert ws.receive_json()["error"] == f"no match with id {mid!r}"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404
    with raw.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.send_json({"tokens": [t0]})
        assert ws.receive_json()["error"] == f"no match with id {mid!r}"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_slide_checkers_mixes_people_and_computers(raw):
    view = new_match(raw, seats=("human", "level:1", "human", "human"), game="slide-checkers",
                     options={"players": 4})
    assert [t["seat"] for t in view["tokens"]] == [0] and [i["seat"] for i in view["invites"]] == [2, 3]
    assert view["claimed"] == [True, False, False, False]
    for invite in view["invites"]:
        joined = raw.post("/api/invites/claim", json={"code": invite["code"]}).json()
        assert joined["my_seats"] == [invite["seat"]]
    assert raw.get(f"/api/matches/{view['id']}").json()["claimed"] == [True, False, True, True]


def test_websocket_without_a_first_message_is_closed(raw, monkeypatch):
    from abstracta.server.api.routes import live as app_module

    monkeypatch.setattr(app_module, "WS_AUTH_SECONDS", 0.2)
    mid = new_match(raw)["id"]
    with raw.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008


def test_a_computer_seats_cards_stay_hidden_from_the_matchs_creator(client, raw, monkeypatch):
    monkeypatch.setattr(client.app.state.service.computer, "schedule", lambda match: None)  # bots wait
    view = new_match(raw, seats=("level:1", "level:1"), game="fibonacci-cards", options={"seed": "1"})
    token = view["tokens"][0]["token"]  # seat 0's token: to find, watch and delete the match
    assert view["viewer"] is None and "?8 | ?8" in view["position"]
    r = raw.get(f"/api/matches/{view['id']}?seat=0", headers=bearer(token))
    assert r.status_code == 403
    assert raw.delete(f"/api/matches/{view['id']}", headers=bearer(token)).status_code == 204


def test_import_hands_out_tokens_invitations_and_a_clock(raw):
    record = {"format": "abstracta-record", "version": 1, "game": "toy-nim", "options": {"stones": 9},
              "players": ["human", "human"], "moves": ["1", "2"]}
    r = raw.post("/api/matches/import", json={"record": record, "take": [1], "clock": {"per_turn": 60}})
    view = r.json()
    assert r.status_code == 201 and [t["seat"] for t in view["tokens"]] == [1]
    assert [i["seat"] for i in view["invites"]] == [0] and view["clock"]["control"] == {"per_turn": 60.0}
    assert view["viewer"] == 1 and view["legal"] == [] and view["to_move"] == 0
    r = move(raw, view["id"], "1", 2, view["tokens"][0]["token"])
    assert r.status_code == 409 and r.json()["i18n"]["key"] == "error.waiting_seats"  # seat 0 is not taken yet
    raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]})
    r = move(raw, view["id"], "1", 2, view["tokens"][0]["token"])
    assert r.status_code == 403 and "seat 0" in r.json()["error"]


def test_websocket_first_message_nested_too_deep_is_refused(raw):
    mid = new_match(raw)["id"]
    with raw.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.send_text('{"tokens": ' + "[" * 5000 + "]" * 5000 + "}")  # short enough, but json.loads recurses
        assert "first message" in ws.receive_json()["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008


def test_no_move_is_played_before_every_seat_is_taken(raw):
    # issue 38 §1: with seat 1's invitation open, the creator's move at ply 0 was accepted (ply 1)
    # and no clock ran
    from abstracta.server import i18n

    view = new_match(raw, game="fanorona", options={"size": "dimy"}, clock={"initial": 300})
    mid, t0 = view["id"], view["tokens"][0]["token"]
    assert view["waiting_for"] == [1] and view["legal"] == [] and view["clock"]["running"] is None
    r = move(raw, mid, "b2-c3A", 0, t0)
    assert r.status_code == 409
    said = r.json()
    assert said["error"] == "waiting for Black to join: no move is played before every seat is taken"
    assert said["i18n"] == {"key": "error.waiting_seats", "params": {"who": [{"key": "fanorona.seat.1", "params": {}}],
                                                                    "n": 1}}
    assert i18n.format_message(said["i18n"], i18n.catalog("fi"), "fi") == (
        "odotetaan, että Musta liittyy peliin: siirtoja ei pelata ennen kuin jokainen paikka on otettu")
    assert raw.get(f"/api/matches/{mid}").json()["ply"] == 0  # nothing was played
    joined = raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()
    # every seat taken: the first move is awaited (30 s, then the game is aborted), the clock
    # starts after each side's (issue 42 §4)
    assert joined["waiting_for"] == [] and joined["clock"]["running"] is None
    assert joined["start_deadline"]["seat"] == 0
    r = move(raw, mid, "b2-c3A", 0, t0)
    assert r.status_code == 200 and r.json()["ply"] == 1


def test_the_computer_waits_for_the_invited_person_too(raw):
    # the computer moving first while the friend's seat is open would play a game nobody joined
    view = new_match(raw, seats=("level:1", "human", "human"), game="slide-checkers", options={"players": 3},
                     take=[1])
    assert (view["waiting_for"], view["thinking"], view["ply"]) == ([2], False, 0)
    raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]})
    deadline = time.time() + 10
    while (seen := raw.get(f"/api/matches/{view['id']}").json())["ply"] == 0:
        assert time.time() < deadline, seen
        time.sleep(0.02)
    assert seen["movers"] == [0]
