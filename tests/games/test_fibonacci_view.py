"""Fibonacci's structured view (view.py): the contract checks along random playouts of every
variant, and exact boards, choices, effects and end reasons on the worked examples of
rules/fibonacci.md §8."""

from __future__ import annotations

from abstracta.testing import words

import json

import pytest

from abstracta import load_game
from abstracta.games.fibonacci import rules
from abstracta.games.fibonacci.view import NUM_PLACEMENTS
from abstracta.testing import check_struct, check_struct_playout

START = "caaaaa/1a5/8/8S/2s3SSS1/3s3S3/1sss3S2/s8/8/5A1/AAAAAC R 1 1"
V1_ATTACK_DESTS = ["a6", "b1", "b2", "b3", "b4", "b5", "b7", "c6", "c7"]


def cell(view: dict, name: str) -> dict:
    return next(c for c in view["board"]["cells"] if c["id"] == name)


def moves_from(view: dict, name: str) -> list[dict]:
    return next(m["to"] for m in view["choices"]["moves"] if m["from"] == name)


def play(state, *moves: str):
    for m in moves:
        state.apply_action(state.string_to_action(m))
    return state


# --- the contract along random playouts ---------------------------------------------------
VARIANTS = [v.options for v in load_game("fibonacci").description.variants]


def test_every_variant_is_covered():
    assert sorted(o["variant"] for o in VARIANTS) == ["cards", "go", "standard"]
    assert NUM_PLACEMENTS == rules.NUM_PLACEMENTS


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: o["variant"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_struct_contract_on_playouts(options, seed):
    game = load_game("fibonacci", **options)
    check_struct_playout(game, seed, max_actions=150)


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: o["variant"])
def test_struct_contract_on_a_long_playout(options):
    # random games last about 1,000-1,700 actions and end at the turn cap
    game = load_game("fibonacci", **options)
    final = check_struct_playout(game, 7, max_actions=2000, every=23)
    check_struct(game, final)
    assert words(final.to_struct(None)["end"]) == {"reason": "turn-limit", "text": "Turn 300 ended without a winner: a draw",
                                            "turn": 300, "winners": []}


# --- V1: the opening ------------------------------------------------------------------------
def test_v1_board_entries_and_groups():
    view = load_game("fibonacci").new_initial_state().to_struct(0)
    board = view["board"]
    assert (board["variant"], board["phase"], board["t"], board["placed"]) == ("standard", "movement", 1, 26)
    assert len(board["cells"]) == 91
    assert [c["id"] for c in board["cells"][:7]] == ["a1", "a2", "a3", "a4", "a5", "a6", "b1"]
    # §1 drawing geometry: x = c − r/2, y = r·√3/2
    assert cell(view, "a6") == {"id": "a6", "row": 1, "col": 6, "x": 5.5, "y": 0.866,
                                "piece": {"seat": 0, "kind": "core", "letter": "C", "group": None}}
    assert cell(view, "f11") == {"id": "f11", "row": 6, "col": 11, "x": 8.0, "y": 5.1962,
                                 "piece": None}
    assert cell(view, "k7")["piece"] == {"seat": 1, "kind": "attack", "letter": "a", "group": 3}
    red_attack, green_support = board["groups"][0], board["groups"][1]
    assert red_attack == {"id": 0, "seat": 0, "kind": "attack", "cells": ["a1", "a2", "a3", "a4", "a5", "b6"],
                          "links": [["a1", "a2"], ["a2", "a3"], ["a3", "a4"], ["a4", "a5"], ["a5", "b6"]]}
    # the snake of Green's supports has a triangle e3 e4 f4: three links
    assert green_support == {"id": 1, "seat": 1, "kind": "support", "cells": ["d1", "e2", "e3", "e4", "f4", "g4"],
                             "links": [["d1", "e2"], ["e2", "e3"], ["e3", "e4"], ["e3", "f4"], ["e4", "f4"],
                                       ["f4", "g4"]]}
    assert [(g["seat"], g["kind"], len(g["cells"])) for g in board["groups"]] == [
        (0, "attack", 6), (1, "support", 6), (0, "support", 6), (1, "attack", 6)]
    assert board["groups"][2]["cells"] == ["e8", "f8", "g8", "g9", "g10", "h11"]
    assert board["groups"][3]["cells"] == ["j6", "k7", "k8", "k9", "k10", "k11"]
    assert [g["id"] for g in board["groups"]] == [0, 1, 2, 3]
    assert cell(view, "e8")["piece"]["group"] == 2
    assert board["cores"] == [
        {"seat": 0, "cell": "a6", "ring": ["b7", "b6", "a5"], "attackers": [], "six": False},
        {"seat": 1, "cell": "k6", "ring": ["k7", "j5", "j6"], "attackers": [], "six": False}]
    assert board["cards"] is None and board["win"] is None
    assert view["turn"] == {"seat": 0, "actions": [],
                            "left": {"phase": "movement", "moves": 1, "t": 1, "base": 1, "card": None}}


