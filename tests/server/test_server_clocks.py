"""Clocks (issue 13 §3): the server keeps time; a flag falls by the README's rule."""

from __future__ import annotations

import json
import time as real_time

import pytest
from apiutil import bearer, hand_clock, wait_for


@pytest.fixture
def clock(monkeypatch):
    """The match service's clock, moved by hand (apiutil.FakeTime)."""
    return hand_clock(monkeypatch)


def people(raw, clock_spec, game="toy-nim", options=None, seats=("human", "human")):
    view = raw.post("/api/matches", json={"game": game, "options": options or {"stones": 20},
                                          "seats": list(seats), "clock": clock_spec}).json()
    tokens = {t["seat"]: t["token"] for t in view["tokens"]}
    for invite in view["invites"]:
        tokens[invite["seat"]] = raw.post("/api/invites/claim", json={"code": invite["code"]}).json()["tokens"][0]["token"]
    return view, tokens


def play(raw, mid, action, ply, token):
    r = raw.post(f"/api/matches/{mid}/actions", json={"action": action, "ply": ply}, headers=bearer(token))
    return r


def opened(raw, mid, tokens):
    """Each seat makes its first move, now: the clock starts after them (issue 42 §4). The view."""
    for _ in range(len(tokens)):
        view = raw.get(f"/api/matches/{mid}").json()
        mover = view["to_move"]
        legal = raw.get(f"/api/matches/{mid}", headers=bearer(tokens[mover])).json()["legal"]
        assert play(raw, mid, legal[0], view["ply"], tokens[mover]).status_code == 200
    return raw.get(f"/api/matches/{mid}").json()


def test_live_clock_runs_for_the_mover_and_adds_the_increment(client, clock):
    raw = client.raw
    view, tokens = people(raw, {"initial": 300, "increment": 3})
    mid = view["id"]
    # it waits for the invited player, then for each side's first move (which cost no time)
    assert view["clock"]["running"] is None and view["clock"]["left"] == [300.0, 300.0]
    view = raw.get(f"/api/matches/{mid}").json()
    assert view["clock"]["running"] is None and view["clock"]["control"] == {"initial": 300.0, "increment": 3.0}
    clock.now += 10
    view = play(raw, mid, "1", 0, tokens[0]).json()
    assert view["clock"]["left"] == [300.0, 300.0] and view["clock"]["running"] is None
    clock.now += 10
    view = play(raw, mid, "1", 1, tokens[1]).json()
    assert view["clock"]["left"] == [300.0, 300.0] and view["clock"]["running"] == 0
    clock.now += 10
    assert raw.get(f"/api/matches/{mid}").json()["clock"]["left"] == [290.0, 300.0]
    view = play(raw, mid, "1", 2, tokens[0]).json()
    assert view["clock"]["left"] == [293.0, 300.0] and view["clock"]["running"] == 1
    clock.now += 299.5
    assert raw.get(f"/api/matches/{mid}").json()["clock"]["left"] == [293.0, 0.5]
    clock.now += 1
    view = raw.get(f"/api/matches/{mid}").json()  # the server applies the flag by itself
    assert view["status"] == "over" and view["termination"] == "time" and view["result"] == [1.0, -1.0]
    assert view["out_of_time"] == [1] and view["resigned"] is None
    assert raw.get(f"/api/matches/{mid}/record").json()["tags"]["OutOfTime"] == "1"
    assert view["clock"]["left"] == [293.0, 0.0] and view["clock"]["running"] is None
    r = play(raw, mid, "1", 3, tokens[1])
    assert r.status_code == 409 and "over" in r.json()["error"]
    record = raw.get(f"/api/matches/{mid}/record").json()
    assert record["termination"] == "time" and record["result"] == [1.0, -1.0]


