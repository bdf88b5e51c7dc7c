"""Draw offers between people (README "Draw offers"): offered, accepted or declined by every
other seat still in, lapsing when one of them moves; the computer never agrees to one."""

from __future__ import annotations

import json

from apiutil import bearer, hand_clock, three_on_a_clock

from abstracta.server.matches import Live


def people(raw, game="toy-nim", options=None, seats=("human", "human"), record=None):
    """A match between people on separate devices: (id, {seat: token})."""
    if record is not None:
        view = raw.post("/api/matches/import", json={"record": record}).json()
    else:
        view = raw.post("/api/matches", json={"game": game, "options": options or {"stones": 9},
                                              "seats": list(seats)}).json()
    tokens = {t["seat"]: t["token"] for t in view["tokens"]}
    for invite in view["invites"]:
        tokens[invite["seat"]] = raw.post("/api/invites/claim", json={"code": invite["code"]}).json()["tokens"][0]["token"]
    return view["id"], tokens


def act(raw, mid, path, token=None, body=None):
    return raw.post(f"/api/matches/{mid}/{path}", json=body, headers=bearer(token) if token else {})


def test_a_draw_offer_accepted_draws_the_game_and_the_record_says_so(client):
    raw = client.raw
    mid, t = people(raw)
    view = act(raw, mid, "draw", t[0]).json()
    assert view["draw_offer"] == {"by": 0, "at_ply": 0, "accepted": [], "waiting": [1]}
    assert view["status"] == "playing" and view["draw_offerable"] is False  # one at a time
    # every seat and a spectator see it; the seat to answer may not offer over it either
    assert raw.get(f"/api/matches/{mid}").json()["draw_offer"]["by"] == 0
    other = raw.get(f"/api/matches/{mid}", headers=bearer(t[1])).json()
    assert other["draw_offer"]["waiting"] == [1]
    r = act(raw, mid, "draw", t[0])
    assert r.status_code == 409 and r.json()["i18n"]["key"] == "error.draw_pending"
    r = act(raw, mid, "draw/answer", t[0], {"accept": True})
    assert r.status_code == 403 and r.json()["i18n"]["key"] == "error.draw_not_yours"
    view = act(raw, mid, "draw/answer", t[1], {"accept": True}).json()
    assert view["status"] == "over" and view["result"] == [0.0, 0.0] and view["termination"] == "agreement"
    assert view["draw_offer"] is None and view["draw_offerable"] is False
    record = raw.get(f"/api/matches/{mid}/record").json()
    assert record["termination"] == "agreement" and record["result"] == [0.0, 0.0]
    assert record["tags"]["DrawOffered"] == "0" and record["moves"] == []
    # a finished game refuses offers and answers, with words the browser translates
    r = act(raw, mid, "draw", t[1])
    assert r.status_code == 409 and r.json()["i18n"]["key"] == "error.game_over"
    r = act(raw, mid, "draw/answer", t[0], {"accept": True})
    assert r.status_code == 409 and r.json()["i18n"]["key"] == "error.game_over"
    # an undo cannot bring back a game drawn by agreement
    assert act(raw, mid, "takeback", t[0]).status_code == 409
    # the downloaded record imports as it ended
    again = raw.post("/api/matches/import", json={"record": record})
    assert again.status_code == 201, again.json()
    assert again.json()["termination"] == "agreement" and again.json()["result"] == [0.0, 0.0]


def test_only_a_seat_of_the_match_offers_or_answers(client):
    raw = client.raw
    mid, t = people(raw)
    other, t_other = people(raw)
    assert act(raw, mid, "draw").status_code == 401  # a spectator
    assert act(raw, mid, "draw", "forged-token-forged-token").status_code == 403
    assert act(raw, mid, "draw", t_other[0]).status_code == 403  # another match's seat
    act(raw, mid, "draw", t[0])
    assert act(raw, mid, "draw/answer", None, {"accept": True}).status_code == 401
    assert act(raw, mid, "draw/answer", t_other[1], {"accept": True}).status_code == 403
    assert act(raw, mid, "draw/answer", t[1], {"accept": "yes"}).status_code == 422
    view = raw.get(f"/api/matches/{mid}").json()
    assert view["status"] == "playing" and view["draw_offer"]["accepted"] == []
    r = act(raw, mid, "draw/answer", t[1], {"accept": True})
    assert r.status_code == 200 and r.json()["result"] == [0.0, 0.0]
    assert raw.get(f"/api/matches/{other}").json()["status"] == "playing"


