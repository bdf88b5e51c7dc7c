"""What fails after a person's act was stored (pushing it to the watchers, arming the clock's
timer) leaves the act standing: the request answers with the stored view, not a 500 that makes
the client believe its move failed and send it again; the failure is logged by type and place,
and the push (with the timer) is tried once more a moment later."""

from __future__ import annotations

import logging
import threading
import time

import pytest
from apiutil import bearer, hand_clock, pushed_elsewhere

from abstracta.server import matches


def people(raw, clock=None, stones=20, opened=False):
    """A toy-nim match between two people on two devices: (id, token of seat 0, of seat 1).
    ``opened``: each has made a first move (one stone each), so a clock runs (issue 42 §4)."""
    body = {"game": "toy-nim", "options": {"stones": stones}, "seats": ["human", "human"]}
    if clock is not None:
        body["clock"] = clock
    view = raw.post("/api/matches", json=body).json()
    t0 = view["tokens"][0]["token"]
    t1 = raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()["tokens"][0]["token"]
    if opened:
        for ply, token in enumerate((t0, t1)):
            assert act(raw, view["id"], "actions", token, {"action": "1", "ply": ply}).status_code == 200
    return view["id"], t0, t1


def act(raw, mid, path, token, body=None):
    return raw.post(f"/api/matches/{mid}/{path}", json=body, headers=bearer(token))


class BrokenOnce:
    """The hub's ``publish`` or ``set_timer`` raising a bug on its first call for the match, then
    working (each later call for the match is noted in ``calls``)."""

    def __init__(self, hub, name, match_id):
        self.real = getattr(hub, name)
        self.match_id = match_id
        self.broken = False
        self.calls: list[tuple] = []
        self.called = threading.Event()

    def __call__(self, match_id, *args):
        if pushed_elsewhere():
            return self.real(match_id, *args)
        if match_id == self.match_id and not self.broken:
            self.broken = True
            raise RuntimeError("a push bug")
        if match_id == self.match_id:
            self.calls.append(args)
            self.called.set()
        return self.real(match_id, *args)


def break_once(client, monkeypatch, piece, mid) -> BrokenOnce:
    hub = client.app.state.service.hub
    broken = BrokenOnce(hub, piece, mid)
    monkeypatch.setattr(hub, piece, broken)
    return broken


# each act: (prepare the match and return what the act needs, the act, what the stored view shows)
def _play(raw, mid, t0, t1):
    return act(raw, mid, "actions", t0, {"action": "2", "ply": 2})


def _request_takeback(raw, mid, t0, t1):
    return act(raw, mid, "takeback", t0)


def _answer_takeback(raw, mid, t0, t1):
    return act(raw, mid, "takeback/answer", t1, {"accept": True})


def _resign(raw, mid, t0, t1):
    return act(raw, mid, "resign", t1, {"seat": 1})


def _claim_flag(raw, mid, t0, t1):
    return act(raw, mid, "flag", t0)


def _look(raw, mid, t0, t1):  # a look applies a fallen flag: stored, then pushed
    return raw.get(f"/api/matches/{mid}", headers=bearer(t0))


ACTS = {
    "play": (_play, lambda v: v["ply"] == 3 and v["moves"] == ["1", "1", "2"] and v["clock"]["running"] == 1),
    "request a takeback": (_request_takeback,
                           lambda v: v["takeback"] == {"by": 0, "to_ply": 2, "at_ply": 3, "accepted": []}),
    "accept a takeback": (_answer_takeback, lambda v: v["ply"] == 2 and v["takeback"] is None),
    "resign": (_resign, lambda v: v["termination"] == "resignation" and v["result"] == [1.0, -1.0]),
    "claim a flag": (_claim_flag, lambda v: v["termination"] == "time" and v["result"] == [-1.0, 1.0]),
    "look at a fallen flag": (_look, lambda v: v["termination"] == "time" and v["out_of_time"] == [1]),
}


@pytest.mark.parametrize("piece", ["publish", "set_timer"])
@pytest.mark.parametrize("name", list(ACTS))
def test_an_act_stands_when_pushing_it_fails(client, monkeypatch, caplog, name, piece):
    fake = hand_clock(monkeypatch)
    monkeypatch.setattr(matches, "STORE_RETRY_SECONDS", 0.05)
    raw, service = client.raw, client.app.state.service
    mid, t0, t1 = people(raw, clock={"initial": 300}, opened=True)
    if name in ("request a takeback", "accept a takeback", "look at a fallen flag"):
        assert act(raw, mid, "actions", t0, {"action": "2", "ply": 2}).status_code == 200
    if name == "accept a takeback":
        assert act(raw, mid, "takeback", t0).status_code == 200
    if name == "claim a flag":
        fake.now += 301  # seat 0's flag falls
    if name == "look at a fallen flag":
        fake.now += 301  # seat 1's
    perform, stored = ACTS[name]
    broken = break_once(client, monkeypatch, piece, mid)
    caplog.set_level(logging.ERROR, logger="abstracta.server.bots")
    r = perform(raw, mid, t0, t1)
    assert broken.broken  # the push (or the timer) did fail
    assert r.status_code == 200, r.text
    assert stored(r.json()), r.json()
    service.evict(mid)  # what the store holds
    assert stored(raw.get(f"/api/matches/{mid}").json())
    assert "RuntimeError at test_server_after_store.py:" in caplog.text  # its type and place
    assert "after the change was stored (it stands)" in caplog.text
    # tried once more a moment later: the watchers woken, the clock's timer armed as it is now
    assert broken.called.wait(5)
    if piece == "set_timer":
        delay = broken.calls[0][0]
        running = name in ("play", "request a takeback", "accept a takeback")
        assert (delay is not None) == running


