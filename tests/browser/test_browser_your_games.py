"""'Your games' with many games (study33): every game this browser holds a seat of is listed,
newest first, fifty at a time, and can be narrowed to one game or to the games still in play."""

from __future__ import annotations

import json

from abstracta.server.matches import TOKEN_LIMIT
from httputil import TOKENS, post_json


def _context_holding(browser, ids):
    """A browser context whose localStorage holds the tokens of ``ids`` (oldest first, as the
    shell keeps them) and nothing else."""
    context = browser.new_context_without_tokens(viewport={"width": 1280, "height": 800})
    tokens = {i: {str(s): t for s, t in TOKENS[i].items()} for i in ids}
    context.add_init_script(f"localStorage.setItem('abstracta.tokens', {json.dumps(json.dumps(tokens))})")
    return context


def test_a_browser_with_more_tokens_than_one_request_takes_lists_every_game(browser, live_server):
    # four-player pass and play: four tokens a game, so 51 games hold more than TOKEN_LIMIT
    ids = []
    for _ in range(TOKEN_LIMIT // 4 + 1):
        ids.append(post_json(f"{live_server.url}/api/matches",
                             {"game": "slide-checkers", "options": {"players": 4}, "seats": ["human"] * 4})["id"])
    newest = post_json(f"{live_server.url}/api/matches", {"game": "nibble", "seats": ["human", "human"]})
    ids.append(newest["id"])
    assert sum(len(TOKENS[i]) for i in ids) > TOKEN_LIMIT
    context = _context_holding(browser, ids)
    page = context.new_page()
    page.goto(f"{live_server.url}/#/matches")
    page.locator("#match-list").wait_for()
    rows = page.locator("#match-list tbody tr")
    # the newest game first: its tokens are past the first TOKEN_LIMIT the browser keeps
    assert rows.first.get_attribute("data-id") == newest["id"]
    assert page.locator("#games-count").text_content() == f"{len(ids)} games"
    assert rows.count() == 50
    page.click("#more-games")
    assert rows.count() == len(ids)
    assert {rows.nth(k).get_attribute("data-id") for k in range(len(ids))} == set(ids)
    assert page.locator("#more-games").count() == 0
    context.close()


def test_your_games_narrowed_to_one_game_and_to_games_in_play(browser, live_server, shots):
    url = live_server.url
    fan_playing = post_json(f"{url}/api/matches", {"game": "fanorona", "options": {"size": "dimy"}, "seats": ["human", "human"]})
    fan_over = post_json(f"{url}/api/matches", {"game": "fanorona", "options": {"size": "dimy"}, "seats": ["human", "human"]})
    post_json(f"{url}/api/matches/{fan_over['id']}/resign", {"seat": 0})
    nib_playing = post_json(f"{url}/api/matches", {"game": "nibble", "seats": ["human", "human"]})
    ids = [fan_playing["id"], fan_over["id"], nib_playing["id"]]
    context = _context_holding(browser, ids)
    page = context.new_page()
    page.goto(f"{url}/#/matches")
    page.locator("#match-list").wait_for()
    rows = page.locator("#match-list tbody tr")
    assert rows.count() == 3
    page.select_option("#filter-game", "fanorona")
    assert [rows.nth(k).get_attribute("data-id") for k in range(rows.count())] == [fan_over["id"], fan_playing["id"]]
    assert page.locator("#games-count").text_content() == "2 of 3 games"
    page.select_option("#filter-status", "playing")
    assert [rows.nth(k).get_attribute("data-id") for k in range(rows.count())] == [fan_playing["id"]]
    page.select_option("#filter-game", "")
    assert [rows.nth(k).get_attribute("data-id") for k in range(rows.count())] == [nib_playing["id"], fan_playing["id"]]
    page.select_option("#filter-status", "over")
    page.select_option("#filter-game", "nibble")
    assert rows.count() == 0
    assert page.locator("#no-match").is_visible()
    page.screenshot(path=str(shots / "your-games-filtered.png"))
    context.close()


def test_deleting_the_last_game_of_a_kind_drops_it_from_the_game_filter(browser, live_server):
    # the game filter's choices were made once: a deleted game's kind stayed offered (and chosen)
    url = live_server.url
    fan = post_json(f"{url}/api/matches", {"game": "fanorona", "options": {"size": "dimy"}, "seats": ["human", "human"]})
    nib = post_json(f"{url}/api/matches", {"game": "nibble", "seats": ["human", "human"]})
    context = _context_holding(browser, [fan["id"], nib["id"]])
    page = context.new_page()
    page.goto(f"{url}/#/matches")
    page.locator("#match-list").wait_for()
    options = page.locator("#filter-game option")
    assert [options.nth(k).get_attribute("value") for k in range(options.count())] == ["", "fanorona", "nibble"]
    page.select_option("#filter-game", "nibble")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(f"#match-list tr[data-id='{nib['id']}'] button.delete").click()
    page.wait_for_function(f"() => !document.querySelector(\"#match-list tr[data-id='{nib['id']}']\")")
    assert [options.nth(k).get_attribute("value") for k in range(options.count())] == ["", "fanorona"]
    assert page.locator("#games-count").text_content() == "1 game"
    # the filter on the game gone is lifted: the games left are shown, not "no game matches"
    assert page.locator("#filter-game").input_value() == ""
    rows = page.locator("#match-list tbody tr")
    assert [rows.nth(k).get_attribute("data-id") for k in range(rows.count())] == [fan["id"]]
    assert not page.locator("#no-match").is_visible()
    context.close()


def test_every_game_is_listed_past_the_servers_largest_page(browser, live_server):
    # the browser asked for at most 500 games (GET /api/matches?limit=, the server's largest) and
    # cut the merged answers at 500: a browser holding more lost its oldest games from the list
    # although README says every game is listed. Each request sends at most TOKEN_LIMIT tokens,
    # so its answer (one match a token at most) always fits one page of 500
    url = live_server.url
    limit = next(p for p in live_server.app.openapi()["paths"]["/api/matches"]["get"]["parameters"] if p["name"] == "limit")
    assert TOKEN_LIMIT <= limit["schema"]["maximum"] == 500  # what api.js counts on
    ids = [post_json(f"{url}/api/matches", {"game": "fanorona", "options": {"size": "dimy"}, "seats": ["human", "human"]})["id"]
           for _ in range(505)]
    context = _context_holding(browser, ids)
    page = context.new_page()
    page.goto(f"{url}/#/matches")
    page.locator("#match-list").wait_for()
    assert page.locator("#games-count").text_content() == "505 games"
    listed = page.evaluate("""async () => (await import('/api.js')).myMatches().then((rows) => rows.map((r) => r.id))""")
    assert sorted(listed) == sorted(ids) and listed[0] == ids[-1] and listed[-1] == ids[0]
    context.close()
    for i in ids:  # later tests' pages get every token httputil holds: not these thousand
        TOKENS.pop(i)
