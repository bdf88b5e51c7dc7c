"""Abuse limits and safe defaults (issue 14 §4): the Host header, the WebSocket Origin, the
security headers, rate limits, the WebSocket bounds, JSON-only bodies, 405 with Allow and the
statuses the OpenAPI schema states."""

from __future__ import annotations

import pytest
from apiutil import Creator, bearer, make_app
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from abstracta.server import security
from abstracta.server.security import HostPolicy


def create(client, seats=("human", "human"), **extra):
    r = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 9}, "seats": list(seats), **extra})
    assert r.status_code == 201, r.text
    return r.json()


@pytest.fixture
def limited(db_url):
    """An app with the rate limits on (small ones, to reach them quickly) and small socket bounds."""
    limits = {"create": ("3/minute", "2/minute"), "invite": ("5/minute", "5/minute"), "act": ("6/minute", "3/minute")}
    with TestClient(make_app(db_url, limits=limits, ws_per_match=2, ws_per_ip=3)) as c:
        yield Creator(c)


# --- Host -------------------------------------------------------------------------------------
@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "[::2]:80",
                                  "localhost:80@evil.example", "10.0.0.5"])
def test_a_foreign_host_is_refused(client, host):
    r = client.get("/api/games", headers={"host": host})
    assert r.status_code == 400 and r.json() == {"error": "Invalid host header"}
    assert r.headers["x-content-type-options"] == "nosniff"  # refusals carry the headers too
    view = create(client)
    r = client.post(f"/api/matches/{view['id']}/resign", json={"seat": 0}, headers={"host": host})
    assert r.status_code == 400
    assert client.get(f"/api/matches/{view['id']}").json()["status"] == "playing"


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "127.0.0.1:1234", "[::1]:8000", "testserver",
                                  "LOCALHOST:9"])
def test_the_served_hosts_are_accepted(client, host):
    assert client.get("/api/games", headers={"host": host}).status_code == 200


def test_host_policy_of_the_bind_address():
    local = HostPolicy.for_bind("127.0.0.1")
    assert local.allows("127.0.0.1:8000") and local.allows("[::1]") and not local.allows("192.168.1.5:8000")
    club = HostPolicy.for_bind("192.168.1.5", ["games.club.example", "*.club.example"])
    assert club.allows("192.168.1.5:8000") and club.allows("games.club.example") and club.allows("a.club.example")
    assert not club.allows("club.example.evil") and not club.allows("10.0.0.1")
    # every interface: any IP literal (a rebinding page comes by a name) and the machine's own
    # name; other names only when given
    anywhere = HostPolicy.for_bind("0.0.0.0")
    assert anywhere.allows("10.1.2.3:8000") and anywhere.allows("[fe80::1]") and not anywhere.allows("evil.example")
    assert HostPolicy.for_bind("0.0.0.0", ["*"]).allows("anything.example")
    assert not anywhere.allows(None) and not anywhere.allows("") and not anywhere.allows("a b")


# --- WebSocket Origin ----------------------------------------------------------------------------
@pytest.mark.parametrize("origin", ["http://evil.example", "http://testserver.evil.example", "null",
                                    "http://localhost:8080", "file://", "javascript:x"])
def test_a_websocket_from_another_site_gets_no_view(client, origin):
    view = create(client)
    with pytest.raises(WebSocketDisconnect) as refused:
        with client.raw.websocket_connect(f"/api/matches/{view['id']}/ws", headers={"origin": origin}) as ws:
            ws.send_json({"tokens": list(client.tokens[view["id"]].values())})
            ws.receive_json()  # never reached: the socket was never accepted
    assert refused.value.code == 1008


@pytest.mark.parametrize("origin", ["http://testserver", "http://TESTSERVER:80", None])
def test_a_websocket_from_the_app_itself_gets_its_view(client, origin):
    view = create(client)
    headers = {"origin": origin} if origin else {}
    with client.websocket_connect(f"/api/matches/{view['id']}/ws", headers=headers) as ws:
        assert ws.receive_json()["id"] == view["id"]


def test_origin_policy():
    policy = HostPolicy.for_bind("127.0.0.1", ["games.club.example"])
    assert policy.origin_allows("http://localhost:8000", "localhost:8000")
    assert policy.origin_allows("https://games.club.example", "127.0.0.1:8000")  # a proxy rewrote Host
    assert not policy.origin_allows("http://localhost:3000", "localhost:8000")  # another local app
    assert not policy.origin_allows("http://localhost:8000", "evil.example:8000")
    assert policy.origin_allows("https://localhost", "localhost:443")


