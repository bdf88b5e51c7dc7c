"""What a hostile tester found bounded nowhere (server32): the replay of a long game, tokens too
long to be one, game names, and clients that send a body slowly."""

from __future__ import annotations

import pytest
from apiutil import bearer, make_app
from fastapi.testclient import TestClient

from abstracta.core.registry import load_game
from abstracta.server import matches as served_matches
from abstracta.server import views

STONES = 250


def long_game(raw, moves: int, stones: int = STONES) -> tuple[str, str]:
    """A toy-nim match between two people (seat 0's token kept by the creator) after ``moves``
    plies of taking one stone: (id, seat 0's token)."""
    record = {"format": "abstracta-record", "version": 1, "game": "toy-nim", "options": {"stones": stones},
              "players": ["human", "human"], "moves": ["1"] * moves}
    r = raw.post("/api/matches/import", json={"record": record})
    assert r.status_code == 201, r.text
    for invite in r.json()["invites"]:  # the friend joins: the game goes on
        raw.post("/api/invites/claim", json={"code": invite["code"]})
    return r.json()["id"], r.json()["tokens"][0]["token"]


def nim_text(ply: int, stones: int = STONES) -> str:
    """The position text after ``ply`` plies of taking one stone (the rules' own)."""
    state = load_game("toy-nim", stones=stones).new_initial_state()
    for _ in range(ply):
        state.apply_action(state.string_to_action("1"))
    return state.to_text()


# --- 1. the replay of a long game is answered in pages, cached, and rate-limited ------------------
def test_a_long_replay_is_answered_in_pages(client):
    """A 1,666-ply Fibonacci game's replay was one 26 MB answer costing 1.1-1.3 s of CPU each
    time. It now comes in pages of at most REPLAY_PAGE plies."""
    raw = client.raw
    mid, _ = long_game(raw, STONES)
    page = views.REPLAY_PAGE
    first = raw.get(f"/api/matches/{mid}/positions").json()
    assert (first["ply"], first["from"], first["to"]) == (STONES, 0, page - 1)
    assert first["positions"] == [nim_text(p) for p in range(page)] and len(first["structs"]) == page
    assert first["moves"] == ["1"] * STONES  # the move list stays whole: it is small
    last = raw.get(f"/api/matches/{mid}/positions?from=200").json()
    assert (last["from"], last["to"]) == (200, STONES)
    assert last["positions"] == [nim_text(p) for p in range(200, STONES + 1)] and last["positions"][-1].startswith("0 ")
    middle = raw.get(f"/api/matches/{mid}/positions?from=120&to=129").json()
    assert middle["positions"] == [nim_text(p) for p in range(120, 130)]
    assert [s["to_move"] for s in middle["structs"]] == [None if p == STONES else p % 2 for p in range(120, 130)]


@pytest.mark.parametrize("query, words", [
    ("from=10&to=5", "the page ends at ply 5, before it starts (10)"),
    ("from=0&to=100", "at most 100 plies per page (0…100 is 101)"),
    ("from=251", "ply 251 is past the game's last ply (250)"),
    ("to=251", "ply 251 is past the game's last ply (250)"),
    ("from=-1", "from:"),
    ("from=x", "from:"),
])
def test_a_replay_range_that_is_no_page_is_refused(client, query, words):
    mid, _ = long_game(client.raw, STONES)
    r = client.raw.get(f"/api/matches/{mid}/positions?{query}")
    assert r.status_code == 422 and words in r.json()["error"], r.text


def test_a_replay_page_is_computed_once_per_revision_and_viewer(client, monkeypatch):
    """Every request replayed the game again; a page is now kept (per match revision, viewer
    and range) until the match changes."""
    raw, service = client.raw, client.app.state.service
    mid, t0 = long_game(raw, 150)
    calls = []
    original = type(service.views).struct

    def counted(match, state, viewer, shared=None, carried=None):
        calls.append(viewer)
        return original(match, state, viewer, shared, carried)

    monkeypatch.setattr(type(service.views), "struct", staticmethod(counted))
    url = f"/api/matches/{mid}/positions?from=100"
    spectator = raw.get(url).content
    assert len(calls) == 51
    assert raw.get(url).content == spectator and len(calls) == 51  # the same page: nothing replayed
    seat0 = raw.get(url, headers=bearer(t0))
    assert seat0.status_code == 200 and len(calls) == 102  # another viewer: its own page
    assert raw.get(url, headers=bearer(t0)).content == seat0.content and len(calls) == 102
    r = raw.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 150}, headers=bearer(t0))
    assert r.status_code == 200
    before = len(calls)
    after = raw.get(url).json()  # a new revision: the page is computed again, one ply longer
    assert len(calls) - before == 52 and after["to"] == 151 and after["positions"][-1] == nim_text(151)


