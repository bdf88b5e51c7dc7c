"""Which names have a profile: the lobby's seeks and challenges, the live games' seats and the
chat's lines say whether a name is an account's (a client links it to GET /api/players/{name})
or a guest's (no profile: a link would be dead)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from test_lobby_api import app, anna, move, person, seek  # noqa: F401 - app and anna are fixtures


def test_seeks_and_challenges_say_whose_name_is_an_accounts(app, anna):
    guest = person(app)
    guest_name = guest.get("/api/me").json()["name"]
    seek(anna)
    seek(guest)
    listed = {s["player"]: s["player_kind"] for s in anna.get("/api/seeks").json()}
    assert listed == {"anna": "account", guest_name: "guest"}
    assert anna.get("/api/lobby").json()["seeks"][0]["player_kind"] == "account"
    sent = guest.post("/api/challenges",
                      json={"to": "anna", "game": "toy-nim", "options": {"stones": 9}, "clock": None})
    assert sent.status_code == 201, sent.text
    assert (sent.json()["from_kind"], sent.json()["to_kind"]) == ("guest", "account")
    incoming = anna.get("/api/challenges").json()["in"]
    assert [(c["from"], c["from_kind"], c["to_kind"]) for c in incoming] == [(guest_name, "guest", "account")]
    # the guest has no profile to link to
    assert anna.get(f"/api/players/{guest_name}").status_code == 404
    # the players one blocks
    person(app, "ben")
    for name in ("ben", guest_name):
        assert anna.post("/api/blocks", json={"name": name}).status_code == 201
    assert {b["name"]: b["kind"] for b in anna.get("/api/blocks").json()} == {"ben": "account", guest_name: "guest"}


def test_live_seats_and_chat_lines_say_whose_name_is_an_accounts(app, anna):
    guest = person(app)
    guest_name = guest.get("/api/me").json()["name"]
    mid = guest.post(f"/api/seeks/{seek(anna)}/accept").json()["id"]
    assert anna.post(f"/api/matches/{mid}/chat", json={"text": "good luck"}).status_code == 201
    said = guest.post(f"/api/matches/{mid}/chat", json={"text": "thanks"})
    assert said.status_code == 201 and said.json()["account"] is False
    lines = anna.get(f"/api/matches/{mid}/chat").json()["lines"]
    assert [(line["name"], line["account"]) for line in lines] == [("anna", True), (guest_name, False)]
    # a spectator's line: an account's name, read by a stranger
    ben = person(app, "ben")
    assert ben.post(f"/api/matches/{mid}/chat", json={"text": "hi", "room": "spectators"}).status_code == 201
    spectators = anna.get(f"/api/matches/{mid}/chat?room=spectators").json()["lines"]
    assert [(line["name"], line["account"]) for line in spectators] == [("ben", True)]
    # the live games' list (once a move is made)
    mover = next(c for c in (anna, guest) if c.get(f"/api/matches/{mid}").json()["legal"])
    move(mover, mid)
    app.state.social.live._kept = None  # not the list of a moment ago
    rows = [r for r in TestClient(app).get("/api/live").json() if r["id"] == mid]
    assert rows, "the game is live"
    assert {n["name"]: n["kind"] for n in rows[0]["names"]} == {"anna": "account", guest_name: "guest"}
