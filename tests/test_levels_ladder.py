"""benchmarks/levels.py: the SPRT, the file that adds up across runs, the README table."""

from __future__ import annotations

import json
import math

import pytest
from bench_util import load_benchmark



@pytest.fixture()
def ladder(tmp_path, monkeypatch):
    module = load_benchmark("levels")
    monkeypatch.setattr(module, "RESULTS", tmp_path / "levels.json")
    return module


def test_sprt_bounds_and_verdicts(ladder) -> None:
    assert ladder.UPPER == pytest.approx(math.log(19)) and ladder.LOWER == pytest.approx(-math.log(19))
    # a win adds ln(1.3), a loss ln(0.7): 12 straight wins pass the upper bound, 11 do not
    assert ladder.llr(1, 1) == pytest.approx(math.log(1.3))
    assert ladder.verdict(12, 12) == "separated" and ladder.verdict(11, 11) == "undecided"
    assert ladder.verdict(4, 8) == "undecided"
    assert ladder.verdict(0, 9) == "not separated"
    assert ladder.verdict(230, 400) == "gave up"
    low, high = ladder.interval(15, 20)
    assert 0.5 < low < 0.75 < high < 0.95


def test_pairings_cover_every_variant_and_the_top_levels_once_per_game(ladder) -> None:
    pairs = ladder.pairings()
    assert ("fanorona", {"size": "tsivy"}, 6) in pairs and ("fanorona", {"size": "dimy"}, 6) not in pairs
    assert ("slide-checkers", {"players": 4}, 4) in pairs
    # the card game declares four levels (issue 46): its ladder ends at 3-4
    assert ("fibonacci-cards", {}, 4) in pairs and ("fibonacci-cards", {}, 5) not in pairs
    assert sum(1 for name, _, upper in pairs if upper == 6) == 4
    assert ladder.key("nibble", {"variant": "hex"}, 3) == "nibble:variant=hex 2-3"


def test_a_run_continues_the_seeds_and_the_table_reads_the_file(ladder, capsys) -> None:
    args = ["--only", "fanorona:size=telo", "--pairs", "1-2", "--batch", "2", "--max-batches", "1",
            "--executor", "serial"]
    assert ladder.main(args) == 0
    assert ladder.main(args) == 0
    data = json.loads(ladder.RESULTS.read_text())
    games = data["pairings"]["fanorona:size=telo 1-2"]["games"]
    assert [g["seed"] for g in games] == [0, 1, 2, 3]
    assert [g["seats"] for g in games[:2]] == [["level:1", "level:2"], ["level:2", "level:1"]]
    capsys.readouterr()
    ladder.main(["--table"])
    row = [line for line in capsys.readouterr().out.splitlines() if "size=telo" in line]
    assert len(row) == 1 and "| 1–2 | 4 |" in row[0]
    # the score with its interval and what the SPRT accepted, never "≥ 65 %"
    assert "≥ 65" not in row[0] and "% (" in row[0] and "(LLR " in row[0]


def test_results_of_a_changed_level_stop_counting(ladder, monkeypatch) -> None:
    from abstracta.ai import levels

    entry = {"game": "nibble", "options": {"variant": "square9"}, "lower": 1, "upper": 2, "games": []}
    prints = ladder.fingerprints("nibble", {"variant": "square9"}, 2)
    assert prints[0] != prints[1] and prints == ladder.fingerprints("nibble", {"variant": "square9"}, 2)
    entry["games"] = [{"score": 1.0, "levels": prints}, {"score": 0.0, "levels": prints},
                      {"score": 1.0}]  # the last one predates fingerprints: it does not count
    assert ladder.summary(entry) == (2, 1.0)
    # a new revision of greedy (level 2) makes every game measured before it stale
    monkeypatch.setitem(levels.BOT_REVISIONS, "greedy", levels.BOT_REVISIONS["greedy"] + 1)
    assert ladder.fingerprints("nibble", {"variant": "square9"}, 2)[0] == prints[0]
    assert ladder.summary(entry) == (0, 0.0)
    # a pairing left with stale games only is left out of the README table (it used to divide by 0)
    data = {"pairings": {ladder.key("nibble", {"variant": "square9"}, 2): entry}}
    assert "nibble:variant=square9" not in ladder.table(data)


def test_search_nodes_and_turn_depth_measure_the_players_on_the_same_positions() -> None:
    # benchmarks/search_nodes.py placed Fanorona 9×5's level-5 node cap (README "The level
    # ladder"); both scripts share their command line (turn_depth.run)
    import subprocess
    import sys

    from bench_util import BENCHMARKS

    def measured(script, *args):
        out = subprocess.run([sys.executable, str(BENCHMARKS / script), *args, "--seeds", "1", "--json"],
                             capture_output=True, text=True, check=True, timeout=120)
        return json.loads(out.stdout.strip().splitlines()[-1])

    nodes = measured("search_nodes.py", "fanorona", '{"size":"dimy"}', '{"level":4,"depth":7}',
                     '{"level":5,"depth":7,"max_nodes":1000}', "--plies", "2")
    assert [(r["seed"], r["ply"]) for r in nodes["rows"]] == [(1, 2)]
    full, held = nodes["rows"][0]["players"]
    assert full["depth"] == 7 and full["nodes"] > 1000 and held["nodes"] < 1000 + 256 and held["depth"] < 7
    turns = measured("turn_depth.py", "fibonacci", "{}", '{"level":3,"depth":1}', "--plies", "0")
    assert turns["rows"][0]["players"][0]["depth"] == 1


