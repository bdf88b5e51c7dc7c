"""The analysis board's API (issue 16 §1): POST /api/analysis and /api/analysis/graph."""

from __future__ import annotations

import json
import random

import pytest
from apiutil import Creator, bearer, make_app, wait_for

from abstracta.core.records import Record
from abstracta.core.registry import load_game

DIMY = {"size": "dimy"}


@pytest.fixture
def client(db_url: str):
    from fastapi.testclient import TestClient


    # small budgets: these tests check who may ask what, not the strength of the answer
    with TestClient(make_app(db_url, rate_limits=False, analysis_scale=0.02)) as c:
        yield Creator(c)


def finished_record(name: str = "fanorona", options: dict | None = None, seed: int = 1) -> dict:
    game = load_game(name, **(options if options is not None else DIMY))
    state = game.new_initial_state()
    initial = state.clone()
    rng = random.Random(seed)
    actions = []
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        actions.append(action)
        state.apply_action(action)
    return Record.from_play(game, initial, actions, players=["human", "human"],
                            result=state.returns(), termination="normal").to_dict()


def replay_line(state, answer) -> None:
    """Every action of the answer's line is legal in sequence from ``state`` (the engine says)."""
    s = state.clone()
    for turn in answer["line"]:
        for text in turn["actions"]:
            assert s.current_player() == turn["player"]
            s.apply_action(s.string_to_action(text))


