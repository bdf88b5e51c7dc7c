"""Shared test helpers: play bots against each other on any game."""

from __future__ import annotations

from abstracta.ai.base import Bot
from abstracta.ai.match import play_game
from abstracta.core.game import Game


def results(game: Game, bot, opponents, games: int, seed: int = 0) -> tuple[int, int, int]:
    """(wins, draws, losses) of ``bot`` against ``opponents`` (one per other seat), rotating seats."""
    n = game.num_players
    wins = draws = losses = 0
    for i in range(games):
        seat = i % n
        others = iter(opponents)
        bots: list[Bot] = [bot if s == seat else next(others) for s in range(n)]
        _, _, final, _ = play_game(game, bots, seed=seed + i)
        r = final.returns()[seat]
        wins += r > 0
        draws += r == 0
        losses += r < 0
    return wins, draws, losses