def test_v1_choices():
    view = load_game("fibonacci").new_initial_state().to_struct(0)
    choices = view["choices"]
    assert set(choices) == {"moves", "pass"}
    assert choices["pass"] == {"action": "pass"}
    froms = [m["from"] for m in choices["moves"]]
    assert froms == ["a1", "a2", "a3", "a4", "a5", "b6", "e8", "f8", "g8", "g9", "g10", "h11"]
    for name in ("a1", "a2", "a3", "a4", "a5", "b6"):
        dests = moves_from(view, name)
        assert [d["cell"] for d in dests] == V1_ATTACK_DESTS
        assert [d["action"] for d in dests] == [f"{name}-{c}" for c in V1_ATTACK_DESTS]
        # only a6 is occupied (the own core: a swap); a1-a2 (identical swap) is absent
        assert [d["cell"] for d in dests if d["swap"]] == ["a6"]
    assert [d["cell"] for d in moves_from(view, "e8")] == [
        "d7", "d8", "e7", "e9", "f7", "f9", "f10", "g7", "g11", "h8", "h9", "h10", "i11"]
    assert sum(len(m["to"]) for m in choices["moves"]) == 132


def test_v1_recent_and_effects():
    game = load_game("fibonacci")
    s = game.new_initial_state()
    assert words(s.action_effects(s.string_to_action("a5-a6"), 1)) == {
        "touched": ["a5", "a6"], "removed": [], "revealed": [],
        "text": "Red attacker a5→a6, swapping with Red's core (now on a5)"}
    assert words(s.action_effects(s.string_to_action("pass"), 1)) == {"touched": [], "removed": [], "revealed": [],
                                                               "text": "Red passes (1 move unused)"}
    play(s, "b6-c7")
    green = s.to_struct(1)
    assert green["to_move"] == 1 and green["turn"]["left"]["moves"] == 2
    assert words(green["recent"]) == [{"seat": 0, "actions": ["b6-c7"], "steps": [
        {"action": "b6-c7", "touched": ["b6", "c7"], "removed": [], "revealed": [], "text": "Red attacker b6→c7"}]}]
    assert cell(green, "c7")["piece"] == {"seat": 0, "kind": "attack", "letter": "A", "group": 1}
    # b6 left the snake: Red's attackers are two groups now
    assert [g["cells"] for g in green["board"]["groups"] if g["seat"] == 0 and g["kind"] == "attack"] == [
        ["a1", "a2", "a3", "a4", "a5"], ["c7"]]
    play(s, "k7-i5", "pass")
    red = s.to_struct(0)
    assert words(red["recent"]) == [{"seat": 1, "actions": ["k7-i5", "pass"], "steps": [
        {"action": "k7-i5", "touched": ["k7", "i5"], "removed": [], "revealed": [], "text": "Green attacker k7→i5"},
        {"action": "pass", "touched": [], "removed": [], "revealed": [], "text": "Green passes (1 move unused)"}]}]
    assert red["turn"]["left"] == {"phase": "movement", "moves": 3, "t": 3, "base": 3, "card": None}
    # mid-turn: the current turn's actions are in turn.actions, not in recent
    play(s, "a1-b1")
    red = s.to_struct(0)
    assert red["turn"]["actions"] == ["a1-b1"] and red["turn"]["left"]["moves"] == 2
    assert [t["actions"] for t in red["recent"]] == [["k7-i5", "pass"]]