def test_any_ply_of_a_finished_match_for_anyone(client) -> None:
    view = client.post("/api/matches/import", json={"record": finished_record()}).json()
    mid, plies = view["id"], view["ply"]
    assert view["status"] == "over" and plies > 4
    game = load_game("fanorona", **DIMY)
    state = game.new_initial_state()
    actions = [state.string_to_action(view["moves"][0])]
    for ply in (0, 1, plies // 2):
        s = game.new_initial_state()
        for text in view["moves"][:ply]:
            s.apply_action(s.string_to_action(text))
        r = client.raw.post("/api/analysis", json={"match_id": mid, "ply": ply})  # a stranger: no token
        assert r.status_code == 200, r.text
        a = r.json()
        assert a["ply"] == ply and a["to_move"] == s.current_player() and not a["terminal"]
        assert all(-1 <= v <= 1 for v in a["values"]) and a["value"] == a["values"][a["to_move"]]
        assert a["line"] and a["line"][0]["player"] == s.current_player()
        assert a["search"].startswith("alphabeta:n")
        replay_line(s, a)
    end = client.raw.post("/api/analysis", json={"match_id": mid}).json()
    assert end["ply"] == plies and end["terminal"] and end["line"] == []
    assert end["values"] == view["result"]
    assert actions  # the record replays through the engine


def test_same_request_same_answer(client) -> None:
    mid = client.post("/api/matches/import", json={"record": finished_record(seed=2)}).json()["id"]
    one = client.raw.post("/api/analysis", json={"match_id": mid, "ply": 3}).json()
    two = client.raw.post("/api/analysis", json={"match_id": mid, "ply": 3}).json()
    assert one == two


def test_graph_of_a_finished_match(client) -> None:
    view = client.post("/api/matches/import", json={"record": finished_record(seed=3)}).json()
    r = client.raw.post("/api/analysis/graph", json={"match_id": view["id"]})
    assert r.status_code == 200, r.text
    g = r.json()
    plies = [p["ply"] for p in g["points"]]
    assert plies[0] == 0 and plies[-1] == view["ply"] and plies == sorted(set(plies))
    # one point per turn start: where the seat to move changed
    movers = view["movers"]
    starts = [0] + [i for i in range(1, len(movers)) if movers[i] != movers[i - 1]] + [view["ply"]]
    assert plies == starts
    assert all(len(p["values"]) == 2 and all(-1 <= v <= 1 for v in p["values"]) for p in g["points"])
    assert g["points"][-1]["terminal"] and g["points"][-1]["values"] == view["result"]


def test_a_hint_that_names_no_turn_is_not_counted(client, monkeypatch) -> None:
    # the analysis answers without a line (e.g. nothing found in time): no hint was given
    from abstracta.server.analysis import Analysis

    real = Analysis._run_analysis

    def no_line(self, *args, **kwargs):
        return [{**a, "line": []} for a in real(self, *args, **kwargs)]

    view = client.post("/api/matches", json={"game": "fanorona", "options": DIMY,
                                             "seats": ["human", "level:1"]}).json()
    mid, token = view["id"], view["tokens"][0]["token"]
    monkeypatch.setattr(Analysis, "_run_analysis", no_line)
    r = client.raw.post("/api/analysis", json={"match_id": mid, "hint": True}, headers=bearer(token))
    assert r.status_code == 200, r.text
    assert r.json()["hints"] == [0, 0] and r.json()["line"] == []
    assert client.get(f"/api/matches/{mid}").json()["hints"] is None
    monkeypatch.setattr(Analysis, "_run_analysis", real)
    r = client.raw.post("/api/analysis", json={"match_id": mid, "hint": True}, headers=bearer(token))
    assert r.json()["hints"] == [1, 0]


def test_the_counts_of_a_hint_not_given_are_read_under_the_matchs_lock(client, monkeypatch) -> None:
    # load() may rebuild the match from the store and cache it: without the lock a move stored
    # meanwhile could be replaced in the cache by the older copy (PostgreSQL, several processes)
    from abstracta.server.analysis import Analysis
    from abstracta.server.matches import Kernel

    real_run, real_load = Analysis._run_analysis, Kernel.load
    unlocked = []

    def no_line(self, *args, **kwargs):
        return [{**a, "line": []} for a in real_run(self, *args, **kwargs)]

    def watched_load(self, match_id, fresh=False):
        if not self.lock_for(match_id)._is_owned():
            unlocked.append(match_id)
        return real_load(self, match_id, fresh)

    view = client.post("/api/matches", json={"game": "fanorona", "options": DIMY,
                                             "seats": ["human", "level:1"]}).json()
    mid, token = view["id"], view["tokens"][0]["token"]
    monkeypatch.setattr(Analysis, "_run_analysis", no_line)
    monkeypatch.setattr(Kernel, "load", watched_load)
    r = client.raw.post("/api/analysis", json={"match_id": mid, "hint": True}, headers=bearer(token))
    assert r.status_code == 200 and r.json()["hints"] == [0, 0], r.text
    assert unlocked == []


def test_a_hint_for_a_position_changed_meanwhile_is_not_counted(client, monkeypatch) -> None:
    # a move from another tab while the hint was searched: the hint answered a position that is
    # gone, and was counted all the same (and given as if current)
    from abstracta.server.analysis import Analysis

    real = Analysis._run_analysis
    view = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 12},
                                             "seats": ["human", "level:1"]}).json()
    mid, token = view["id"], view["tokens"][0]["token"]

    def another_tab_moves(self, *args, **kwargs):
        answers = real(self, *args, **kwargs)
        client.raw.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0}, headers=bearer(token))
        wait_for(client, mid, lambda v: v["human_to_move"])  # and the computer's reply
        return answers

    monkeypatch.setattr(Analysis, "_run_analysis", another_tab_moves)
    r = client.raw.post("/api/analysis", json={"match_id": mid, "hint": True}, headers=bearer(token))
    assert r.status_code == 409, r.text
    assert r.json() == {"error": "the position changed while the hint was searched (now at ply 2): "
                                 "it was not counted; ask again",
                        "i18n": {"key": "error.hint_stale", "params": {"ply": 2}}, "ply": 2}
    view = client.get(f"/api/matches/{mid}").json()
    assert (view["ply"], view["hints"], view["revision"]) == (2, None, 2)
    assert "Hints" not in Record.from_json(client.app.state.service.store.get(mid).record).tags
    # a hint on the position as it stays is counted
    monkeypatch.setattr(Analysis, "_run_analysis", real)
    r = client.raw.post("/api/analysis", json={"match_id": mid, "hint": True}, headers=bearer(token))
    assert r.status_code == 200 and (r.json()["ply"], r.json()["hints"]) == (2, [1, 0]), r.text


