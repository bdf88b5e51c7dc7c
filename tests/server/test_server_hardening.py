"""What a hostile or careless client tried, and what the API now does about it: hidden cards,
WebSocket frames, body sizes, strict validation, undo of finished games, deletion."""

from __future__ import annotations

import re
import time

import pytest
from apiutil import wait_for
from starlette.websockets import WebSocketDisconnect

import abstracta
from abstracta.core.description import shell_english

CARD = re.compile(r"\b(?:[2-9TJQKA][cdhs])\b")


def create(client, game="toy-nim", options=None, seats=("human", "human")):
    r = client.post("/api/matches", json={"game": game, "options": options or {}, "seats": list(seats)})
    assert r.status_code == 201, r.text
    return r.json()




def play(client, mid, action, ply, **kw):
    return client.post(f"/api/matches/{mid}/actions", json={"action": action, "ply": ply, **kw})




# --- 1. hidden information -----------------------------------------------------------------
def hidden_cards(client, mid) -> set[str]:
    """The cards the person at seat 0 must not know: the computer's hand and the stock."""
    state = client.app.state.service.load(mid).state
    piles, hand0, hand1, stock, _ = [p.strip() for p in state.to_text().split("|")]
    return set(CARD.findall(hand1)) | set(CARD.findall(stock))


def test_cards_game_leaks_nothing_while_running(client):
    view = create(client, "fibonacci-cards", {"first_player": "0"}, ("human", "level:1"))
    mid = view["id"]
    assert view["seed"] is None
    for _ in range(6):  # a few turns of the person and the computer
        view = wait_for(client, mid, lambda v: v["human_to_move"] or v["status"] == "over")
        if view["status"] == "over":
            break
        view = play(client, mid, view["legal"][0], view["ply"]).json()
    view = wait_for(client, mid, lambda v: not v["thinking"])
    if view["status"] == "over":
        pytest.skip("the game ended too soon to look for leaks")
    secret = hidden_cards(client, mid)
    state = client.app.state.service.load(mid).state
    responses = [
        client.get(f"/api/matches/{mid}").json(),
        client.get(f"/api/matches/{mid}?seat=0").json(),
        client.get(f"/api/matches/{mid}/positions").json(),
        client.get("/api/matches").json(),
    ]
    assert responses[0]["position"] == state.observation(0)
    for data in responses:
        text = str(data)
        assert not secret & set(CARD.findall(text)), (secret & set(CARD.findall(text)), text)
        assert "seed" not in data or data.get("seed") is None
    r = client.get(f"/api/matches/{mid}/record")
    assert r.status_code == 409 and "hidden cards" in r.json()["error"] and "seed" not in r.text
    assert client.get(f"/api/matches/{mid}/record?download=true").status_code == 409
    assert client.get(f"/api/matches/{mid}?seat=1").status_code == 403
    assert client.get(f"/api/matches/{mid}/positions?seat=1").status_code == 403
    with client.websocket_connect(f"/api/matches/{mid}/ws?seat=1") as ws:  # the URL names no seat; tokens sent
        pushed = ws.receive_json()
        assert pushed["viewer"] == 0 and not secret & set(CARD.findall(str(pushed)))
    # the stored record keeps the seed; once over, the record (with the seed) is available
    assert abstracta.Record.from_json(client.app.state.service.store.get(mid).record).seed is not None
    client.post(f"/api/matches/{mid}/resign", json={"seat": 0})
    r = client.get(f"/api/matches/{mid}/record")
    assert r.status_code == 200 and isinstance(r.json()["seed"], int)
    # a finished game reveals everything, to spectators too
    assert client.raw.get(f"/api/matches/{mid}").json()["position"] == state.to_text()


def test_fibonacci_cards_variant_record_hidden_standard_not(client):
    view = create(client, "fibonacci", {"variant": "cards", "seed": "7"}, ("human", "level:1"))
    assert view["seed"] is None and "rng=" not in view["position"]
    assert client.get(f"/api/matches/{view['id']}/record").status_code == 409
    # the standard variant has no chance: a seed given to it is normalised away
    view = create(client, "fibonacci", {"seed": "7"}, ("human", "human"))
    assert view["seed"] is None
    r = client.get(f"/api/matches/{view['id']}/record")
    assert r.status_code == 200 and r.json()["seed"] is None


