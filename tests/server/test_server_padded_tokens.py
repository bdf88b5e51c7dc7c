"""A seat token's rate-limit budget cannot be dodged by padding (issue 44 §3): the limits count a
request under its first few credentials only, so made-up tokens sent before the seat's own were
counted instead of it — over POST …/actions and over the match's WebSocket alike, a seat played
on past its budget (up to its address's, from each address). An act carrying more credentials
than are counted is refused with 422 and changes nothing."""

from __future__ import annotations

import json
import secrets

import pytest
from apiutil import Creator, make_app
from fastapi.testclient import TestClient

from abstracta.server.security import COUNTED_CREDENTIALS


@pytest.fixture
def limited(db_url):
    """Rate limits on: three acts a minute per token, a hundred per address."""
    limits = {"create": ("30/minute", "30/minute"), "invite": ("30/minute", "30/minute"),
              "act": ("100/minute", "3/minute")}
    with TestClient(make_app(db_url, limits=limits)) as c:
        yield Creator(c)


def junk(n=COUNTED_CREDENTIALS):
    """``n`` made-up seat tokens (new ones each call)."""
    return [secrets.token_urlsafe(16) for _ in range(n)]


def spent(client):
    """A toy-nim match (30 stones, two people on this device) whose seat-0 token has spent its
    three acts: (match id, that token, the match's ply)."""
    r = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": "30"}, "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    mid = r.json()["id"]
    token = client.tokens[mid][0]
    other = client.tokens[mid][1]
    for ply in range(0, 6, 2):  # seat 0 moves three times (seat 1 has its own budget)
        for t, p in ((token, ply), (other, ply + 1)):
            r = client.raw.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": p},
                                headers={"Authorization": f"Bearer {t}"})
            assert r.status_code == 200, r.text
    r = client.raw.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 6},
                        headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 429  # the budget is spent
    return mid, token, 6


def test_a_post_padded_with_made_up_tokens_does_not_escape_the_seats_budget(limited):
    mid, token, ply = spent(limited)
    for _ in range(3):
        r = limited.raw.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": ply},
                             headers={"Authorization": "Bearer " + ",".join([*junk(), token])})
        assert r.status_code == 422, r.text
        assert r.json()["error"].startswith(f"an act carries at most {COUNTED_CREDENTIALS} tokens")
    assert limited.get(f"/api/matches/{mid}").json()["ply"] == ply


def test_a_post_with_as_many_tokens_as_are_counted_is_counted_under_its_own(limited):
    mid, token, ply = spent(limited)
    r = limited.raw.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": ply},
                         headers={"Authorization": "Bearer " + ",".join([*junk(COUNTED_CREDENTIALS - 1), token])})
    assert r.status_code == 429


def test_a_socket_padded_with_made_up_tokens_does_not_escape_the_seats_budget(limited):
    mid, token, ply = spent(limited)
    with limited.raw.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.send_json({"tokens": [*junk(), token]})  # a view may read many tokens: the socket opens
        assert ws.receive_json()["my_seats"] == [0]
        ws.send_text(json.dumps({"move": {"action": "1", "ply": ply}, "id": 1}))
        frame = ws.receive_json()
        assert frame["id"] == 1 and frame["status"] == 422, frame
        assert frame["error"].startswith(f"an act carries at most {COUNTED_CREDENTIALS} tokens")
        ws.send_text("ping")  # still open
    assert limited.get(f"/api/matches/{mid}").json()["ply"] == ply