def test_declined_withdrawn_and_offered_back(client):
    raw = client.raw
    mid, t = people(raw)
    act(raw, mid, "draw", t[0])
    view = act(raw, mid, "draw/answer", t[1], {"accept": False}).json()
    assert view["draw_offer"] is None and view["status"] == "playing" and view["result"] is None
    assert view["draw_offer_ended"] == {"by": 0, "how": "declined", "seat": 1, "at_ply": 0, "accepted": []}
    # the offerer may withdraw its own offer
    act(raw, mid, "draw", t[1])
    view = act(raw, mid, "draw/answer", t[1], {"accept": False}).json()
    assert view["draw_offer"] is None and view["draw_offerable"] is False and view["draw_again_in"] == 3
    assert view["draw_offer_ended"] == {"by": 1, "how": "withdrawn", "seat": 1, "at_ply": 0, "accepted": []}
    r = act(raw, mid, "draw/answer", t[0], {"accept": True})
    assert r.status_code == 409 and r.json()["i18n"]["key"] == "error.no_draw_offer"
    # offering while the other side's offer stands accepts it (as on lichess), a wait or not
    for ply, seat in enumerate([0, 1, 0, 1, 0, 1]):  # three turns each: both may offer again
        act(raw, mid, "actions", t[seat], {"action": "1", "ply": ply})
    act(raw, mid, "draw", t[0])
    view = act(raw, mid, "draw", t[1]).json()
    assert view["termination"] == "agreement" and view["result"] == [0.0, 0.0]
    assert raw.get(f"/api/matches/{mid}/record").json()["tags"]["DrawOffered"] == "0"


def test_an_offer_declined_is_not_made_again_before_three_turns_of_ones_own(client):
    # as lichess waits 20 plies between one player's offers: the other side's Accept box must not
    # come and go at every click
    raw = client.raw
    mid, t = people(raw, options={"stones": 30})
    act(raw, mid, "draw", t[0])
    act(raw, mid, "draw/answer", t[1], {"accept": False})
    mine = raw.get(f"/api/matches/{mid}", headers=bearer(t[0])).json()
    assert (mine["draw_offerable"], mine["draw_again_in"]) == (False, 3)
    r = act(raw, mid, "draw", t[0])
    assert r.status_code == 409 and r.json()["i18n"] == {"key": "error.draw_again", "params": {"n": 3}}
    assert "3 more turns of yours" in r.json()["error"]
    # the seat that declined may offer: its own offers were never refused
    theirs = raw.get(f"/api/matches/{mid}", headers=bearer(t[1])).json()
    assert (theirs["draw_offerable"], theirs["draw_again_in"]) == (True, 0)
    waits = []
    for ply, seat in enumerate([0, 1, 0, 1, 0]):
        view = act(raw, mid, "actions", t[seat], {"action": "1", "ply": ply}).json()
        waits.append(raw.get(f"/api/matches/{mid}", headers=bearer(t[0])).json()["draw_again_in"])
        assert view["draw_offer_ended"] is None  # said for the position it ended at only
    assert waits == [2, 2, 1, 1, 0]
    r = act(raw, mid, "draw", t[0])
    assert r.status_code == 200 and r.json()["draw_offer"]["by"] == 0
    # a move of the seat asked declines it (README): the same wait, and the view says who moved
    view = act(raw, mid, "actions", t[1], {"action": "1", "ply": 5}).json()
    assert view["draw_offer_ended"] == {"by": 0, "how": "lapsed", "seat": 1, "at_ply": 6, "accepted": []}
    assert raw.get(f"/api/matches/{mid}", headers=bearer(t[0])).json()["draw_again_in"] == 3
    # kept with the match (a restart does not lift it)
    assert Live.from_json(Live(draw_again={"0": 6}).to_json()).draw_again == {"0": 6}


