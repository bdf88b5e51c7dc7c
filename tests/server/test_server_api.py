"""Every endpoint of the JSON API, including each error (issue 7 §2), on the toy game."""

from __future__ import annotations


import pytest
from apiutil import bearer, wait_for

import abstracta


def create(client, seats=("human", "human"), stones=7, **kw):
    r = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": str(stones)}, "seats": list(seats), **kw})
    assert r.status_code == 201, r.text
    return r.json()




def test_games_lists_registered_games_and_options(client):
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert "toy-nim" in games
    assert set(abstracta.registered_games()) <= set(games)
    nim = games["toy-nim"]
    assert nim["title"] == "Toy Nim" and nim["num_players"] == 2
    assert nim["options"] == [{"name": "stones", "label": "stones", "default": "7", "help": "starting heap", "kind": "int",
                               "unset_label": None,
                               "choices": None, "choice_labels": {}, "keys": {}}]


def test_openapi_documents_the_api(client):
    paths = client.get("/openapi.json").json()["paths"]
    for p in ("/api/games", "/api/matches", "/api/matches/import", "/api/matches/{match_id}",
              "/api/matches/{match_id}/actions", "/api/matches/{match_id}/undo",
              "/api/matches/{match_id}/resign", "/api/matches/{match_id}/record",
              "/api/matches/{match_id}/positions", "/api/matches/{match_id}/takeback",
              "/api/matches/{match_id}/takeback/answer", "/api/matches/{match_id}/flag",
              "/api/matches/{match_id}/draw", "/api/matches/{match_id}/draw/answer",
              "/api/matches/{match_id}/invites", "/api/invites/claim", "/api/invites/lookup"):
        assert p in paths
    schema = client.get("/openapi.json").json()
    assert schema["components"]["securitySchemes"]["seat token"]["scheme"] == "bearer"
    assert "Authorization: Bearer" in schema["info"]["description"]
    created = schema["components"]["schemas"]["MatchCreated"]["properties"]
    assert {"tokens", "invites", "clock", "takeback", "draw_offer", "draw_offerable", "my_seats", "claimed"} <= set(created)


def test_index_is_served(client):
    r = client.get("/")
    assert r.status_code == 200 and "abstracta" in r.text
    assert client.get("/app.js").status_code == 200


def test_create_and_get(client):
    view = create(client, stones=9)
    assert view["position"] == "9 0" and view["legal"] == ["1", "2", "3"]
    assert view["ply"] == 0 and view["to_move"] == 0 and view["status"] == "playing"
    again = client.get(f"/api/matches/{view['id']}").json()
    assert again["position"] == "9 0" and again["players"] == ["human", "human"]
    listed = client.get("/api/matches").json()
    assert listed[0]["id"] == view["id"] and listed[0]["game"] == "toy-nim"


@pytest.mark.parametrize("body, status, words", [
    ({"game": "nope"}, 404, "unknown game"),
    ({"game": "toy-nim", "options": {"stones": "x"}}, 422, "stones"),
    ({"game": "toy-nim", "options": {"size": "3"}}, 422, "unknown option"),
    ({"game": "toy-nim", "options": {"stones": "0"}}, 422, "at least 1"),
    ({"game": "toy-nim", "seats": ["human"]}, 422, "2 players"),
    ({"game": "toy-nim", "seats": ["human", "god"]}, 422, "seats.1: 'god' is not 'human'"),
    ({"game": "toy-nim", "seats": ["human", "level:9"]}, 422, "seats.1: 'level:9' is not"),
    ({"game": "toy-nim", "options": [1]}, 422, "options"),
    ({"options": {}}, 422, "game"),
])
def test_create_errors(client, body, status, words):
    r = client.post("/api/matches", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]


@pytest.mark.parametrize("game, options, message", [
    ("slide-checkers", {"players": "x"}, "option players: expected a decimal integer, got 'x'; allowed: 2, 3, 4"),
    ("slide-checkers", {"players": True}, "option players: expected an integer, got True; allowed: 2, 3, 4"),
    ("fanorona", {"size": 1.5}, "option size: unsupported value 1.5; allowed: tsivy, dimy, telo"),
    ("fanorona", {"size": ""}, "option size: no value given (leave the option out for its default); "
                               "allowed: tsivy, dimy, telo"),
    ("fanorona", {"size": "huge"}, "option size: 'huge' is not one of tsivy, dimy, telo"),
    ("fanorona", {"vela": "maybe"}, "option vela: expected true or false, got 'maybe'"),
])
def test_a_refused_option_value_names_the_option_and_the_values_allowed(client, game, options, message):
    r = client.post("/api/matches", json={"game": game, "options": options})
    assert r.status_code == 422 and r.json()["error"] == message