def test_a_person_move_stands_when_the_computers_search_cannot_be_announced(client, monkeypatch, caplog):
    # against the computer the push after the move comes from queuing its search: that failing
    # after the move was stored answered a 500 as well
    monkeypatch.setattr(matches, "STORE_RETRY_SECONDS", 0.05)
    service = client.app.state.service
    held: list = []
    monkeypatch.setattr(service.jobs, "submit", held.append)
    mid = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 12},
                                            "seats": ["human", "level:1"]}).json()["id"]
    broken = break_once(client, monkeypatch, "publish", mid)
    r = client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0})
    assert broken.broken and r.status_code == 200, r.text
    view = r.json()
    assert (view["ply"], view["thinking"], view["bot_error"]) == (1, True, None)
    assert [job.ply for job in held] == [1]  # its search was queued all the same
    assert "after the change was stored (it stands)" in caplog.text
    assert broken.called.wait(5)


def test_a_second_failure_of_the_push_is_logged_and_given_up(client, monkeypatch, caplog):
    # one try more, not a retry for ever: the next change, or the next look, brings watchers up to date
    monkeypatch.setattr(matches, "STORE_RETRY_SECONDS", 0.05)
    raw, service = client.raw, client.app.state.service
    mid, t0, t1 = people(raw)
    calls = []

    def always_broken(match_id):
        if pushed_elsewhere():
            return
        calls.append(match_id)
        raise RuntimeError("a push bug")

    monkeypatch.setattr(service.hub, "publish", always_broken)
    r = act(raw, mid, "actions", t0, {"action": "2", "ply": 0})
    assert r.status_code == 200 and r.json()["ply"] == 1
    deadline = time.time() + 5
    while "when the change was pushed again" not in caplog.text:
        assert time.time() < deadline, caplog.text
        time.sleep(0.02)
    time.sleep(0.3)
    assert calls == [mid, mid]


def _create(client):
    return client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 12},
                                             "seats": ["level:1", "human"]})


def _import(client):
    record = {"format": "abstracta-record", "version": 1, "game": "toy-nim", "options": {"stones": 12},
              "players": ["level:1", "human"], "moves": ["1", "2"]}
    return client.post("/api/matches/import", json={"record": record})


NEW_MATCHES = {"create": (_create, []), "import": (_import, ["1", "2"])}


@pytest.mark.parametrize("how", list(NEW_MATCHES))
def test_a_new_match_stands_when_starting_it_fails(client, monkeypatch, caplog, how):
    # what runs after a new match was saved (its computer's search, its clock) raising answered
    # a 500 for a match that was made: a client sending the request again made a second one
    monkeypatch.setattr(matches, "STORE_RETRY_SECONDS", 0.05)
    service = client.app.state.service
    pushed = threading.Event()
    publish = service.hub.publish
    monkeypatch.setattr(service.hub, "publish", lambda mid: (pushed.set(), publish(mid)))

    def broken(match, events):
        raise RuntimeError("a bug while the match started")

    monkeypatch.setattr(service.computer, "react", broken)  # what reacts to a new match
    perform, moves = NEW_MATCHES[how]
    r = perform(client)
    assert r.status_code == 201, r.text
    view = r.json()
    assert (view["moves"], view["players"], view["status"]) == (moves, ["level:1", "human"], "playing")
    assert [t["seat"] for t in view["tokens"]] == [1]
    assert [row.id for row in service.store.list()] == [view["id"]]  # exactly one match
    service.evict(view["id"])
    assert client.get(f"/api/matches/{view['id']}").json()["moves"] == moves  # as stored
    assert "RuntimeError at test_server_after_store.py:" in caplog.text  # its type and place
    assert "after the new match was stored (it stands)" in caplog.text
    assert pushed.wait(5)  # the push tried once more a moment later


def test_a_new_match_stands_when_pushing_its_computers_search_fails(client, monkeypatch, caplog):
    # the computer moves first: queuing its search pushes the match, and that push failing
    # answered a 500 for a match that was made (and whose search was queued)
    monkeypatch.setattr(matches, "STORE_RETRY_SECONDS", 0.05)
    service = client.app.state.service
    held: list = []
    monkeypatch.setattr(service.jobs, "submit", held.append)
    publish, calls, again = service.hub.publish, [], threading.Event()

    def first_push_broken(match_id):  # the match's id is not known before the answer
        if pushed_elsewhere():
            return publish(match_id)
        calls.append(match_id)
        if len(calls) == 1:
            raise RuntimeError("a push bug")
        again.set()
        return publish(match_id)

    monkeypatch.setattr(service.hub, "publish", first_push_broken)
    r = _create(client)
    assert calls and r.status_code == 201, r.text
    view = r.json()
    assert (view["ply"], view["thinking"], view["bot_error"]) == (0, True, None)
    assert [job.ply for job in held] == [0]  # its search was queued all the same
    assert [row.id for row in service.store.list()] == [view["id"]]
    assert "after the new match was stored (it stands)" in caplog.text
    assert again.wait(5) and set(calls) == {view["id"]}  # pushed again a moment later
