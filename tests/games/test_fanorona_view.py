"""Fanorona's structured view (view.py): the envelope's property checks on random playouts of
every declared variant, capture effects against the engine's own moves, and the worked examples
of fanorona.md §6 with their exact boards, choices, effects and end reasons."""

from __future__ import annotations

from abstracta.testing import words

import pytest

from abstracta import load_game
from abstracta.games.fanorona import FanoronaGame
from abstracta.testing import check_struct_playout, random_playout

VARIANTS = load_game("fanorona").description.variants


def play(game: FanoronaGame, text: str | None, moves=()):
    state = game.new_initial_state() if text is None else game.state_from_text(text)
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def point(view: dict, name: str) -> dict:
    return next(p for p in view["board"]["points"] if p["id"] == name)


def stones(view: dict, seat: int) -> list[str]:
    return sorted(p["id"] for p in view["board"]["points"] if p["stone"] == seat)


def opt(kind: str, action: str, removes: list[str]) -> dict:
    return {"kind": kind, "action": action, "removes": removes}


# --- properties ----------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.options["size"])
@pytest.mark.parametrize("seed", range(12))
def test_struct_along_random_playouts(variant, seed):
    game = load_game("fanorona", **variant.options)
    max_actions = 120 if variant.options["size"] == "tsivy" else 300
    check_struct_playout(game, seed, max_actions=max_actions)


@pytest.mark.parametrize("options", [{"size": "dimy", "vela": True}, {"size": "tsivy", "vela": True},
                                     {"size": "dimy", "first_turn_single_capture": True}])
def test_struct_along_random_playouts_of_the_rule_options(options):
    for seed in range(4):
        check_struct_playout(load_game("fanorona", **options), seed, max_actions=300)


@pytest.mark.parametrize("options", [{"size": "tsivy"}, {"size": "dimy"}, {"size": "telo"},
                                     {"size": "tsivy", "vela": True}, {"size": "dimy", "vela": True}])
def test_effects_are_what_the_engine_does(options):
    """For every legal action along random playouts: ``removed`` is exactly the enemy stones
    that disappear when the engine plays it, ``touched`` its from and to points, and the
    choices' ``removes`` agree."""
    game = load_game("fanorona", **options)
    names = game.geometry.names

    def bits(mask: int) -> set[str]:
        return {names[p] for p in range(game.geometry.n) if mask >> p & 1}

    def visit(state):
        if state.is_terminal():
            return
        side = state.side
        before = state.bitboards()
        removes = {o["action"]: o["removes"] for m in state.choices_struct(state.legal_action_strings())["moves"]
                   for t in m["to"] for o in t["options"]}
        for action in state.legal_actions():
            text = state.action_to_string(action)
            effects = state.action_effects(action, None)
            twin = state.clone()
            twin.apply_action(action)
            after = twin.bitboards()
            gone = bits(before[1 - side] & ~after[1 - side])
            assert set(effects["removed"]) == gone and len(effects["removed"]) == len(gone), text
            assert effects["revealed"] == []
            if text == "end":
                assert words(effects) == {"touched": [], "removed": [], "revealed": [],
                                   "text": f"{('White', 'Black')[side]} ends the turn"}
            else:
                assert effects["touched"] == text.rstrip("AW").split("-")
                assert removes[text] == effects["removed"]

    for seed in range(8):
        random_playout(game, seed, max_actions=200, every=visit)


# --- fanorona.md §1-§2: the board ------------------------------------------------------------------