def test_get_errors(client):
    r = client.get("/api/matches/doesnotexist")
    assert r.status_code == 404 and "doesnotexist" in r.json()["error"]
    view = create(client)
    r = client.get(f"/api/matches/{view['id']}?seat=5")
    assert r.status_code == 422 and "seat 5" in r.json()["error"]
    assert client.get("/api/nothing").status_code == 404
    assert "error" in client.get("/api/nothing").json()


def test_play_moves_and_finish(client):
    view = create(client, stones=5)
    mid = view["id"]
    view = client.post(f"/api/matches/{mid}/actions", json={"action": "3", "ply": 0}).json()
    assert view["position"] == "2 1" and view["ply"] == 1 and view["last_action"] == "3" and view["to_move"] == 1
    view = client.post(f"/api/matches/{mid}/actions", json={"action": "2", "ply": 1}).json()
    assert view["status"] == "over" and view["result"] == [-1.0, 1.0] and view["termination"] == "normal"
    assert view["legal"] == [] and view["moves"] == ["3", "2"]
    r = client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 2})
    assert r.status_code == 409 and "over" in r.json()["error"]


@pytest.mark.parametrize("body, status, words", [
    ({"action": "4", "ply": 0}, 422, "'4'"),
    ({"action": "", "ply": 0}, 422, "action"),
    ({"action": "1"}, 422, "ply"),
    ({"ply": 0}, 422, "action"),
    ({"action": "1", "ply": "x"}, 422, "ply"),
    ({"action": "1", "ply": 3}, 409, "stale"),
    ({"action": "1", "ply": 0, "seat": 1}, 409, "seat 0"),
])
def test_action_errors(client, body, status, words):
    view = create(client, stones=3)
    r = client.post(f"/api/matches/{view['id']}/actions", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    after = client.get(f"/api/matches/{view['id']}").json()
    assert after["ply"] == 0 and after["position"] == "3 0"


def test_action_errors_not_json_and_unknown_match(client):
    view = create(client)
    token = client.tokens[view["id"]][0]
    r = client.post(f"/api/matches/{view['id']}/actions", content=b"{not json",
                    headers={"Content-Type": "application/json", **bearer(token)})
    assert r.status_code == 422 and "error" in r.json()
    r = client.post("/api/matches/zzz/actions", json={"action": "1", "ply": 0}, headers=bearer(token))
    assert r.status_code == 404
    # without any token an act is 401 before its match or body is looked at
    assert client.post("/api/matches/zzz/actions", json={"action": "1", "ply": 0}, headers={}).status_code == 401


def test_duplicate_submission_is_applied_once(client):
    view = create(client, stones=9)
    mid = view["id"]
    first = client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0})
    second = client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0})
    assert first.status_code == 200 and second.status_code == 409
    assert second.json()["ply"] == 1
    assert client.get(f"/api/matches/{mid}").json()["position"] == "8 1"


def test_bot_replies_and_seat_of_bot_is_refused(client):
    view = create(client, seats=("human", "level:1"), stones=9)
    mid = view["id"]
    view = client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0}).json()
    assert view["to_move"] == 1 and view["legal"] == [] and view["human_to_move"] is False
    r = client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 1})
    if r.status_code != 409:  # the bot may already have moved: then ply 1 is stale
        raise AssertionError(r.text)
    view = wait_for(client, mid, lambda v: v["ply"] == 2)
    assert view["thinking"] is False and view["to_move"] == 0 and view["legal"]


def test_bot_moves_first_when_seat_zero(client):
    view = create(client, seats=("level:2", "human"), stones=9)
    view = wait_for(client, view["id"], lambda v: v["ply"] == 1)
    assert view["to_move"] == 1 and view["human_to_move"]


