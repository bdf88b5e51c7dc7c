"""The wheel carries the web app (issue 39): built with ``python -m build`` and installed alone into a
fresh virtual environment, ``abstracta serve`` serves a playable page — its HTML, the shell's
``app.js``, a game's board module, a rules page with its diagrams and a lesson — from the installed
package, not from this source tree."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*command: str | Path, cwd: Path, timeout: float = 600) -> str:
    done = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{command}: {done.stdout[-2000:]}{done.stderr[-2000:]}"
    return done.stdout


def fetch(url: str) -> tuple[int, str, str]:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.status, answer.headers.get("content-type", ""), answer.read().decode("utf-8")


@pytest.mark.slow
def test_the_wheel_installed_alone_serves_a_playable_page(tmp_path):
    dist = tmp_path / "dist"
    run(sys.executable, "-m", "build", "--wheel", "--outdir", dist, ROOT, cwd=tmp_path)
    [wheel] = dist.glob("abstracta-*.whl")
    env_dir = tmp_path / "fresh"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel, cwd=tmp_path)
    # the package the fresh environment imports is the installed one
    where = run(python, "-c", "import abstracta; print(abstracta.__file__)", cwd=tmp_path).strip()
    assert where.startswith(str(env_dir)), where
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    server = subprocess.Popen([str(env_dir / "bin" / "abstracta"), "serve", "--port", "0",
                               "--db", f"sqlite:///{tmp_path / 'games.db'}", "--bot-workers", "0"],
                              cwd=tmp_path, env=clean, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = server.stdout.readline()  # "abstracta: open http://127.0.0.1:PORT/ …"
        found = re.search(r"http://[\w.]+:(\d+)/", first)
        assert found, first
        base = f"http://127.0.0.1:{found.group(1)}"
        deadline = time.time() + 60
        while True:
            try:
                status, kind, page = fetch(base + "/")
                break
            except OSError:
                assert time.time() < deadline and server.poll() is None, "the installed server did not answer"
                time.sleep(0.3)
        assert status == 200 and "text/html" in kind and '<script type="module" src="/app.js">' in page
        status, kind, app = fetch(base + "/app.js")
        assert status == 200 and "javascript" in kind and "lessonPage" in app
        status, kind, board = fetch(base + "/games/fanorona/board.js")
        assert status == 200 and "javascript" in kind and "export function render" in board
        status, _, lesson = fetch(base + "/lesson.js")
        assert status == 200 and "export async function lessonPage" in lesson
        status, _, rules = fetch(base + "/api/games/fanorona/rules?lang=fi")
        assert status == 200 and '"lang":"fi"' in rules.replace(" ", "") and rules.count("<svg") == 14
        status, _, steps = fetch(base + "/api/games/nibble/lessons")
        assert status == 200 and '"task_key":"nibble.lesson.split.task"' in steps.replace(" ", "")
        status, _, fi = fetch(base + "/api/i18n/fi")
        assert status == 200 and "fanorona.lesson.chain.task" in fi
    finally:
        server.terminate()
        server.wait(timeout=30)
