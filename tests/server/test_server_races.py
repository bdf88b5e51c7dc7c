"""Undo, takebacks and other changes racing a computer's answer (the bot finds its move in a
worker; the answer is applied when it arrives). Whatever the interleaving, the stored match, the
"Your games" row, the live view, the WebSocket and the replay pages agree; no move is lost or
played twice; an answer found for a position that is gone is never played; a computer still to
move is never left without a search.

An answer is held deterministically by wrapping the computer's ``apply_answer`` (the one applier
thread runs it): the bot has answered, its move is not applied yet."""

from __future__ import annotations

import contextlib
import threading
import time

import pytest
from fastapi.testclient import TestClient

from apiutil import Creator, make_app, wait_for

from abstracta.server.service import MatchService
from abstracta.server.storage import Store


class Held:
    """Computer answers held before they are applied, until :meth:`release`."""

    def __init__(self, service: MatchService, monkeypatch: pytest.MonkeyPatch):
        self.service = service
        self.arrived = threading.Event()
        self._release = threading.Event()
        self.jobs: list = []
        original = service.computer.apply_answer

        def held(job, text, note):
            self.jobs.append((job, text))
            self.arrived.set()
            self._release.wait(20)
            original(job, text, note)

        monkeypatch.setattr(service.computer, "apply_answer", held)

    def wait(self) -> None:
        assert self.arrived.wait(10), "the computer never answered"

    def release(self) -> None:
        """Let the held answers through and wait until the applier has dealt with them."""
        self._release.set()
        self.service.computer.applier.submit(lambda: None).result(20)


@pytest.fixture
def hold(monkeypatch):
    """``hold(service)``: that service's computer answers held (released at the end at the latest)."""
    made: list[Held] = []

    def make(service: MatchService) -> Held:
        made.append(Held(service, monkeypatch))
        return made[-1]

    yield make
    for held in made:
        held._release.set()


def service_of(client) -> MatchService:
    return client.app.state.service


def nibble(client, seats=("human", "level:1")) -> dict:
    view = client.post("/api/matches", json={"game": "nibble", "options": {"first_player": "0"},
                                             "seats": list(seats)}).json()
    assert view["human_to_move"] and view["ply"] == 0
    return view


def single(view: dict, index: int = 0) -> str:
    """A legal whole turn of one disc (Nibble: a take that may be followed by more of its colour)."""
    return [t for t in view["turns"] if "+" not in t][index]


def take(client, mid: str, turn: str, ply: int = 0) -> dict:
    """Play the person's whole turn ``turn`` as the board does: the take and ``end``, or the
    take alone when it ends the turn by itself (then the first try changes nothing: 422)."""
    for body in ({"actions": [turn, "end"], "ply": ply}, {"action": turn, "ply": ply}):
        r = client.post(f"/api/matches/{mid}/actions", json=body)
        if r.status_code != 422:
            assert r.status_code == 200, r.text
            view = r.json()
            assert not view["human_to_move"] and view["ply"] == ply + len(body.get("actions", [turn]))
            return view
    raise AssertionError(r.text)


def agreed(client, db_url: str, mid: str) -> dict:
    """The match as every reader sees it, after checking that they agree: the view, the "Your
    games" row, the stored row, the match rebuilt from the store by another service, the first
    WebSocket view and the replay page. Returns the view."""
    view = client.get(f"/api/matches/{mid}").json()
    listed = [r for r in client.get("/api/matches").json() if r["id"] == mid]
    assert len(listed) == 1
    listed = listed[0]
    page = client.get(f"/api/matches/{mid}/positions").json()
    with client.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        pushed = ws.receive_json()
    store = Store(db_url)
    try:
        row = store.get(mid)
        rebuilt = MatchService(store, bot_workers=0).load(mid)
    finally:
        store.dispose()
    ply, moves = view["ply"], view["moves"]
    movers = view["movers"]
    turns = sum(1 for p in range(ply) if p == 0 or movers[p] != movers[p - 1])  # as the move list groups them
    assert (listed["ply"], listed["turns"], listed["status"]) == (ply, turns, view["status"])
    assert (row.plies, row.turns, row.revision, row.status) == (ply, turns, view["revision"], view["status"])
    assert (rebuilt.strings, rebuilt.revision) == (moves, view["revision"])
    assert (page["ply"], page["revision"], page["moves"], len(page["positions"])) == (ply, view["revision"], moves,
                                                                                       ply + 1)
    assert page["positions"][-1] == view["position"]
    assert (pushed["ply"], pushed["revision"], pushed["moves"], pushed["thinking"]) == \
        (ply, view["revision"], moves, view["thinking"])
    # nobody is left waiting: a computer to move is thinking, a person to move is not waited on
    playing = view["status"] == "playing"
    assert view["thinking"] == (playing and not view["human_to_move"]), view
    return view


