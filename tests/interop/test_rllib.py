"""RLlib: one PPO iteration of examples/rllib_nibble.py (issue 45; extra ``[rllib]`` and torch).

Skipped where RLlib or torch is not installed. About a minute and a half on a two-core machine,
most of it Ray starting its workers."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("ray.rllib")
pytest.importorskip("pettingzoo")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rllib_nibble.py"


def _example():
    spec = importlib.util.spec_from_file_location("rllib_nibble", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["rllib_nibble"] = module  # Ray pickles the env creator by its module
    spec.loader.exec_module(module)
    return module


def test_the_masked_multi_agent_environment_steps_legal_actions_only():
    from abstracta.interop.rllib import make_env

    env = make_env({"game": "nibble"})
    obs, info = env.reset(seed=1)
    (agent, first), = obs.items()
    assert set(first) == {"observations", "action_mask"} and first["observations"].shape == (838,)
    assert env.observation_space[agent]["action_mask"].contains(first["action_mask"])
    steps = 0
    done = False
    while not done:
        (agent, seen), = obs.items()
        action = int(seen["action_mask"].nonzero()[0][0])
        obs, rewards, terminated, truncated, info = env.step({agent: action})
        done = terminated["__all__"] or truncated["__all__"]
        steps += 1
    assert sorted(rewards.values()) == [-1.0, 1.0] and steps > 20


@pytest.mark.slow
def test_one_ppo_iteration_on_nibble(tmp_path):
    example = _example()
    out = tmp_path / "curve.json"
    assert example.main(["--iterations", "1", "--steps", "400", "--eval-games", "2", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert [p["iteration"] for p in data["curve"]] == [0, 1]
    assert data["curve"][1]["env_steps"] >= 400
    assert all(0.0 <= p["win_rate"] <= 1.0 for p in data["curve"])