def test_tsivy_start_board():
    view = load_game("fanorona").new_initial_state().to_struct(None)
    board = view["board"]
    assert (board["size"], board["width"], board["height"], board["files"]) == ("tsivy", 9, 5, "abcdefghi")
    assert board["points"][0] == {"id": "a1", "x": 0, "y": 0, "strong": True, "stone": 0}
    assert point(view, "b3") == {"id": "b3", "x": 1, "y": 2, "strong": False, "stone": 0}
    assert point(view, "a3") == {"id": "a3", "x": 0, "y": 2, "strong": True, "stone": 1}
    assert point(view, "e3") == {"id": "e3", "x": 4, "y": 2, "strong": True, "stone": None}
    assert point(view, "i5") == {"id": "i5", "x": 8, "y": 4, "strong": True, "stone": 1}
    assert [p["id"] for p in board["points"]][:6] == ["a1", "a2", "a3", "a4", "a5", "b1"]
    assert board["stones"] == [22, 22]
    assert len(stones(view, 0)) == len(stones(view, 1)) == 22
    assert (board["chain"], board["no_progress"], board["no_progress_limit"]) == (None, 0, 100)
    assert (board["vela_phase"], board["first_turn"]) == (False, [])
    # §1: 8×5 + 9×4 orthogonal segments, one diagonal per unit square through its strong corners
    lines = {tuple(line) for line in board["lines"]}
    assert len(board["lines"]) == len(lines) == 76 + 32
    assert {("a1", "b1"), ("a1", "a2"), ("a1", "b2"), ("b2", "c1"), ("e3", "f4"), ("e3", "f2")} <= lines
    assert not lines & {("a2", "b1"), ("b1", "a2"), ("b1", "c2"), ("b2", "a1")}


def test_telo_board_lines():
    board = load_game("fanorona", size="telo").new_initial_state().to_struct(0)["board"]
    assert board["lines"] == [["a1", "a2"], ["a1", "b2"], ["a1", "b1"], ["a2", "a3"], ["a2", "b2"],
                              ["a3", "b3"], ["a3", "b2"], ["b1", "b2"], ["b1", "c1"], ["b2", "b3"],
                              ["b2", "c3"], ["b2", "c2"], ["b2", "c1"], ["b3", "c3"], ["c1", "c2"],
                              ["c2", "c3"]]
    assert [p["id"] for p in board["points"] if p["strong"]] == ["a1", "a3", "b2", "c1", "c3"]


# --- fanorona.md §6: the worked examples ----------------------------------------------------------

def test_example_1_tsivy_opening_choices():
    view = load_game("fanorona").new_initial_state().to_struct(0)
    assert view["choices"] == {"phase": "capture", "stone": None, "end": None, "moves": [
        {"from": "d2", "to": [{"to": "e3", "options": [opt("approach", "d2-e3A", ["f4", "g5"])]}]},
        {"from": "d3", "to": [{"to": "e3", "options": [opt("approach", "d3-e3A", ["f3"]),
                                                       opt("withdrawal", "d3-e3W", ["c3"])]}]},
        {"from": "e2", "to": [{"to": "e3", "options": [opt("approach", "e2-e3A", ["e4", "e5"])]}]},
        {"from": "f2", "to": [{"to": "e3", "options": [opt("approach", "f2-e3A", ["d4", "c5"])]}]}]}
    assert view["turn"] == {"seat": 0, "actions": [], "left": None}


