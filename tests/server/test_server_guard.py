"""The request path's checks folded into two ASGI layers (issue 44 §1, server/security.py): each
rule on its own, and what a request that breaks two rules at once is told — the order the eleven
layers before them gave (the first refusal wins), kept."""

from __future__ import annotations

import json

import pytest
from apiutil import Creator, bearer, make_app
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from abstracta.server import security
from abstracta.server.api.middleware import BODY_LIMITS
from abstracta.server.security import HostPolicy

POLICY = HostPolicy.for_bind("127.0.0.1", ["testserver"])
SECURITY_NAMES = [b"content-security-policy", b"x-content-type-options", b"referrer-policy", b"x-frame-options",
                  b"cross-origin-opener-policy"]


# --- each rule on its own --------------------------------------------------------------------------
def test_request_heads_reads_each_header_once_and_counts_the_hosts():
    scope = {"headers": [(b"Host", b"a.example"), (b"cookie", b"x=1"), (b"host", b"b.example"),
                         (b"content-type", b"application/json"), (b"cookie", b"y=2"), (b"accept", b"*/*")]}
    heads, hosts = security.request_heads(scope)
    assert hosts == 2 and heads == {b"host": "a.example", b"cookie": "x=1", b"content-type": "application/json"}
    assert security.request_heads(scope) is scope[security.HEADS_KEY]  # kept for the next layer
    assert security.request_heads({"headers": []}) == ({}, 0)


def test_a_second_origin_or_content_type_that_differs_reads_as_one_its_check_refuses():
    """RFC 6454 §7.3: a browser sends one Origin. Two that differ (the server's own first) were
    written by hand: the first alone would pass and the second go unread."""
    twice = {"headers": [(b"host", b"testserver"), (b"origin", b"http://testserver"), (b"origin", b"http://evil.example"),
                         (b"content-type", b"application/json"), (b"Content-Type", b"text/plain")]}
    heads, _ = security.request_heads(twice)
    assert heads[b"origin"] == "null" and heads[b"content-type"] == ""
    assert security.origin_check(POLICY, "POST", "/api/matches", heads[b"origin"], "testserver")[0] == 403
    assert security.socket_check(POLICY, "testserver", heads[b"origin"]).startswith("cross-origin WebSocket")
    assert security.json_check(heads[b"content-type"], b"{}")[0] == 415
    same = {"headers": [(b"origin", b"http://testserver"), (b"origin", b"http://testserver")]}
    assert security.request_heads(same)[0] == {b"origin": "http://testserver"}  # a repeat is one


def test_an_act_with_two_origins_or_two_types_is_refused_end_to_end(client):
    view = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9},
                                              "seats": ["human", "human"]}).json()
    act = f"/api/matches/{view['id']}/actions"
    token = next(iter(client.tokens[view["id"]].values()))
    auth = ("authorization", f"Bearer {token}")
    r = client.raw.post(act, content=b'{"action": "1"}', headers=[
        auth, ("content-type", "application/json"), ("origin", "http://testserver"), ("origin", "http://evil.example")])
    assert r.status_code == 403 and r.json()["i18n"]["key"] == "error.cross_origin"
    r = client.raw.post(act, content=b'{"action": "1"}', headers=[
        auth, ("content-type", "application/json"), ("content-type", "text/plain")])
    assert r.status_code == 415
    assert client.get(f"/api/matches/{view['id']}").json()["ply"] == 0  # nothing was played


def test_host_check():
    assert security.host_check(POLICY, "127.0.0.1:8000") is None
    assert security.host_check(POLICY, "evil.example") == (400, "Invalid host header", None, None)
    assert security.host_check(POLICY, None) == (400, "Invalid host header", None, None)  # none, or several


def test_origin_check_is_for_state_changing_api_requests_with_a_foreign_origin():
    refused = security.origin_check(POLICY, "POST", "/api/matches", "http://evil.example", "testserver")
    assert refused == (403, "cross-origin request refused: Origin is not this server", None,
                       {"key": "error.cross_origin", "params": {}})
    assert security.origin_check(POLICY, "POST", "/api/matches", "http://testserver", "testserver") is None
    assert security.origin_check(POLICY, "POST", "/api/matches", None, "testserver") is None  # curl
    assert security.origin_check(POLICY, "GET", "/api/matches", "http://evil.example", "testserver") is None
    assert security.origin_check(POLICY, "POST", "/login", "http://evil.example", "testserver") is None