# --- headers ------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/api/games", "/app.js", "/api/matches/nope", "/openapi.json"])
def test_every_answer_carries_the_security_headers(client, path):
    r = client.get(path)
    csp = r.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "script-src 'self';" in csp and "style-src 'self';" in csp
    assert "frame-ancestors 'none'" in csp and "connect-src 'self' ws://testserver wss://testserver" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-frame-options"] == "DENY"
    assert not any(k.lower().startswith("access-control-") for k in r.headers)


def test_no_cors_for_another_site(client):
    r = client.options("/api/matches", headers={"origin": "http://evil.example", "access-control-request-method": "POST"})
    assert r.status_code == 405 and "access-control-allow-origin" not in r.headers


def test_the_docs_page_allows_its_cdn_and_its_own_inline_script_only(client):
    r = client.get("/docs")
    csp = r.headers["content-security-policy"]
    assert csp == security.docs_policy(r.text)  # the hash is that of the page's one inline script
    assert "'sha256-" in csp and "script-src https://cdn.jsdelivr.net 'sha256-" in csp
    assert "unsafe-eval" not in csp and "frame-ancestors 'none'" in csp


# --- rate limits -------------------------------------------------------------------------------
def test_creating_matches_is_limited_per_address(limited):
    for _ in range(3):
        create(limited)
    r = limited.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"]})
    assert r.status_code == 429 and "too many requests" in r.json()["error"]
    assert 1 <= int(r.headers["retry-after"]) <= 60
    # and in words the browser says in its reader's language (catalog key and the same wait)
    assert r.json()["i18n"] == {"key": "error.rate_limited", "params": {"seconds": int(r.headers["retry-after"])}}
    assert len(limited.get("/api/matches").json()) == 3  # the refused one made nothing


def test_acts_are_limited_per_token(limited):
    view = create(limited)
    mid, token = view["id"], limited.tokens[view["id"]][0]
    codes = [limited.post(f"/api/matches/{mid}/takeback/answer", json={"accept": True},
                          headers=bearer(token)).status_code for _ in range(4)]
    assert codes[:3] == [409, 409, 409] and codes[3] == 429  # three acts a minute for this token
    other = limited.tokens[view["id"]][1]  # the other seat's token has its own budget
    assert limited.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0},
                        headers=bearer(other)).status_code != 429


def test_acts_are_limited_per_address(limited):
    views = [create(limited) for _ in range(3)]
    codes = []
    for view in views:
        for token in limited.tokens[view["id"]].values():
            codes.append(limited.post(f"/api/matches/{view['id']}/takeback/answer", json={"accept": False},
                                      headers=bearer(token)).status_code)
    assert codes.count(429) == 0 and len(codes) == 6
    r = limited.post(f"/api/matches/{views[0]['id']}/flag", headers=bearer(limited.tokens[views[0]["id"]][0]))
    assert r.status_code == 429 and "retry-after" in r.headers


def test_without_rate_limits_nothing_is_refused(client):
    for _ in range(40):
        create(client)
    assert len(client.get("/api/matches?limit=100").json()) == 40


def test_the_switch_from_the_environment(monkeypatch):
    monkeypatch.delenv("ABSTRACTA_RATE_LIMITS", raising=False)
    assert security.rate_limits_from_env() is True
    for off in ("off", "0", "false", "OFF"):
        monkeypatch.setenv("ABSTRACTA_RATE_LIMITS", off)
        assert security.rate_limits_from_env() is False
    monkeypatch.setenv("ABSTRACTA_RATE_LIMITS", "on")
    assert security.rate_limits_from_env() is True


def test_default_app_limits_unless_switched_off(db_url, monkeypatch):
    from abstracta.server.app import create_app

    monkeypatch.setenv("ABSTRACTA_RATE_LIMITS", "off")
    assert not any(m.cls is security.RateLimit for m in create_app(db_url, bot_workers=0).user_middleware)
    monkeypatch.delenv("ABSTRACTA_RATE_LIMITS")
    assert any(m.cls is security.RateLimit for m in create_app(db_url, bot_workers=0).user_middleware)


# --- WebSocket bounds ----------------------------------------------------------------------------
def test_websockets_per_match_are_bounded(limited):
    view = create(limited)
    url = f"/api/matches/{view['id']}/ws"
    with limited.websocket_connect(url) as a, limited.websocket_connect(url) as b:
        a.receive_json(), b.receive_json()
        with limited.raw.websocket_connect(url) as c:
            assert "too many connections to this match" in c.receive_json()["error"]
            with pytest.raises(WebSocketDisconnect) as closed:
                c.receive_json()
            assert closed.value.code == 1013
    with limited.websocket_connect(url) as again:  # the others closed: room again
        assert again.receive_json()["id"] == view["id"]