def test_example_2_black_reply_recent_and_chain():
    game = load_game("fanorona")
    state = play(game, None, ["d2-e3A"])
    view = state.to_struct(1)
    assert words(view["recent"]) == [{"seat": 0, "actions": ["d2-e3A"], "steps": [
        {"action": "d2-e3A", "touched": ["d2", "e3"], "removed": ["f4", "g5"], "revealed": [],
         "text": "White d2→e3, takes f4 and g5 by approach"}]}]
    assert point(view, "f4")["stone"] is None and point(view, "e3")["stone"] == 0
    assert view["board"]["stones"] == [22, 20]
    moves = {m["from"]: m["to"] for m in view["choices"]["moves"]}
    assert moves == {
        "c3": [{"to": "d2", "options": [opt("approach", "c3-d2A", ["e1"])]}],
        "e5": [{"to": "f4", "options": [opt("approach", "e5-f4A", ["g3", "h2", "i1"])]}],
        "f3": [{"to": "f4", "options": [opt("withdrawal", "f3-f4W", ["f2", "f1"])]}],
        "g4": [{"to": "g5", "options": [opt("withdrawal", "g4-g5W", ["g3", "g2", "g1"])]}],
        "h4": [{"to": "g5", "options": [opt("withdrawal", "h4-g5W", ["i3"])]}]}
    # White sees nothing of its own turn as "recent"
    assert state.to_struct(0)["recent"] == []
    state = play(game, None, ["d2-e3A", "e5-f4A"])
    view = state.to_struct(1)
    chain = {"stone": "f4", "last": "SE", "visited": ["e5", "f4"], "taken": ["g3", "h2", "i1"]}
    assert view["board"]["chain"] == chain
    assert view["turn"] == {"seat": 1, "actions": ["e5-f4A"], "left": chain}
    assert view["choices"] == {"phase": "chain", "stone": "f4", "end": {"action": "end"}, "moves": [
        {"from": "f4", "to": [{"to": "g5", "options": [opt("withdrawal", "f4-g5W", ["e3"])]}]}]}
    assert view["legal"] == ["f4-g5W", "end"]


def test_example_3_chain_with_a_choice():
    game = load_game("fanorona")
    start = "...B...../........./..W.BB.../...B...../........B W"
    view = play(game, start).to_struct(0)
    assert view["choices"]["moves"] == [{"from": "c3", "to": [
        {"to": "b4", "options": [opt("withdrawal", "c3-b4W", ["d2"])]},
        {"to": "d3", "options": [opt("approach", "c3-d3A", ["e3", "f3"])]}]}]
    view = play(game, start, ["c3-d3A"]).to_struct(0)
    assert view["choices"] == {"phase": "chain", "stone": "d3", "end": {"action": "end"}, "moves": [
        {"from": "d3", "to": [{"to": "d4", "options": [opt("approach", "d3-d4A", ["d5"]),
                                                       opt("withdrawal", "d3-d4W", ["d2"])]}]}]}
    state = play(game, start, ["c3-d3A", "d3-d4W"])
    view = state.to_struct(1)
    assert stones(view, 0) == ["d4"] and stones(view, 1) == ["d5", "i1"]
    assert words(view["recent"]) == [{"seat": 0, "actions": ["c3-d3A", "d3-d4W"], "steps": [
        {"action": "c3-d3A", "touched": ["c3", "d3"], "removed": ["e3", "f3"], "revealed": [],
         "text": "White c3→d3, takes e3 and f3 by approach"},
        {"action": "d3-d4W", "touched": ["d3", "d4"], "removed": ["d2"], "revealed": [],
         "text": "White d3→d4, takes d2 by withdrawal"}]}]
    assert view["choices"] == {"phase": "paika", "stone": None, "end": None, "moves": [
        {"from": "d5", "to": [{"to": "c5", "options": [opt("paika", "d5-c5", [])]},
                              {"to": "e5", "options": [opt("paika", "d5-e5", [])]}]},
        {"from": "i1", "to": [{"to": "h1", "options": [opt("paika", "i1-h1", [])]},
                              {"to": "h2", "options": [opt("paika", "i1-h2", [])]},
                              {"to": "i2", "options": [opt("paika", "i1-i2", [])]}]}]}
    # a spectator sees the last turn of each seat; the board has no chain any more
    assert [t["seat"] for t in state.to_struct(None)["recent"]] == [0]
    assert view["board"]["chain"] is None and view["turn"]["left"] is None


def test_example_4_no_two_steps_in_one_direction():
    view = play(load_game("fanorona"), "........./........./..B....../........./BW..B.... W", ["b1-c1W"]).to_struct(0)
    assert view["recent"] == []
    assert view["turn"]["actions"] == ["b1-c1W"]
    assert view["choices"] == {"phase": "chain", "stone": "c1", "end": {"action": "end"}, "moves": [
        {"from": "c1", "to": [{"to": "c2", "options": [opt("approach", "c1-c2A", ["c3"])]}]}]}


