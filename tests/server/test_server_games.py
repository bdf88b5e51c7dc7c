"""The server with the real games: bots answer in every game, and undo takes back whole turns."""

from __future__ import annotations

import json
import random

import pytest

import abstracta
from abstracta.server.bots import choose_action


@pytest.mark.parametrize("name", ["fanorona", "nibble", "fibonacci", "fibonacci-cards", "slide-checkers"])
def test_bot_worker_function_answers_in_every_game(name):
    game = abstracta.load_game(name)
    state = game.new_initial_state(seed=5)
    record = abstracta.Record.from_play(game, state, [], players=["level:1"] * game.num_players)
    text = choose_action(record.to_json(), "level:1", seed=1)
    assert text in state.legal_action_strings()


def test_undo_takes_back_a_whole_capture_chain(client):
    # fanorona.md §6 example 3: White c3-d3A then d3-d4W is one turn of two actions
    record = {"game": "fanorona", "start": "...B...../........./..W.BB.../...B...../........B W", "moves": []}
    view = client.post("/api/matches/import", json={"record": record, "seats": ["human", "human"]}).json()
    mid = view["id"]
    view = client.post(f"/api/matches/{mid}/actions", json={"action": "c3-d3A", "ply": 0}).json()
    assert "end" in view["legal"] and view["to_move"] == 0
    view = client.post(f"/api/matches/{mid}/actions", json={"action": "d3-d4W", "ply": 1}).json()
    assert view["to_move"] == 1 and view["movers"] == [0, 0]
    # the move list: one turn, each capture a step of its own, as the terminal's replay writes it
    assert view["move_list"] == [{"number": 1, "seat": 0, "from": 0, "to": 2, "moves": ["c3-d3A", "d3-d4W"],
                                  "plies": [1, 2]}]
    view = client.post(f"/api/matches/{mid}/undo").json()
    assert view["move_list"] == []
    assert view["ply"] == 0 and view["to_move"] == 0 and view["position"].startswith("...B.....")


def test_whole_turn_string_and_record(client):
    view = client.post("/api/matches", json={"game": "nibble", "options": {"seed": "1", "first_player": "0"},
                                             "seats": ["human", "human"]}).json()
    mid = view["id"]
    view = client.post(f"/api/matches/{mid}/actions", json={"action": "a1+a9", "ply": 0}).json()
    assert view["to_move"] == 1 and view["record_moves"] == ["a1+a9"]
    r = client.post(f"/api/matches/{mid}/actions", json={"action": "a1+b2", "ply": view["ply"]})
    assert r.status_code == 422 and "a1" in r.json()["error"]


NIBBLE_SPLIT = ("........./.....CE../....ABC../..FHBA.../..DIAD.../.CGCGH.../.AHIE..../........./......... "
                "1 3-3-4-2-4-6-6-0-3 2-4-1-5-3-2-1-6-4")  # seed 6 after 59 random entries: g7, f8 both free G


def test_view_lists_legal_whole_turns(client):
    record = {"game": "nibble", "start": NIBBLE_SPLIT, "moves": []}
    view = client.post("/api/matches/import", json={"record": record, "seats": ["human", "human"]}).json()
    mid = view["id"]
    turns = view["turns"]
    # g7 and f8 are each free, but taking both splits the board: not a legal turn
    assert {"g7", "f8", "b4+g7", "b4+f8", "b3+e7"} <= set(turns)
    assert "g7+f8" not in turns and "f8+g7" not in turns
    assert {t for t in turns if "+" not in t} == set(view["legal"]) - {"end"}
    r = client.post(f"/api/matches/{mid}/actions", json={"action": "f8+g7", "ply": 0})
    assert r.status_code == 422
    view = client.post(f"/api/matches/{mid}/actions", json={"action": "b4", "ply": 0}).json()
    assert "take=" in view["position"] and view["turns"] is None  # in the middle of a turn
    view = client.post(f"/api/matches/{mid}/actions", json={"action": "end", "ply": view["ply"]}).json()
    assert view["turns"] and all(isinstance(t, str) for t in view["turns"])


def test_view_has_no_whole_turns_without_the_notation(client):
    view = client.post("/api/matches", json={"game": "fanorona", "options": {}, "seats": ["human", "human"]}).json()
    assert view["turns"] is None and view["legal"]
    assert "turns" in client.get("/openapi.json").json()["components"]["schemas"]["MatchView"]["properties"]


