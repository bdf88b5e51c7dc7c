"""Issue 44 §2-§4 through the club deployment itself (deploy/club.py, as ``make club`` runs it, in a
folder of its own on free ports, its bot lane in each worker instead of a Ray head): PostgreSQL,
Redis, two ``abstracta serve`` workers and nginx in front.

A move made in a browser whose live view is on one worker appears at once in a browser whose
live view is on the other (nginx's ``least_conn`` puts the two WebSockets on different workers,
which each worker's ``/metrics`` confirms); a client alternating between the workers meets its
rate limit at its budget, not twice it; the proxy forwards request ids, keeps ``/metrics`` to
the workers, limits bodies, and serves HTTPS when given a certificate."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from httputil import give
from services import club_module, need


@pytest.fixture(scope="module")
def club():
    for program, package in (("nginx", "nginx"), ("redis-server", "redis-server"), ("pg_ctlcluster", "postgresql")):
        need(program, package)
    module = club_module()
    free_ports = module.free_ports
    state = Path(tempfile.mkdtemp(prefix="abstracta-club-", dir="/tmp"))
    state.chmod(0o755)  # PostgreSQL's own user reaches its folder in there
    settings = module.Settings(port=free_ports(1), worker_port=free_ports(2), pg_port=free_ports(1),
                               redis_port=free_ports(1), bot_workers="0", venv=sys.prefix)
    deployment = module.Club(state, settings)
    try:
        deployment.up()
        yield deployment
    finally:
        deployment.down(purge=True)


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def post(url: str, body, headers: dict[str, str] | None = None) -> tuple[int, dict]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as exc:
        text = exc.read()
        return exc.code, json.loads(text) if text.startswith(b"{") else {}


def metric(worker: str, name: str) -> float:
    _, _, text = get(worker + "/metrics")
    for line in text.decode().splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return 0.0


def test_a_move_in_one_browser_appears_at_once_in_the_other_on_another_worker(browser, club, shots):
    base, workers = club.base_url(), club.worker_urls()
    status, view = post(base + "/api/matches", {"game": "fanorona", "options": {"size": "dimy"},
                                                "seats": ["human", "human"], "take": [0]})
    assert status == 201, view
    mid = view["id"]
    status, joined = post(base + "/api/invites/claim", {"code": view["invites"][0]["code"]})
    tokens = {0: view["tokens"][0]["token"], 1: joined["tokens"][0]["token"]}
    acked_before = sum(metric(w, "abstracta_moves_acknowledged_total") for w in workers)
    contexts, pages = [], []
    try:
        for seat in (0, 1):
            context = browser.new_context_without_tokens(viewport={"width": 1000, "height": 800})
            give(context, mid, {seat: tokens[seat]})
            page = context.new_page()
            page.set_default_timeout(15000)
            page.goto(f"{base}/#/match/{mid}")
            page.wait_for_function("() => window.abstractaView && window.abstractaView.my_seats.length === 1 "
                                   "&& document.getElementById('app').dataset.live === 'socket'")
            contexts.append(context)
            pages.append(page)
        # one live view on each worker (each page also opens its match's room: not counted here).
        # nginx sends each new connection to the worker with the fewest (least_conn), so with two
        # sockets a page the two views may land on one worker: the second page reloads (opening
        # its sockets anew) until they are apart
        views = 'abstracta_websockets_open{kind="match"}'
        deadline = time.monotonic() + 60
        settled_at = time.monotonic()
        while (counts := [metric(w, views) for w in workers]) != [1.0, 1.0]:
            assert time.monotonic() < deadline, counts
            if sum(counts) == 2.0 and time.monotonic() - settled_at > 1.0:
                pages[1].reload()
                pages[1].wait_for_function("() => window.abstractaView && document.getElementById('app').dataset.live === 'socket'")
                settled_at = time.monotonic()
            time.sleep(0.1)
        rng = random.Random(44)
        waits = []
        moves = 0
        for _ in range(8):
            state = pages[0].evaluate("window.abstractaView")
            if state["status"] == "over":
                break
            mover = state["to_move"]
            page, other = pages[mover], pages[1 - mover]
            page.wait_for_function(f"() => window.abstractaView.ply === {state['ply']} && "
                                   "window.abstractaView.legal.length > 0")
            move = rng.choice(page.evaluate("window.abstractaView.legal"))
            clicked = time.monotonic()
            page.evaluate(f"document.querySelector('#legal [data-move=\"{move}\"]').click()")
            # the other browser, its view pushed by the other worker, follows at once
            other.wait_for_function(f"() => window.abstractaView.ply > {state['ply']} || "
                                    "window.abstractaView.status === 'over'", timeout=5000)
            waits.append(time.monotonic() - clicked)
            page.wait_for_function(f"() => window.abstractaView.ply > {state['ply']} || "
                                   "window.abstractaView.status === 'over'")
            moves += 1
        assert moves >= 4
        assert pages[0].evaluate("window.abstractaView.moves") == pages[1].evaluate("window.abstractaView.moves")
        assert max(waits) < 3.0, waits
        # the moves were stored and counted by the workers that took them (nginx spreads the POSTs)
        acked = sum(metric(w, "abstracta_moves_acknowledged_total") for w in workers) - acked_before
        assert acked == moves
        pages[1].screenshot(path=str(shots / "club-two-workers.png"))
    finally:
        for context in contexts:
            context.close()


def test_rate_limits_hold_across_the_workers(club):
    """The deployment's own budget (30 new matches a minute per address), from one address that
    alternates between the two workers (as nginx would send it to either)."""
    a, b = club.worker_urls()
    statuses = []
    for i in range(32):
        status, _ = post((a, b)[i % 2] + "/api/matches", {"game": "nibble"}, {"X-Forwarded-For": "192.0.2.44"})
        statuses.append(status)
    assert statuses == [201] * 30 + [429] * 2


def test_the_proxy_in_front(club):
    base = club.base_url()
    status, headers, body = get(base + "/readyz")
    assert status == 200
    assert json.loads(body) == {"status": "ready", "checks": {"database": "ok", "redis": "ok"}}
    assert len(headers["x-request-id"]) == 32  # nginx's $request_id, which the workers log with
    assert get(base + "/metrics")[0] == 404  # scraped on each worker's own port
    for worker in club.worker_urls():
        assert b"abstracta_moves_acknowledged_total" in get(worker + "/metrics")[2]
    big = b'{"record": "' + b"x" * 3_000_000 + b'"}'
    assert post(base + "/api/matches/import", big)[0] == 413  # nginx's client_max_body_size
    log = (club.state / "logs" / "worker-1.log").read_text() + (club.state / "logs" / "worker-2.log").read_text()
    assert "abstracta: rate limits and the fan-out are shared through Redis" in log


def test_up_again_changes_nothing_and_tls_is_served_when_given_a_certificate(club, tmp_path):
    import ssl

    started = time.monotonic()
    club.up()  # everything runs: nothing started twice
    assert time.monotonic() - started < 15
    assert [v for v in club.status().values() if v is not None] == [True] * 5
    need("openssl", "openssl")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    club.settings.tls_cert, club.settings.tls_key, club.settings.tls_port = str(cert), str(key), club_module().free_ports(1)
    club.nginx_up()  # the configuration rendered again and reloaded
    context = ssl.create_default_context(cafile=str(cert))
    context.check_hostname = False
    url = f"https://127.0.0.1:{club.settings.tls_port}/readyz"
    deadline = time.monotonic() + 10
    while True:
        try:
            with urllib.request.urlopen(url, context=context, timeout=5) as r:
                assert r.status == 200 and json.load(r)["status"] == "ready"
                break
        except (urllib.error.URLError, OSError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
