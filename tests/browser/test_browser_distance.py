"""Two people at a distance (issue 13 §5): two browser contexts, each holding only its own seat's
token (the creator's, and the one an invitation gave), play a whole game while a third context
watches as a spectator, with a clock running on the server. The invitation page and the clock
display are the next session's; here the shell's legal-move buttons play and the views are read."""

from __future__ import annotations

import random

from httputil import get_json, give, post_json


def test_two_browsers_play_through_an_invitation_while_a_third_watches(browser, live_server, shots):
    view = post_json(f"{live_server.url}/api/matches",
                     {"game": "fanorona", "options": {"size": "telo"}, "seats": ["human", "human"],
                      "take": [0], "clock": {"initial": 600, "increment": 5}})
    mid = view["id"]
    assert view["clock"]["running"] is None  # waiting for the invited player
    joined = post_json(f"{live_server.url}/api/invites/claim", {"code": view["invites"][0]["code"]})
    seat_tokens = {0: view["tokens"][0]["token"], 1: joined["tokens"][0]["token"]}
    contexts, pages = [], []
    try:
        for tokens in ({0: seat_tokens[0]}, {1: seat_tokens[1]}, {}):
            context = browser.new_context_without_tokens(viewport={"width": 1000, "height": 800})
            give(context, mid, tokens)
            page = context.new_page()
            page.set_default_timeout(15000)
            page.goto(f"{live_server.url}/#/match/{mid}")
            contexts.append(context)
            pages.append(page)
        for seat, page in enumerate(pages):
            page.wait_for_function("() => window.abstractaView")
            mine = page.evaluate("window.abstractaView.my_seats")
            assert mine == ([seat] if seat < 2 else [])
        rng = random.Random(5)
        for _ in range(200):
            state = get_json(f"{live_server.url}/api/matches/{mid}")
            if state["status"] == "over":
                break
            mover = state["to_move"]
            # the server's clock runs for the mover once each side has made its first move
            assert state["clock"]["running"] == (mover if {0, 1} <= set(state["movers"]) else None)
            page = pages[mover]
            page.wait_for_function(f"() => window.abstractaView.ply === {state['ply']} && "
                                   "window.abstractaView.legal.length > 0")
            # the other person's page offers no move
            assert pages[1 - mover].evaluate("window.abstractaView.legal") == []
            move = rng.choice(page.evaluate("window.abstractaView.legal"))
            page.evaluate(f"document.querySelector('#legal [data-move=\"{move}\"]').click()")
            for other in pages:  # every page follows over its WebSocket
                other.wait_for_function(f"() => window.abstractaView.ply > {state['ply']} || "
                                        "window.abstractaView.status === 'over'")
        final = get_json(f"{live_server.url}/api/matches/{mid}")
        assert final["status"] == "over" and final["termination"] == "normal"
        clock = final["clock"]
        assert clock["running"] is None and all(0 < left <= 600 + 5 * final["ply"] for left in clock["left"])
        for page in pages:
            page.wait_for_function("() => window.abstractaView.status === 'over'")
            assert page.evaluate("window.abstractaView.moves") == final["moves"]
        spectator = pages[2].evaluate("window.abstractaView")
        assert spectator["viewer"] is None and spectator["my_seats"] == []
        assert [p.evaluate("document.getElementById('app').dataset.live") for p in pages] == ["socket"] * 3
        pages[2].screenshot(path=str(shots / "distance-spectator.png"))
    finally:
        for context in contexts:
            context.close()