def settled(client, mid: str, timeout: float = 10.0) -> dict:
    """The view once no computer is thinking (a person to move, or the game over)."""
    return wait_for(client, mid, lambda v: not v["thinking"], timeout=timeout)


# --- undo against the computer ----------------------------------------------------------------
def test_undo_before_the_computers_answer_is_applied_drops_the_answer(client, db_url, hold):
    service = service_of(client)
    held = hold(service)
    view = nibble(client)
    mid = view["id"]
    view = take(client, mid, single(view))
    assert view["thinking"]
    held.wait()  # the computer has its move
    view = client.post(f"/api/matches/{mid}/undo").json()
    assert (view["ply"], view["moves"], view["thinking"]) == (0, [], False)
    held.release()
    time.sleep(0.2)
    view = agreed(client, db_url, mid)
    assert (view["ply"], view["moves"], view["revision"]) == (0, [], 2)  # created, moved, undone: not answered
    assert [job.revision for job, _ in held.jobs] == [1]


def test_the_same_move_played_again_after_an_undo_gets_a_fresh_answer(client, db_url, hold):
    """The position after the replayed move is the one the held answer was found for, but at
    another revision: that answer is not played (the new search's is, once)."""
    service = service_of(client)
    held = hold(service)
    view = nibble(client)
    mid, first = view["id"], single(view)
    mine = take(client, mid, first)["moves"]
    held.wait()
    client.post(f"/api/matches/{mid}/undo")
    view = take(client, mid, first)
    assert (view["moves"], view["revision"], view["thinking"]) == (mine, 3, True)
    held.release()
    settled(client, mid)
    view = agreed(client, db_url, mid)
    # the computer's turn played once, from the second search: its first action at revision 3
    assert view["moves"][: len(mine)] == mine and view["ply"] > len(mine)
    assert [job.revision for job, _ in held.jobs][:2] == [1, 3]
    assert view["revision"] == 3 + view["ply"] - len(mine)
    # every answer but the first (for revision 1) played once: one computer action each
    assert view["ply"] - len(mine) == len(held.jobs) - 1
    assert view["movers"][len(mine):] == [1] * (view["ply"] - len(mine)) and view["human_to_move"]


def test_undo_while_the_computers_move_is_being_stored_waits_for_it(client, db_url, monkeypatch):
    """The answer is being applied (the match's lock held, its commit under way) when the undo
    comes: the undo waits and takes back both moves, never half of them."""
    service = service_of(client)
    store = service.store
    commit = store.commit
    storing, go_on = threading.Event(), threading.Event()

    def slow_commit(*args, **kwargs):
        if threading.current_thread().name.startswith("bot-apply"):
            storing.set()
            go_on.wait(20)
        return commit(*args, **kwargs)

    monkeypatch.setattr(store, "commit", slow_commit)
    view = nibble(client)
    mid = view["id"]
    take(client, mid, single(view))
    assert storing.wait(10)
    answer = {}
    undo = threading.Thread(target=lambda: answer.update(r=client.post(f"/api/matches/{mid}/undo")))
    undo.start()
    time.sleep(0.3)
    assert undo.is_alive()  # waiting for the match's lock
    go_on.set()
    undo.join(10)
    r = answer["r"]
    assert r.status_code == 200 and r.json()["ply"] == 0
    view = agreed(client, db_url, mid)
    assert (view["ply"], view["moves"]) == (0, [])


def test_undo_right_after_the_answer_and_a_second_undo(client, db_url):
    view = nibble(client)
    mid = view["id"]
    take(client, mid, single(view))
    view = settled(client, mid)
    assert agreed(client, db_url, mid)["moves"] == view["moves"]
    revision = view["revision"]
    view = client.post(f"/api/matches/{mid}/undo").json()
    assert (view["ply"], view["revision"]) == (0, revision + 1)
    r = client.post(f"/api/matches/{mid}/undo")
    assert r.status_code == 409 and "no earlier turn" in r.json()["error"]
    view = agreed(client, db_url, mid)
    assert (view["ply"], view["moves"], view["revision"]) == (0, [], revision + 1)  # the refused undo changed nothing


