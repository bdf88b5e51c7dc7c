"""Slide Checkers' structured view (games/slide_checkers/view.py): the property checks of
abstracta.testing on random playouts of every declared variant, and exact board entries,
choices, effects and end reasons on the worked examples of slide-checkers.md §7."""

from __future__ import annotations

from abstracta.testing import words

import json

import pytest

from abstracta import load_game
from abstracta.games.slide_checkers import SlideCheckersGame
from abstracta.games.slide_checkers.geometry import BOARDS, square_colours
from abstracta.testing import action_strings_in, check_struct, check_struct_playout

VARIANTS = [v.options for v in load_game("slide-checkers").description.variants]


def play(state, *moves: str):
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def cell(view: dict, name: str) -> dict:
    return next(c for c in view["board"]["cells"] if c["id"] == name)


def piece_choice(view: dict, square: str) -> dict:
    return next(p for p in view["choices"]["pieces"] if p["from"] == square)


def targets(view: dict, square: str) -> list[str]:
    return [t["to"] for t in piece_choice(view, square)["targets"]]


# --- properties ---------------------------------------------------------------------------------
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: f"{o['players']}p")
@pytest.mark.parametrize("seed", range(3))
def test_struct_properties_on_random_playouts(options, seed):
    final = check_struct_playout(load_game("slide-checkers", **options), seed, max_actions=400)
    # the end is explained whenever the playout finished
    if final.is_terminal():
        assert final.to_struct(None)["end"]["reason"] in ("last-colour", "no-jump", "all-passed")


@pytest.mark.parametrize("board", BOARDS[1:])
def test_other_boards_and_colours(board):
    game = SlideCheckersGame(players=3, board=board, colours="ROY")
    state = game.new_initial_state()
    letters = square_colours(*board)
    view = state.to_struct(None)
    assert [c["colour"] for c in view["board"]["cells"]] == list(letters)
    assert all(c["friend"] == ("ROY".index(c["colour"]) if c["colour"] in "ROY" else None)
               for c in view["board"]["cells"])
    assert view["board"]["layout"] == list(board) and view["board"]["seat_colours"] == ["R", "O", "Y"]
    check_struct_playout(game, 5, max_actions=120, every=3)


# --- board --------------------------------------------------------------------------------------
def test_board_cells_colours_and_pieces():
    # §7.1: a1 = z, b1 = R, e4 = G, c9 = O, l12 = Y; G = seat 0, B = seat 1
    state = SlideCheckersGame().state_from_text("Bg4,Bi4,Bl12,Ge4 M G")
    view = state.to_struct(None)
    board = view["board"]
    assert len(board["cells"]) == 144
    assert [c["id"] for c in board["cells"][:13]] == [f"a{r}" for r in range(1, 13)] + ["b1"]
    assert cell(view, "a1") == {"id": "a1", "x": 0, "y": 0, "colour": "z", "friend": None, "piece": None}
    assert cell(view, "b1")["colour"] == "R" and cell(view, "c9")["colour"] == "O"
    assert cell(view, "l12") == {"id": "l12", "x": 11, "y": 11, "colour": "Y", "friend": None, "piece": 1}
    assert cell(view, "e4") == {"id": "e4", "x": 4, "y": 3, "colour": "G", "friend": 0, "piece": 0}
    assert cell(view, "g4") == {"id": "g4", "x": 6, "y": 3, "colour": "t", "friend": None, "piece": 1}
    assert cell(view, "f3")["friend"] == 1  # a B square (§7.2)
    assert [c["id"] for c in board["cells"] if c["piece"] is not None] == ["e4", "g4", "i4", "l12"]
    assert board["classes"] == [
        {"colour": "R", "size": 24, "seat": None}, {"colour": "O", "size": 24, "seat": None},
        {"colour": "Y", "size": 24, "seat": None}, {"colour": "G", "size": 24, "seat": 0},
        {"colour": "B", "size": 24, "seat": 1}, {"colour": "z", "size": 1, "seat": None},
        {"colour": "p", "size": 6, "seat": None}, {"colour": "q", "size": 8, "seat": None},
        {"colour": "s", "size": 3, "seat": None}, {"colour": "t", "size": 6, "seat": None}]
    rest = {k: v for k, v in board.items() if k not in ("cells", "classes")}
    assert rest == {"files": "abcdefghijkl", "ranks": 12, "layout": [1, 1], "seat_colours": ["G", "B"],
                    "phase": "movement", "to_place": [0, 0], "pieces": [1, 3], "jump_from": None,
                    "no_jump": 0, "no_jump_limit": 100, "passes": 0}
    # perfect information: every seat sees the same board
    assert state.to_struct(0)["board"] == state.to_struct(1)["board"] == board


