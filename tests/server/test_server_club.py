"""A club organiser's hostile afternoon (club31): what a stranger did to a served match, and
what the server now does about it. Each refusal is a clear error and the match is unchanged."""

from __future__ import annotations

import pytest
from apiutil import bearer


def people(raw, stones=9):
    """A toy-nim match between two people on two devices: (id, token of seat 0, of seat 1)."""
    view = raw.post("/api/matches", json={"game": "toy-nim", "options": {"stones": stones},
                                          "seats": ["human", "human"]}).json()
    t1 = raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()["tokens"][0]["token"]
    return view["id"], view["tokens"][0]["token"], t1


# --- wrong types are refused, not read as something else ----------------------------------
@pytest.mark.parametrize("accept", ["no", "yes", "false", 0, 1, "on"])
def test_a_takeback_answer_that_is_not_a_json_boolean_is_refused(client, accept):
    """Pydantic's lax mode read "no" as false (the request was declined) and 1 as true."""
    raw = client.raw
    mid, t0, t1 = people(raw)
    raw.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0}, headers=bearer(t0))
    asked = raw.post(f"/api/matches/{mid}/takeback", headers=bearer(t0)).json()
    assert asked["takeback"]["by"] == 0
    r = raw.post(f"/api/matches/{mid}/takeback/answer", json={"accept": accept}, headers=bearer(t1))
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith("accept:")
    after = raw.get(f"/api/matches/{mid}").json()
    assert after["ply"] == 1 and after["takeback"] == asked["takeback"] and after["revision"] == asked["revision"]


@pytest.mark.parametrize("field, value", [("scale", "0.5"), ("scale", "1"), ("hint", "false"), ("hint", 0)])
def test_analysis_fields_of_another_type_are_refused(client, field, value):
    body = {"game": "toy-nim", "position": "7 0", field: value}
    r = client.raw.post("/api/analysis", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith(f"{field}:")
    good = {"game": "toy-nim", "position": "7 0", "scale": 0.5, "hint": False}
    assert client.raw.post("/api/analysis", json=good).status_code == 200


def test_a_clock_that_is_no_time_control_is_named_in_balanced_braces(client):
    r = client.post("/api/matches", json={"game": "toy-nim", "seats": ["human", "human"], "clock": {"minutes": 5}})
    assert r.status_code == 422
    assert r.json()["error"] == ("clock: ['minutes'] is not a time control; give {'initial': s, 'increment': s} "
                                 "(a live clock) or {'per_turn': s} (a deadline per turn)")
