"""``{"turn": ...}``: a client plays one whole turn exactly as the view's ``turns`` lists it.

nibble.md §4: a whole-turn string means its discs in canonical order, then ``end`` if the turn
is still open. The view lists one-disc turns as ``i9``; sent as ``action`` that is the single
engine take (the turn stays open while more of its colour could follow), so a client playing
the listed turns needs ``turn``, which reads them as the terminal reads a typed move."""

from __future__ import annotations

import random

import pytest

import abstracta
from abstracta.core.records import Record

# nibble.md §7 example 1 (seed 1): a1, a9 (G) and i1, i9 are free
SEED1 = {"seed": "1", "first_player": "0"}
# seed 6 after 59 random entries: b4, g7 and f8 are free C; g7 and f8 are each takeable, but taking both splits the board
NIBBLE_SPLIT = ("........./.....CE../....ABC../..FHBA.../..DIAD.../.CGCGH.../.AHIE..../........./......... "
                "1 3-3-4-2-4-6-6-0-3 2-4-1-5-3-2-1-6-4")
# seat 1 holds 7 red (A): a1+c1 wins at once (§5), a1 alone takes a1 and ends the turn
WINNING_TURN = ("........./........./........./........./........./........./........./.C......./ABA...... "
                "1 0-4-4-4-5-4-5-4-5 7-4-4-5-4-5-4-5-4")


def after_random_turns(variant: str, seed: int, turns: int) -> str:
    """The position after ``turns`` whole turns chosen at random (fixed seed) from the start."""
    game = abstracta.load_game("nibble", variant=variant)
    state, rng = game.new_initial_state(seed=seed), random.Random(seed)
    for _ in range(turns):
        listed = game.turn_strings(state)
        if not listed:
            break
        for action in game.parse_turn(state, rng.choice(listed)):
            state.apply_action(action)
    return state.to_text()


def expected(game, position: str, turn: str) -> tuple[str, bool]:
    """The spec's reading of ``turn``: ``parse_move`` of it, then ``end`` if the turn is still open."""
    state = game.state_from_text(position)
    mover = state.current_player()
    for action in game.parse_move(state, turn):
        state.apply_action(action)
    if not state.is_terminal() and state.current_player() == mover:
        state.apply_action(state.string_to_action("end"))
    return state.to_text(), state.is_terminal()