# --- 3. WebSocket frames ---------------------------------------------------------------------
def count_loads(client):
    service = client.app.state.service
    calls = []
    original = service.load

    def counting(mid):
        calls.append(time.monotonic())
        return original(mid)

    service.load = counting
    return calls


@pytest.mark.parametrize("frame", ["bytes", "long-text"])
def test_websocket_bad_frame_closes_and_handler_ends(client, frame):
    mid = create(client)["id"]
    calls = count_loads(client)
    with client.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        assert ws.receive_json()["ply"] == 0
        ws.send_text("ping")  # short text is allowed (keep-alive)
        if frame == "bytes":
            ws.send_bytes(b"\x00\xff" * 10)
        else:
            ws.send_text("x" * 5000)
        with pytest.raises(WebSocketDisconnect) as info:
            while True:
                ws.receive_json()
        assert info.value.code == 1003
    time.sleep(0.5)
    settled = len(calls)
    time.sleep(0.6)
    assert len(calls) == settled, "the handler still polls after the socket closed"


def test_websocket_handler_ends_on_disconnect(client):
    mid = create(client)["id"]
    calls = count_loads(client)
    with client.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.receive_json()
    time.sleep(0.5)
    settled = len(calls)
    time.sleep(0.6)
    assert len(calls) == settled


# --- 5. request size ---------------------------------------------------------------------------
def test_body_size_limit(client):
    big = {"game": "toy-nim", "options": {}, "seats": ["human", "human"], "pad": "x" * 1_100_000}
    r = client.post("/api/matches", json=big)
    assert r.status_code == 413 and "too large" in r.json()["error"]

    def chunks():
        for _ in range(40):
            yield b"x" * 50_000

    r = client.post("/api/matches", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["error"]
    # a record import may be up to 2 MB: 1.5 MB passes the size check (and fails as a record)
    record = {"game": "toy-nim", "moves": [], "tags": {"note": "x" * 1_500_000}}
    r = client.post("/api/matches/import", json={"record": record})
    assert r.status_code == 422 and "tags" in r.json()["error"] and len(r.json()["error"]) < 300
    r = client.post("/api/matches/import", json={"record": dict(record, tags={"n": "x" * 2_100_000})})
    assert r.status_code == 413


# --- 6. validation ----------------------------------------------------------------------------
# 0.0 is a JSON integer (JSON Schema's "integer", which the schema declares): read as 0 (issue 38
# item 10; test_server_edges.py)
@pytest.mark.parametrize("ply", ["0", False, 0.5, None, [0]])
def test_ply_must_be_a_json_integer(client, ply):
    mid = create(client)["id"]
    r = play(client, mid, "1", ply)
    assert r.status_code == 422 and "ply" in r.json()["error"]
    assert client.get(f"/api/matches/{mid}").json()["ply"] == 0


@pytest.mark.parametrize("seat", ["0", True, 0.5])
def test_body_seat_must_be_an_integer(client, seat):
    mid = create(client)["id"]
    r = play(client, mid, "1", 0, seat=seat)
    assert r.status_code == 422 and "seat" in r.json()["error"]


def test_query_and_body_seat(client):
    mid = create(client)["id"]
    r = client.post(f"/api/matches/{mid}/actions?seat=0", json={"action": "1", "ply": 0, "seat": 1})
    assert r.status_code == 422 and "differ" in r.json()["error"]
    r = client.post(f"/api/matches/{mid}/actions?seat=1", json={"action": "1", "ply": 0})
    assert r.status_code == 409 and "seat 0's turn" in r.json()["error"]
    r = play(client, mid, "1", 0, seat=1)
    assert r.status_code == 409
    r = client.post(f"/api/matches/{mid}/actions?seat=0", json={"action": "1", "ply": 0, "seat": 0})
    assert r.status_code == 200 and r.json()["ply"] == 1


@pytest.mark.parametrize("options, words", [
    ({"stones": None}, "option stones: "),
    ({"stones": ""}, "option stones: "),
    ({"stones": 5.5}, "option stones: "),
    ({"stones": "9" * 300}, "too long"),
    ({"k" * 300: 1}, "not an option name"),
])
def test_option_values_refused(client, options, words):
    r = client.post("/api/matches", json={"game": "toy-nim", "options": options})
    assert r.status_code == 422 and words in r.json()["error"], r.text
    assert len(r.json()["error"]) < 300


@pytest.mark.parametrize("seed", [2**64, "18446744073709551616", -1, "-1"])
def test_seed_range(client, seed):
    r = client.post("/api/matches", json={"game": "fibonacci-cards", "options": {"seed": seed}})
    assert r.status_code == 422 and "seed" in r.json()["error"], r.text


def test_largest_seed_accepted(client):
    create(client, "fibonacci-cards", {"seed": 2**64 - 1}, ("human", "level:1"))


BASE = {"format": "abstracta-record", "version": 1, "game": "toy-nim", "options": {"stones": 9},
        "players": ["human", "human"], "moves": ["1", "2"]}


@pytest.mark.parametrize("change, words", [
    ({"players": ["human", "level:9"]}, "seat 1 in the record's players: 'level:9'"),
    ({"players": ["human"]}, "1 seat is given in the record's players"),
    ({"players": ["human", "human", "human"]}, "3 seats are given in the record's players"),
    # the domain's rule (Record.replay), in its words, as abstracta replay says it
    ({"moves": ["3", "3", "3"], "result": [1.0, -1.0], "termination": "resignation"},
     "termination 'resignation', but the game ended by the rules after ply 3; use 'normal'"),
    ({"termination": "normal"}, "the record's termination"),
    ({"seed": -5}, "seed"),
    ({"seed": 2**64}, "seed"),
    ({"tags": {"t" * 100: "x"}}, "the record's tags"),
])
def test_import_refusals(client, change, words):
    r = client.post("/api/matches/import", json={"record": dict(BASE, **change)})
    assert r.status_code == 422 and words in r.json()["error"], r.text


def test_import_normalisations(client):
    # no players listed: people at every seat; a seed on a game without chance: dropped
    view = client.post("/api/matches/import", json={"record": dict(BASE, players=[], seed=5)}).json()
    assert view["players"] == ["human", "human"] and view["seed"] is None
    assert client.get(f"/api/matches/{view['id']}/record").json()["seed"] is None
    # an abandoned game continues here
    view = client.post("/api/matches/import", json={"record": dict(BASE, termination="abandoned")}).json()
    assert view["status"] == "playing" and view["termination"] is None


def test_echoed_input_is_truncated(client):
    mid = create(client)["id"]
    r = play(client, mid, "z" * 999, 0)
    assert r.status_code == 422 and len(r.json()["error"]) < 400
    r = client.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "q" * 31]})
    assert r.status_code == 422 and len(r.json()["error"]) < 200
    r = client.post("/api/matches", json={"game": "g" * 5000})
    assert r.status_code == 422 and len(r.json()["error"]) < 200