def test_the_page_cache_keeps_at_most_its_byte_budget():
    cache = views.PageCache(100)
    cache.put("a", b"x" * 40)
    cache.put("b", b"y" * 40)
    assert cache.get("a") == b"x" * 40  # now the most recently used
    cache.put("c", b"z" * 40)  # over budget: the least recently used ("b") goes
    assert cache.get("b") is None and cache.get("a") is not None and cache.get("c") is not None
    cache.put("big", b"w" * 101)  # larger than the whole budget: not kept
    assert cache.get("big") is None and cache.size <= 100


def test_replays_are_rate_limited_per_address(db_url):
    limits = {"replay": ("3/minute", "3/minute")}
    with TestClient(make_app(db_url, limits=limits)) as raw:
        mid, _ = long_game(raw, 10)
        codes = [raw.get(f"/api/matches/{mid}/positions").status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        r = raw.get(f"/api/matches/{mid}/positions")
        assert r.status_code == 429 and "too many requests" in r.json()["error"] and "retry-after" in r.headers
        assert raw.get(f"/api/matches/{mid}").status_code == 200  # the view is cheap: not limited


# --- 2. a token too long to be one is refused, not read as no token --------------------------------
LONG = "a" * 65
TOO_LONG = "a seat token is at most 64 characters (one sent has 65)"


@pytest.mark.parametrize("path", ["/api/matches/{mid}", "/api/matches/{mid}/positions", "/api/matches"])
def test_a_token_too_long_to_be_one_is_refused_on_reads(client, path):
    """It was dropped and the request answered as a spectator's (or as no token's list)."""
    raw = client.raw
    mid, t0 = long_game(raw, 3)
    for auth in (LONG, f"{t0},{LONG}"):
        r = raw.get(path.format(mid=mid), headers={"Authorization": f"Bearer {auth}"})
        assert r.status_code == 401 and r.json()["error"] == TOO_LONG, r.text
        assert r.headers["www-authenticate"] == "Bearer"
    assert raw.get(path.format(mid=mid), headers=bearer(t0)).status_code == 200


def test_a_token_too_long_to_be_one_is_named_on_an_act(client):
    """An act with only such a token was told it carried none ('this needs a seat token')."""
    raw = client.raw
    mid, t0 = long_game(raw, 3)
    before = raw.get(f"/api/matches/{mid}").json()
    r = raw.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 3}, headers={"Authorization": f"Bearer {LONG}"})
    assert r.status_code == 401 and r.json()["error"] == TOO_LONG
    r = raw.post(f"/api/matches/{mid}/resign", headers={"Authorization": f"Bearer {t0},{LONG}"})
    assert r.status_code == 401 and r.json()["error"] == TOO_LONG
    assert raw.get(f"/api/matches/{mid}").json() == before


def test_a_token_too_long_to_be_one_closes_the_websocket(client):
    """The first message's long token was dropped: the socket got the spectator's view."""
    raw = client.raw
    mid, t0 = long_game(raw, 3)
    with raw.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.send_json({"tokens": [t0, LONG]})
        assert ws.receive_json() == {"error": TOO_LONG}
        assert ws.receive()["code"] == 4400  # not 4401: no session ended
    with raw.websocket_connect(f"/api/matches/{mid}/ws") as ws:  # the seat's own token still works
        ws.send_json({"tokens": [t0]})
        assert ws.receive_json()["my_seats"] == [0]
    with raw.websocket_connect(f"/api/matches/{mid}/room") as room:  # the chat's room closes alike
        room.send_json({"tokens": [LONG]})
        assert room.receive_json() == {"error": TOO_LONG}
        assert room.receive()["code"] == 4400


def test_more_tokens_than_a_request_may_carry_are_refused_not_dropped(client):
    """A request with more than TOKEN_LIMIT tokens was answered from the first 200 only: a match
    held by the 201st token was missing from GET /api/matches with no sign. Now 422 names the
    limit; a request of exactly the limit is read whole (what the browser's batches send)."""
    raw = client.raw
    mid, t0 = long_game(raw, 3)
    limit = served_matches.TOKEN_LIMIT
    others = [f"{i:043d}" for i in range(limit)]  # well-formed, held by nothing
    r = raw.get("/api/matches", headers=bearer(*others, t0))
    assert r.status_code == 422, r.text
    assert r.json()["error"] == f"at most {limit} seat tokens are read from one request (this one has {limit + 1})"
    r = raw.get("/api/matches", headers=bearer(*others[1:], t0))
    assert r.status_code == 200 and [(m["id"], m["my_seats"]) for m in r.json()] == [(mid, [0])]
    before = raw.get(f"/api/matches/{mid}").json()
    r = raw.post(f"/api/matches/{mid}/resign", headers=bearer(*others, t0))
    assert r.status_code == 422 and str(limit) in r.json()["error"]
    assert raw.get(f"/api/matches/{mid}").json() == before  # refused: nothing changed