def test_a_hint_counted_is_stored(client) -> None:
    # the Hints tag changed only the match in memory: the record row is rewritten when the result,
    # termination or players change, not the tags, so a restart (or another process, or the
    # match dropped from memory) read the match back without its hints
    view = client.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "level:1"]}).json()
    mid, token = view["id"], view["tokens"][0]["token"]
    r = client.raw.post("/api/analysis", json={"match_id": mid, "hint": True}, headers=bearer(token))
    assert r.status_code == 200 and r.json()["hints"] == [1, 0], r.text
    service = client.app.state.service
    service.evict(mid)
    view = client.get(f"/api/matches/{mid}").json()
    assert (view["hints"], view["revision"]) == ([1, 0], 1)
    assert Record.from_json(service.store.get(mid).record).tags["Hints"] == "1,0"
    # a move after it keeps it, stored as a move row
    client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0})
    wait_for(client, mid, lambda v: v["human_to_move"] or v["status"] == "over")
    service.evict(mid)
    assert client.get(f"/api/matches/{mid}").json()["hints"] == [1, 0]


def test_hint_against_the_computer_is_counted_in_the_tags(client) -> None:
    view = client.post("/api/matches", json={"game": "fanorona", "options": DIMY,
                                             "seats": ["human", "level:1"]}).json()
    mid, token = view["id"], view["tokens"][0]["token"]
    assert view["hints"] is None
    r = client.raw.post("/api/analysis", json={"match_id": mid, "hint": True}, headers=bearer(token))
    assert r.status_code == 200, r.text
    a = r.json()
    assert a["hints"] == [1, 0] and a["viewer"] == 0 and a["ply"] == 0
    first = a["line"][0]["actions"][0]
    assert first in view["legal"]
    view = client.get(f"/api/matches/{mid}").json()
    assert view["hints"] == [1, 0]
    client.post(f"/api/matches/{mid}/actions", json={"action": first, "ply": 0})
    view = wait_for(client, mid, lambda v: v["human_to_move"] or v["status"] == "over")
    record = json.loads(client.get(f"/api/matches/{mid}/record").text)
    assert record["tags"]["Hints"] == "1,0"
    # an earlier position may be analysed (not a hint), a hint on an earlier ply is refused
    assert client.raw.post("/api/analysis", json={"match_id": mid, "ply": 0},
                           headers=bearer(token)).status_code == 200
    r = client.raw.post("/api/analysis", json={"match_id": mid, "ply": 0, "hint": True}, headers=bearer(token))
    assert r.status_code == 409 and "current position" in r.json()["error"]
    assert client.get(f"/api/matches/{mid}").json()["hints"] == [1, 0]
    # a later ply than the game has is refused
    r = client.raw.post("/api/analysis", json={"match_id": mid, "ply": view["ply"] + 1}, headers=bearer(token))
    assert r.status_code == 422
    # without the seat's token: 401
    assert client.raw.post("/api/analysis", json={"match_id": mid}).status_code == 401


