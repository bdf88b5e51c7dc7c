"""Nibble played by clicks on the board drawn from the structured view (view.py, web/board.js):
picking a set of discs and taking it, a one-disc take that leaves the turn open and "End turn",
the opponent's takes marked, a replayed ply, a set that would split the board refused, the hex
board, and the page at phone width. Positions: nibble.md §7 examples 1 and 8."""

from __future__ import annotations

import pytest
from httputil import get_json, post_json

WAIT_HUMAN = "() => { const v = window.abstractaView; return v && v.human_to_move && !v.thinking; }"


def import_start(page, server, start: str | None = None, options=None, seed=None) -> str:
    """A two-person match of Nibble from ``start`` (or the seeded layout), shown in ``page``."""
    record = {"format": "abstracta-record", "version": 1, "game": "nibble", "options": options or {},
              "seed": seed, "start": start, "players": [], "moves": []}
    view = post_json(f"{server.url}/api/matches/import", {"record": record, "seats": ["human", "human"]})
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_function(WAIT_HUMAN)
    return view["id"]


def view(page) -> dict:
    return page.evaluate("window.abstractaView")


def classes(page, cell: str) -> str:
    return page.locator(f"[data-cell='{cell}']").get_attribute("class") or ""


def wait_ply(page, ply: int) -> dict:
    page.wait_for_function(f"() => window.abstractaView.ply === {ply} && !window.abstractaView.thinking")
    page.wait_for_function(WAIT_HUMAN)
    return view(page)


def test_take_a_pair_then_one_disc_and_end_turn(page, live_server, shots):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # §7 example 1: only the corners are free; a1 = a9 = G, i1 = i9 = H
    mid = import_start(page, live_server, options={"first_player": 0}, seed=1)
    assert "clickable" in classes(page, "a1") and "clickable" in classes(page, "i9")
    assert "clickable" not in classes(page, "b1")  # not free: nothing to click
    assert page.locator("#take").is_disabled()
    page.click("[data-cell='a1']")
    assert "picked" in classes(page, "a1")
    assert page.locator("#take").inner_text() == "Take a1"
    page.click("[data-cell='a9']")
    assert page.locator("#take").inner_text() == "Take a1+a9"
    page.click("[data-cell='a9']")  # a second click puts it back
    assert page.locator("#take").inner_text() == "Take a1"
    page.click("[data-cell='i1']")  # another colour: the pick starts again from i1
    assert page.locator("#take").inner_text() == "Take i1"
    page.click("[data-cell='a1']")
    page.click("[data-cell='a9']")
    page.screenshot(path=str(shots / "nibble-board-picked.png"))
    page.click("#take")
    v = wait_ply(page, 2)  # a1, a9: no G left to take, the turn ends by itself
    assert v["moves"] == ["a1", "a9"] and v["to_move"] == 1  # engine actions; the record has the turn
    assert get_json(f"{live_server.url}/api/matches/{mid}/record")["moves"] == ["a1+a9"]
    cells = {c["id"]: c for c in v["struct"]["board"]["cells"]}
    assert cells["a1"]["disc"] is None and cells["a9"]["disc"] is None
    assert v["struct"]["board"]["collections"][0]["colours"][6] == {"colour": "G", "count": 2, "major": False}
    # seat 1 sees where seat 0 just took, and the two discs next to a1 are free now
    assert page.locator("[data-cell='a1'].taken, [data-cell='a9'].taken").count() == 2
    assert "G 2" in page.locator(".ctable[data-seat='0']").inner_text()

    # a one-disc take that leaves the turn open: a8 (free since a9 went) and i9 are H too
    page.click("[data-cell='i1']")
    page.click("#take")
    v = wait_ply(page, 3)
    assert v["struct"]["turn"] == {"seat": 1, "actions": ["i1"], "left": {"colour": "H", "more": ["a8", "i9"]}}
    assert page.locator("#end-turn").is_visible() and page.locator("#take").count() == 0
    assert "clickable" in classes(page, "i9") and "clickable" not in classes(page, "a2")
    assert "taken" in classes(page, "i1")
    page.screenshot(path=str(shots / "nibble-board-open-turn.png"))
    page.click("#end-turn")
    v = wait_ply(page, 4)
    assert v["to_move"] == 0 and v["moves"] == ["a1", "a9", "i1", "end"]
    assert get_json(f"{live_server.url}/api/matches/{mid}/record")["moves"] == ["a1+a9", "i1", "end"]
    assert "taken" in classes(page, "i1") and "taken" not in classes(page, "a1")  # seat 0's own take is old news
    assert v["struct"]["board"]["collections"][1]["colours"][7]["count"] == 1
    page.screenshot(path=str(shots / "nibble-board-desktop.png"))
    # replaying ply 1 draws that ply's struct: a9 is back, a1 gone, nothing may be clicked
    page.click("#step-back")
    page.click("#step-back")
    page.click("#step-back")
    page.wait_for_function("() => document.querySelector(\"[data-cell='a9']\").dataset.disc === 'G'")
    assert page.locator("[data-cell='a1']").get_attribute("data-disc") is None
    assert page.locator("#board .clickable").count() == 0 and page.locator("#take").count() == 0
    page.click("#step-fwd")
    page.wait_for_function("() => !document.querySelector(\"[data-cell='a9']\").dataset.disc")
    assert not errors, errors


