"""The match runner: seat rotation, tallies, timings and records."""

from __future__ import annotations

import pytest

from abstracta import load_game
from abstracta.ai import make_bot, play_game, run_match
from abstracta.ai.match import DEFAULT_MAX_ACTIONS, BotError, max_actions_for, seating

from .helpers import takes_listed_one_by_one
from .toygames import EndlessGame, MNKGame, TricksGame


def test_seating_rotates() -> None:
    assert [seating(2, i) for i in range(3)] == [[0, 1], [1, 0], [0, 1]]
    assert [seating(3, i) for i in range(3)] == [[0, 1, 2], [2, 0, 1], [1, 2, 0]]


def test_play_game_returns_the_whole_game() -> None:
    game = MNKGame()
    bots = [make_bot("random", game, seed=1), make_bot("greedy", game, seed=2)]
    initial, actions, final, seconds = play_game(game, bots, seed=0)
    assert initial.to_text() == ".../.../..."
    replay = initial.clone()
    for a in actions:
        replay.apply_action(a)
    assert replay.to_text() == final.to_text() and final.is_terminal()
    assert len(seconds) == 2 and all(s >= 0 for s in seconds)


def test_run_match_tallies_and_records() -> None:
    game = MNKGame(m=4, n=4, k=3)
    seen = []
    result = run_match(game, ["mcts:i100", "random"], games=6, seed=3,
                       on_game_done=lambda i, record, so_far: seen.append((i, record.players, so_far.games)))
    assert result.specs == ["mcts:i100", "random"]
    assert [s[0] for s in seen] == list(range(6)) and [s[2] for s in seen] == list(range(1, 7))
    assert seen[0][1] == ["mcts:i100", "random"] and seen[1][1] == ["random", "mcts:i100"]
    mcts, rnd = result.stats
    assert mcts.games == rnd.games == 6
    assert mcts.wins == rnd.losses and mcts.losses == rnd.wins and mcts.draws == rnd.draws
    assert mcts.wins >= 5
    assert mcts.moves + rnd.moves == sum(result.plies)
    assert mcts.seconds_per_move > rnd.seconds_per_move
    for record in result.records:
        assert record.game == "toy-mnk" and record.termination == "normal" and len(record.result) == 2
    again = run_match(game, ["mcts:i100", "random"], games=6, seed=3)
    assert [r.moves for r in again.records] == [r.moves for r in result.records]


def test_run_match_three_players_and_hidden_information() -> None:
    three = run_match(MNKGame(m=4, n=4, k=3, players=3), ["random", "level:1", "mcts:i30"], games=3, seed=0)
    assert [s.games for s in three.stats] == [3, 3, 3]
    hidden = run_match(TricksGame(), ["ismcts:i30", "random"], games=4, seed=9)
    assert [r.seed for r in hidden.records] == [9, 10, 11, 12]


def test_run_match_refuses_bad_specs() -> None:
    game = MNKGame()
    with pytest.raises(ValueError, match="needs 2 seat specs"):
        run_match(game, ["random"], games=1)
    with pytest.raises(ValueError, match="not humans"):
        run_match(game, ["human", "random"], games=1)
    with pytest.raises(ValueError, match="unknown seat spec"):
        run_match(game, ["random", "robot"], games=1)


def test_illegal_bot_answer_is_reported() -> None:
    class Cheater:
        name = "cheater"

        def step(self, state):
            return 99

        def restart(self):
            pass

    game = MNKGame()
    with pytest.raises(BotError, match="cheater"):
        play_game(game, [Cheater(), make_bot("random", game, 0)])


def test_games_of_a_match_differ_with_deterministic_searches() -> None:
    # Alpha-beta to a fixed depth used to play one game per seat order: 4 games, 1 distinct
    # (issue 17: "a 12-game sample is 6 games played twice"). Seeded root bonuses vary them.
    from abstracta import load_game

    game = load_game("fanorona")
    result = run_match(game, ["alphabeta:d2", "alphabeta:d2"], games=4, seed=0)
    assert len({tuple(r.moves) for r in result.records}) == 4
    again = run_match(game, ["alphabeta:d2", "alphabeta:d2"], games=4, seed=0)
    assert [r.moves for r in again.records] == [r.moves for r in result.records]


