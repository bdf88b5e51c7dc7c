"""Fixtures shared by every test directory."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
# levels 5-6 on Fanorona build missing endgame tables in the background on first need; the
# tests build what they read themselves (tests/games/test_fanorona_firstneed.py turns it on)
os.environ["ABSTRACTA_EGTB_AUTOBUILD"] = "0"

import durations  # noqa: E402
from plugin_util import pip_install_target  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    durations.configure(config)


def pytest_collection_modifyitems(session, config, items) -> None:
    durations.modify(items)


@pytest.fixture(scope="session")
def plugin_dir(tmp_path_factory) -> Path:
    """A directory where ``examples/tictactoe`` is pip-installed (not on this process's path)."""
    return pip_install_target(tmp_path_factory.mktemp("plugins"))
