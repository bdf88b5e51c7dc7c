"""Defects behind the inverted ladder of issue 17, each pinned by a position or a setting."""

from __future__ import annotations

from abstracta import load_game
from abstracta.ai import make_bot


def test_fanorona_whose_move_it_is_does_not_outweigh_a_stone() -> None:
    # The old side-to-move bonus (±0.05) moved a value by 0.1 with the turn — more than two
    # stones' worth on 9×5 (material alone: 0.8 × 2/43 = 0.037 a stone at the start) — so an alpha-beta leaf's value turned on
    # the parity of its line's length, and depth 6 lost to depth 5 (39 % over 32 games).
    game = load_game("fanorona")
    board = ".BBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW"  # Black's a5 stone gone
    black_to_move = game.state_from_text(board + " B")
    white_to_move = game.state_from_text(board + " W")
    assert game.evaluate(white_to_move, 0) == game.evaluate(black_to_move, 0)
    assert game.evaluate(white_to_move, 1) == -game.evaluate(white_to_move, 0)

def test_fanorona_search_finishes_capture_chains_at_the_horizon() -> None:
    game = load_game("fanorona")
    for spec in ("level:4", "level:6", "alphabeta:d4", "alphabeta:0.5"):
        bot = make_bot(spec, game, seed=0)
        assert getattr(bot, "inner", bot).turn_extension == 8, spec  # level 6 asks the tables first (OracleBot)
    # other games keep evaluating where the depth ends
    assert make_bot("alphabeta:d4", load_game("nibble"), seed=0).turn_extension == 0



def test_fibonacci_level_3_plays_whole_turns() -> None:
    # Level 3 was alpha-beta at 0.2 s (≈ depth 3 of a turn of up to six actions): greedy beat
    # alphabeta:d3 4-0. It now compares greedily completed turns and the replies to them.
    from abstracta.ai.turns import TurnBot

    game = load_game("fibonacci")
    bot = make_bot("level:3", game, seed=3)
    assert isinstance(bot, TurnBot) and bot.name == "level:3"
    state = game.state_from_text("c1a2a/1aaaa2/s4S2/1ss5S/10/s1s2S5/7S1S/s2AAS3/5A2/3A1A1/A1C3 R 3 13")
    player = state.current_player()
    turn = []
    while state.current_player() == player:
        action = bot.step(state)
        assert action in state.legal_actions()
        turn.append(action)
        state.apply_action(action)
    # the first call planned the whole turn; the other actions came from the plan
    assert 1 <= len(turn) <= 6 and bot._plan == []
    assert make_bot("turns", game, seed=3).mine == 10
