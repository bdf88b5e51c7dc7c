"""The Fibonacci card game's structured view (``view.py``): the property checks of
``abstracta.testing`` over random playouts of every variant, no hidden card anywhere in any
viewer's struct, and exact boards, choices, effects and end reasons on the worked examples of
fibonacci-cards.md §7."""

from __future__ import annotations

from abstracta.testing import words

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abstracta import load_game
from abstracta.games.fibonacci_cards import FibonacciCardsGame
from abstracta.games.fibonacci_cards.cards import CARD_STR, CUT
from abstracta.testing import check_struct, check_struct_playout, random_playout

GAME = FibonacciCardsGame()
VARIANTS = load_game("fibonacci-cards").description.variants
CARD_RE = re.compile(r"\b[A2-9TJQK][cdhs]\b")


def pos(text: str):
    return GAME.state_from_text(text)


def play(state, *moves: str):
    for m in moves:
        state.apply_action(state.string_to_action(m))
    return state


def card(text: str, value: int, **extra) -> dict:
    colour = "red_suit" if text[1] in "dh" else "black_suit"
    return {"card": text, "rank": text[0], "suit": text[1], "colour": colour, "value": value, **extra}


# --- properties over random playouts --------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: str(v.label))
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_struct_properties_along_random_playouts(variant, seed):
    final = check_struct_playout(load_game("fibonacci-cards", **variant.options), seed)
    assert final.is_terminal()  # a random game of cards ends well within 400 actions


def visible_cards(state, player: int | None) -> set[str]:
    """The cards ``player`` may know: the piles, his own hand; everything once the game is over."""
    seen = {CARD_STR[c & ~CUT] for pile in state.piles for c in pile}
    if state.is_terminal():
        seen |= {CARD_STR[c] for seat in (0, 1) for c in state.hand(seat)}
    elif player is not None:
        seen |= {CARD_STR[c] for c in state.hand(player)}
    return seen


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_no_hidden_card_anywhere_in_a_struct(seed):
    # stronger than check_struct's resampling: "recent" (the opponent's draws) is searched too
    def visit(state):
        for player in (None, 0, 1):
            text = json.dumps(state.to_struct(player))
            named = set(CARD_RE.findall(text))
            assert named <= visible_cards(state, player), (player, state.to_text(), named - visible_cards(state, player))

    random_playout(GAME, seed, max_actions=400, every=visit)


# --- spec positions (fibonacci-cards.md §7) ----------------------------------------------------

def test_example1_board_and_choices():
    s = pos("2c 5d Jh | 7h,Kd,5s,Jc,Qd,3c | 4d | 9h | 0")
    view = s.to_struct(0)
    board = view["board"]
    assert board["piles"] == [
        {"id": "1", "x": 0, "cards": [card("2c", 2, cut=False)], "top": "2c", "cut": False, "value": 2},
        {"id": "2", "x": 1, "cards": [card("5d", 5, cut=False)], "top": "5d", "cut": False, "value": 5},
        {"id": "3", "x": 2, "cards": [card("Jh", 11, cut=False)], "top": "Jh", "cut": False, "value": 11},
    ]
    assert board["stock"] == {"id": "stock", "x": 3, "size": 1}
    assert board["hands"] == [
        {"seat": 0, "id": "hand0", "size": 6, "cards": [
            card("7h", 7, drawn=False), card("Kd", 13, drawn=False), card("5s", 5, drawn=False),
            card("Jc", 11, drawn=False), card("Qd", 12, drawn=False), card("3c", 3, drawn=False)]},
        {"seat": 1, "id": "hand1", "size": 1, "cards": None},
    ]
    assert board["must_play_drawn"] is False
    assert view["choices"] == {"cards": [
        {"card": "5s", "plays": [{"pile": "2", "kind": "cut", "action": "5s/2"}]},
        {"card": "7h", "plays": [{"pile": "1", "kind": "sum", "action": "7h>1"},
                                 {"pile": "2", "kind": "sum", "action": "7h>2"}]},
        {"card": "Jc", "plays": [{"pile": "3", "kind": "cut", "action": "Jc/3"}]},
        {"card": "Kd", "plays": [{"pile": "1", "kind": "sum", "action": "Kd>1"},
                                 {"pile": "3", "kind": "sum", "action": "Kd>3"}]},
    ], "draw": None, "pass": None}
    assert view["turn"] == {"seat": 0, "actions": [], "left": None}
    # the opponent and a spectator see the sizes only, and no choices
    for viewer in (1, None):
        other = s.to_struct(viewer)
        assert [h["cards"] for h in other["board"]["hands"]] == [None, [card("4d", 4, drawn=False)] if viewer == 1 else None]
        assert other["legal"] == [] and other["choices"] == {}
    check_struct(GAME, s)