def test_a_takeback_ended_says_how_as_a_draw_offer_does(client):
    raw = client.raw
    mid, t = people(raw)
    act(raw, mid, "actions", t[0], {"action": "1", "ply": 0})
    act(raw, mid, "takeback", t[0])
    view = act(raw, mid, "takeback/answer", t[1], {"accept": False}).json()
    assert view["takeback_ended"] == {"by": 0, "how": "declined", "seat": 1, "at_ply": 1, "accepted": []}
    act(raw, mid, "takeback", t[0])
    view = act(raw, mid, "takeback/answer", t[0], {"accept": False}).json()
    assert view["takeback_ended"] == {"by": 0, "how": "withdrawn", "seat": 0, "at_ply": 1, "accepted": []}
    act(raw, mid, "takeback", t[0])
    view = act(raw, mid, "actions", t[1], {"action": "1", "ply": 1}).json()
    assert view["takeback_ended"] == {"by": 0, "how": "lapsed", "seat": 1, "at_ply": 2, "accepted": []}
    act(raw, mid, "takeback", t[1])
    view = act(raw, mid, "actions", t[0], {"action": "1", "ply": 2}).json()
    assert view["takeback_ended"] == {"by": 1, "how": "lapsed", "seat": 0, "at_ply": 3, "accepted": []}
    act(raw, mid, "takeback", t[1])
    view = act(raw, mid, "actions", t[1], {"action": "1", "ply": 3}).json()  # the asker played on
    assert view["takeback_ended"] == {"by": 1, "how": "withdrawn", "seat": 1, "at_ply": 4, "accepted": []}


def test_the_offer_lapses_when_the_other_side_moves_not_when_the_offerer_does(client):
    raw = client.raw
    mid, t = people(raw)
    act(raw, mid, "draw", t[0])
    view = act(raw, mid, "actions", t[0], {"action": "1", "ply": 0}).json()
    assert view["draw_offer"] == {"by": 0, "at_ply": 0, "accepted": [], "waiting": [1]} and view["ply"] == 1
    view = act(raw, mid, "actions", t[1], {"action": "2", "ply": 1}).json()
    assert view["draw_offer"] is None and view["ply"] == 2 and view["status"] == "playing"
    assert act(raw, mid, "draw/answer", t[1], {"accept": True}).status_code == 409


def test_a_takeback_or_a_resignation_ends_the_offer(client):
    raw = client.raw
    mid, t = people(raw)
    act(raw, mid, "actions", t[0], {"action": "1", "ply": 0})
    act(raw, mid, "draw", t[1])
    act(raw, mid, "takeback", t[0])
    view = act(raw, mid, "takeback/answer", t[1], {"accept": True}).json()
    assert view["ply"] == 0 and view["draw_offer"] is None
    act(raw, mid, "draw", t[1])
    view = act(raw, mid, "resign", t[1]).json()
    assert view["termination"] == "resignation" and view["result"] == [1.0, -1.0] and view["draw_offer"] is None


def test_the_computer_never_agrees_so_no_draw_is_offered_to_it(client):
    view = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9},
                                             "seats": ["human", "level:1"]}).json()
    assert view["draw_offerable"] is False and view["draw_offer"] is None
    r = client.post(f"/api/matches/{view['id']}/draw")
    assert r.status_code == 409 and r.json()["i18n"] == {"key": "error.draw_computer", "params": {"seat": 1}}
    assert "computer" in r.json()["error"]
    assert client.get(f"/api/matches/{view['id']}").json()["draw_offer"] is None