def test_websockets_per_address_are_bounded(limited):
    views = [create(limited) for _ in range(3)]
    opened = [limited.websocket_connect(f"/api/matches/{v['id']}/ws") for v in views]
    sockets = [cm.__enter__() for cm in opened]
    try:
        for ws in sockets:
            ws.receive_json()
        with limited.raw.websocket_connect(f"/api/matches/{views[0]['id']}/ws") as extra:
            assert "too many connections from your address" in extra.receive_json()["error"]
    finally:
        for cm in opened:
            cm.__exit__(None, None, None)


def test_lobby_websockets_count_against_the_address_too(limited):
    """The lobby's socket reads the lobby afresh on every change: an address holds no more of
    them than of a match's sockets (the bound is the address's, across both)."""
    opened = [limited.raw.websocket_connect("/api/lobby/ws") for _ in range(3)]
    sockets = [cm.__enter__() for cm in opened]
    try:
        for ws in sockets:
            assert "lobby" in ws.receive_json()
        with limited.raw.websocket_connect("/api/lobby/ws") as extra:
            assert "too many connections from your address" in extra.receive_json()["error"]
            with pytest.raises(WebSocketDisconnect) as closed:
                extra.receive_json()
            assert closed.value.code == 1013
    finally:
        for cm in opened:
            cm.__exit__(None, None, None)
    with limited.raw.websocket_connect("/api/lobby/ws") as again:  # the others closed: room again
        assert "lobby" in again.receive_json()


def test_notices_websockets_count_against_the_address_too(limited):
    """The header's socket on every page (a person's notices) is bounded with the others."""
    opened = [limited.raw.websocket_connect("/api/lobby/ws") for _ in range(3)]
    sockets = [cm.__enter__() for cm in opened]
    try:
        for ws in sockets:
            assert "lobby" in ws.receive_json()
        with limited.raw.websocket_connect("/api/notices/ws") as extra:
            assert "too many connections from your address" in extra.receive_json()["error"]
            with pytest.raises(WebSocketDisconnect) as closed:
                extra.receive_json()
            assert closed.value.code == 1013
    finally:
        for cm in opened:
            cm.__exit__(None, None, None)


# --- bodies ------------------------------------------------------------------------------------
NOT_JSON = [
    ({"content-type": "application/x-www-form-urlencoded"}, b"seat=0&accept=true"),
    ({"content-type": "text/plain"}, b'{"seat": 0}'),
    ({"content-type": "multipart/form-data; boundary=xx"},
     b'--xx\r\nContent-Disposition: form-data; name="seat"\r\n\r\n0\r\n--xx--\r\n'),
]


def acts(mid):
    return [("POST", f"/api/matches/{mid}/actions"), ("POST", f"/api/matches/{mid}/undo"),
            ("POST", f"/api/matches/{mid}/takeback"), ("POST", f"/api/matches/{mid}/takeback/answer"),
            ("POST", f"/api/matches/{mid}/draw"), ("POST", f"/api/matches/{mid}/draw/answer"),
            ("POST", f"/api/matches/{mid}/flag"), ("POST", f"/api/matches/{mid}/resign"),
            ("POST", f"/api/matches/{mid}/invites"), ("DELETE", f"/api/matches/{mid}"),
            ("POST", "/api/matches"), ("POST", "/api/matches/import"), ("POST", "/api/invites/lookup"),
            ("POST", "/api/invites/claim")]


@pytest.mark.parametrize("kind", range(len(NOT_JSON)), ids=["form", "text", "multipart"])
def test_every_state_changing_route_refuses_a_body_that_is_not_json(client, kind):
    view = create(client, seats=("human", "human"), take=[0])  # seat 1 invited
    mid = view["id"]
    client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0})
    before = client.get(f"/api/matches/{mid}").json()
    headers, body = NOT_JSON[kind]
    for method, path in acts(mid):
        r = client.request(method, path, content=body, headers={**headers, **bearer(*client.tokens[mid].values())})
        assert r.status_code == 415, (method, path, r.status_code, r.text)
        assert "must be JSON" in r.json()["error"]
    after = client.get(f"/api/matches/{mid}").json()
    assert after["revision"] == before["revision"] and after["status"] == "playing"
    assert client.post("/api/invites/lookup", json={"code": view["invites"][0]["code"]}).json()["claimed"] is False


