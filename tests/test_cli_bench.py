"""`abstracta bench --baseline`: which ratios it guards and how it names them (the run itself is
replaced by fixed rows: these tests check the comparison, not the engines' speed)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from abstracta import bench
from abstracta.cli import app

runner = CliRunner()
BASELINE = {"fanorona[size=dimy]:actions_per_s": 3.0, "nibble[variant=square9]:actions_per_s": 8.0}


@pytest.fixture
def measured(monkeypatch):
    """``bench.run`` measuring Fanorona 5×5 only, at the ratio the test sets."""
    ratio = {"now": 3.0}

    def run(games, **_):
        rows = [bench.Row("fanorona", {"size": "dimy"}, "actions_per_s", 1000.0, "actions/s", ratio["now"])]
        return rows, {"perft_nodes_per_s": 100_000.0, "moves_per_s": 10_000.0}

    monkeypatch.setattr(bench, "run", run)
    return ratio


def invoke(tmp_path, *args):
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(BASELINE))
    return runner.invoke(app, ["bench", *args, "--json", "--baseline", str(path)])


def test_a_game_left_out_of_the_run_is_not_a_regression(measured, tmp_path) -> None:
    result = invoke(tmp_path, "fanorona")
    assert result.exit_code == 0, result.output
    assert "no ratio fell below a third" in result.output and "nibble" not in result.output


def test_a_regression_names_the_variant(measured, tmp_path) -> None:
    measured["now"] = 0.9
    result = invoke(tmp_path, "fanorona")
    assert result.exit_code == 1
    assert "fanorona[size=dimy]:actions_per_s: ratio 0.900 fell below a third of the baseline 3.000" in result.output


def test_every_game_run_misses_none(measured, tmp_path) -> None:
    result = invoke(tmp_path)  # no GAME: every game, so a missing one is reported (CI's guard)
    assert result.exit_code == 1
    assert "nibble[variant=square9]:actions_per_s: not measured (baseline ratio 8.0)" in result.output


def test_a_game_named_in_another_case_is_still_guarded(measured, tmp_path, monkeypatch) -> None:
    # `bench FANORONA` measures Fanorona (names are case-insensitive) but the guard compared
    # "FANORONA" with the baseline's "fanorona[...]" keys, skipped every one and passed a
    # regression; the rows must carry the registry's name too, or --write-baseline keys drift
    seen = []
    fixed = bench.run
    monkeypatch.setattr(bench, "run", lambda games, **kw: seen.append(games) or fixed(games, **kw))
    measured["now"] = 0.9
    result = invoke(tmp_path, " FANORONA")
    assert seen == [["fanorona"]]
    assert result.exit_code == 1, result.output
    assert "fanorona[size=dimy]:actions_per_s: ratio 0.900 fell below" in result.output
