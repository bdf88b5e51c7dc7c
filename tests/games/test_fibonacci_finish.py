"""Winning turns of Fibonacci's card variant (games/fibonacci/finish.py) and the levels that use them."""

from __future__ import annotations

from itertools import combinations

import pytest

import abstracta
from abstracta.ai.base import Budget
from abstracta.ai.levels import OracleBot, level_fingerprint, make_bot
from abstracta.ai.turns import TurnSearchBot
from abstracta.games.fibonacci import finish
from abstracta.games.fibonacci.geometry import BIT, BIT_OF_NAME, DIST, NBM
from abstracta.games.fibonacci.rules import PASS

CARDS = abstracta.load_game("fibonacci", variant="cards")

#: V6's split attackers (spec §8): five Red attackers in one group around the Green corner core
#: k6 with three on its ring, the sixth alone on h3; h3-h4 or h3-i4 joins it to the group.
SPLIT = "cA3s/AAA4/1A6/A8/10/11/10/9/aaa5/aaa4/3S1C R 3 9 123 456 rng=0000000000000001"
#: From a game between two turns:d1 bots (seed 7106, turn 11): five Red attackers ring the Green
#: core j6, the sixth is alone on e6, four rows away; Red's card is 3. Greedy completion leaves
#: the win on the board; the lone attacker walks up in three moves (or the ring reaches for it).
WALK = "AA4/Ac5/1AA5/8a/2s1a1aSS1/3s3S3/1sssSAS3/s4Sa2/5Ca1/5a1/6 R 3 11 153226 4531461 rng=98c475f0f066c590"


def mask(*names: str) -> int:
    m = 0
    for name in names:
        m |= 1 << BIT_OF_NAME[name]
    return m


def play(state, actions):
    s = state.clone()
    for a in actions:
        assert a in s.legal_actions()
        s.apply_action(a)
    return s


def test_win_sets_of_a_corner_core_match_a_brute_force_count():
    core = BIT_OF_NAME["k6"]
    w0, w1, w2 = finish.win_sets(core)
    sets = {int(a) | int(b) << 64 | int(c) << 128 for a, b, c in zip(w0, w1, w2)}
    # a corner core has three neighbours, all needed: every pattern is them plus three cells
    # within four steps, connected
    ring = NBM[core]
    near = [b for b in BIT if b != core and not ring >> b & 1 and DIST[core][b] <= 4]
    brute = set()
    for extra in combinations(near, 3):
        m = ring | sum(1 << b for b in extra)
        start = m & -m
        seen = start
        while True:
            grown = seen
            for b in BIT:
                if seen >> b & 1:
                    grown |= NBM[b] & m
            if grown == seen:
                break
            seen = grown
        if seen == m:
            brute.add(m)
    assert sets == brute
    assert len(sets) == 88


def test_win_sets_hold_six_connected_cells_three_around_the_core():
    core = BIT_OF_NAME["f6"]
    w0, w1, w2 = finish.win_sets(core)
    assert len(w0) > 1000
    for a, b, c in list(zip(w0, w1, w2))[::97]:
        m = int(a) | int(b) << 64 | int(c) << 128
        assert m.bit_count() == 6 and not m >> core & 1
        assert (m & NBM[core]).bit_count() >= 3


def test_moves_to_win_on_hand_made_positions():
    k6, f6 = BIT_OF_NAME["k6"], BIT_OF_NAME["f6"]
    # the start: every attacker is on no pattern, b6 (the nearest) is nine cells from k6: 9 + 1
    start = CARDS.new_initial_state(seed=1)
    assert finish.side_moves_to_win(start, 0) == 10 == finish.side_moves_to_win(start, 1)
    # a line reaching four cells from the core: one attacker on a pattern, five to move
    assert finish.moves_to_win(mask("b6", "c6", "d6", "e6", "f6", "g6"), k6) == 5
    # three on the ring of f6 and one group: won
    assert finish.moves_to_win(mask("f7", "g7", "g6", "h6", "h5", "h4"), f6) == 0
    # two on the ring, the rest next to them: one move
    assert finish.moves_to_win(mask("f7", "g7", "h7", "h6", "h5", "h4"), f6) == 1
    split = CARDS.state_from_text(SPLIT)
    assert finish.side_moves_to_win(split, 0) == 1


def test_a_winning_turn_is_found_and_wins():
    split = CARDS.state_from_text(SPLIT)
    plan = finish.find_winning_turn(split, 3)
    assert plan is not None and len(plan) == 1
    assert split.action_to_string(plan[0]) in ("h3-h4", "h3-i4")  # both join i5
    assert play(split, plan).returns() == [1.0, -1.0]
    assert split.to_text() == SPLIT  # never mutated