# --- 3. a game name is read one way everywhere: case and surrounding spaces tell nothing ------------
ODD = ["FANORONA", " fanorona", "Fanorona ", "\tFaNoRoNa\n"]


@pytest.mark.parametrize("name", ODD)
def test_a_game_name_is_read_without_case_or_surrounding_spaces_by_the_api(client, name):
    """The decision (core.registry.game_key), checked on every door of the API: the match, its
    record and every answer carry the registered name."""
    raw = client.raw
    r = raw.post("/api/matches", json={"game": name, "options": {"size": "dimy"}, "seats": ["human", "human"]})
    assert r.status_code == 201 and r.json()["game"] == "fanorona"
    record = {"format": "abstracta-record", "version": 1, "game": name, "options": {"size": "dimy"},
              "players": ["human", "human"], "moves": ["d3-c3W"]}
    imported = raw.post("/api/matches/import", json={"record": record}).json()
    assert imported["game"] == "fanorona" and imported["ply"] == 1
    assert raw.get(f"/api/matches/{imported['id']}/record").json()["game"] == "fanorona"
    assert raw.get(f"/api/games/{name.strip()}").json()["name"] == "fanorona"
    start = raw.get(f"/api/matches/{r.json()['id']}").json()["position"]
    analysis = raw.post("/api/analysis", json={"game": name, "options": {"size": "dimy"}, "position": start, "scale": 0.01})
    assert analysis.status_code == 200, analysis.text


@pytest.mark.parametrize("name", ["fanoronaa", "fano rona", "fanorona.", "ＦＡＮＯＲＯＮＡ"])
def test_any_other_name_is_a_404_naming_the_games(client, name):
    r = client.raw.post("/api/matches", json={"game": name, "seats": ["human", "human"]})
    assert r.status_code == 404
    assert r.json()["error"].startswith(f"unknown game {name!r} (games: ") and "fanorona, fibonacci" in r.json()["error"]
    record = {"format": "abstracta-record", "version": 1, "game": name, "moves": []}
    assert client.raw.post("/api/matches/import", json={"record": record}).status_code == 404
    assert client.raw.get(f"/api/games/{name}").status_code == 404


def test_a_game_name_is_read_without_case_or_surrounding_spaces_by_the_cli(tmp_path):
    from typer.testing import CliRunner

    from abstracta.cli import app

    runner = CliRunner()
    plain = runner.invoke(app, ["moves", "fanorona", "-o", "size=dimy"])
    assert plain.exit_code == 0 and plain.output.split()
    for name in ODD:
        assert runner.invoke(app, ["moves", name, "-o", "size=dimy"]).output == plain.output
    record = tmp_path / "r.json"
    record.write_text('{"format": "abstracta-record", "version": 1, "game": " FANORONA ", '
                      '"options": {"size": "dimy"}, "moves": ["d3-c3W"]}')
    replayed = runner.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0 and replayed.output.startswith("Fanorona size=dimy")
    wrong = runner.invoke(app, ["moves", "fanoronaa"])
    assert wrong.exit_code != 0 and "unknown game 'fanoronaa' (games: fanorona, fibonacci" in wrong.output


