"""The lean route of a plain move (``acts.PlainMoveRoute``, matched ahead of FastAPI's route of
POST …/actions for speed) answers every request exactly as the full route does: the same
status, the same body, the same match afterwards."""

from __future__ import annotations

import pytest
from apiutil import bearer

from abstracta.server.api.routes.acts import PlainMoveRoute


def create(client, stones=7):
    r = client.post("/api/matches", json={"game": "toy-nim", "options": {"stones": str(stones)},
                                          "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    return r.json()


def lean_route(client) -> PlainMoveRoute:
    routes = client.raw.app.router.routes
    found = [r for r in routes if isinstance(r, PlainMoveRoute)]
    assert len(found) == 1
    return found[0]


def answered(client, method, *args, lean: bool, **kw):
    """The answer with the lean route in place, or with it taken out (the full route alone)."""
    routes = client.raw.app.router.routes
    route = lean_route(client)
    if lean:
        return getattr(client, method)(*args, **kw)
    index = routes.index(route)
    routes.remove(route)
    try:
        return getattr(client, method)(*args, **kw)
    finally:
        routes.insert(index, route)


def counted(monkeypatch) -> dict[str, int]:
    """How many requests the lean route took whole, and how many it handed to the full route."""
    counts = {"lean": 0, "handed": 0}
    answer = PlainMoveRoute.answer

    async def spy(self, request):
        handed = False
        try:
            response = await answer(self, request)
            handed = type(response).__name__ == "Replay"
            return response
        finally:  # a refusal raised on the lean path was the lean route's
            counts["handed" if handed else "lean"] += 1

    monkeypatch.setattr(PlainMoveRoute, "answer", spy)
    return counts


REFUSED = [
    ({"action": "4", "ply": 0}, None, 422),  # not legal
    ({"action": "", "ply": 0}, None, 422),  # the model refuses it
    ({"action": "1", "ply": 3}, None, 409),  # stale
    ({"action": "1", "ply": -1}, None, 422),
    ({"action": "1", "ply": True}, None, 422),  # a JSON true is no ply
    ({"action": 1, "ply": 0}, None, 422),
    ({"action": "1", "ply": 0, "seat": 1}, None, 409),  # the seat is not to move
    ({"action": "1", "ply": 0, "extra": 1}, None, 422),
    ({"action": "1", "ply": 2 ** 70}, None, 409),  # any integer: stale
    ([{"action": "1", "ply": 0}], None, 422),
    ({"action": "1", "ply": 0}, "stranger", 403),
    ({"action": "1", "ply": 0}, "", 401),
    ({"action": "1", "ply": 0}, "x" * 300, 401),
]


@pytest.mark.parametrize("body, token, status", REFUSED)
def test_a_refused_move_is_answered_as_the_full_route_answers_it(client, monkeypatch, body, token, status):
    mid = create(client, stones=3)["id"]
    headers = None if token is None else (bearer(token) if token else {"Authorization": ""})
    kw = {"json": body} if headers is None else {"json": body, "headers": headers}
    counts = counted(monkeypatch)
    lean = answered(client, "post", f"/api/matches/{mid}/actions", lean=True, **kw)
    full = answered(client, "post", f"/api/matches/{mid}/actions", lean=False, **kw)
    assert (lean.status_code, lean.json()) == (full.status_code, full.json())
    assert lean.status_code == status, lean.text
    # the middleware answers 401 before any route; the full route's request never reached the lean one
    assert counts["lean"] + counts["handed"] == (0 if status == 401 else 1)
    after = client.get(f"/api/matches/{mid}").json()
    assert after["ply"] == 0 and after["position"] == "3 0"


def test_unknown_match_not_json_query_and_other_type_as_the_full_route(client, monkeypatch):
    mid = create(client)["id"]
    token = client.tokens[mid][0]
    counts = counted(monkeypatch)
    cases = [
        ("/api/matches/zzz/actions", {"json": {"action": "1", "ply": 0}, "headers": bearer(token)}),
        (f"/api/matches/{mid}/actions", {"content": b"{not json", "headers": {"Content-Type": "application/json",
                                                                              **bearer(token)}}),
        (f"/api/matches/{mid}/actions?seat=1", {"json": {"action": "1", "ply": 0}}),
        (f"/api/matches/{mid}/actions", {"content": b'{"action": "1", "ply": 0}',
                                         "headers": {"Content-Type": "text/plain", **bearer(token)}}),
    ]
    for url, kw in cases:
        lean = answered(client, "post", url, lean=True, **kw)
        full = answered(client, "post", url, lean=False, **kw)
        assert lean.status_code == full.status_code >= 400, (url, lean.text)
        assert lean.json() == full.json()
    # the unknown match (404 from the service); the query (handed on); JSON that does not parse and
    # another type are the middleware's (security.json_check, in the Gate), before any route
    assert counts == {"lean": 1, "handed": 1}
    assert client.get(f"/api/matches/{mid}").json()["ply"] == 0


def test_a_plain_move_is_played_by_the_lean_route_and_answered_with_the_view(client, monkeypatch):
    mid = create(client, stones=7)["id"]
    counts = counted(monkeypatch)
    lean = answered(client, "post", f"/api/matches/{mid}/actions", json={"action": "2", "ply": 0}, lean=True)
    assert counts == {"lean": 1, "handed": 0}
    assert lean.status_code == 200 and lean.headers["content-type"] == "application/json"
    view = lean.json()
    assert view["ply"] == 1 and view["position"] == "5 1" and view == client.get(f"/api/matches/{mid}").json()
    # the next move through the full route: the same shape of answer
    full = answered(client, "post", f"/api/matches/{mid}/actions", json={"action": "1", "ply": 1}, lean=False)
    assert full.status_code == 200 and full.json() == client.get(f"/api/matches/{mid}").json()
    assert list(full.json()) == list(view)
    assert counts == {"lean": 1, "handed": 0}
    # the same move sent again: stale, nothing played twice
    again = answered(client, "post", f"/api/matches/{mid}/actions", json={"action": "2", "ply": 0}, lean=True)
    assert again.status_code == 409 and client.get(f"/api/matches/{mid}").json()["ply"] == 2


def test_the_lean_route_keeps_the_metrics_label_and_leaves_other_methods_alone(client):
    mid = create(client)["id"]
    assert client.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0}).status_code == 200
    metrics = client.raw.get("/metrics").text
    assert 'route="/api/matches/{match_id}/actions"' in metrics
    lean = answered(client, "get", f"/api/matches/{mid}/actions", lean=True)
    full = answered(client, "get", f"/api/matches/{mid}/actions", lean=False)
    assert lean.status_code == full.status_code == 405
