"""Fixtures for the API tests: an app on a temporary SQLite file, with the toy game registered.

Set ``ABSTRACTA_TEST_DB_URL`` (e.g. ``postgresql+psycopg://abstracta:abstracta@127.0.0.1/abstracta_test``)
to run the same tests against another database; its ``matches`` table is emptied before each test.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ (toy_nim)

from abstracta.core.registry import register_game  # noqa: E402

register_game("toy-nim", "toy_nim:NimGame")


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    url = os.environ.get("ABSTRACTA_TEST_DB_URL")
    if url:
        from abstracta.people.tables import metadata as people_tables
        from abstracta.server.social_tables import metadata as social_tables
        from abstracta.server.storage import Base, make_engine

        from sqlalchemy import text

        engine = make_engine(url)
        Base.metadata.drop_all(engine)
        people_tables.drop_all(engine)  # accounts, sessions, ratings (issue 41)
        social_tables.drop_all(engine)  # chat, push subscriptions, the server's keys (issue 43)
        with engine.begin() as conn:  # the schema's revision: the next app migrates from nothing
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
        engine.dispose()
        return url
    return f"sqlite:///{tmp_path / 'test.db'}"


@pytest.fixture
def client(db_url: str):
    from fastapi.testclient import TestClient

    from apiutil import Creator, make_app

    # scripted clients play faster than people: the rate limits have their own tests
    # (test_server_security.py), which build the app with them on
    with TestClient(make_app(db_url, rate_limits=False)) as c:
        yield Creator(c)
