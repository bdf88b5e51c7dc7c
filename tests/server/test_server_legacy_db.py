"""A database written by an earlier server upgrades itself when the server starts (Alembic, issue
40 §2: it gets its ``alembic_version`` row) and opens with its games unchanged, and they play on:
two people's Fanorona with a draw offer pending and a declined takeback told, Nibble against the
computer with a hint counted, two finished games (resigned, drawn by agreement), the card game
against the computer, and three-player Slide Checkers on a live clock with a seat out on time
(``legacy/make_legacy_db.py`` made them). Two such databases: written by the server of e426a3e
(before the play session of issue 37, and before people) and by main at a0b5ecc (before Alembic,
the people's tables made by ``create_all``, an account signed up). With ``ABSTRACTA_TEST_DB_URL``
naming a PostgreSQL database, each is also written there as that server would have made it on
PostgreSQL (its tables by ``create_all``, the rows copied) and upgraded and played the same way."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from datetime import timezone
from pathlib import Path

import pytest
from apiutil import bearer, hand_clock, make_app, wait_for
from fastapi.testclient import TestClient

LEGACY = Path(__file__).parent / "legacy"


def digest(struct: dict) -> str:
    return hashlib.sha256(json.dumps(struct, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


#: the databases of tests/server/legacy/, by the version that wrote them
WRITERS = ("e426a3e", "main-a0b5ecc")


def revision_of(db: Path) -> str | None:
    """The database's Alembic revision (None: it has no ``alembic_version`` table)."""
    import sqlite3

    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT version_num FROM alembic_version").fetchall()
    except sqlite3.OperationalError:
        return None
    finally:
        con.close()
    assert len(rows) == 1
    return rows[0][0]


def onto_postgresql(db: Path, url: str, writer: str) -> None:
    """Write the database ``db`` (SQLite) into the PostgreSQL database ``url`` as the server of
    ``writer`` would have made it there: its tables by ``create_all`` (the match store's, and from
    a0b5ecc on the people's; no ``alembic_version``), every row copied, the sequences past the
    copied ids (as if that server had inserted them). What ``url`` held before is dropped."""
    from sqlalchemy import create_engine, func, select, text

    from abstracta.people.tables import metadata as people
    from abstracta.server.schema import drop_schema
    from abstracta.server.storage import Base

    old = [Base.metadata] + ([people] if writer != "e426a3e" else [])
    source, target = create_engine(f"sqlite:///{db}"), create_engine(url)
    try:
        with target.begin() as conn:
            drop_schema(conn)
            for metadata in old:
                metadata.create_all(conn)
        with source.connect() as src, target.begin() as dst:
            for metadata in old:
                for table in metadata.sorted_tables:
                    rows = [{k: v.replace(tzinfo=timezone.utc) if hasattr(v, "tzinfo") and v.tzinfo is None else v
                             for k, v in row.items()} for row in src.execute(select(table)).mappings()]
                    if rows:
                        dst.execute(table.insert(), rows)
                    for column in table.primary_key.columns:
                        if column.autoincrement is True:  # people, rating_history, level_results
                            top = dst.execute(select(func.max(column))).scalar()
                            if top is not None:
                                dst.execute(text("SELECT setval(pg_get_serial_sequence(:t, :c), :n)"),
                                            {"t": table.name, "c": column.name, "n": top})
    finally:
        source.dispose()
        target.dispose()


def revision_at(url: str) -> str | None:
    """The Alembic revision of the database ``url`` (None: it has none)."""
    from sqlalchemy import create_engine

    from abstracta.server.migrations import current

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return current(conn)
    finally:
        engine.dispose()


#: the databases the legacy ones are tried on: SQLite (their own files), and PostgreSQL when the
#: tests are given one
BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=[(w, b) for w in WRITERS for b in BACKENDS], ids=lambda p: f"{p[0]}-{p[1]}")
def legacy(request, tmp_path, monkeypatch):
    """``(client, saved, clock)``: the app on a copy of the database, its clock where the old
    server stopped, and what that server had shown (``NAME.json``)."""
    writer, backend = request.param
    saved = json.loads((LEGACY / f"{writer}.json").read_text())
    db = tmp_path / "legacy.sqlite"
    shutil.copy(LEGACY / f"{writer}.sqlite", db)
    assert revision_of(db) is None  # written before Alembic
    if backend == "sqlite":
        url = f"sqlite:///{db}"
    else:
        url = os.environ.get("ABSTRACTA_TEST_DB_URL", "")
        if not url.startswith("postgresql"):
            pytest.skip("no PostgreSQL database given (ABSTRACTA_TEST_DB_URL)")
        onto_postgresql(db, url, writer)
        assert revision_at(url) is None
    clock = hand_clock(monkeypatch)
    clock.now = saved["now"]
    with TestClient(make_app(url, bot_workers=0, rate_limits=False)) as raw:
        from abstracta.server.migrations import head

        assert revision_at(url) == head()  # upgraded when the server started
        raw.saved = saved
        yield raw, saved["games"], clock


def seen(raw, mid: str, token: str | None) -> dict:
    view = raw.get(f"/api/matches/{mid}", headers=bearer(token) if token else {}).json()
    view["struct"] = digest(view["struct"])
    return view


def test_every_game_opens_as_the_old_server_showed_it(legacy):
    raw, games, _ = legacy
    assert len(games) == 6
    for name, game in games.items():
        for who, old in game["views"].items():
            token = None if who == "spectator" else game["tokens"][who]
            new = seen(raw, game["id"], token)
            # every field the old view had says the same (the view may have gained fields since)
            changed = {key: (value, new.get(key)) for key, value in old.items() if new.get(key) != value}
            assert not changed, (name, who, changed)
        if game["record"] is not None:
            assert raw.get(f"/api/matches/{game['id']}/record").json() == game["record"], name
    listed = raw.get("/api/matches", headers=bearer(*[t for g in games.values() for t in g["tokens"].values()]))
    assert sorted(m["id"] for m in listed.json()) == sorted(g["id"] for g in games.values())


