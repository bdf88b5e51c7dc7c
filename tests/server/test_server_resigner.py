"""The match keeps the seat that resigned and the seats out of time (the record's ``Resigned`` and
``OutOfTime`` tags): in a 3-4 player game the seats the rules put out lost as well, so the result
does not tell who resigned."""

from __future__ import annotations

import json

import pytest
from apiutil import Creator, make_app
from fastapi.testclient import TestClient

#: three players, Green (0) with one piece that Blue's b2*d4r takes (out by the rules, §5)
GREEN_TAKEN = "Gc3,Bb2,Bk11,Rl12,Rk12 M B"
#: three players, Red (2) without pieces from the start; Green to move
RED_OUT = "Ga1,Gb2,Bk11,Bl12 M G"


def three(start: str, moves=()) -> dict:
    return {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "options": {"players": 3},
            "start": start, "moves": list(moves)}


def play_and_resign(client, start, moves, seat):
    view = client.post("/api/matches/import", json={"record": three(start), "take": "all"}).json()
    mid = view["id"]
    for move in moves:
        view = client.post(f"/api/matches/{mid}/actions", json={"action": move, "ply": view["ply"]}).json()
    return client.post(f"/api/matches/{mid}/resign", json={"seat": seat}).json()


@pytest.mark.parametrize("start, moves, seat, result", [
    (GREEN_TAKEN, ["b2*d4r"], 1, [-1.0, -1.0, 1.0]),  # the resigner after the seat out
    (GREEN_TAKEN, ["b2*d4r"], 2, [-1.0, 1.0, -1.0]),
    (RED_OUT, [], 0, [-1.0, 1.0, -1.0]),  # the resigner before the seat out
    (RED_OUT, [], 1, [1.0, -1.0, -1.0]),
])
def test_the_view_and_the_record_name_the_seat_that_resigned(client, start, moves, seat, result):
    view = play_and_resign(client, start, moves, seat)
    assert view["result"] == result and view["termination"] == "resignation"
    assert view["resigned"] == seat and view["out_of_time"] == []
    record = client.get(f"/api/matches/{view['id']}/record").json()
    assert record["tags"]["Resigned"] == str(seat) and "OutOfTime" not in record["tags"]
    (row,) = client.get("/api/matches").json()
    assert row["resigned"] == seat and row["out_of_time"] == []


def test_a_resignation_after_an_elimination_by_a_move(client):
    view = client.post("/api/matches/import", json={"record": three(GREEN_TAKEN), "take": "all"}).json()
    view = client.post(f"/api/matches/{view['id']}/actions", json={"action": "b2*d4r", "ply": 0}).json()
    assert [e["seat"] for e in view["struct"]["eliminated"]] == [0] and view["status"] == "playing"
    assert view["resigned"] is None
    view = client.post(f"/api/matches/{view['id']}/resign", json={"seat": 1}).json()
    assert view["resigned"] == 1 and view["result"] == [-1.0, -1.0, 1.0]


def test_two_players_a_resignation_names_the_loser(client):
    for seat in (0, 1):
        view = client.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"]}).json()
        view = client.post(f"/api/matches/{view['id']}/resign", json={"seat": seat}).json()
        assert view["resigned"] == seat and view["result"][seat] == -1.0 and view["result"][1 - seat] == 1.0
        assert client.get(f"/api/matches/{view['id']}/record").json()["tags"]["Resigned"] == str(seat)
    view = client.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"]}).json()
    assert view["resigned"] is None and view["out_of_time"] == []


def _strip_tags(db_url, mid):
    """Make the stored match look as an earlier version stored it: no Resigned/OutOfTime tags."""
    from abstracta.server.storage import Store

    store = Store(db_url)
    row = store.get(mid)
    record = json.loads(row.record)
    record["tags"].pop("Resigned")
    record["tags"].pop("OutOfTime", None)
    store.commit(mid, row.revision, status=row.status, plies=row.plies, turns=row.turns, keep=0,
                 record_json=json.dumps(record))
    store.dispose()