def test_the_resign_and_undo_of_the_issue_are_refused(client):
    """The two requests issue 14 found succeeding."""
    view = create(client)
    mid, auth = view["id"], bearer(*client.tokens[view["id"]].values())
    client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0})
    assert client.post(f"/api/matches/{mid}/resign", data={"seat": "0"}, headers=auth).status_code == 415
    r = client.post(f"/api/matches/{mid}/undo", content=b"undo", headers={**auth, "content-type": "text/plain"})
    assert r.status_code == 415
    assert client.get(f"/api/matches/{mid}").json()["ply"] == 1


def test_bodies_that_are_not_json_or_not_utf8_are_422(client):
    view = create(client)
    auth = bearer(*client.tokens[view["id"]].values())
    for raw in (b'{"action": "\xff\xfe", "ply": 0}', b"[" * 100_000, b'{"action": '):
        r = client.post(f"/api/matches/{view['id']}/actions", content=raw,
                        headers={**auth, "content-type": "application/json"})
        assert r.status_code == 422 and "not valid JSON" in r.json()["error"]


def test_empty_bodies_and_json_pass(client):
    view = create(client)
    mid, auth = view["id"], bearer(*client.tokens[view["id"]].values())
    assert client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0}, headers=auth).status_code == 200
    assert client.post(f"/api/matches/{mid}/undo", headers=auth).status_code == 200  # no body at all
    r = client.post(f"/api/matches/{mid}/undo", content=b"", headers={**auth, "content-type": "text/plain"})
    assert r.status_code == 409  # an empty body of any type is no body: the undo itself is refused (ply 0)


# --- methods, tokens, schema ---------------------------------------------------------------------
@pytest.mark.parametrize(("method", "path", "allow"), [
    ("POST", "/api/games", "GET"), ("PUT", "/api/matches/abc", "DELETE, GET"), ("GET", "/api/matches/import", "POST"),
    ("OPTIONS", "/api/matches/import", "POST"), ("DELETE", "/api/invites/claim", "POST"),
    ("POST", "/style.css", "GET, HEAD"), ("POST", "/", "GET, HEAD"), ("PATCH", "/api/matches/abc/actions", "POST")])
def test_405_names_the_allowed_methods(client, method, path, allow):
    r = client.request(method, path)
    assert r.status_code == 405 and r.headers["allow"] == allow and "error" in r.json()


def test_an_unknown_api_path_is_404_and_pages_answer_head(client):
    r = client.post("/api/nothing/here", json={})
    assert r.status_code == 404 and "no such endpoint" in r.json()["error"]
    assert client.head("/").status_code == 200 and client.head("/app.js").status_code == 200


def test_an_act_without_a_token_is_401_before_its_body_is_read(client):
    r = client.raw.post("/api/matches/whatever/actions", content=b"{broken", headers={"content-type": "application/json"})
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"


def test_the_schema_states_every_status(client):
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]

    def codes(path, method):
        return set(paths[path][method]["responses"])

    for path, methods in paths.items():
        for method, op in methods.items():
            assert "400" in op["responses"], (method, path)  # a foreign Host header
            for code, answer in op["responses"].items():
                if code.startswith("4"):
                    assert answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorBody"}
    # 503: a write the database refused (read-only, full) or a read (gone): test_server_storage_faults.py;
    # 401 on every /api/ route (a token too long to be one) and 408 on every route with a body (it
    # did not arrive in time): the middleware's, documented by api/openapi.py
    act = {"200", "400", "401", "403", "404", "408", "409", "413", "415", "422", "429", "503"}
    for name in ("actions", "undo", "takeback", "takeback/answer", "draw", "draw/answer", "flag", "resign", "invites"):
        assert codes(f"/api/matches/{{match_id}}/{name}", "post") == act, name
    # 403: a rated game created by someone who is not signed in with an account (issue 41)
    assert codes("/api/matches", "post") == {"201", "400", "401", "403", "404", "408", "413", "415", "422", "429",
                                             "503"}
    # 403: a rated game's seat claimed by someone who is not signed in with an account
    assert codes("/api/invites/claim", "post") == {"200", "400", "401", "403", "404", "408", "410", "413", "415", "422",
                                                   "429", "503"}
    # 409: a game another person has a seat in, or a rated one
    assert codes("/api/matches/{match_id}", "delete") == {"204", "400", "401", "403", "404", "408", "409", "413", "415",
                                                          "422", "429", "503"}
    assert codes("/api/matches/{match_id}", "get") == {"200", "400", "401", "403", "404", "422", "503"}  # a fallen flag
    assert codes("/api/matches/{match_id}/record", "get") == {"200", "400", "401", "404", "409", "422", "503"}
    assert "WWW-Authenticate" in paths["/api/games"]["get"]["responses"]["401"]["headers"]
    assert "Retry-After" in paths["/api/matches"]["post"]["responses"]["429"]["headers"]
    assert "Retry-After" in paths["/api/matches"]["post"]["responses"]["503"]["headers"]
    # reads work without a token (a spectator); acts need one
    assert {} in paths["/api/matches/{match_id}"]["get"]["security"]
    assert paths["/api/matches/{match_id}/actions"]["post"]["security"] == [{"seat token": []}]
    # constraints the server checks are in the schema
    play = schema["components"]["schemas"]["PlayAction"]
    assert play["oneOf"] == [{"required": ["action"]}, {"required": ["actions"]}, {"required": ["turn"]}]
    assert play["properties"]["ply"]["minimum"] == 0
    seat = schema["components"]["schemas"]["CreateMatch"]["properties"]["seats"]["anyOf"][0]["items"]
    assert seat["pattern"] == r"^\s*(human|level:[1-6])\s*$"