def test_example_5_visited_points():
    game = load_game("fanorona")
    state = play(game, "........./........./...BB..../........./..W.B.... W", ["c1-d1A"])
    view = state.to_struct(1)
    assert view["board"]["chain"] == {"stone": "d1", "last": "E", "visited": ["c1", "d1"], "taken": ["e1"]}
    # perfect information: every viewer sees White's options, as the envelope promises
    assert view["legal"] == ["d1-d2A", "end"] and view["to_move"] == 0
    assert view["choices"]["moves"] == [{"from": "d1", "to": [{"to": "d2", "options": [
        opt("approach", "d1-d2A", ["d3"])]}]}]
    state.apply_action(state.string_to_action("d1-d2A"))
    view = state.to_struct(1)
    assert view["to_move"] == 1 and view["board"]["chain"] is None
    assert words(view["recent"][0]["steps"][1]) == {"action": "d1-d2A", "touched": ["d1", "d2"], "removed": ["d3"],
                                             "revealed": [], "text": "White d1→d2, takes d3 by approach"}


def test_example_6_immobile_side_loses():
    view = play(load_game("fanorona"), "........./........./........./WW......./BW....... B").to_struct(None)
    assert view["over"] and view["to_move"] is None and view["returns"] == [1.0, -1.0]
    assert words(view["end"]) == {"reason": "no-moves", "text": "Black cannot move", "winners": [0]}
    assert view["legal"] == [] and view["choices"] == {}


def test_example_7_vela():
    game = load_game("fanorona", vela=True)
    view = game.new_initial_state().to_struct(0)
    assert view["board"]["vela_phase"] is True
    first = view["choices"]["moves"][0]
    assert first == {"from": "d2", "to": [{"to": "e3", "options": [opt("approach", "d2-e3A", ["f4"])]}]}
    state = play(game, None, ["d2-e3A"])
    assert state.to_struct(1)["recent"][0]["steps"][0]["removed"] == ["f4"]
    choices = state.to_struct(1)["choices"]
    assert choices["phase"] == "paika"
    assert [o["action"] for m in choices["moves"] for t in m["to"] for o in t["options"]] == [
        "c3-d2", "e4-f4", "e5-f4", "f3-f4", "f5-f4", "g4-f4", "g5-f4"]


def test_example_8_dimy_and_telo_openings():
    view = load_game("fanorona", size="dimy").new_initial_state().to_struct(0)
    removes = {o["action"]: o["removes"] for m in view["choices"]["moves"] for t in m["to"] for o in t["options"]}
    assert removes == {"b2-c3A": ["d4", "e5"], "c2-c3A": ["c4", "c5"], "d2-c3A": ["b4", "a5"],
                       "d3-c3A": ["b3"], "d3-c3W": ["e3"]}
    view = load_game("fanorona", size="telo").new_initial_state().to_struct(0)
    removes = {o["action"]: o["removes"] for m in view["choices"]["moves"] for t in m["to"] for o in t["options"]}
    assert removes == {"a1-b2A": ["c3"], "b1-b2A": ["b3"], "c1-b2A": ["a3"], "c2-b2A": ["a2"]}
    assert view["board"]["stones"] == [4, 4]


# --- fanorona.md §4: the other end reasons and the first-turn option ------------------------------

def test_end_when_the_last_stone_is_captured():
    view = play(load_game("fanorona", size="telo"), "..B/.../W.. W", ["a1-b2A"]).to_struct(1)
    assert words(view["end"]) == {"reason": "no-stones", "text": "Black has no stones left", "winners": [0]}
    assert view["recent"][0]["steps"][0]["removed"] == ["c3"]
    assert view["board"]["stones"] == [1, 0]


