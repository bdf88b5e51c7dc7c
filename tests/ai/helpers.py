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


def takes_listed_one_by_one(game: Game, record) -> list[str]:
    """The entries of ``record`` (a game with a whole-turn notation) that are one action of a
    turn still open after it and not closed by the next entry: a turn's takes written one by one
    (``i8``, ``b2``) where the spec writes the turn whole (``b2+i8``)."""
    state = record.initial_state(game)
    out = []
    for k, entry in enumerate(record.moves):
        mover = state.current_player()
        for action in game.parse_move(state, entry):
            state.apply_action(action)
        following = record.moves[k + 1] if k + 1 < len(record.moves) else None
        if (not state.is_terminal() and state.current_player() == mover and following is not None
                and following != "end"):
            out.append(entry)
    return out
