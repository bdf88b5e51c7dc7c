"""The people's requests at the same moment, as tests/server/test_lobby_races.py holds the lobby's:
two games of one player ending together (two workers recording them), a seat of an invitation
claimed by a double click, one recovery code sent twice, an API token made twice at its limit, a
guest's sign-up sent twice (two tabs), new recovery codes made twice. Each runs on SQLite and,
with ``ABSTRACTA_TEST_DB_URL`` (as CI sets it), on PostgreSQL, where the workers do not queue
their writes: there alone a test of a lock fails without it. The invitation's fails on both: the
loser of the claim gave the seat up after the winner had it.

The moment is made deterministic by holding each transaction, its rows written, until the other
gets there too (or 1.5 s, when the database holds the other back)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from test_lobby_api import PW, app, anna, move, person, ratings, seek  # noqa: F401 - app and anna are fixtures
from test_lobby_races import HeldWrites, Meeting, at_once

DAILY = {"per_turn": 86400}
POOL = "fanorona.telo.correspondence"


def daily_game(first: TestClient, second: TestClient) -> str:
    """A rated correspondence Fanorona Telo game, ``first`` at seat 0, each having moved once."""
    sid = seek(first, game="fanorona", options={"size": "telo"}, clock=DAILY, rated=True, seat=0)
    mid = second.post(f"/api/seeks/{sid}/accept").json()["id"]
    assert first.get(f"/api/matches/{mid}").json()["rated"] is True
    move(first, mid)
    move(second, mid)
    return mid


def two_games_ending_at_once(app, anna, monkeypatch) -> None:
    """ben and cara resign their games against anna at the same moment (two workers)."""
    ben, cara = person(app, "ben"), person(app, "cara")
    games = {ben: daily_game(anna, ben), cara: daily_game(anna, cara)}
    standings = app.state.people.standings
    monkeypatch.setattr(standings, "db", HeldWrites(standings.db, Meeting()))
    answers = at_once(*[lambda c=c, m=m: c.post(f"/api/matches/{m}/resign") for c, m in games.items()])
    assert [a.status_code for a in answers] == [200, 200], [getattr(a, "text", a) for a in answers]
    monkeypatch.undo()


def test_two_rated_games_of_one_player_ending_at_once_both_count(app, anna, monkeypatch):
    # anna's first rated games in the pool: each would add her rating row, the second refused
    # by the first's key, and its whole result went unrecorded
    two_games_ending_at_once(app, anna, monkeypatch)
    mine = ratings(anna, "anna")[POOL]
    assert (mine["games"], mine["wins"]) == (2, 2)
    assert sorted(g["outcome"] for g in anna.get("/api/players/anna").json()["recent_games"]) == ["win", "win"]
    history = anna.get("/api/players/anna").json()["history"][POOL]
    assert len(history) == 2 and history[1]["rating"] > history[0]["rating"] > 1500


def test_two_rated_games_ending_at_once_move_a_rating_from_each_others_result(app, anna, monkeypatch):
    # anna rated in the pool already: each game read her rating before the other's was written,
    # and the last one written counted alone (a lost update: one game's points and count gone)
    dan = person(app, "dan")
    mid = daily_game(anna, dan)
    assert dan.post(f"/api/matches/{mid}/resign").status_code == 200
    once = ratings(anna, "anna")[POOL]
    two_games_ending_at_once(app, anna, monkeypatch)
    mine = ratings(anna, "anna")[POOL]
    assert (mine["games"], mine["wins"]) == (3, 3)
    history = anna.get("/api/players/anna").json()["history"][POOL]
    assert [h["rating"] for h in history][0] == once["rating"]
    assert history[0]["rating"] < history[1]["rating"] < history[2]["rating"] == mine["rating"]


def test_an_invitation_claimed_twice_at_once_seats_its_person_once(app, anna, monkeypatch):
    # a double click on "Take the seat": both requests gave ben the seat; the one that lost the
    # invitation gave the seat up again (ben's, the winner's: the game left his list), or, on
    # PostgreSQL, met the other's key and answered 500
    ben = person(app, "ben")
    made = anna.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"], "take": [0]}).json()
    mid, code = made["id"], made["invites"][0]["code"]
    standings = app.state.people.standings
    monkeypatch.setattr(standings, "db", HeldWrites(standings.db, Meeting()))
    claim = lambda: ben.post("/api/invites/claim", json={"code": code})  # noqa: E731
    answers = at_once(claim, claim)
    monkeypatch.undo()
    assert sorted(getattr(a, "status_code", 0) for a in answers) == [200, 410], [getattr(a, "text", a) for a in answers]
    ids = {n: app.state.people.accounts._account(n).id for n in ("anna", "ben")}
    assert standings.owners_of(mid) == {0: ids["anna"], 1: ids["ben"]}
    assert [m["id"] for m in ben.get("/api/matches").json()] == [mid]
    assert [p and p["name"] for p in anna.get(f"/api/matches/{mid}").json()["people"]] == ["anna", "ben"]


def test_an_invitation_whose_seat_cannot_be_given_works_again(app, anna, monkeypatch):
    # the seat is given once the invitation is won: a database refusing it then leaves the
    # invitation unused (503), not a seat held by a token its person never got
    from abstracta.people.database import StorageUnavailable

    ben = person(app, "ben")
    made = anna.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"], "take": [0]}).json()
    code = made["invites"][0]["code"]

    def refused(*args):
        raise StorageUnavailable("the database went away")

    monkeypatch.setattr(app.state.people.standings, "take_seat", refused)
    assert ben.post("/api/invites/claim", json={"code": code}).status_code == 503
    monkeypatch.undo()
    assert ben.post("/api/invites/claim", json={"code": code}).status_code == 200
    assert [p and p["name"] for p in anna.get(f"/api/matches/{made['id']}").json()["people"]] == ["anna", "ben"]


def test_a_recovery_code_used_twice_at_once_signs_in_once(app, anna, monkeypatch):
    # each read the code unused and marked it used: a code that signs in once signed in twice,
    # each with a password of its own (PostgreSQL)
    codes = TestClient(app).post("/api/accounts", json={"username": "ben", "password": PW}).json()["recovery_codes"]
    accounts = app.state.people.accounts
    monkeypatch.setattr(accounts, "db", HeldWrites(accounts.db, Meeting()))
    passwords, browsers = ("first new password", "second new password"), [TestClient(app), TestClient(app)]
    answers = at_once(*[lambda b=b, p=p: b.post("/api/accounts/recover",
                                                json={"username": "ben", "code": codes[0], "password": p})
                        for b, p in zip(browsers, passwords)])
    monkeypatch.undo()
    assert sorted(getattr(a, "status_code", 0) for a in answers) == [200, 401], [getattr(a, "text", a) for a in answers]
    assert next(a for a in answers if a.status_code == 401).json()["i18n"]["key"] == "people.error.wrong_code"
    won = [a.status_code for a in answers].index(200)
    assert browsers[won].get("/api/me/recovery-codes").json() == {"left": 7}
    assert TestClient(app).post("/api/session", json={"username": "ben", "password": passwords[won]}).status_code == 200


def test_two_api_tokens_made_at_once_past_the_limit_leave_the_limit_open(app, anna, monkeypatch):
    from abstracta.people import sessions as module

    monkeypatch.setattr(module, "TOKEN_LIMIT", 2)
    make = lambda d: anna.post("/api/me/tokens", json={"description": d, "scopes": ["play"]})  # noqa: E731
    assert make("first").status_code == 201
    sessions = app.state.people.sessions
    monkeypatch.setattr(sessions, "db", HeldWrites(sessions.db, Meeting()))
    answers = at_once(lambda: make("second"), lambda: make("third"))
    monkeypatch.setattr(sessions, "db", sessions.db._db)
    assert sorted(getattr(a, "status_code", 0) for a in answers) == [201, 409], [getattr(a, "text", a) for a in answers]
    assert next(a for a in answers if a.status_code == 409).json()["i18n"]["key"] == "people.error.too_many_tokens"
    assert len(anna.get("/api/me/tokens").json()) == 2


def test_a_guest_signing_up_twice_at_once_becomes_one_account_with_eight_codes(app, monkeypatch):
    # two tabs of one guest: each read the guest a guest still and made it the account, each
    # adding eight recovery codes (sixteen sign in, eight of them never shown) and a session
    guest = TestClient(app)
    assert guest.post("/api/guests").status_code == 201
    accounts = app.state.people.accounts
    monkeypatch.setattr(accounts, "db", HeldWrites(accounts.db, Meeting()))
    up = lambda: guest.post("/api/accounts", json={"username": "ben", "password": PW})  # noqa: E731
    answers = at_once(up, up)
    monkeypatch.undo()
    assert sorted(getattr(a, "status_code", 0) for a in answers) == [201, 409], [getattr(a, "text", a) for a in answers]
    assert next(a for a in answers if a.status_code == 409).json()["i18n"]["key"] == "people.error.name_taken"
    codes = next(a for a in answers if a.status_code == 201).json()["recovery_codes"]
    assert guest.get("/api/me/recovery-codes").json() == {"left": 8}
    assert TestClient(app).post("/api/accounts/recover", json={"username": "ben", "code": codes[0],
                                                               "password": "a new password"}).status_code == 200


def test_new_recovery_codes_made_twice_at_once_leave_eight(app, anna, monkeypatch):
    # two tabs: each deleted the codes there were and added eight, neither seeing the other's
    # (PostgreSQL): sixteen signed in, eight of them shown nowhere it was last looked
    accounts = app.state.people.accounts
    monkeypatch.setattr(accounts, "db", HeldWrites(accounts.db, Meeting()))
    answers = at_once(*[lambda: anna.post("/api/me/recovery-codes", json={"password": PW})] * 2)
    monkeypatch.undo()
    assert [getattr(a, "status_code", 0) for a in answers] == [201, 201], [getattr(a, "text", a) for a in answers]
    assert anna.get("/api/me/recovery-codes").json() == {"left": 8}