def test_a_match_stored_before_the_tags_still_reads_sensibly(db_url):
    with TestClient(make_app(db_url, rate_limits=False)) as raw:
        keeper = c = Creator(raw)
        three_players = play_and_resign(c, GREEN_TAKEN, ["b2*d4r"], 1)["id"]
        view = c.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"]}).json()
        two_players = c.post(f"/api/matches/{view['id']}/resign", json={"seat": 1}).json()["id"]
    for mid in (three_players, two_players):
        _strip_tags(db_url, mid)
    with TestClient(make_app(db_url, rate_limits=False)) as raw:
        c = Creator(raw)
        c.tokens = keeper.tokens
        rows = {r["id"]: r for r in c.get("/api/matches").json()}
        # the list replays nothing: two losers of three do not tell which one resigned
        assert rows[three_players]["resigned"] is None and rows[three_players]["result"] == [-1.0, -1.0, 1.0]
        assert rows[two_players]["resigned"] == 1
        # the match replays its moves: Green was out by the rules, so Blue resigned
        view = c.get(f"/api/matches/{three_players}").json()
        assert view["status"] == "over" and view["resigned"] == 1 and view["out_of_time"] == []
        assert c.get(f"/api/matches/{three_players}/record").json()["tags"]["Resigned"] == "1"
        assert c.get(f"/api/matches/{two_players}").json()["resigned"] == 1


@pytest.mark.parametrize("tags, words", [
    ({"Resigned": "2"}, "a seat the result has at -1"),
    ({"Resigned": "0,1"}, "a seat the result has at -1"),
    ({"Resigned": "Blue"}, "a seat the result has at -1"),
    ({"OutOfTime": "3"}, "seats that ran out of time"),
    ({"OutOfTime": "2"}, "none of them a winner"),
])
def test_an_imported_record_with_a_wrong_ending_tag_is_refused(client, tags, words):
    record = {**three(RED_OUT), "result": [-1.0, -1.0, 1.0], "termination": "resignation", "tags": tags}
    r = client.post("/api/matches/import", json={"record": record, "take": "all"})
    assert r.status_code == 422 and words in r.json()["error"], r.json()
    assert client.get("/api/matches").json() == []


def test_an_imported_record_keeps_its_resigner_or_infers_it(client):
    record = {**three(RED_OUT), "result": [-1.0, 1.0, -1.0], "termination": "resignation"}
    view = client.post("/api/matches/import", json={"record": record, "take": "all"}).json()
    assert view["resigned"] == 0  # Red was out by the rules: Green resigned
    view = client.post("/api/matches/import", json={"record": {**record, "tags": {"Resigned": "0"}}}).json()
    assert view["resigned"] == 0
    playing = {**three(RED_OUT), "tags": {"Resigned": "0"}}
    r = client.post("/api/matches/import", json={"record": playing})
    assert r.status_code == 422 and "did not end by resignation" in r.json()["error"]


def test_a_game_downloaded_after_a_flag_and_played_on_in_the_terminal_imports_again(client, tmp_path):
    # the server's record of a 3-player game that goes on after Green's flag says OutOfTime "0"
    # and gives Green's seat to the computer; `play --resume` played it on without a clock, where
    # Green is a seat like any other, and kept the tag: once Red lost its last piece and Blue
    # resigned, Green won, and the server refused the terminal's record ('OutOfTime' ... none of
    # them a winner). The terminal drops the tag: it has no clock, and nobody is out on it
    from typer.testing import CliRunner

    from abstracta import Record
    from abstracta.cli import app as cli

    downloaded = Record(game="slide-checkers", options={"players": 3}, start="Rc3,Bb2,Bk11,Gl12,Gk12 M B",
                        players=["level:1", "human", "human"], tags={"OutOfTime": "0"})
    path = tmp_path / "downloaded.json"
    path.write_text(downloaded.to_json())
    played = CliRunner().invoke(cli, ["play", "--resume", str(path), "--records", str(tmp_path / "new")],
                                input="b2*d4r\nresign\ny\n")
    assert played.exit_code == 0, played.output
    line = next(l for l in played.output.splitlines() if l.startswith("record saved: "))
    record = json.loads(open(line.removeprefix("record saved: ").strip()).read())
    assert record["result"] == [1.0, -1.0, -1.0] and record["termination"] == "resignation", record
    assert record["tags"].get("Resigned") == "1" and "OutOfTime" not in record["tags"]
    r = client.post("/api/matches/import", json={"record": record})
    assert r.status_code == 201, r.json()
    assert r.json()["resigned"] == 1 and r.json()["out_of_time"] == []


