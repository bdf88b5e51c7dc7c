"""A game two people are in is deleted by neither (a tester's report): from Bob's Your games,
Delete on a casual game still in play against alice turned her open page into "This game no
longer exists", and Delete on a rated game she had won took it off her Your games, leaving her
profile's "won +241" a link to "No such game". Now Your games offers no Delete for a game
someone else is in (the server refuses it too); a game nobody else was in may go, and a profile
lists its result without a link to a page that is gone. Screenshots at 1280 and 390 px
(``shared-*.png``)."""

from __future__ import annotations

import json

from httputil import TOKENS, post_json
from test_browser_rated_game import fresh, person, sign_up


def _holding(browser, seats: dict[str, list[int]], width: int):
    """Bob's browser: the tokens of these seats only, as the shell keeps them."""
    context = browser.new_context_without_tokens(viewport={"width": width, "height": 844 if width < 500 else 800},
                                                 is_mobile=width < 500, has_touch=width < 500)
    tokens = {mid: {str(s): TOKENS[mid][s] for s in held} for mid, held in seats.items()}
    context.add_init_script(f"localStorage.setItem('abstracta.tokens', {json.dumps(json.dumps(tokens))})")
    return context


def _fetch(page, method: str, path: str, body=None) -> dict:
    """A request of the page's own (its cookie: the person signed in): ``{status, body}``."""
    return page.evaluate("""async ([method, path, body]) => {
        const r = await fetch(path, { method, headers: { "Content-Type": "application/json" },
                                      body: body === null ? undefined : JSON.stringify(body) });
        const text = await r.text();
        return { status: r.status, body: text ? JSON.parse(text) : null };
    }""", [method, path, body])


def test_a_game_with_another_player_offers_no_delete_and_a_deleted_one_leaves_no_dead_link(browser, live_server, shots):
    url = live_server.url
    alice = fresh("alice")
    ctx_a, a = person(browser, 1280)
    try:
        sign_up(a, url, alice)
        # Bob (this browser's tokens) invites; alice, signed in, takes the seat and has her game open
        shared = post_json(f"{url}/api/matches", {"game": "fanorona", "options": {"size": "telo"},
                                                  "seats": ["human", "human"], "take": [0]})
        computer = post_json(f"{url}/api/matches", {"game": "nibble", "seats": ["human", "level:1"]})
        a.goto(f"{url}/#/join/{shared['invites'][0]['code']}")
        a.click("#take-seat:not([disabled])")
        a.wait_for_function(f"() => location.hash === '#/match/{shared['id']}' && window.abstractaView")
        assert a.evaluate("window.abstractaView.my_seats") == [1]

        for width in (1280, 390):
            context = _holding(browser, {shared["id"]: [0], computer["id"]: [0]}, width)
            try:
                b = context.new_page()
                b.goto(f"{url}/#/matches")
                row = b.locator(f"#match-list tr[data-id='{shared['id']}']")
                row.wait_for()
                assert row.locator("button.delete").count() == 0
                assert b.locator(f"#match-list tr[data-id='{computer['id']}'] button.delete").is_visible()
                assert b.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
                b.screenshot(path=str(shots / f"shared-your-games-{width}.png"), full_page=True)
            finally:
                context.close()
        # alice's page still shows her game: nothing was deleted under her
        a.wait_for_timeout(500)
        assert a.locator("#not-found").count() == 0 and a.evaluate("window.abstractaView.status") == "playing"

        # a game alice played alone against the computer is hers to delete; her profile keeps its
        # result but links to no page that is gone
        alone = _fetch(a, "POST", "/api/matches", {"game": "nibble", "seats": ["human", "level:1"]})["body"]["id"]
        assert _fetch(a, "POST", f"/api/matches/{alone}/resign")["status"] == 200
        a.goto(f"{url}/#/matches")
        a.locator(f"#match-list tr[data-id='{alone}']").wait_for()
        assert a.locator(f"#match-list tr[data-id='{shared['id']}'] button.delete").count() == 0
        a.once("dialog", lambda dialog: dialog.accept())
        a.click(f"#match-list tr[data-id='{alone}'] button.delete")
        a.wait_for_function(f"() => !document.querySelector(\"#match-list tr[data-id='{alone}']\")")
        a.goto(f"{url}/#/players/{alice}")
        a.wait_for_selector("#recent-games li")
        line = a.locator("#recent-games li").first
        assert line.locator("a[href^='#/match/']").count() == 0
        assert line.locator("span.deleted").inner_text() == "Nibble"
        assert line.inner_text().endswith("· game deleted") and "lost" in line.inner_text()
        a.screenshot(path=str(shots / "shared-profile-deleted-1280.png"), full_page=True)
        a.set_viewport_size({"width": 390, "height": 844})
        a.screenshot(path=str(shots / "shared-profile-deleted-390.png"), full_page=True)
        assert a.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        ctx_a.close()