# seed 6 after 59 random entries: g7 and f8 are both free C, but taking both splits the board
NIBBLE_SPLIT = ("........./.....CE../....ABC../..FHBA.../..DIAD.../.CGCGH.../.AHIE..../........./......... "
                "1 3-3-4-2-4-6-6-0-3 2-4-1-5-3-2-1-6-4")


def test_a_set_that_splits_the_board_cannot_be_picked(page, live_server):
    import_start(page, live_server, NIBBLE_SPLIT)
    together = {g["colour"]: [t["turn"] for t in g["together"]] for g in view(page)["struct"]["choices"]["colours"]}
    assert together["C"] == ["b4+g7", "b4+f8"]  # never g7 with f8
    page.click("[data-cell='g7']")
    assert "blocked" in classes(page, "f8")
    page.click("[data-cell='f8']", force=True)  # refused on the page
    assert page.locator("#take").inner_text() == "Take g7"
    assert "clickable" in classes(page, "b4") and "clickable" in classes(page, "e3")  # e3: another colour
    page.click("[data-cell='b4']")
    assert page.locator("#take").inner_text() == "Take b4+g7"
    assert "blocked" in classes(page, "f8")


def test_hex_board_pair(page, live_server, shots):
    # §7 example 8: the six corners are free, h1 = o8 = G may be taken together
    import_start(page, live_server, options={"variant": "hex", "first_player": 0}, seed=1)
    for corner in ("a1", "a8", "h1", "h15", "o8", "o15"):
        assert "clickable" in classes(page, corner)
    assert "clickable" not in classes(page, "a2")
    page.click("[data-cell='h1']")
    assert "blocked" in classes(page, "a1") or "clickable" in classes(page, "a1")  # other colour: a new pick
    page.click("[data-cell='o8']")
    assert page.locator("#take").inner_text() == "Take h1+o8"
    page.screenshot(path=str(shots / "nibble-board-hex.png"))
    page.click("#take")
    v = wait_ply(page, 2)
    assert v["moves"] == ["h1", "o8"]
    assert page.locator("[data-cell='h1'].taken, [data-cell='o8'].taken").count() == 2


@pytest.mark.parametrize("variant", ["square9", "square13", "hex"])
def test_phone_width(browser, live_server, shots, variant):
    record = {"format": "abstracta-record", "version": 1, "game": "nibble", "options": {"variant": variant},
              "seed": 4, "start": None, "players": [], "moves": []}
    mid = post_json(f"{live_server.url}/api/matches/import", {"record": record, "seats": ["human", "human"]})["id"]
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{mid}")
        page.wait_for_function(WAIT_HUMAN)
        first = view(page)["struct"]["choices"]["colours"][0]["discs"][0]["cell"]
        page.tap(f"[data-cell='{first}']")
        assert page.locator("#take").inner_text() == f"Take {first}"
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        box = page.locator("#board svg").bounding_box()
        assert box["width"] <= 390 and box["height"] > 200
        page.screenshot(path=str(shots / f"nibble-board-phone-{variant}.png"), full_page=True)
    finally:
        context.close()
