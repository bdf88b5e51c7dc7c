"""Alembic's environment for the games database (issue 40 §2): the schema is the match store's
tables, the people's and a match's company's (:data:`abstracta.server.schema.METADATA`).

Run by :func:`abstracta.server.migrations.upgrade` with a connection it holds (``config.attributes
["connection"]``, inside the transaction that holds PostgreSQL's advisory lock), or by Alembic's own
command line for a developer writing a revision (``alembic -c src/abstracta/server/migrations/alembic.ini
revision --autogenerate -m "..."``, the database named by ``-x db=URL``; docs/development.md).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from abstracta.server.schema import METADATA

config = context.config


def run(connection) -> None:
    context.configure(connection=connection, target_metadata=list(METADATA),
                      # SQLite alters a table by copying it (ALTER TABLE cannot drop or change a column)
                      render_as_batch=connection.dialect.name == "sqlite", compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


def run_offline() -> None:
    context.configure(url=context.get_x_argument(as_dictionary=True).get("db") or config.get_main_option("sqlalchemy.url"),
                      target_metadata=list(METADATA), literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
elif config.attributes.get("connection") is not None:
    run(config.attributes["connection"])
else:
    url = context.get_x_argument(as_dictionary=True).get("db") or config.get_main_option("sqlalchemy.url")
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            run(connection)
    finally:
        engine.dispose()
