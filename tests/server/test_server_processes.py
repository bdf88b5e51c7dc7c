"""Issue 14 §2, §6: two ``abstracta serve`` processes on one PostgreSQL database serve one match
together (runs when ``ABSTRACTA_TEST_DB_URL`` is a PostgreSQL URL, as in CI)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

URL = os.environ.get("ABSTRACTA_TEST_DB_URL", "")
pytestmark = pytest.mark.skipif(not URL.startswith("postgresql"), reason="needs ABSTRACTA_TEST_DB_URL=postgresql…")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(db_url: str):
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "abstracta", "serve", "--port", str(port), "--db", db_url,
                             "--no-rate-limits"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            cwd=Path(__file__).resolve().parents[2])
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while True:
        try:
            if httpx.get(base + "/api/games", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            proc.kill()
            raise AssertionError(f"the server did not start: {proc.stdout.read().decode(errors='replace')}")
        time.sleep(0.2)


def test_two_processes_serve_one_match(db_url):
    from websockets.sync.client import connect

    (a, base_a), (b, base_b) = serve(db_url), serve(db_url)
    try:
        created = httpx.post(base_a + "/api/matches", json={"game": "nibble", "seats": ["human", "human"],
                                                             "take": "all"}).json()
        mid = created["id"]
        auth = {"Authorization": "Bearer " + ",".join(t["token"] for t in created["tokens"])}
        with connect(base_b.replace("http", "ws") + f"/api/matches/{mid}/ws", open_timeout=10) as ws:
            ws.send(json.dumps({"tokens": []}))  # a spectator on process B
            assert json.loads(ws.recv(timeout=10))["ply"] == 0
            move = created["legal"][0]
            r = httpx.post(base_a + f"/api/matches/{mid}/actions", json={"action": move, "ply": 0}, headers=auth)
            assert r.status_code == 200, r.text
            sent = time.perf_counter()
            pushed = json.loads(ws.recv(timeout=10))  # through NOTIFY, not a poll
            assert pushed["ply"] == 1 and pushed["moves"] == [r.json()["moves"][0]]
            assert time.perf_counter() - sent < 2.0
            # a move through B right after: B's copy is fresh, the move is accepted
            r2 = httpx.post(base_b + f"/api/matches/{mid}/actions",
                            json={"action": r.json()["legal"][0], "ply": 1}, headers=auth)
            assert r2.status_code == 200, r2.text
            assert r2.json()["ply"] == 2
            # and A, whose copy was stale, refuses an old ply as any server would, then accepts the current one
            r3 = httpx.post(base_a + f"/api/matches/{mid}/actions",
                            json={"action": r2.json()["legal"][0], "ply": 1}, headers=auth)
            assert r3.status_code == 409 and r3.json()["ply"] == 2
            r4 = httpx.post(base_a + f"/api/matches/{mid}/actions",
                            json={"action": r2.json()["legal"][0], "ply": 2}, headers=auth)
            assert r4.status_code == 200 and r4.json()["ply"] == 3
            assert json.loads(ws.recv(timeout=10))["ply"] >= 2
    finally:
        for proc in (a, b):
            proc.terminate()
        for proc in (a, b):
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def test_a_lost_listen_connection_is_reopened_and_nothing_is_missed(db_url):
    """Notifications sent while a process's LISTEN connection is down are lost: once it is
    back, the process drops its cached matches and pushes the current views."""
    import psycopg
    from websockets.sync.client import connect

    from abstracta.server.storage import Store

    (a, base_a), (b, base_b) = serve(db_url), serve(db_url)
    try:
        created = httpx.post(base_a + "/api/matches", json={"game": "nibble", "seats": ["human", "human"],
                                                             "take": "all"}).json()
        mid = created["id"]
        auth = {"Authorization": "Bearer " + ",".join(t["token"] for t in created["tokens"])}
        with connect(base_b.replace("http", "ws") + f"/api/matches/{mid}/ws", open_timeout=10) as ws:
            ws.send(json.dumps({"tokens": []}))
            assert json.loads(ws.recv(timeout=10))["ply"] == 0
            store = Store(db_url)
            url = store.listen_url()
            store.dispose()
            with psycopg.connect(url, autocommit=True) as conn:
                killed = conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                      "WHERE datname = current_database() AND query = 'LISTEN abstracta' "
                                      "AND pid <> pg_backend_pid()").fetchall()
            assert len(killed) == 2  # both processes' listeners
            r = httpx.post(base_a + f"/api/matches/{mid}/actions", json={"action": created["legal"][0], "ply": 0},
                           headers=auth)
            assert r.status_code == 200
            assert json.loads(ws.recv(timeout=15))["ply"] == 1  # after B's listener is back
    finally:
        for proc in (a, b):
            proc.terminate()
        for proc in (a, b):
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
