"""The API answers bad requests clearly and acts on nothing (issue: "See what happened…", the
API list): a garbled undo body, a seat that does not exist, garbage JSON, singular counts."""

from __future__ import annotations


def human_vs_computer(client, game="fanorona"):
    r = client.post("/api/matches", json={"game": game, "options": {"size": "dimy"}, "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    return r.json()


def test_undo_with_a_garbage_body_does_nothing(client):
    view = human_vs_computer(client)
    mid = view["id"]
    assert client.post(f"/api/matches/{mid}/actions", json={"action": "b2-c3A", "ply": 0}).status_code == 200
    auth = client.auth(f"/api/matches/{mid}")
    for body, ctype, status in ((b"garbage", "text/plain", 415), (b"seat=0", "application/x-www-form-urlencoded", 415),
                                (b"{not json", "application/json", 422), (b'{"seat": 0}', "application/json", 422)):
        r = client.raw.post(f"/api/matches/{mid}/undo", content=body, headers={**auth, "Content-Type": ctype})
        assert r.status_code == status, (body, r.text)
    assert client.get(f"/api/matches/{mid}").json()["ply"] == 1  # nothing was taken back
    r = client.raw.post(f"/api/matches/{mid}/undo", content=b"{}", headers={**auth, "Content-Type": "application/json"})
    assert r.status_code == 200 and r.json()["ply"] == 0


def test_a_seat_that_does_not_exist_is_422(client):
    view = human_vs_computer(client)
    r = client.post(f"/api/matches/{view['id']}/actions?seat=7", json={"action": "b2-c3A", "ply": 0})
    assert r.status_code == 422 and "seat 7 does not exist" in r.json()["error"]


def test_garbage_json_is_said_in_words(client):
    r = client.raw.post("/api/matches", content=b'{"game": fanorona}', headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    assert r.json()["error"] == "the request body is not valid JSON (at character 9)"


def test_one_entry_is_an_entry(client):
    r = client.post("/api/matches", json={"game": "fanorona", "seats": ["human"]})
    assert r.status_code == 422 and r.json()["error"] == "1 seat is given, the game has 2 players"