def test_several_actions_of_one_turn_in_one_request(client):
    # nibble.md §7 example 1: a1 and a9 are both G and free; a take of a1 alone leaves the turn open
    view = client.post("/api/matches", json={"game": "nibble", "options": {"seed": "1", "first_player": "0"},
                                             "seats": ["human", "human"]}).json()
    mid = view["id"]
    done = client.post(f"/api/matches/{mid}/actions", json={"actions": ["a1", "end"], "ply": 0})
    assert done.status_code == 200, done.text
    after = done.json()
    assert after["moves"] == ["a1", "end"] and after["to_move"] == 1 and after["record_moves"] == ["a1", "end"]
    # the turn is over after the first action: all or nothing
    bad = client.post(f"/api/matches/{mid}/actions", json={"actions": ["i9", "end", "i1"], "ply": 2})
    assert bad.status_code == 422 and client.get(f"/api/matches/{mid}").json()["ply"] == 2
    both = client.post(f"/api/matches/{mid}/actions", json={"action": "i9", "actions": ["i9"], "ply": 2})
    assert both.status_code == 422 and "exactly one" in both.json()["error"] and "action and actions given" in both.json()["error"]


# nibble.md §5: the computer holds 7 red (A) and may take a1+c1, winning; its seeded tie-break
# chose c1 first for half the seeds before the turn was put in canonical order (§4)
TWO_FOR_THE_COMPUTER = ("........./........./........./........./........./........./........./.C......./ABA...... "
                        "0 0-4-4-4-5-4-5-4-5 7-4-4-5-4-5-4-5-4")


@pytest.mark.parametrize("seed", range(6))
def test_a_computers_multi_disc_take_is_played_in_canonical_order(seed):
    game = abstracta.load_game("nibble")
    start = game.state_from_text(TWO_FOR_THE_COMPUTER)

    def bot_after(*moves: str) -> str:
        state, actions = start.clone(), []
        for move in moves:
            actions.append(state.string_to_action(move))
            state.apply_action(actions[-1])
        record = abstracta.Record.from_play(game, start, actions, players=["human", "level:1"],
                                            start=TWO_FOR_THE_COMPUTER)
        return choose_action(record.to_json(), "alphabeta:d2", seed=seed)

    assert bot_after("b2") == "a1"
    assert bot_after("b2", "a1") == "c1"


def test_canonical_turn_sorts_a_take_and_keeps_a_turn_it_cannot_reorder():
    game = abstracta.load_game("nibble")
    start = game.state_from_text(TWO_FOR_THE_COMPUTER)
    b2 = start.string_to_action("b2")
    assert game.canonical_turn(start, [b2]) == [b2]
    after = start.clone()
    after.apply_action(b2)
    a1, c1 = after.string_to_action("a1"), after.string_to_action("c1")
    assert game.canonical_turn(after, [c1, a1]) == [a1, c1]
    assert game.canonical_turn(after, [a1, c1]) == [a1, c1]
    # a game without a set-like turn keeps the order it is given
    fanorona = abstracta.load_game("fanorona")
    s = fanorona.new_initial_state()
    first = s.legal_actions()[:1]
    assert fanorona.canonical_turn(s, first) == first


class LastTakeFirst:
    """A computer that takes a turn's discs in the reverse of the canonical order (the last legal
    take first), as a search's tie-break may: ``end`` only when nothing else is legal."""

    def step(self, state):
        texts = state.legal_action_strings()
        takes = [t for t in texts if t != "end"]
        return state.string_to_action(takes[-1] if takes else "end")


