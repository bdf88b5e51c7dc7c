"""Nibble's structured view (view.py): the property checks of abstracta.testing over random
playouts of every variant, and exact boards, choices, effects and end reasons on the worked
examples of nibble.md §7."""

from __future__ import annotations

from abstracta.testing import words

import json
import random

import pytest

from abstracta import load_game
from abstracta.games.nibble import NibbleGame
from abstracta.games.nibble.geometry import geometry
from abstracta.testing import check_struct_playout, random_playout

from .test_nibble import HEX1, SEED1, position

VARIANTS = [v.options["variant"] for v in load_game("nibble").description.variants]


def cells(view: dict) -> dict[str, dict]:
    return {c["id"]: c for c in view["board"]["cells"]}


def discs(view: dict) -> dict[str, str]:
    return {c["id"]: c["disc"] for c in view["board"]["cells"] if c["disc"]}


def groups(view: dict) -> dict[str, tuple[list[str], list[str]]]:
    """colour -> (its takeable discs, its whole turns of two or more discs)."""
    out = {}
    for g in view["choices"]["colours"]:
        assert all(d["cell"] == d["action"] for d in g["discs"])
        assert all(t["turn"] == "+".join(t["cells"]) for t in g["together"])
        out[g["colour"]] = ([d["action"] for d in g["discs"]], [t["turn"] for t in g["together"]])
    return out


# --- properties over random playouts -------------------------------------------------------------
def test_variants_listed():
    assert VARIANTS == ["square9", "square13", "hex"]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [1, 2, 7, 11])
def test_struct_playout(variant, seed):
    game = load_game("nibble", variant=variant)
    final = check_struct_playout(game, seed)
    assert final.is_terminal()


@pytest.mark.parametrize("variant", VARIANTS)
def test_struct_agrees_with_the_engine(variant):
    """Along a playout the board is the engine's (discs, free discs, collections, take), the
    "together" sets are exactly the whole turns of two or more discs (and replay), and every
    step of "recent" names the cell its action took."""
    game = NibbleGame(variant=variant)
    g = geometry(variant)
    seen = []
    random_playout(game, 3, every=lambda s: seen.append(s.clone()))
    for state in seen[::4] + seen[-1:]:
        view = state.to_struct(None)
        board = view["board"]
        assert [c["id"] for c in board["cells"]] == g.names
        for i, c in enumerate(board["cells"]):
            colour = state.colour_at(i)
            assert c["disc"] == (g.letters[colour] if colour >= 0 else None)
        assert sorted(c["id"] for c in board["cells"] if c["free"]) == sorted(g.names[i] for i in state.free_cells())
        assert [[x["count"] for x in coll["colours"]] for coll in board["collections"]] == state.coll
        assert board["take"] == (g.letters[state.take] if state.take >= 0 else None)
        if state.is_terminal():
            assert view["end"]["winners"] == [state.winner]
            continue
        mover = state.current_player()
        view = state.to_struct(mover)
        if state.take < 0:
            together = [t for grp in view["choices"]["colours"] for t in grp["together"]]
            assert [t["turn"] for t in together] == [t for t in game.turn_strings(state) if "+" in t]
            for t in together:
                game.parse_move(state, t["turn"])  # raises if not a legal whole turn
        for turn in view["recent"]:
            for step in turn["steps"]:
                taken = [] if step["action"] == "end" else [step["action"]]
                assert step["touched"] == step["removed"] == taken and step["revealed"] == []


# --- §7.1 / §7.2: seeded square9 ------------------------------------------------------------------
def test_seed1_board_and_choices():
    state = NibbleGame(first_player=0).new_initial_state(seed=1)
    view = state.to_struct(0)
    board = view["board"]
    assert board["variant"] == "square9" and board["shape"] == "square"
    assert board["cells"][0] == {"id": "a1", "x": 0, "y": 0, "disc": "G", "free": True}
    assert board["cells"][1] == {"id": "b1", "x": 1, "y": 0, "disc": "A", "free": False}
    assert board["cells"][80] == {"id": "i9", "x": 8, "y": 8, "disc": "H", "free": True}
    # top rank first, as the position text writes it
    assert "/".join("".join(discs(view)[f"{f}{r}"] for f in "abcdefghi") for r in range(9, 0, -1)) == SEED1
    assert sorted(c["id"] for c in board["cells"] if c["free"]) == ["a1", "a9", "i1", "i9"]
    assert board["labels"][:2] == [{"text": "a", "x": 0, "y": -0.7}, {"text": "b", "x": 1, "y": -0.7}]
    assert board["labels"][9] == {"text": "1", "x": -0.7, "y": 0}
    assert board["colours"][0] == {"colour": "A", "key": "disc.A", "name": "red", "ink": "light"}
    assert board["colours"][2]["ink"] == "dark"  # yellow
    assert [c["key"] for c in board["colours"]] == list(load_game("nibble").description.board)[:9]
    assert board["take"] is None
    assert board["targets"] == {"all": 9, "triple": 7, "majority": 5, "majorities": 5}
    assert view["choices"] == {
        "take": None, "end": None,
        "colours": [
            {"colour": "G", "name": "blue", "discs": [{"cell": "a1", "action": "a1", "ends": False},
                                                      {"cell": "a9", "action": "a9", "ends": False}],
             "together": [{"cells": ["a1", "a9"], "turn": "a1+a9"}]},
            {"colour": "H", "name": "purple", "discs": [{"cell": "i1", "action": "i1", "ends": False},
                                                        {"cell": "i9", "action": "i9", "ends": False}],
             "together": [{"cells": ["i1", "i9"], "turn": "i1+i9"}]},
        ]}
    assert view["turn"] == {"seat": 0, "actions": [], "left": None}
    # perfect information: the other seat and a spectator see the same board and choices
    assert state.to_struct(1)["board"] == state.to_struct(None)["board"] == board
    assert state.to_struct(None)["choices"] == view["choices"]


