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
        from sqlalchemy import create_engine

        from abstracta.server.schema import drop_schema

        # a plain engine, not make_engine: a test that left the schema half gone (its revision
        # kept, its tables dropped) would make every later test fail at make_engine's own check
        engine = create_engine(url)
        drop_schema(engine)
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
