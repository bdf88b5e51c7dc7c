"""The lobby's requests at the same moment (a double click handled by two workers of a club
deployment, or by two threads of one): the same seek posted twice is listed once, the second
told 409 (a challenge sent twice too; two clicks on Play now leave one wait); two accepts that
would seat one person in two live games start one game, the other told the seek is gone (410,
or 409 when their own seek is being taken) with nothing of theirs lost. Each runs on SQLite and,
with ``ABSTRACTA_TEST_DB_URL`` (as CI sets it), on PostgreSQL, where the workers do not queue
their writes: there alone a test of a lock fails without it.

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

# the app, anna (signed in, running the app's lifespan), another person and a seek of theirs
from test_lobby_api import LIVE, app, anna, person, seek  # noqa: F401 - app and anna are fixtures

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


def test_two_seeks_posted_at_once_past_the_limit_leave_the_limit_open(app, anna, monkeypatch):
    # four open, two other seeks posted at once: each would read four without the lock on the
    # seeker's row, and six would be listed
    from abstracta.lobby.seeks import SEEKS_PER_PERSON

    bounds = [[None, None], [1000, None], [None, 2000], [900, 2100], [800, None], [700, None]]
    for low_high in bounds[:SEEKS_PER_PERSON - 1]:
        seek(anna, rating_range=low_high)
    monkeypatch.setattr(app.state.lobby.seeks, "db", HeldWrites(app.state.lobby.db, Meeting()))
    answers = at_once(*[lambda b=b: anna.post("/api/seeks", json={**NIM, "rating_range": b})
                        for b in bounds[SEEKS_PER_PERSON - 1:SEEKS_PER_PERSON + 1]])
    assert sorted(a.status_code for a in answers) == [201, 409], [a.text for a in answers]
    assert next(a for a in answers if a.status_code == 409).json()["i18n"]["key"] == "lobby.error.seeks_limit"
    assert len(listed(anna)) == SEEKS_PER_PERSON


def challenge(to: str) -> dict[str, Any]:
    return {"to": to, **NIM}


def test_the_same_challenge_sent_twice_at_once_is_open_once_and_the_other_told_409(app, anna, monkeypatch):
    ben = person(app, "ben")
    monkeypatch.setattr(app.state.lobby.challenges, "db", HeldWrites(app.state.lobby.db, Meeting()))
    post = lambda: anna.post("/api/challenges", json=challenge("ben"))  # noqa: E731
    answers = at_once(post, post)
    assert sorted(a.status_code for a in answers) == [201, 409], [a.text for a in answers]
    assert next(a for a in answers if a.status_code == 409).json()["i18n"]["key"] == "lobby.error.challenge_open"
    made = next(a for a in answers if a.status_code == 201).json()["id"]
    assert [c["id"] for c in ben.get("/api/challenges").json()["in"]] == [made]


def test_two_challenges_sent_at_once_past_the_limit_leave_the_limit_open(app, anna, monkeypatch):
    from abstracta.lobby.challenges import CHALLENGES_PER_PERSON

    names = [f"p{i}" for i in range(CHALLENGES_PER_PERSON + 1)]
    for name in names:
        person(app, name)
    for name in names[:CHALLENGES_PER_PERSON - 1]:
        assert anna.post("/api/challenges", json=challenge(name)).status_code == 201
    monkeypatch.setattr(app.state.lobby.challenges, "db", HeldWrites(app.state.lobby.db, Meeting()))
    answers = at_once(*[lambda n=n: anna.post("/api/challenges", json=challenge(n)) for n in names[-2:]])
    assert sorted(a.status_code for a in answers) == [201, 409], [a.text for a in answers]
    assert next(a for a in answers if a.status_code == 409).json()["i18n"]["key"] == "lobby.error.challenges_limit"
    assert len(anna.get("/api/challenges").json()["out"]) == CHALLENGES_PER_PERSON


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


def hold_starts(app, monkeypatch, n: int = 2) -> list[tuple]:
    """Each match the lobby starts waits, its seek claimed, for the other accept to get there too
    (or 1.5 s): the moment between a seek claimed and its game made."""
    lobby, started = app.state.lobby, []
    meeting, real = Meeting(n), app.state.lobby.start

    def held(spec, players, seated, source):
        meeting.meet()
        started.append(dict(seated))
        return real(spec, players, seated, source)

    monkeypatch.setattr(lobby, "start", held)
    return started


def test_two_live_seeks_of_one_player_taken_at_once_start_one_game(app, anna, monkeypatch):
    ben, cara = person(app, "ben"), person(app, "cara")
    first, second = seek(anna), seek(anna, options={"stones": 7})
    caras = seek(cara, options={"stones": 11})
    started = hold_starts(app, monkeypatch)
    answers = at_once(lambda: ben.post(f"/api/seeks/{first}/accept"), lambda: cara.post(f"/api/seeks/{second}/accept"))
    assert sorted(a.status_code for a in answers) == [201, 410], [a.text for a in answers]
    won, lost = (ben, cara) if answers[0].status_code == 201 else (cara, ben)
    assert next(a for a in answers if a.status_code == 410).json()["i18n"]["key"] == "lobby.error.seek_gone"
    assert len(started) == 1
    mid = next(a for a in answers if a.status_code == 201).json()["id"]
    assert matches(anna) == [mid] and matches(won) == [mid] and matches(lost) == []
    # the one refused loses nothing: cara's own seek is listed still unless she is playing
    assert listed(ben) == ([] if won is cara else [("cara", caras)])


def test_a_players_seek_taken_while_they_take_another_seats_them_once(app, anna, monkeypatch):
    ben, dan = person(app, "ben"), person(app, "dan")
    annas, bens = seek(anna), seek(ben, options={"stones": 7})
    started = hold_starts(app, monkeypatch)
    answers = at_once(lambda: ben.post(f"/api/seeks/{annas}/accept"), lambda: dan.post(f"/api/seeks/{bens}/accept"))
    codes = [a.status_code for a in answers]
    # whichever is claimed first: ben's own seek goes with his accept (dan: 410), or ben is told
    # his seek is being taken (409), anna's seek listed still
    assert codes in ([201, 410], [409, 201]), [a.text for a in answers]
    assert len(started) == 1 and len(matches(ben)) == 1
    if codes == [409, 201]:
        assert answers[0].json()["i18n"]["key"] == "lobby.error.busy"
        assert listed(dan) == [("anna", annas)] and matches(anna) == []
    else:
        assert answers[1].json()["i18n"]["key"] == "lobby.error.seek_gone"
        assert listed(dan) == [] and matches(dan) == []


def test_a_challenge_accepted_while_the_challengers_seek_is_taken_seats_them_once(app, anna, monkeypatch):
    ben, dan = person(app, "ben"), person(app, "dan")
    annas = seek(anna)
    cid = anna.post("/api/challenges", json={**NIM, "to": "dan", "options": {"stones": 7}}).json()["id"]
    started = hold_starts(app, monkeypatch)
    answers = at_once(lambda: ben.post(f"/api/seeks/{annas}/accept"), lambda: dan.post(f"/api/challenges/{cid}/accept"))
    codes = [a.status_code for a in answers]
    assert codes in ([201, 409], [410, 201]), [a.text for a in answers]
    assert len(started) == 1 and len(matches(anna)) == 1
    if codes == [201, 409]:  # the challenge is open still: dan may accept it once anna is free
        assert answers[1].json()["i18n"]["key"] == "lobby.error.busy"
        assert [c["status"] for c in dan.get("/api/challenges").json()["in"]] == ["open"]
    else:
        assert answers[0].json()["i18n"]["key"] == "lobby.error.seek_gone"


def test_a_correspondence_seek_taken_at_the_same_moment_is_another_game(app, anna, monkeypatch):
    # a move a day leaves time for other games: nothing is withdrawn, both start
    ben, cara = person(app, "ben"), person(app, "cara")
    live, daily = seek(anna), seek(anna, clock={"per_turn": 86400})
    started = hold_starts(app, monkeypatch)
    answers = at_once(lambda: ben.post(f"/api/seeks/{live}/accept"), lambda: cara.post(f"/api/seeks/{daily}/accept"))
    assert [a.status_code for a in answers] == [201, 201], [a.text for a in answers]
    assert len(started) == 2 and len(matches(anna)) == 2


def test_a_game_that_cannot_be_made_gives_the_seeks_it_withdrew_back(app, anna, monkeypatch):
    ben = person(app, "ben")
    taken, spare, bens = seek(anna), seek(anna, options={"stones": 7}), seek(ben, options={"stones": 11})

    def broken(*args):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(app.state.lobby, "start", broken)
    assert ben.post(f"/api/seeks/{taken}/accept").status_code == 500
    assert sorted(listed(ben)) == sorted([("anna", taken), ("anna", spare), ("ben", bens)])


def test_a_quick_pairing_at_the_moment_a_seek_is_taken_seats_the_player_once(app, anna, monkeypatch):
    ben, cara = person(app, "ben"), person(app, "cara")
    annas = seek(anna)
    wait = {**NIM, "options": {"stones": 5}}
    with anna.websocket_connect("/api/lobby/ws"), ben.websocket_connect("/api/lobby/ws"):  # present: not swept
        assert anna.post("/api/quick", json=wait).json()["match"] is None
        started = hold_starts(app, monkeypatch)
        answers = at_once(lambda: ben.post("/api/quick", json=wait), lambda: cara.post(f"/api/seeks/{annas}/accept"))
        paired, taken = answers[0].json()["match"], answers[1].status_code
        assert len(started) == 1 and len(matches(anna)) == 1
        if taken == 201:  # anna is being seated: not paired, ben waits on
            assert paired is None and matches(ben) == []
            assert ben.get("/api/quick").json()["match"] is None
        else:
            assert taken == 410 and paired == matches(anna)[0] and matches(cara) == []


def test_play_now_clicked_twice_at_once_leaves_one_wait(app, anna, monkeypatch):
    # each click deletes the person's wait and adds a new one; on PostgreSQL the second insert
    # would meet the first's key (one wait a person) unless the two take turns
    monkeypatch.setattr(app.state.lobby.quick, "db", HeldWrites(app.state.lobby.db, Meeting()))
    with anna.websocket_connect("/api/lobby/ws"):  # a wait without a connection ends
        post = lambda o: anna.post("/api/quick", json={**NIM, "options": {"stones": o}})  # noqa: E731
        answers = at_once(lambda: post(9), lambda: post(7))
        assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
        assert anna.get("/api/quick").json()["options"]["stones"] in ("9", "7")
        assert app.state.lobby.quick.waiting() == 1