def test_seed2_four_colours_no_pairs():
    view = NibbleGame().new_initial_state(seed=2).to_struct(None)
    # four different colours: canonical order i1 (B), i9 (C), a1 (D), a9 (G)
    assert groups(view) == {"B": (["i1"], []), "C": (["i9"], []), "D": (["a1"], []), "G": (["a9"], [])}
    assert [d["action"] for g in view["choices"]["colours"] for d in g["discs"]] == ["i1", "i9", "a1", "a9"]


# --- §7.3–§7.5: ring, line, T ------------------------------------------------------------------------
def test_ring_corners_free_edges_not():
    state = NibbleGame().state_from_text(position(
        "square9", {"a3": "A", "b3": "B", "c3": "A", "a2": "B", "c2": "B", "a1": "A", "b1": "B", "c1": "A"}))
    view = state.to_struct(0)
    free = {c["id"]: c["free"] for c in view["board"]["cells"] if c["disc"]}
    assert free == {"a1": True, "c1": True, "a3": True, "c3": True,
                    "b1": False, "a2": False, "c2": False, "b3": False}
    assert groups(view) == {"A": (["a1", "c1", "a3", "c3"], [])}  # no pair of corners


def test_line_pair():
    state = NibbleGame().state_from_text(position("square9", {"a1": "A", "b1": "B", "c1": "A"}))
    view = state.to_struct(0)
    assert not cells(view)["b1"]["free"]  # exposed N and S only
    assert groups(view) == {"A": (["a1", "c1"], ["a1+c1"])}


def test_t_shape_groups():
    state = NibbleGame().state_from_text(position("square9", {"b2": "A", "a1": "B", "b1": "C", "c1": "B"}))
    view = state.to_struct(0)
    assert [g["colour"] for g in view["choices"]["colours"]] == ["A", "B"]
    assert groups(view) == {"A": (["b2"], []), "B": (["a1", "c1"], ["a1+c1"])}
    assert not cells(view)["b1"]["free"]


# --- a turn in progress, effects and "recent" -----------------------------------------------------------
def test_mid_turn_choices_turn_left_and_recent():
    game = NibbleGame(first_player=0)
    state = game.new_initial_state(seed=1)
    state.apply_action(state.string_to_action("a1"))
    view = state.to_struct(0)
    assert view["board"]["take"] == "G"
    assert cells(view)["a1"]["disc"] is None
    assert cells(view)["a2"]["free"] and cells(view)["b1"]["free"]  # a1's neighbours are now open
    assert view["turn"] == {"seat": 0, "actions": ["a1"], "left": {"colour": "G", "more": ["a9"]}}
    assert view["choices"] == {"take": "G", "end": {"action": "end"},
                               "colours": [{"colour": "G", "name": "blue", "together": [],
                                            "discs": [{"cell": "a9", "action": "a9", "ends": True}]}]}
    assert view["board"]["collections"][0]["colours"][6] == {"colour": "G", "count": 1, "major": False}
    assert view["board"]["collections"][0]["total"] == 1
    assert words(state.action_effects(game.geometry.index["a9"], 1)) == {"touched": ["a9"], "removed": ["a9"], "revealed": [],
                                                                  "text": "took a9 (blue G)"}
    assert words(state.action_effects(game.geometry.cells, 1)) == {"touched": [], "removed": [], "revealed": [],
                                                            "text": "ended the turn"}
    state.apply_action(state.string_to_action("a9"))  # no G left to take: the turn ends by itself
    view = state.to_struct(1)
    assert view["to_move"] == 1 and view["turn"]["left"] is None
    assert words(view["recent"]) == [{"seat": 0, "actions": ["a1", "a9"], "steps": [
        {"action": "a1", "touched": ["a1"], "removed": ["a1"], "revealed": [], "text": "took a1 (blue G)"},
        {"action": "a9", "touched": ["a9"], "removed": ["a9"], "revealed": [], "text": "took a9 (blue G)"}]}]
    assert state.to_struct(0)["recent"] == []  # seat 0 sees nothing new since it moved


