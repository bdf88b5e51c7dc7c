"""benchmarks/cards_inference.py (issue 17): how much of the card game opponent's hand each way of
dealing finds."""

from __future__ import annotations

import math
import random

import pytest
from bench_util import load_benchmark

from abstracta import load_game
from abstracta.games.fibonacci_cards.cards import DRAW, config_table



@pytest.fixture(scope="module")
def bench():
    module = load_benchmark("cards_inference")
    return module


def _playouts(n: int):
    game = load_game("fibonacci-cards")
    rng = random.Random(17)
    for g in range(n):
        state = game.new_initial_state(seed=400 + g)
        while not state.is_terminal():
            yield state
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


def test_each_card_held_has_the_draw_that_brought_it(bench) -> None:
    checked = 0
    for state in _playouts(6):
        for opp in (0, 1):
            receipts = bench.slot_receipts(state, opp)
            assert len(receipts) == len(state._hands[opp])
            assert receipts == sorted(receipts)
            for k in receipts:
                assert k == -1 or (state._log[k][0] == DRAW and state._log[k][1] == opp)
            checked += 1
    assert checked > 100


def test_a_uniform_chooser_weighs_a_deal_by_the_plays_it_offered(bench) -> None:
    # beta 0: every chosen play has probability one over the plays the dealt hand offered then
    for state in _playouts(4):
        opp = 1 - state.current_player() if state.current_player() >= 0 else 0
        points = bench.choices(state, opp)
        receipts = bench.slot_receipts(state, opp)
        if not points:
            continue
        hand = state._hands[opp]  # any hand in slot order will do for the arithmetic
        expected = 0.0
        for k, cfg, action, _n, _piles in points:
            held = {action // 6} | {c for c, got in zip(hand, receipts) if got < k}
            n = sum(len(config_table(cfg).plays[c]) for c in held)
            expected -= math.log(n) if n > 1 else 0.0
        assert bench.log_likelihood(hand, receipts, points, 0.0) == pytest.approx(expected)
        return
    pytest.fail("no playout reached a chosen play")


def test_with_the_stock_empty_every_way_finds_his_whole_hand(bench) -> None:
    # stock empty: the cards a seat has not seen are exactly the other seat's hand
    rng = random.Random(1)
    empty = next(s for s in _playouts(40) if not s._stock and s.current_player() >= 0)
    for way in ("plain", "infer", "choice:3"):
        assert bench.share(empty, empty.current_player(), way, 20, rng) == 1.0
    # at the deal, a uniform deal finds about 8 of his cards among the 41 unseen
    state = load_game("fibonacci-cards").new_initial_state(seed=5)
    assert 0.1 < bench.share(state, state.current_player(), "plain", 200, rng) < 0.3