def test_socket_check_applies_the_host_rule_with_or_without_origin():
    assert security.socket_check(POLICY, "testserver", None) is None
    assert security.socket_check(POLICY, "evil.example", None) == "Invalid host header"  # issue 44 §7
    assert security.socket_check(POLICY, "evil.example", "http://evil.example") == "Invalid host header"
    assert security.socket_check(POLICY, "testserver", "http://evil.example").startswith("cross-origin WebSocket")


def test_token_check():
    act = "/api/matches/abc/actions"
    long = "x" * (security.TOKEN_CHARS + 1)
    assert security.token_check("POST", act, "Bearer " + "t" * 22, None) is None
    assert security.token_check("POST", act, None, "abstracta=s") is None  # signed in
    missing = security.token_check("POST", act, None, None)
    assert missing[:2] == (401, "this needs a seat token (Authorization: Bearer <token>) or to be signed in")
    assert missing[2] == {"WWW-Authenticate": "Bearer"}
    assert security.token_check("POST", act, "Basic dXNlcjpwdw==", None)[0] == 401  # not a seat token
    # a token too long to be one: 401 on any /api/ request, reads too; said before "no token"
    assert security.token_check("GET", "/api/games", "Bearer " + long, None)[1].startswith("a seat token is at most 64")
    assert security.token_check("POST", act, "Bearer " + long, None)[1].startswith("a seat token is at most 64")
    assert security.token_check("GET", "/app.js", "Bearer " + long, None) is None
    assert security.token_check("GET", "/api/matches/abc", None, None) is None  # a spectator's read


def test_json_check():
    assert security.json_check("application/json; charset=utf-8", b'{"a": 1}') is None
    assert security.json_check(None, b"") is None and security.json_check("text/plain", b"") is None  # no body
    refused = security.json_check("text/plain", b'{"a": 1}')
    assert refused[0] == 415 and refused[1].endswith("not text/plain")
    assert security.json_check(None, b"x")[1].endswith("not a body without a type")
    assert security.json_check("application/json", b'{"a": ') == (
        422, "the request body is not valid JSON (at character 6)", None, None)
    assert security.json_check("application/json", b"[" * 100_000)[1].endswith("(nested too deep)")
    assert security.json_check("application/json", b"  \n") is None  # blank: the route says what it misses


def test_socket_counts():
    counts = security.SocketCounts(per_match=2, per_ip=3)
    held = [counts.counted("m1", "1.2.3.4"), counts.counted("m1", "1.2.3.4")]
    assert counts.refusal("m1", "1.2.3.4") == "too many connections to this match (at most 2)"
    assert counts.refusal("m2", "1.2.3.4") is None
    held.append(counts.counted(None, "1.2.3.4"))  # the lobby's: the address's bound only
    assert counts.refusal("m2", "1.2.3.4") == "too many connections from your address (at most 3)"
    assert counts.refusal("m2", "5.6.7.8") is None
    for counted in held:
        counts.release(counted)
    assert counts.by_match == {} and counts.by_ip == {}
    assert security.SocketCounts(None, None).refusal("m", "ip") is None


# --- two rules broken at once: the first in today's order answers ------------------------------------
@pytest.fixture
def limited(db_url):
    limits = {"create": ("3/minute", "2/minute"), "act": ("4/minute", "3/minute")}
    with TestClient(make_app(db_url, limits=limits, ws_per_match=1, ws_per_ip=3)) as c:
        yield Creator(c)


def test_the_host_is_checked_before_the_origin(client):
    r = client.raw.post("/api/matches", json={}, headers={"host": "evil.example", "origin": "http://evil.example"})
    assert r.status_code == 400 and r.json() == {"error": "Invalid host header"}


def test_the_origin_is_checked_before_the_method_and_the_token(client):
    for method, path in (("PUT", "/api/matches/abc/actions"), ("POST", "/api/matches/abc/actions")):
        r = client.raw.request(method, path, content=b"{", headers={"origin": "http://evil.example"})
        assert r.status_code == 403 and r.json()["i18n"]["key"] == "error.cross_origin"


