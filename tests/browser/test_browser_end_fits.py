"""At the end of a game the whole board is in sight, result banner and all (issue 38 item 6): on a
phone the replay's steps float at the foot of the screen, and the banner above the board pushed
an upright Fanorona board's last row and labels under them."""

from __future__ import annotations

import json

import pytest
from httputil import TOKENS, post_json
from test_browser_result_banner import THREE

#: the widths (and heights) the browser tests use: phones and desktops
SCREENS = [(360, 740), (390, 844), (450, 900), (1100, 900), (1280, 900)]

#: where the board is against the screen and the floating steps (none on a desktop)
PLACE = """() => {
  const b = document.querySelector('#board svg.board').getBoundingClientRect();
  const s = document.querySelector('.stepper');
  const fixed = !s.hidden && getComputedStyle(s).position === 'fixed';
  return {top: b.top, bottom: b.bottom, width: b.width, height: b.height, scrollY: window.scrollY,
          foot: fixed ? s.getBoundingClientRect().top : window.innerHeight, fixed};
}"""


def finished(server, game: str) -> str:
    if game == "slide-checkers":  # three players: the longest banner (three lines on a phone)
        return post_json(f"{server.url}/api/matches/import", {"record": THREE, "seats": ["human", "level:1", "level:1"]})["id"]
    # the game: upright on a phone, the tallest board; a move played, then resigned
    view = post_json(f"{server.url}/api/matches", {"game": game, "seats": ["human", "human"]})
    post_json(f"{server.url}/api/matches/{view['id']}/actions", {"action": view["legal"][0], "ply": 0})
    post_json(f"{server.url}/api/matches/{view['id']}/resign", {"seat": 1})
    return view["id"]


@pytest.mark.parametrize(("game", "who"), [("fanorona", "player"), ("slide-checkers", "player"),
                                           ("fanorona", "waiting"), ("slide-checkers", "waiting"),
                                           ("fanorona", "spectator")])
def test_the_whole_board_is_in_sight_at_the_end(browser, live_server, shots, game, who):
    # who: the browser that played it; the same while another game waits for its move; a
    # spectator (Fanorona's: the three players' banner over Slide Checkers' board and the
    # spectator's note leave less than 200 px on a 360 px phone, where the page scrolls instead)
    waiting = who == "waiting"
    mid = finished(live_server, game)
    # the tokens of this game only (the fixture's contexts hold every test match's, whose games
    # waiting for a move put a badge in the header)
    held = {mid: TOKENS[mid]} if who != "spectator" else {}
    if waiting:
        # another game waits for this browser's move: the header's "Your move" badge comes after
        # the board is drawn and, on a phone, makes the header a line taller
        other = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "seats": ["human", "level:1"]})
        assert other["to_move"] == 0 and other["human_to_move"], other
        held[other["id"]] = TOKENS[other["id"]]
    stored = json.dumps({m: {str(seat): token for seat, token in seats.items()} for m, seats in held.items()})
    for width, height in SCREENS:
        phone = width < 500
        context = browser.new_context_without_tokens(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
        context.add_init_script(f"localStorage.setItem('abstracta.tokens', {json.dumps(stored)})")
        try:
            page = context.new_page()
            page.goto(f"{live_server.url}/#/match/{mid}")
            page.wait_for_function("() => window.abstractaView && window.abstractaView.status === 'over'")
            page.locator("#result").wait_for(state="visible")
            if waiting:
                page.locator("#turn-badge").wait_for(state="visible")
            page.wait_for_timeout(100)  # the board's last drawing
            place = page.evaluate(PLACE)
            assert place["fixed"] == (width <= 760), place  # the steps float on a phone only
            # from the top of the page: the banner, then all of the board above the steps
            assert place["scrollY"] == 0 and place["top"] > page.locator("#result").bounding_box()["y"], place
            assert place["bottom"] <= place["foot"], (width, place)
            # all of it across too, and still a board to look at, not a thumbnail
            assert place["width"] <= width and place["height"] >= 200, (width, place)
            page.screenshot(path=str(shots / f"end-fits-{game}-{width}-{who}.png"))
        finally:
            context.close()


def test_a_step_back_in_a_running_game_keeps_the_boards_size(browser, live_server):
    # the board is fitted at the end only: in the middle of a game a step back would shrink it
    # under the finger and the next step forward grow it again
    view = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "seats": ["human", "human"]})
    post_json(f"{live_server.url}/api/matches/{view['id']}/actions", {"action": view["legal"][0], "ply": 0})
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        page.wait_for_function("() => window.abstractaView && window.abstractaView.ply >= 1")
        before = page.evaluate(PLACE)
        page.keyboard.press("ArrowLeft")
        page.wait_for_function("() => document.querySelector('.stepper').classList.contains('floating')")
        after = page.evaluate(PLACE)
        assert after["height"] == before["height"] and not page.locator("#board.fit").count()
    finally:
        context.close()
