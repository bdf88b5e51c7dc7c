"""Small edges of the server's rules for requests (issue 38 item 10): one ``Host`` rule for HTTP
and WebSocket, and one reading of a JSON integer for every integer field a request body takes."""

from __future__ import annotations

import base64
import os
import socket
import threading
import time

import pytest
from apiutil import bearer, make_app

TOY = {"game": "toy-nim", "options": {"stones": 9}}


# --- Host: exactly one, a served one -------------------------------------------------------------
@pytest.fixture
def live(db_url):
    """The app on a real uvicorn on a free loopback port: ``(port, app)``. The TestClient builds
    the request itself and cannot send what a real client sends on the wire (two Host headers)."""
    import uvicorn

    from abstracta.server import bind

    app = make_app(db_url, rate_limits=False)
    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield sock.getsockname()[1], app
    finally:
        server.should_exit = True
        thread.join(10)


def raw_answer(port: int, request: bytes) -> bytes:
    """The status line the server answers ``request`` (bytes as sent on the wire) with."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(request)
        data = b""
        while b"\r\n" not in data:
            chunk = conn.recv(4096)
            if not chunk:
                break
            data += chunk
    return data.split(b"\r\n", 1)[0]


def new_match(port: int) -> str:
    import httpx

    r = httpx.post(f"http://127.0.0.1:{port}/api/matches", json={**TOY, "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    return r.json()["id"]


@pytest.mark.parametrize("hosts", [["127.0.0.1", "evil.example"], ["evil.example", "127.0.0.1"],
                                   ["127.0.0.1", "127.0.0.1"], ["evil.example"], []])
def test_http_and_websocket_follow_one_host_rule(live, hosts):
    # a served Host followed by a foreign one was read as the served one: a WebSocket sent so by
    # a client that adds a Host beside its own (Python's websockets) got the match's view,
    # while HTTP refused the foreign name given alone. Several Host headers are refused by both
    # (RFC 9112 §3.2), as is none or a foreign one
    port, _app = live
    mid = new_match(port)
    lines = "".join(f"Host: {h}\r\n" for h in hosts).encode()
    http = raw_answer(port, b"GET /api/games HTTP/1.1\r\n" + lines + b"Connection: close\r\n\r\n")
    key = base64.b64encode(os.urandom(16))
    ws = raw_answer(port, f"GET /api/matches/{mid}/ws HTTP/1.1\r\n".encode() + lines
                    + b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key
                    + b"\r\nSec-WebSocket-Version: 13\r\n\r\n")
    assert http.startswith(b"HTTP/1.1 400"), http
    assert ws.startswith(b"HTTP/1.1 403"), ws  # the handshake refused: no view is ever sent


def test_one_served_host_is_answered_by_both(live):
    port, _app = live
    mid = new_match(port)
    lines = f"Host: 127.0.0.1:{port}\r\n".encode()
    assert raw_answer(port, b"GET /api/games HTTP/1.1\r\n" + lines + b"Connection: close\r\n\r\n").startswith(b"HTTP/1.1 200")
    key = base64.b64encode(os.urandom(16))
    ws = raw_answer(port, f"GET /api/matches/{mid}/ws HTTP/1.1\r\n".encode() + lines
                    + b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key
                    + b"\r\nSec-WebSocket-Version: 13\r\n\r\n")
    assert ws.startswith(b"HTTP/1.1 101"), ws


def test_a_websocket_client_that_adds_a_foreign_host_gets_no_view(live):
    # the report's own client: websockets adds the Host given after its own
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    port, _app = live
    mid = new_match(port)
    with pytest.raises(InvalidStatus) as refused:
        with connect(f"ws://127.0.0.1:{port}/api/matches/{mid}/ws", additional_headers={"Host": "evil.example"},
                     open_timeout=5) as ws:
            ws.send('{"tokens": []}')
            ws.recv(timeout=5)  # never reached
    assert refused.value.response.status_code == 403


# --- integers: 13.0 is 13 -------------------------------------------------------------------------
def integer_fields(schema: dict) -> set[str]:
    """``Model.field`` of every request body field /openapi.json declares an integer (or a list
    of integers)."""
    found = set()
    bodies = set()
    for path in schema["paths"].values():
        for op in path.values():
            ref = (((op.get("requestBody") or {}).get("content") or {}).get("application/json") or {}).get("schema", {})
            for part in [ref, *ref.get("anyOf", [])]:
                if "$ref" in part:
                    bodies.add(part["$ref"].rsplit("/", 1)[1])

    def integer(s: dict) -> bool:
        kinds = [s, *s.get("anyOf", []), *s.get("oneOf", [])]
        return any(k.get("type") == "integer" or (k.get("type") == "array" and integer(k.get("items", {})))
                   for k in kinds)

    for name in bodies:
        for field, prop in schema["components"]["schemas"][name].get("properties", {}).items():
            if integer(prop):
                found.add(f"{name}.{field}")
    return found


def test_every_integer_field_of_a_request_reads_an_integral_number_as_the_integer(client):
    # {"seat": 13.0} was 422 "Input should be a valid integer" although the schema's "integer"
    # (JSON Schema counts 13.0 among them) allows it; now 13.0 is 13 wherever an integer is taken
    schema = client.raw.get("/openapi.json").json()
    assert integer_fields(schema) == {"CreateMatch.take", "ImportMatch.take", "PlayAction.ply", "PlayAction.seat",
                                      "AnalysisRequest.ply", "AnalysisRequest.seat", "Resign.seat",
                                      "SeekBody.rating_range", "SeekBody.seat", "ChallengeBody.seat"}
    jsonschema = pytest.importorskip("jsonschema")
    assert jsonschema.Draft202012Validator({"type": "integer"}).is_valid(13.0)

    def same(path: str, body: dict, floated: dict, headers: dict) -> dict:
        a = client.raw.post(path, json=body, headers=headers)
        b = client.raw.post(path, json=floated, headers=headers)
        assert (a.status_code, a.json()) == (b.status_code, b.json()), (path, floated, b.text)
        return b.json()

    # a seat that does not exist: the domain's answer, the same for 13 and 13.0
    view = client.post("/api/matches", json={**TOY, "seats": ["human", "human"]}).json()
    tokens = bearer(*client.tokens[view["id"]].values())
    refused = same(f"/api/matches/{view['id']}/resign", {"seat": 13}, {"seat": 13.0}, tokens)
    assert "13" in refused["error"] and "integer" not in refused["error"]
    # a move with its ply and seat given as 0.0
    r = client.raw.post(f"/api/matches/{view['id']}/actions", json={"action": view["legal"][0], "ply": 0.0, "seat": 0.0},
                        headers=tokens)
    assert r.status_code == 200 and r.json()["ply"] == 1, r.text
    r = client.raw.post(f"/api/matches/{view['id']}/resign", json={"seat": 1.0}, headers=tokens)
    assert r.status_code == 200 and r.json()["resigned"] == 1, r.text
    # take: [0.0, 1.0] takes seats 0 and 1
    r = client.raw.post("/api/matches", json={**TOY, "seats": ["human", "human"], "take": [0.0, 1.0]})
    assert r.status_code == 201 and sorted(t["seat"] for t in r.json()["tokens"]) == [0, 1], r.text
    # the analysis of a pasted position from seat 1.0's eyes, at ply 0.0 of a finished match
    from abstracta import load_game

    position = load_game("toy-nim", stones=9).new_initial_state().to_text()
    pasted = {"game": "toy-nim", "options": {"stones": 9}, "position": position, "scale": 0.05}
    assert same("/api/analysis", {**pasted, "seat": 1}, {**pasted, "seat": 1.0}, {})["viewer"] == 1
    assert same("/api/analysis", {"match_id": view["id"], "ply": 1, "scale": 0.05},
                {"match_id": view["id"], "ply": 1.0, "scale": 0.05}, {})["ply"] == 1


@pytest.mark.parametrize("seat", [13.5, "13", True, 1e300, [13]])
def test_what_is_no_integer_stays_refused(client, seat):
    view = client.post("/api/matches", json={**TOY, "seats": ["human", "human"]}).json()
    r = client.raw.post(f"/api/matches/{view['id']}/resign", json={"seat": seat},
                        headers=bearer(*client.tokens[view["id"]].values()))
    assert r.status_code == 422 and "seat" in r.text, r.text
    assert client.get(f"/api/matches/{view['id']}").json()["status"] == "playing"


@pytest.mark.parametrize("clock, field", [({"initial": None}, "clock.initial"), ({"per_turn": None}, "clock.per_turn"),
                                          ({"initial": 60, "increment": None}, "clock.increment")])
def test_a_clock_field_given_as_null_is_refused_naming_it(client, clock, field):
    # {"initial": null} passed the body model and failed in the session (a 500); the schema says
    # a clock's fields are numbers, left out rather than null
    schema = client.raw.get("/openapi.json").json()["components"]["schemas"]["Clock"]["properties"]
    assert all(prop["type"] == "number" for prop in schema.values())
    store = client.raw.app.state.service.store
    before = set(store.unfinished_ids())
    r = client.raw.post("/api/matches", json={**TOY, "seats": ["human", "human"], "take": "all", "clock": clock})
    assert r.status_code == 422 and r.json()["error"].startswith(f"{field}: "), r.text
    assert set(store.unfinished_ids()) == before  # nothing was made
    made = client.raw.post("/api/matches", json={**TOY, "seats": ["human", "human"], "take": "all",
                                                 "clock": {k: 60 for k in clock}})
    assert made.status_code == 201 and set(store.unfinished_ids()) == before | {made.json()["id"]}


# --- a stopped app lets go of its service --------------------------------------------------------
def test_a_stopped_app_lets_go_of_its_service_and_everything_it_holds(db_url):
    """FastAPI keeps the endpoints it has served in module-level caches, and each endpoint's
    closure held the app's match service: every app a process made (a test run: hundreds) kept
    its service, store, database engine, matches and caches for good. The test workers' heaps
    grew to 650,000 objects, their last garbage collections outlasted the 5 s pytest-xdist
    gives a worker to end, and xdist's SIGINT landed in one of them: a KeyboardInterrupt
    traceback (PytestUnraisableExceptionWarning) after a passing `make test` (issue 38 item 9).
    Once its lifespan has ended, an app's routes hold a stopped service instead."""
    import gc
    import weakref

    from fastapi.testclient import TestClient

    def serve_once():
        app = make_app(db_url, rate_limits=False)
        with TestClient(app) as c:
            view = c.post("/api/matches", json={**TOY, "seats": ["human", "human"], "take": "all"}).json()
            assert c.get(f"/api/matches/{view['id']}").status_code == 200
            alive = weakref.ref(app.state.service), weakref.ref(app.state.service.store)
        # a request that still reaches the stopped app's routes is told so
        r = TestClient(app).get(f"/api/matches/{view['id']}")
        assert r.status_code == 503 and r.json()["error"] == "the server has stopped"
        return alive

    refs = [serve_once() for _ in range(3)]
    gc.collect()
    assert [ref() for pair in refs for ref in pair] == [None] * 6
