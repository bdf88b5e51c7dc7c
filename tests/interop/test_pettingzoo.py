"""PettingZoo AEC environments of every game and variant (issue 19, extra ``[pettingzoo]``)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from abstracta import IllegalActionError  # noqa: E402
from abstracta.interop.pettingzoo import env  # noqa: E402

from .helpers import VARIANTS  # noqa: E402

pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be", "ignore:Observation is not a NumPy array")


@pytest.mark.parametrize("name, options", VARIANTS)
def test_api_test(name, options):
    api_test(env(name, **options), num_cycles=200)


@pytest.mark.parametrize("name, options", VARIANTS)
def test_seed_and_render_tests(name, options, capsys):
    from pettingzoo.test import render_test, seed_test

    def make_env(render_mode=None, **kwargs):
        return env(name, render_mode=render_mode, **options, **kwargs)

    seed_test(make_env, num_cycles=30)
    render_test(make_env)


def _random_games(e, games, seed):
    """Masked random agents; returns the final returns of each game and the longest game."""
    rng = random.Random(seed)
    results, longest = [], 0
    for g in range(games):
        e.reset(seed=seed + g)
        moves = 0
        totals = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            totals[agent] += reward
            assert np.array_equal(info["action_mask"], obs["action_mask"])
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) == len(e.state.legal_actions())
            e.step(int(legal[rng.randrange(len(legal))]))  # never raises: see the benchmark too
            moves += 1
        results.append([totals[a] for a in e.possible_agents])
        longest = max(longest, moves)
    return results, longest


@pytest.mark.parametrize("name, options", VARIANTS)
def test_masked_random_agents_play_legal_moves_to_the_end(name, options):
    e = env(name, **options)
    results, longest = _random_games(e, 2 if name == "fibonacci" else 6, seed=11)
    assert 0 < longest <= e.interop.max_game_length
    for r in results:
        assert all(x in (-1.0, 0.0, 1.0) for x in r)
        if len(r) == 2:
            assert sum(r) == 0


def test_rewards_terminations_truncations_and_render():
    e = env("slide-checkers", render_mode="ansi", players=4, max_turns=12)
    e.reset(seed=3)
    assert e.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    # the game's 1,306 floats and the compact actions' "picked" plane (12 x 12)
    assert e.observation_space("player_2")["observation"].shape == (1306 + 144,)
    assert env("slide-checkers", players=4, actions="engine").observation_space("player_2")["observation"].shape == (1306,)
    assert isinstance(e.render(), str) and len(e.render()) > 100
    rng = random.Random(0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            assert trunc and not term and reward == 0.0
            e.step(None)
            continue
        mask = obs["action_mask"]
        others = [e.observe(a)["action_mask"].sum() for a in e.possible_agents if a != agent]
        assert others == [0, 0, 0]
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert e.state.is_truncated() and e.state.move_number == 12


def test_illegal_action_raises_and_changes_nothing():
    e = env("fanorona", size="telo")
    e.reset(seed=0)
    before = e.state.history()
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    assert e.state.history() == before


def test_terminate_illegal_wrapper_ends_the_game_as_a_loss_for_the_offender():
    # README: PettingZoo's own wrapper turns the raise into a lost game, reading the action mask
    from pettingzoo.utils.wrappers import TerminateIllegalWrapper

    e = TerminateIllegalWrapper(env("fibonacci-cards"), illegal_reward=-1)
    e.reset(seed=3)
    dealt = e.unwrapped.state.history()
    offender = e.agent_selection
    other = next(a for a in e.possible_agents if a != offender)
    illegal = int(np.flatnonzero(e.observe(offender)["action_mask"] == 0)[0])
    e.step(illegal)
    assert e.rewards == {offender: -1, other: 0}
    assert all(e.terminations.values()) and e.unwrapped.state.history() == dealt  # nothing played


def test_reset_seed_reproduces_chance():
    e = env("fibonacci-cards")
    e.reset(seed=42)
    first = e.state.history()
    e.reset(seed=43)
    e.reset(seed=42)
    assert e.state.history() == first and len(first) == 1  # the layout seed


def test_a_reset_seed_that_is_no_seed_is_refused_and_changes_nothing():
    e = env("nibble")
    e.reset(seed=5)
    five = e.state.history()
    # random.Random would have played seed -5 as seed 5, and taken a float or a string
    for bad in (-5, -1, 5.0, "5", True, np.float64(5)):
        with pytest.raises(ValueError, match=r"reset seed .*: expected None or an integer >= 0"):
            e.reset(seed=bad)
        assert e.state.history() == five
    e.reset(seed=np.int64(5))
    assert e.state.history() == five


def test_actions_of_the_wrong_type_raise_and_change_nothing():
    e = env("fanorona", size="telo")
    e.reset(seed=0)
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    for bad in (float(legal), legal + 0.5, str(legal), np.float32(legal), "x", True):
        with pytest.raises(IllegalActionError):
            e.step(bad)
        assert e.state.history() == [] and e.agent_selection == "player_0"
    e.step(np.int64(legal))
    assert e.state.history() == [legal]


def test_a_seed_of_zero_with_explicit_chance_is_refused_like_any_seed():
    from abstracta import OptionError
    from abstracta.interop.gym import make

    for seed in (0, 5):
        with pytest.raises(OptionError, match=rf"seed {seed}: .*chance='seeded'"):
            env("nibble", seed=seed)
        with pytest.raises(OptionError, match=rf"seed {seed}: .*chance='seeded'"):
            make("fibonacci-cards", seed=seed)
    e = env("nibble", variant="square9", chance="seeded", seed=0)
    e.reset(seed=1)
    assert e.state.to_text() == abstracta_start("nibble", variant="square9")


def abstracta_start(name, **options):
    import abstracta

    return abstracta.load_game(name, **options).new_initial_state(0).to_text()


@pytest.mark.parametrize("name, options", [("fanorona", {}), ("nibble", {}), ("slide-checkers", {})])
def test_an_environment_pickles_and_deep_copies_mid_game_and_plays_on_identically(name, options):
    import copy
    import pickle

    def play(e, seed, steps):
        rng = random.Random(seed)
        seen = []
        for _ in range(steps):
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                break
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            seen.append((e.agent_selection, action, obs["observation"].tolist()))
            e.step(action)
        return seen

    e = env(name, **options)
    e.reset(seed=5)
    play(e, 1, 9)
    copies = [pickle.loads(pickle.dumps(e)), copy.deepcopy(e)]
    expected = play(e, 2, 12)
    assert len(expected) == 12
    for again in copies:
        assert play(again, 2, 12) == expected