# --- abstracta serve -----------------------------------------------------------------------------
def test_serve_on_every_interface_says_so_and_wires_the_options(db_url, monkeypatch, capsys):
    import uvicorn

    from abstracta.server import run

    started = {}

    def serve(server, sockets=None):  # instead of serving: what it would serve
        started.update(app=server.config.app, port=sockets[0].getsockname()[1])
        for sock in sockets:
            sock.close()

    monkeypatch.setattr(uvicorn.Server, "run", serve)
    # uvicorn's own logging set-up (dictConfig) closes every logging handler of the process,
    # pytest's among them: later tests of the same worker then failed with "I/O operation on
    # closed file". What is under test here is the app and the words printed, not the logging.
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)
    run("0.0.0.0", 0, db_url, allowed_hosts=["games.club.example"], rate_limits=False)
    out = capsys.readouterr().out
    assert "REACHABLE BY OTHERS" in out and "--allowed-host" in out and "rate limits are OFF" in out
    middleware = {m.cls: m.kwargs for m in started["app"].user_middleware}
    assert security.RateLimit not in middleware
    policy = middleware[security.Edge]["policy"]
    assert policy.allows("games.club.example:8123") and policy.allows("192.168.1.5") and not policy.allows("evil.example")
    assert middleware[security.Gate]["per_ip"] is None and middleware[security.Gate]["per_match"] == 64

    run("127.0.0.1", 0, db_url)
    out = capsys.readouterr().out
    assert "REACHABLE" not in out and "OFF" not in out
    middleware = {m.cls: m.kwargs for m in started["app"].user_middleware}
    assert security.RateLimit in middleware and not middleware[security.Edge]["policy"].allows("192.168.1.5")


def test_the_serve_command_passes_its_options(monkeypatch):
    from typer.testing import CliRunner

    import abstracta.server
    from abstracta.cli import app

    calls = []
    monkeypatch.setattr(abstracta.server, "run", lambda *a, **kw: calls.append((a, kw)))
    runner = CliRunner()
    assert runner.invoke(app, ["serve", "--allowed-host", "a.example", "--allowed-host", "b.example"]).exit_code == 0
    assert calls[-1][1] == {"allowed_hosts": ["a.example", "b.example"], "rate_limits": True, "redis_url": None,
                            "log_format": "text"}
    assert runner.invoke(app, ["serve", "--no-rate-limits"]).exit_code == 0
    assert calls[-1][1]["rate_limits"] is False
    assert runner.invoke(app, ["serve"], env={"ABSTRACTA_RATE_LIMITS": "off"}).exit_code == 0
    assert calls[-1][1]["rate_limits"] is False
    # a deployment's Redis and JSON log lines (docs/club.md)
    assert runner.invoke(app, ["serve", "--redis", "redis://127.0.0.1:6390/0", "--log-format", "json"]).exit_code == 0
    assert (calls[-1][1]["redis_url"], calls[-1][1]["log_format"]) == ("redis://127.0.0.1:6390/0", "json")
    assert runner.invoke(app, ["serve"], env={"ABSTRACTA_REDIS_URL": "redis://r.example/1"}).exit_code == 0
    assert calls[-1][1]["redis_url"] == "redis://r.example/1"
