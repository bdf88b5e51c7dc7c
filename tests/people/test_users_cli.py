"""abstracta users list|add|disable|enable|reset-password (issue 41 §1): the CLI's wrapper."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from abstracta.cli import app


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(app, list(args), input=stdin)


def test_users_add_list_disable_enable_reset(tmp_path: Path):
    db = str(tmp_path / "club.db")
    made = run("users", "add", "anna", "--db", db, "--password-stdin", stdin="correct horse\n")
    assert made.exit_code == 0, made.output
    codes = [line.strip() for line in made.output.splitlines() if line.startswith("  ")]
    assert len(codes) == 8 and all(len(c) == 19 for c in codes)
    assert run("users", "add", "ANNA", "--db", db, "--password-stdin", stdin="correct horse\n").exit_code == 2
    short = run("users", "add", "bo", "--db", db, "--password-stdin", stdin="short\n")
    assert short.exit_code == 2 and "at least 8" in short.output
    listed = run("users", "list", "--db", db)
    assert listed.exit_code == 0 and "anna" in listed.output and "active" in listed.output
    assert run("users", "disable", "Anna", "--db", db).exit_code == 0
    assert "disabled" in run("users", "list", "--db", db).output
    missing = run("users", "disable", "nobody", "--db", db)
    assert missing.exit_code == 2 and "no account 'nobody'" in missing.output
    assert run("users", "enable", "anna", "--db", db).exit_code == 0
    reset = run("users", "reset-password", "anna", "--db", db)
    assert reset.exit_code == 0
    password = reset.output.rsplit("new password: ", 1)[1].strip()
    from abstracta.people.admin import open_people

    people = open_people(f"sqlite:///{db}")
    try:
        assert people.accounts.sign_in("anna", password).principal.person.name == "anna"
    finally:
        people.db.engine.dispose()
    given = run("users", "reset-password", "anna", "--db", db, "--password-stdin", stdin="battery staple\n")
    assert given.exit_code == 0 and "battery staple" not in given.output


def test_users_on_a_database_of_the_server(tmp_path: Path):
    """The same database abstracta serve writes: the match tables and the people tables side by side."""
    from abstracta.server.storage import Store

    db = tmp_path / "served.db"
    Store(f"sqlite:///{db}").dispose()
    assert run("users", "add", "ben", "--db", str(db), "--password-stdin", stdin="correct horse\n").exit_code == 0
    assert "ben" in run("users", "list", "--db", str(db)).output
