"""Gymnasium single-agent environments of every game and variant (issue 19, extra ``[gym]``)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import gymnasium  # noqa: E402

import abstracta  # noqa: E402
from abstracta.interop.gym import AbstractaGymEnv, env_id, make  # noqa: E402

from .helpers import VARIANTS  # noqa: E402


def test_every_game_is_registered_under_its_own_name():
    from abstracta.interop.gym import register_all

    register_all()  # a game another test registered at run time (abstracta.register_game) too
    for name in abstracta.registered_games():
        spec = gymnasium.spec(f"abstracta/{name}-v0")
        assert spec.id == env_id(name) and spec.namespace == "abstracta" and spec.version == 0
        assert spec.name == name and spec.kwargs == {"game_name": name}
    assert sorted(s.name for s in gymnasium.registry.values() if s.namespace == "abstracta") \
        == abstracta.registered_games()


@pytest.mark.parametrize("name, options", VARIANTS)
def test_check_env(name, options):
    # as a user makes it: by id, options and opponent as make's keyword arguments
    env = gymnasium.make(env_id(name), opponent="level:2", render_mode="ansi", **options)
    assert isinstance(env.unwrapped, AbstractaGymEnv) and env.unwrapped.interop.game.options == \
        abstracta.load_game(name, **options).options
    check_env(env.unwrapped)


def test_make_by_id_plays_as_make_does():
    env = gymnasium.make("abstracta/fanorona-v0", size="telo", opponent="level:1")
    same = make("fanorona", size="telo", opponent="level:1")
    obs, info = env.reset(seed=4)
    assert np.array_equal(obs, same.reset(seed=4)[0]) and obs.shape == (38,)
    for _ in range(3):
        action = int(np.flatnonzero(info["action_mask"])[0])
        step, other = env.step(action), same.step(action)
        info = step[4]
        assert np.array_equal(step[0], other[0]) and step[1:4] == other[1:4]
    assert env.unwrapped.state.history() == same.state.history()


def test_the_module_prefix_of_an_id_imports_the_module():
    import subprocess
    import sys

    code = ("import gymnasium; e = gymnasium.make('abstracta.interop.gym:abstracta/nibble-v0', "
            "variant='square9', opponent='random'); print(e.spec.id, e.reset(seed=0)[0].shape)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["abstracta/nibble-v0", "(838,)"]


def test_illegal_action_ends_the_episode_as_a_loss():
    env = make("nibble", opponent="level:1", variant="square9")
    obs, info = env.reset(seed=0)
    assert np.array_equal(info["action_mask"], env.action_masks())
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    before = env.state.history()
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.state.history() == before


@pytest.mark.parametrize("seat", [0, 1])
def test_a_masked_episode_ends_with_the_agents_return(seat):
    env = make("fanorona", opponent="level:2", seat=seat, size="dimy", render_mode="ansi")
    obs, info = env.reset(seed=seat)
    rng = np.random.default_rng(seat)
    assert env.state.current_player() == seat
    steps, done = 0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        steps += 1
        assert obs.shape == (102,) and obs.dtype == np.float32
    assert reward == env.state.returns()[seat] and reward in (-1.0, 0.0, 1.0)
    assert info["action_mask"].sum() == 0
    assert "W" in env.render() or "B" in env.render()


def test_three_player_game_against_two_bots():
    env = make("slide-checkers", opponent="level:1", seat=2, players=3, max_turns=30)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        done = terminated or truncated
    assert env.state.is_terminal()
    assert truncated == env.state.is_truncated()


def test_bad_arguments():
    with pytest.raises(ValueError, match="seat"):
        make("fanorona", seat=2)
    with pytest.raises(ValueError, match="human"):  # no bot: the first reply would crash
        make("fanorona", opponent="human", size="telo")
    with pytest.raises(ValueError):
        make("fanorona", opponent="alphabeta:1", size="telo", players=3)


def test_a_numpy_seat_is_a_seat():
    # it was refused as "seat np.int64(1) is not a seat of fanorona (0..1)"
    env = make("fanorona", opponent="random", size="telo", seat=np.int64(1))
    assert env.seat == 1 and type(env.seat) is int
    env.reset(seed=0)
    assert env.state.current_player() == 1 and env.action_masks().any()
    for bad in (1.0, np.float64(1), True, "1"):
        with pytest.raises(ValueError, match="is not a seat of fanorona"):
            make("fanorona", seat=bad)


def test_actions_that_are_not_integers_are_illegal():
    env = make("fanorona", opponent="random", size="telo")
    for bad in (22.0, 22.5, "22", np.float32(22), None):
        env.reset(seed=0)
        assert env.action_masks()[22] == 1  # a1-b2A is legal
        obs, reward, terminated, truncated, info = env.step(bad)
        assert (reward, terminated, info.get("illegal_action")) == (-1.0, True, True)
        assert env.state.history() == []
    env.reset(seed=0)
    assert env.step(np.int64(22))[1:3] == (0.0, False) and env.state.history()[0] == 22


def test_no_step_after_an_illegal_action_ended_the_episode():
    env = make("fanorona", opponent="random", size="telo")
    env.reset(seed=0)
    assert env.step(-1)[2] is True
    with pytest.raises(RuntimeError, match="reset"):
        env.step(22)  # legal in the position, but the episode is over
    assert env.state.history() == []
    env.reset(seed=0)
    assert env.step(22)[1:3] == (0.0, False)


@pytest.mark.parametrize("name, options", [("fibonacci-cards", {}), ("fibonacci", {"variant": "cards"})])
def test_render_shows_the_agent_only_what_its_seat_sees(name, options):
    import random

    for seat in (0, 1):
        env = make(name, opponent="random", seat=seat, render_mode="ansi", **options)
        env.reset(seed=3)
        real, real_text = env.render(), env.state.to_text()
        # the same game for this seat, the opponent's hand and the stock (or piles) dealt otherwise
        env.state = env.state.resample_from_infostate(seat, random.Random(1))
        assert env.state.to_text() != real_text
        assert env.render() == real


def test_a_max_turns_that_ends_the_game_before_the_agent_moves_is_refused_at_reset() -> None:
    # seat 1 moves after White's first turn: one action of the game is all max_turns=1 allows
    env = make("fanorona", size="telo", seat=1, opponent="random", max_turns=1)
    with pytest.raises(ValueError, match="max_turns=1 ends the game before seat 1 moves"):
        env.reset(seed=0)
    env = make("fanorona", size="telo", seat=1, opponent="random", max_turns=2)
    obs, info = env.reset(seed=0)
    assert info["action_mask"].any() and not env.state.is_terminal()


def _deterministic_opponents(name: str, options: dict) -> list[str]:
    """Seat specs that play the same moves for the same seed: levels 1-2 and a search with a
    depth or iteration budget reading the game's evaluator (tuned weights where a level plays them)."""
    game = abstracta.load_game(name, **options)
    specs = ["level:1", "level:2", "mcts:i8"]
    if game.num_players == 2:
        specs.append("alphabeta:d1")  # the levels' evaluator where alpha-beta is their search
    if game.description.tuning is not None:
        weights = "/".join(repr(w) for w in game.description.tuning.weights)
        specs.append(("alphabeta:d1" if game.num_players == 2 else "mcts:i8") + "+w=" + weights)
    return specs