def test_refused_in_a_running_game_between_people(client) -> None:
    raw = client.raw
    view = raw.post("/api/matches", json={"game": "fanorona", "options": DIMY, "seats": ["human", "human"]}).json()
    mid, t0 = view["id"], view["tokens"][0]["token"]
    t1 = raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()["tokens"][0]["token"]
    for headers in (bearer(t0), bearer(t1), bearer(t0, t1)):
        r = raw.post("/api/analysis", json={"match_id": mid}, headers=headers)
        if headers == bearer(t0, t1):  # one device holding both people's seats is still two people
            assert r.status_code == 409
        assert r.status_code == 409 and "between people" in r.json()["error"], r.text
    assert raw.post("/api/analysis/graph", json={"match_id": mid}, headers=bearer(t0)).status_code == 409
    before = raw.get(f"/api/matches/{mid}").json()["revision"]
    assert raw.get(f"/api/matches/{mid}").json()["revision"] == before


def test_pasted_position(client) -> None:
    game = load_game("fanorona", **DIMY)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    text = state.to_text()
    r = client.raw.post("/api/analysis", json={"game": "fanorona", "options": DIMY, "position": text})
    assert r.status_code == 200, r.text
    a = r.json()
    assert a["to_move"] == state.current_player() and a["viewer"] == state.current_player()
    replay_line(state, a)
    assert client.raw.post("/api/analysis", json={"game": "fanorona", "options": DIMY,
                                                  "position": text}).json() == a