def test_undo_against_bot(client):
    view = create(client, seats=("human", "level:1"), stones=20)
    mid = view["id"]
    client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0})
    wait_for(client, mid, lambda v: v["ply"] == 2)
    client.post(f"/api/matches/{mid}/actions", json={"action": "2", "ply": 2})
    wait_for(client, mid, lambda v: v["ply"] == 4)
    view = client.post(f"/api/matches/{mid}/undo").json()
    assert view["ply"] == 2 and view["to_move"] == 0 and view["moves"][0] == "1"
    view = client.post(f"/api/matches/{mid}/undo").json()
    assert view["ply"] == 0 and view["position"] == "20 0"
    r = client.post(f"/api/matches/{mid}/undo")
    assert r.status_code == 409 and "earlier turn" in r.json()["error"]
    record = client.get(f"/api/matches/{mid}/record").json()
    assert record["moves"] == []


def test_undo_errors(client):
    view = create(client, seats=("level:1", "level:1"), stones=3)
    r = client.post(f"/api/matches/{view['id']}/undo")
    assert r.status_code == 409 and "person" in r.json()["error"]
    assert client.post("/api/matches/nope/undo", headers=bearer(client.tokens[view["id"]][0])).status_code == 404


def test_resign(client):
    view = create(client, stones=9)
    mid = view["id"]
    r = client.post(f"/api/matches/{mid}/resign", json={"seat": 5})
    assert r.status_code == 422 and "seat 5" in r.json()["error"]
    view = client.post(f"/api/matches/{mid}/resign", json={"seat": 0}).json()
    assert view["result"] == [-1.0, 1.0] and view["termination"] == "resignation" and view["status"] == "over"
    r = client.post(f"/api/matches/{mid}/resign", json={"seat": 1})
    assert r.status_code == 409
    r = client.post(f"/api/matches/{mid}/undo")
    assert r.status_code == 409 and "resigned" in r.json()["error"]
    record = client.get(f"/api/matches/{mid}/record").json()
    assert record["termination"] == "resignation" and record["result"] == [-1.0, 1.0]


def test_resign_bot_seat_refused(client):
    view = create(client, seats=("human", "level:1"), stones=30)
    r = client.post(f"/api/matches/{view['id']}/resign", json={"seat": 1})
    assert r.status_code == 409 and "computer" in r.json()["error"]
    view = client.post(f"/api/matches/{view['id']}/resign").json()  # default: the person
    assert view["result"] == [-1.0, 1.0]


def test_record_and_download(client):
    view = create(client, stones=9)
    mid = view["id"]
    client.post(f"/api/matches/{mid}/actions", json={"action": "2", "ply": 0})
    r = client.get(f"/api/matches/{mid}/record?download=true")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = abstracta.Record.from_json(r.text)
    assert record.game == "toy-nim" and record.moves == ["2"] and record.options == {"stones": 9}
    assert record.players == ["human", "human"] and record.result is None
    assert client.get("/api/matches/nope/record").status_code == 404


def test_positions_for_replay(client):
    view = create(client, stones=9)
    mid = view["id"]
    client.post(f"/api/matches/{mid}/actions", json={"action": "2", "ply": 0})
    last = client.post(f"/api/matches/{mid}/actions", json={"action": "3", "ply": 1}).json()
    data = client.get(f"/api/matches/{mid}/positions").json()
    assert data["positions"] == ["9 0", "7 1", "4 0"] and data["moves"] == ["2", "3"]
    # which state and whose eyes, as the view says them: a client drops a page of another view
    assert (data["revision"], data["viewer"]) == (last["revision"], last["viewer"]) == (2, 0)
    assert client.get(f"/api/matches/{mid}/positions?seat=1").json()["viewer"] == 1
    assert client.get("/api/matches/nope/positions").status_code == 404


def test_import_record(client):
    record = {"format": "abstracta-record", "version": 1, "game": "toy-nim", "options": {"stones": 9},
              "players": ["human", "human"], "moves": ["1", "2", "3"]}
    view = client.post("/api/matches/import", json={"record": record}).json()
    assert view["ply"] == 3 and view["position"] == "3 1" and view["moves"] == ["1", "2", "3"]
    view = client.post(f"/api/matches/{view['id']}/actions", json={"action": "3", "ply": 3}).json()
    assert view["result"] == [-1.0, 1.0]
    finished = dict(record, moves=["3", "3", "3"], result=[1.0, -1.0])
    view = client.post("/api/matches/import", json={"record": finished, "seats": ["human", "level:3"]}).json()
    assert view["status"] == "over" and view["players"] == ["human", "level:3"]