def test_a_game_whose_rules_have_no_draws_offers_none(client):
    # nibble.md §5 "there are no draws": between two people on their own devices, and on one
    raw = client.raw
    mid, t = people(raw, game="nibble", options={"seed": 1})
    for seat in (0, 1):
        view = raw.get(f"/api/matches/{mid}", headers=bearer(t[seat])).json()
        assert view["draw_offerable"] is False and view["draw_offer"] is None and view["draw_again_in"] == 0
        r = act(raw, mid, "draw", t[seat])
        assert r.status_code == 409 and r.json()["i18n"] == {"key": "error.draw_none", "params": {}}
        assert r.json()["error"] == "this game has no draws: its rules always decide a winner"
        r = act(raw, mid, "draw/answer", t[seat], {"accept": True})
        assert r.status_code == 409 and r.json()["i18n"]["key"] == "error.no_draw_offer"
    view = raw.get(f"/api/matches/{mid}").json()
    assert view["status"] == "playing" and view["draw_offer"] is None and view["result"] is None
    one = client.post("/api/matches", json={"game": "nibble", "options": {"seed": 1},
                                            "seats": ["human", "human"]}).json()
    assert one["draw_offerable"] is False
    r = client.post(f"/api/matches/{one['id']}/draw")
    assert r.status_code == 409 and r.json()["i18n"]["key"] == "error.draw_none"
    assert client.get(f"/api/matches/{one['id']}").json()["termination"] is None


def test_pass_and_play_agrees_at_once(client):
    # one device holds every seat: nobody else must agree
    view = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9},
                                             "seats": ["human", "human"]}).json()
    assert view["draw_offerable"] is True
    view = client.post(f"/api/matches/{view['id']}/draw").json()
    assert view["termination"] == "agreement" and view["result"] == [0.0, 0.0]


def three_players(start):
    return {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "options": {"players": 3},
            "players": ["human", "human", "human"], "start": start, "moves": []}


def test_three_players_every_other_seat_still_in_must_accept(client):
    raw = client.raw
    mid, t = people(raw, record=three_players("Ga1,Bl12,Rf6 M G"))
    view = act(raw, mid, "draw", t[0]).json()
    assert view["draw_offer"]["waiting"] == [1, 2]
    view = act(raw, mid, "draw/answer", t[1], {"accept": True}).json()
    assert view["draw_offer"] == {"by": 0, "at_ply": 0, "accepted": [1], "waiting": [2]} and view["status"] == "playing"
    # a seat that agreed may move: the offer stands
    view = act(raw, mid, "actions", t[0], {"action": "a1-a2", "ply": 0}).json()
    view = act(raw, mid, "actions", t[1], {"action": "l12-k12", "ply": 1}).json()
    assert view["draw_offer"]["waiting"] == [2] and view["ply"] == 2
    view = act(raw, mid, "draw/answer", t[2], {"accept": True}).json()
    assert view["result"] == [0.0, 0.0, 0.0] and view["termination"] == "agreement"


def test_a_decline_says_who_had_accepted_and_an_accepted_takeback_is_said(client):
    # three players: the seats that had accepted are told of a decline too (README "Draw
    # offers"); a takeback that happened is said until the next move, to everyone
    raw = client.raw
    mid, t = people(raw, record=three_players("Ga1,Bl12,Rf6 M G"))
    act(raw, mid, "draw", t[0])
    act(raw, mid, "draw/answer", t[1], {"accept": True})
    view = act(raw, mid, "draw/answer", t[2], {"accept": False}).json()
    assert view["draw_offer_ended"] == {"by": 0, "how": "declined", "seat": 2, "at_ply": 0, "accepted": [1]}
    for ply, (seat, move) in enumerate([(0, "a1-a2"), (1, "l12-k12"), (2, "f6-f7")]):
        act(raw, mid, "actions", t[seat], {"action": move, "ply": ply})
    view = act(raw, mid, "takeback", t[2]).json()
    assert view["takeback"]["to_ply"] == 2
    view = act(raw, mid, "takeback/answer", t[0], {"accept": True}).json()
    assert view["takeback"]["accepted"] == [0] and view["takeback_ended"] is None
    view = act(raw, mid, "takeback/answer", t[1], {"accept": True}).json()
    accepted = {"by": 2, "how": "accepted", "seat": 1, "at_ply": 2, "accepted": [0, 1]}
    assert view["ply"] == 2 and view["takeback"] is None and view["takeback_ended"] == accepted
    assert raw.get(f"/api/matches/{mid}").json()["takeback_ended"] == accepted  # a spectator too
    view = act(raw, mid, "actions", t[2], {"action": "f6-f7", "ply": 2}).json()
    assert view["takeback_ended"] is None  # said until the next move


