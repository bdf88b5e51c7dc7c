"""Paranoid alpha-beta (``abstracta.ai.paranoid``): exact against a brute-force paranoid
minimax, equal to alpha-beta with two players, and wired into specs and levels."""

from __future__ import annotations

import random

import pytest

from abstracta import load_game
from abstracta.ai import make_bot
from abstracta.ai.alphabeta import WIN, AlphaBetaBot
from abstracta.ai.base import Budget
from abstracta.ai.levels import level_search, parse_seat_spec
from abstracta.ai.paranoid import ParanoidBot
from abstracta.core.game import TERMINAL

from .toygames import ChainNimGame, MNKGame


def paranoid_value(state, root: int, depth: int, ply: int = 0) -> float:
    """The root player's value by plain paranoid minimax: the root maximises, everyone else
    minimises; leaves read ``evaluate(state, root)``, ends ``returns[root] × (WIN − ply)``."""
    if state.current_player() == TERMINAL:
        return state.returns()[root] * (WIN - ply)
    if depth == 0:
        return state.game.evaluate(state, root)
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values.append(paranoid_value(child, root, depth - 1, ply + 1))
    return max(values) if state.current_player() == root else min(values)


def random_states(game, count: int, seed: int, max_moves: int):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(max_moves)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            out.append(state)
    return out


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_paranoid_value_and_move_are_the_brute_force_ones_with_three_players(depth: int) -> None:
    game = MNKGame(m=4, n=4, k=3, players=3)
    for state in random_states(game, 8, seed=depth, max_moves=7):
        root = state.current_player()
        bot = ParanoidBot(game, Budget(depth=depth), noise=0)
        action = bot.step(state)
        children = {}
        for a in state.legal_actions():
            child = state.clone()
            child.apply_action(a)
            children[a] = paranoid_value(child, root, depth - 1, 1)
        best = max(children.values())
        assert bot.value == pytest.approx(best), state.to_text()
        assert children[action] == pytest.approx(best), state.to_text()


def test_paranoid_sees_two_threats_as_one_coalition() -> None:
    # Seat 0 to move cannot win at once; seats 1 (cell 6) and 2 (cell 10) each threaten three in
    # a row. Whichever threat seat 0 blocks, the other player completes its line: paranoid
    # search counts both against seat 0 and finds the loss three actions ahead.
    game = MNKGame(m=4, n=4, k=3, players=3)
    state = game.state_from_text("..../11../22../0..0")
    assert state.current_player() == 0
    bot = ParanoidBot(game, Budget(depth=3), noise=0)
    bot.step(state)
    assert bot.value == pytest.approx(-(WIN - 3))
    # and it wins where it can: give seat 0 a threat of its own and it completes it first
    state = game.state_from_text("..../11../22../00..")
    action = ParanoidBot(game, Budget(depth=3), noise=0).step(state)
    assert action == 14


def test_paranoid_with_two_players_is_alpha_beta() -> None:
    game = MNKGame(m=4, n=4, k=3)
    for state in random_states(game, 6, seed=5, max_moves=6):
        for depth in (2, 3, 4):
            a = AlphaBetaBot(game, Budget(depth=depth), noise=0)
            p = ParanoidBot(game, Budget(depth=depth), noise=0)
            assert p.step(state) == a.step(state)
            assert p.value == pytest.approx(a.value)


def test_multi_action_turns_keep_the_side() -> None:
    # ChainNim: a turn is several actions by one player; the sign must not flip inside it.
    game = ChainNimGame()
    state = game.new_initial_state()
    a = AlphaBetaBot(game, Budget(depth=5), noise=0)
    p = ParanoidBot(game, Budget(depth=5), noise=0)
    assert p.step(state) == a.step(state) and p.value == pytest.approx(a.value)


def test_the_table_is_cleared_for_another_root_player() -> None:
    game = MNKGame(m=4, n=4, k=3, players=3)
    bot = ParanoidBot(game, Budget(depth=2), noise=0)
    state = game.new_initial_state()
    bot.step(state)
    assert bot.root_player == 0 and bot.table
    state.apply_action(0)
    bot.step(state)
    assert bot.root_player == 1
    assert bot.value == pytest.approx(max(
        paranoid_value(_after(state, a), 1, 1, 1) for a in state.legal_actions()))


def _after(state, action):
    child = state.clone()
    child.apply_action(action)
    return child


def test_paranoid_specs_and_slide_checkers() -> None:
    assert parse_seat_spec("Paranoid:D3") == "paranoid:d3"
    assert parse_seat_spec("paranoid:0.50") == "paranoid:0.5"
    with pytest.raises(ValueError, match="not iterations"):
        parse_seat_spec("paranoid:i100")
    for players in (3, 4):
        game = load_game("slide-checkers", players=players)
        # the levels play MCTS (paranoid lost to it, README "Strength"); the spec stays
        for level in (3, 4, 5, 6):
            assert level_search(game, level).bot == "mcts"
        bot = make_bot("paranoid:d2", game, seed=1)
        assert isinstance(bot, ParanoidBot)
        state = game.new_initial_state()
        assert bot.step(state) in state.legal_actions()
    # two players keep plain alpha-beta
    assert level_search(load_game("slide-checkers", players=2), 4).bot == "alphabeta"
