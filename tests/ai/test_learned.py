"""Learned values (issue 47): NumPy inference, lazy weights, the self-play data, training, the
equal-nodes games and the benchmark's SPRT."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest
from bench_util import load_benchmark

from abstracta import load_game
from abstracta.ai.learn import (PairTask, loss_and_gradient, pair_tasks, play_pair, read_rows, targets, train)
from abstracta.core import learned as learned_module
from abstracta.core.learned import LIMIT, LearnedValue, WeightsError, forward, load_weights, save_weights
from abstracta.games.fanorona.learned import FEATURES as FANORONA_FEATURES
from abstracta.games.nibble.learned import FEATURES, features
from abstracta.games.slide_checkers.learned import FEATURES as SLIDE_FEATURES

pq = pytest.importorskip("pyarrow.parquet")


def _random_params(f: int, hidden: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {"mean": rng.normal(size=f), "std": rng.uniform(0.5, 2.0, f),
            "w1": rng.normal(size=(hidden, f)) if hidden else np.zeros((0, f)),
            "b1": rng.normal(size=hidden), "w2": rng.normal(size=hidden or f) * 0.5, "b2": np.asarray(0.1)}


def _reference(params: dict[str, np.ndarray], f: list[float]) -> float:
    """The model of abstracta.core.learned written out in plain Python, number by number."""
    x = [(v - m) / s for v, m, s in zip(f, params["mean"], params["std"])]
    if params["w1"].size:
        x = [math.tanh(sum(w * xi for w, xi in zip(row, x)) + b) for row, b in zip(params["w1"], params["b1"])]
    z = sum(w * xi for w, xi in zip(params["w2"], x)) + float(params["b2"])
    return max(-LIMIT, min(LIMIT, math.tanh(z)))


def _positions(count: int, seed: int) -> list:
    """Running Nibble positions after random actions."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = load_game("nibble", seed=rng.randrange(1000)).new_initial_state()
        for _ in range(rng.randrange(5, 60)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            out.append(state)
    return out


def _value_at(tmp_path: Path, params: dict[str, np.ndarray], monkeypatch, names=FEATURES) -> LearnedValue:
    path = tmp_path / "learned.npz"
    save_weights(path, params, names, {"note": "test"})
    value = LearnedValue(features, names, "abstracta.games.nibble")
    monkeypatch.setattr(value, "path", lambda: path)
    return value


@pytest.mark.parametrize("hidden", [0, 5])
def test_numpy_inference_is_the_reference_computation(tmp_path, monkeypatch, hidden):
    params = _random_params(len(FEATURES), hidden, seed=hidden + 3)
    value = _value_at(tmp_path, params, monkeypatch)
    states = _positions(12, seed=7)
    rows = np.array([features(s, s.to_move) for s in states])
    batch = forward(params, rows)
    seen = set()
    for state, row, expected in zip(states, rows, batch):
        ref = _reference(params, list(features(state, state.to_move)))
        for player in (0, 1):
            got = value.evaluate(state, player)
            # the model read from the mover's view, as it was trained; the other seat's is minus it
            assert got == pytest.approx(ref if player == state.to_move else -ref, abs=1e-12)
            seen.add(round(got, 3))
        assert value(state, state.to_move) == pytest.approx(expected, abs=1e-12)
    assert len(seen) > 6  # the positions are told apart, not all clamped to one value
    assert value.meta == {"note": "test"}


@pytest.mark.parametrize("name", ["nibble", "fanorona", "slide-checkers"])
def test_the_shipped_values_read_the_waiting_seat_as_minus_the_mover(name):
    # every training row is the mover's: features from the waiting seat's view (to_move −1 …)
    # were never seen, and read so they lost a greedy search almost every game
    game = load_game(name)
    learned = game.description.learned
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        state = game.new_initial_state()
        for _ in range(rng.randrange(4, 40)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal() or state.current_player() < 0:
            continue
        mover = state.current_player()
        assert learned.evaluate(state, 1 - mover) == -learned.evaluate(state, mover)
        checked += 1
    assert checked > 20


def test_a_finished_game_gives_its_result(tmp_path, monkeypatch):
    value = _value_at(tmp_path, _random_params(len(FEATURES), 3, 1), monkeypatch)
    state = load_game("nibble", seed=3).new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert [value(state, p) for p in (0, 1)] == [float(r) for r in state.returns()]
    assert not value.loaded  # a result needs no weights


def test_weights_load_lazily_once_and_travel_without_them(tmp_path, monkeypatch):
    calls = []
    real = learned_module.load_weights
    monkeypatch.setattr(learned_module, "load_weights", lambda *a: calls.append(1) or real(*a))
    value = _value_at(tmp_path, _random_params(len(FEATURES), 4, 2), monkeypatch)
    game = load_game("nibble")
    assert game.description.learned is not None
    assert not value.loaded and calls == []
    state = _positions(1, seed=1)[0]
    first = value(state, 0)
    assert value.loaded and calls == [1]
    assert value(state, 0) == first and calls == [1]
    import pickle

    copy = pickle.loads(pickle.dumps(value))
    assert not copy.loaded and copy.names == value.names


def test_the_shipped_weights_fit_their_games_and_are_small():
    for name, options, names in (("nibble", {}, FEATURES), ("fanorona", {}, FANORONA_FEATURES),
                                 ("slide-checkers", {}, SLIDE_FEATURES)):
        learned = load_game(name, **options).description.learned
        assert learned is not None and learned.names == names
        path = Path(str(learned.path()))
        assert path.is_file() and path.stat().st_size <= 1_000_000
        params, meta = load_weights(path, names)
        assert meta["games"] >= 1 and "command" in meta
    assert load_game("fanorona", size="dimy").description.learned is None  # trained on 9×5 only
    assert load_game("nibble", variant="hex").description.learned is None  # and on 9×9
    assert load_game("slide-checkers", players=3).description.learned is None  # two players only


def test_the_levels_a_game_names_read_its_kept_learned_value_and_the_others_their_evaluator():
    from abstracta.ai.levels import describe_level

    nibble = load_game("nibble")
    learned = nibble.description.learned
    assert learned.kept
    for level in (4, 5, 6):
        assert nibble.description.levels[level].evaluator == learned.evaluate
    assert describe_level(nibble, 4)["evaluator"].startswith("abstracta.core.learned.LearnedValue.evaluate+learned.npz:")
    assert describe_level(nibble, 4)["max_depth"] == 10  # its bound kept
    assert nibble.description.levels[3].evaluator is nibble.description.evaluator
    fanorona = load_game("fanorona")
    assert not fanorona.description.learned.kept  # rejected: the levels read the tuned evaluator
    assert all(fanorona.description.levels[n].evaluator is not fanorona.description.learned.evaluate
               for n in range(1, 7))
    hex_board = load_game("nibble", variant="hex")
    assert hex_board.description.levels[4].evaluator is hex_board.description.evaluator
    slide = load_game("slide-checkers")
    assert slide.description.learned.kept
    # two-player Slide Checkers: level 4 alone (its gain shrinks as the search grows: docs/strength.md)
    assert slide.description.levels[4].evaluator == slide.description.learned.evaluate
    assert describe_level(slide, 4)["evaluator"].startswith("abstracta.core.learned.LearnedValue.evaluate+learned.npz:")
    for level in (2, 3, 5, 6):  # greedy, MCTS and the deeper searches keep the hand-set sum
        assert slide.description.levels[level].evaluator is slide.description.evaluator
    assert all(slide.description.levels[level].bot == "alphabeta" for level in (4, 5, 6))
    for other in (load_game("slide-checkers", board="5,1"), load_game("slide-checkers", players=3)):
        assert other.description.levels[4].evaluator is other.description.evaluator


def test_weights_for_other_features_are_refused(tmp_path, monkeypatch):
    params = _random_params(len(FEATURES) - 1, 2, 5)
    value = _value_at(tmp_path, params, monkeypatch, names=FEATURES[:-1])
    value.names = FEATURES
    with pytest.raises(WeightsError, match="features"):
        value(_positions(1, 3)[0], 0)
    bad = _random_params(len(FEATURES), 2, 5)
    bad["w2"] = np.zeros(3)
    path = tmp_path / "bad.npz"
    save_weights(path, bad, FEATURES, {})
    with pytest.raises(WeightsError, match="shape"):
        load_weights(path, FEATURES)


def test_the_gradient_is_the_loss_s_slope():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(30, 4)), rng.uniform(-0.9, 0.9, 30)
    for hidden in (0, 3):
        params = _random_params(4, hidden, 9)
        del params["mean"], params["std"]
        _, grads = loss_and_gradient(params, x, y, 1e-3)
        for key in ("w1", "b1", "w2", "b2"):
            flat = params[key].reshape(-1)
            for i in range(min(flat.size, 5)):
                saved = flat[i]
                flat[i] = saved + 1e-6
                up, _ = loss_and_gradient(params, x, y, 1e-3)
                flat[i] = saved - 1e-6
                down, _ = loss_and_gradient(params, x, y, 1e-3)
                flat[i] = saved
                assert grads[key].reshape(-1)[i] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-8)