def test_flag_claim_and_correspondence_deadline(client, clock):
    raw = client.raw
    view, tokens = people(raw, {"per_turn": 86400})
    mid = view["id"]
    opened(raw, mid, tokens)
    clock.now += 86000
    r = raw.post(f"/api/matches/{mid}/flag", headers=bearer(tokens[1]))
    assert r.status_code == 409 and "seat 0 has 400.0 s left" in r.json()["error"]
    view = play(raw, mid, "2", 2, tokens[0]).json()
    assert view["clock"]["running"] == 1 and view["clock"]["left"] == [86400.0, 86400.0]
    clock.now += 86401
    view = raw.post(f"/api/matches/{mid}/flag", headers=bearer(tokens[0])).json()
    assert view["result"] == [1.0, -1.0] and view["termination"] == "time"
    assert raw.post(f"/api/matches/{mid}/flag").status_code == 401


def test_flag_is_a_draw_where_the_opponent_could_not_win(client, clock, monkeypatch):
    raw = client.raw
    view, tokens = people(raw, {"initial": 60})
    mid = view["id"]
    opened(raw, mid, tokens)
    state_class = type(client.app.state.service.load(mid).state)
    monkeypatch.setattr(state_class, "could_still_win", lambda self, seat: False, raising=False)
    clock.now += 61
    view = raw.get(f"/api/matches/{mid}").json()
    assert view["result"] == [0.0, 0.0] and view["termination"] == "time"
    assert view["out_of_time"] == [0]  # the result has no loser to tell it


def test_a_draw_on_time_imports_as_it_was_stored(client, clock, monkeypatch):
    # the record of a flag its opponent could not win from ([0, 0], termination 'time', OutOfTime
    # '0') was refused on import: 'a game ended by time needs a result with the loser at -1'
    raw = client.raw
    view, tokens = people(raw, {"initial": 60})
    mid = view["id"]
    opened(raw, mid, tokens)
    state_class = type(client.app.state.service.load(mid).state)
    monkeypatch.setattr(state_class, "could_still_win", lambda self, seat: False, raising=False)
    clock.now += 61
    view = raw.get(f"/api/matches/{mid}").json()
    downloaded = raw.get(f"/api/matches/{mid}/record").json()
    assert downloaded["result"] == [0.0, 0.0] and downloaded["tags"]["OutOfTime"] == "0"
    r = raw.post("/api/matches/import", json={"record": downloaded})
    assert r.status_code == 201, r.json()
    again = r.json()
    for key in ("status", "result", "termination", "out_of_time", "position", "ply"):
        assert again[key] == view[key], key
    # without the tag nothing says whose time ran out: still refused
    del downloaded["tags"]["OutOfTime"]
    r = raw.post("/api/matches/import", json={"record": downloaded})
    assert r.status_code == 422 and "the loser at -1" in r.json()["error"], r.json()


def test_no_clock_for_computer_seats(client, clock):
    view = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 20},
                                             "seats": ["human", "level:1"], "clock": {"initial": 60}}).json()
    assert view["clock"]["running"] is None  # until each side's first move, the computer's too
    mid = view["id"]
    clock.now += 5
    client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0})
    view = wait_for(client, mid, lambda v: v["ply"] == 2)
    assert view["clock"]["left"] == [60.0, 60.0] and view["clock"]["running"] == 0
    clock.now += 5
    client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 2})
    view = wait_for(client, mid, lambda v: v["ply"] == 4)
    assert view["clock"]["left"] == [55.0, 60.0] and view["clock"]["running"] == 0


def test_three_players_the_flagged_seat_is_out_and_the_game_goes_on(client, clock):
    raw = client.raw
    view, tokens = people(raw, {"initial": 60}, game="slide-checkers", options={"players": 3},
                          seats=("human", "human", "human"))
    mid = view["id"]
    assert opened(raw, mid, tokens)["clock"]["running"] == 0
    clock.now += 61
    view = raw.get(f"/api/matches/{mid}").json()
    assert view["status"] == "playing" and view["clock"]["out"] == [0] and view["out_of_time"] == [0]
    assert view["players"] == ["level:1", "human", "human"]
    # the computer moved for the seat that is out; the next person's clock runs
    deadline = real_time.time() + 10
    while view["to_move"] == 0 and real_time.time() < deadline:
        real_time.sleep(0.02)
        view = raw.get(f"/api/matches/{mid}").json()
    assert view["to_move"] == 1 and view["clock"]["running"] == 1 and view["ply"] >= 4
    legal = raw.get(f"/api/matches/{mid}", headers=bearer(tokens[1])).json()["legal"]
    assert play(raw, mid, legal[0], view["ply"], tokens[0]).status_code == 403
    clock.now += 61
    view = raw.get(f"/api/matches/{mid}").json()
    assert view["clock"]["out"] == [0, 1] and view["out_of_time"] == [0, 1]
    assert view["status"] == "over" and view["result"] == [-1.0, -1.0, 1.0] and view["termination"] == "time"
    assert raw.get(f"/api/matches/{mid}/record").json()["tags"]["OutOfTime"] == "0,1"


