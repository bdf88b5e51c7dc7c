"""The server sends each viewer's structured view (State.to_struct) in every match response,
every WebSocket message and every replay position; a hidden card never reaches another eye."""

from __future__ import annotations

from abstracta.testing import words

import json

import abstracta
from apiutil import bearer, wait_for

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


def hands_at_each_ply(game, moves: list[str]) -> list[list[list[str]]]:
    """Both hands after each ply (index 0 = start), from the engine, not the API."""
    state = game.new_initial_state()
    out = []
    for move in [None, *moves]:
        if move is not None:
            state.apply_action(state.string_to_action(move))
        out.append([state.to_text().split("|")[1 + seat].strip().split(",") for seat in (0, 1)])
    return out


def stocks_at_each_ply(game, moves: list[str]) -> list[list[str]]:
    """The stock's cards, top first, after each of ``moves`` (ply 0 first), read from the
    position text (§6: stock top→bottom), not from the view under test."""
    state = game.new_initial_state()
    out = []
    for k in range(len(moves) + 1):
        stock = state.to_text().split("|")[3].split()[0]
        out.append([] if stock == "-" else stock.split(","))
        if k < len(moves):
            state.apply_action(state.string_to_action(moves[k]))
    return out


def test_a_finished_card_games_replay_shows_every_hand_to_everyone(client):
    """The deal is public at the end (the record, whose seed rebuilds it, is handed out then):
    a finished game's replay shows both hands at every ply, to its seats and to a spectator,
    also when it ended by resignation (the rules' position is not terminal then). While it runs,
    nobody sees a hand that is not theirs, in the live view or in the replay."""
    view = client.post("/api/matches", json={**CARDS, "seats": ["human", "human"]}).json()
    mid = view["id"]
    for _ in range(5):
        current = client.get(f"/api/matches/{mid}").json()
        client.post(f"/api/matches/{mid}/actions", json={"action": current["legal"][0], "ply": current["ply"]})
    tokens = client.tokens[mid]
    running = {None: client.raw.get(f"/api/matches/{mid}/positions").json()["structs"]}
    for seat in (0, 1):
        running[seat] = client.raw.get(f"/api/matches/{mid}/positions?seat={seat}",
                                       headers=bearer(tokens[seat])).json()["structs"]
    for viewer, structs in running.items():
        for struct in structs:
            shown = [h["seat"] for h in struct["board"]["hands"] if h["cards"] is not None]
            assert shown == ([] if viewer is None else [viewer]), (viewer, shown)
            assert "cards" not in struct["board"]["stock"], viewer  # its order only once over

    assert client.post(f"/api/matches/{mid}/resign", json={"seat": 0}).status_code == 200
    over = client.raw.get(f"/api/matches/{mid}").json()
    assert over["status"] == "over" and over["termination"] == "resignation"
    expected = hands_at_each_ply(abstracta.load_game("fibonacci-cards", seed=1, first_player=0), over["moves"])
    assert len(expected) == 6
    seen = {None: client.raw.get(f"/api/matches/{mid}/positions").json()["structs"]}
    for seat in (0, 1):
        seen[seat] = client.raw.get(f"/api/matches/{mid}/positions?seat={seat}",
                                    headers=bearer(tokens[seat])).json()["structs"]
    for viewer, structs in seen.items():
        assert [[[c["card"] for c in h["cards"]] for h in s["board"]["hands"]] for s in structs] == expected, viewer
        assert all(s["viewer"] == viewer for s in structs)
    # and the stock's order, top first, as the seeded deal left it at each ply
    stocks = stocks_at_each_ply(abstracta.load_game("fibonacci-cards", seed=1, first_player=0), over["moves"])
    for viewer, structs in seen.items():
        assert [s["board"]["stock"]["cards"] for s in structs] == stocks, viewer
        assert all(len(s["board"]["stock"]["cards"]) == s["board"]["stock"]["size"] for s in structs)
    # the live view of the finished game too (resigned: not a terminal position of the rules)
    assert [[c["card"] for c in h["cards"]] for h in over["struct"]["board"]["hands"]] == expected[-1]


def test_a_finished_fibonacci_card_variant_shows_the_pile_orders(client):
    """Fibonacci's card variant hides the order of both draw piles from everyone while it runs;
    once the game is over every replayed ply shows what was left in each pile, top first."""
    game = abstracta.load_game("fibonacci", variant="cards", seed=3)
    view = client.post("/api/matches", json={"game": "fibonacci", "options": {"variant": "cards", "seed": "3"},
                                             "seats": ["human", "human"]}).json()
    mid = view["id"]
    for _ in range(4):
        current = client.get(f"/api/matches/{mid}").json()
        client.post(f"/api/matches/{mid}/actions", json={"action": current["legal"][0], "ply": current["ply"]})
    assert all("pile_cards" not in s["board"]["cards"]
               for s in client.get(f"/api/matches/{mid}/positions").json()["structs"])
    assert client.post(f"/api/matches/{mid}/resign", json={"seat": 1}).status_code == 200
    over = client.raw.get(f"/api/matches/{mid}").json()
    structs = client.raw.get(f"/api/matches/{mid}/positions").json()["structs"]
    state = game.new_initial_state()
    for ply, struct in enumerate(structs):
        if ply:
            state.apply_action(state.string_to_action(over["moves"][ply - 1]))
        assert struct["board"]["cards"]["pile_cards"] == [list(state.piles[0]), list(state.piles[1])]
        assert struct["board"]["cards"]["piles"] == [len(state.piles[0]), len(state.piles[1])]
    assert structs[0]["board"]["cards"]["pile_cards"][0]  # something was hidden


def test_a_hand_over_only_where_the_people_at_one_device_see_different_things(client):
    # private_views asks the shell for a hand-over screen between two people at one device: the
    # card game's hands differ; the draw piles of Fibonacci's card variant are hidden from both
    cards = client.post("/api/matches", json={**CARDS, "seats": ["human", "human"]}).json()
    assert client.get(f"/api/matches/{cards['id']}").json()["private_views"] is True
    piles = client.post("/api/matches", json={"game": "fibonacci", "options": {"variant": "cards", "seed": "3"},
                                              "seats": ["human", "human"]}).json()
    view = client.get(f"/api/matches/{piles['id']}").json()
    assert view["hidden_information"] is True and view["private_views"] is False
    alone = client.post("/api/matches", json={**CARDS, "seats": ["human", "level:1"]}).json()
    assert client.get(f"/api/matches/{alone['id']}").json()["private_views"] is False
