"""A running clock low on time looks urgent (README "Clocks"): under 20 s, or under 10 % of the
initial time in a short game but never later than 10 s; bold on red, pulsing unless the system
asks for reduced motion."""

from __future__ import annotations

import json
import re

from httputil import first_moves, post_json


def urgent_at(browser, live_server, initial: int, left: float, reduced: bool = False) -> dict:
    """The running clock of White shown with ``left`` seconds of a game of ``initial`` seconds a
    side: the server's views are given ``left`` (no WebSocket: the page counts from the view)."""
    view = post_json(f"{live_server.url}/api/matches",
                     {"game": "fanorona", "options": {"size": "telo"}, "seats": ["human", "human"], "take": [0],
                      "clock": {"initial": initial, "increment": 0}})
    mid = view["id"]
    post_json(f"{live_server.url}/api/invites/claim", {"code": view["invites"][0]["code"]})
    first_moves(live_server.url, mid)  # the clock runs after each side's first move
    context = browser.new_context_without_tokens(viewport={"width": 1280, "height": 900},
                                                 reduced_motion="reduce" if reduced else "no-preference")
    try:
        context.add_init_script("delete window.WebSocket")
        context.add_init_script(
            f"localStorage.setItem('abstracta.tokens', JSON.stringify({{{json.dumps(mid)}: {{0: {json.dumps(view['tokens'][0]['token'])}}}}}))")
        page = context.new_page()
        page.set_default_timeout(15000)

        def shorter(route):
            response = route.fetch()
            body = response.json()
            body["clock"]["left"][0] = left
            route.fulfill(response=response, json=body)

        page.route(re.compile(rf".*/api/matches/{mid}$"), shorter)
        page.goto(f"{live_server.url}/#/match/{mid}")
        clock = page.locator("#players .clock.running[data-clock='0']")
        clock.wait_for()
        page.wait_for_timeout(300)  # a tick or three of the page's count
        return clock.evaluate("""n => { const s = getComputedStyle(n);
            return { urgent: n.classList.contains('urgent'), weight: Number(s.fontWeight), bg: s.backgroundColor,
                     animation: s.animationName }; }""")
    finally:
        context.close()


def test_a_running_clock_under_its_threshold_looks_urgent(browser, live_server):
    # 5 minutes a side: 0:15 is urgent (it looked like 5:00), 0:25 not yet
    low = urgent_at(browser, live_server, 300, 15)
    assert low["urgent"] and low["weight"] >= 700 and low["bg"] == "rgb(168, 50, 45)" and low["animation"] != "none"
    calm = urgent_at(browser, live_server, 300, 25)
    assert not calm["urgent"] and calm["bg"] != "rgb(168, 50, 45)"
    # a one-minute game is not red for a third of it: 10 % (6 s), but never later than 10 s
    assert not urgent_at(browser, live_server, 60, 12)["urgent"]
    assert urgent_at(browser, live_server, 60, 9)["urgent"]
    # the system asks for reduced motion: urgent still, but still
    still = urgent_at(browser, live_server, 300, 15, reduced=True)
    assert still["urgent"] and still["weight"] >= 700 and still["animation"] == "none"
