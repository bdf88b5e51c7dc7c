"""``abstracta users``: the web app's accounts (issue 41) — a thin wrapper over
:mod:`abstracta.people.admin`, which holds the logic."""

from __future__ import annotations

import sys
from typing import Any, Optional

import typer
from rich.markup import escape
from rich.table import Table

from ..people.admin import open_people, rows
from ..people.errors import PeopleError
from ..server.storage import default_db_url
from .base import _Group, _Typer, app, CliError, console, database_url, guarded

users_app = _Typer(cls=_Group, help="Accounts of the web app (its database, as abstracta serve --db): list, add, "
                   "disable, enable, reset a password.", no_args_is_help=True)
app.add_typer(users_app, name="users")
UsersDb = typer.Option(None, "--db", help="The web app's database: SQLAlchemy URL or an SQLite file's path "
                       "(default: SQLite in the user data directory).")
PasswordStdin = typer.Option(False, "--password-stdin", help="Read the password from standard input (scripts).")


def _people_do(db: str | None, act: Any) -> Any:
    people = open_people(database_url(db) or default_db_url())
    try:
        return act(people)
    except PeopleError as exc:
        raise CliError(exc.message) from None
    finally:
        people.db.engine.dispose()


def _password(from_stdin: bool) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\n")
    return typer.prompt("Password (at least 8 characters)", hide_input=True, confirmation_prompt=True)


@users_app.command("list")
@guarded
def users_list_cmd(db: Optional[str] = UsersDb) -> None:
    """Every account: name, member since, last seen, state, open sessions."""
    table = Table("name", "since", "last seen", "state", "sessions")
    for row in _people_do(db, lambda p: rows(p.accounts.list())):
        table.add_row(*map(escape, row))
    console.print(table)


@users_app.command("add")
@guarded
def users_add_cmd(name: str = typer.Argument(..., metavar="NAME"), db: Optional[str] = UsersDb,
                  password_stdin: bool = PasswordStdin) -> None:
    """Make an account (the password is asked for); prints its recovery codes once."""
    password = _password(password_stdin)
    person, codes = _people_do(db, lambda p: p.accounts.add(name, password))
    console.print(f"account {escape(person.name)} made; its recovery codes (shown once):")
    for code in codes:
        console.print(f"  {code}")


@users_app.command("disable")
@guarded
def users_disable_cmd(name: str = typer.Argument(..., metavar="NAME"), db: Optional[str] = UsersDb) -> None:
    """Disable an account: its sessions end, its API tokens stop, it cannot sign in."""
    person = _people_do(db, lambda p: p.accounts.set_disabled(name, True))
    console.print(f"{escape(person.name)} is disabled")


@users_app.command("enable")
@guarded
def users_enable_cmd(name: str = typer.Argument(..., metavar="NAME"), db: Optional[str] = UsersDb) -> None:
    """Enable a disabled account again."""
    person = _people_do(db, lambda p: p.accounts.set_disabled(name, False))
    console.print(f"{escape(person.name)} is enabled")


@users_app.command("reset-password")
@guarded
def users_reset_cmd(name: str = typer.Argument(..., metavar="NAME"), db: Optional[str] = UsersDb,
                    password_stdin: bool = PasswordStdin) -> None:
    """Set a new password (a random one, printed once, unless --password-stdin gives it); its sessions end."""
    given = sys.stdin.readline().rstrip("\n") if password_stdin else None
    password = _people_do(db, lambda p: p.accounts.reset_password(name, given))
    console.print(f"{escape(name)}: password reset; sessions ended" + ("" if given else f"; new password: {password}"))