def _play(env, actions_from, steps):
    """``steps`` agent actions (the first legal one after ``actions_from`` ones), or to the end."""
    out = []
    info = env.unwrapped._info()
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(legal[actions_from % len(legal)]))
        out.append((obs.tolist(), reward, terminated, truncated))
        if terminated or truncated:
            break
    return out, env.unwrapped.state.history()


@pytest.mark.parametrize("name, options", VARIANTS)
def test_an_environment_pickles_and_deep_copies_and_plays_on_identically(name, options):
    import copy
    import pickle

    for opponent in _deterministic_opponents(name, options):
        env = gymnasium.make(env_id(name), opponent=opponent, **options)
        env.reset(seed=7)
        _play(env, 3, 2)
        copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
        expected = _play(env, 5, 6)
        for again in copies:
            assert _play(again, 5, 6) == expected, opponent
        # and a new episode from the same seed in each
        env.reset(seed=11)
        expected = _play(env, 1, 4)
        for again in copies:
            again.reset(seed=11)
            assert _play(again, 1, 4) == expected, opponent


@pytest.mark.parametrize("name, options", VARIANTS)
def test_an_environment_against_any_level_pickles(name, options):
    import copy
    import pickle

    for level in range(1, 7):
        env = make(name, opponent=f"level:{level}", **options)
        env.reset(seed=1)
        for again in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
            assert again.state.history() == env.state.history()
            assert [type(b) for b in again._bots.values()] == [type(b) for b in env._bots.values()]
            assert np.array_equal(again.action_masks(), env.action_masks())


def test_async_vector_environments_by_id():
    # AsyncVectorEnv builds each environment in a worker process from the registered id
    envs = gymnasium.make_vec("abstracta/nibble-v0", num_envs=2, vectorization_mode="async",
                              variant="square9", opponent="level:1")
    try:
        obs, info = envs.reset(seed=0)
        assert obs.shape == (2, 838) and info["action_mask"].shape == (2, 82)
        actions = np.array([int(np.flatnonzero(m)[0]) for m in info["action_mask"]])
        obs, reward, terminated, truncated, info = envs.step(actions)
        assert obs.shape == (2, 838) and not terminated.any() and not truncated.any()
    finally:
        envs.close()


def test_reset_options_are_refused_not_ignored():
    env = make("fanorona", size="telo", opponent="random")
    env.reset(seed=0)
    env.step(22)
    with pytest.raises(ValueError, match=r"reset options \['seat'\]: this environment takes none"):
        env.reset(seed=0, options={"seat": 1})
    assert env.state.history()[0] == 22 and env.seat == 0  # unchanged
    assert env.reset(seed=0, options={})[0].shape == (38,)


