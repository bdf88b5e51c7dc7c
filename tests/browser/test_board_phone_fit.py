"""On a phone (390 and 360 px) every game's board is whole in sight at first: no column off the
right edge, nothing to scroll sideways (neither the page nor the board's own frame), and a corner
cell or point takes a tap where it stands. Nibble's 9×9 board was 392 px wide in a 353 px box (its
i-file, with free corner discs, hidden), Slide Checkers' 12×12 showed 8 of its 12 files and
Fibonacci's hexagon cut d1 and h11 in half. Screenshots: ``phone-fit-<game>-<width>.png``."""

from __future__ import annotations

import pytest

from httputil import post_json

BOARDS = [
    ("fanorona", {}),
    ("nibble", {}),
    ("nibble", {"variant": "square13"}),
    ("nibble", {"variant": "hex"}),
    ("fibonacci", {}),
    ("fibonacci-cards", {}),
    ("slide-checkers", {}),
    ("slide-checkers", {"players": 3}),
    ("slide-checkers", {"players": 4}),
]

# every element of the board box that could scroll sideways and does: [class, scrollWidth, clientWidth]
SIDEWAYS = """() => [...document.querySelectorAll('#board, #board *')].filter((e) => {
    const o = getComputedStyle(e).overflowX;
    return (o === 'auto' || o === 'scroll') && e.scrollWidth > e.clientWidth + 1;
}).map((e) => [e.className.baseVal ?? e.className, e.scrollWidth, e.clientWidth])"""

# the cells (points, piles) of the board as drawn: [id, left, top, right, bottom]
CELLS = """() => [...document.querySelectorAll('#board [data-cell]')].map((e) => {
    const r = e.getBoundingClientRect(); return [e.dataset.cell, r.left, r.top, r.right, r.bottom]; })"""

SCROLLED = """() => [window.scrollX, ...[...document.querySelectorAll('#board, #board *')]
    .map((e) => e.scrollLeft).filter((x) => x > 0)]"""


def enlarge(page, zoom, width, screenshot):
    """"Larger cells" (squares): cells of at least 40 px in a board area that scrolls sideways by itself,
    a line under it saying so; "Whole board" back to the whole board."""
    box = zoom.bounding_box()
    assert zoom.is_visible() and zoom.get_attribute("aria-pressed") == "false"
    assert box["y"] + box["height"] <= page.viewport_size["height"], box  # in sight at first, under the board
    zoom.click()
    page.wait_for_selector("#board button[data-zoom][aria-pressed='true']")
    cells = page.evaluate(CELLS)
    assert min(min(c[3] - c[1], c[4] - c[2]) for c in cells) >= 40
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert len(page.evaluate(SIDEWAYS)) == 1
    assert "Swipe the board sideways" in page.locator("#board").inner_text()
    page.screenshot(path=str(screenshot))
    page.locator("#board button[data-zoom]").click()
    page.wait_for_selector("#board button[data-zoom][aria-pressed='false']")
    assert page.evaluate(SIDEWAYS) == []


def name_of(game: str, options: dict) -> str:
    return "-".join([game, *(str(v) for v in options.values())])


@pytest.mark.parametrize("width", [390, 360])
@pytest.mark.parametrize("game,options", BOARDS, ids=[name_of(*b) for b in BOARDS])
def test_the_whole_board_fits_a_phone(browser, live_server, shots, game, options, width):
    # the cards in a hand are hidden from the other person at one screen: a computer opponent there
    seats = ["human", "level:1"] if game == "fibonacci-cards" else ["human"] * int(options.get("players", 2))
    mid = post_json(f"{live_server.url}/api/matches", {"game": game, "options": options, "seats": seats})["id"]
    context = browser.new_context(viewport={"width": width, "height": 844 if width == 390 else 740},
                                  is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        page.goto(f"{live_server.url}/#/match/{mid}")
        page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move && !window.abstractaView.thinking")
        page.wait_for_selector("#board [data-cell]")
        if width == 390:
            page.screenshot(path=str(shots / f"phone-fit-{name_of(game, options)}-{width}.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.evaluate(SIDEWAYS) == []
        board = page.locator("#board").bounding_box()
        assert board["x"] >= 0 and board["x"] + board["width"] <= width, board
        cells = page.evaluate(CELLS)
        assert min(c[1] for c in cells) >= 0 and max(c[3] for c in cells) <= width, cells
        # the cells are tap targets of at least 24 × 24 px (WCAG 2.5.8); where the whole board
        # makes them smaller, a button under the board enlarges them
        smallest = min(min(c[3] - c[1], c[4] - c[2]) for c in cells)
        zoom = page.locator("#board button[data-zoom]")
        assert smallest >= 24 or zoom.count() == 1, smallest
        if zoom.count():
            enlarge(page, zoom, width, screenshot=shots / f"phone-fit-{name_of(game, options)}-{width}-large.png")
        # the right-most cell, lowest of those (Nibble's i1, Slide Checkers' l1): tapped where it is
        corner = max(cells, key=lambda c: (round(c[3]), c[4]))
        page.locator(f"#board [data-cell='{corner[0]}']").first.click()
        assert page.evaluate(SCROLLED) == [0]
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()
