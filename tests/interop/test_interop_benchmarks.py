"""The interop benchmarks' ``--json``: one JSON object, the last line (as every benchmark's)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ (bench_util)

from bench_util import load_benchmark  # noqa: E402


def last_line_object(out: str) -> dict:
    lines = out.strip().splitlines()
    answer = json.loads(lines[-1])
    assert isinstance(answer, dict)
    return answer


def test_random_agents_json_is_one_object_on_the_last_line(capsys) -> None:
    pytest.importorskip("pettingzoo")
    bench = load_benchmark("interop_random_agents")
    assert bench.main(["fanorona", "--games", "3", "--seed", "1", "--json"]) == 0
    answer = last_line_object(capsys.readouterr().out)
    assert answer["games"] == 3 and answer["seed"] == 1
    rows = answer["rows"]
    assert [r["options"] for r in rows] == [{"size": "tsivy"}, {"size": "dimy"}, {"size": "telo"}]
    assert [r["games"] for r in rows] == [1, 1, 1]
    assert [r["bound"] for r in rows] == [4588, 2548, 916]
    assert all(r["illegal"] == 0 and 0 < r["longest"] <= r["bound"] for r in rows)


def test_openspiel_strength_json_is_one_object_on_the_last_line(capsys) -> None:
    pytest.importorskip("pyspiel")
    bench = load_benchmark("openspiel_strength")
    assert bench.main(["fanorona", "--games", "1", "--levels", "4", "--time-scale", "0.01", "--json"]) == 0
    answer = last_line_object(capsys.readouterr().out)
    assert answer["games"] == 1 and answer["time_scale"] == 0.01 and answer["levels"] == [4]
    (row,) = answer["rows"]
    assert row["level"] == 4 and row["games"] == 1
    assert row["wins"] + row["draws"] + row["losses"] == 1


def test_interop_speed_json_ends_with_the_ratios_line(capsys, tmp_path):
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    bench = load_benchmark("interop_speed")
    out = tmp_path / "speed.json"
    assert bench.main(["--seconds", "0.05", "--rounds", "1", "--json", "--out", str(out)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    answer = json.loads(lines[-1])
    assert list(answer) == ["ratios"]
    assert {g: sorted(r) for g, r in answer["ratios"].items()} == {
        "fanorona": ["gymnasium", "openspiel", "pettingzoo"], "nibble": ["gymnasium", "openspiel", "pettingzoo"],
        "slide-checkers": ["pettingzoo"]}
    assert all(0 < r for ratios in answer["ratios"].values() for r in ratios.values())
    rows = json.loads(lines[-2])["rows"]
    assert all(row["actions_per_s"] > 0 for row in rows)
    assert any(row["loop"] == "engine" and row["ratio"] == 1.0 for row in rows)
    # every environment target carries its bound (floor + tensors loop), OpenSpiel's none
    bounded = {(row["game"], row["loop"]) for row in rows if row["target"] is not None and row.get("bound", 0) > 0}
    assert bounded == {(g, k) for g, r in answer["ratios"].items() for k in r if k != "openspiel"}
    assert json.loads(out.read_text())["ratios"] == answer["ratios"]


def test_the_docs_budget_table_says_what_the_target_leaves_after_the_floor_and_the_engine():
    docs = load_benchmark("research_docs")
    # µs per action: engine 4, floor 2, tensors loop 6, environment 9 (speeds are actions/s)
    rows = [{"game": "g", "loop": "engine", "actions_per_s": 250_000, "target": None},
            {"game": "g", "loop": "pettingzoo", "actions_per_s": 1e6 / 9, "target": 0.5},
            {"game": "g", "loop": "pettingzoo_floor", "actions_per_s": 500_000, "target": None},
            {"game": "g", "loop": "pettingzoo_tensors", "actions_per_s": 1e6 / 6, "target": None}]
    table = docs.budget_table(rows)
    # allowed 8 = 4 / 0.5; left 8 - 2 - 4 = 2; tensors - engine 2; least 2 + 6 = 8; measured 9
    assert table[2] == "| g | pettingzoo | 4.0 | 8.0 | 2.0 | 2.0 | 2.0 | 8.0 | 9.0 |"
    assert table[0].count("|") == table[2].count("|")