def test_the_rate_limit_counts_requests_refused_later_on(limited):
    """The limits come before the method, token and body rules: an act without a token is 401 and
    counted against its address, and once the address is over its budget it is 429."""
    codes = [limited.raw.post("/api/matches/abc/actions", json={"action": "1"}).status_code for _ in range(5)]
    assert codes == [401, 401, 401, 401, 429]
    # a refused Host is not counted: the edge answered before the limits (create: 3 a minute)
    for _ in range(4):
        assert limited.raw.post("/api/matches", json={}, headers={"host": "evil.example"}).status_code == 400
    r = limited.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9}, "seats": ["human", "human"]})
    assert r.status_code == 201


def test_the_method_is_checked_before_the_token_and_the_body(client):
    r = client.raw.request("PATCH", "/api/matches/abc/actions", content=b"x" * 10, headers={"content-type": "text/plain"})
    assert r.status_code == 405 and r.headers["allow"] == "POST"
    r = client.raw.post("/api/nothing", content=b"x" * (BODY_LIMITS[None] + 1))
    assert r.status_code == 404  # no such endpoint: its body is never read


def test_the_token_is_checked_before_the_body(client):
    too_big = b" " * (BODY_LIMITS[None] + 1)
    r = client.raw.post("/api/matches/abc/actions", content=too_big, headers={"content-type": "application/json"})
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
    r = client.raw.get("/api/games", headers=bearer("x" * 65))
    assert r.status_code == 401 and "at most 64" in r.json()["error"]


def test_the_body_limit_before_its_type_and_the_type_before_its_json(client):
    view = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9}, "seats": ["human", "human"]}).json()
    auth = bearer(*client.tokens[view["id"]].values())
    path = f"/api/matches/{view['id']}/actions"
    r = client.raw.post(path, content=b"x" * (BODY_LIMITS[None] + 1), headers={**auth, "content-type": "text/plain"})
    assert r.status_code == 413 and r.headers["connection"] == "close"
    r = client.raw.post(path, content=b"{broken", headers={**auth, "content-type": "text/plain"})
    assert r.status_code == 415
    r = client.raw.post(path, content=b"{broken", headers={**auth, "content-type": "application/json"})
    assert r.status_code == 422
    r = client.raw.post(path, content=b"{}", headers={**auth, "content-length": "ten", "content-type": "application/json"})
    assert r.status_code == 400 and r.json() == {"error": "the Content-Length header is not a number"}


def test_a_websocket_with_a_foreign_host_is_refused_before_its_bound(limited):
    view = limited.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9}, "seats": ["human", "human"]}).json()
    url = f"/api/matches/{view['id']}/ws"
    with limited.websocket_connect(url) as first:  # the match's one place (ws_per_match=1) taken
        first.receive_json()
        with pytest.raises(WebSocketDisconnect) as refused:
            with limited.raw.websocket_connect(url, headers={"host": "evil.example"}) as ws:
                ws.receive_json()
        assert refused.value.code == 1008  # the Host rule, not the bound (1013)
        with limited.raw.websocket_connect(url) as extra:
            assert "too many connections to this match" in extra.receive_json()["error"]


# --- what every answer carries, byte for byte ----------------------------------------------------------
def test_a_refusal_carries_its_headers_then_the_security_headers_then_the_request_id(client):
    r = client.raw.get("/api/games", headers={"host": "evil.example"})
    body = json.dumps({"error": "Invalid host header"}).encode()
    assert r.content == body
    names = [k.lower() for k, _ in r.headers.raw]
    assert names == [b"content-type", b"content-length", *SECURITY_NAMES, b"x-request-id"]
    assert "connect-src 'self' ws://evil.example wss://evil.example;" in r.headers["content-security-policy"]
    r = client.raw.post("/api/matches/abc/actions", content=b" " * (BODY_LIMITS[None] + 1), headers=bearer("t" * 22))
    names = [k.lower() for k, _ in r.headers.raw]
    assert r.status_code == 413
    assert names == [b"content-type", b"content-length", b"connection", *SECURITY_NAMES, b"x-request-id"]


def test_a_bug_is_answered_500_with_the_headers_and_the_request_id(client, monkeypatch):
    service = client.raw.app.state.service
    mid = client.post("/api/matches", json={"game": "nibble", "seats": ["human", "human"]}).json()["id"]

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(service, "resign", broken)
    r = client.post(f"/api/matches/{mid}/resign", headers={**bearer(*client.tokens[mid].values()), "x-request-id": "abcdef0123"})
    assert r.status_code == 500 and r.json() == {"error": "internal error: ZeroDivisionError"}
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-request-id"] == "abcdef0123"