def test_training_recovers_a_model_and_is_reproducible():
    rng = np.random.default_rng(4)
    feats = rng.normal(size=(2000, 3)) * [1.0, 5.0, 0.1] + [0.0, 2.0, 0.0]
    y = np.tanh(0.8 * feats[:, 0] - 0.1 * feats[:, 1] + 0.2)
    games = np.arange(2000) // 10
    first = train(feats, y, games, hidden=0, epochs=300, seed=3, l2=0.0, rate=0.05)
    assert first.held_out_loss < 0.01 * first.baseline_loss
    assert forward(first.params, feats[:5]) == pytest.approx(np.clip(y[:5], -LIMIT, LIMIT), abs=0.05)
    again = train(feats, y, games, hidden=0, epochs=300, seed=3, l2=0.0, rate=0.05)
    assert all(np.array_equal(first.params[k], again.params[k]) for k in first.params)


def test_targets_mix_the_search_value_with_the_result():
    value = np.array([1.0, -1.0, 1.0])
    searched = np.array([0.2, np.nan, -0.4])
    assert targets(value, searched, 0.5) == pytest.approx([0.6, -1.0, 0.3])
    assert targets(value, searched, 1.0) == pytest.approx([0.2, -1.0, -0.4])


def test_self_play_data_carries_features_and_search_values_reproducibly(tmp_path):
    from abstracta.interop.dataset import write_dataset

    meta = write_dataset("nibble", 2, ["alphabeta:d2", "random"], 5, tmp_path / "a", opening=3)
    assert meta["features"] == list(FEATURES) and meta["opening"] == 3 and meta["schema_version"] == 2
    rows = pq.read_table(tmp_path / "a").to_pydict()
    searched = [v for v, p in zip(rows["search_value"], rows["player"]) if p == 0]
    unsearched = [v for v, p in zip(rows["search_value"], rows["player"]) if p == 1]
    assert unsearched and all(v is None for v in unsearched)  # random does not search
    real = [v for v in searched if v is not None]
    assert real and all(-1.0 <= v <= 1.0 for v in real) and len(set(real)) > 3
    assert all(len(f) == len(FEATURES) for f in rows["features"])
    assert min(rows["ply"]) == 0 and min(rows["move_number"]) >= 3  # the opening wrote no rows
    write_dataset("nibble", 2, ["alphabeta:d2", "random"], 5, tmp_path / "b", opening=3)
    again = pq.read_table(tmp_path / "b").to_pydict()
    assert again == rows
    write_dataset("nibble", 2, ["alphabeta:d2", "random"], 6, tmp_path / "c", opening=3)
    assert pq.read_table(tmp_path / "c").to_pydict()["features"] != rows["features"]
    read = read_rows([tmp_path / "a"], FEATURES)
    assert read["features"].shape == (len(rows["ply"]), len(FEATURES))
    assert np.array_equal(read["game"], np.array(rows["game_id"]))
    assert np.isnan(read["search_value"]).sum() == sum(v is None for v in rows["search_value"])


