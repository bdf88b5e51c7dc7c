"""The tournament runner: schedule, scoring, Elo, executors and the CLI."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from abstracta import load_game
from abstracta.ai.tournament import (elo_ratings, lone_score, run_tasks, run_tournament, schedule,
                                     seat_orders)
from abstracta.cli import app
from abstracta.core.registry import register_game

from .helpers import takes_listed_one_by_one
from .toygames import EndlessGame

runner = CliRunner()
# Small boards and fixed budgets: the same games on every executor, in seconds.
ARGS = ["tournament", "fanorona", "--option", "size=dimy", "--bots", "random,greedy,alphabeta:d2",
        "--games", "4", "--seed", "5", "--json"]


def test_schedule_two_players_alternates_seats_per_pairing() -> None:
    game = load_game("fanorona", size="dimy")
    specs, pairings, tasks = schedule(game, ["Random", "greedy", "level:3"], games=3, seed=10)
    assert specs == ["random", "greedy", "level:3"]
    assert pairings == [(0, 1), (0, 2), (1, 2)]
    assert [t.specs for t in tasks[:3]] == [("random", "greedy"), ("greedy", "random"), ("random", "greedy")]
    assert [t.seed for t in tasks] == list(range(10, 19))
    assert [t.pairing for t in tasks] == [0, 0, 0, 1, 1, 1, 2, 2, 2]


def test_schedule_three_players_visits_every_seat_order() -> None:
    game = load_game("slide-checkers", players=3)
    assert seat_orders(3) == [(True, 0), (True, 1), (True, 2), (False, 0), (False, 1), (False, 2)]
    _, _, tasks = schedule(game, ["random", "greedy"], games=6, seed=0)
    assert [t.specs for t in tasks] == [
        ("random", "greedy", "greedy"), ("greedy", "random", "greedy"), ("greedy", "greedy", "random"),
        ("greedy", "random", "random"), ("random", "greedy", "random"), ("random", "random", "greedy")]
    assert [t.lone for t in tasks] == [0, 1, 2, 0, 1, 2]


def test_schedule_refuses_bad_input() -> None:
    game = load_game("slide-checkers", players=3)
    with pytest.raises(ValueError, match="two-player games only"):
        schedule(game, ["random", "alphabeta:d2"], games=2, seed=0)
    with pytest.raises(ValueError, match="at least two bots"):
        schedule(game, ["random"], games=2, seed=0)
    with pytest.raises(ValueError, match="not a bot"):
        schedule(game, ["random", "human"], games=2, seed=0)


def test_lone_score_against_every_other_seat() -> None:
    assert lone_score([1.0, -1.0], 0) == 1.0 and lone_score([1.0, -1.0], 1) == 0.0
    assert lone_score([0.0, 0.0], 1) == 0.5 and lone_score(None, 0) == 0.5
    # a 3-player game another seat won: a loss to the winner, a tie with the other loser
    assert lone_score([-1.0, 1.0, -1.0], 0) == 0.25
    assert lone_score([-1.0, -1.0, 1.0], 2) == 1.0


def test_elo_is_finite_for_a_clean_sweep_and_anchored() -> None:
    two = elo_ratings(2, [(0, 1, 20, 20.0)])
    assert two[0].elo == two[0].low == two[0].high == 0.0
    # 20-0 plus one virtual draw: 20.5 / 21 → 400·log10(20.5/0.5) ≈ −645 for the loser
    assert two[1].elo == pytest.approx(-400 * math.log10(41), abs=0.01)
    assert two[1].high < 0 and math.isfinite(two[1].low)
    even = elo_ratings(2, [(0, 1, 10, 5.0)])
    assert even[1].elo == pytest.approx(0.0, abs=1e-9) and even[1].low < -100 < 100 < even[1].high
    chain = elo_ratings(3, [(0, 1, 40, 10.0), (1, 2, 40, 10.0)])
    assert 0 < chain[1].elo < chain[2].elo  # 1 beats 0, 2 beats 1: 2 is on top
    lonely = elo_ratings(3, [(0, 1, 4, 2.0)])
    assert lonely[2].low == -math.inf and lonely[2].high == math.inf


def test_serial_and_process_executors_give_the_same_json() -> None:
    serial = runner.invoke(app, ARGS)
    assert serial.exit_code == 0, serial.output
    process = runner.invoke(app, ARGS + ["--executor", "process", "--workers", "2"])
    assert process.exit_code == 0, process.output
    last = serial.stdout.strip().splitlines()[-1]
    assert last == process.stdout.strip().splitlines()[-1]
    data = json.loads(last)
    assert data["bots"] == ["random", "greedy", "alphabeta:d2"]
    # the game's option values, as solve --json gives them (not "false" as text)
    assert data["options"] == {"size": "dimy", "vela": False, "first_turn_single_capture": False}
    assert [p["games"] for p in data["pairings"]] == [4, 4, 4]
    assert [p["bots"] for p in data["pairings"]][2] == ["greedy", "alphabeta:d2"]
    assert len(data["results"]) == 12 and data["elo"][0] == {"bot": "random", "elo": 0.0, "low": 0.0, "high": 0.0}
    top = max(data["elo"], key=lambda r: r["elo"])
    assert top["bot"] == "alphabeta:d2" and top["elo"] > 200
    text = json.dumps(data)
    assert "seconds" not in text and "date" not in text and "process" not in text


def test_tournament_writes_records_and_plot(tmp_path) -> None:
    result = runner.invoke(app, ["tournament", "nibble", "--bots", "random,greedy", "--games", "2",
                                 "--seed", "3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "Crosstable" in result.output and "anchor" in result.output
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["elo.png", "nibble-00001.json", "nibble-00002.json", "results.json"]
    assert (tmp_path / "elo.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    record = json.loads((tmp_path / "nibble-00002.json").read_text())
    assert record["players"] == ["greedy", "random"] and record["tags"]["event"] == "tournament"
    assert json.loads((tmp_path / "results.json").read_text())["games_per_pairing"] == 2


def test_tournament_cli_errors() -> None:
    bad = runner.invoke(app, ["tournament", "nibble", "--bots", "random,robot", "--games", "1"])
    assert bad.exit_code == 2 and "robot" in bad.output
    bad = runner.invoke(app, ["tournament", "nibble", "--bots", "random,greedy", "--executor", "threads"])
    assert bad.exit_code == 2 and "serial, process, ray" in bad.output


def test_three_player_tournament_scores_the_lone_bot() -> None:
    game = load_game("slide-checkers", players=3)
    result = run_tournament(game, ["random", "mcts:i20"], games=6, seed=1)
    pairing = result.pairings[0]
    assert pairing.games == 6
    expected = 0.0
    for outcome, (first_is_lone, lone) in zip(result.outcomes, seat_orders(3)):
        s = lone_score(outcome.returns, lone)
        expected += s if first_is_lone else 1 - s
    assert pairing.score == pytest.approx(expected)
    assert result.to_json()["pairings"][0]["score"] == pytest.approx(expected / 6, abs=1e-6)


def test_ray_executor_gives_the_serial_json() -> None:
    # the one Ray test (a local Ray takes seconds to start): the same --json as serial, which
    # holds every game's seats, returns and length
    pytest.importorskip("ray")
    serial = runner.invoke(app, ARGS)
    on_ray = runner.invoke(app, ARGS + ["--executor", "ray", "--workers", "2"])
    assert on_ray.exit_code == 0, on_ray.output
    assert on_ray.stdout.strip().splitlines()[-1] == serial.stdout.strip().splitlines()[-1]


def test_a_ray_address_where_nothing_answers_is_a_clear_error() -> None:
    import socket

    pytest.importorskip("ray")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = runner.invoke(app, ARGS + ["--executor", "ray", "--ray-address", f"127.0.0.1:{port}"])
    assert result.exit_code != 0 and isinstance(result.exception, SystemExit)  # told, not a traceback
    assert f"no Ray cluster answers at 127.0.0.1:{port}" in result.output


def test_a_value_error_from_the_games_is_not_dressed_as_a_usage_error(monkeypatch) -> None:
    # only the Ray address is checked into a one-line error: a ValueError raised while the games
    # play is a bug, and stays a traceback (exit 1) rather than "error: ..." (exit 2)
    import abstracta.ai.tournament as tournament

    def broken(*args, **kwargs):
        raise ValueError("an engine bug")

    monkeypatch.setattr(tournament, "run_tournament", broken)
    result = runner.invoke(app, ARGS)
    assert isinstance(result.exception, ValueError) and result.exit_code == 1


@pytest.mark.parametrize("command", [ARGS, ["tune", "fanorona", "--option", "size=telo", "--games", "2",
                                            "--verify-games", "2"],
                                     ["egtb", "build", "fanorona", "--stones", "2"]])
def test_a_ray_cluster_that_refuses_us_is_a_clear_error(command, monkeypatch, tmp_path) -> None:
    # ray.init's ConnectionError (a cluster that answers but refuses: its auth token, another
    # Ray version) was a traceback
    import abstracta.executors as executors

    def refuse(workers=None, address=None):
        raise ConnectionError(f"Failed to connect to Ray cluster at {address}")

    monkeypatch.setattr(executors, "start_ray", refuse)
    extra = ["--dir", str(tmp_path)] if command[0] == "egtb" else []
    result = runner.invoke(app, command + extra + ["--executor", "ray", "--ray-address", "10.9.8.7:6379"])
    assert result.exit_code != 0 and isinstance(result.exception, SystemExit)
    assert "Failed to connect to Ray cluster at 10.9.8.7:6379" in result.output


def test_a_tournament_record_writes_a_bots_nibble_turn_whole() -> None:
    # as match: each turn in the game's canonical order (b2+i8), never take by take, and the
    # results (plies, returns) those of the games the bots played
    from abstracta.ai.match import play_game, seat_bots
    from abstracta.ai.tournament import play_task
    from abstracta.core.records import Record

    game = load_game("nibble")
    _, _, tasks = schedule(game, ["random", "random"], games=2, seed=3)
    for task in tasks:
        outcome = play_task(task)
        record = Record.from_dict(outcome.record)
        assert takes_listed_one_by_one(game, record) == [], record.moves
        _, actions, final, _ = play_game(game, seat_bots(game, task.specs, task.seed), seed=task.seed)
        assert outcome.plies == len(actions) and outcome.returns == [float(r) for r in final.returns()]
        assert record.replay()[0].to_text() == final.to_text()


def test_the_rating_plot_names_a_bot_given_twice_as_the_tables_do(tmp_path, monkeypatch) -> None:
    # elo.png still said "random (#0)" where the tables say "random (1st in --bots)"
    import matplotlib.figure

    from abstracta.ai.tournament import plot_ratings

    ticks = []

    def savefig(fig, *args, **kwargs):
        ticks.extend(label.get_text() for label in fig.axes[0].get_xticklabels())

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", savefig)
    result = run_tournament(load_game("nibble"), ["random", "greedy", "random"], games=1, seed=3)
    assert result.labels() == ["random (1st in --bots)", "greedy", "random (3rd in --bots)"]
    plot_ratings(result, tmp_path / "elo.png")
    assert ticks == result.labels()


def test_ordinals() -> None:
    from abstracta.ai.tournament import ordinal

    assert [ordinal(n) for n in (1, 2, 3, 4, 10, 11, 12, 13, 21, 22, 23, 101, 111, 112)] == [
        "1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th", "112th"]


def test_a_tournament_cuts_a_game_that_never_ends_at_the_cap_and_says_how_many() -> None:
    # the default cap is the game's bound where its rules set one, else DEFAULT_MAX_ACTIONS
    # (it was 100,000 actions whatever the game: minutes for one Slide Checkers exchange loop)
    register_game("toy-endless", EndlessGame)
    result = runner.invoke(app, ["tournament", "toy-endless", "--bots", "random,level:1", "--games", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["max_actions"] == 2_000 and data["unfinished"] == 2
    assert [r["plies"] for r in data["results"]] == [2_000, 2_000]
    assert [r["returns"] for r in data["results"]] == [None, None]
    assert data["pairings"][0]["unfinished"] == 2 and data["pairings"][0]["score"] == 0.5
    assert "2 of 2 games cut at 2,000 actions" in result.stderr
    bounded = runner.invoke(app, ["tournament", "toy-endless", "--option", "bound=12", "--bots", "random,random",
                                  "--games", "1", "--json"])
    data = json.loads(bounded.stdout.strip().splitlines()[-1])
    assert data["max_actions"] == 12 and data["results"][0]["plies"] == 12
    given = runner.invoke(app, ["tournament", "toy-endless", "--bots", "random,random", "--games", "1",
                                "--max-actions", "9", "--opening", "3", "--json"])
    data = json.loads(given.stdout.strip().splitlines()[-1])
    assert data["max_actions"] == 9 and data["results"][0]["plies"] == 9
    # a tournament whose games all end says nothing of a cap
    ended = runner.invoke(app, ["tournament", "nibble", "--bots", "random,greedy", "--games", "1", "--json"])
    assert ended.exit_code == 0 and " cut at " not in ended.stderr
    assert json.loads(ended.stdout.strip().splitlines()[-1])["unfinished"] == 0


def test_a_match_cuts_a_game_that_never_ends_at_the_cap_and_says_how_many() -> None:
    register_game("toy-endless", EndlessGame)
    result = runner.invoke(app, ["match", "toy-endless", "-s", "0=random", "-s", "1=random", "-n", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["max_actions"] == 2_000 and data["unfinished"] == 2 and data["mean_plies"] == 2_000
    assert [(s["wins"], s["draws"], s["losses"], s["unfinished"], s["score"]) for s in data["seats"]] == \
        [(0, 0, 0, 2, 0.5), (0, 0, 0, 2, 0.5)]
    table = runner.invoke(app, ["match", "toy-endless", "-s", "0=random", "-s", "1=random", "-n", "1",
                                "--max-actions", "5"])
    assert table.exit_code == 0, table.output
    assert "1 of 1 game cut at 5 actions" in table.output
    assert "unfinished" in table.output
