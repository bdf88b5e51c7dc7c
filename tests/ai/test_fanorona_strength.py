"""MCTS (fixed iterations, so deterministic) against random on Fanorona Dimy."""

from __future__ import annotations


import abstracta
from abstracta.ai import Budget, MCTSBot, RandomBot

from .helpers import results



def test_mcts_beats_random_on_dimy() -> None:
    game = abstracta.load_game("fanorona", size="dimy")
    bot = MCTSBot(game, Budget(iterations=300), seed=1)
    wins, draws, losses = results(game, bot, [RandomBot(game, 2)], 20)
    assert wins >= 18, (wins, draws, losses)
