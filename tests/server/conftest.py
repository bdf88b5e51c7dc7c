"""Fixtures for the API tests: an app on a temporary SQLite file, with the toy game registered."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ (toy_nim)

from abstracta.core.registry import register_game  # noqa: E402

register_game("toy-nim", "toy_nim:NimGame")


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'test.db'}"


@pytest.fixture
def client(db_url: str):
    from fastapi.testclient import TestClient

    from abstracta.server.app import create_app

    with TestClient(create_app(db_url, bot_workers=0)) as c:
        yield c
