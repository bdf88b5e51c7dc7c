"""Services the tests start for themselves: a throwaway Redis (``redis-server`` from Debian's
package), and a club deployment (``deploy/club.py``) in a folder of its own. Skipped where the
program is missing, failed in CI (``.ci/run`` installs it), as the browser tests treat Chromium."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parents[1]


def need(program: str, package: str) -> str:
    """The path of ``program``; skips the test without it (fails in CI)."""
    found = shutil.which(program) or (f"/usr/sbin/{program}" if Path(f"/usr/sbin/{program}").exists() else None)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{program} is not installed although CI is set; .ci/run should install {package}")
        pytest.skip(f"{program} is not installed (apt-get install {package})")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A Redis of its own on a free loopback port, nothing kept on disk: its URL."""
    program = need("redis-server", "redis-server")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="abstracta-redis-") as folder:
        proc = subprocess.Popen([program, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                 "--appendonly", "no", "--dir", folder], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        try:
            deadline = time.time() + 20
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
                        s.sendall(b"PING\r\n")
                        if s.recv(20).startswith(b"+PONG"):
                            break
                except OSError:
                    pass
                if proc.poll() is not None or time.time() > deadline:
                    raise AssertionError("redis-server did not start")
                time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def club_module() -> ModuleType:
    """``deploy/club.py`` as a module."""
    if "abstracta_club" in sys.modules:
        return sys.modules["abstracta_club"]
    spec = importlib.util.spec_from_file_location("abstracta_club", ROOT / "deploy" / "club.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module
