"""The people's requests at the same moment, as tests/server/test_lobby_races.py holds the
lobby's: two games of one player ending together (two workers recording them), a seat of an
invitation claimed by a double click, a guest's sign-up sent twice, an API token made twice at
its limit. Each runs on SQLite and, with ``ABSTRACTA_TEST_DB_URL`` (as CI sets it), on
PostgreSQL, where the workers do not queue their writes: there alone a test of a lock fails
without it.

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