def test_end_by_repetition():
    shuffle = ["a1-a2", "e5-e4", "a2-a1", "e4-e5"]
    state = play(load_game("fanorona", size="dimy"), "....B/...../...../...../W.... W", shuffle * 2)
    view = state.to_struct(0)
    assert words(view["end"]) == {"reason": "repetition", "text": "The same position occurred for the third time: a draw",
                           "winners": []}
    assert view["returns"] == [0.0, 0.0]


def test_end_without_progress():
    state = play(load_game("fanorona", size="dimy"), "....B/...../...../...../W.... W nc=99", ["a1-a2"])
    view = state.to_struct(None)
    assert words(view["end"]) == {"reason": "no-progress", "text": "100 turns without a capture: a draw", "winners": []}
    assert view["board"]["no_progress"] == 100


def test_first_turn_option_is_shown():
    game = load_game("fanorona", size="telo", first_turn_single_capture=True)
    assert game.new_initial_state().to_struct(0)["board"]["first_turn"] == [0, 1]
    state = play(game, None, ["a1-b2A"])
    assert state.to_struct(1)["board"]["first_turn"] == [1]


# --- effects in words (the browser's text alternative reads these) ---------------------------------

def effect_text(state, action: str) -> str:
    return state.action_effects(state.string_to_action(action), None)["text"]


def test_effect_texts_of_the_tsivy_opening():
    """fanorona.md §6 example 1: every opening capture in words, line stones nearest first."""
    state = load_game("fanorona").new_initial_state()
    assert {a: effect_text(state, a) for a in state.legal_action_strings()} == {
        "d2-e3A": "White d2→e3, takes f4 and g5 by approach",
        "d3-e3A": "White d3→e3, takes f3 by approach",
        "d3-e3W": "White d3→e3, takes c3 by withdrawal",
        "e2-e3A": "White e2→e3, takes e4 and e5 by approach",
        "f2-e3A": "White f2→e3, takes d4 and c5 by approach"}


def test_effect_texts_of_black_chain_paika_and_end():
    """Examples 2 and 3: a three-stone line, a chain step, ``end`` and a paika."""
    game = load_game("fanorona")
    state = play(game, None, ["d2-e3A"])
    assert effect_text(state, "e5-f4A") == "Black e5→f4, takes g3, h2 and i1 by approach"
    assert effect_text(state, "f3-f4W") == "Black f3→f4, takes f2 and f1 by withdrawal"
    state = play(game, None, ["d2-e3A", "e5-f4A"])
    assert effect_text(state, "f4-g5W") == "Black f4→g5, takes e3 by withdrawal"
    assert effect_text(state, "end") == "Black ends the turn"
    state = play(game, "...B...../........./..W.BB.../...B...../........B W", ["c3-d3A", "d3-d4W"])
    assert effect_text(state, "d5-e5") == "Black d5→e5"
    assert [s["text"] for t in play(game, None, ["d2-e3A", "e5-f4A", "end"]).to_struct(0)["recent"]
            for s in t["steps"]] == ["Black e5→f4, takes g3, h2 and i1 by approach", "Black ends the turn"]


def test_effect_text_in_the_vela_phase_takes_one_stone():
    """Example 7: in the vela phase d2-e3A takes only f4."""
    state = load_game("fanorona", vela=True).new_initial_state()
    assert effect_text(state, "d2-e3A") == "White d2→e3, takes f4 by approach"


def test_chain_lists_the_stones_taken_this_turn():
    """Example 3: after c3-d3A the chain has taken e3 and f3; a position read mid-chain knows
    only the steps played since."""
    game = load_game("fanorona")
    state = play(game, "...B...../........./..W.BB.../...B...../........B W", ["c3-d3A"])
    assert state.to_struct(0)["board"]["chain"]["taken"] == ["e3", "f3"]
    assert state.to_struct(0)["turn"]["left"]["taken"] == ["e3", "f3"]
    assert play(game, state.to_text()).to_struct(0)["board"]["chain"]["taken"] == []
