"""``abstracta dataset``: self-play games as Parquet training data (issue 45)."""

from __future__ import annotations

import json

import numpy as np
import pytest

pq = pytest.importorskip("pyarrow.parquet")

from typer.testing import CliRunner  # noqa: E402

from abstracta.cli import app  # noqa: E402
from abstracta.interop.dataset import write_dataset  # noqa: E402


def _rows(folder) -> dict:
    table = pq.read_table(sorted(folder.glob("*.parquet")))
    return table.to_pydict()


def test_the_cli_writes_parquet_with_the_columns_a_learner_needs(tmp_path):
    out = tmp_path / "nibble"
    result = CliRunner().invoke(app, ["dataset", "nibble", "--games", "2", "--bots", "random,random", "--seed", "1",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in out.glob("*.parquet"))
    assert files == ["games-000000-000001.parquet"]
    schema = pq.read_schema(out / files[0])
    assert {"observation", "legal_mask", "policy", "returns", "player", "value", "action"} <= set(schema.names)
    meta = json.loads((out / "_dataset.json").read_text())
    assert meta["game"] == "nibble" and meta["games"] == 2 and meta["reproducible"] and meta["num_actions"] == 82
    rows = _rows(out)
    assert sorted(set(rows["game_id"])) == [0, 1] and meta["rows"] == len(rows["game_id"])
    for obs, mask, policy, player, returns, value in zip(rows["observation"], rows["legal_mask"], rows["policy"],
                                                         rows["player"], rows["returns"], rows["value"]):
        mask, policy = np.array(mask), np.array(policy)
        assert len(obs) == 838 and mask.shape == policy.shape == (82,)
        # a random bot does not search: its target is uniform over the legal actions
        assert np.allclose(policy[mask], 1 / mask.sum()) and not policy[~mask].any()
        assert value == returns[player] and sorted(returns) == [-1.0, 1.0]
    # the same seed writes the same rows; another seed other games
    again = tmp_path / "again"
    assert CliRunner().invoke(app, ["dataset", "nibble", "-n", "2", "-b", "random,random", "--seed", "1",
                                    "--out", str(again)]).exit_code == 0
    assert _rows(again) == rows
    write_dataset("nibble", 2, ["random", "random"], 2, tmp_path / "other")
    assert _rows(tmp_path / "other")["action"] != rows["action"]


def test_bad_arguments_are_refused_with_the_reason(tmp_path):
    result = CliRunner().invoke(app, ["dataset", "nibble", "--games", "2", "--bots", "random", "--out", str(tmp_path)])
    assert result.exit_code != 0 and "2 seats, 1 bot" in result.output
    result = CliRunner().invoke(app, ["dataset", "nibble", "-n", "1", "-b", "random,wizard", "--out", str(tmp_path)])
    assert result.exit_code != 0 and "wizard" in result.output


def test_a_searching_bot_gives_its_visit_distribution_and_parts_get_their_share(tmp_path):
    meta = write_dataset("fanorona", 1, ["mcts:i60", "alphabeta:d1"], 3, tmp_path / "f", size="dimy", max_turns=30)
    rows = _rows(tmp_path / "f")
    spread = [np.count_nonzero(p) for p, who in zip(rows["policy"], rows["player"]) if who == 0]
    assert max(spread) > 1  # the root's visits, shared among several actions
    assert all(np.count_nonzero(p) == 1 for p, who in zip(rows["policy"], rows["player"]) if who == 1)  # one-hot
    assert all(abs(sum(p) - 1) < 1e-5 for p in rows["policy"]) and meta["action_space"] == "engine"
    # Slide Checkers in its compact parts: a move is a pick row, then a where-to row
    meta = write_dataset("slide-checkers", 1, ["random", "random"], 4, tmp_path / "s", max_turns=24)
    rows = _rows(tmp_path / "s")
    assert meta["action_space"] == "compact" and meta["num_actions"] == 2737
    assert len(rows["ply"]) > 24 and rows["ply"] == list(range(len(rows["ply"])))
    for mask, policy, action in zip(rows["legal_mask"], rows["policy"], rows["action"]):
        assert mask[action] and abs(sum(policy) - 1) < 1e-5
        assert all(m for m, p in zip(mask, policy) if p)


def test_process_workers_write_what_one_process_writes(tmp_path):
    write_dataset("fanorona", 3, ["random", "level:2"], 5, tmp_path / "a", size="telo", games_per_file=2)
    write_dataset("fanorona", 3, ["random", "level:2"], 5, tmp_path / "b", size="telo", games_per_file=2,
                  executor="process", workers=2)
    assert sorted(p.name for p in (tmp_path / "a").glob("*.parquet")) == \
        ["games-000000-000001.parquet", "games-000002-000002.parquet"]
    assert _rows(tmp_path / "a") == _rows(tmp_path / "b")


def test_pandas_and_hugging_face_datasets_read_it(tmp_path, monkeypatch):
    pd = pytest.importorskip("pandas")
    write_dataset("nibble", 1, ["random", "random"], 1, tmp_path / "d")
    frame = pd.read_parquet(tmp_path / "d")
    assert len(frame) > 40 and frame.loc[0, "observation"].shape == (838,)
    datasets = pytest.importorskip("datasets")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    data = datasets.load_dataset("parquet", data_files=str(tmp_path / "d" / "*.parquet"), split="train",
                                 cache_dir=str(tmp_path / "cache"))
    assert data.num_rows == len(frame)
    first = data.with_format("numpy")[0]
    assert first["observation"].shape == (838,) and first["legal_mask"].dtype == np.bool_
