"""abstracta moderation list|ban|unban (issue 43 §2): the reports of chat lines kept for the
operator, and chat bans, on the server's database."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from abstracta.cli import app


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def test_moderation_lists_reports_and_bans(tmp_path: Path):
    from fastapi.testclient import TestClient

    from abstracta.server import security
    from abstracta.server.app import create_app

    db = tmp_path / "club.db"
    hosts = security.HostPolicy.for_bind("127.0.0.1", ["testserver"])
    with TestClient(create_app(f"sqlite:///{db}", bot_workers=0,
                               security_settings=security.Security(hosts=hosts, rate_limits=False))) as raw:
        assert "no line has been reported" in run("moderation", "list", "--db", str(db)).output
        view = raw.post("/api/matches", json={"game": "nibble", "seats": ["human", "human"], "take": [0]}).json()
        raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]})
        troll, reader = TestClient(raw.app), TestClient(raw.app)
        troll.post("/api/guests")
        reader.post("/api/guests")
        name = troll.get("/api/me").json()["name"]
        line = troll.post(f"/api/matches/{view['id']}/chat", json={"text": "[bold]nasty[/bold] words"}).json()
        assert reader.post(f"/api/matches/{view['id']}/chat/{line['id']}/report").status_code == 201

        listed = run("moderation", "list", "--db", str(db))
        assert listed.exit_code == 0, listed.output
        flat = " ".join(listed.output.split())
        assert name in flat and "[bold]nasty[/bold]" in flat and view["id"] in flat  # markup printed as text
        banned = run("moderation", "ban", name.lower(), "--db", str(db))
        assert banned.exit_code == 0 and f"{name} is banned from chat; 1 of their lines are hidden" in banned.output
        assert f"{name} (banned)" in " ".join(run("moderation", "list", "--db", str(db)).output.split())
        assert troll.post(f"/api/matches/{view['id']}/chat", json={"text": "again"}).status_code == 403
        assert run("moderation", "unban", name, "--db", str(db)).exit_code == 0
        assert troll.post(f"/api/matches/{view['id']}/chat", json={"text": "sorry"}).status_code == 201
    missing = run("moderation", "ban", "nobody", "--db", str(db))
    assert missing.exit_code == 2 and "nobody is called 'nobody'" in missing.output