@pytest.mark.parametrize("first", ["resign", "undo"])
def test_undo_racing_a_resignation(client, db_url, hold, first):
    service = service_of(client)
    held = hold(service)
    view = nibble(client)
    mid = view["id"]
    mine = take(client, mid, single(view))["moves"]
    held.wait()
    if first == "resign":
        assert client.post(f"/api/matches/{mid}/resign", json={"seat": 0}).status_code == 200
        r = client.post(f"/api/matches/{mid}/undo")
        assert r.status_code == 409 and "resigned" in r.json()["error"]
    else:
        assert client.post(f"/api/matches/{mid}/undo").status_code == 200
        assert client.post(f"/api/matches/{mid}/resign", json={"seat": 0}).status_code == 200
    held.release()
    view = agreed(client, db_url, mid)
    assert view["status"] == "over" and view["termination"] == "resignation" and view["result"] == [-1.0, 1.0]
    assert view["moves"] == (mine if first == "resign" else [])  # the held answer never played


def test_two_tabs_of_the_same_player(client, db_url, hold):
    """Tab A undoes while the computer's answer is held; tab B (same tokens) still shows ply 1:
    its undo and its move chosen at ply 1 are refused, its socket gets the taken-back view."""
    service = service_of(client)
    held = hold(service)
    view = nibble(client)
    mid = view["id"]
    take(client, mid, single(view))
    held.wait()
    with client.websocket_connect(f"/api/matches/{mid}/ws") as tab_b:
        seen = tab_b.receive_json()
        assert seen["ply"] > 0 and seen["thinking"]
        stale = seen["ply"]
        assert client.post(f"/api/matches/{mid}/undo").json()["ply"] == 0  # tab A
        seen = tab_b.receive_json()
        assert (seen["ply"], seen["moves"], seen["thinking"], seen["human_to_move"]) == (0, [], False, True)
        r = client.post(f"/api/matches/{mid}/undo")  # tab B, a moment later
        assert r.status_code == 409 and "no earlier turn" in r.json()["error"]
        r = client.post(f"/api/matches/{mid}/actions", json={"action": "end", "ply": stale})
        assert r.status_code == 409 and r.json()["ply"] == 0
        held.release()
    view = agreed(client, db_url, mid)
    assert (view["ply"], view["revision"]) == (0, 2)


def test_two_tabs_undoing_at_once_take_back_one_turn(client, db_url, hold):
    service = service_of(client)
    held = hold(service)
    view = nibble(client)
    mid = view["id"]
    take(client, mid, single(view))
    held.wait()
    barrier = threading.Barrier(2)
    answers = []

    def tab():
        barrier.wait()
        answers.append(client.post(f"/api/matches/{mid}/undo").status_code)

    tabs = [threading.Thread(target=tab) for _ in range(2)]
    for t in tabs:
        t.start()
    for t in tabs:
        t.join(10)
    assert sorted(answers) == [200, 409]
    held.release()
    view = agreed(client, db_url, mid)
    assert (view["ply"], view["revision"]) == (0, 2)


def test_undo_while_a_slow_level_searches(client, db_url):
    """Level 5 searches for 1.5 s in the deep lane: the undo stops it and its answer is
    dropped; the next move gets its own search. (Level 4's 0.3-0.5 s could end before a
    loaded machine's undo came: CI on PostgreSQL once counted no cancel.)"""
    service = service_of(client)
    view = nibble(client, seats=("human", "level:5"))
    mid = view["id"]
    take(client, mid, single(view))
    deadline = time.time() + 10
    while not service.jobs.summary()["running"]:
        assert time.time() < deadline
        time.sleep(0.01)
    view = client.post(f"/api/matches/{mid}/undo").json()
    assert (view["ply"], view["thinking"]) == (0, False)
    deadline = time.time() + 10
    while service.jobs.summary()["running"]:
        assert time.time() < deadline
        time.sleep(0.01)
    summary = service.jobs.summary()
    assert summary["cancelled"] == 1 and summary["answered"] == 0
    view = agreed(client, db_url, mid)
    assert (view["ply"], view["revision"]) == (0, 2)
    mine = take(client, mid, single(view, -1))["moves"]
    # level 5's turn is several actions of 1.5 s each: on a loaded machine more than 10 s
    view = settled(client, mid, timeout=90.0)
    assert view["moves"][: len(mine)] == mine and view["ply"] > len(mine)
    assert view["revision"] == 3 + view["ply"] - len(mine)  # the computer's actions, each once
    agreed(client, db_url, mid)


# --- changes that leave the position as it was ---------------------------------------------------
def test_the_computer_waits_for_every_seat_and_moves_once_the_last_is_claimed(client, db_url, hold):
    """No move before every seat is taken (issue 38 §1), the computer's neither: it thought
    while an invited seat was open, and a claim then raced its answer. It starts searching
    when the claim is stored, and its move is played."""
    service = service_of(client)
    held = hold(service)
    view = client.post("/api/matches", json={"game": "slide-checkers", "options": {"players": 3},
                                             "seats": ["level:1", "human", "human"], "take": [1]}).json()
    mid = view["id"]
    assert (view["thinking"], view["ply"], view["waiting_for"]) == (False, 0, [2])
    assert mid not in service.thinking and not held.jobs
    claimed = client.raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()
    assert (claimed["ply"], claimed["revision"], claimed["thinking"], claimed["waiting_for"]) == (0, 1, True, [])
    held.wait()
    held.release()
    view = wait_for(client, mid, lambda v: v["ply"] == 1, timeout=5)
    assert view["revision"] == 2 and view["to_move"] == 1 and not view["thinking"]
    agreed(client, db_url, mid)