def test_board_is_built_from_cached_tables_and_is_fresh_data():
    state = SlideCheckersGame().new_initial_state()
    first = state.to_struct(0)
    first["board"]["cells"][0]["colour"] = "X"  # a caller may change its copy
    assert state.to_struct(0)["board"]["cells"][0]["colour"] == "z"


# --- §7.2 placement -----------------------------------------------------------------------------
def test_placement_choices_and_effects():
    state = SlideCheckersGame().new_initial_state()
    view = state.to_struct(0)
    assert view["board"]["phase"] == "placement" and view["board"]["to_place"] == [7, 7]
    assert view["choices"]["kind"] == "place"
    spec = "b4 b8 c2 d5 d8 d9 d12 e4 e8 f4 f12 g2 g6 h7 h9 h11 h12 i4 i12 k6 l3 l5 l7 l8".split()
    assert sorted(c["cell"] for c in view["choices"]["cells"]) == sorted(spec)
    assert view["choices"]["cells"][:3] == [{"cell": "b4", "action": "@b4"}, {"cell": "b8", "action": "@b8"},
                                            {"cell": "c2", "action": "@c2"}]
    assert words(state.action_effects(state.string_to_action("@e4"), 1)) == {
        "touched": ["e4"], "removed": [], "revealed": [], "converted": [], "path": ["e4"],
        "text": "Green places a piece on e4"}
    play(state, "@e4")
    view = state.to_struct(1)
    spec_b = ("b6 b7 b9 b11 c8 e2 e10 f2 f7 g8 g12 h2 h10 i6 i10 j2 j5 j6 j9 k12 l6 l10").split()
    assert sorted(c["cell"] for c in view["choices"]["cells"]) == sorted(spec_b)
    assert view["board"]["to_place"] == [6, 7]
    assert words(view["recent"]) == [{"seat": 0, "actions": ["@e4"], "steps": [
        {"action": "@e4", "touched": ["e4"], "removed": [], "revealed": [], "converted": [], "path": ["e4"],
         "text": "Green places a piece on e4"}]}]
    assert view["eliminated"] == [] and view["turn"] == {"seat": 1, "actions": [], "left": None}


# --- §7.3, §7.4, §7.7 steps and free moves -----------------------------------------------------------
def test_free_move_choices():
    # §7.3: transit {d5, f4}; 16 destinations
    view = SlideCheckersGame().state_from_text("Bl12,Ge4 M G").to_struct(0)
    assert view["choices"]["kind"] == "move"
    assert [p["from"] for p in view["choices"]["pieces"]] == ["e4"]
    piece = piece_choice(view, "e4")
    assert piece["transit"] == ["d5", "f4"]
    assert sorted(targets(view, "e4")) == sorted(
        "c4 c5 c6 d3 d4 d5 d6 e3 e5 e6 f3 f4 f5 g3 g4 g5".split())
    assert piece["targets"][0] == {"to": "c4", "options": [
        {"action": "e4-c4", "via": None, "over": None, "capture": None}]}


def test_long_slide_choices():
    # §7.4: c9 is orange; the G transit set is {b8, d8, d9, e8}; 21 destinations
    view = SlideCheckersGame().state_from_text("Bl1,Gc9 M G").to_struct(0)
    assert piece_choice(view, "c9")["transit"] == ["b8", "d8", "d9", "e8"]
    assert sorted(targets(view, "c9")) == sorted(
        "a7 a8 a9 b7 b8 b9 b10 c7 c8 c10 d7 d8 d9 d10 e7 e8 e9 e10 f7 f8 f9".split())