def test_example2_ace_counts_14_in_hand_and_1_on_the_table():
    s = pos("7d 7s 3h | Ah,7c,2d | 4d | 9h | 0")
    assert s.to_struct(0)["board"]["hands"][0]["cards"][0] == card("Ah", 14, drawn=False)
    assert s.to_struct(0)["choices"]["cards"] == [
        {"card": "Ah", "plays": [{"pile": "1", "kind": "sum", "action": "Ah>1"},
                                 {"pile": "2", "kind": "sum", "action": "Ah>2"}]}]
    play(s, "Ah>1")
    pile = s.to_struct(1)["board"]["piles"][0]
    assert pile == {"id": "1", "x": 0, "cards": [card("7d", 7, cut=False), card("Ah", 1, cut=False)],
                    "top": "Ah", "cut": False, "value": 1}
    assert [p["value"] for p in s.to_struct(None)["board"]["piles"]] == [1, 7, 3]


def test_example3_triple_sum_goes_on_any_pile():
    s = pos("Ah 2s 3c | 6c,3d,2h | 4c | 9h | 0")
    assert s.to_struct(0)["choices"]["cards"] == [
        {"card": "3d", "plays": [{"pile": "1", "kind": "sum", "action": "3d>1"},
                                 {"pile": "2", "kind": "sum", "action": "3d>2"}]},
        {"card": "6c", "plays": [{"pile": "1", "kind": "sum", "action": "6c>1"},
                                 {"pile": "2", "kind": "sum", "action": "6c>2"},
                                 {"pile": "3", "kind": "sum", "action": "6c>3"}]}]
    assert [p["value"] for p in s.to_struct(0)["board"]["piles"]] == [1, 2, 3]


def test_example4_cut_down_pile_and_its_effects():
    s = pos("Qh Jh 5d | Qc,Qs,Jd,Ks | 4c | 9h | 0")
    assert s.to_struct(0)["choices"]["cards"] == [
        {"card": "Jd", "plays": [{"pile": "2", "kind": "cut", "action": "Jd/2"}]},
        {"card": "Qc", "plays": [{"pile": "1", "kind": "cut", "action": "Qc/1"}]},
        {"card": "Qs", "plays": [{"pile": "1", "kind": "cut", "action": "Qs/1"}]}]
    cut = s.string_to_action("Qc/1")
    # the mover knew the card; the opponent and a spectator learn it
    assert words(s.action_effects(cut, 0)) == {"touched": ["1"], "removed": ["Qc"], "revealed": [],
                                        "text": "cut pile 1 down with Qc (12 + 11 > 14; pile 1 now counts 1)"}
    assert words(s.action_effects(cut, 1)) == {"touched": ["1"], "removed": ["Qc"], "revealed": ["Qc"],
                                        "text": "cut pile 1 down with Qc (12 + 11 > 14; pile 1 now counts 1)"}
    assert s.action_effects(cut, None)["revealed"] == ["Qc"]
    play(s, "Qc/1")
    view = s.to_struct(1)
    assert view["board"]["piles"][0] == {
        "id": "1", "x": 0, "cards": [card("Qh", 12, cut=False), card("Qc", 12, cut=True)],
        "top": "Qc", "cut": True, "value": 1}
    assert words(view["recent"]) == [{"seat": 0, "actions": ["Qc/1"], "steps": [
        {"action": "Qc/1", "touched": ["1"], "removed": ["Qc"], "revealed": ["Qc"],
         "text": "cut pile 1 down with Qc (12 + 11 > 14; pile 1 now counts 1)"}]}]
    # §3: a queen played as a sum on the cut pile makes it ordinary again (and cuttable)
    s = pos("Qh,Qc*,Qs Jh 5d | Qd | 4c | 9h | 0")
    view = s.to_struct(0)
    assert view["board"]["piles"][0]["cut"] is False and view["board"]["piles"][0]["value"] == 12
    assert [c["cut"] for c in view["board"]["piles"][0]["cards"]] == [False, True, False]
    assert view["choices"] == {"cards": [{"card": "Qd", "plays": [{"pile": "1", "kind": "cut", "action": "Qd/1"}]}],
                               "draw": None, "pass": None}