def test_a_match_game_replays_alone_from_its_seed() -> None:
    from abstracta.ai.match import seat_bots

    game = MNKGame(m=4, n=4, k=3)
    result = run_match(game, ["mcts:i50", "greedy"], games=3, seed=7)
    # game 2 seats the specs in their order again; its bots depend only on its seed (7 + 2)
    _, actions, _, _ = play_game(game, seat_bots(game, ["mcts:i50", "greedy"], 9), seed=9)
    assert game.format_moves(game.new_initial_state(), actions) == result.records[2].moves


def test_a_match_record_writes_a_bots_nibble_turn_whole_and_plays_the_same_games() -> None:
    # random bots take a turn's discs in any order: the record lists each turn in the game's
    # canonical order (b2+i8), as the server and play write it, not take by take (i8, b2)
    from abstracta import load_game
    from abstracta.ai.match import seat_bots

    game = load_game("nibble")
    result = run_match(game, ["random", "random"], games=2, seed=3)
    for i, record in enumerate(result.records):
        assert takes_listed_one_by_one(game, record) == [], record.moves
        assert any("+" in entry for entry in record.moves)
        # the same game as played: the bots' own order reaches the same positions
        _, actions, final, _ = play_game(game, seat_bots(game, record.players, 3 + i), seed=3 + i)
        replayed, recorded = record.replay()
        assert replayed.to_text() == final.to_text() and len(recorded) == len(actions) == result.plies[i]
        assert sorted(recorded) == sorted(actions)


def test_a_game_that_never_ends_is_cut_at_the_default_cap_unfinished_and_drawn() -> None:
    # Slide Checkers has no bound on its length (an exchange converts a piece, every jump resets
    # the 100-turn counter): greedy against greedy can exchange back and forth for ever, and a
    # match ran each such game to 100,000 actions (~140 s). It stops at the default cap instead.
    result = run_match(EndlessGame(), ["random", "level:1"], games=2, seed=0)
    assert DEFAULT_MAX_ACTIONS == 2_000
    assert result.plies == [2_000, 2_000] and result.max_actions == 2_000
    assert result.unfinished == 2 and [s.unfinished for s in result.stats] == [2, 2]
    assert [(s.wins, s.draws, s.losses) for s in result.stats] == [(0, 0, 0), (0, 0, 0)]
    # scored as draws, as a tournament scores them (not as a loss for every seat)
    assert [s.score for s in result.stats] == [0.5, 0.5]
    assert [r.termination for r in result.records] == ["abandoned", "abandoned"]
    assert run_match(EndlessGame(), ["random", "random"], games=1, max_actions=7).plies == [7]


def test_the_cap_is_the_games_own_bound_where_its_rules_set_one() -> None:
    assert max_actions_for(EndlessGame()) == DEFAULT_MAX_ACTIONS
    assert max_actions_for(EndlessGame(bound=12)) == 12
    result = run_match(EndlessGame(bound=12), ["random", "random"], games=1)
    assert result.plies == [12] and result.max_actions == 12 and result.unfinished == 1
    assert len(play_game(EndlessGame(bound=12), [make_bot("random", EndlessGame(), seed=s) for s in (1, 2)])[1]) == 12
    # the real games: their rules' bound (and their chance draws), Slide Checkers the default
    assert max_actions_for(load_game("fanorona", size="telo")) == 916
    assert max_actions_for(load_game("nibble", variant="square9")) == 162
    assert max_actions_for(load_game("fibonacci-cards")) == 132 + 33
    assert max_actions_for(load_game("slide-checkers", players=3)) == DEFAULT_MAX_ACTIONS