@pytest.mark.parametrize("change, words", [
    ({"moves": ["1", "4", "1"]}, "ply 2"),
    ({"moves": ["1", "x"]}, "ply 2 ('x')"),
    ({"format": "pgn"}, "format"),
    ({"options": {"stones": "a"}}, "stones"),
    ({"moves": "1 2"}, "moves"),
    ({"result": [1.0, -1.0]}, "not over"),
    ({"moves": ["3", "3", "3", "1"]}, "already over"),
])
def test_import_errors(client, change, words):
    record = {"format": "abstracta-record", "version": 1, "game": "toy-nim", "options": {"stones": 9},
              "players": ["human", "human"], "moves": ["1", "2"]}
    record.update(change)
    r = client.post("/api/matches/import", json={"record": record})
    assert r.status_code == 422, r.text
    assert words in r.json()["error"]
    r = client.post("/api/matches/import", json={"record": {"game": "toy-nim", "moves": []}, "seats": ["x", "y"]})
    assert r.status_code == 422
    # an unknown game is 404, as when creating a match (test_server_bounds.py)
    r = client.post("/api/matches/import", json={"record": {"format": "abstracta-record", "version": 1,
                                                              "game": "chess", "moves": ["1"]}})
    assert r.status_code == 404 and "unknown game 'chess'" in r.json()["error"]
    r = client.post("/api/matches/import", json={"nope": 1})
    assert r.status_code == 422 and "record" in r.json()["error"]


def test_hidden_information_view(client):
    r = client.post("/api/matches", json={"game": "fibonacci-cards", "options": {"seed": "1", "first_player": "0"},
                                          "seats": ["human", "level:1"]})
    assert r.status_code == 201, r.text
    view = r.json()
    assert view["viewer"] == 0 and "?8" in view["position"] and "9s" not in view["position"]
    assert "7d,9c" in view["position"] and view["legal"]
    # the computer's seat: its hand stays hidden while the game runs
    r = client.get(f"/api/matches/{view['id']}?seat=1")
    assert r.status_code == 403 and "no token given holds seat 1" in r.json()["error"]
    r = client.get(f"/api/matches/{view['id']}/positions?seat=1")
    assert r.status_code == 403
    positions = client.get(f"/api/matches/{view['id']}/positions").json()["positions"]
    assert "?8" in positions[0] and "9s,Jc" not in positions[0] and "7d,9c" in positions[0]


def test_websocket_pushes_changes(client):
    view = create(client, stones=9)
    mid = view["id"]
    with client.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        first = ws.receive_json()
        assert first["ply"] == 0 and first["position"] == "9 0"
        client.post(f"/api/matches/{mid}/actions", json={"action": "2", "ply": 0})
        second = ws.receive_json()
        assert second["ply"] == 1 and second["position"] == "7 1"
    with client.websocket_connect("/api/matches/nope/ws") as ws:
        assert "nope" in ws.receive_json()["error"]


def test_a_resignation_leaves_the_seats_already_out_lost_and_the_last_seat_wins(client):
    # four players, Blue and Red without pieces (eliminated, §5): Green resigns, Yellow is left
    record = {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "options": {"players": 4},
              "start": "Ga1,Gb2,Yk11,Yl12 M G", "moves": []}
    view = client.post("/api/matches/import", json={"record": record}).json()
    assert view["status"] == "playing" and view["to_move"] == 0
    view = client.post(f"/api/matches/{view['id']}/resign", json={"seat": 0}).json()
    assert view["result"] == [-1.0, -1.0, -1.0, 1.0] and view["termination"] == "resignation"


def test_a_page_path_a_browser_asks_for_goes_to_the_page(client):
    html = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    r = client.get("/lobby", headers=html, follow_redirects=False)
    assert r.status_code == 302 and r.headers["location"] == "/#/lobby"
    r = client.get("/match/a%20b", headers=html, follow_redirects=False)
    assert r.status_code == 302 and r.headers["location"] == "/#/match/a%20b"
    # a missing file, an API path and a client asking for JSON keep the JSON 404
    for path, headers in (("/missing.js", html), ("/api/nothing", html), ("/lobby", {"Accept": "application/json"})):
        r = client.get(path, headers=headers, follow_redirects=False)
        assert r.status_code == 404 and "location" not in r.headers and r.json()["error"], path
