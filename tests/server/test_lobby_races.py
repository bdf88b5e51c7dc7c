"""The lobby's requests at the same moment (a double click handled by two workers of a club
deployment, or by two threads of one): the same seek posted twice is listed once, the second
told 409; two accepts that would seat one person in two live games start one game, the other
told the seek is gone (410, or 409 when their own seek is being taken) with nothing of theirs
lost. Each runs on SQLite and, with ``ABSTRACTA_TEST_DB_URL``, on PostgreSQL, where the workers do
not queue their writes.

The moment is made deterministic by holding each request at the point the race needs (its
seek written, not committed; its seek claimed, its match not made) until the other arrives
there too, or a short while when the other cannot arrive (the database holds it, or it was
refused already)."""

from __future__ import annotations

import contextlib
import threading
from typing import Any, Callable

import pytest
from fastapi.testclient import TestClient

from apiutil import make_app

from abstracta.people.credentials import Passwords

PW = "correct horse"
LIVE = {"initial": 300, "increment": 3}
NIM = {"game": "toy-nim", "options": {"stones": 9}, "clock": LIVE, "rated": False}


class Meeting:
    """Threads wait at :meth:`meet` for each other (``n`` in all), at most ``timeout`` seconds."""

    def __init__(self, n: int = 2, timeout: float = 1.5):
        self.n, self.timeout = n, timeout
        self.arrived = 0
        self._cond = threading.Condition()

    def meet(self) -> None:
        with self._cond:
            self.arrived += 1
            self._cond.notify_all()
            self._cond.wait_for(lambda: self.arrived >= self.n, self.timeout)


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """The answers of ``calls``, each run in a thread of its own, all started together."""
    start = threading.Barrier(len(calls))
    out: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        start.wait()
        try:
            out[i] = calls[i]()
        except Exception as exc:  # noqa: BLE001 - the test reads it
            out[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return out


@pytest.fixture
def app(db_url):
    app = make_app(db_url, rate_limits=False)
    app.state.people.passwords = Passwords.light()
    return app


@pytest.fixture
def anna(app):
    with TestClient(app) as c:  # the first client runs the app's lifespan
        assert c.post("/api/accounts", json={"username": "anna", "password": PW}).status_code == 201
        yield c


def person(app, name: str) -> TestClient:
    c = TestClient(app)
    assert c.post("/api/accounts", json={"username": name, "password": PW}).status_code == 201
    return c


def seek(c: TestClient, **body) -> str:
    r = c.post("/api/seeks", json={**NIM, **body})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def matches(c: TestClient) -> list[str]:
    return [m["id"] for m in c.get("/api/matches").json()]


def listed(c: TestClient) -> list[tuple[str, str]]:
    return [(s["player"], s["id"]) for s in c.get("/api/seeks").json()]


class HeldWrites:
    """The seeks' database, whose write transactions wait for each other once their rows are
    written, before committing (each has read "not open yet" by then)."""

    def __init__(self, db: Any, meeting: Meeting):
        self._db, self._meeting = db, meeting

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)

    @contextlib.contextmanager
    def writing(self):
        with self._db.writing() as s:
            yield s
            s.flush()
            self._meeting.meet()


def test_the_same_seek_posted_twice_at_once_is_listed_once_and_the_other_told_409(app, anna, monkeypatch):
    monkeypatch.setattr(app.state.lobby.seeks, "db", HeldWrites(app.state.lobby.db, Meeting()))
    post = lambda: anna.post("/api/seeks", json=NIM)  # noqa: E731
    answers = at_once(post, post)
    assert sorted(a.status_code for a in answers) == [201, 409], [a.text for a in answers]
    refused = next(a for a in answers if a.status_code == 409).json()
    assert refused["i18n"]["key"] == "lobby.error.seek_twice"
    made = next(a for a in answers if a.status_code == 201).json()["id"]
    assert listed(anna) == [("anna", made)]
    # withdrawn, the same seek may be posted again: only open seeks are compared
    assert anna.delete(f"/api/seeks/{made}").status_code == 204
    again = seek(anna)
    assert listed(anna) == [("anna", again)]


def test_the_database_refuses_a_second_open_copy_of_a_seek(app, anna):
    # whatever the code reads first: the unique index of open seeks, either seat and open bounds
    # counting as values
    from sqlalchemy import update
    from sqlalchemy.exc import IntegrityError

    from abstracta.lobby.tables import SeekRow

    first, other = seek(anna), seek(anna, seat=0, rating_range=[1000, None])
    db = app.state.lobby.db
    for sid in (first, other):
        with db.reading() as s:
            row = s.get(SeekRow, sid)
            copy = {c.name: getattr(row, c.name) for c in SeekRow.__table__.columns}
        with pytest.raises(IntegrityError), db.writing() as s:
            s.add(SeekRow(**{**copy, "id": "copy" + sid[:8]}))
    with db.writing() as s:  # closed, the copy is no longer the same open seek
        s.execute(update(SeekRow).where(SeekRow.id == other).values(closed_at=db.now(), how="cancelled"))
        s.add(SeekRow(**{**copy, "id": "copy-again"}))
