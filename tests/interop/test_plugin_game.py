"""The adapters on a third-party game (examples/tictactoe, installed by entry point): generic code
only, so a game the adapters never heard of registers, passes the checkers and gets the
spine's default tensor and truncation."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from plugin_util import env_with  # noqa: E402

SCRIPT = """
import warnings
warnings.simplefilter("ignore")
import pyspiel
import abstracta.interop.openspiel
from pettingzoo.test import api_test
from gymnasium.utils.env_checker import check_env
from abstracta.interop.pettingzoo import env
from abstracta.interop.gym import make

game = pyspiel.load_game("python_abstracta_tictactoe")
pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
api_test(env("tictactoe"), num_cycles=50)
check_env(make("tictactoe", opponent="level:1"), skip_render_check=True)
print(game.max_game_length(), game.observation_tensor_shape())
"""


def test_third_party_game_in_all_three(plugin_dir):
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env_with(plugin_dir), capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "1000 [4]"  # default truncation, default planes