def test_three_players_a_seat_the_rules_put_out_keeps_its_loss(client, tmp_path):
    # Slide Checkers §5: in a draw the survivors score 0, the eliminated -1; Red has no pieces
    from typer.testing import CliRunner

    from abstracta.cli import app as cli

    raw = client.raw
    mid, t = people(raw, record=three_players("Ga1,Bl12 M G"))
    view = act(raw, mid, "draw", t[0]).json()
    assert view["draw_offer"]["waiting"] == [1]  # Red is out: its answer is not asked
    for accept in (True, False):  # Red is told it is out, not that it made the offer
        r = act(raw, mid, "draw/answer", t[2], {"accept": accept})
        assert r.status_code == 403 and r.json()["i18n"]["key"] == "error.draw_out", r.json()
        assert "offered" not in r.json()["error"] and "still in the game" in r.json()["error"]
    r = act(raw, mid, "draw", t[2])
    assert r.status_code == 403 and r.json()["i18n"]["key"] == "error.draw_out"
    view = act(raw, mid, "draw/answer", t[1], {"accept": True}).json()
    assert view["result"] == [0.0, 0.0, -1.0] and view["termination"] == "agreement"
    record = raw.get(f"/api/matches/{mid}/record").json()
    path = tmp_path / "drawn.json"
    path.write_text(json.dumps(record))
    replay = CliRunner().invoke(cli, ["replay", str(path)])
    assert replay.exit_code == 0, replay.output
    said = " ".join(replay.output.split())
    assert "result: [0.0, 0.0, -1.0] (drawn by agreement, offered by Green (seat 0); " \
           "Green (seat 0), Blue (seat 1) draw)" in said, said
    # an imported record must give that result
    bad = {**record, "result": [0.0, 0.0, 0.0]}
    r = raw.post("/api/matches/import", json={"record": bad})
    assert r.status_code == 422 and "[0.0, 0.0, -1.0]" in r.json()["error"]


def test_the_offer_is_pushed_to_every_websocket(client):
    raw = client.raw
    mid, t = people(raw)
    with raw.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.send_json({"tokens": [t[1]]})
        first = ws.receive_json()
        assert first["draw_offer"] is None
        act(raw, mid, "draw", t[0])
        pushed = ws.receive_json()
        assert pushed["draw_offer"] == {"by": 0, "at_ply": 0, "accepted": [], "waiting": [1]}
        act(raw, mid, "draw/answer", t[1], {"accept": True})
        pushed = ws.receive_json()
        assert pushed["termination"] == "agreement" and pushed["draw_offer"] is None


def test_the_offer_is_kept_with_the_match():
    live = Live(draw={"by": 1, "at_ply": 4, "accepted": [2]})
    assert Live.from_json(live.to_json()).draw == {"by": 1, "at_ply": 4, "accepted": [2]}
    assert Live.from_json(json.dumps({"clock": None})).draw is None  # stored before draw offers


