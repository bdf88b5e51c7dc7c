"""The server sends each viewer's structured view (State.to_struct) in every match response,
every WebSocket message and every replay position; a hidden card never reaches another eye."""

from __future__ import annotations

from abstracta.testing import words

import json

import abstracta
from apiutil import wait_for

CARDS = {"game": "fibonacci-cards", "options": {"seed": "1", "first_player": "0"}, "seats": ["human", "level:1"]}


def hidden_hand(seat: int) -> set[str]:
    """Seat ``seat``'s cards at the start of the seed-1 deal (from the engine, not the API)."""
    state = abstracta.load_game("fibonacci-cards", seed=1, first_player=0).new_initial_state()
    return set(state.to_text().split("|")[1 + seat].strip().split(","))


def cards_in(payload) -> set[str]:
    text = json.dumps(payload)
    deck = {r + s for r in "23456789TJQKA" for s in "cdhs"}
    return {c for c in deck if f'"{c}"' in text or f'"{c}*"' in text}


def test_every_response_carries_the_viewers_struct(client):
    view = client.post("/api/matches", json={"game": "fanorona", "options": {"size": "dimy"},
                                             "seats": ["human", "human"]}).json()
    assert view["struct"]["viewer"] == 0 and view["struct"]["legal"] == view["legal"]
    after = client.post(f"/api/matches/{view['id']}/actions", json={"action": "d3-c3W", "ply": 0}).json()
    struct = after["struct"]
    assert struct["to_move"] == 1 and struct["viewer"] == 1
    assert words(struct["recent"]) == [{"seat": 0, "actions": ["d3-c3W"],
                                 "steps": [{"action": "d3-c3W", "touched": ["d3", "c3"], "removed": ["e3"],
                                            "revealed": [], "text": "White d3→c3, takes e3 by withdrawal"}]}]
    replay = client.get(f"/api/matches/{view['id']}/positions").json()
    assert len(replay["structs"]) == 2 and replay["structs"][0]["legal"] == view["legal"]
    with client.websocket_connect(f"/api/matches/{view['id']}/ws") as ws:
        assert ws.receive_json()["struct"] == struct


def test_a_computer_seats_cards_never_reach_the_person(client):
    view = client.post("/api/matches", json=CARDS).json()
    mid = view["id"]
    assert hidden_hand(0) <= cards_in(view["struct"]["board"])  # the person sees their own hand
    seen = [view["struct"], client.get(f"/api/matches/{mid}").json()["struct"],
            *client.get(f"/api/matches/{mid}/positions").json()["structs"]]
    for _ in range(4):  # play on: every answer, push and replay is kept
        current = wait_for(client, mid, lambda v: not v["thinking"])
        if current["status"] == "over" or not current["human_to_move"]:
            break
        answer = client.post(f"/api/matches/{mid}/actions", json={"action": current["legal"][0],
                                                                  "ply": current["ply"]}).json()
        seen.append(answer["struct"])
        seen.append(wait_for(client, mid, lambda v: not v["thinking"])["struct"])
        seen.extend(client.get(f"/api/matches/{mid}/positions").json()["structs"])
    with client.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        seen.append(ws.receive_json()["struct"])
    final = client.get(f"/api/matches/{mid}").json()
    assert final["ply"] >= 2
    if final["status"] == "over":
        return  # a finished game reveals everything
    # the cards seat 1 holds now were in its hand all along: none of them may show anywhere
    state = abstracta.load_game("fibonacci-cards", seed=1, first_player=0).new_initial_state()
    for move in final["moves"]:
        state.apply_action(state.string_to_action(move))
    still_hidden = set(state.to_text().split("|")[2].strip().split(","))
    assert still_hidden
    for struct in seen:
        assert not cards_in(struct) & still_hidden, cards_in(struct) & still_hidden
    assert client.get(f"/api/matches/{mid}?seat=1").status_code == 403