def test_example5_blocked_end_reasons():
    s = pos("9c 5d 4h | 2c,Qd | 6h | - | 0")
    view = s.to_struct(None)
    assert view["over"] and view["to_move"] is None and view["choices"] == {}
    assert words(view["end"]) == {"reason": "blocked", "hand_sizes": [2, 1], "winners": [1],
                           "text": "The stock is empty and nobody can play: fewer cards in hand wins (1 against 2)"}
    # nothing is hidden any more once the game is over
    assert [[c["card"] for c in h["cards"]] for h in view["board"]["hands"]] == [["2c", "Qd"], ["6h"]]
    assert view["board"]["stock"] == {"id": "stock", "x": 3, "size": 0}
    draw = pos("9c 5d 4h | 2c | 6h | - | 0").to_struct(0)["end"]
    assert words(draw) == {"reason": "blocked", "hand_sizes": [1, 1], "winners": [],
                    "text": "The stock is empty and nobody can play: equal hands (1 card each)"}


def test_example6_forced_draw_shows_the_card_to_the_drawer_only():
    s = pos("2c 5d Jh | 4c,6d | 9s | 7s,8c | 0")
    assert s.to_struct(0)["choices"] == {"cards": [], "draw": {"action": "draw"}, "pass": None}
    draw = s.string_to_action("draw")
    assert words(s.action_effects(draw, 0)) == {"touched": ["stock", "hand0"], "removed": [], "revealed": ["7s"],
                                         "text": "drew a card"}
    assert s.action_effects(draw, 1)["revealed"] == [] and s.action_effects(draw, None)["revealed"] == []
    play(s, "draw")
    mine = s.to_struct(0)
    assert mine["board"]["hands"][0]["cards"] == [card("4c", 4, drawn=False), card("6d", 6, drawn=False),
                                                  card("7s", 7, drawn=True)]
    assert mine["board"]["must_play_drawn"] is True and mine["board"]["stock"]["size"] == 1
    assert words(mine["turn"]) == {"seat": 0, "actions": ["draw"],
                            "left": {"must_play_drawn": True, "text": "the drawn card fits and must be played"}}
    assert mine["choices"] == {"cards": [{"card": "7s", "plays": [
        {"pile": "1", "kind": "sum", "action": "7s>1"}, {"pile": "2", "kind": "sum", "action": "7s>2"}]}],
        "draw": None, "pass": None}
    theirs = s.to_struct(1)
    assert theirs["board"]["hands"][0] == {"seat": 0, "id": "hand0", "size": 3, "cards": None}
    assert theirs["board"]["must_play_drawn"] is True and "7s" not in json.dumps(theirs)
    play(s, "7s>1")
    assert words(s.to_struct(1)["recent"]) == [{"seat": 0, "actions": ["draw", "7s>1"], "steps": [
        {"action": "draw", "touched": ["stock", "hand0"], "removed": [], "revealed": [], "text": "drew a card"},
        {"action": "7s>1", "touched": ["1"], "removed": ["7s"], "revealed": ["7s"],
         "text": "played 7s on pile 1 (2 + 5 = 7)"}]}]
    # had the top card not fit, the turn ends with it hidden in the drawer's hand
    s = play(pos("2c 5d Jh | 4c,6d | 9s | 9h,8c | 0"), "draw")
    theirs = s.to_struct(1)
    assert theirs["to_move"] == 1 and theirs["board"]["hands"][0]["size"] == 3
    assert words(theirs["recent"]) == [{"seat": 0, "actions": ["draw"], "steps": [
        {"action": "draw", "touched": ["stock", "hand0"], "removed": [], "revealed": [], "text": "drew a card"}]}]
    assert "9h" not in json.dumps(theirs) and "9h" not in json.dumps(s.to_struct(None))