# --- 7. undo of finished games -------------------------------------------------------------------
def test_undo_refused_when_game_over(client):
    mid = create(client, options={"stones": 3})["id"]
    view = play(client, mid, "3", 0).json()
    assert view["status"] == "over"
    r = client.post(f"/api/matches/{mid}/undo")
    assert r.status_code == 409 and "over" in r.json()["error"]
    assert client.get(f"/api/matches/{mid}").json()["status"] == "over"


def test_undo_refused_after_a_bot_wins(client):
    record = dict(BASE, moves=["3", "3", "2", "1"], players=["human", "level:1"])  # seat 1 takes the last
    view = client.post("/api/matches/import", json={"record": record}).json()
    assert view["status"] == "over" and view["result"] == [-1.0, 1.0]
    r = client.post(f"/api/matches/{view['id']}/undo")
    assert r.status_code == 409 and "over" in r.json()["error"]


# --- list and delete --------------------------------------------------------------------------
def test_list_shows_players_options_result_and_delete(client):
    a = create(client, options={"stones": 3})
    play(client, a["id"], "3", 0)
    b = create(client, options={"stones": 9}, seats=("human", "level:2"))
    rows = {r["id"]: r for r in client.get("/api/matches").json()}
    assert rows[a["id"]]["result"] == [1.0, -1.0] and rows[a["id"]]["termination"] == "normal"
    assert rows[a["id"]]["turns"] == 1 and rows[a["id"]]["ply"] == 1
    assert rows[b["id"]]["players"] == ["human", "level:2"] and rows[b["id"]]["options"] == {"stones": 9}
    assert client.delete(f"/api/matches/{a['id']}").status_code == 204
    assert client.get(f"/api/matches/{a['id']}").status_code == 404
    assert client.delete(f"/api/matches/{a['id']}").status_code == 404
    assert [r["id"] for r in client.get("/api/matches").json()] == [b["id"]]
    assert "delete" in client.get("/openapi.json").json()["paths"]["/api/matches/{match_id}"]