# --- V2: reduction ---------------------------------------------------------------------------
def test_v2_reduction():
    s = load_game("fibonacci").state_from_text("caaa2/7/8/s8/4aa4/5Ca4/10/9/S7/S4A1/AAAAA1 R 3 9")
    view = s.to_struct(None)
    assert view["turn"]["left"] == {"phase": "movement", "moves": 3, "t": 9, "base": 6, "card": None}
    red_core = view["board"]["cores"][0]
    assert red_core == {"seat": 0, "cell": "f6", "ring": ["f7", "g7", "g6", "f5", "e5", "e6"],
                        "attackers": ["f7", "g6", "g7"], "six": True}
    assert view["board"]["cores"][1]["attackers"] == []


# --- V3: the winning move, a core swap, the end ----------------------------------------------
V3 = "saaaaa/1a5/8/9/4AA4/4AcA4/4A5/4A4/8/7/S4C R 2 13"


def test_v3_choices_effects_and_win():
    s = load_game("fibonacci").state_from_text(V3)
    view = s.to_struct(0)
    dests = moves_from(view, "d5")
    assert [d["cell"] for d in dests] == ["c4", "c5", "d4", "d6", "e4", "e6", "e7", "f4", "f6", "f8",
                                          "g5", "g8", "h6", "h7", "h8"]
    assert [d["cell"] for d in dests if d["swap"]] == ["f6"]  # the Green core
    assert s.action_effects(s.string_to_action("d5-f6"), 0)["touched"] == ["d5", "f6"]
    assert view["board"]["cores"][1]["attackers"] == ["e5", "f5", "f7", "g6", "g7"]
    play(s, "d5-e6")
    end = s.to_struct(1)
    assert end["over"] and end["to_move"] is None and end["legal"] == [] and end["choices"] == {}
    assert words(end["end"]) == {"reason": "surrounded", "text": "Green's core on f6 is surrounded by six Red attackers",
                          "turn": 13, "winners": [0]}
    assert end["board"]["win"] == {"seat": 0, "core": "f6", "cells": ["e5", "e6", "f5", "f7", "g6", "g7"]}
    assert end["turn"] == {"seat": None, "actions": [], "left": None}
    assert words(end["recent"][-1]["steps"]) == [{"action": "d5-e6", "touched": ["d5", "e6"], "removed": [], "revealed": [],
                                             "text": "Red attacker d5→e6"}]
    check_struct(s.game, s)


def test_v4_core_swap():
    s = load_game("fibonacci").state_from_text("saaaaa/1a5/8/9/10/5c5/4SSS3/9/8/5A1/AAAAAC R 1 13")
    view = s.to_struct(0)
    assert [d["cell"] for d in moves_from(view, "e5")] == ["d4", "d5", "d6", "d7", "e4", "e8", "f5", "f6", "f7", "f8"]
    assert next(d for d in moves_from(view, "e7") if d["cell"] == "f6") == {"cell": "f6", "swap": True, "action": "e7-f6"}
    play(s, "e7-f6")
    after = s.to_struct(1)
    assert cell(after, "f6")["piece"]["kind"] == "support" and cell(after, "e7")["piece"]["kind"] == "core"
    assert after["board"]["cores"][1]["cell"] == "e7"
    assert after["recent"][0]["steps"][0]["touched"] == ["e7", "f6"]


def test_v5_edge_core():
    s = load_game("fibonacci").state_from_text("cA3s/AA5/8/9/10/11/10/9/aaa5/aaa4/AAAS1C G 3 10")
    view = s.to_struct(1)
    assert not view["over"]
    assert view["board"]["cores"][1] == {"seat": 1, "cell": "k6", "ring": ["k7", "j5", "j6"],
                                         "attackers": ["j5", "j6", "k7"], "six": False}