def test_the_search_finds_the_win_greedy_completion_walks_past():
    walk = CARDS.state_from_text(WALK)
    greedy_turn = TurnSearchBot(CARDS, Budget(depth=1), seed=1).search(walk.clone())
    assert not play(walk, greedy_turn).is_terminal()
    plan = finish.find_winning_turn(walk, 3)
    assert plan is not None and len(plan) == 3
    assert play(walk, plan).returns() == [1.0, -1.0]
    assert finish.find_winning_turn(walk, 2) is None  # three moves are needed


def test_the_node_budget_bounds_the_search():
    walk = CARDS.state_from_text(WALK)
    assert finish.find_winning_turn(walk, 3, max_nodes=2) is None


def test_no_winning_turn_where_none_exists():
    start = CARDS.new_initial_state(seed=1)
    assert finish.find_winning_turn(start, start.left) is None
    assert finish.winning_action(start) is None


def test_the_oracle_plays_the_winning_turn_move_by_move():
    s = CARDS.state_from_text(WALK)
    for _ in range(3):
        action = finish.winning_action(s)
        assert action is not None and action != PASS
        s.apply_action(action)
    assert s.returns() == [1.0, -1.0]


def test_card_levels_4_to_6_take_a_win_the_level_3_search_misses():
    levels = CARDS.description.levels
    assert levels[3].oracle is None
    assert all(levels[n].oracle is finish.winning_action for n in (4, 5, 6))
    bot = make_bot("level:4", CARDS, seed=3)
    assert isinstance(bot, OracleBot)
    s = CARDS.state_from_text(WALK)
    while not s.is_terminal() and s.current_player() == 0:
        s.apply_action(bot.step(s))
    assert s.returns() == [1.0, -1.0]


@pytest.mark.parametrize("variant,prints", [
    ("standard", ["317cad923124", "69335bdf3541", "a158f8abd6aa", "00fad34d5ed4", "4e485a41d0a0", "7dd51d8eb2d5"]),
    ("go", ["317cad923124", "69335bdf3541", "2e18c5ded6f7", "f88193123feb", "a2ca192517a5", "0c509e013876"]),
])
def test_standard_and_go_levels_are_unchanged(variant, prints):
    # the oracle changed no level of the standard and Go rules; their levels 3, 5 and 6 changed
    # later, on their own (fewer and more candidate turns, Search.turn_widths)
    game = abstracta.load_game("fibonacci", variant=variant)
    now = [level_fingerprint(game, n) for n in range(1, 7)]
    assert now[:2] == prints[:2]
    assert now[2] != prints[2] and now[4] != prints[4] and now[5] != prints[5]
    # level 3 compares fewer candidate turns, levels 5-6 more; levels 3-4 of the standard rules
    # fewer still (3 and 2, 6 and 4: spaced between greedy and level 5), Go's 4 the defaults
    assert game.description.levels[3].turn_widths == ((3, 2) if variant == "standard" else (4, 3))
    assert (now[3] == prints[3]) == (variant == "go")
    assert game.description.levels[4].turn_widths == ((6, 4) if variant == "standard" else None)
    four = make_bot("level:4", game, seed=0)
    assert (four.width, four.reply_width, four.budget.seconds) == ((6, 4, 0.5) if variant == "standard"
                                                                  else (10, 8, 0.5))
    assert all(game.description.levels[n].turn_widths == (16, 12) for n in (5, 6))
    three = make_bot("level:3", game, seed=0)
    assert (three.width, three.reply_width, three.budget.seconds) == ((3, 2, 0.2) if variant == "standard"
                                                                     else (4, 3, 0.2))
    assert all(game.description.levels[n].oracle is None for n in range(1, 7))


def test_card_levels_1_and_2_are_unchanged_and_level_3_plans_its_turn_greedily():
    from abstracta.ai.greedy import GreedyBot

    prints = [level_fingerprint(CARDS, n) for n in range(1, 4)]
    assert prints[:2] == ["317cad923124", "1fcb8279eb80"] and prints[2] != "8caae5c784b7"
    # level 3 is the greedy that completes its turn before comparing; level 2 judges each action
    three, two = make_bot("level:3", CARDS, seed=0), make_bot("level:2", CARDS, seed=0)
    assert isinstance(three, GreedyBot) and isinstance(two, GreedyBot)
    assert two.extend == 0 and three.extend == GreedyBot(CARDS).extend > 0


def test_the_oracle_reads_no_hidden_card():
    import random

    s = CARDS.state_from_text(WALK)
    answers = set()
    for seed in range(4):
        finish._PLANS.clear()
        view = s.resample_from_infostate(0, random.Random(seed))
        answers.add(finish.winning_action(view))
    assert len(answers) == 1 and None not in answers
