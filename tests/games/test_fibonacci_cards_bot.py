"""The rule-based Fibonacci card game player (src/abstracta/ai/rulebased.py)."""

from __future__ import annotations

import random

from abstracta.games.fibonacci_cards.bot import FibonacciCardsRuleBot
from abstracta.games.fibonacci_cards import FibonacciCardsGame

GAME = FibonacciCardsGame()


class _Random:
    def __init__(self, seed: int):
        self.rng_state = random.Random(seed)

    def step(self, state):
        legal = state.legal_actions()
        return legal[self.rng_state.randrange(len(legal))]


def _play(bots, seed: int):
    state = GAME.new_initial_state(seed=seed)
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    return state.returns()


def test_beats_random_player():
    wins = draws = 0
    n = 200
    for i in range(n):
        bot = FibonacciCardsRuleBot(GAME, seed=i)
        bot.restart()
        seat = i % 2
        bots = [None, None]
        bots[seat] = bot
        bots[1 - seat] = _Random(10**6 + i)
        r = _play(bots, i)[seat]
        wins += r > 0
        draws += r == 0
    assert wins / n >= 0.60, (wins, draws)


def test_name_and_determinism():
    a, b = FibonacciCardsRuleBot(GAME, seed=5), FibonacciCardsRuleBot(GAME, seed=5)
    assert isinstance(a.name, str) and a.name
    s = GAME.new_initial_state(seed=3)
    while not s.is_terminal():
        x = a.step(s)
        assert x == b.step(s)
        s.apply_action(x)


def test_uses_only_visible_information():
    """Swapping the opponent's cards with stock cards never changes the bot's choice."""
    rng = random.Random(1)
    for seed in range(30):
        s = GAME.new_initial_state(seed=seed)
        mover = _Random(seed)
        while not s.is_terminal():
            p = s.current_player()
            twin = s.clone()
            pool = twin._hands[1 - p] + twin._stock
            rng.shuffle(pool)
            n = len(twin._hands[1 - p])
            twin._hands[1 - p], twin._stock = pool[:n], pool[n:]
            twin._hmask[1 - p] = sum(1 << c for c in pool[:n])
            assert FibonacciCardsRuleBot(GAME, seed=seed).step(s) == FibonacciCardsRuleBot(GAME, seed=seed).step(twin)
            s.apply_action(mover.step(s))


def test_playout_policy_wins_with_the_last_card_and_blocks_the_opponent():
    import random

    from abstracta.games.fibonacci_cards import FibonacciCardsGame
    from abstracta.games.fibonacci_cards.evaluate import playout_policy

    game = FibonacciCardsGame()
    never = lambda: 0.99  # noqa: E731 - no exploring move
    # 7h goes on pile 1 or 2 (2+5); on pile 1 it leaves 7 5 J, where his Qd (7+5) fits; on
    # pile 2 it leaves 2 7 J, where nothing of his fits (9 = 2+7 would; he has none)
    s = game.state_from_text("2c 5d Jh | 7h,3c | Qd,4s | 8s,9h | 0")
    assert sorted(s.action_to_string(a) for a in s.legal_actions()) == ["7h>1", "7h>2"]
    assert s.action_to_string(playout_policy(s, s.legal_actions(), never)) == "7h>2"
    last = game.state_from_text("2c 5d Jh | 7h | Qd,4s | 8s,9h | 0")
    assert last.action_to_string(playout_policy(last, last.legal_actions(), never)) in ("7h>1", "7h>2")
    rng = random.Random(0)
    picks = {playout_policy(s, s.legal_actions(), rng.random) for _ in range(200)}
    assert picks == set(s.legal_actions())  # it explores now and then