def test_import_string_limits(client):
    r = client.post("/api/matches/import", json={"record": dict(BASE, game="g" * 5000)})
    assert r.status_code == 422 and "the record's game" in r.json()["error"] and len(r.json()["error"]) < 200
    r = client.post("/api/matches/import", json={"record": dict(BASE, moves=["1", "x" * 5000])})
    assert r.status_code == 422 and "ply 2" in r.json()["error"] and len(r.json()["error"]) < 200
    r = client.post("/api/matches/import", json={"record": dict(BASE, moves=["1", "x" * 900])})
    assert r.status_code == 422 and "ply 2" in r.json()["error"] and len(r.json()["error"]) <= 400
    r = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": "y" * 150}})
    assert r.status_code == 422 and len(r.json()["error"]) < 400


def test_bot_error_names_no_card_while_hidden(client):
    view = create(client, "fibonacci-cards", {"first_player": "1"}, ("human", "level:1"))
    # the computer moves first: once it has, nothing clears the error set below
    wait_for(client, view["id"], lambda v: v["human_to_move"])
    service = client.app.state.service
    # as if the bot's move was refused
    service.computer.tell_error(service.load(view["id"]), "'Qh>2' is not a legal move",
                            {"key": "error.illegal", "params": {"move": "'Qh>2'"}})
    view = client.get(f"/api/matches/{view['id']}").json()
    assert view["bot_error"] and "Qh" not in view["bot_error"]
    assert view["bot_error_i18n"] == {"key": "error.bot_hidden", "params": {}}
    # the English is the catalog's, its one source
    assert view["bot_error"] == shell_english()["error.bot_hidden"] == (
        "the computer could not use its own search for its last move (details once the game is over)")


def test_import_with_a_hints_tag_of_unicode_digits(client):
    # '²'.isdigit() is true but int('²') raises: the tag is read as no hints, not a 500 on
    # every view of the match from then on
    record = dict(BASE, tags={"Hints": "²,3"})
    r = client.post("/api/matches/import", json={"record": record})
    assert r.status_code == 201 and r.json()["hints"] == [0, 3], r.text
    r = client.get(f"/api/matches/{r.json()['id']}")
    assert r.status_code == 200 and r.json()["hints"] == [0, 3]


def test_import_start_with_lookalike_digits_is_refused(client):
    record = {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "start": "- P:²/7 G",
              "moves": []}
    r = client.post("/api/matches/import", json={"record": record})
    assert r.status_code == 422 and "start position" in r.json()["error"], r.text


@pytest.mark.parametrize("path, body, field", [
    ("/api/matches", {"game": "toy-nim", "seat": ["human", "human"]}, "seat"),  # 'seats' mistyped
    ("/api/matches", {"game": "toy-nim", "option": {"stones": 3}}, "option"),
    ("/api/matches/import", {"record": BASE, "player": ["human", "human"]}, "player"),
    ("/api/invites/claim", {"code": "x", "seat": 1}, "seat"),
    ("/api/analysis", {"game": "toy-nim", "position": "7 0", "depth": 3}, "depth"),
])
def test_unknown_body_fields_are_refused(client, path, body, field):
    # a mistyped field would otherwise be dropped and the request done without it
    r = client.post(path, json=body)
    assert r.status_code == 422 and r.json()["error"].startswith(f"{field}: "), r.text


def test_unknown_body_fields_of_acts_leave_the_match_unchanged(client):
    mid = create(client)["id"]
    r = client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0, "seats": 0})
    assert r.status_code == 422 and "seats" in r.json()["error"], r.text
    r = client.post(f"/api/matches/{mid}/resign", json={"seat": 0, "really": True})
    assert r.status_code == 422 and "really" in r.json()["error"], r.text
    view = client.get(f"/api/matches/{mid}").json()
    assert view["ply"] == 0 and view["status"] == "playing"