def test_a_takeback_request_while_the_computer_thinks_does_not_lose_its_move(client, db_url, hold):
    """Two people and a computer: seat 0 asks for a takeback while the computer (seat 1) thinks.
    The request is a new revision with the same position; the computer's move is still played
    (and, as any move does, cancels the request)."""
    service = service_of(client)
    raw = client.raw
    view = raw.post("/api/matches", json={"game": "slide-checkers", "options": {"players": 3},
                                          "seats": ["human", "level:1", "human"]}).json()
    mid, t0 = view["id"], view["tokens"][0]["token"]
    client.tokens[mid] = {0: t0}
    t2 = raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()["tokens"][0]["token"]
    auth0 = {"Authorization": f"Bearer {t0}"}
    view = raw.get(f"/api/matches/{mid}", headers=auth0).json()  # every seat taken: the moves offered
    held = hold(service)
    view = raw.post(f"/api/matches/{mid}/actions", json={"action": view["legal"][0], "ply": 0}, headers=auth0).json()
    assert view["thinking"] and view["to_move"] == 1
    held.wait()
    asked = raw.post(f"/api/matches/{mid}/takeback", headers=auth0).json()
    assert asked["takeback"]["by"] == 0 and asked["ply"] == 1 and asked["thinking"]
    held.release()
    view = wait_for(client, mid, lambda v: v["ply"] == 2, timeout=5)
    assert view["to_move"] == 2 and view["takeback"] is None and not view["thinking"]
    assert raw.post(f"/api/matches/{mid}/takeback/answer", json={"accept": True},
                    headers={"Authorization": f"Bearer {t2}"}).status_code == 409  # nothing pending
    agreed(client, db_url, mid)


# --- two processes on one database ----------------------------------------------------------------
@contextlib.contextmanager
def two_servers(db_url: str):
    with TestClient(make_app(db_url, rate_limits=False)) as a, TestClient(make_app(db_url, rate_limits=False)) as b:
        # SQLite has no notifications between processes: A checks the stored revision before
        # each act, as it does on PostgreSQL
        a.app.state.service.store.shared = b.app.state.service.store.shared = True
        yield Creator(a), Creator(b)


def test_an_undo_in_another_process_drops_the_answer_and_the_thinking(db_url, hold):
    """The computer searches in process A; the player's undo reaches process B. A's answer is
    dropped, and A stops saying that the computer thinks (it did for ever: the person to move
    waited on a spinner that never stopped)."""
    with two_servers(db_url) as (a, b):
        held = hold(service_of(a))
        view = nibble(a)
        mid = view["id"]
        b.tokens = a.tokens
        take(a, mid, single(view))
        held.wait()
        with a.websocket_connect(f"/api/matches/{mid}/ws") as ws:
            assert ws.receive_json()["thinking"]
            assert b.post(f"/api/matches/{mid}/undo").json()["ply"] == 0
            held.release()
            seen = ws.receive_json()
            while seen["revision"] < 2:  # the WebSocket of A may first be told of the undo
                seen = ws.receive_json()
            assert (seen["ply"], seen["revision"], seen["thinking"]) == (0, 2, False)
        for client in (a, b):
            view = agreed(client, db_url, mid)
            assert (view["ply"], view["revision"], view["thinking"]) == (0, 2, False)


def test_a_claim_in_another_process_starts_the_computer_there(db_url, hold):
    """The last seat claimed in process B: B's computer searches (A's waited, as the seat was
    open), plays, and A reads its move."""
    with two_servers(db_url) as (a, b):
        held = hold(service_of(b))
        view = a.post("/api/matches", json={"game": "slide-checkers", "options": {"players": 3},
                                            "seats": ["level:1", "human", "human"], "take": [1]}).json()
        mid = view["id"]
        assert not view["thinking"] and mid not in service_of(a).thinking
        assert b.raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()["revision"] == 1
        held.wait()
        held.release()
        view = wait_for(b, mid, lambda v: v["ply"] == 1, timeout=5)
        assert view["revision"] == 2 and not view["thinking"]
        with service_of(a).locked(mid):
            assert service_of(a).load(mid, fresh=True).ply == 1  # A reads it from the store
        b.tokens = a.tokens
        agreed(b, db_url, mid)