def test_the_servers_computer_plays_its_take_in_canonical_order(client, monkeypatch):
    # the server's bot jobs played the bot's actions as it found them: a computer taking c1 then
    # a1 was stored, listed and recorded as "c1, a1" where play, match and the spec write the
    # turn a1+c1 (nibble.md §4). Its turn ends in the same position, written in canonical order
    from apiutil import wait_for

    import abstracta.server.botjobs as botjobs
    from abstracta.core.game import action_strings

    monkeypatch.setattr(botjobs, "make_bot", lambda spec, game, seed=None: LastTakeFirst())
    game = abstracta.load_game("nibble")
    service = client.app.state.service

    # a winning take (§5): the computer holds 7 red and takes a1 and c1
    record = {"game": "nibble", "start": TWO_FOR_THE_COMPUTER, "moves": []}
    view = client.post("/api/matches/import", json={"record": record, "seats": ["human", "level:1"]}).json()
    client.post(f"/api/matches/{view['id']}/actions", json={"turn": "b2", "ply": 0})
    over = wait_for(client, view["id"], lambda v: v["status"] == "over")
    assert over["moves"] == ["b2", "a1", "c1"] and over["record_moves"] == ["b2", "a1+c1"]
    assert over["move_list"][-1]["moves"] == ["a1+c1"] and over["result"] == [-1.0, 1.0]

    # the first turn of a game (seat 0 the computer: i9, then i1); the position is the one the
    # computer's own order reached, also when the match is read back from the store
    first = {"seed": "1", "first_player": "0"}
    start = abstracta.load_game("nibble", **first).new_initial_state()
    own, state = [], start.clone()
    while state.current_player() == 0:
        own.append(LastTakeFirst().step(state))
        state.apply_action(own[-1])
    canonical = game.canonical_turn(start, own)
    assert canonical != own and sorted(canonical) == sorted(own)
    view = client.post("/api/matches", json={"game": "nibble", "options": first,
                                             "seats": ["level:1", "human"]}).json()
    turned = wait_for(client, view["id"], lambda v: v["to_move"] == 1)
    texts = game.format_moves(start, canonical)
    assert turned["moves"] == action_strings(start, canonical) and turned["movers"] == [0] * len(own)
    assert turned["record_moves"] == texts and len(texts) == 1 and "+" in texts[0]
    assert turned["position"] == state.to_text() and turned["move_list"][0]["moves"] == texts
    service.evict(view["id"])
    again = client.get(f"/api/matches/{view['id']}").json()
    assert (again["moves"], again["position"]) == (turned["moves"], turned["position"])


def test_the_view_says_the_computer_thinks_between_the_actions_of_its_turn(client, monkeypatch):
    from apiutil import wait_for

    # CI on PostgreSQL: a view read after the computer's first take of a1+c1 and before its
    # next search was queued said thinking: false, with the turn half played ("b2, c1"); a
    # client waiting for the computer to finish took that half turn for its answer
    import abstracta.server.botjobs as botjobs

    monkeypatch.setattr(botjobs, "make_bot", lambda spec, game, seed=None: LastTakeFirst())
    service = client.app.state.service
    seen: list[tuple[list[str], bool]] = []
    schedule = service.computer.schedule

    def looking(match):
        # the applier has stored the action and not yet queued the next search: what a
        # request reads now
        shown = service.view(service.current(match.id))
        seen.append((list(shown["moves"]), shown["thinking"]))
        return schedule(match)

    monkeypatch.setattr(service.computer, "schedule", looking)
    record = {"game": "nibble", "start": TWO_FOR_THE_COMPUTER, "moves": []}
    view = client.post("/api/matches/import", json={"record": record, "seats": ["human", "level:1"]}).json()
    client.post(f"/api/matches/{view['id']}/actions", json={"turn": "b2", "ply": 0})
    over = wait_for(client, view["id"], lambda v: v["status"] == "over")
    assert over["moves"] == ["b2", "a1", "c1"] and not over["thinking"]
    assert (["b2", "c1"], True) in seen  # the half-played turn: the computer still thinks
    assert all(thinking for moves, thinking in seen if len(moves) == 2)


def test_the_move_box_reads_the_other_case_as_the_terminal_does(client):
    # the web app's move box and `abstracta play` both reach the game's string_to_action
    view = client.post("/api/matches", json={"game": "fanorona", "options": {"size": "dimy"},
                                             "seats": ["human", "human"]}).json()
    done = client.post(f"/api/matches/{view['id']}/actions", json={"action": "D3-C3w", "ply": 0})
    assert done.status_code == 200, done.text
    assert done.json()["moves"] == ["d3-c3W"]
    view = client.post("/api/matches", json={"game": "nibble", "options": {"seed": "1", "first_player": "0"},
                                             "seats": ["human", "human"]}).json()
    done = client.post(f"/api/matches/{view['id']}/actions", json={"action": "A1+A9", "ply": 0})
    assert done.status_code == 200, done.text
    assert done.json()["record_moves"] == ["a1+a9"], done.json()["moves"]