def test_explicit_end_is_a_step_without_cells():
    game = NibbleGame(first_player=0)
    state = game.new_initial_state(seed=1)
    for a in ("a1", "end"):
        state.apply_action(state.string_to_action(a))
    steps = state.to_struct(1)["recent"][0]["steps"]
    assert words(steps[1]) == {"action": "end", "touched": [], "removed": [], "revealed": [], "text": "ended the turn"}


# --- §7.6 / §7.7: end reasons ----------------------------------------------------------------------------
def _win_after(held: dict[str, int], last: str):
    coll0 = {"A": 3, "B": 4, "C": 4, "D": 4, "E": 4, "F": 4, "G": 5, "H": 4, "I": 5}
    coll0.update(held)
    game = NibbleGame()
    state = game.state_from_text(position("square9", {"a1": last, "b1": "F" if last != "F" else "G"}, 0, coll0))
    state.apply_action(state.string_to_action("a1"))
    return state


def test_end_three_adjacent_colours():
    view = _win_after({"C": 7, "D": 7, "E": 6}, "E").to_struct(1)
    assert view["over"] and view["to_move"] is None and view["choices"] == {}
    assert words(view["end"]) == {"reason": "three-adjacent-colours", "colours": "CDE", "winners": [0],
                           "text": "7 or more of each of C, D, E (yellow, lime, green) collected"}
    best = view["board"]["collections"][0]["best_run"]
    assert best == {"colours": "CDE", "least": 7}


def test_end_all_of_a_colour():
    view = _win_after({"A": 8}, "A").to_struct(None)
    assert words(view["end"]) == {"reason": "all-of-a-colour", "colour": "A", "winners": [0],
                           "text": "All 9 red discs (A) collected"}
    assert view["board"]["collections"][0]["most"] == {"colour": "A", "count": 9}


def test_no_end_for_non_adjacent_colours():
    state = _win_after({"A": 6, "C": 7, "E": 7}, "A")
    assert state.to_struct(0)["end"] is None


def test_end_majorities_on_an_empty_board():
    held = dict(zip("ABCDEFGHI", (5, 6, 5, 7, 5, 4, 3, 2, 0)))
    state = NibbleGame().state_from_text(position("square9", {"a1": "I"}, 0, held))
    state.apply_action(state.string_to_action("a1"))
    view = state.to_struct(1)
    assert words(view["end"]) == {"reason": "majorities", "colours": "ABCDE", "winners": [0],
                           "text": "The board is empty: majorities in 5 of 9 colours (A, B, C, D, E)"}
    colls = view["board"]["collections"]
    assert (colls[0]["total"], colls[1]["total"]) == (38, 43)
    assert (colls[0]["majorities"], colls[1]["majorities"]) == (5, 4)
    assert [c["major"] for c in colls[0]["colours"]] == [True] * 5 + [False] * 4
    assert all(c["disc"] is None and not c["free"] for c in view["board"]["cells"])


# --- §7.8: hex seed 1 ----------------------------------------------------------------------------------------
def test_hex_seed1_board_and_choices():
    state = NibbleGame(variant="hex").new_initial_state(seed=1)
    view = state.to_struct(None)
    board = view["board"]
    assert board["shape"] == "hex" and len(board["cells"]) == 169
    by = cells(view)
    assert by["a1"] == {"id": "a1", "x": 0.5, "y": 0, "disc": "A", "free": True}   # x = c − r/2
    assert by["h15"] == {"id": "h15", "x": 11, "y": 7, "disc": "F", "free": True}
    assert by["a2"]["free"] is False  # only SW and SE exposed
    assert sorted(c["id"] for c in board["cells"] if c["free"]) == ["a1", "a8", "h1", "h15", "o15", "o8"]
    rows = HEX1.split("/")
    assert "".join(by[f"o{c}"]["disc"] for c in range(8, 16)) == rows[0]
    assert {"text": "a", "x": -0.2, "y": 0} in board["labels"]  # left of a1 (x 0.5)
    assert {"text": "1", "x": 0.85, "y": -0.7} in board["labels"]  # below-right of a1
    assert {"text": "15", "x": 11.35, "y": 6.3} in board["labels"]  # below-right of h15 (11, 7)
    assert board["targets"] == {"all": 13, "triple": 10, "majority": 7, "majorities": 7}
    assert len(board["colours"]) == 13 and board["colours"][12]["name"] == "black"
    view = state.to_struct(0)
    assert groups(view) == {"A": (["a1"], []), "F": (["h15"], []), "G": (["h1", "o8"], ["h1+o8"]),
                            "K": (["a8"], []), "L": (["o15"], [])}
    order = [d["action"] for g in view["choices"]["colours"] for d in g["discs"]]
    assert order == ["a1", "h15", "h1", "o8", "a8", "o15"]  # the spec's canonical order


