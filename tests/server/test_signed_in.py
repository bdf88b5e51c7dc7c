"""A socket's person still signed in (server/signed_in.py): read from the database when an end of
their credentials was heard or a minute has passed, not at every push (issue 44 §1)."""

from __future__ import annotations

import asyncio

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from apiutil import make_app

from abstracta.people.credentials import Passwords
from abstracta.server.fanout import Fanout
from abstracta.server.signed_in import RECHECK_SECONDS, TOPIC, SignedIn

PW = "correct horse"


class Reads:
    """A fake reading of the database: ``answer`` per person, every call counted."""

    def __init__(self) -> None:
        self.calls: list[int] = []
        self.answer: dict[int, bool] = {}
        self.during = None  # called in the middle of a reading (an end heard meanwhile)

    def __call__(self, _connection, person_id: int) -> bool:
        self.calls.append(person_id)
        if self.during is not None:
            self.during()
        return self.answer.get(person_id, True)


class Clock:
    """Monotonic seconds the tests move; each reading of it a microsecond later than the last,
    as a real clock between two events."""

    def __init__(self) -> None:
        self.at = 1000.0

    def __call__(self) -> float:
        self.at += 1e-6
        return self.at


def run(coro):
    """``asyncio.run(coro)`` in a thread of its own: a browser test of the same pytest process may
    have left Playwright's event loop running in this one."""
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def test_a_watch_reads_once_then_when_its_person_is_heard_of_or_a_minute_passed():
    reads, clock = Reads(), Clock()
    signed = SignedIn(reads, clock=clock)
    anna, ben = signed.watch(None, 1), signed.watch(None, 2)
    assert run(anna.still()) and reads.calls == [1]  # the first push reads
    for _ in range(50):
        assert run(anna.still())
    assert reads.calls == [1]
    signed.ended(2)  # ben's: not anna's
    assert run(anna.still()) and reads.calls == [1]
    assert run(ben.still()) and reads.calls == [1, 2]
    signed.ended(1)
    assert run(anna.still()) and run(anna.still()) and reads.calls == [1, 2, 1]
    clock.at += RECHECK_SECONDS - 0.5
    assert run(anna.still()) and reads.calls == [1, 2, 1]
    clock.at += 1.0
    assert run(anna.still()) and reads.calls == [1, 2, 1, 1]
    signed.forget_all()  # the fan-out reconnected: anything may have been missed
    assert run(anna.still()) and run(ben.still()) and reads.calls == [1, 2, 1, 1, 1, 2]


def test_an_ended_credential_says_no_and_is_read_again_each_time():
    reads = Reads()
    signed = SignedIn(reads)
    anna = signed.watch(None, 1)
    assert run(anna.still())
    reads.answer[1] = False
    signed.ended(1)
    assert not run(anna.still()) and not run(anna.still())
    assert reads.calls == [1, 1, 1]  # a "no" is never remembered as a "yes"


def test_an_end_heard_while_reading_makes_the_next_push_read_again():
    reads = Reads()
    signed = SignedIn(reads)
    anna = signed.watch(None, 1)
    reads.during = lambda: signed.ended(1)  # the sign-out commits while the reading runs
    assert run(anna.still())  # it read "still valid" before the end
    reads.during = None
    reads.answer[1] = False
    assert not run(anna.still()) and reads.calls == [1, 1]


def test_ends_heard_through_the_fan_out_from_another_process():
    async def go() -> list[int]:
        fanout = Fanout()
        reads = Reads()
        signed = SignedIn(reads, fanout)
        await fanout.start()
        anna = signed.watch(None, 7)
        assert await anna.still()
        fanout._deliver(TOPIC, '{"person": 7}')  # as another worker's publish arrives
        fanout._deliver(TOPIC, '{"person": "7"}')  # malformed: ignored
        fanout._deliver(TOPIC, '{"person": true}')
        assert await anna.still() and await anna.still()
        sent: list[str] = []
        fanout._send = lambda topic, data: sent.append(data)  # what this process tells the others
        signed.ended(9)
        await asyncio.sleep(0)
        assert sent == ['{"person":9}']
        return reads.calls

    assert run(go()) == [7, 7]


@pytest.fixture
def app(db_url):
    app = make_app(db_url, rate_limits=False)
    app.state.people.passwords = Passwords.light()
    return app


def counting(app) -> list[int]:
    """The database readings of the app's sockets' credentials, counted."""
    signed = app.state.signed_in
    reads, real = [], signed.read

    def read(connection, person_id):
        reads.append(person_id)
        return real(connection, person_id)

    signed.read = read
    return reads