def test_no_jump_available_choices():
    # §7.7: 19 legal actions, those of a12 are a12-a11 a12-b11 a12-b12
    state = SlideCheckersGame().state_from_text("Bl1,Bl3,Ga12,Ge4 M G")
    view = state.to_struct(0)
    assert [p["from"] for p in view["choices"]["pieces"]] == ["a12", "e4"]
    assert targets(view, "a12") == ["a11", "b11", "b12"]
    assert len(list(action_strings_in(view["choices"]))) == 19
    assert state.action_effects(state.string_to_action("e4-g5"), 1)["touched"] == ["e4", "g5"]
    assert state.action_effects(state.string_to_action("e4-g5"), 1)["path"] == ["e4", "g5"]


# --- §7.5, §7.6 jumps ---------------------------------------------------------------------------------
def test_slide_then_jump_choices_effects_and_win():
    # §7.5: the transit set shrinks to {b8, d8, d9}; exactly four jumps over e8
    state = SlideCheckersGame().state_from_text("Be8,Gc9 M G")
    view = state.to_struct(0)
    assert view["choices"] == {"kind": "jump", "pieces": [{"from": "c9", "transit": ["b8", "d8", "d9"], "targets": [
        {"to": "f8", "options": [
            {"action": "c9>d8*f8e", "via": "d8", "over": "e8", "capture": "exchange"},
            {"action": "c9>d8*f8r", "via": "d8", "over": "e8", "capture": "remove"}]},
        {"to": "f7", "options": [
            {"action": "c9>d9*f7e", "via": "d9", "over": "e8", "capture": "exchange"},
            {"action": "c9>d9*f7r", "via": "d9", "over": "e8", "capture": "remove"}]}]}]}
    assert words(state.action_effects(state.string_to_action("c9>d8*f8r"), None)) == {
        "touched": ["c9", "d8", "f8"], "removed": ["e8"], "revealed": [], "converted": [], "path": ["c9", "d8", "f8"],
        "text": "Green slides c9→d8, jumps d8→f8 over Blue's e8 and removes it"}
    assert words(state.action_effects(state.string_to_action("c9>d9*f7e"), None)) == {
        "touched": ["c9", "d9", "f7", "e8"], "removed": [], "revealed": [], "converted": ["e8"],
        "path": ["c9", "d9", "f7"],
        "text": "Green slides c9→d9, jumps d9→f7 over Blue's e8 and turns it Green"}
    for move, left in (("c9>d8*f8r", ["f8"]), ("c9>d8*f8e", ["e8", "f8"])):
        over = play(state.clone(), move).to_struct(1)
        assert over["over"] and over["to_move"] is None and over["legal"] == [] and over["choices"] == {}
        assert words(over["end"]) == {"reason": "last-colour", "text": "Only Green pieces are left on the board",
                               "winners": [0]}
        assert [c["id"] for c in over["board"]["cells"] if c["piece"] == 0] == left
        assert words(over["eliminated"]) == [{"seat": 1, "text": "Blue has no pieces left"}]
        assert over["recent"][0]["steps"][0]["action"] == move


def test_jump_chain_continuation():
    # §7.6: e4>f4*h4r, then the piece on h4 must go on: *j4e or *j4r
    state = SlideCheckersGame().state_from_text("Bg4,Bi4,Bl12,Ge4 M G")
    assert state.to_struct(0)["choices"]["pieces"] == [{"from": "e4", "transit": ["d5", "f4"], "targets": [
        {"to": "h4", "options": [{"action": "e4>f4*h4e", "via": "f4", "over": "g4", "capture": "exchange"},
                                 {"action": "e4>f4*h4r", "via": "f4", "over": "g4", "capture": "remove"}]}]}]
    play(state, "e4>f4*h4r")
    view = state.to_struct(0)
    assert view["board"]["jump_from"] == "h4"
    assert view["turn"] == {"seat": 0, "actions": ["e4>f4*h4r"], "left": {"jump_from": "h4"}}
    assert view["choices"] == {"kind": "continue", "pieces": [{"from": "h4", "transit": [], "targets": [
        {"to": "j4", "options": [{"action": "*j4e", "via": None, "over": "i4", "capture": "exchange"},
                                 {"action": "*j4r", "via": None, "over": "i4", "capture": "remove"}]}]}]}
    play(state, "*j4e")
    blue = state.to_struct(1)
    assert blue["to_move"] == 1 and blue["turn"]["left"] is None and blue["board"]["jump_from"] is None
    assert words(blue["recent"]) == [{"seat": 0, "actions": ["e4>f4*h4r", "*j4e"], "steps": [
        {"action": "e4>f4*h4r", "touched": ["e4", "f4", "h4"], "removed": ["g4"], "revealed": [], "converted": [],
         "path": ["e4", "f4", "h4"],
         "text": "Green slides e4→f4, jumps f4→h4 over Blue's g4 and removes it"},
        {"action": "*j4e", "touched": ["h4", "j4", "i4"], "removed": [], "revealed": [], "converted": ["i4"],
         "path": ["h4", "j4"],
         "text": "Green jumps on h4→j4 over Blue's i4 and turns it Green"}]}]
    assert cell(blue, "i4")["piece"] == 0 and cell(blue, "g4")["piece"] is None
    assert blue["board"]["pieces"] == [2, 1]
    # Green's own view: nothing recent (it moved last), Blue's l12 slides wait
    assert state.to_struct(0)["recent"] == []