def test_example7_pass_then_last_card_wins():
    s = pos("2c 5d Jh | 4c,6d | Kc | - | 0")
    assert s.to_struct(0)["choices"] == {"cards": [], "draw": None, "pass": {"action": "pass"}}
    assert words(s.action_effects(s.string_to_action("pass"), 1)) == {"touched": [], "removed": [], "revealed": [],
                                                               "text": "passed"}
    play(s, "pass")
    assert s.to_struct(1)["choices"]["cards"] == [{"card": "Kc", "plays": [
        {"pile": "1", "kind": "sum", "action": "Kc>1"}, {"pile": "3", "kind": "sum", "action": "Kc>3"}]}]
    play(s, "Kc>3")
    view = s.to_struct(0)
    assert words(view["over"] and view["end"]) == {"reason": "empty-hand", "text": "The last card of a hand was played",
                                            "hand_sizes": [2, 0], "winners": [1]}
    assert view["board"]["piles"][2]["top"] == "Kc" and view["board"]["piles"][2]["value"] == 13
    assert view["board"]["hands"][1] == {"seat": 1, "id": "hand1", "size": 0, "cards": []}


def test_example8_seeded_deal():
    s = load_game("fibonacci-cards", seed=1).new_initial_state()
    view = s.to_struct(1)
    assert view["to_move"] == 1
    assert [(p["top"], p["value"]) for p in view["board"]["piles"]] == [("7h", 7), ("4h", 4), ("2c", 2)]
    assert view["board"]["stock"]["size"] == 33
    assert [c["card"] for c in view["board"]["hands"][1]["cards"]] == ["9s", "Jc", "5d", "Kd", "3c", "2d", "Jh", "5h"]
    assert view["board"]["hands"][0] == {"seat": 0, "id": "hand0", "size": 8, "cards": None}
    assert [(c["card"], [p["action"] for p in c["plays"]]) for c in view["choices"]["cards"]] == [
        ("9s", ["9s>1", "9s>3"]), ("Jc", ["Jc>1", "Jc>2"]), ("Jh", ["Jh>1", "Jh>2"]), ("Kd", ["Kd>1", "Kd>2", "Kd>3"])]
    # seat 0's own hand, never seat 1's
    assert [c["card"] for c in s.to_struct(0)["board"]["hands"][0]["cards"]] == ["7d", "9c", "4d", "8h", "8d", "5s", "Jd", "6d"]
    assert not CARD_RE.findall(json.dumps(s.to_struct(None)["board"]["hands"]))


def test_recent_lists_the_opponents_turns_since_the_viewer_moved():
    rng = random.Random(5)
    s = load_game("fibonacci-cards", seed=7).new_initial_state()
    while not s.is_terminal() and len(s.history()) < 30:
        s.apply_action(rng.choice(s.legal_actions()))
    assert not s.is_terminal()
    viewer = s.current_player()
    view = s.to_struct(viewer)
    assert view["recent"] and all(t["seat"] == 1 - viewer for t in view["recent"])
    assert len(view["recent"]) == 1  # two seats alternate: exactly the opponent's last turn


# --- effect texts: each step in players' words, with the sum or pair that allows it ---------

def effect_texts(text: str, viewer: int | None = 1) -> dict[str, str]:
    s = pos(text)
    return {a: s.action_effects(s.string_to_action(a), viewer)["text"] for a in s.legal_action_strings()}