def test_a_game_whose_name_is_no_gymnasium_id_is_left_unregistered_not_fatal():
    # a plug-in may call itself anything; "toy nim" is no Gymnasium id (a space), and its
    # registration raised on import, so no game had an environment, by id or by make()
    import subprocess
    import sys
    from pathlib import Path

    tests = Path(__file__).resolve().parents[1]
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from toy_nim import NimGame\n"
            "from abstracta.core.registry import register_game\n"
            "class Spaced(NimGame):\n    name = 'toy nim'\n"
            "register_game('toy nim', Spaced)\n"
            "import gymnasium\n"
            "from abstracta.interop.gym import REGISTERED, make\n"
            "print('toy nim' in REGISTERED, REGISTERED['fanorona'])\n"
            "print(make('toy nim', opponent='random').reset(seed=0)[0].shape)\n"
            "print(gymnasium.make('abstracta/fanorona-v0', size='telo').reset(seed=0)[0].shape)\n") % str(tests)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines() == ["False abstracta/fanorona-v0", "(4,)", "(38,)"]


def test_the_gym_extra_alone_is_enough_without_pettingzoo():
    # [gym] installs gymnasium only; the module took its text picture from the PettingZoo module,
    # which imports pettingzoo: without it `import abstracta.interop.gym` failed, ids and all
    import subprocess
    import sys

    code = ("import sys; sys.modules['pettingzoo'] = None  # not installed\n"
            "import gymnasium, abstracta.interop.gym\n"
            "e = gymnasium.make('abstracta/fanorona-v0', size='telo', opponent='random', render_mode='ansi')\n"
            "e.reset(seed=0); print(e.render().splitlines()[0])\n"
            "print('abstracta.interop.pettingzoo' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines()[-1] == "False" and out.stdout.strip()


def test_reset_takes_a_numpy_seed_as_the_int_it_is():
    # a sweep over np.arange hands NumPy seeds: PettingZoo's reset took them, this one raised
    # Gymnasium's "Seed must be a python integer, actual type: <class 'numpy.int64'>"
    env = make("nibble", opponent="level:1", variant="square9")
    same = make("nibble", opponent="level:1", variant="square9")
    obs, info = env.reset(seed=np.int64(3))
    assert np.array_equal(obs, same.reset(seed=3)[0]) and np.array_equal(info["action_mask"], same.action_masks())
    assert env.state.to_text() == same.state.to_text()
    assert env.reset(seed=np.array(3))[0].tobytes() == obs.tobytes()  # a 0-d array too
    for bad in (True, np.bool_(True), 3.0, np.float64(3), "3", -1, np.int64(-1)):
        with pytest.raises(ValueError, match="reset seed"):
            env.reset(seed=bad)
    assert env.state.to_text() == same.state.to_text()  # a refused seed changed nothing


def _episode(env, seed: int, picks: random.Random) -> list:
    """One episode's observations, rewards and the final position (the agent's actions drawn
    from ``picks``)."""
    obs, info = env.reset(seed=seed)
    seen = [obs.tobytes()]
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(legal[picks.randrange(len(legal))]))
        seen += [obs.tobytes(), reward]
        done = terminated or truncated
    return [*seen, env.state.to_text()]


@pytest.mark.parametrize("name", ["fanorona", "nibble"])
@pytest.mark.parametrize("opponent", ["random", "level:1"])
def test_an_environment_that_played_before_plays_a_seed_as_a_new_one(name, opponent):
    # reset reseeds the last episode's random bot and starts the agent's tensor from the last
    # episode's first: neither may make a seed's episode differ from a new environment's
    used = make(name, opponent=opponent)
    _episode(used, 5, random.Random(5))
    bot = used._bots[1]
    _episode(used, 6, random.Random(6))
    again = _episode(used, 7, random.Random(0))
    assert used._bots[1] is bot  # the reseeded bot, not a new one (the path under test)
    assert again == _episode(make(name, opponent=opponent), 7, random.Random(0))


@pytest.mark.parametrize("name", ["fanorona", "nibble"])
def test_a_random_opponent_drawn_in_the_step_plays_random_bots_moves(name):
    """The environment draws a random opponent's action itself (no bot call, no copy): the
    same moves as ``RandomBot.step`` seeded as the episode seeds it."""
    from abstracta.ai.random_bot import RandomBot

    env = make(name, opponent="random", size="telo") if name == "fanorona" else make(name, opponent="random")
    picks = random.Random(5)
    for seed in (0, 1):
        obs, info = env.reset(seed=seed)
        bot = RandomBot(seed=env._bots[1].seed)
        assert env._quick  # the path under test: the environment's own draw
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            obs, reward, terminated, truncated, info = env.step(int(legal[picks.randrange(len(legal))]))
            done = terminated or truncated
        replay = env.interop.new_initial_state()
        history = env.state.history()
        if replay.is_chance_node():  # the layout
            replay.apply_action(history[0])
            history = history[1:]
        opponents = 0
        for action in history:
            if replay.current_player() == 1:
                assert action == bot.step(replay.bot_view())
                opponents += 1
            replay.apply_action(action)
        assert opponents > 0 and replay.to_text() == env.state.to_text()