#: three players, everyone with pieces; Green to move
ALL_IN = "Ga1,Gb2,Bk11,Bl12,Rf6 M G"


def test_an_imported_unfinished_record_keeps_the_seat_out_on_time(client):
    # the OutOfTime tag of a 3-4 player game that goes on was dropped: the seat came back in,
    # and a person's again, though its flag had fallen (the game goes on without it: README "Clocks")
    record = {**three(ALL_IN), "players": ["human", "human", "human"], "tags": {"OutOfTime": "1"}}
    view = client.post("/api/matches/import", json={"record": record, "take": "all"}).json()
    assert view["status"] == "playing" and view["out_of_time"] == [1], view
    assert view["players"] == ["human", "level:1", "human"]  # its moves the computer's, as after a flag
    assert client.get(f"/api/matches/{view['id']}/record").json()["tags"]["OutOfTime"] == "1"
    # the seat lost, whatever happens: Green's resignation leaves Red the winner
    over = client.post(f"/api/matches/{view['id']}/resign", json={"seat": 0}).json()
    assert over["result"] == [-1.0, -1.0, 1.0], over


@pytest.mark.parametrize("record, words", [
    # two players: a game lost on time is over, its result says so
    ({"format": "abstracta-record", "version": 1, "game": "fanorona", "options": {"size": "telo"}, "moves": [],
      "tags": {"OutOfTime": "1"}}, "a two-player game lost on time is over"),
    # every seat but one out: the last one won on time
    ({**three(ALL_IN), "tags": {"OutOfTime": "0,1"}}, "only seat 2 is still in"),
    ({**three(RED_OUT), "tags": {"OutOfTime": "1"}}, "only seat 0 is still in"),
    ({**three(ALL_IN), "tags": {"OutOfTime": "x"}}, "seats that ran out of time"),
])
def test_an_unfinished_record_that_a_flag_would_have_ended_is_refused_saying_why(client, record, words):
    r = client.post("/api/matches/import", json={"record": record, "take": "all"})
    assert r.status_code == 422 and words in r.json()["error"], r.json()
    assert client.get("/api/matches").json() == []


def test_a_seat_the_rules_put_out_cannot_resign(client):
    # Red had no pieces: it lost already. Its 'resignation' ended the game as a draw between Green
    # and Blue ([0, 0, -1]), a record Record.replay refuses (the resigner must be a seat still in)
    view = client.post("/api/matches/import", json={"record": three(RED_OUT), "take": "all"}).json()
    r = client.post(f"/api/matches/{view['id']}/resign", json={"seat": 2})
    assert r.status_code == 409 and r.json()["i18n"]["key"] == "error.resign_out", r.json()
    assert "already out" in r.json()["error"]
    again = client.get(f"/api/matches/{view['id']}").json()
    assert again["status"] == "playing" and again["result"] is None
    # a seat still in resigns as before: Blue wins
    over = client.post(f"/api/matches/{view['id']}/resign", json={"seat": 0}).json()
    assert over["result"] == [-1.0, 1.0, -1.0] and over["resigned"] == 0
