"""Installing the example plug-in (examples/tictactoe) the way a user does, into a private
directory, so that the rest of the test session does not see it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "tictactoe"


def pip_install_target(target: Path, source: Path = EXAMPLE) -> Path:
    """``pip install --target TARGET --no-deps SOURCE``: a real install, entry points included."""
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "--no-deps", "--target", str(target), str(source)], check=True, timeout=300)
    return target


def env_with(path: Path) -> dict[str, str]:
    """The environment of a subprocess that sees the packages installed at ``path``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(path)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


def abstracta(path: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run ``abstracta ARGS`` (as ``python -m abstracta``) seeing the plug-ins at ``path``."""
    return subprocess.run([sys.executable, "-m", "abstracta", *args], env=env_with(path), capture_output=True,
                          text=True, timeout=600, check=check)
