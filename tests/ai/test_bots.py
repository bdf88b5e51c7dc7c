"""Every bot answers only legal actions, never mutates the state, and replays with a seed."""

from __future__ import annotations

import random

import pytest

from abstracta.ai import AlphaBetaBot, Budget, GreedyBot, ISMCTSBot, MCTSBot, RandomBot, make_bot
from abstracta.ai.match import play_game
from abstracta.core.game import Game, State

from .toygames import ChainNimGame, MNKGame, TricksGame

GAMES = {
    "ttt": lambda: MNKGame(),
    "mnk3p": lambda: MNKGame(m=4, n=4, k=3, players=3),
    "nim": lambda: ChainNimGame(stones=7),
    "tricks": lambda: TricksGame(),
}


def all_bots(game: Game, seed: int) -> list:
    bots = [RandomBot(game, seed), GreedyBot(game, seed), MCTSBot(game, Budget(iterations=60), seed),
            MCTSBot(game, Budget(iterations=60), seed, use_undo=True), ISMCTSBot(game, Budget(iterations=60), seed)]
    if game.num_players == 2:
        bots.append(AlphaBetaBot(game, Budget(depth=3)))
        bots.append(AlphaBetaBot(game, Budget(seconds=0.02)))
    return bots


def snapshot(state: State) -> tuple:
    return state.to_text(), tuple(state.history()), state.current_player()


@pytest.mark.parametrize("name", GAMES)
def test_every_bot_plays_legal_actions_without_mutating(name: str) -> None:
    game = GAMES[name]()
    rng = random.Random(7)
    for bot in all_bots(game, seed=3):
        for game_index in range(2):
            state = game.new_initial_state(seed=game_index if game.has_chance else None)
            bot.restart()
            while not state.is_terminal():
                before = snapshot(state)
                if rng.random() < 0.5:
                    action = bot.step(state)
                    assert snapshot(state) == before, f"{bot.name} mutated the state"
                    assert action in state.legal_actions(), f"{bot.name} answered illegal {action}"
                else:
                    legal = state.legal_actions()
                    action = legal[rng.randrange(len(legal))]
                state.apply_action(action)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:i80", "ismcts:i80", "alphabeta:d3"])
def test_same_seed_same_game(name: str, spec: str) -> None:
    game = GAMES[name]()
    if spec.startswith("alphabeta") and game.num_players != 2:
        pytest.skip("alphabeta is two-player")
    games = []
    for _ in range(2):
        bots = [make_bot(spec, game, seed=11 + p) for p in range(game.num_players)]
        _, actions, _, _ = play_game(game, bots, seed=5)
        games.append(actions)
    assert games[0] == games[1]


def test_different_seeds_differ() -> None:
    game = MNKGame(m=4, n=4, k=3)
    runs = set()
    for seed in range(4):
        bots = [make_bot("mcts:i30", game, seed=seed), make_bot("random", game, seed=seed)]
        _, actions, _, _ = play_game(game, bots)
        runs.add(tuple(actions))
    assert len(runs) > 1


def test_bots_refuse_finished_games() -> None:
    game = MNKGame()
    state = game.state_from_text("000/11./...")
    assert state.is_terminal()
    for bot in all_bots(game, 0):
        with pytest.raises(ValueError, match="finished game"):
            bot.step(state)


def test_iterations_are_exposed() -> None:
    game = MNKGame(m=4, n=4, k=3)
    bot = MCTSBot(game, Budget(iterations=123), seed=0)
    bot.step(game.new_initial_state())
    assert bot.iterations == 123
    assert sum(ch.visits for ch in bot.root.children) == 123
    timed = MCTSBot(game, Budget(seconds=0.05), seed=0)
    timed.step(game.new_initial_state())
    assert timed.iterations >= 1


def test_mcts_tree_cap() -> None:
    game = MNKGame(m=4, n=4, k=3)
    bot = MCTSBot(game, Budget(iterations=500), seed=0, max_nodes=50)
    action = bot.step(game.new_initial_state())
    assert action in range(16) and bot.nodes <= 50 and bot.iterations == 500
    isbot = ISMCTSBot(game, Budget(iterations=500), seed=0, max_nodes=50)
    isbot.step(game.new_initial_state())
    assert isbot.nodes <= 50
    small = MCTSBot(game, Budget(iterations=500), seed=0, max_tree_bytes=20_000)
    small.step(game.new_initial_state())
    assert small.tree_bytes < 20_000 + 400 and small.nodes < 100


def test_mcts_undo_and_clone_walks_agree() -> None:
    game = MNKGame(m=4, n=4, k=3)
    state = game.new_initial_state()
    state.apply_action(5)
    trees = []
    for use_undo in (False, True, None):
        bot = MCTSBot(game, Budget(iterations=300), seed=4, use_undo=use_undo)
        action = bot.step(state)
        trees.append((action, [(ch.action, ch.visits, round(ch.value, 9)) for ch in bot.root.children]))
    assert trees[0] == trees[1] == trees[2]
    assert bot._faster_undo is not None  # calibrated on the first 64 iterations


@pytest.mark.parametrize("spec", ["alphabeta:d3", "paranoid:d2", "table"])
def test_a_search_with_a_stop_signal_pickles_and_plays_on_the_same(spec):
    # the stop signal is an Event (a lock): it stays with the thread, a copy takes its own
    import copy
    import pickle
    import threading

    from abstracta import load_game
    from abstracta.ai.base import stoppable

    game = load_game("fanorona", size="telo")
    bot = make_bot(spec, game, seed=3)
    state = game.new_initial_state()
    state.apply_action(bot.step(state))
    copies = [pickle.loads(pickle.dumps(bot)), copy.deepcopy(bot)]
    expected = []
    for _ in range(4):
        if state.is_terminal():
            break
        expected.append(bot.step(state))
        state.apply_action(expected[-1])
    replay = game.new_initial_state()
    replay.apply_action(state.history()[0])
    for again in copies:
        s = replay.clone()
        played = []
        for _ in expected:
            played.append(again.step(s))
            s.apply_action(played[-1])
        assert played == expected
    if spec != "table":
        stop = threading.Event()
        with stoppable(stop):
            again = pickle.loads(pickle.dumps(bot))
            assert again._stop is stop
