"""The bots on the real engines (each test skips when its game is not registered yet)."""

from __future__ import annotations

import random

import pytest

import abstracta
from abstracta.ai import Budget, make_bot, strongest_search
from abstracta.ai.alphabeta import AlphaBetaBot
from abstracta.ai.greedy import GreedyBot
from abstracta.ai.ismcts import ISMCTSBot
from abstracta.ai.mcts import MCTSBot
from abstracta.ai.random_bot import RandomBot
from abstracta.ai.turns import TurnSearchBot

CONFIGS = [
    ("fanorona", {"size": "dimy"}), ("fanorona", {}), ("nibble", {}),
    ("fibonacci", {}), ("fibonacci", {"variant": "cards"}), ("fibonacci", {"variant": "go"}),
    ("fibonacci-cards", {}), ("slide-checkers", {}), ("slide-checkers", {"players": 3}),
]


def load(name: str, options: dict):
    return abstracta.load_game(name, **options)


def ids(config) -> str:
    name, options = config
    return name + "".join(f"-{v}" for v in options.values())


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
def test_bots_play_legal_actions(config) -> None:
    name, options = config
    game = load(name, options)
    bots = [RandomBot(game, 1), GreedyBot(game, 1),
            MCTSBot(game, Budget(iterations=20), seed=1, max_rollout_actions=40),
            ISMCTSBot(game, Budget(iterations=20), seed=1, max_rollout_actions=40)]
    if game.num_players == 2:
        bots.append(AlphaBetaBot(game, Budget(depth=2)))
        bots.append(TurnSearchBot(game, Budget(depth=2), seed=1, width=3, reply_width=3))
    rng = random.Random(3)
    state = game.new_initial_state(seed=4) if game.has_chance else game.new_initial_state()
    for ply in range(12):
        if state.is_terminal():
            break
        for bot in bots:
            before = (state.to_text(), list(state.history()))
            action = bot.step(state)
            assert (state.to_text(), list(state.history())) == before, f"{bot.name} mutated the state"
            assert action in state.legal_actions(), f"{bot.name}: {action} is not legal in {state.to_text()!r}"
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
def test_levels_build_for_every_game(config) -> None:
    name, options = config
    game = load(name, options)
    for level in range(1, 7):
        bot = make_bot(f"level:{level}", game, seed=0)
        assert bot is not None and bot.name == f"level:{level}"
    search = strongest_search(game)
    if name == "fibonacci":  # all variants, the cards one included: whole turns (issue 17)
        assert search == "turns"
    elif game.has_hidden_information:
        assert search == "ismcts"
    elif game.num_players > 2:
        assert search == "mcts"  # Slide Checkers 3-4 players: paranoid lost to MCTS
    else:
        assert search == "alphabeta"


@pytest.mark.parametrize("config, specs", [
    (("fanorona", {"size": "dimy"}), ["mcts:i30", "greedy"]),
    (("fibonacci-cards", {}), ["ismcts:i15", "alphabeta:d1"]),
], ids=["fanorona-dimy", "fibonacci-cards"])
def test_seeded_matches_replay(config, specs) -> None:
    from abstracta.ai import run_match
    game = load(*config)
    first = run_match(game, specs, games=2, seed=5, max_actions=150)
    second = run_match(game, specs, games=2, seed=5, max_actions=150)
    assert [r.moves for r in first.records] == [r.moves for r in second.records]
    for record in first.records:
        if record.result is not None:
            final, _ = record.replay()
            assert final.is_terminal()


def test_rule_spec_builds_the_card_game_bot() -> None:
    game = load("fibonacci-cards", {})
    bot = make_bot("rule", game, seed=3)
    state = game.new_initial_state(seed=1)
    assert bot.step(state) in state.legal_actions()
    with pytest.raises(ValueError, match="has no bot of that name"):
        make_bot("rule", load("fanorona", {"size": "dimy"}))