def test_struct_is_plain_json():
    state = NibbleGame(variant="hex").new_initial_state(seed=5)
    rng = random.Random(5)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    for player in (None, 0, 1):
        view = state.to_struct(player)
        assert json.loads(json.dumps(view)) == view


# --- effects in words and "ends" (a one-disc take that closes the turn by itself) -------------------------
def test_effect_texts_seed1():
    """§7 example 1: the corners, in words; a1 alone leaves a9 (G) to take, so it does not end
    the turn; after i1 and i9 the purple discs are gone from the corners."""
    game = NibbleGame(first_player=0)
    state = game.new_initial_state(seed=1)
    idx = game.geometry.index
    assert state.action_effects(idx["a1"], 0)["text"] == "took a1 (blue G)"
    assert state.action_effects(idx["i9"], None)["text"] == "took i9 (purple H)"
    for a in ("i1", "i9"):
        state.apply_action(state.string_to_action(a))
    steps = state.to_struct(1)["recent"][0]["steps"]
    assert [s["text"] for s in steps] == ["took i1 (purple H)", "took i9 (purple H)"]


def test_effect_text_of_a_winning_take():
    """§7 example 6: holding C 7, D 7, E 6 and taking one E wins; the step says so."""
    state = _win_after({"C": 7, "D": 7, "E": 6}, "E")
    step = state.to_struct(1)["recent"][0]["steps"][0]
    assert words(step) == {"action": "a1", "touched": ["a1"], "removed": ["a1"], "revealed": [],
                    "text": "took a1 (green E) and won"}


def test_effect_text_when_the_last_take_loses():
    """§7 example 7 seen from the other side: seat 1 empties the board and seat 0 wins on
    majorities."""
    held = dict(zip("ABCDEFGHI", (5, 6, 5, 7, 5, 4, 3, 2, 1)))  # seat 1 ends with G 6, H 7, I 8
    state = NibbleGame().state_from_text(position("square9", {"a1": "H"}, 1, held))
    assert state.to_struct(1)["legal"] == ["a1"]
    state.apply_action(state.string_to_action("a1"))
    assert state.returns() == [1.0, -1.0]
    assert state.to_struct(0)["recent"][0]["steps"][0]["text"] == "took a1 (purple H), ending the game"


def test_ends_flags():
    """§7 examples 4 and 5: in the line, a1 and c1 go together (neither ends the turn alone);
    in the T shape b2 (A) ends it, a1 and c1 (B) do not; a take that wins ends it too."""
    line = NibbleGame().state_from_text(position("square9", {"a1": "A", "b1": "B", "c1": "A"}))
    ends = {d["cell"]: d["ends"] for g in line.to_struct(0)["choices"]["colours"] for d in g["discs"]}
    assert ends == {"a1": False, "c1": False}
    t = NibbleGame().state_from_text(position("square9", {"b2": "A", "a1": "B", "b1": "C", "c1": "B"}))
    ends = {d["cell"]: d["ends"] for g in t.to_struct(0)["choices"]["colours"] for d in g["discs"]}
    assert ends == {"b2": True, "a1": False, "c1": False}
    held = {"A": 7, "B": 6, "C": 7}  # a seventh B makes A, B, C ≥ 7 each (§5 instant win B)
    win = NibbleGame().state_from_text(position("square9", {"b2": "A", "a1": "B", "b1": "C", "c1": "B"}, 0, held))
    ends = {d["cell"]: d["ends"] for g in win.to_struct(0)["choices"]["colours"] for d in g["discs"]}
    assert ends == {"b2": True, "a1": True, "c1": True}


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_the_rules_page_tells_the_apps_clicks_by_the_boards_own_buttons(lang):
    """The rules page's "In the app" line once said to click discs and then "take"; a click on a
    free disc takes it and ends the turn, and several discs are taken after "Add more of this
    colour". The page names those buttons in the words the board shows them."""
    from abstracta.server import i18n

    game = load_game("nibble")
    page, shown = i18n.rules_html(game, lang)
    assert shown == lang
    catalog = json.loads((game.description.resources / "i18n" / f"{lang}.json").read_text("utf-8"))
    for key in ("nibble.board.add_more", "nibble.board.take"):
        assert f"“{catalog[key]}”" in page or f"”{catalog[key]}”" in page, key
