"""A people service on a temporary SQLite file, with light Argon2id parameters and a clock the
tests move."""

from __future__ import annotations

import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest


class Clock:
    def __init__(self) -> None:
        self.at = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.at

    def advance(self, **kwargs: float) -> None:
        self.at += timedelta(**kwargs)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def engine(tmp_path: Path):
    """SQLite in a temporary file, or ``ABSTRACTA_TEST_DB_URL`` (PostgreSQL) with the people
    tables emptied first."""
    from sqlalchemy import create_engine

    url = os.environ.get("ABSTRACTA_TEST_DB_URL")
    engine = create_engine(url or f"sqlite:///{tmp_path / 'people.db'}")
    if url:
        from abstracta.people.tables import metadata

        metadata.drop_all(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def people(engine, clock):
    from abstracta.people import People
    from abstracta.people.credentials import Passwords

    return People(engine, passwords=Passwords.light(), now=clock)