@pytest.mark.parametrize("body, status, words", [
    ({"game": "fanorona", "options": DIMY, "position": "BBB../nonsense"}, 422, "not a fanorona position"),
    ({"game": "fanorona", "options": DIMY, "position": ""}, 422, "position text"),
    ({"game": "no-such-game", "position": "x"}, 404, "no-such-game"),
    ({"game": "fanorona", "options": {"size": "huge"}, "position": "x"}, 422, "huge"),
    ({"game": "fanorona", "options": DIMY, "position": "x", "hint": True}, 422, "hints"),
    ({}, 422, "either"),
    ({"match_id": "nope"}, 404, "nope"),
    ({"game": "fanorona", "position": "x", "scale": 2}, 422, "scale"),
])
def test_bad_requests_get_a_clear_error_and_change_nothing(client, body, status, words) -> None:
    before = client.get("/api/matches").json()
    r = client.raw.post("/api/analysis", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert client.get("/api/matches").json() == before


def test_hidden_cards_of_the_computer_never_in_the_answer(client) -> None:
    for seed in range(3):
        view = client.post("/api/matches", json={"game": "fibonacci-cards", "options": {"seed": seed},
                                                 "seats": ["human", "level:1"]}).json()
        mid, token = view["id"], view["tokens"][0]["token"]
        view = wait_for(client, mid, lambda v: v["human_to_move"] or v["status"] == "over")
        service = client.raw.app.state.service
        parts = [p.strip() for p in service.load(mid).state.to_text().split("|")]
        hidden = {c for c in (parts[2] + "," + parts[3]).split(",") if c}  # seat 1's hand and the stock
        r = client.raw.post("/api/analysis", json={"match_id": mid}, headers=bearer(token))
        assert r.status_code == 200, r.text
        text = r.text
        named = {c for c in hidden if f'"{c}' in text}
        assert not named, f"hidden cards {named} in {text}"
        assert r.json()["viewer"] == 0


def test_a_client_runs_a_bounded_number_of_analyses(client) -> None:
    from abstracta.server.analysis import ANALYSIS_PER_CLIENT

    service = client.raw.app.state.service
    service.analysis._asking[("testclient", "")] = ANALYSIS_PER_CLIENT  # as if that many were running
    r = client.raw.post("/api/analysis", json={"game": "fanorona", "options": DIMY,
                                               "position": load_game("fanorona", **DIMY).new_initial_state().to_text()})
    assert r.status_code == 429 and "wait" in r.json()["error"] and r.headers["retry-after"] == "2"
    assert r.json()["i18n"] == {"key": "error.analyses_busy", "params": {"n": ANALYSIS_PER_CLIENT}}
    service.analysis._asking.pop(("testclient", ""))
    r = client.raw.post("/api/analysis", json={"game": "fanorona", "options": DIMY,
                                               "position": load_game("fanorona", **DIMY).new_initial_state().to_text()})
    assert r.status_code == 200 and service.analysis.analysing == {} and service.analysis._asking == {}


def test_the_schema_states_who_may_ask_and_what_a_request_holds(client) -> None:
    """A finished match or a pasted position needs no token, and the body's rules the server
    checks without the game (a match or a pasted position, not both; a scale in (0, 1]) are in
    /openapi.json, so a client (or schemathesis) reading it sends no request it must refuse."""
    schema = client.raw.get("/openapi.json").json()
    for path in ("/api/analysis", "/api/analysis/graph"):
        assert {} in schema["paths"][path]["post"]["security"], path
    jsonschema = pytest.importorskip("jsonschema")

    def valid(name: str, body: dict) -> bool:
        root = {"$ref": f"#/components/schemas/{name}", "components": schema["components"]}
        return jsonschema.Draft202012Validator(root).is_valid(body)

    for body in ({"match_id": "abc"}, {"match_id": "abc", "ply": 3, "scale": 1}, {"match_id": "abc", "position": None},
                 {"game": "fanorona", "position": "x"}, {"game": "fanorona", "options": DIMY, "position": "x", "seat": 1}):
        assert valid("AnalysisRequest", body), body
    refused = ({}, {"match_id": None}, {"match_id": "abc", "position": "x"}, {"game": "fanorona"}, {"position": "x"},
               {"game": "fanorona", "position": "x", "hint": True}, {"match_id": "abc", "scale": 0},
               {"match_id": "abc", "scale": 1.5})
    for body in refused:
        assert not valid("AnalysisRequest", body), body
        assert client.raw.post("/api/analysis", json=body).status_code == 422, body
    assert valid("GraphRequest", {"match_id": "abc", "scale": 0.5})
    for body in ({"match_id": "abc", "scale": 0}, {"match_id": "abc", "scale": 2}):
        assert not valid("GraphRequest", body), body
        assert client.raw.post("/api/analysis/graph", json=body).status_code == 422, body


def test_an_analysis_whose_asker_has_gone_is_stopped_and_no_longer_counted(db_url) -> None:
    """A page reloaded or closed during an analysis left its search running on the server for up
    to ANALYSIS_TIMEOUT, counted against its client: the reloaded page's analysis was refused
    ("2 analyses of yours are running"). A live server (a closed connection is what a browser's
    reload does; the TestClient cannot close one): the searches of two requests whose
    connections closed are cancelled, and the client's next request is answered."""
    import socket
    import threading
    import time

    import httpx
    import uvicorn

    from abstracta.server import bind
    from abstracta.server.analysis import ANALYSIS_PER_CLIENT

    app = make_app(db_url, rate_limits=False, analysis_scale=0.02)
    service = app.state.service
    executor = service.jobs.executor  # bot_workers=0: the deep lane's one thread
    real_run = executor.run
    holding = True
    began: list[int] = []
    stopped: list[int] = []

    def long_search(job, stop):
        """A search that goes on until it is asked to stop, as a whole budget on a loaded machine."""
        if not holding:
            return real_run(job, stop)
        began.append(job.id)
        if stop.wait(60):
            stopped.append(job.id)
        return "[]"

    executor.run = long_search
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()

    def until(pred, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    body = json.dumps({"game": "fanorona", "options": DIMY,
                       "position": load_game("fanorona", **DIMY).new_initial_state().to_text()}).encode()
    try:
        assert until(lambda: server.started, 20)
        for n in range(1, ANALYSIS_PER_CLIENT + 1):
            with socket.create_connection(("127.0.0.1", port)) as conn:
                conn.sendall(b"POST /api/analysis HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                             b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
                assert until(lambda: service.jobs.summary()["submitted"] == n, 10)
                if n == 1:
                    assert until(lambda: began, 10)
                    assert service.analyses_running("127.0.0.1") == 1
            # the connection is closed here, its answer not read: the page has gone
        # a reload's new request comes well within a second; ANALYSIS_TIMEOUT is 120 s
        assert until(lambda: service.analyses_running("127.0.0.1") == 0, 5), service.analyses_running()
        summary = service.jobs.summary()
        assert summary["cancelled"] == ANALYSIS_PER_CLIENT and summary["answered"] == 0
        # the first one was searching (the deep lane's one slot) and was told to stop; the second,
        # queued behind it, was dropped, or was told to stop too if it began meanwhile
        assert until(lambda: service.jobs.summary()["running"] == 0, 5)
        assert began[0] in stopped and sorted(stopped) == sorted(began)
        holding = False
        answer = httpx.post(f"http://127.0.0.1:{port}/api/analysis", content=body,
                            headers={"Content-Type": "application/json"}, timeout=60)
        assert answer.status_code == 200, answer.text
        assert answer.json()["ply"] == 0 and answer.json()["line"]
        assert service.analyses_running() == 0 and service.jobs.summary()["answered"] == 1
    finally:
        server.should_exit = True
        thread.join(10)


def test_analyses_are_counted_per_browser_and_bounded_per_address(client) -> None:
    """A club behind one router is one address: two running analyses per address made its
    people wait for each other (issue 38 item 2). Each browser (the session it names, or the
    seat tokens it sends) runs ANALYSIS_PER_CLIENT; the address, all of them together,
    ANALYSIS_PER_ADDRESS, so that inventing sessions gains nothing past it."""
    from abstracta.server.analysis import ANALYSIS_PER_ADDRESS, ANALYSIS_PER_CLIENT

    service = client.raw.app.state.service
    body = {"game": "fanorona", "options": DIMY, "position": load_game("fanorona", **DIMY).new_initial_state().to_text(),
            "scale": 0.05}

    def ask(session: str | None = None, **headers):
        if session is not None:
            headers["X-Abstracta-Session"] = session
        return client.raw.post("/api/analysis", json=body, headers=headers)

    assert ANALYSIS_PER_ADDRESS > ANALYSIS_PER_CLIENT
    service.analysis._asking[("testclient", "session:alice-browser")] = ANALYSIS_PER_CLIENT
    service.analysis.analysing["testclient"] = ANALYSIS_PER_CLIENT
    refused = ask("alice-browser")
    assert refused.status_code == 429 and refused.json()["i18n"]["key"] == "error.analyses_busy"
    assert refused.headers["retry-after"] == "2"
    assert ask("bob-browser").status_code == 200  # another person behind the same address
    assert ask().status_code == 200  # a client naming no session counts as the address's own asker
    assert ask("no").status_code == 200  # a malformed session is no session: the address's own
    # the address's bound: every asker there together
    service.analysis.analysing["testclient"] = ANALYSIS_PER_ADDRESS
    refused = ask("carol-browser")
    assert refused.status_code == 429
    assert refused.json()["i18n"] == {"key": "error.analyses_busy_address", "params": {"n": ANALYSIS_PER_ADDRESS}}
    service.analysis.analysing["testclient"] = ANALYSIS_PER_CLIENT
    service.analysis._asking.clear()
    assert ask("alice-browser").status_code == 200
    assert service.analysis._asking == {} and service.analysis.analysing == {"testclient": ANALYSIS_PER_CLIENT}
    service.analysis.analysing.clear()


def test_the_asker_is_the_seat_tokens_else_the_session():
    from abstracta.server.api.deps import asker_of

    assert asker_of(["t2", "t1"], "alice-browser") == asker_of(["t1", "t2"], None)
    assert asker_of(["t1"], None).startswith("token:") and "t1" not in asker_of(["t1"], None)
    assert asker_of([], "alice-browser") == "session:alice-browser"
    assert asker_of([], "x" * 65) == asker_of([], "a b c d e") == asker_of([], None) == ""