def test_a_signed_in_players_pushes_and_moves_read_the_session_once(app):
    """A person signed in plays twenty moves over the socket with a push after each: the session
    is read once, at the first push, not forty times; signed out from another browser, the next
    push reads again and closes the socket."""
    with TestClient(app) as anna:
        assert anna.post("/api/accounts", json={"username": "anna", "password": PW}).status_code == 201
        made = anna.post("/api/matches", json={"game": "nibble", "seats": ["human", "human"], "take": [0, 1]}).json()
        mid = made["id"]
        reads = counting(app)
        with anna.websocket_connect(f"/api/matches/{mid}/ws") as ws:
            ws.send_json({"tokens": []})
            view = ws.receive_json()
            assert view["my_seats"] == [0, 1]
            for ident in range(1, 21):
                ws.send_json({"move": {"action": view["legal"][0], "ply": view["ply"]}, "id": ident})
                frames = [ws.receive_json(), ws.receive_json()]
                assert {"ack": ident, "ply": view["ply"] + 1} in frames, frames
                view = next(f for f in frames if "struct" in f)
                if view["status"] == "over":
                    break
            assert ident >= 10 and len(reads) == 1
            other = TestClient(app)
            assert other.post("/api/session", json={"username": "anna", "password": PW}).status_code == 200
            assert other.delete("/api/me/sessions").json() == {"ended": 1}  # anna's first browser
            assert other.post(f"/api/matches/{mid}/resign", json={}).status_code in (200, 409)
            ended = ws.receive_json()
            assert "error" in ended and "struct" not in ended
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4401
        assert len(reads) == 2


def test_a_change_no_process_was_told_of_is_noticed_within_the_minute(app, monkeypatch):
    """An administrator's command beside the server (its own people service: no listener)
    disables anna: her socket goes on until its reading is a minute old, then closes."""
    from abstracta.people import People
    from abstracta.server import signed_in

    with TestClient(app) as anna:
        assert anna.post("/api/accounts", json={"username": "anna", "password": PW}).status_code == 201
        made = anna.post("/api/matches", json={"game": "nibble", "seats": ["human", "human"], "take": [0, 1]}).json()
        mid = made["id"]
        clock = Clock()
        app.state.signed_in.clock = clock
        with anna.websocket_connect(f"/api/matches/{mid}/ws") as ws:
            ws.send_json({"tokens": []})
            view = ws.receive_json()
            admin = People(app.state.service.store.engine, passwords=Passwords.light())
            admin.accounts.set_disabled("anna", True)
            ws.send_json({"move": {"action": view["legal"][0], "ply": view["ply"]}, "id": 1})
            frames = [ws.receive_json(), ws.receive_json()]
            assert {"ack": 1, "ply": 1} in frames  # not heard of yet: trusted
            clock.at += signed_in.RECHECK_SECONDS
            view = next(f for f in frames if "struct" in f)
            ws.send_json({"move": {"action": view["legal"][0], "ply": view["ply"]}, "id": 2})
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    ws.receive_json()
            assert closed.value.code == 4401
        assert TestClient(app).get(f"/api/matches/{mid}").json()["ply"] == 1  # the second move not played


def test_only_the_last_minutes_ends_are_remembered():
    """A process hears of every sign-out of a club: it keeps the ends of the last minute only
    (a reading older than that is read again anyway), not one entry per person ever ended."""
    clock = Clock()
    signed = SignedIn(Reads(), clock=clock)
    for person in range(1000):
        signed.ended(person)
        clock.at += 0.5
    assert signed.remembered() <= RECHECK_SECONDS / 0.5 + 1
    watch = signed.watch(None, 5)
    assert run(watch.still())
    signed.ended(5)  # heard again: remembered, and the watch reads again
    assert 5 in signed._ended_at


def test_a_valid_reading_that_answers_after_a_newer_refusal_is_not_trusted():
    """The socket's pushes and moves share one watch: a reading begun earlier that says
    "valid" after a later one said "ended" must not be trusted over it."""
    clock, reads = Clock(), Reads()
    signed = SignedIn(reads, clock=clock)
    anna = signed.watch(None, 1)

    async def both() -> tuple[bool, bool]:
        import threading

        first_began, second_done = threading.Event(), threading.Event()
        answers = iter([True, False])

        def read(_connection, _person):
            answer = next(answers)
            if answer:  # the earlier reading: it answers only after the later one did
                first_began.set()
                second_done.wait(5)
            else:
                first_began.wait(5)
                second_done.set()
            return answer

        signed.read = read
        early = asyncio.create_task(anna.still())
        await asyncio.sleep(0.05)
        late = asyncio.create_task(anna.still())
        return await early, await late

    assert run(both()) == (True, False)
    signed.read = reads
    reads.answer[1] = False
    assert not run(anna.still()) and reads.calls == [1]  # read again: the "valid" was not kept
