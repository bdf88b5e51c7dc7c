"""Your games says whose move it is (README "Playing at a distance"): the list's rows carry the
seat to move and the seats claimed, as the match view does, without loading every match."""

from __future__ import annotations

from apiutil import bearer


def listed(raw, token, mid):
    rows = [m for m in raw.get("/api/matches", headers=bearer(token)).json() if m["id"] == mid]
    assert len(rows) == 1
    return rows[0]["to_move"], rows[0]["claimed"]


def test_the_list_says_the_seat_to_move_and_the_seats_still_invited(client, db_url):
    raw = client.raw
    view = raw.post("/api/matches", json={"game": "toy-nim", "options": {"stones": 3},
                                          "seats": ["human", "human"], "take": [0]}).json()
    mid, mine = view["id"], view["tokens"][0]["token"]
    assert listed(raw, mine, mid) == (0, [True, False])  # the friend invited to seat 1 has not come
    friend = raw.post("/api/invites/claim", json={"code": view["invites"][0]["code"]}).json()["tokens"][0]["token"]
    assert listed(raw, mine, mid) == (0, [True, True])
    raw.post(f"/api/matches/{mid}/actions", json={"action": "1", "ply": 0}, headers=bearer(mine))
    assert listed(raw, friend, mid) == (1, [True, True])

    # a row stored by an earlier version has no seat to move: counted again once, when listed
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE matches SET to_move = NULL, turns_version = 1 WHERE id = :m"), {"m": mid})
        client.raw.app.state.service.evict(mid)
        assert listed(raw, mine, mid) == (1, [True, True])
        with engine.begin() as conn:
            assert conn.execute(text("SELECT to_move FROM matches WHERE id = :m"), {"m": mid}).scalar() == 1
    finally:
        engine.dispose()

    raw.post(f"/api/matches/{mid}/resign", json={}, headers=bearer(friend))
    assert listed(raw, mine, mid) == (None, [True, True])  # over: nobody's move
