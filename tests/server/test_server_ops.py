"""Issue 44 §4: /metrics, /healthz, /readyz, request ids and JSON log lines (server/ops.py, metrics.py)."""

from __future__ import annotations

import json
import logging
import re

import pytest
from fastapi.testclient import TestClient

from apiutil import Creator, make_app, wait_for


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one series in Prometheus' text format (0 when absent)."""
    want = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        series, _, value = line.rpartition(" ")
        found_name, _, rest = series.partition("{")
        found = ",".join(sorted(rest.rstrip("}").split(","))) if rest else ""
        if found_name == name and found == want:
            return float(value)
    return 0.0


@pytest.fixture
def ops_client(db_url):
    with TestClient(make_app(db_url, rate_limits=False)) as c:
        yield Creator(c)


def test_health_and_readiness(ops_client):
    assert ops_client.get("/healthz").json() == {"status": "ok"}
    ready = ops_client.get("/readyz")
    assert ready.status_code == 200
    shared = {"listen": "ok"} if ops_client.raw.app.state.fanout.shared else {}  # PostgreSQL: LISTEN's connection
    assert ready.json() == {"status": "ready", "checks": {"database": "ok", **shared}}
    # operators' routes, not the players' API: none is in the schema
    paths = ops_client.get("/openapi.json").json()["paths"]
    assert not {"/metrics", "/healthz", "/readyz"} & set(paths)
    assert ops_client.post("/healthz").status_code == 405


def test_readiness_says_which_check_failed(ops_client):
    service = ops_client.raw.app.state.service
    engine = service.store.engine

    class Broken:
        def connect(self):
            raise OSError("the disk went away")

    service.store.engine = Broken()
    try:
        ready = ops_client.get("/readyz")
    finally:
        service.store.engine = engine
    assert ready.status_code == 503
    assert ready.json()["status"] == "not ready"
    assert ready.json()["checks"]["database"] == "OSError: the disk went away"
    assert ops_client.get("/healthz").status_code == 200  # alive all the same: no restart for that


def test_metrics_count_moves_latency_sockets_and_bot_waits(ops_client):
    before = ops_client.get("/metrics").text
    assert ops_client.get("/metrics").headers["content-type"].startswith("text/plain")
    mid = ops_client.post("/api/matches", json={"game": "nibble", "seats": ["human", "level:1"]}).json()["id"]
    # the computer may open (a Nibble board's first player is drawn): the person's turn first
    view = wait_for(ops_client, mid, lambda v: v["human_to_move"])
    with ops_client.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        assert ws.receive_json()["id"] == mid
        during = ops_client.get("/metrics").text
        assert sample(during, "abstracta_websockets_open", kind="match") == sample(before, "abstracta_websockets_open", kind="match") + 1
        assert sample(during, "abstracta_matches_watched") == 1
        moved = ops_client.post(f"/api/matches/{mid}/actions", json={"turn": view["turns"][0], "ply": view["ply"]})
        assert moved.status_code == 200
        stale = ops_client.post(f"/api/matches/{mid}/actions", json={"turn": view["turns"][0], "ply": view["ply"]})
        assert stale.status_code == 409
    wait_for(ops_client, mid, lambda v: v["human_to_move"] or v["status"] == "over")
    after = ops_client.get("/metrics").text

    def grew(name: str, **labels: str) -> float:
        return sample(after, name, **labels) - sample(before, name, **labels)

    assert grew("abstracta_moves_acknowledged_total") == 1  # the 409 is no acknowledged move
    assert grew("abstracta_act_seconds_count", act="move") == 2
    assert grew("abstracta_act_seconds_count", act="create") == 1
    assert grew("abstracta_http_responses_total", route="/api/matches/{match_id}/actions", method="POST",
                status="409") == 1
    assert sample(after, "abstracta_websockets_open", kind="match") == sample(before, "abstracta_websockets_open", kind="match")
    # the computer's answer (level 1: the fast lane) waited in its queue, and was answered
    assert grew("abstracta_bot_wait_seconds_count", lane="fast") >= 1
    assert sample(after, "abstracta_bot_jobs_total", outcome="answered") >= 1
    assert sample(after, "abstracta_matches_cached") >= 1
    assert sample(after, "process_resident_memory_bytes") > 10_000_000