def test_an_imported_draw_needs_two_seats_still_in_to_have_agreed_it(client):
    # a seat left alone (the others out of time or out of pieces) has won: the server ends the
    # game on time then (nobody is left to agree a draw with), so a record saying otherwise is refused
    raw = client.raw
    for start, tags in [("Ga1,Bl12,Rf6 M G", {"OutOfTime": "1,2"}),  # two seats out of time
                        ("Ga1,Bl12 M G", {"OutOfTime": "1"})]:       # Red out of pieces, Blue of time
        record = {**three_players(start), "tags": {**tags, "DrawOffered": "0"},
                  "result": [0.0, -1.0, -1.0], "termination": "agreement"}
        r = raw.post("/api/matches/import", json={"record": record})
        assert r.status_code == 422, r.json()
        assert "only seat 0 is still in" in r.json()["error"]
    # two players: a flag ends the game, so a draw agreed with a seat out of time never happened
    record = {"format": "abstracta-record", "version": 1, "game": "toy-nim", "options": {"stones": 9},
              "players": ["human", "human"], "moves": ["1"], "tags": {"OutOfTime": "1"},
              "result": [0.0, 0.0], "termination": "agreement"}
    r = raw.post("/api/matches/import", json={"record": record})
    assert r.status_code == 422 and "only seat 0 is still in" in r.json()["error"]
    # with one seat out of time two are still in: that draw stands
    record = {**three_players("Ga1,Bl12,Rf6 M G"), "tags": {"OutOfTime": "2", "DrawOffered": "1"},
              "result": [0.0, 0.0, -1.0], "termination": "agreement"}
    r = raw.post("/api/matches/import", json={"record": record})
    assert r.status_code == 201 and r.json()["result"] == [0.0, 0.0, -1.0] and r.json()["out_of_time"] == [2]


def test_a_pending_offer_and_an_agreed_draw_survive_a_restart(db_url):
    from apiutil import make_app
    from fastapi.testclient import TestClient

    with TestClient(make_app(db_url, bot_workers=0, rate_limits=False)) as raw:
        mid, t = people(raw)
        act(raw, mid, "actions", t[0], {"action": "1", "ply": 0})
        act(raw, mid, "draw", t[0])
    with TestClient(make_app(db_url, bot_workers=0, rate_limits=False)) as raw:  # rebuilt from the database
        view = raw.get(f"/api/matches/{mid}", headers=bearer(t[1])).json()
        assert view["draw_offer"] == {"by": 0, "at_ply": 1, "accepted": [], "waiting": [1]}
        assert view["draw_offerable"] is False
        assert act(raw, mid, "draw/answer", t[1], {"accept": True}).json()["termination"] == "agreement"
    with TestClient(make_app(db_url, bot_workers=0, rate_limits=False)) as raw:
        view = raw.get(f"/api/matches/{mid}").json()
        assert (view["status"], view["result"], view["termination"], view["draw_offer"]) == \
            ("over", [0.0, 0.0], "agreement", None)
        record = raw.get(f"/api/matches/{mid}/record").json()
        assert record["tags"]["DrawOffered"] == "0" and record["moves"] == ["1"]
        assert act(raw, mid, "draw", t[1]).status_code == 409


def test_bad_bodies_are_refused_and_change_nothing(client):
    raw = client.raw
    mid, t = people(raw)
    json_type = {"content-type": "application/json"}
    for body in ({"x": 1}, [], "x", 1):
        r = act(raw, mid, "draw", t[0], body)
        assert r.status_code == 422 and "no body" in r.json()["error"]
    r = raw.post(f"/api/matches/{mid}/draw", content=b"[" * 1_100_000, headers={**bearer(t[0]), **json_type})
    assert r.status_code == 413
    assert raw.get(f"/api/matches/{mid}").json()["draw_offer"] is None
    act(raw, mid, "draw", t[0])
    for body, said in [(None, "Field required"), ({}, "accept: Field required"),
                       ({"accept": True, "seat": 1}, "seat: Extra inputs"), ({"accept": 1}, "valid boolean"),
                       ({"accept": "true"}, "valid boolean"), ({"accept": None}, "valid boolean"),
                       ([True], "valid dictionary"), (True, "valid dictionary")]:
        r = act(raw, mid, "draw/answer", t[1], body)
        assert r.status_code == 422 and said in r.json()["error"], (body, r.json())
    r = raw.post(f"/api/matches/{mid}/draw/answer", content=b'{"accept": true, "pad": "' + b"x" * 1_100_000 + b'"}',
                 headers={**bearer(t[1]), **json_type})
    assert r.status_code == 413
    view = raw.get(f"/api/matches/{mid}").json()
    assert view["status"] == "playing" and view["draw_offer"] == {"by": 0, "at_ply": 0, "accepted": [], "waiting": [1]}