def test_launched_jump_back_onto_the_start_square():
    # c4's transit square e4 jumps over d4 back onto c4 (the start counts as empty, §4.3)
    state = SlideCheckersGame().state_from_text("Bd4,Gc4 M G")
    view = state.to_struct(0)
    assert [(t["to"], [o["via"] for o in t["options"]]) for t in piece_choice(view, "c4")["targets"]] == [
        ("e4", [None, None]), ("d3", ["d5", "d5"]), ("c4", ["e4", "e4"])]
    assert words(state.action_effects(state.string_to_action("c4>e4*c4r"), 1)) == {
        "touched": ["c4", "e4"], "removed": ["d4"], "revealed": [], "converted": [], "path": ["c4", "e4", "c4"],
        "text": "Green slides c4→e4, jumps e4→c4 over Blue's d4 and removes it"}


def test_four_players_launch_and_elimination():
    game = SlideCheckersGame(players=4)
    state = game.state_from_text("Bl11,Gk2,Rf5,Yk1 M Y")
    view = state.to_struct(None)
    assert view["choices"]["pieces"] == [{"from": "k1", "transit": ["l1"], "targets": [
        {"to": "k3", "options": [{"action": "k1*k3e", "via": None, "over": "k2", "capture": "exchange"},
                                 {"action": "k1*k3r", "via": None, "over": "k2", "capture": "remove"}]},
        {"to": "j3", "options": [{"action": "k1>l1*j3e", "via": "l1", "over": "k2", "capture": "exchange"},
                                 {"action": "k1>l1*j3r", "via": "l1", "over": "k2", "capture": "remove"}]}]}]
    play(state, "k1*k3r")
    view = state.to_struct(None)
    assert words(view["eliminated"]) == [{"seat": 0, "text": "Green has no pieces left"}]
    assert view["to_move"] == 1 and not view["over"]
    assert view["recent"][-1]["steps"][0]["removed"] == ["k2"]


# --- §4.4, §5 passes and draws ------------------------------------------------------------------------
def test_pass_choice_and_all_passed_draw():
    game = SlideCheckersGame()
    state = game.state_from_text("Ba2,Ba3,Bb1,Bb2,Bc1,Bc3,Ga1 M G passes=1")
    view = state.to_struct(0)
    assert view["choices"] == {"kind": "pass", "action": "pass"} and view["legal"] == ["pass"]
    assert view["board"]["passes"] == 1
    assert words(state.action_effects(state.string_to_action("pass"), 1)) == {
        "touched": [], "removed": [], "revealed": [], "converted": [], "path": [],
        "text": "Green passes (no piece can move)"}
    play(state, "pass")
    assert words(state.to_struct(None)["end"]) == {"reason": "all-passed", "text": "Nobody can move: a draw", "winners": []}


def test_no_jump_draw_and_eliminated_seat():
    game = SlideCheckersGame(players=4)
    state = game.state_from_text("Bl12,Ga12,Yl1 M G nj=99")
    view = state.to_struct(0)
    assert view["board"]["no_jump"] == 99
    assert words(view["eliminated"]) == [{"seat": 2, "text": "Red has no pieces left"}]
    play(state, "a12-a11")
    view = state.to_struct(3)
    assert words(view["end"]) == {"reason": "no-jump", "text": "100 turns without a jump: a draw", "winners": []}
    assert view["returns"] == [0.0, 0.0, -1.0, 0.0]