def test_a_bug_is_counted_by_its_type(ops_client, monkeypatch):
    service = ops_client.raw.app.state.service
    mid = ops_client.post("/api/matches", json={"game": "nibble", "seats": ["human", "human"]}).json()["id"]
    before = sample(ops_client.get("/metrics").text, "abstracta_errors_total", type="ZeroDivisionError")

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(service, "resign", broken)
    assert ops_client.post(f"/api/matches/{mid}/resign").status_code == 500
    after = sample(ops_client.get("/metrics").text, "abstracta_errors_total", type="ZeroDivisionError")
    assert after == before + 1


def test_request_ids(ops_client):
    first, second = ops_client.get("/api/games"), ops_client.get("/api/games")
    assert re.fullmatch(r"[0-9a-f]{16}", first.headers["x-request-id"])
    assert first.headers["x-request-id"] != second.headers["x-request-id"]
    # a proxy's id (nginx's $request_id) is kept; text of a client's choosing is not
    given = "0123456789abcdef0123456789abcdef"
    assert ops_client.get("/api/games", headers={"X-Request-ID": given}).headers["x-request-id"] == given
    forged = ops_client.get("/api/games", headers={"X-Request-ID": "a b\"}{"}).headers["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{16}", forged)
    # refusals outside the routes carry one too
    assert ops_client.get("/api/games", headers={"Host": "evil.example"}).headers["x-request-id"]


def test_json_log_lines_carry_the_request_id(ops_client, monkeypatch, caplog):
    from abstracta.server import ops

    service = ops_client.raw.app.state.service
    mid = ops_client.post("/api/matches", json={"game": "nibble", "seats": ["human", "human"]}).json()["id"]

    def broken(*args, **kwargs):
        raise KeyError("a hidden card")

    monkeypatch.setattr(service, "resign", broken)
    with caplog.at_level(logging.ERROR, logger="abstracta.server"):
        answer = ops_client.post(f"/api/matches/{mid}/resign", headers={
            "X-Request-ID": "feedfacefeedface", **ops_client.auth(f"/api/matches/{mid}")})
    assert answer.status_code == 500
    record = next(r for r in caplog.records if "internal error" in r.getMessage())
    # the formatter runs where the record was made: the request's id is in its context then
    line = json.loads(record.__dict__["json_line"])
    assert line["request_id"] == "feedfacefeedface"
    assert line["level"] == "error" and line["logger"] == "abstracta.server"
    assert "KeyError" in line["message"] and "a hidden card" not in line["message"]
    assert ops.request_id() is None  # outside a request


@pytest.fixture(autouse=True)
def _format_where_logged(monkeypatch):
    """Keep each record's JSON line as formatted at the moment it was logged (in the request's
    context), as the handler of ``abstracta serve --log-format json`` writes it."""
    from abstracta.server.ops import JsonLines

    formatter = JsonLines()
    factory = logging.getLogRecordFactory()

    def made(*args, **kwargs):
        record = factory(*args, **kwargs)
        record.json_line = formatter.format(record)
        return record

    monkeypatch.setattr(logging, "_logRecordFactory", made)


def test_json_lines_name_an_exception_by_type_and_place_only():
    from abstracta.server.ops import JsonLines

    try:
        raise ValueError("hand: 3♥ 5♠")
    except ValueError:
        import sys

        record = logging.LogRecord("abstracta.server", logging.ERROR, __file__, 1, "failed", None, sys.exc_info())
    line = json.loads(JsonLines().format(record))
    assert line["exception"] == "ValueError" and line["where"].startswith("test_server_ops.py:")
    assert "3♥" not in json.dumps(line) and "request_id" not in line


def test_the_act_of_a_request():
    from abstracta.server.ops import act_of

    assert act_of("POST", "/api/matches/abc/actions") == "move"
    assert act_of("POST", "/api/matches/abc/takeback/answer") == "takeback_answer"
    assert act_of("POST", "/api/matches/abc/draw") == "draw"
    assert act_of("POST", "/api/matches") == "create"
    assert act_of("POST", "/api/matches/import") == "import"
    assert act_of("DELETE", "/api/matches/abc") == "delete"
    assert act_of("GET", "/api/matches/abc") is None