def test_effect_texts_example1_pair_sums_and_cuts():
    assert effect_texts("2c 5d Jh | 7h,Kd,5s,Jc,Qd,3c | 4d | 9h | 0") == {
        "5s/2": "cut pile 2 down with 5s (5 + 11 > 14; pile 2 now counts 1)",
        "7h>1": "played 7h on pile 1 (2 + 5 = 7)",
        "7h>2": "played 7h on pile 2 (2 + 5 = 7)",
        "Jc/3": "cut pile 3 down with Jc (5 + 11 > 14; pile 3 now counts 1)",
        "Kd>1": "played Kd on pile 1 (2 + 11 = 13)",
        "Kd>3": "played Kd on pile 3 (2 + 11 = 13)"}


def test_effect_texts_example2_and_3_ace_as_14_and_triple_sum():
    assert effect_texts("7d 7s 3h | Ah,7c,2d | 4d | 9h | 0") == {
        "Ah>1": "played Ah on pile 1 (7 + 7 = 14)", "Ah>2": "played Ah on pile 2 (7 + 7 = 14)"}
    assert effect_texts("2d 5s 7h | Ah,6c,4d | 4c | 9h | 0") == {
        "Ah>1": "played Ah on pile 1 (2 + 5 + 7 = 14)", "Ah>2": "played Ah on pile 2 (2 + 5 + 7 = 14)",
        "Ah>3": "played Ah on pile 3 (2 + 5 + 7 = 14)"}
    # a pile of an ace counts 1; the pair named is the one with the played-on pile
    texts = effect_texts("Ah 2s 3c | 6c,3d,2h | 4c | 9h | 0")
    assert texts["3d>1"] == "played 3d on pile 1 (1 + 2 = 3)" and texts["3d>2"] == "played 3d on pile 2 (1 + 2 = 3)"
    assert texts["6c>3"] == "played 6c on pile 3 (1 + 2 + 3 = 6)"


def test_effect_texts_example4_cut_down_cycle():
    assert effect_texts("Qh Jh 5d | Qc,Qs,Jd,Ks | 4c | 9h | 0") == {
        "Jd/2": "cut pile 2 down with Jd (12 + 11 > 14; pile 2 now counts 1)",
        "Qc/1": "cut pile 1 down with Qc (12 + 11 > 14; pile 1 now counts 1)",
        "Qs/1": "cut pile 1 down with Qs (12 + 11 > 14; pile 1 now counts 1)"}
    assert effect_texts("Qh,Qc* Jh 5d | Qs,Jd,6c,Ks,Ah | 4c | 9h | 0") == {
        "6c>1": "played 6c on pile 1 (1 + 5 = 6)", "6c>3": "played 6c on pile 3 (1 + 5 = 6)",
        "Jd/2": "cut pile 2 down with Jd (11 + 5 > 14; pile 2 now counts 1)",
        "Qs>1": "played Qs on pile 1 (1 + 11 = 12)", "Qs>2": "played Qs on pile 2 (1 + 11 = 12)"}


def test_effect_texts_draw_and_pass_name_no_hidden_card():
    assert effect_texts("2c 5d Jh | 4c,6d | 9s | 7s,8c | 0", viewer=0) == {"draw": "drew a card"}
    assert effect_texts("2c 5d Jh | 4c,6d | Kc | - | 0", viewer=None) == {"pass": "passed"}


def test_a_revealed_board_shows_the_stock_order_of_a_dealt_stock_only():
    # a finished game's replay (to_struct(reveal=True)): the stock top first, as the position
    # text lists it; at explicit chance no order is dealt yet, so none is shown
    s = pos("2c 5d Jh | 4c,6d | 9s | 7s,8c,Ad | 0")
    assert s.to_struct(None, reveal=True)["board"]["stock"] == {"id": "stock", "x": 3, "size": 3,
                                                                 "cards": ["7s", "8c", "Ad"]}
    assert "cards" not in s.to_struct(None)["board"]["stock"]
    s.set_explicit_chance(True)
    assert "cards" not in s.to_struct(None, reveal=True)["board"]["stock"]
