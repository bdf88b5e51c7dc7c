"""Your games says whose move a game in play waits for (README "Playing at a distance"): "your
move", marked, where it is one of this browser's seats, else the side to move, and "waiting for
Black to join" while an invited friend has not come; in English and Finnish."""

from __future__ import annotations

import json

from httputil import get_json, post_json


def test_your_games_says_whose_move_it_is(browser, live_server):
    url = live_server.url
    mine = {}
    views = []
    for _ in range(3):  # White here, Black invited
        view = post_json(f"{url}/api/matches", {"game": "fanorona", "options": {"size": "telo"},
                                                "seats": ["human", "human"], "take": [0]})
        mine[view["id"]] = {"0": view["tokens"][0]["token"]}
        views.append(view)
    waiting, yours, theirs = views
    for view in (yours, theirs):  # the friend came
        post_json(f"{url}/api/invites/claim", {"code": view["invites"][0]["code"]})
    legal = get_json(f"{url}/api/matches/{theirs['id']}")["legal"]
    post_json(f"{url}/api/matches/{theirs['id']}/actions", {"action": legal[0], "ply": 0})
    for locale, words in (("en-GB", ("waiting for Black to join", "your move", "Black to move")),
                          ("fi-FI", ("odotetaan, että Musta liittyy peliin", "sinun vuorosi", "Vuorossa: Musta"))):
        context = browser.new_context_without_tokens(viewport={"width": 1280, "height": 800}, locale=locale)
        context.add_init_script(f"localStorage.setItem('abstracta.tokens', {json.dumps(json.dumps(mine))})")
        try:
            page = context.new_page()
            page.goto(f"{url}/#/matches")
            page.locator("#match-list tbody tr").first.wait_for()
            said = [page.locator(f"#match-list tr[data-id='{v['id']}'] td:nth-child(5)").inner_text() for v in views]
            assert said == list(words)
            marked = page.locator(f"#match-list tr[data-id='{yours['id']}'] .yourmove")
            assert marked.count() == 1 and int(marked.evaluate("n => getComputedStyle(n).fontWeight")) >= 700
            assert page.locator(f"#match-list tr[data-id='{theirs['id']}'] .yourmove").count() == 0
        finally:
            context.close()
