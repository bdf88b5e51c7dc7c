"""Research at full speed (issue 45): tensors kept by differences, Slide Checkers' compact actions,
opponents that are policies, self-play, fixed-budget levels, OpenSpiel's launcher and resampling."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

import abstracta
from abstracta.core.tensors import ListBuffer, TensorBuffer
from abstracta.interop import InteropGame

from .helpers import VARIANTS


@pytest.mark.parametrize("name, options", VARIANTS)
def test_a_tensor_kept_by_differences_equals_one_written_whole(name, options):
    game = InteropGame(name, **options)
    buffers = [TensorBuffer(game.observation_layout) for _ in range(game.num_players)]
    infos = [TensorBuffer(game.information_state_layout) for _ in range(game.num_players)]
    lists = [ListBuffer(game.observation_layout) for _ in range(game.num_players)]
    rng = random.Random(4)
    for episode in range(2):  # the second game's start is written over the first one's end
        state = game.new_initial_state()
        for _ in range(60):
            if state.is_terminal():
                break
            for p in range(game.num_players):
                whole = state.observation_tensor(p)
                assert whole.dtype == np.float32 and whole.shape == (game.observation_size,)
                assert np.array_equal(buffers[p].update(state.observation_features(p)), whole)
                kept = lists[p].update(state.observation_features(p))
                assert type(kept) is list and kept == whole.tolist()  # the float32 values, as floats
                assert np.array_equal(infos[p].update(state.information_state_features(p)),
                                      state.information_state_tensor(p))
            state.apply_action(rng.choice(state.legal_actions()))


def test_the_engine_writes_its_tensor_into_the_array_given():
    state = abstracta.load_game("fanorona", size="telo").new_initial_state()
    out = np.full(38, 7.0, np.float32)  # every entry is written: no need to zero it first
    assert state.observation_tensor(0, out=out) is out
    assert out.sum() == 4 + 4 + 1  # own and opponent stones, to move
    assert np.array_equal(out, state.observation_tensor(0))


# --- Slide Checkers' compact action space ------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_compact_actions_name_every_engine_action_once_and_replay_it(players):
    compact = InteropGame("slide-checkers", players=players, max_turns=150)
    engine = InteropGame("slide-checkers", players=players, max_turns=150, actions="engine")
    assert compact.num_distinct_actions == 2737 < 5000 < engine.num_distinct_actions
    state, twin = compact.new_initial_state(), engine.new_initial_state()
    rng = random.Random(players)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == sorted(set(legal)) and all(0 <= a < 2737 for a in legal)
        part = rng.choice(legal)
        before = state.inner.to_text()
        completes = isinstance(state.choices()[part], int)
        name = state.action_to_string(part)
        state.apply_action(part)
        if completes:  # the engine action it completes, played by its own id in the twin
            twin.apply_action(twin.inner.string_to_action(name))
            assert state.inner.to_text() == twin.inner.to_text()
        else:  # a picked piece: nothing moves yet, and the observation shows it
            assert state.inner.to_text() == before and state.pending_parts == (part,)
            picked = state.observation_tensor(state.current_player())[-144:]
            assert picked.sum() == 1 and name == abstracta.load_game("slide-checkers").action_codec().part_string(part)
    assert twin.is_terminal() and state.returns() == twin.returns()
    assert state.move_number == twin.move_number


def test_a_pettingzoo_slide_checkers_game_in_compact_parts():
    pytest.importorskip("pettingzoo")
    from abstracta.interop.pettingzoo import env

    e = env("slide-checkers", max_turns=60)
    e.reset(seed=2)
    rng = random.Random(0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.shape == (2737,) and info["action_mask"] is mask and not mask.flags.writeable
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert e.state.move_number == 60


# --- Gymnasium: opponents that are policies, self-play, fixed budgets ---------------------------

def _episode(env, seed: int, pick_seed: int = 0) -> list[int]:
    rng = random.Random(pick_seed)
    obs, info = env.reset(seed=seed)
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        done = terminated or truncated
    return env.unwrapped.state.history()


def test_a_callable_or_a_policy_object_plays_the_other_seat():
    pytest.importorskip("gymnasium")
    from abstracta.interop.gym import make

    seen = []

    def first_legal(observation, mask):
        seen.append((observation.shape, mask.dtype))
        return int(np.flatnonzero(mask)[0])

    env = make("fanorona", opponent=first_legal, size="telo")
    history = _episode(env, 3)
    assert seen and seen[0] == ((38,), np.int8)
    state = abstracta.load_game("fanorona", size="telo").new_initial_state()
    for i, action in enumerate(history):  # the opponent (seat 1) always played its first legal action
        if state.current_player() == 1:
            assert action == sorted(state.legal_actions())[0], i
        state.apply_action(action)

    class MaskablePolicy:  # Stable-Baselines3's MaskablePPO.predict signature
        def predict(self, observation, action_masks=None):
            return np.flatnonzero(action_masks)[-1], None

    env = make("nibble", opponent=MaskablePolicy(), layout_seeds=3)
    assert env.reproducible
    _episode(env, 1)

    def illegal(observation, mask):
        return int(np.flatnonzero(mask == 0)[0])

    env = make("fanorona", opponent=illegal, size="telo", seat=1)
    with pytest.raises(ValueError, match="opponent of seat 0"):
        env.reset(seed=0)
    with pytest.raises(ValueError, match="expected a seat spec"):
        make("fanorona", opponent=42)


def test_self_play_is_reproducible_by_seed_and_passes_check_env():
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from abstracta.interop.gym import self_play

    env = self_play("fanorona", size="dimy")
    check_env(env)
    a, b = self_play("fanorona", size="dimy"), self_play("fanorona", size="dimy")
    assert _episode(a, 5) == _episode(b, 5)
    assert _episode(a, 6) != _episode(a, 7)
    assert {self_play("nibble", layout_seeds=4).reset(seed=s)[1]["action_mask"].shape for s in range(3)} == {(82,)}
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        seats.add(env.seat)
    assert seats == {0, 1}  # the agent is dealt every seat

    def me(observation, mask):  # "the agent's own policy": here the first legal action
        return int(np.flatnonzero(mask)[0])

    env = self_play("fanorona", size="telo", seats=1)
    env.set_policy(me)
    obs, info = env.reset(seed=0)
    assert env.seat == 1 and env.state.history()[0] == sorted(
        abstracta.load_game("fanorona", size="telo").new_initial_state().legal_actions())[0]


def test_fixed_budget_levels_replay_from_the_seed_and_time_budgets_say_they_do_not():
    pytest.importorskip("gymnasium")
    from abstracta.interop.gym import make

    runs = [_episode(make("fanorona", opponent="level:3", size="telo"), 9) for _ in range(2)]
    assert runs[0] == runs[1]
    env = make("fanorona", opponent="level:3", size="telo")
    assert env.reproducible and env._bots == {} and env.budgets == "fixed"
    env.reset(seed=0)
    assert env._bots[1].name == "level:3:fixed" and env._bots[1].budget.iterations == 200
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        timed = make("fanorona", opponent="level:3", size="telo", budgets="time")
    assert not timed.reproducible and any("does not replay from its seed" in str(w.message) for w in caught)
    assert not make("fanorona", opponent="mcts:0.1", size="telo").reproducible
    assert make("fanorona", opponent="mcts:i50", size="telo").reproducible
    with pytest.raises(ValueError, match="budgets"):
        make("fanorona", budgets="soon")


# --- OpenSpiel: resampling keeps the history; the launcher -------------------------------------

def test_resample_from_infostate_keeps_history_and_move_number():
    pytest.importorskip("pyspiel")
    from abstracta.interop.openspiel import load

    game = load("fibonacci-cards")
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.move_number() < 20:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    player = state.current_player()
    sample = state.resample_from_infostate(player, None)
    assert sample.history() == state.history() and sample.move_number() == state.move_number()
    assert sample.information_state_string(player) == state.information_state_string(player)
    assert sample.legal_actions() == state.legal_actions()


def test_the_launcher_runs_openspiels_example_scripts(capsys):
    pytest.importorskip("pyspiel")
    from abstracta.interop.openspiel import launch

    assert launch(["list"]) == 0
    assert "python_abstracta_fanorona\tfanorona" in capsys.readouterr().out
    status = launch(["run", "open_spiel.python.examples.mcts", "--game=python_abstracta_fanorona(size=telo)",
                     "--player1=random", "--player2=random", "--num_games=1", "--quiet"])
    assert status == 0
    assert "Number of games played: 1" in capsys.readouterr().out


@pytest.mark.parametrize("name, options", VARIANTS)
def test_openspiels_python_fast_path_answers_as_its_cpp_path(name, options):
    pyspiel = pytest.importorskip("pyspiel")
    from abstracta.interop.openspiel import load

    game = load(name, **options)
    state = game.new_initial_state()
    rng = random.Random(8)
    for _ in range(30):
        if state.is_terminal():
            break
        base = pyspiel.State  # OpenSpiel's own methods, through C++ and the observers
        assert state.legal_actions() == base.legal_actions(state)
        assert state.is_chance_node() == base.is_chance_node(state)
        if not state.is_chance_node():
            p = state.current_player()
            assert state.legal_actions(p) == base.legal_actions(state, p)
            for seat in range(game.num_players()):
                # lists of the same floats (the float32 tensor's values), as OpenSpiel gives them
                assert state.observation_tensor(seat) == base.observation_tensor(state, seat)
                assert state.information_state_tensor(seat) == base.information_state_tensor(state, seat)
                assert state.observation_string(seat) == base.observation_string(state, seat)
                assert state.information_state_string(seat) == base.information_state_string(state, seat)
        state.apply_action(rng.choice(state.legal_actions()))


def test_slide_checkers_tree_of_runs_equals_the_tree_of_every_actions_parts():
    from abstracta.core.actions import ActionCodec

    for players in (2, 4):
        game = abstracta.load_game("slide-checkers", players=players)
        codec = game.action_codec()
        rng = random.Random(players)
        state = game.new_initial_state()
        for _ in range(300):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            fast = codec.tree(state, legal)
            full = {part: sub if isinstance(sub, int) else codec.expand(state, sub) for part, sub in fast.items()}
            assert full == ActionCodec.tree(codec, state, legal)  # the generic tree, from encode
            state.apply_action(rng.choice(legal))


@pytest.mark.parametrize("name, config", [("nibble", {"variant": "hex", "layout_seeds": 5}),
                                          ("slide-checkers", {"players": 3, "max_turns": 60}),
                                          ("fibonacci-cards", {})])
def test_shimmy_keeps_the_parameters_given_by_game_name_and_config(name, config):
    # docs/research.md: Shimmy's OpenSpiel wrapper takes game_name= and config=; given a loaded
    # game (env=) it rebuilds it on reset() from its short name and drops the parameters
    pytest.importorskip("pyspiel")
    shimmy = pytest.importorskip("shimmy")
    from pettingzoo.test import api_test

    from abstracta.interop.openspiel import short_name

    env = shimmy.OpenSpielCompatibilityV0(game_name=short_name(name), config=config)
    env.reset(seed=1)
    params = env._env.get_parameters()  # the game Shimmy rebuilt on reset()
    assert all(params[k] == v for k, v in config.items()), params
    api_test(env, num_cycles=20)


def test_slide_checkers_with_the_engines_ids_still_passes_the_conformance_tests():
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from abstracta.interop.openspiel import load
    from abstracta.interop.pettingzoo import env

    game = load("slide-checkers", actions="engine", max_turns=80)
    assert game.num_distinct_actions() == 352945
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    api_test(env("slide-checkers", actions="engine", max_turns=80), num_cycles=60)