def test_an_offer_shows_no_hidden_card(client):
    # the card game's hands are hidden: an offer changes the offer and nothing else a view shows
    raw = client.raw
    mid, t = people(raw, game="fibonacci-cards", options={"seed": "1", "first_player": "0"})
    eyes = {0: bearer(t[0]), 1: bearer(t[1]), None: {}}
    before = {seat: raw.get(f"/api/matches/{mid}", headers=h).json() for seat, h in eyes.items()}
    act(raw, mid, "draw", t[1])
    for seat, h in eyes.items():
        after = raw.get(f"/api/matches/{mid}", headers=h).json()
        changed = {k for k in after if after[k] != before[seat].get(k)}
        assert changed <= {"draw_offer", "draw_offerable", "revision"}, (seat, changed)
        assert after["draw_offer"] == {"by": 1, "at_ply": 0, "accepted": [], "waiting": [0]}


def test_an_accept_and_a_move_of_the_seat_to_answer_at_once_one_of_them_happens(client):
    import threading

    raw = client.raw
    for _ in range(4):
        mid, t = people(raw)
        act(raw, mid, "actions", t[0], {"action": "1", "ply": 0})
        act(raw, mid, "draw", t[0])
        answers = {}
        sends = {"accept": lambda: act(raw, mid, "draw/answer", t[1], {"accept": True}),
                 "move": lambda: act(raw, mid, "actions", t[1], {"action": "1", "ply": 1})}
        threads = [threading.Thread(target=lambda k=k, f=f: answers.__setitem__(k, f())) for k, f in sends.items()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        codes = {k: r.status_code for k, r in answers.items()}
        view = raw.get(f"/api/matches/{mid}").json()
        if codes["accept"] == 200:  # the draw first: the game is over, the move refused
            assert codes["move"] == 409 and (view["termination"], view["ply"]) == ("agreement", 1)
        else:  # the move first declined the offer
            assert codes == {"accept": 409, "move": 200}, codes
            assert (view["status"], view["ply"], view["draw_offer"]) == ("playing", 2, None)


def test_two_accepts_at_once_draw_the_game_once(client):
    import threading

    raw = client.raw
    mid, t = people(raw, record=three_players("Ga1,Bl12,Rf6 M G"))
    act(raw, mid, "draw", t[0])
    answers = []
    threads = [threading.Thread(target=lambda s=s: answers.append(act(raw, mid, "draw/answer", t[s], {"accept": True})))
               for s in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(r.status_code for r in answers) == [200, 200]
    view = raw.get(f"/api/matches/{mid}").json()
    assert (view["result"], view["termination"], view["draw_offer"]) == ([0.0, 0.0, 0.0], "agreement", None)
    assert raw.get(f"/api/matches/{mid}/record").json()["tags"]["DrawOffered"] == "0"


def test_a_decline_and_a_lapse_are_pushed_to_the_seats_and_the_spectators(client):
    raw = client.raw
    mid, t = people(raw)
    with raw.websocket_connect(f"/api/matches/{mid}/ws") as seat0, \
            raw.websocket_connect(f"/api/matches/{mid}/ws") as watcher:
        seat0.send_json({"tokens": [t[0]]})
        watcher.send_json({"tokens": []})
        for ws in (seat0, watcher):
            assert ws.receive_json()["draw_offer"] is None
        act(raw, mid, "draw", t[1])
        for ws in (seat0, watcher):
            assert ws.receive_json()["draw_offer"] == {"by": 1, "at_ply": 0, "accepted": [], "waiting": [0]}
        act(raw, mid, "draw/answer", t[0], {"accept": False})
        for ws in (seat0, watcher):
            pushed = ws.receive_json()
            assert (pushed["draw_offer"], pushed["ply"], pushed["status"]) == (None, 0, "playing")
            assert pushed["draw_offer_ended"] == {"by": 1, "how": "declined", "seat": 0, "at_ply": 0, "accepted": []}
        act(raw, mid, "draw", t[0])  # seat 1 waits three turns of its own to offer again
        for ws in (seat0, watcher):
            assert ws.receive_json()["draw_offer"]["by"] == 0
        act(raw, mid, "actions", t[0], {"action": "1", "ply": 0})  # the offerer plays on: it stands
        for ws in (seat0, watcher):
            assert ws.receive_json()["draw_offer"]["by"] == 0
        act(raw, mid, "actions", t[1], {"action": "1", "ply": 1})  # seat 1 plays on: declined
        for ws in (seat0, watcher):
            pushed = ws.receive_json()
            assert (pushed["draw_offer"], pushed["ply"]) == (None, 2)
            assert pushed["draw_offer_ended"] == {"by": 0, "how": "lapsed", "seat": 1, "at_ply": 2, "accepted": []}


def test_a_flag_ends_the_offer_and_the_draw_then_agreed_keeps_the_flagged_seat_lost(client, monkeypatch):
    clock = hand_clock(monkeypatch)
    raw = client.raw
    mid, t = three_on_a_clock(raw)
    assert raw.get(f"/api/matches/{mid}").json()["clock"]["running"] == 0
    act(raw, mid, "draw", t[1])
    view = act(raw, mid, "draw/answer", t[2], {"accept": True}).json()
    assert view["draw_offer"] == {"by": 1, "at_ply": 0, "accepted": [2], "waiting": [0]}
    clock.now += 61  # Green's flag falls: Green is out, and who must agree changed
    view = raw.get(f"/api/matches/{mid}").json()
    assert view["out_of_time"] == [0] and view["status"] == "playing" and view["draw_offer"] is None
    # nobody declined it: no "declined" note, and no wait before Blue offers again
    assert view["draw_offer_ended"] == {"by": 1, "how": "void", "seat": None, "at_ply": 0, "accepted": [2]}
    r = act(raw, mid, "draw/answer", t[2], {"accept": True})
    assert r.status_code == 409 and r.json()["i18n"]["key"] == "error.no_draw_offer"
    r = act(raw, mid, "draw", t[0])
    assert r.status_code == 403 and r.json()["i18n"]["key"] == "error.draw_out"
    assert act(raw, mid, "draw", t[1]).json()["draw_offer"]["waiting"] == [2]
    view = act(raw, mid, "draw/answer", t[2], {"accept": True}).json()
    assert (view["result"], view["termination"], view["out_of_time"]) == ([-1.0, 0.0, 0.0], "agreement", [0])
    record = raw.get(f"/api/matches/{mid}/record").json()
    assert record["tags"]["OutOfTime"] == "0" and record["tags"]["DrawOffered"] == "1"
    again = raw.post("/api/matches/import", json={"record": record}).json()
    assert (again["result"], again["termination"], again["out_of_time"]) == ([-1.0, 0.0, 0.0], "agreement", [0])


def test_a_draw_agreed_here_or_imported_is_not_taken_back(client):
    # the players ended it, not the rules (records.DECIDED): an undo or a takeback would bring back
    # a game both had agreed to stop, as after a resignation
    raw = client.raw
    mid, t = people(raw)
    act(raw, mid, "actions", t[0], {"action": "1", "ply": 0})
    act(raw, mid, "draw", t[1])
    assert act(raw, mid, "draw/answer", t[0], {"accept": True}).json()["termination"] == "agreement"
    for path in ("undo", "takeback"):
        r = act(raw, mid, path, t[0])
        assert r.status_code == 409 and "the game was drawn by agreement; it cannot be taken back" in r.json()["error"]
    record = raw.get(f"/api/matches/{mid}/record").json()
    imported = raw.post("/api/matches/import", json={"record": record}).json()
    assert (imported["termination"], imported["result"]) == ("agreement", [0.0, 0.0])
    r = act(raw, imported["id"], "undo", imported["tokens"][0]["token"])
    assert r.status_code == 409 and "drawn by agreement" in r.json()["error"]