def imported(client, position: str, variant: str = "square9") -> dict:
    record = {"game": "nibble", "options": {"variant": variant}, "start": position, "moves": []}
    r = client.post("/api/matches/import", json={"record": record, "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    return r.json()


def unchanged(client, view: dict) -> None:
    now = client.get(f"/api/matches/{view['id']}").json()
    assert (now["ply"], now["position"], now["revision"], now["moves"]) == \
        (view["ply"], view["position"], view["revision"], view["moves"])


POSITIONS = [
    ("square9", abstracta.load_game("nibble").new_initial_state(seed=1).to_text()),
    ("square9", NIBBLE_SPLIT),
    ("square9", WINNING_TURN),
    ("square9", after_random_turns("square9", 3, 12)),
    ("square13", after_random_turns("square13", 4, 20)),
    ("hex", after_random_turns("hex", 5, 25)),
]


@pytest.mark.parametrize("variant, position", POSITIONS)
def test_every_listed_turn_plays_exactly_that_turn(client, variant, position):
    game = abstracta.load_game("nibble", variant=variant)
    listed = imported(client, position, variant)["turns"]
    assert listed == game.turn_strings(game.state_from_text(position)) and any("+" not in t for t in listed)
    for turn in listed:
        view = imported(client, position, variant)
        mover = view["to_move"]
        r = client.post(f"/api/matches/{view['id']}/actions", json={"turn": turn, "ply": view["ply"]})
        assert r.status_code == 200, (turn, r.text)
        after = r.json()
        text, over = expected(game, position, turn)
        assert after["position"] == text, turn
        assert (after["status"] == "over") == over and (over or after["to_move"] != mover), turn
        assert "take=" not in after["position"], turn


def test_a_one_disc_turn_ends_the_turn_where_the_action_leaves_it_open(client):
    # i9 (H) may be followed by i1 (H): the engine action leaves the turn open, the listed turn ends it
    view = client.post("/api/matches", json={"game": "nibble", "options": SEED1, "seats": ["human", "human"]}).json()
    assert "i9" in view["turns"] and "i1+i9" in view["turns"]
    done = client.post(f"/api/matches/{view['id']}/actions", json={"turn": "i9", "ply": 0}).json()
    assert done["moves"] == ["i9", "end"] and done["to_move"] == 1 and done["turns"]
    other = client.post("/api/matches", json={"game": "nibble", "options": SEED1, "seats": ["human", "human"]}).json()
    open_ = client.post(f"/api/matches/{other['id']}/actions", json={"action": "i9", "ply": 0}).json()
    assert open_["moves"] == ["i9"] and open_["to_move"] == 0 and open_["position"].endswith(" take=H")
    # the terminal reads the typed turn the same way
    game = abstracta.load_game("nibble", **{k: int(v) for k, v in SEED1.items()})
    state = game.new_initial_state()
    assert [state.action_to_string(a) for a in game.parse_turn(state, "i9")] == ["i9", "end"]


def test_other_orders_and_case_of_a_listed_turn_are_the_same_turn(client):
    view = client.post("/api/matches", json={"game": "nibble", "options": SEED1, "seats": ["human", "human"]}).json()
    done = client.post(f"/api/matches/{view['id']}/actions", json={"turn": " A9+a1 ", "ply": 0}).json()
    assert done["moves"] == ["a1", "a9"] and done["record_moves"] == ["a1+a9"] and done["to_move"] == 1


@pytest.mark.parametrize("turn, words", [
    ("a1+b2", "a1"),            # two colours
    ("g7+f8", "'g7+f8': taking f8 would split the board"),  # each free, together they split it
    ("z99", "'z99' is not a cell of the square 9×9 board"),
    ("end", "'end' is only possible after a take"),  # not a turn at all
    ("a1+a1", "twice"),
    ("b4+", "'b4+': '+' joins two cells"),
    ("   ", "turn"),
    ("x" * 1001, "turn"),
])
def test_a_string_that_is_not_a_whole_legal_turn_is_refused_and_changes_nothing(client, turn, words):
    view = imported(client, NIBBLE_SPLIT)
    r = client.post(f"/api/matches/{view['id']}/actions", json={"turn": turn, "ply": 0})
    assert r.status_code == 422, r.text
    assert words in r.json()["error"]
    # the player's words: the browser shows them under the move box (it said "(the view's
    # 'turns' lists the legal whole turns)", the API's jargon, to a person who typed a turn)
    assert "view" not in r.json()["error"]
    unchanged(client, view)


@pytest.mark.parametrize("body", [{"turn": 9, "ply": 0}, {"turn": ["b4"], "ply": 0}, {"turn": None, "ply": 0},
                                  {"turn": {"b4": 1}, "ply": 0}, {"turn": "", "ply": 0}, {"turn": "b4"},
                                  {"turn": "b4", "ply": "0"}])
def test_a_turn_of_the_wrong_kind_is_refused(client, body):
    view = imported(client, NIBBLE_SPLIT)
    r = client.post(f"/api/matches/{view['id']}/actions", json=body)
    assert r.status_code == 422, r.text
    unchanged(client, view)


def test_a_turn_with_an_action_or_actions_is_refused(client):
    view = imported(client, NIBBLE_SPLIT)
    for extra in ({"action": "b4"}, {"actions": ["b4", "end"]}):
        r = client.post(f"/api/matches/{view['id']}/actions", json={"turn": "b4", "ply": 0, **extra})
        assert r.status_code == 422 and "exactly one" in r.json()["error"], r.text
        assert "turn" in r.json()["error"] and next(iter(extra)) in r.json()["error"]
    unchanged(client, view)


def test_a_turn_in_the_middle_of_a_turn_is_refused_with_409(client):
    view = imported(client, NIBBLE_SPLIT)
    mid = view["id"]
    view = client.post(f"/api/matches/{mid}/actions", json={"action": "b4", "ply": 0}).json()
    assert view["position"].endswith(" take=C") and view["turns"] is None
    for turn in ("g7", "f8", "b4+g7", "c5"):
        r = client.post(f"/api/matches/{mid}/actions", json={"turn": turn, "ply": 1})
        assert r.status_code == 409 and "under way" in r.json()["error"] and "'action'" in r.json()["error"], r.text
    unchanged(client, view)
    # the turn goes on with engine actions as before
    done = client.post(f"/api/matches/{mid}/actions", json={"action": "g7", "ply": 1}).json()
    assert done["to_move"] == 0 and done["record_moves"] == ["b4+g7"]


@pytest.mark.parametrize("game, options, move", [("fanorona", {"size": "dimy"}, "d3-c3W"), ("toy-nim", {}, "1")])
def test_a_turn_in_a_game_without_a_whole_turn_notation_is_refused(client, game, options, move):
    view = client.post("/api/matches", json={"game": game, "options": options, "seats": ["human", "human"]}).json()
    r = client.post(f"/api/matches/{view['id']}/actions", json={"turn": move, "ply": 0})
    assert r.status_code == 422 and "no whole-turn notation" in r.json()["error"], r.text
    unchanged(client, view)
    assert client.post(f"/api/matches/{view['id']}/actions", json={"action": move, "ply": 0}).status_code == 200


def test_a_turn_keeps_the_guards_of_every_move(client):
    view = imported(client, NIBBLE_SPLIT)
    mid = view["id"]
    stale = client.post(f"/api/matches/{mid}/actions", json={"turn": "b4", "ply": 3})
    assert stale.status_code == 409 and "stale" in stale.json()["error"]
    stranger = client.raw.post(f"/api/matches/{mid}/actions", json={"turn": "b4", "ply": 0})
    assert stranger.status_code == 401
    unchanged(client, view)
    won = imported(client, WINNING_TURN)
    over = client.post(f"/api/matches/{won['id']}/actions", json={"turn": "a1+c1", "ply": 0}).json()
    assert over["status"] == "over" and over["result"] == [-1.0, 1.0]
    again = client.post(f"/api/matches/{won['id']}/actions", json={"turn": "b2", "ply": over["ply"]})
    assert again.status_code == 409 and "over" in again.json()["error"]


def test_the_openapi_description_offers_turn(client):
    schema = client.get("/openapi.json").json()["components"]["schemas"]["PlayAction"]
    assert {"required": ["turn"]} in schema["oneOf"] and "'turns'" in schema["properties"]["turn"]["description"]


def test_your_games_counts_the_turns_played_not_the_records_entries(client):
    # a one-disc turn ended by `end` is two record entries ("i9", "end"), a turn of the
    # computer's single takes one entry per take: "Your games" said "88 turns (101 actions)"
    # of a game whose replay counted 61 turns
    game = abstracta.load_game("nibble")
    initial = game.new_initial_state(seed=3)
    state, rng, actions, turns = initial.clone(), random.Random(3), [], 0
    while not state.is_terminal() and turns < 30:
        mover = state.current_player()
        while not state.is_terminal() and state.current_player() == mover:
            action = rng.choice(state.legal_actions())  # takes one at a time, as a bot plays
            state.apply_action(action)
            actions.append(action)
        turns += 1
    moves = Record.from_play(game, initial, actions).moves
    assert len(moves) != turns != len(actions)  # three different counts
    record = {"game": "nibble", "options": {}, "seed": 3, "moves": moves}
    view = client.post("/api/matches/import", json={"record": record, "seats": ["human", "human"]}).json()
    listed = [r for r in client.get("/api/matches").json() if r["id"] == view["id"]][0]
    assert (listed["turns"], listed["ply"]) == (turns, len(actions))
    # and after a move, as the list is kept up
    client.post(f"/api/matches/{view['id']}/actions", json={"action": view["legal"][0], "ply": view["ply"]})
    listed = [r for r in client.get("/api/matches").json() if r["id"] == view["id"]][0]
    assert (listed["turns"], listed["ply"]) == (turns + 1, len(actions) + 1)


def test_the_move_list_reads_each_turn_as_the_terminals_replay(client):
    # the browser drew one entry per action ("i9, end"; "a1, a9") where the terminal's replay
    # writes the turn as the spec does (nibble.md §4: i9, a1+a9); the view's move_list is the
    # replay's text, with the ply each entry steps to: a whole-turn entry goes to its turn's end
    from abstracta.cli.records import turn_entries

    view = client.post("/api/matches", json={"game": "nibble", "options": SEED1, "seats": ["human", "human"]}).json()
    assert view["move_list"] == []
    view = client.post(f"/api/matches/{view['id']}/actions", json={"turn": "i9", "ply": 0}).json()
    view = client.post(f"/api/matches/{view['id']}/actions", json={"turn": "A9+a1", "ply": 2}).json()
    assert view["moves"] == ["i9", "end", "a1", "a9"] and view["record_moves"] == ["i9", "end", "a1+a9"]
    assert view["move_list"] == [
        {"number": 1, "seat": 0, "from": 0, "to": 2, "moves": ["i9"], "plies": [2]},
        {"number": 2, "seat": 1, "from": 2, "to": 4, "moves": ["a1+a9"], "plies": [4]},
    ]
    # a turn still open is written action by action, each a step of its own
    i1 = client.post(f"/api/matches/{view['id']}/actions", json={"action": "i1", "ply": 4}).json()
    assert i1["to_move"] == 0 and i1["move_list"][2] == {"number": 3, "seat": 0, "from": 4, "to": 5,
                                                          "moves": ["i1"], "plies": [5]}
    ended = client.post(f"/api/matches/{view['id']}/actions", json={"action": "end", "ply": 5}).json()
    assert ended["move_list"][2] == {"number": 3, "seat": 0, "from": 4, "to": 6, "moves": ["i1"], "plies": [6]}
    record = Record.from_json(client.get(f"/api/matches/{view['id']}/record").text)
    initial, actions = record.initial_state(record.make_game()), record.replay()[1]
    assert [(t["number"], t["moves"]) for t in ended["move_list"]] == turn_entries(initial, actions)
    # the same on import (an answer through the documented model, which names "from" as sent)
    again = client.post("/api/matches/import", json={"record": record.to_dict(), "seats": ["human", "human"]}).json()
    assert again["move_list"] == ended["move_list"]
    schema = client.get("/openapi.json").json()["components"]["schemas"]
    assert "move_list" in schema["MatchView"]["properties"]
    assert set(schema["MoveListTurn"]["properties"]) == {"number", "seat", "from", "to", "moves", "plies"}


def test_the_move_list_stays_the_replays_through_a_game_and_its_takebacks(client):
    # the server writes only the turns since the last view (a long game is not written out at
    # every move): after each action and each takeback the list is the whole game's, written anew
    from abstracta.core.turns import turn_texts

    game = abstracta.load_game("nibble", seed=2)
    view = client.post("/api/matches", json={"game": "nibble", "options": {"seed": "2"}, "seats": ["human", "human"]}).json()
    rng = random.Random(2)
    checked = 0
    while view["status"] != "over" and checked < 60:
        if checked % 9 == 8:
            view = client.post(f"/api/matches/{view['id']}/undo").json()
        else:
            # single takes (a turn open, written action by action) and whole turns, mixed
            whole = view["turns"] and rng.random() < 0.4
            body = {"turn": rng.choice(view["turns"])} if whole else {"action": rng.choice(view["legal"])}
            view = client.post(f"/api/matches/{view['id']}/actions", json={**body, "ply": view["ply"]}).json()
        state = game.new_initial_state()
        actions = []
        for text in view["moves"]:
            actions.append(state.string_to_action(text))
            state.apply_action(actions[-1])
        fresh = turn_texts(game.new_initial_state(), actions)
        assert view["move_list"] == [{"number": t.number, "seat": t.seat, "from": t.first, "to": t.stop,
                                      "moves": t.moves, "plies": t.plies} for t in fresh], checked
        checked += 1
    assert any("+" in m for t in view["move_list"] for m in t["moves"])
