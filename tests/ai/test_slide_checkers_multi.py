"""Slide Checkers with three and four players: the evaluator the levels read and the searches
they declare (issue 17, the 3–4 rung)."""

from __future__ import annotations

import pytest

from abstracta import load_game
from abstracta.ai.base import Budget
from abstracta.ai.levels import level_search
from abstracta.ai.paranoid import ParanoidBot
from abstracta.games.slide_checkers.evaluate import evaluate, evaluate_multiplayer, make_evaluator, WEIGHTS

from .frozen_evaluators import slide_checkers as frozen

# Red (seat 2) has one piece left; j1-l4 puts it next to Green's k6, which jumps it at once.
LAST_PIECE = "Ba3,Bb3,Bd12,Bi12,Bj9,Gk6,Rj1 M R nj=3"


def test_an_eliminated_seat_is_lost_while_the_others_play_on() -> None:
    game = load_game("slide-checkers", players=4)
    # Green and Blue have no pieces; Red and Yellow play on
    state = game.state_from_text("Rb6,Rg2,Rg4,Rh3,Rl2,Ya11,Yb12,Yj12,Yl6,Yl12 M R nj=1")
    assert not state.is_terminal()
    assert evaluate_multiplayer(state, 0) == -1.0
    assert evaluate_multiplayer(state, 1) == -1.0
    assert make_evaluator(WEIGHTS)(state, 0) == -1.0
    # the plain evaluator once counted the lost seat's material only (about −0.93 here)
    assert evaluate(state, 0) == -1.0
    # the seats still playing read as before
    assert evaluate_multiplayer(state, 2) == evaluate(state, 2)
    assert make_evaluator(WEIGHTS)(state, 3) == pytest.approx(evaluate(state, 3))


def test_the_levels_do_not_walk_into_elimination() -> None:
    game = load_game("slide-checkers", players=3)
    state = game.state_from_text(LAST_PIECE)
    fatal = state.string_to_action("j1-l4")
    # with the evaluator that read elimination as one lost piece (the frozen copy) paranoid
    # alpha-beta plays the move that loses the last piece
    assert ParanoidBot(game, Budget(depth=3), noise=0, evaluator=frozen.evaluate).step(state) == fatal
    for evaluator in (evaluate, evaluate_multiplayer):
        assert ParanoidBot(game, Budget(depth=3), noise=0, evaluator=evaluator).step(state) != fatal
    for level in (3, 4):
        assert level_search(game, level).evaluator is evaluate_multiplayer
    bot = ParanoidBot(game, Budget(depth=3), noise=0, evaluator=evaluate_multiplayer)
    assert bot.step(state) != fatal
    assert bot.value > -0.99


def test_levels_three_to_six_are_mcts_and_level_three_is_held_to_its_playouts() -> None:
    from abstracta.ai import make_bot
    from abstracta.ai.mcts import MCTSBot
    from abstracta.games.slide_checkers.description import LEVEL3_PLAYOUTS

    for players in (3, 4):
        game = load_game("slide-checkers", players=players)
        state = game.new_initial_state()
        level3 = make_bot("level:3", game, seed=2)
        assert isinstance(level3, MCTSBot) and level3.budget.seconds == 0.2
        level3.step(state)
        assert level3.iterations == LEVEL3_PLAYOUTS  # 0.2 s allows several times more
        for level, seconds in ((4, 0.5), (5, 1.5), (6, 4.0)):
            bot = make_bot(f"level:{level}", game, seed=2)
            assert isinstance(bot, MCTSBot) and bot.budget.seconds == seconds
            assert bot.max_iterations is None and bot.max_rollout_actions == 12
            assert bot.evaluate is evaluate_multiplayer