def test_a_pair_game_is_the_same_game_again_and_scores_the_learned_seat():
    game = load_game("nibble")
    tasks = pair_tasks(game, 0, 2, nodes=150, opening=2, seed=11)
    assert [(t.seed, t.learned_seat) for t in tasks] == [(11, 0), (11, 1)]
    first = [play_pair(t) for t in tasks]
    assert [play_pair(t) for t in tasks] == first
    for task, result in zip(tasks, first):
        returns = result["returns"]
        expected = 0.5 if returns is None else (1.0 if returns[task.learned_seat] > returns[1 - task.learned_seat]
                                                else 0.0 if returns[task.learned_seat] < returns[1 - task.learned_seat]
                                                else 0.5)
        assert result["score"] == expected


def test_a_game_without_a_learned_value_is_refused():
    from abstracta.core.errors import OptionError

    with pytest.raises(OptionError, match="no learned value"):
        play_pair(PairTask("fanorona", (("size", "dimy"),), 0, 0, 0, 100, 0))


def test_a_level_pairing_plays_the_level_s_own_search_one_side_reading_the_learned_value():
    from abstracta.ai.greedy import GreedyBot
    from abstracta.ai.learn import pair_bots
    from abstracta.ai.mcts import MCTSBot
    from abstracta.core.errors import OptionError

    game = load_game("slide-checkers")
    learned = game.description.learned
    for seat in (0, 1):
        bots = pair_bots(game, None, 5, seat, level=2)
        assert all(isinstance(b, GreedyBot) for b in bots)
        assert bots[seat].evaluate == learned.evaluate and bots[seat].name == "learned"
        assert bots[1 - seat].evaluate is game.description.evaluator and bots[1 - seat].name == "evaluator"
    mcts = pair_bots(game, None, 5, 1, level=3)
    assert all(isinstance(b, MCTSBot) for b in mcts)
    assert mcts[0].budget.seconds == mcts[1].budget.seconds == 0.2  # the level's seconds, no positions cap
    with pytest.raises(OptionError, match="no positions cap"):
        pair_bots(game, 100, 5, 0, level=2)
    with pytest.raises(OptionError, match="reads no evaluator"):
        pair_bots(game, None, 5, 0, level=1)
    tasks = pair_tasks(game, 0, 2, None, 2, seed=3, level=2)
    assert [(t.level, t.nodes, t.learned_seat) for t in tasks] == [(2, None, 0), (2, None, 1)]
    result = play_pair(tasks[0])  # greedy against greedy: a whole game in a moment
    returns = result["returns"]
    assert returns is not None and sorted(returns) == [-1.0, 1.0]
    assert result["score"] == (1.0 if returns[0] > 0 else 0.0)


