"""Search strength on the toy games (fixed seeds and iteration/depth budgets: deterministic)."""

from __future__ import annotations

from abstracta.ai import AlphaBetaBot, Budget, GreedyBot, ISMCTSBot, MCTSBot, RandomBot

from .helpers import results
from .toygames import ChainNimGame, MNKGame, TricksGame


def test_mcts_beats_random_on_4x4_three_in_a_row() -> None:
    game = MNKGame(m=4, n=4, k=3)
    wins, draws, losses = results(game, MCTSBot(game, Budget(iterations=200), seed=1), [RandomBot(game, 2)], 20)
    assert wins >= 18, (wins, draws, losses)


def test_mcts_never_loses_tic_tac_toe_to_random() -> None:
    game = MNKGame()
    wins, draws, losses = results(game, MCTSBot(game, Budget(iterations=300), seed=1), [RandomBot(game, 2)], 20)
    assert losses == 0 and wins >= 14, (wins, draws, losses)


def test_mcts_three_players() -> None:
    game = MNKGame(m=4, n=4, k=3, players=3)
    bot = MCTSBot(game, Budget(iterations=200), seed=1)
    wins, draws, losses = results(game, bot, [RandomBot(game, 2), RandomBot(game, 3)], 15)
    assert wins >= 11, (wins, draws, losses)  # a random seat wins about a third


def test_mcts_blocks_and_wins_in_three_player_positions() -> None:
    game = MNKGame(m=4, n=4, k=3, players=3)
    # player 0 to move can complete 0-0-0 on the top row
    state = game.state_from_text("00../11../22../....")
    assert MCTSBot(game, Budget(iterations=300), seed=0).step(state) in (2,)


def test_mcts_finds_multi_action_win() -> None:
    # 5 stones: the winning turn is take, end (leave 4)
    game = ChainNimGame(stones=5)
    state = game.new_initial_state()
    bot = MCTSBot(game, Budget(iterations=1500), seed=0)
    state.apply_action(bot.step(state))
    assert state.to_text() == "4 0 1"
    assert bot.step(state) == 0  # end


def solve(state, me: int) -> float:
    """Exact minimax value for ``me`` (+1 win, 0 draw, -1 loss); tiny games only."""
    if state.is_terminal():
        return state.returns()[me]
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values.append(solve(child, me))
    return max(values) if state.current_player() == me else min(values)


def test_alphabeta_forced_win_in_one() -> None:
    game = MNKGame()
    state = game.state_from_text("00./11./...")  # player 0 to move completes the top row
    bot = AlphaBetaBot(game, Budget(depth=4))
    assert bot.step(state) == 2
    assert bot.value == 1000 - 1


def test_alphabeta_forced_win_in_two() -> None:
    game = MNKGame()
    # 0: c4, c8; 1: c0, c7. 0 to move forks (c2 threatens c6 and c5) and wins on its next action
    state = game.state_from_text("1../.0./.10")
    assert state.current_player() == 0
    bot = AlphaBetaBot(game, Budget(depth=5))
    action = bot.step(state)
    assert action in (2, 5)
    assert bot.value == 1000 - 3  # the win comes with the third action from here
    assert bot.value == 1000 - 3  # block now, win with the third action from here


def test_alphabeta_agrees_with_exhaustive_minimax() -> None:
    import random
    game = MNKGame()
    rng = random.Random(4)
    checked = 0
    while checked < 12:
        state = game.new_initial_state()
        for _ in range(rng.randrange(2, 6)):
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            if state.is_terminal():
                break
        if state.is_terminal():
            continue
        me = state.current_player()
        bot = AlphaBetaBot(game, Budget(depth=9))
        action = bot.step(state)
        exact = solve(state, me)
        child = state.clone()
        child.apply_action(action)
        assert solve(child, me) == exact, state.to_text()
        assert (bot.value > 900) == (exact == 1) and (bot.value < -900) == (exact == -1)
        checked += 1


def test_alphabeta_multi_action_turns() -> None:
    game = ChainNimGame(stones=6)  # take 2 then end leaves 4: a win
    state = game.new_initial_state()
    bot = AlphaBetaBot(game, Budget(depth=12))
    played = []
    while state.current_player() == 0:
        a = bot.step(state)
        played.append(a)
        state.apply_action(a)
    assert played == [1, 1, 0]
    assert state.to_text() == "4 1 0"
    assert bot.value > 900 or bot.depth == 0


def test_alphabeta_prefers_quicker_wins() -> None:
    game = MNKGame(m=4, n=4, k=3)
    # 0 to move has an immediate win (c2) and slower ones
    state = game.state_from_text("00../11../..../....")
    bot = AlphaBetaBot(game, Budget(depth=5))
    assert bot.step(state) == 2
    assert bot.value == 1000 - 1


def test_alphabeta_never_loses_tic_tac_toe_to_random() -> None:
    game = MNKGame()
    wins, draws, losses = results(game, AlphaBetaBot(game, Budget(depth=9)), [RandomBot(game, 3)], 20)
    assert losses == 0 and wins >= 14, (wins, draws, losses)


def test_alphabeta_time_budget_is_kept() -> None:
    import time
    game = MNKGame(m=4, n=4, k=3)
    bot = AlphaBetaBot(game, Budget(seconds=0.1))
    start = time.perf_counter()
    action = bot.step(game.new_initial_state())
    assert time.perf_counter() - start < 1.0  # generous: CI machines are loaded
    assert action in range(16) and bot.depth >= 1


def test_greedy_takes_an_immediate_win() -> None:
    game = MNKGame()
    state = game.state_from_text("00./11./...")
    for seed in range(5):
        assert GreedyBot(game, seed).step(state) == 2


def test_greedy_completes_a_turn() -> None:
    game = ChainNimGame(stones=2)  # take, take wins; take, end loses
    state = game.new_initial_state()
    bot = GreedyBot(game, 0)
    assert bot.step(state) == 1
    state.apply_action(1)
    assert bot.step(state) == 1


def test_ismcts_beats_random_on_hidden_hands() -> None:
    game = TricksGame()
    wins, draws, losses = results(game, ISMCTSBot(game, Budget(iterations=150), seed=1), [RandomBot(game, 2)], 40)
    assert wins >= 26 and wins > 2 * losses, (wins, draws, losses)


def test_alphabeta_solves_chain_nim() -> None:
    # the player to move at a turn start wins iff stones % 4 != 0 (turns of several actions)
    for stones in range(1, 11):
        game = ChainNimGame(stones=stones)
        bot = AlphaBetaBot(game, Budget(depth=30))
        bot.search(game.new_initial_state())  # step() would answer the only legal action unsearched
        assert (bot.value > 900) == (stones % 4 != 0), (stones, bot.value)
        assert (bot.value < -900) == (stones % 4 == 0), (stones, bot.value)


def test_alphabeta_turn_extension_keeps_results_exact() -> None:
    game = ChainNimGame(stones=7)
    bot = AlphaBetaBot(game, Budget(depth=30), turn_extension=4)
    bot.search(game.new_initial_state())
    assert bot.value > 900
    shallow = AlphaBetaBot(game, Budget(depth=2), turn_extension=4)
    action = shallow.search(game.new_initial_state())
    assert action == 1 and shallow.nodes > 0
