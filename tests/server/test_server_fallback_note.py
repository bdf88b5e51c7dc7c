"""The note of a computer move played by the fallback, in a turn of several actions: when the
computer's search does not answer, a quick search (level 2) plays instead and the view's
``bot_error`` says so, about that move, until an undo removes it. In a turn of several actions
(Fanorona's capture chains) the rest of the turn may come from a search that answered; the note
stays, since a turn is pushed once, when it ends (dropped there, nobody would ever see it)."""

from __future__ import annotations

FALLBACK_NOTE = "level:1 did not answer (its worker process died); a quick search (level:2) played instead"


def test_a_fallbacks_note_survives_the_rest_of_the_computers_turn(client, monkeypatch):
    service = client.raw.app.state.service
    held: list = []
    monkeypatch.setattr(service.jobs, "submit", held.append)  # the computer's searches answer when told
    record = {"format": "abstracta-record", "version": 1, "game": "fanorona", "options": {"size": "dimy"},
              "players": ["human", "level:1"], "moves": ["d3-c3A", "d4-d3A", "b2-b3A"]}
    view = client.post("/api/matches/import", json={"record": record}).json()
    mid = view["id"]
    assert (view["to_move"], view["movers"][-1], view["thinking"]) == (1, 0, True)  # the computer's turn begins
    assert len(held) == 1
    # the first action of its turn is the fallback's (a capture that leaves the turn open)
    service.computer.apply_answer(held[0], "a5-b4A", FALLBACK_NOTE)
    view = client.get(f"/api/matches/{mid}").json()
    assert (view["to_move"], view["bot_error"]) == (1, FALLBACK_NOTE)  # mid-turn: not pushed
    assert len(held) == 2
    # the rest of the turn from a search that answered
    service.computer.apply_answer(held[1], "end", None)
    view = client.get(f"/api/matches/{mid}").json()
    assert view["to_move"] == 0 and view["moves"][3] == "a5-b4A"  # the fallback's move is on the board
    assert view["bot_error"] == FALLBACK_NOTE  # the first view anyone is pushed of that turn
    # the person's turn keeps it (it is about the computer's last turn, still on the board); the
    # computer's next turn, from a search that answered, drops it
    while view["to_move"] == 0 and view["status"] != "over":
        client.post(f"/api/matches/{mid}/actions", json={"action": view["legal"][0], "ply": view["ply"]})
        view = client.get(f"/api/matches/{mid}").json()
        assert view["bot_error"] == FALLBACK_NOTE
    assert view["status"] != "over" and view["to_move"] == 1 and len(held) == 3
    state = service.kernel.current(mid).state
    service.computer.apply_answer(held[2], state.action_to_string(state.legal_actions()[0]), None)
    view = client.get(f"/api/matches/{mid}").json()
    assert view["movers"][-1] == 1 and view["bot_error"] is None
