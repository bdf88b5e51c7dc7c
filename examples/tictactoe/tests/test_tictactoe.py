"""Tic-tac-toe: rules, notation, the spine contract, the description, and strength."""

import pytest
from hypothesis import given, settings, strategies as st

from abstracta import IllegalActionError, NotationError, PositionError, load_game, perft
from abstracta.ai import make_bot, run_match
from abstracta.testing import check_description, check_random_playout
from tictactoe import TicTacToeGame


def play(*moves: str):
    state = TicTacToeGame().new_initial_state()
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def test_registered_through_its_entry_point():
    game = load_game("tictactoe")
    assert isinstance(game, TicTacToeGame)
    assert str(game.description.title) == "Tic-tac-toe"


def test_perft_counts_the_known_game_tree():
    # 9, 72, 504, 3024, 15120 sequences; games end from ply 5 on (the classic 255,168 games)
    state = TicTacToeGame().new_initial_state()
    assert [perft(state, d) for d in range(1, 6)] == [9, 72, 504, 3024, 15120]
    assert perft(state, 6) == 54720  # 15120 * 4 minus the 1440 games X won at ply 5


def test_three_in_a_row_wins_and_a_full_board_draws():
    won = play("a1", "a2", "b1", "b2", "c1")
    assert won.is_terminal() and won.returns() == [1.0, -1.0]
    assert won.to_text() == ".../OO./XXX O"
    drawn = play("a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2")
    assert drawn.is_terminal() and drawn.returns() == [0.0, 0.0]


def test_bad_input_is_refused_and_changes_nothing():
    state = play("b2")
    with pytest.raises(NotationError):
        state.string_to_action("d4")
    with pytest.raises(IllegalActionError):
        state.string_to_action("b2")
    with pytest.raises(IllegalActionError):
        state.apply_action(4)
    assert state.to_text() == ".../.X./... O"
    for text in ("", "XXX/.../... O", ".../.../... O", "..../.../... X", ".../.Q./... O"):
        with pytest.raises(PositionError):
            TicTacToeGame().state_from_text(text)


def test_text_round_trip_and_undo():
    state = play("a1", "c3", "b2")
    text = state.to_text()
    assert TicTacToeGame().state_from_text(text).to_text() == text == "..O/.X./X.. O"
    state.undo_action()
    assert state.to_text() == "..O/.../X.. X"


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_random_playouts_keep_the_spine_contract(seed):
    check_random_playout(TicTacToeGame(), seed)


def test_description_is_complete():
    check_description(TicTacToeGame())


def test_level4_never_loses_to_random():
    game = TicTacToeGame()
    result = run_match(game, ["level:4", "random"], games=6, seed=3)
    assert result.stats[0].losses == 0


def test_level4_takes_a_win_in_one():
    game = TicTacToeGame()
    state = game.state_from_text(".../OO./XX. X")
    bot = make_bot("level:4", game, seed=0)
    assert state.action_to_string(bot.step(state)) == "c1"