# --------------------------------------------------------------------------- the benchmark's SPRT
@pytest.fixture()
def bench():
    return load_benchmark("learned")


def test_sprt_decides_at_its_bounds(bench):
    p1 = bench.expected_score(50)
    assert p1 == pytest.approx(0.5715, abs=1e-4) and bench.expected_score(0) == 0.5
    # LLR by hand: s ln(p1/p0) + (n − s) ln((1 − p1)/(1 − p0))
    assert bench.sprt(60, 100)[1] == pytest.approx(60 * math.log(p1 / 0.5) + 40 * math.log((1 - p1) / 0.5))
    assert bench.sprt(35, 40)[0] == "accepted"  # LLR ≈ +3.9 ≥ ln 19
    assert bench.sprt(30, 40)[0] == "undecided"  # LLR ≈ +2.5: 75 % of 40 is not yet enough
    assert bench.sprt(10, 40)[0] == "rejected"
    assert bench.sprt(11, 20)[0] == "undecided"
    # just either side of the upper bound ln 19 ≈ 2.944
    n = 100
    s = next(s for s in np.arange(50, 100, 0.5) if bench.sprt(s, n)[1] >= math.log(19))
    assert bench.sprt(s, n)[0] == "accepted" and bench.sprt(s - 0.5, n)[0] == "undecided"


@pytest.mark.parametrize("elo, verdict", [(150, "accepted"), (0, "rejected"), (-100, "rejected")])
def test_sprt_on_simulated_matches_decides_for_the_true_strength(bench, elo, verdict):
    rng = random.Random(elo + 1000)
    p = bench.expected_score(elo)
    wrong = 0
    for _ in range(20):
        score, games, state = 0.0, 0, "undecided"
        while state == "undecided" and games < 5000:
            score += 1.0 if rng.random() < p else 0.0
            games += 1
            state = bench.sprt(score, games)[0]
        wrong += state != verdict
    assert wrong <= 2  # α = β = 0.05 (far from the hypotheses the errors are rarer still)


def test_elo_is_the_ladder_s_with_its_interval(bench):
    elo, low, high = bench.elo_of(30, 40)
    assert low < elo < high and elo == pytest.approx(188, abs=10)
    assert bench.elo_of(20, 40) == pytest.approx((0.0, pytest.approx(-107, abs=10), pytest.approx(107, abs=10)), abs=1)