def _go_record_to_turn(last_turn: int) -> tuple[dict, list[int]]:
    """A Fibonacci Go game (random play, seed 1) of the 26 placements and the turns before
    ``last_turn``, and the turn number (fibonacci.md §9.3: movement starts at t=1) of each action."""
    game = abstracta.load_game("fibonacci", variant="go")
    initial = game.new_initial_state()
    state, actions, numbers, rng = initial.clone(), [], [], random.Random(1)
    while state.to_struct(None)["board"]["t"] < last_turn:
        numbers.append(state.to_struct(None)["board"]["t"])
        actions.append(rng.choice(state.legal_actions()))
        state.apply_action(actions[-1])
    return abstracta.Record.from_play(game, initial, actions, players=["human", "human"]).to_dict(), numbers


def test_the_turns_of_the_view_are_the_rules_turns(client):
    # Fibonacci Go: the 26 placements are no turns (§9.3), so the move list numbered them and
    # said "38." beside a board saying "Turn 13"; the view numbers each action as the rules do
    record, numbers = _go_record_to_turn(13)
    assert numbers[:26] == [0] * 26 and numbers[26] == 1 and numbers[-1] == 12
    view = client.post("/api/matches/import", json={"record": record}).json()
    assert view["turn_numbers"] == numbers
    assert view["struct"]["board"]["t"] == 13
    # "Your games" counts what the move list lists by players: the 26 placements (unnumbered
    # entries, each a seat's) and the 12 turns after them, as the join page counts them
    listed = client.get("/api/matches").json()
    assert [(m["id"], m["turns"]) for m in listed] == [(view["id"], 26 + 12)]
    # a game without turn numbers of its own: a turn is a seat's actions in a row
    record = {"game": "fanorona", "start": "...B...../........./..W.BB.../...B...../........B W",
              "moves": ["c3-d3A", "d3-d4W"]}
    view = client.post("/api/matches/import", json={"record": record}).json()
    assert view["turn_numbers"] == [1, 1]


def _listed_as_the_move_list_lists(client, view) -> tuple[int, int]:
    """The turns of ``view``'s match in "Your games", and the count a player reads in the
    view's move list: its entries by a seat before the rules' first turn, then the turns."""
    before = sum(1 for x in view["move_list"] if x["number"] == 0 and x["seat"] is not None and x["seat"] >= 0)
    listed = [m["turns"] for m in client.get("/api/matches").json() if m["id"] == view["id"]]
    return listed[0], before + max(view["turn_numbers"], default=0)


def test_your_games_counts_the_placements_as_the_move_list_lists_them(client):
    # a Fibonacci Go game of 3 placements was "3 moves played so far" on the join page and
    # "0 moves" on the home page and in Your games: the placements are entries of the move
    # list (each a seat's), played before the rules' first turn (number 0)
    moves = _go_record_to_turn(3)[0]["moves"]  # the 26 placements, turns 1 and 2
    for played, turns in ((0, 0), (3, 3), (26, 26), (len(moves), 26 + 2)):
        record = {"game": "fibonacci", "options": {"variant": "go"}, "moves": moves[:played]}
        view = client.post("/api/matches/import", json={"record": record, "seats": ["human", "human"]}).json()
        assert _listed_as_the_move_list_lists(client, view) == (turns, turns)
    # kept up as the game goes on: one more placement is one more
    record = {"game": "fibonacci", "options": {"variant": "go"}, "moves": moves[:3]}
    view = client.post("/api/matches/import", json={"record": record, "seats": ["human", "human"]}).json()
    view = client.post(f"/api/matches/{view['id']}/actions", json={"action": moves[3], "ply": 3}).json()
    assert _listed_as_the_move_list_lists(client, view) == (4, 4)