# --- 4. a body sent slowly is not waited for without end ------------------------------------------
def test_a_body_that_never_arrives_is_answered_408(db_url, monkeypatch):
    """A request that declared more body than it sent was held open for ever (uvicorn has no
    read timeout): now the whole body must arrive within BODY_SECONDS."""
    import socket
    import threading
    import time

    import uvicorn

    from abstracta.server.api import middleware as web
    from abstracta.server import bind

    monkeypatch.setattr(web, "BODY_SECONDS", 1.0)
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(make_app(db_url, rate_limits=False), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.time() + 20
        while not server.started and time.time() < deadline:
            time.sleep(0.05)
        with socket.create_connection(("127.0.0.1", port)) as conn:
            conn.sendall(b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 100\r\n\r\n{\"game\": \"fa")
            conn.settimeout(10)
            started, answer = time.time(), b""
            while True:
                chunk = conn.recv(4096)
                if not chunk:  # closed by the server after its answer
                    break
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 408 "), answer
        assert b"the request body did not arrive within 1 s" in answer
        assert time.time() - started < 5
        with socket.create_connection(("127.0.0.1", port)) as conn:  # a whole body in time is served
            body = b'{"game": "toy-nim", "seats": ["human", "human"]}'
            conn.sendall(b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body[:10])
            time.sleep(0.3)
            conn.sendall(body[10:])
            conn.settimeout(10)
            assert conn.recv(4096).startswith(b"HTTP/1.1 201 ")
    finally:
        server.should_exit = True
        thread.join(10)


def test_more_tokens_than_a_request_may_carry_close_the_websocket(client):
    """The first message of a WebSocket is read as a request's tokens are: more than TOKEN_LIMIT
    is refused (4422, as the README says), not answered from the first ones."""
    raw = client.raw
    mid, t0 = long_game(raw, 3)
    limit = served_matches.TOKEN_LIMIT
    with raw.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.send_json({"tokens": [f"{i:043d}" for i in range(limit)] + [t0]})
        assert ws.receive_json() == {"error": f"at most {limit} seat tokens are read from one request (this one has {limit + 1})"}
        assert ws.receive()["code"] == 4422
    with raw.websocket_connect(f"/api/matches/{mid}/ws") as ws:  # exactly the limit is read whole
        ws.send_json({"tokens": [f"{i:043d}" for i in range(limit - 1)] + [t0]})
        assert ws.receive_json()["my_seats"] == [0]


def test_asking_for_matches_that_do_not_exist_keeps_nothing(client):
    # every id a request named got a lock of its own, kept for ever: reads are not rate-limited,
    # so a client asking for random ids in a loop grew the web process without bound
    service = client.app.state.service
    mid = client.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"]}).json()["id"]
    before = len(service.kernel._locks)
    for i in range(200):
        ghost = f"{i:032x}"
        assert client.raw.get(f"/api/matches/{ghost}").status_code == 404
        assert client.raw.get(f"/api/matches/{ghost}/positions").status_code == 404
        assert client.raw.post(f"/api/matches/{ghost}/actions", json={"action": "1", "ply": 0},
                               headers=bearer("x" * 22)).status_code == 404
    assert len(service.kernel._locks) <= before
    # the locks still do their work: one match, one lock, as long as someone holds it
    with service.locked(mid):
        assert service.lock_for(mid) is service.lock_for(mid)
    assert client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0}).status_code == 200


def test_the_matches_kept_in_memory_are_bounded(client, monkeypatch):
    # every match created or read stayed in the web process's memory for ever (20-110 kB each):
    # matches created at the rate the limits allow grew it without bound
    monkeypatch.setattr(served_matches, "CACHE_MATCHES", 3)
    service = client.app.state.service
    ids = [client.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"]}).json()["id"]
           for _ in range(5)]
    assert list(service.cache) == ids[2:]
    # the first, dropped, is read back when used, and plays on
    view = client.post(f"/api/matches/{ids[0]}/actions", json={"action": "2", "ply": 0}).json()
    assert (view["ply"], view["position"], view["revision"]) == (1, "5 1", 1)
    assert client.get(f"/api/matches/{ids[3]}").status_code == 200  # used: the most recent but one
    assert list(service.cache) == [ids[4], ids[0], ids[3]]
    assert client.get(f"/api/matches/{ids[0]}").json()["moves"] == ["2"]


def test_the_matches_kept_in_memory_are_bounded_by_their_actions_too(client, monkeypatch):
    # a cache full by count still grew as the games it held went on (a kept match grows with its
    # actions): the actions held are bounded as well, the least recently used match dropped first
    monkeypatch.setattr(served_matches, "CACHE_PLIES", 2)
    service = client.app.state.service
    ids = [client.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"]}).json()["id"]
           for _ in range(3)]
    assert list(service.cache) == ids and service.kernel.cached_plies == 0
    for mid in ids[:2]:
        assert client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0}).status_code == 200
    assert list(service.cache) == [ids[2], ids[0], ids[1]] and service.kernel.cached_plies == 2
    # ids[1] moves on: 3 actions held, over the bound: the least recently used go until it holds
    assert client.post(f"/api/matches/{ids[1]}/actions", json={"action": "1", "ply": 1}).status_code == 200
    assert list(service.cache) == [ids[1]] and service.kernel.cached_plies == 2
    # a dropped match is read back whole when next used, and plays on
    view = client.post(f"/api/matches/{ids[0]}/actions", json={"action": "2", "ply": 1}).json()
    assert (view["ply"], view["moves"], view["revision"]) == (2, ["1", "2"], 2)
    assert list(service.cache) == [ids[0]] and service.kernel.cached_plies == 2
    # a match longer than the whole bound is still kept (alone)
    assert client.post(f"/api/matches/{ids[0]}/actions", json={"action": "1", "ply": 2}).status_code == 200
    assert list(service.cache) == [ids[0]] and service.kernel.cached_plies == 3
    assert client.get(f"/api/matches/{ids[2]}").json()["ply"] == 0
    assert list(service.cache) == [ids[2]] and service.kernel.cached_plies == 0