def test_carry_keeps_the_games_not_measured_with_where_they_were_measured(bench, tmp_path):
    earlier = {"command": "python benchmarks/learned.py --json", "commit": "abc1234", "date": "2026-12-01",
               "result": {"games": {"nibble": {"elo": 321.0, "sprt": "accepted"},
                                    "fanorona": {"elo": -26.0, "sprt": "rejected",
                                                 "carried": {"command": "older", "commit": "0000000",
                                                             "date": "2026-11-30"}}}}}
    path = tmp_path / "learned.json"
    path.write_text(json.dumps(earlier))
    kept = bench.carried(path, ["fanorona", "slide-checkers"])
    assert kept == {"nibble": {"elo": 321.0, "sprt": "accepted", "carried": {
        "command": "python benchmarks/learned.py --json", "commit": "abc1234", "date": "2026-12-01"}}}
    # an entry carried before keeps its own origin
    assert bench.carried(path, [])["fanorona"]["carried"]["commit"] == "0000000"
    path.write_text(json.dumps({"result": [1, 2]}))
    with pytest.raises(ValueError, match="no result.games"):
        bench.carried(path, [])


def test_the_benchmark_measures_a_level_at_its_seconds(bench, capsys):
    assert bench.main(["--only", "slide-checkers", "--level", "2", "--executor", "serial", "--max-games", "2",
                       "--batch", "2", "--json"]) == 0
    entry = json.loads(capsys.readouterr().out.splitlines()[-1])["games"]["slide-checkers"]
    assert (entry["level"], entry["search"], entry["nodes"], entry["games"]) == (2, "greedy", None, 2)
    assert entry["wins"] + entry["draws"] + entry["losses"] == 2
    with pytest.raises(SystemExit):
        bench.main(["--only", "slide-checkers", "--level", "9", "--executor", "serial"])


def test_the_analysis_board_gives_the_learned_value_where_the_game_has_one():
    from abstracta.ai.analysis import analyse

    state = _positions(1, seed=21)[0]
    learned = state.game.description.learned
    answer = analyse(state, budget=200, seed=1)
    assert answer.learned == [round(learned.evaluate(state, p), 4) for p in (0, 1)]
    assert answer.to_dict()["learned"] == answer.learned
    small = load_game("fanorona", size="dimy").new_initial_state()
    assert analyse(small, budget=200, seed=1).learned is None  # no learned value on 5×5
    board = load_game("fanorona").new_initial_state()
    assert analyse(board, budget=200, seed=1).learned is None  # 9×5 has one, not kept


def test_the_learn_command_trains_reproducibly_and_refuses_a_game_without_features(tmp_path):
    from typer.testing import CliRunner

    from abstracta.cli import app

    def learn(out: str, seed: str = "3", *more: str) -> dict:
        result = CliRunner().invoke(app, ["learn", "nibble", "--games", "3", "--bots", "alphabeta:d1,alphabeta:d1",
                                          "--opening", "2", "--seed", seed, "--data", str(tmp_path / f"data{seed}"),
                                          "--out", str(tmp_path / out), "--hidden", "3", "--epochs", "15", "--json",
                                          *more])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout.strip().splitlines()[-1])

    report = learn("a.npz")
    assert report["games"] == 3 and report["rows"] > 50 and report["hidden"] == 3 and report["self_play_seconds"] >= 0
    first, meta = load_weights(tmp_path / "a.npz", FEATURES)
    assert meta["command"].startswith("abstracta learn nibble") and first["w1"].shape == (3, len(FEATURES))
    again = learn("b.npz")  # the same seed: the dataset is read again, the same weights
    assert again["self_play_seconds"] == report["self_play_seconds"]
    second, _ = load_weights(tmp_path / "b.npz", FEATURES)
    assert all(np.array_equal(first[k], second[k]) for k in first)
    other, _ = load_weights(tmp_path / "c.npz", FEATURES) if learn("c.npz", seed="4") else (None, None)
    assert not np.array_equal(other["w1"], first["w1"])
    # another training seed on the same self-play: the dataset is read again, other weights
    refit = learn("e.npz", "3", "--fit-seed", "5")
    assert refit["self_play_seconds"] == report["self_play_seconds"] and refit["rows"] == report["rows"]
    assert (refit["seed"], refit["fit_seed"], report["fit_seed"]) == (3, 5, 3) and "--fit-seed 5" in refit["command"]
    assert not np.array_equal(load_weights(tmp_path / "e.npz", FEATURES)[0]["w1"], first["w1"])
    result = CliRunner().invoke(app, ["learn", "fanorona", "--option", "size=dimy", "--games", "2",
                                      "--data", str(tmp_path / "d")])
    assert result.exit_code != 0 and "no learned value" in result.output