def test_the_view_says_the_turns_played_as_your_games_lists_them(client):
    # the join page counted "N moves played so far" in the browser, from the view's move list,
    # and Your games on the server (core.turns.turns_played): two counts of one number. The view
    # carries the server's count, the one Your games lists, to a spectator (the join page's
    # view, before the seat is taken) and to a seat alike
    def said(view) -> tuple[int, int, int, int]:
        spectator = client.raw.get(f"/api/matches/{view['id']}").json()
        assert spectator["viewer"] is None
        return (view["turns_played"], spectator["turns_played"], *_listed_as_the_move_list_lists(client, view))

    moves = _go_record_to_turn(3)[0]["moves"]  # the 26 placements, turns 1 and 2
    for played, turns in ((0, 0), (3, 3), (26, 26), (len(moves), 26 + 2)):
        record = {"game": "fibonacci", "options": {"variant": "go"}, "moves": moves[:played]}
        view = client.post("/api/matches/import", json={"record": record, "seats": ["human", "human"]}).json()
        assert said(view) == (turns,) * 4
    # kept up as the game goes on: turn 3's first action begins one more
    view = client.post(f"/api/matches/{view['id']}/actions",
                       json={"action": view["legal"][0], "ply": len(moves)}).json()
    assert (view["ply"], said(view)) == (len(moves) + 1, (26 + 3,) * 4)
    # an ordinary game: a turn of two actions (a capture chain) is one, the next seat's another
    record = {"game": "fanorona", "start": "...B...../........./..W.BB.../...B...../........B W",
              "moves": ["c3-d3A", "d3-d4W"]}
    view = client.post("/api/matches/import", json={"record": record, "seats": ["human", "human"]}).json()
    assert (view["ply"], said(view)) == (2, (1, 1, 1, 1))
    view = client.post(f"/api/matches/{view['id']}/actions", json={"action": view["legal"][0], "ply": 2}).json()
    assert (view["ply"], said(view)) == (3, (2, 2, 2, 2))
    assert "turns_played" in client.get("/openapi.json").json()["components"]["schemas"]["MatchView"]["properties"]


def test_a_row_counted_by_an_earlier_version_is_recounted_when_listed(client, db_url):
    # rows stored before the placements counted keep their count until the game's next move,
    # and a finished game has none: Your games recounts a row whose count an earlier version
    # stored (no turns_version), once, and stores the count without changing the game
    from sqlalchemy import create_engine, text

    from abstracta.server.storage import TURNS_VERSION

    moves = _go_record_to_turn(3)[0]["moves"][:3]
    record = {"game": "fibonacci", "options": {"variant": "go"}, "moves": moves}
    view = client.post("/api/matches/import", json={"record": record, "seats": ["human", "human"]}).json()
    # as the previous version stored it: the numbered turns alone (0), no version of the count
    engine = create_engine(db_url)
    rowsql = "SELECT turns, turns_version, revision, updated_at FROM matches WHERE id = :m"
    with engine.begin() as conn:
        conn.execute(text("UPDATE matches SET turns = 0, turns_version = NULL WHERE id = :m"), {"m": view["id"]})
        before = conn.execute(text(rowsql), {"m": view["id"]}).one()
    try:
        assert _listed_as_the_move_list_lists(client, view) == (3, 3)
        with engine.begin() as conn:
            after = conn.execute(text(rowsql), {"m": view["id"]}).one()
        assert tuple(after) == (3, TURNS_VERSION, before.revision, before.updated_at)
        # once: the stored count is read from then on
        with engine.begin() as conn:
            conn.execute(text("UPDATE matches SET turns = 7 WHERE id = :m"), {"m": view["id"]})
        assert _listed_as_the_move_list_lists(client, view) == (7, 3)
        # a match that no longer loads (its game gone) is listed with what was stored
        other = client.post("/api/matches/import", json={"record": record, "seats": ["human", "human"]}).json()
        gone = json.dumps({**record, "game": "no-such-game"})
        with engine.begin() as conn:
            conn.execute(text("UPDATE matches SET game = 'no-such-game', record = :r, turns = NULL, turns_version = NULL "
                              "WHERE id = :m"), {"r": gone, "m": other["id"]})
        client.raw.app.state.service.evict(other["id"])
        listed = [m for m in client.get("/api/matches").json() if m["id"] == other["id"]]
        assert [(m["turns"], m["ply"]) for m in listed] == [(3, 3)]  # the record's entries, as before
    finally:
        engine.dispose()


def test_chance_entries_before_the_first_turn_are_no_ones(client):
    from abstracta.core.game import CHANCE
    from abstracta.core.turns import turns_played

    # two placements, a chance entry between them, then turn 1 of two actions: 2 + 1
    assert turns_played([0, CHANCE, 1, 0, 0], [0, 0, 0, 1, 1]) == 3
    assert turns_played([], []) == 0
    assert turns_played([0, 0, 1], [1, 1, 2]) == 2  # rules without a number 0: the turns