# --- the draws ------------------------------------------------------------------------------
def test_draw_by_repetition():
    s = load_game("fibonacci").state_from_text("caaaaa/1a5/8/8S/2s3SSS1/3s3S3/1sss3S2/s8/8/5A1/AAAAAC R 6 7")
    play(s, "pass", "pass", "pass", "pass")
    assert s.is_terminal()
    view = s.to_struct(None)
    assert words(view["end"]) == {"reason": "repetition", "text": "The same position began a turn for the third time: a draw",
                           "turn": 11, "winners": []}
    assert view["board"]["win"] is None
    # a spectator's recent: the last turn of each seat
    assert [t["actions"] for t in view["recent"]] == [["pass"], ["pass"]]


def test_draw_by_turn_limit():
    s = load_game("fibonacci").state_from_text("caaaaa/1a5/8/8S/2s3SSS1/3s3S3/1sss3S2/s8/8/5A1/AAAAAC G 6 300")
    play(s, "pass")
    assert words(s.to_struct(0)["end"]) == {"reason": "turn-limit", "text": "Turn 300 ended without a winner: a draw",
                                     "turn": 300, "winners": []}


@pytest.mark.parametrize("tail", ["G 6 300", "G 3 300 12345 123456"], ids=["standard", "cards"])
def test_a_game_ended_by_the_turn_limit_ended_in_turn_300(tail):
    # the state counts on to turn 301 as turn 300 ends; the board says which turn the game ended in
    game = load_game("fibonacci", variant="cards" if len(tail.split()) > 3 else "standard")
    s = play(game.state_from_text(f"{START.rsplit(' ', 3)[0]} {tail}"), "pass")
    assert s.is_terminal() and s.to_text().split()[3] == "301"
    assert s.to_struct(0)["end"]["turn"] == 300



# --- cards (§9.2, V6) ---------------------------------------------------------------------------
V6_WIN = "cA3s/AAA4/1AA5/9/10/11/10/9/aaa5/aaa4/3S1C"


def test_v6_cards_pattern_end():
    cards = load_game("fibonacci", variant="cards")
    s = cards.state_from_text(f"{V6_WIN} G 3 10 12345 123456 rng=0000000000000007")
    view = s.to_struct(1)
    assert words(view["end"]) == {"reason": "pattern",
                           "text": "Red's 6 attackers form one group touching Green's core on k6 at 3 cells",
                           "turn": 10, "winners": [0]}
    assert view["board"]["win"] == {"seat": 0, "core": "k6", "cells": ["i5", "i6", "j5", "j6", "j7", "k7"]}


def test_cards_piles_are_counts_and_a_turn_end_reveals():
    cards = load_game("fibonacci", variant="cards")
    s = cards.state_from_text(f"{START.rsplit(' ', 3)[0]} R 1 1 12345 623451 rng=0000000000000007")
    view = s.to_struct(0)
    assert view["board"]["cards"] == {"card": None, "piles": [5, 6], "revealed": []}
    assert view["turn"]["left"] == {"phase": "movement", "moves": 1, "t": 1, "base": None, "card": None}
    # the last move of the turn reveals Green's top card (public); an earlier one reveals nothing
    assert s.action_effects(s.string_to_action("pass"), 0)["revealed"] == [{"seat": 1, "card": 6}]
    assert words(s.action_effects(s.string_to_action("a5-a6"), 1)) == {
        "touched": ["a5", "a6"], "removed": [], "revealed": [{"seat": 1, "card": 6}],
        "text": "Red attacker a5→a6, swapping with Red's core (now on a5); Green's next card is 6"}
    assert s.to_text().endswith("12345 623451 rng=0000000000000007")  # unchanged
    play(s, "a5-a6")
    green = s.to_struct(1)
    assert green["board"]["cards"] == {"card": 6, "piles": [5, 5], "revealed": [{"seat": 1, "t": 2, "card": 6}]}
    assert green["turn"]["left"]["moves"] == 6 and green["turn"]["left"]["card"] == 6
    assert green["recent"][0]["steps"][0]["revealed"] == [{"seat": 1, "card": 6}]
    play(s, "pass")
    red = s.to_struct(0)
    assert red["board"]["cards"]["revealed"] == [{"seat": 1, "t": 2, "card": 6}, {"seat": 0, "t": 3, "card": 1}]
    # pile order is hidden from everyone: no viewer's JSON holds it or the generator state
    for player in (None, 0, 1):
        text = json.dumps(s.to_struct(player))
        assert "2345" not in text and "rng" not in text
    check_struct(cards, s)