@pytest.mark.parametrize("spec, words", [
    ({"initial": 0}, "clock.initial"),
    ({"per_turn": -5}, "clock.per_turn"),
    ({"minutes": 5}, "not a time control"),
    ({"initial": 10 ** 9}, "clock.initial"),
])
def test_bad_clocks(client, spec, words):
    r = client.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"], "clock": spec})
    assert r.status_code == 422 and words in r.json()["error"]


def test_a_flag_leaves_the_last_seat_in_play_the_winner(client, clock):
    # four players, Blue and Red eliminated by the rules: Green's flag leaves Yellow alone
    raw = client.raw
    record = {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "options": {"players": 4},
              "start": "Ga1,Gb2,Yk11,Yl12 M G", "moves": []}
    view = raw.post("/api/matches/import", json={"record": record, "clock": {"initial": 60}}).json()
    tokens = {t["seat"]: t["token"] for t in view["tokens"]}
    for invite in view["invites"]:
        tokens[invite["seat"]] = raw.post("/api/invites/claim", json={"code": invite["code"]}).json()["tokens"][0]["token"]
    mid = view["id"]
    assert raw.get(f"/api/matches/{mid}").json()["clock"]["running"] == 0
    clock.now += 61
    view = raw.get(f"/api/matches/{mid}").json()
    assert view["status"] == "over" and view["result"] == [-1.0, -1.0, -1.0, 1.0] and view["termination"] == "time"
    # Blue and Red lost by the rules, not on time
    assert view["out_of_time"] == [0]


@pytest.mark.parametrize("mover", ["computer", "person"])
def test_a_move_that_leaves_one_seat_in_play_after_a_flag_ends_the_game(client, clock, mover):
    # three players: Red (2) has one piece, on c3, which either of Blue's moves (b2*d4r, b2*d4e)
    # takes. Blue's flag falls first ("computer": the computer then moves for Blue) or Green's
    # ("person": Blue moves itself): Red's last piece gone, one seat is left neither out of time
    # nor without pieces, and it wins at once, as when a flag leaves it alone (README "Clocks");
    # the game went on, and the last seat played against the computer moving for the seat out
    raw = client.raw
    start = "Rc3,Bb2,Bk11,Gl12,Gk12 M B" if mover == "computer" else "Rc3,Bb2,Bk11,Gl12,Gk12 M G"
    record = {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "options": {"players": 3},
              "start": start, "moves": []}
    view = raw.post("/api/matches/import", json={"record": record, "take": "all", "clock": {"initial": 60}}).json()
    mid, tokens = view["id"], {t["seat"]: t["token"] for t in view["tokens"]}
    flagged, left = (1, 0) if mover == "computer" else (0, 1)
    assert raw.get(f"/api/matches/{mid}").json()["clock"]["running"] == flagged
    clock.now += 61
    view = raw.get(f"/api/matches/{mid}").json()
    assert view["out_of_time"] == [flagged] and view["status"] == "playing"
    if mover == "person":
        view = wait_for(client, mid, lambda v: v["to_move"] == 1)
        assert play(raw, mid, "b2*d4r", view["ply"], tokens[1]).status_code == 200
    view = wait_for(client, mid, lambda v: v["status"] == "over" or v["struct"]["eliminated"])
    assert [e["seat"] for e in view["struct"]["eliminated"]] == [2]
    assert view["status"] == "over" and view["termination"] == "time", view
    assert view["result"] == [1.0 if i == left else -1.0 for i in range(3)] and view["out_of_time"] == [flagged]