def test_a_match_names_its_variant_as_the_game_declares_it(client):
    # a Fibonacci Card or Go game was listed and headed "Fibonacci" as a standard one: the view
    # and "Your games" name the declared variant its options make, none for the default one
    made = {v: client.post("/api/matches", json={"game": "fibonacci", "options": {"variant": v},
                                                 "seats": ["human", "human"]}).json()
            for v in ("standard", "cards", "go")}
    assert made["standard"]["variant"] is None
    assert made["cards"]["variant"] == {"label": "Card variant", "label_key": "fibonacci.variant.cards"}
    assert client.get(f"/api/matches/{made['go']['id']}").json()["variant"] == {
        "label": "Go start", "label_key": "fibonacci.variant.go"}
    listed = {m["id"]: m["variant"] for m in client.get("/api/matches").json()}
    assert listed == {made["standard"]["id"]: None, made["cards"]["id"]: made["cards"]["variant"],
                      made["go"]["id"]: made["go"]["variant"]}
    # another game's declared variant (a size), and one at its defaults
    dimy = client.post("/api/matches", json={"game": "fanorona", "options": {"size": "dimy"},
                                             "seats": ["human", "human"]}).json()
    assert dimy["variant"] == {"label": "Dimy 5×5", "label_key": "fanorona.variant.dimy"}
    tsivy = client.post("/api/matches", json={"game": "fanorona", "seats": ["human", "human"]}).json()
    assert tsivy["variant"] is None


def test_an_invitation_names_the_match_variant(client):
    # the join page named only the game ("Invitation to Fibonacci") for a Card variant game that
    # the match view and Your games name; the lookup gives the variant as the view does
    cards = client.post("/api/matches", json={"game": "fibonacci", "options": {"variant": "cards"},
                                              "seats": ["human", "human"], "take": [0]}).json()
    info = client.post("/api/invites/lookup", json={"code": cards["invites"][0]["code"]}).json()
    assert info["variant"] == {"label": "Card variant", "label_key": "fibonacci.variant.cards"} == cards["variant"]
    plain = client.post("/api/matches", json={"game": "fibonacci", "seats": ["human", "human"], "take": [0]}).json()
    assert client.post("/api/invites/lookup", json={"code": plain["invites"][0]["code"]}).json()["variant"] is None


def test_a_computer_turn_that_stops_half_way_is_pushed(client, monkeypatch):
    # the second search of the computer's turn cannot start (a game bug: InfoStateError). A
    # subscriber's last view said the computer thinks, and the half-played turn was never pushed
    # (a view in the middle of a computer's turn waits for the turn's end, which never comes):
    # it waited for ever where a reload showed the error
    from apiutil import wait_for

    import abstracta.server.botjobs as botjobs
    import abstracta.server.computer as computer

    monkeypatch.setattr(botjobs, "make_bot", lambda spec, game, seed=None: LastTakeFirst())
    made = []

    def second_fails(match, spec, rng=None):
        made.append(match.ply)
        if len(made) == 2:
            raise botjobs.InfoStateError("nibble: no state drawn")
        return botjobs.make_job(match, spec, rng)

    monkeypatch.setattr(computer, "make_job", second_fails)
    record = {"game": "nibble", "start": TWO_FOR_THE_COMPUTER, "moves": []}
    view = client.post("/api/matches/import", json={"record": record, "seats": ["human", "level:1"]}).json()
    with client.websocket_connect(f"/api/matches/{view['id']}/ws") as ws:
        assert ws.receive_json()["revision"] == 0
        client.post(f"/api/matches/{view['id']}/actions", json={"turn": "b2", "ply": 0})
        stopped = wait_for(client, view["id"], lambda v: v["bot_error"])
        client.post(f"/api/matches/{view['id']}/resign")  # the next push if that one never came
        while (pushed := ws.receive_json())["revision"] < stopped["revision"]:
            assert pushed["thinking"]  # the person's move (if pushed before the computer's c1)
        assert (pushed["moves"], pushed["thinking"], pushed["bot_error"]) == (["b2", "c1"], False,
                                                                              "nibble: no state drawn")
        assert pushed["status"] == "playing" and made == [1, 2] and pushed["revision"] == stopped["revision"]
