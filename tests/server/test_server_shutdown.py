"""``abstracta serve`` stops cleanly on SIGTERM and Ctrl-C (SIGINT): no bot worker, resource
tracker or other child process outlives it, even while a bot is searching and a WebSocket is
open."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest


pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux /proc")


def descendants(pid: int) -> list[int]:
    """Living descendants of ``pid`` (from /proc; zombies excluded)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


# the sockets stay open on purpose while the server shuts down, so they are not context managers
@pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")
@pytest.mark.parametrize("how", ["sigterm", "sigint", "ctrl-c"])
def test_serve_leaves_nothing_running(tmp_path, how):
    """``ctrl-c``: SIGINT to the whole process group, as a terminal sends it."""
    log = (tmp_path / "stderr.txt").open("wb")  # files: a leftover child must not block a pipe read
    out = (tmp_path / "stdout.txt").open("wb")
    # port 0: the server binds a free port itself and prints it (a port picked here and bound
    # there could be taken by another process in between, and its server would answer)
    proc = subprocess.Popen(
        [sys.executable, "-c", "from abstracta.cli import main; main()", "serve", "--port", "0",
         "--db", f"sqlite:///{tmp_path / 'serve.db'}"],
        stdout=out, stderr=log, start_new_session=True)
    kids: list[int] = []
    try:
        deadline = time.time() + 30
        while not (said := re.search(r"http://127\.0\.0\.1:(\d+)/", (tmp_path / "stdout.txt").read_text())):
            assert proc.poll() is None, (tmp_path / "stderr.txt").read_text()
            assert time.time() < deadline, "server did not say its port"
            time.sleep(0.1)
        port = int(said.group(1))
        base = f"http://127.0.0.1:{port}"
        while True:
            try:
                urllib.request.urlopen(base + "/api/games", timeout=2)
                break
            except OSError:
                assert proc.poll() is None, (tmp_path / "stderr.txt").read_text()
                assert time.time() < deadline, "server did not start"
                time.sleep(0.1)
        body = json.dumps({"game": "fanorona", "seats": ["level:6", "human"]}).encode()
        req = urllib.request.Request(base + "/api/matches", data=body, headers={"Content-Type": "application/json"})
        mid = json.loads(urllib.request.urlopen(req, timeout=10).read())["id"]
        from websockets.sync.client import connect

        ws = connect(f"ws://127.0.0.1:{port}/api/matches/{mid}/ws")
        ws.send(json.dumps({"tokens": []}))  # first message: the tokens (a spectator: none)
        ws.recv(timeout=10)
        bad = connect(f"ws://127.0.0.1:{port}/api/matches/{mid}/ws")  # a binary frame is refused
        bad.send(json.dumps({"tokens": []}))
        bad.recv(timeout=10)
        bad.send(b"\x00\x01")
        from websockets.exceptions import ConnectionClosed

        with pytest.raises(ConnectionClosed) as closed:
            while True:
                bad.recv(timeout=10)
        assert closed.value.rcvd.code == 1003
        deadline = time.time() + 20
        while len(kids := descendants(proc.pid)) < 3:  # 2 deep + the fast bot worker (+ resource tracker)
            assert time.time() < deadline, kids
            time.sleep(0.1)
        time.sleep(0.5)  # the level-6 bot is searching now
        kids = descendants(proc.pid)
        if how == "ctrl-c":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGTERM if how == "sigterm" else signal.SIGINT)
        proc.wait(timeout=15)
        ws.close()
        deadline = time.time() + 5
        while [k for k in kids if alive(k)] and time.time() < deadline:
            time.sleep(0.1)
        assert [k for k in kids if alive(k)] == []
        errors = (tmp_path / "stderr.txt").read_text()
        assert "Traceback" not in errors and "leaked" not in errors, errors
    finally:
        log.close()
        out.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for k in kids:
            if alive(k):
                os.kill(k, signal.SIGKILL)
