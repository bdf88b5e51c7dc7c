"""Undo and takebacks (issue 13 §4): immediate against the computer, by request and consent
between people, never back past a revealed card."""

from __future__ import annotations

from apiutil import bearer, hand_clock, three_on_a_clock, wait_for



def people(raw, stones=9):
    """A toy-nim match between two people on two devices: (id, token of seat 0, of seat 1)."""
    view = raw.post("/api/matches", json={"game": "toy-nim", "options": {"stones": stones},
                                          "seats": ["human", "human"]}).json()
    t1 = raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()["tokens"][0]["token"]
    return view["id"], view["tokens"][0]["token"], t1


def act(raw, mid, path, token, body=None):
    return raw.post(f"/api/matches/{mid}/{path}", json=body, headers=bearer(token))


def test_undo_against_the_computer_is_immediate(client):
    view = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9},
                                             "seats": ["human", "level:1"]}).json()
    mid = view["id"]
    client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0})
    view = wait_for(client, mid, lambda v: v["ply"] == 2)
    view = client.post(f"/api/matches/{mid}/undo").json()
    assert view["ply"] == 0 and view["position"] == "9 0" and view["takeback"] is None


def test_undo_never_goes_back_past_a_drawn_card(client):
    view = client.post("/api/matches", json={"game": "fibonacci-cards", "options": {"seed": "3", "first_player": "0"},
                                             "seats": ["human", "level:1"]}).json()
    mid = view["id"]
    drawn = client.post(f"/api/matches/{mid}/actions", json={"action": "draw", "ply": 0}).json()
    assert "4s" in drawn["position"].split("|")[1]  # the card the person drew
    view = wait_for(client, mid, lambda v: v["human_to_move"] or v["status"] == "over")
    r = client.post(f"/api/matches/{mid}/undo")
    assert r.status_code == 409 and "ply 1 (draw)" in r.json()["error"] and "no undo goes back past it" in r.json()["error"]
    assert client.get(f"/api/matches/{mid}").json()["ply"] == view["ply"]  # unchanged
    # nor can a takeback request reach back there
    r = client.post(f"/api/matches/{mid}/takeback")
    assert r.status_code == 409 and "draw" in r.json()["error"]


def test_undo_back_to_the_play_after_a_draw_is_allowed(client):
    """Only the draw is a barrier: a later turn of the person can be taken back."""
    view = client.post("/api/matches", json={"game": "fibonacci-cards", "options": {"seed": "3", "first_player": "0"},
                                             "seats": ["human", "human"]}).json()
    mid = view["id"]
    view = client.post(f"/api/matches/{mid}/actions", json={"action": "draw", "ply": 0}).json()
    view = client.post(f"/api/matches/{mid}/actions", json={"action": view["legal"][0], "ply": 1}).json()
    assert view["ply"] == 2 and view["to_move"] == 0
    view = client.post(f"/api/matches/{mid}/undo").json()  # seat 1's play: no card was revealed
    assert view["ply"] == 1 and view["to_move"] == 1
    r = client.post(f"/api/matches/{mid}/undo")
    assert r.status_code == 409 and "ply 1 (draw)" in r.json()["error"]


def test_takeback_between_people_needs_consent(client):
    raw = client.raw
    mid, t0, t1 = people(raw)
    act(raw, mid, "actions", t0, {"action": "1", "ply": 0})
    act(raw, mid, "actions", t1, {"action": "2", "ply": 1})
    r = act(raw, mid, "undo", t1)
    assert r.status_code == 409 and "ask for a takeback" in r.json()["error"]
    view = act(raw, mid, "takeback", t1).json()
    assert view["takeback"] == {"by": 1, "to_ply": 1, "at_ply": 2, "accepted": []} and view["ply"] == 2
    assert raw.get(f"/api/matches/{mid}").json()["takeback"]["by"] == 1  # everyone sees it
    assert act(raw, mid, "takeback", t1).status_code == 409  # one at a time
    r = act(raw, mid, "takeback/answer", t1, {"accept": True})
    assert r.status_code == 403 and "not the seat that asked" in r.json()["error"]
    # as the draw offer's offerer accepting its own offer: the same status, words the browser translates
    assert r.json()["i18n"]["key"] == "error.takeback_not_yours"
    view = act(raw, mid, "takeback/answer", t0, {"accept": True}).json()
    assert view["ply"] == 1 and view["position"] == "8 1" and view["takeback"] is None
    # declined: nothing happens
    act(raw, mid, "actions", t1, {"action": "3", "ply": 1})
    act(raw, mid, "takeback", t1)
    view = act(raw, mid, "takeback/answer", t0, {"accept": False}).json()
    assert view["ply"] == 2 and view["takeback"] is None
    # a move cancels a pending request; the asker may withdraw one
    act(raw, mid, "takeback", t1)
    view = act(raw, mid, "actions", t0, {"action": "1", "ply": 2}).json()
    assert view["takeback"] is None and view["ply"] == 3
    act(raw, mid, "takeback", t0)
    assert act(raw, mid, "takeback/answer", t0, {"accept": False}).json()["takeback"] is None
    assert act(raw, mid, "takeback/answer", t1, {"accept": True}).status_code == 409
    assert raw.get(f"/api/matches/{mid}").json()["ply"] == 3


def test_a_seat_out_of_time_answering_a_takeback_is_told_it_is_out(client, monkeypatch):
    # three players, Green's flag falls: its seat is the computer's, its answer not asked; it was
    # told 'the other players answer a takeback request, not the player who asked', as if it had asked
    clock = hand_clock(monkeypatch)
    raw = client.raw
    mid, t = three_on_a_clock(raw)
    assert raw.get(f"/api/matches/{mid}").json()["clock"]["running"] == 0
    clock.now += 61
    view = wait_for(client, mid, lambda v: v["out_of_time"] == [0] and v["to_move"] == 1)  # the computer moved
    legal = raw.get(f"/api/matches/{mid}", headers=bearer(t[1])).json()["legal"]
    view = act(raw, mid, "actions", t[1], {"action": legal[0], "ply": view["ply"]}).json()
    view = act(raw, mid, "takeback", t[1]).json()
    assert view["takeback"]["by"] == 1 and view["takeback"]["accepted"] == []
    for accept in (True, False):
        r = act(raw, mid, "takeback/answer", t[0], {"accept": accept})
        assert r.status_code == 403 and r.json()["i18n"]["key"] == "error.takeback_out", r.json()
        assert "asked" not in r.json()["error"] and "out of time" in r.json()["error"]
    assert raw.get(f"/api/matches/{mid}").json()["takeback"]["by"] == 1  # still pending
    # the asker accepting its own request keeps its own words
    r = act(raw, mid, "takeback/answer", t[1], {"accept": True})
    assert r.status_code == 403 and r.json()["i18n"]["key"] == "error.takeback_not_yours"
    view = act(raw, mid, "takeback/answer", t[2], {"accept": True}).json()
    assert view["takeback"] is None and view["to_move"] == 1
