"""The games database's schema migrations (Alembic, issue 40 §2): the revisions make exactly the
tables the code declares, go down and up again, adopt a database of an earlier version, refuse
one a newer version wrote, and several processes starting at once on one PostgreSQL database
upgrade it one after the other (an advisory lock), not all at once."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import IntegrityError


def test_the_revisions_make_the_tables_the_code_declares(db_url):
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from abstracta.server import migrations
    from abstracta.server.schema import METADATA
    from abstracta.server.storage import make_engine

    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            assert migrations.current(conn) == migrations.head()
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            differences = [compare_metadata(context, metadata) for metadata in METADATA]
        # each metadata's comparison also lists the other's tables as "remove_table"
        declared = {t for m in METADATA for t in m.tables}
        left = [d for diffs in differences for d in diffs
                if not (d[0] == "remove_table" and d[1].name in declared | {"alembic_version"})
                and not (d[0] == "remove_index" and d[1].table.name in declared)]
        assert left == []
    finally:
        engine.dispose()


def test_the_revisions_go_down_and_up_again(db_url):
    from alembic import command

    from abstracta.server import migrations
    from abstracta.server.storage import make_engine

    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:
            command.downgrade(migrations.config(conn), "0002")
            assert migrations.current(conn) == "0002"
            assert "chat_lines" not in inspect(conn).get_table_names()
            assert "people" in inspect(conn).get_table_names()
            command.downgrade(migrations.config(conn), "0001")
            assert migrations.current(conn) == "0001"
            assert "people" not in inspect(conn).get_table_names()
            assert "matches" in inspect(conn).get_table_names()
            command.downgrade(migrations.config(conn), "base")
            assert migrations.current(conn) is None
            assert not {"matches", "people", "chat_lines"} & set(inspect(conn).get_table_names())
        assert migrations.upgrade(engine) == (None, migrations.head())
        assert migrations.upgrade(engine) == (migrations.head(), migrations.head())
    finally:
        engine.dispose()


def test_a_database_of_the_oldest_kind_gets_what_it_lacks(tmp_path):
    """Records only, without the moves table or the turns columns (as the first servers wrote
    it): revision 0001 adds them, the match opens and lists as it was stored."""
    from abstracta.server import migrations
    from abstracta.server.storage import make_engine

    url = f"sqlite:///{tmp_path / 'oldest.db'}"
    raw = create_engine(url)
    with raw.begin() as conn:
        conn.execute(text("CREATE TABLE matches (id VARCHAR(32) NOT NULL PRIMARY KEY, game VARCHAR(64) NOT NULL, "
                          "record TEXT NOT NULL, status VARCHAR(16) NOT NULL, revision INTEGER NOT NULL, "
                          "plies INTEGER NOT NULL, created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL)"))
        conn.execute(text("INSERT INTO matches VALUES ('m1', 'toy-nim', '{}', 'over', 3, 2, '2025-01-01 00:00:00', "
                          "'2025-01-01 00:00:00')"))
    raw.dispose()
    engine = make_engine(url)
    try:
        columns = {c["name"] for c in inspect(engine).get_columns("matches")}
        assert {"turns", "turns_version", "to_move"} <= columns
        assert {"moves", "seat_tokens", "invites", "match_live", "people", "chat_lines"} <= set(inspect(engine).get_table_names())
        with engine.connect() as conn:
            assert conn.execute(text("SELECT id, revision, turns FROM matches")).all() == [("m1", 3, None)]
            assert migrations.current(conn) == migrations.head()
    finally:
        engine.dispose()


def test_a_database_a_newer_version_wrote_is_refused_in_words(tmp_path):
    from abstracta.server.storage import DatabaseError, make_engine

    url = f"sqlite:///{tmp_path / 'newer.db'}"
    make_engine(url).dispose()
    raw = create_engine(url)
    with raw.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0999'"))
    raw.dispose()
    with pytest.raises(DatabaseError, match="cannot be upgraded by this version of abstracta"):
        make_engine(url)


def test_processes_starting_at_once_upgrade_one_after_the_other(db_url):
    """Each worker of a club deployment upgrades the schema as it starts; on PostgreSQL they
    start together, and two creating the same tables at once collided (``pg_type``)."""
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite serves one process (storage.serve_alone)")
    from abstracta.server import migrations
    from abstracta.server.schema import METADATA
    from abstracta.server.storage import make_engine

    engine = make_engine(db_url)  # empty it: nothing upgraded yet
    for metadata in reversed(METADATA):
        metadata.drop_all(engine)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE alembic_version"))
    engine.dispose()
    start, failures, engines = threading.Barrier(4), [], []

    def worker() -> None:
        start.wait()
        try:
            engines.append(make_engine(db_url))
        except Exception as exc:  # noqa: BLE001 - the test reports it
            failures.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == [] and len(engines) == 4
    with engines[0].connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).all() == [(migrations.head(),)]
    for engine in engines:
        engine.dispose()


def test_seeks_open_twice_before_the_unique_index_keep_the_oldest(db_url):
    """Revision 0005 makes the same open seek unique; a database where the race it closes left two
    open (and a third, closed, copy) keeps the oldest open and the rest closed."""
    from alembic import command

    from abstracta.server import migrations
    from abstracta.server.storage import make_engine

    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:
            command.downgrade(migrations.config(conn), "0004")
            for sid, made, closed in (("b", "2026-12-01 10:00:01", None), ("a", "2026-12-01 10:00:00", None),
                                      ("c", "2026-12-01 10:00:02", None), ("old", "2026-12-01 09:00:00",
                                                                          "2026-12-01 09:30:00")):
                conn.execute(text("INSERT INTO seeks (id, person_id, spec, seat, rating, provisional, created_at, "
                                  "closed_at) VALUES (:id, 7, '{}', NULL, 1500, true, :made, :closed)"),
                             {"id": sid, "made": made, "closed": closed})
        assert migrations.upgrade(engine) == ("0004", migrations.head())
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT id, closed_at IS NULL, how FROM seeks ORDER BY id")).all()
        assert [(sid, bool(is_open), how) for sid, is_open, how in rows] == \
            [("a", True, None), ("b", False, "cancelled"), ("c", False, "cancelled"), ("old", False, None)]
        with pytest.raises(IntegrityError), engine.begin() as conn:  # the index is there: a copy of "a" is refused
            conn.execute(text("UPDATE seeks SET closed_at = NULL WHERE id = 'c'"))
    finally:
        engine.dispose()