def test_no_one_is_eliminated_during_placement():
    # O cannot place and forfeits (rules test), but it is out only once the movement phase begins
    game = SlideCheckersGame(players=4, colours="GBRO")
    state = game.state_from_text("Bf2,Bf6,Bf10,Gb2,Gb6,Gb10,Rj2,Rj6,Rj10 P:1/1/1/4 O")
    assert state.to_struct(None)["eliminated"] == []
    assert state.to_struct(None)["board"]["to_place"] == [1, 1, 1, 0]
    play(state, "@b4", "@c8", "@c12")
    view = state.to_struct(None)
    assert view["board"]["phase"] == "movement"
    assert words(view["eliminated"]) == [{"seat": 3, "text": "Orange has no pieces left"}]
    check_struct(game, state)
    assert json.loads(json.dumps(view)) == view


# --- effects in words ---------------------------------------------------------------------------------
def effect_text(state, move: str) -> str:
    return state.action_effects(state.string_to_action(move), None)["text"]


def test_effect_texts_on_the_spec_examples():
    game = SlideCheckersGame()
    # §7.2 placement, §7.3 a step and a slide, §7.7 a step at the edge
    assert effect_text(game.new_initial_state(), "@e4") == "Green places a piece on e4"
    free = game.state_from_text("Bl12,Ge4 M G")
    assert effect_text(free, "e4-f5") == "Green e4→f5 (step)"
    assert effect_text(free, "e4-g5") == "Green e4→g5 (slide)"
    assert effect_text(free, "e4-f4") == "Green e4→f4 (step)"  # ends next to its start: a step
    assert effect_text(game.state_from_text("Bl1,Gc9 M G"), "c9-e10") == "Green c9→e10 (slide)"
    assert effect_text(game.state_from_text("Bl1,Bl3,Ga12,Ge4 M G"), "a12-b11") == "Green a12→b11 (step)"
    # §7.5 slide, then jump: remove or exchange
    slide_jump = game.state_from_text("Be8,Gc9 M G")
    assert effect_text(slide_jump, "c9>d8*f8r") == (
        "Green slides c9→d8, jumps d8→f8 over Blue's e8 and removes it")
    assert effect_text(slide_jump, "c9>d9*f7e") == (
        "Green slides c9→d9, jumps d9→f7 over Blue's e8 and turns it Green")
    # §7.6 the chain: its continuation
    chain = play(game.state_from_text("Bg4,Bi4,Bl12,Ge4 M G"), "e4>f4*h4r")
    assert effect_text(chain, "*j4r") == "Green jumps on h4→j4 over Blue's i4 and removes it"
    assert effect_text(chain, "*j4e") == "Green jumps on h4→j4 over Blue's i4 and turns it Green"
    # a jump from the start square, by another seat over a third seat's piece (4 players)
    four = SlideCheckersGame(players=4).state_from_text("Bl11,Gk2,Rf5,Yk1 M Y")
    assert effect_text(four, "k1*k3r") == "Yellow jumps k1→k3 over Green's k2 and removes it"
    assert effect_text(four, "k1>l1*j3e") == (
        "Yellow slides k1→l1, jumps l1→j3 over Green's k2 and turns it Yellow")
    # Blue's words, and a pass (§4.4)
    blue = game.state_from_text("Bl12,Ge4 M B")
    assert effect_text(blue, "l12-k11") == "Blue l12→k11 (step)"
    assert effect_text(game.state_from_text("Ba2,Ba3,Bb1,Bb2,Bc1,Bc3,Ga1 M G passes=1"), "pass") == (
        "Green passes (no piece can move)")


def test_recent_steps_carry_their_words():
    # the opponent's whole turn in words, step by step, for the seat that moves next
    state = play(SlideCheckersGame().state_from_text("Bg4,Bi4,Bl12,Ge4 M G"), "e4>f4*h4r", "*j4r")
    assert [s["text"] for s in state.to_struct(1)["recent"][0]["steps"]] == [
        "Green slides e4→f4, jumps f4→h4 over Blue's g4 and removes it",
        "Green jumps on h4→j4 over Blue's i4 and removes it"]
