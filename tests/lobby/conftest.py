"""A lobby on a temporary SQLite file, with the people's clock the tests move and a stand-in for
the server's function that starts a game (it notes what it was asked)."""

from __future__ import annotations

import os
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ (toy_nim)

from abstracta.core.registry import register_game  # noqa: E402

register_game("toy-nim", "toy_nim:NimGame")


class Clock:
    def __init__(self) -> None:
        self.at = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.at

    def advance(self, **kwargs: float) -> None:
        self.at += timedelta(**kwargs)

    def stamp(self) -> float:
        return self.at.timestamp()


class Starts:
    """The server's ``start`` for the lobby: records each game asked for, answers an id."""

    def __init__(self) -> None:
        self.games: list[tuple] = []

    def __call__(self, spec, players, seated, source):
        self.games.append((spec, list(players), dict(seated), source))
        return f"m{len(self.games)}"


class Gone:
    """The presence the lobby reads: people connected, or gone since a time."""

    def __init__(self) -> None:
        self.online: set[int] = set()
        self.since: dict[int, float] = {}

    def __call__(self, person: int, default: float) -> float | None:
        if person in self.online:
            return None
        return max(self.since.get(person, default), default)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def lobby(tmp_path, clock):
    from sqlalchemy import create_engine

    from abstracta.lobby import Lobby
    from abstracta.lobby.tables import metadata
    from abstracta.people import People
    from abstracta.people.credentials import Passwords

    url = os.environ.get("ABSTRACTA_TEST_DB_URL")
    engine = create_engine(url or f"sqlite:///{tmp_path / 'lobby.db'}")
    if url:
        from abstracta.people.tables import metadata as people_tables

        metadata.drop_all(engine)
        people_tables.drop_all(engine)
    people = People(engine, passwords=Passwords.light(), now=clock)
    made = Lobby(people, Starts(), gone_since=Gone())
    yield made
    engine.dispose()