def test_a_separated_pair_has_its_interval_above_half(ladder) -> None:
    # issue 17 asks for both: the SPRT's "separated" and a 95 % interval that excludes 50 %;
    # at α = β = 0.05 the first implies the second for every total score (in twelfths: 3-player
    # games score quarters, 4-player ones sixths) up to the ladder's last game
    smallest = {}
    for games in range(1, ladder.MAX_GAMES + 1):
        for twelfths in range(12 * games + 1):
            score = twelfths / 12
            if ladder.verdict(score, games) == "separated":
                assert ladder.interval(score, games)[0] > 0.5, (score, games)
                smallest.setdefault(games, score / games)
    # the least score that separates: 11¾ of 12, 27 5/6 of 40 (69.6 %), 235¼ of 400 (58.8 %)
    assert min(smallest) == 12 and smallest[12] == pytest.approx(141 / 12 / 12)
    assert smallest[40] == pytest.approx(334 / 12 / 40) and smallest[400] == pytest.approx(2823 / 12 / 400)


def test_a_batch_scores_the_upper_level_whichever_seat_is_alone(ladder, monkeypatch) -> None:
    # three players: level N−1 alone against two level N, then level N alone (seat_orders);
    # a game is scored for the lone seat against each other seat, and for level N as it stands
    from abstracta.ai.tournament import GameOutcome

    returns = [[1.0, -1.0, 0.0], [1.0, -1.0, 0.0], [1.0, -1.0, 0.0], [1.0, -1.0, 0.0]]

    def fake_run(tasks, *args):
        return [GameOutcome(t.index, returns[k], 10, {}) for k, t in enumerate(tasks)]

    monkeypatch.setattr(ladder, "run_tasks", fake_run)
    games = ladder.play_batch("slide-checkers", {"players": 3}, 4, 2, 4, "serial", None, None)
    assert [g["seed"] for g in games] == [2, 3, 4, 5]
    # seed 2: level 3 alone at seat 2 (return 0: ½ against the winner and the loser, so ½ for
    # level 4 too); seeds 3-5: level 4 alone at seats 0, 1, 2 (won, lost, ½)
    assert [g["seats"] for g in games] == [["level:4", "level:4", "level:3"], ["level:4", "level:3", "level:3"],
                                           ["level:3", "level:4", "level:3"], ["level:3", "level:3", "level:4"]]
    assert [g["score"] for g in games] == [0.5, 1.0, 0.0, 0.5]


@pytest.mark.parametrize("name, options", [("fanorona", {"size": "dimy"}), ("slide-checkers", {"players": 2})])
def test_the_ladder_cuts_a_game_where_match_and_tournament_do(ladder, monkeypatch, name, options) -> None:
    # one cap for every bot runner (ai.match.max_actions_for): the rules' bound, else 2,000
    from abstracta import load_game
    from abstracta.ai.match import max_actions_for

    seen = []
    monkeypatch.setattr(ladder, "run_tasks", lambda tasks, *rest: seen.extend(tasks) or [])
    ladder.play_batch(name, options, 2, 0, 2, "serial", None, None)
    game = load_game(name, **options)
    assert [task.max_actions for task in seen] == [max_actions_for(game)] * 2
    assert max_actions_for(game) == (2_000 if game.max_game_length() is None else game.max_game_length())


def test_games_count_in_seed_order_and_a_decided_pairing_stops(ladder, monkeypatch) -> None:
    """levels.play: every worker busy (games come back in any order), counted in seed order only,
    the SPRT tested every --batch games counted, and games past a decision not counted."""
    from types import SimpleNamespace

    started: list[int] = []

    def backwards(fn, items, executor, workers, address):
        # five at a time, the last started first back: short games overtaking long ones
        items = iter(items)
        while True:
            wave = [task for _, task in zip(range(5), items)]
            if not wave:
                return
            base = len(started)
            started.extend(task.seed for task in wave)
            for k in reversed(range(len(wave))):
                task = wave[k]
                # the upper level (level 2) wins every game
                yield base + k, SimpleNamespace(plies=10, returns=[1.0 if s == "level:2" else -1.0 for s in task.specs])

    monkeypatch.setattr(ladder, "as_finished", backwards)
    lines: list[str] = []
    monkeypatch.setattr("builtins.print", lambda *a, **k: lines.append(" ".join(map(str, a))))
    assert ladder.main(["--only", "fanorona:size=telo", "--pairs", "1-2", "--batch", "2", "--minutes", "5"]) == 0
    games = json.loads(ladder.RESULTS.read_text())["pairings"]["fanorona:size=telo 1-2"]["games"]
    # 12 straight wins decide (see above): exactly those, in seed order, though each wave came
    # back reversed; 12-14 of the third wave came back first but count for nothing after 10 and 11
    assert [g["seed"] for g in games] == list(range(12)) and all(g["score"] == 1.0 for g in games)
    assert started == list(range(15))
    # tested after every second game counted: 2, 4, … 12 games, the last one separated
    assert [line.split()[2] for line in lines] == ["2", "4", "6", "8", "10", "12"]
    assert lines[-1].endswith("separated") and "undecided" in lines[-2]
