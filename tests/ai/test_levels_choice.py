"""Level 3 picks the search that was measured stronger than level 2 for each game."""

import pytest

import abstracta
from abstracta.ai.alphabeta import AlphaBetaBot
from abstracta.ai.levels import make_bot, rollout_cap
from abstracta.ai.mcts import MCTSBot


@pytest.mark.parametrize("variant", ["standard", "go", "cards"])
def test_level3_on_fibonacci_plays_whole_turns_and_level4_is_alphabeta(variant):
    from abstracta.ai.turns import TurnBot

    game = abstracta.load_game("fibonacci", variant=variant)
    assert isinstance(make_bot("level:3", game, seed=0), TurnBot)
    assert isinstance(make_bot("level:4", game, seed=0), AlphaBetaBot)


@pytest.mark.parametrize("name, cap", [("nibble", 12), ("slide-checkers", 12), ("fanorona", 400)])
def test_level3_mcts_playout_caps(name, cap):
    game = abstracta.load_game(name)
    bot = make_bot("level:3", game, seed=0)
    assert isinstance(bot, MCTSBot)
    assert rollout_cap(game) == cap and bot.max_rollout_actions == cap