# --- Go start (§9.3, V7) ---------------------------------------------------------------------
def test_v7_go_placement_choices():
    go = load_game("fibonacci", variant="go")
    s = go.new_initial_state()
    view = s.to_struct(0)
    assert view["board"]["phase"] == "placement" and view["board"]["cores"] == []
    assert set(view["choices"]) == {"place"}
    place = view["choices"]["place"]
    assert (place["kind"], place["letter"], len(place["cells"])) == ("support", "S", 91)
    assert place["cells"][0] == {"cell": "a1", "action": "S@a1"} and place["cells"][-1] == {"cell": "k11", "action": "S@k11"}
    assert view["turn"]["left"] == {"phase": "placement", "placement": 1, "of": 26, "kind": "support", "letter": "S"}
    assert words(s.action_effects(s.string_to_action("S@e5"), 1)) == {"touched": ["e5"], "removed": [], "revealed": [],
                                                               "text": "Red places a support on e5"}
    play(s, "S@e5")
    view = s.to_struct(1)
    assert cell(view, "e5")["piece"] == {"seat": 0, "kind": "support", "letter": "S", "group": 0}
    assert len(view["choices"]["place"]["cells"]) == 90
    assert words(view["recent"]) == [{"seat": 0, "actions": ["S@e5"],
                               "steps": [{"action": "S@e5", "touched": ["e5"], "removed": [], "revealed": [],
                                          "text": "Red places a support on e5"}]}]
    t = go.state_from_text("6/7/8/9/10/11/10/9/8/7/6 R P12")
    assert t.to_struct(0)["choices"]["place"]["letter"] == "A"
    assert t.to_struct(0)["turn"]["left"]["kind"] == "attack"


# --- effects in words (the step texts the board reads out) ------------------------------------
def test_effect_texts_on_the_spec_examples():
    game = load_game("fibonacci")
    s = game.new_initial_state()
    text = lambda st, a: st.action_effects(st.string_to_action(a), None)["text"]
    # V1: a plain move, a swap with the own core, a pass with moves unused
    assert text(s, "b6-c7") == "Red attacker b6→c7"
    assert text(s, "e8-d7") == "Red support e8→d7"
    assert text(s, "a5-a6") == "Red attacker a5→a6, swapping with Red's core (now on a5)"
    play(s, "b6-c7")
    assert text(s, "pass") == "Green passes (2 moves unused)"
    assert text(s, "k7-i5") == "Green attacker k7→i5"
    # V3: the winning move and the legal core swap; V4: a support drags the Green core to e7
    v3 = game.state_from_text(V3)
    assert text(v3, "d5-e6") == "Red attacker d5→e6"
    assert text(v3, "d5-f6") == "Red attacker d5→f6, swapping with Green's core (now on d5)"
    v4 = game.state_from_text("saaaaa/1a5/8/9/10/5c5/4SSS3/9/8/5A1/AAAAAC R 1 13")
    assert text(v4, "e7-f6") == "Red support e7→f6, swapping with Green's core (now on e7)"
    # V7 and the Go placement order: supports, attackers, then the cores
    go = load_game("fibonacci", variant="go")
    assert text(go.new_initial_state(), "S@a1") == "Red places a support on a1"
    assert text(go.state_from_text("6/7/8/9/10/11/10/9/8/7/6 G P13"), "A@k11") == "Green places an attacker on k11"
    assert text(go.state_from_text("aaaaaa/sssss2/8/9/10/11/10/9/8/2SSSS1/AAAAAA R P24"), "C@f6") == \
        "Red places a core on f6"
    # cards: the turn's last action turns up the next player's card (public)
    cards = load_game("fibonacci", variant="cards")
    c = cards.state_from_text(f"{START.rsplit(' ', 3)[0]} R 1 1 12345 623451 rng=0000000000000007")
    assert text(c, "pass") == "Red passes (1 move unused); Green's next card is 6"
    # every recent step carries its text
    play(s, "k7-i5", "pass")
    assert [st["text"] for st in s.to_struct(0)["recent"][0]["steps"]] == [
        "Green attacker k7→i5", "Green passes (1 move unused)"]