def first_legal(raw, mid, token):
    view = raw.get(f"/api/matches/{mid}", headers=bearer(token)).json()
    r = raw.post(f"/api/matches/{mid}/actions", json={"action": view["legal"][0], "ply": view["ply"]},
                 headers=bearer(token))
    assert r.status_code == 200, r.text
    return r.json()


def play_turn(raw, mid, token, seat):
    """``seat`` plays a whole turn (its first legal action until another seat is to move)."""
    view = first_legal(raw, mid, token)
    while view["to_move"] == seat:
        view = first_legal(raw, mid, token)
    return view


def computer_answered(raw, mid, seat):
    """The view once the computer's seats have played and ``seat`` is to move again."""
    view = wait_for(raw, mid, lambda v: (v["to_move"] == seat and not v["thinking"]) or v["status"] == "over")
    assert view["movers"][-1] != seat
    return view


def test_the_games_in_play_play_on(legacy):
    raw, games, clock = legacy
    # Fanorona between people: the offerer (seat 1) moves and its offer stands; seat 0, which had
    # to answer it, moves instead and it lapses
    game = games["fanorona_people"]
    mid, tok = game["id"], game["tokens"]
    assert game["views"]["spectator"]["draw_offer"]["by"] == 1
    view = first_legal(raw, mid, tok["1"])
    assert view["draw_offer"]["by"] == 1 and view["takeback_ended"] is None
    view = first_legal(raw, mid, tok["0"])
    assert view["draw_offer"] is None and view["draw_offer_ended"]["how"] == "lapsed"
    assert view["ply"] >= game["views"]["spectator"]["ply"] + 2
    # Nibble against the computer: a move, the computer's answer, the hint still counted
    game = games["nibble_computer"]
    mid, tok = game["id"], game["tokens"]
    before = game["views"]["0"]["ply"]
    play_turn(raw, mid, tok["0"], 0)
    view = computer_answered(raw, mid, 0)
    assert view["ply"] > before + 1 and view["hints"] == [1, 0]
    # the card game against the computer: the same
    game = games["cards_computer"]
    mid, tok = game["id"], game["tokens"]
    before = game["views"]["0"]["ply"]
    play_turn(raw, mid, tok["0"], 0)
    view = computer_answered(raw, mid, 0)
    assert view["ply"] > before + 1
    # three-player Slide Checkers on the clock: Green's time ran since the old server stopped,
    # each move adds the increment, and Red (out on time) is the computer's
    game = games["slide_three_clock"]
    mid, tok = game["id"], game["tokens"]
    old = game["views"]["spectator"]
    assert old["clock"]["out"] == [2] and old["players"][2] == "level:1" and old["to_move"] == 0
    left = old["clock"]["left"]
    clock.now += 2
    view = first_legal(raw, mid, tok["0"])
    assert view["clock"]["left"][0] == left[0] - 2 + 3 and view["to_move"] == 1
    view = first_legal(raw, mid, tok["1"])
    assert view["to_move"] == 2
    view = computer_answered(raw, mid, 0)
    assert view["movers"][-3:] == [0, 1, 2] and view["ply"] == old["ply"] + 3 and view["clock"]["out"] == [2]


def test_the_finished_games_stay_finished(legacy):
    raw, games, _ = legacy
    for name in ("fanorona_resigned", "fanorona_agreed"):
        game = games[name]
        old = game["views"]["0"]
        r = raw.post(f"/api/matches/{game['id']}/actions", json={"action": "x", "ply": old["ply"]},
                     headers=bearer(game["tokens"]["0"]))
        assert r.status_code == 409 and r.json()["i18n"]["key"] == "error.game_over"
        r = raw.post(f"/api/matches/{game['id']}/undo", headers=bearer(*game["tokens"].values()))
        assert r.status_code == 409
        assert seen(raw, game["id"], game["tokens"]["0"])["result"] == old["result"]


def test_an_account_of_the_old_server_signs_in_and_a_new_one_signs_up(legacy):
    raw, _, _ = legacy
    account = raw.saved.get("account")
    if account is None:  # e426a3e had no people: its upgrade made their tables
        r = raw.post("/api/accounts", json={"username": "newcomer", "password": "correct horse battery"})
        assert r.status_code == 201, r.text
        return
    r = raw.post("/api/session", json=account)
    assert r.status_code == 200 and r.json()["name"] == account["username"], r.text
    r = raw.post("/api/accounts", json={"username": account["username"].lower(), "password": "another password"})
    assert r.status_code == 409  # the name is still taken, in any case


def test_abstracta_db_upgrade_upgrades_a_database_of_each_writer(tmp_path):
    from typer.testing import CliRunner

    from abstracta.cli import app
    from abstracta.server.migrations import head

    for writer in WRITERS:
        db = tmp_path / f"{writer}.sqlite"
        shutil.copy(LEGACY / f"{writer}.sqlite", db)
        result = CliRunner().invoke(app, ["db", "upgrade", "--db", str(db)])
        assert result.exit_code == 0, result.output
        assert f"to revision {head()}" in " ".join(result.output.split()) and revision_of(db) == head()
        result = CliRunner().invoke(app, ["db", "upgrade", "--db", str(db)])
        assert result.exit_code == 0 and "nothing to do" in result.output
