"""What ``abstracta users`` does (issue 41 §1), for the CLI's thin wrapper: open the people of
a database and act on its accounts (list, add, disable, enable, reset a password).

    people = open_people("sqlite:////path/abstracta.db")
    person, codes = people.accounts.add("anna", password)
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine

from .accounts import AccountInfo
from .service import People


def open_people(url: str) -> People:
    """The people of the database at ``url`` (SQLAlchemy URL; tables created if missing).
    The caller disposes ``people.db.engine`` when done."""
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    return People(create_engine(url, **kwargs))


def rows(accounts: list[AccountInfo]) -> list[tuple[str, str, str, str, str]]:
    """The table ``abstracta users list`` prints: name, member since, last seen, state, sessions."""
    return [(a.name, a.created_at.date().isoformat(), a.last_seen_at.strftime("%Y-%m-%d %H:%M"),
             "disabled" if a.disabled else "active", str(a.sessions)) for a in accounts]


__all__ = ["open_people", "rows"]