def test_a_resignation_after_a_flag_names_the_resigner_in_the_view_and_the_record(client, clock, tmp_path):
    # three players: Green's flag puts it out (the position does not show it), then Blue resigns;
    # two seats lost and Red wins: only the stored seat says who resigned
    from typer.testing import CliRunner

    from abstracta.cli import app as cli

    raw = client.raw
    view, tokens = people(raw, {"initial": 60}, game="slide-checkers", options={"players": 3},
                          seats=("human", "human", "human"))
    mid = view["id"]
    assert opened(raw, mid, tokens)["clock"]["running"] == 0
    clock.now += 61
    assert raw.get(f"/api/matches/{mid}").json()["clock"]["out"] == [0]
    view = raw.post(f"/api/matches/{mid}/resign", json={"seat": 1}, headers=bearer(tokens[1])).json()
    assert view["result"] == [-1.0, -1.0, 1.0] and view["termination"] == "resignation"
    assert view["resigned"] == 1 and view["out_of_time"] == [0]
    record = raw.get(f"/api/matches/{mid}/record").json()
    assert record["tags"]["Resigned"] == "1" and record["tags"]["OutOfTime"] == "0"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    replay = CliRunner().invoke(cli, ["replay", str(path)])
    assert replay.exit_code == 0, replay.output
    assert "(Blue (seat 1) resigned; Red (seat 2) wins)" in replay.output


def test_a_game_the_rules_ended_after_a_flag_imports_as_it_was_played(client, clock, tmp_path):
    # three players, no jump for 99 turns: Green's flag falls, the computer's step for Green is the
    # 100th turn without a jump and the rules draw the game; Green lost on time whatever the
    # rules say, so the server stores [-1, 0, 0] with termination 'time'. The downloaded record
    # was refused on import ("the game ended by the rules after ply 1; use 'normal'"), which
    # would have made it a draw for Green too
    from typer.testing import CliRunner

    from abstracta.cli import app as cli

    raw = client.raw
    record = {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "options": {"players": 3},
              "start": "Bb2,Gl12,Rf6 M G nj=99", "moves": []}
    view = raw.post("/api/matches/import", json={"record": record, "take": "all", "clock": {"initial": 60}}).json()
    mid = view["id"]
    clock.now += 61
    view = wait_for(client, mid, lambda v: v["status"] == "over")
    assert view["result"] == [-1.0, 0.0, 0.0] and view["termination"] == "time" and view["out_of_time"] == [0]
    assert view["struct"]["end"] is not None  # the rules ended it: 100 turns without a jump
    downloaded = raw.get(f"/api/matches/{mid}/record").json()
    r = raw.post("/api/matches/import", json={"record": downloaded})
    assert r.status_code == 201, r.json()
    again = r.json()
    for key in ("status", "result", "termination", "out_of_time", "resigned", "position", "ply"):
        assert again[key] == view[key], key
    copy = raw.get(f"/api/matches/{again['id']}/record").json()
    for key in ("moves", "result", "termination", "players", "start"):
        assert copy[key] == downloaded[key], key
    assert copy["tags"]["OutOfTime"] == "0"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(copy))
    replay = CliRunner().invoke(cli, ["replay", str(path)])
    assert replay.exit_code == 0, replay.output
    assert "(Green (seat 0) ran out of time; Blue (seat 1), Red (seat 2) draw)" in " ".join(replay.output.split())


@pytest.mark.parametrize("result, tags, words", [
    # the seat out of time cannot share the rules' draw
    ([0.0, 0.0, 0.0], {"OutOfTime": "0"}, "[-1.0, 0.0, 0.0]"),
    ([-1.0, 1.0, 0.0], {"OutOfTime": "0"}, "[-1.0, 0.0, 0.0]"),
    # nobody ran out of time: the rules' result stands
    ([-1.0, 0.0, 0.0], {}, "use 'normal'"),
])
def test_a_game_the_rules_ended_with_termination_time_needs_the_rules_result_with_the_flags(client, result, tags, words):
    record = {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "options": {"players": 3},
              "start": "Bb2,Gl12,Rf6 M G nj=99", "moves": ["l12-k12"], "result": result, "termination": "time",
              "tags": tags}
    r = client.post("/api/matches/import", json={"record": record})
    assert r.status_code == 422 and words in r.json()["error"], r.json()
    assert client.get("/api/matches").json() == []
