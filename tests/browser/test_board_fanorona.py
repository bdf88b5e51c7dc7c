"""Fanorona's board module (games/fanorona/web/board.js) draws the structured view and is played
by clicks only: a stone, then a destination; A/W choices by clicking a stone of the line to
take; "End turn" in a chain; the opponent's last turn marked. Positions from fanorona.md §6."""

from __future__ import annotations

from httputil import get_json, post_json

EXAMPLE_3 = "...B...../........./..W.BB.../...B...../........B W"  # fanorona.md §6 example 3


def open_match(page, server, start: str | None = None, options=None) -> str:
    """A match of two people on this page (copied from test_browser_games.import_start)."""
    record = {"format": "abstracta-record", "version": 1, "game": "fanorona", "options": options or {},
              "seed": None, "start": start, "players": [], "moves": []}
    view = post_json(f"{server.url}/api/matches/import", {"record": record, "seats": None})
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    page.wait_for_selector("svg.fan-board")
    return view["id"]


def wait_ply(page, ply: int) -> dict:
    page.wait_for_function(f"() => window.abstractaView.ply === {ply} && window.abstractaView.human_to_move")
    page.wait_for_selector("svg.fan-board")
    return page.evaluate("window.abstractaView")


def attrs(page, selector: str, name: str) -> list[str]:
    return sorted(page.eval_on_selector_all(selector, f"els => els.map(e => e.getAttribute('{name}'))"))


def test_chain_choice_by_clicking_a_stone_and_the_last_turn_marked(page, live_server, shots):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    mid = open_match(page, live_server, EXAMPLE_3)
    assert attrs(page, "[data-seat='0']", "data-stone") == ["c3"]
    assert attrs(page, "[data-seat='1']", "data-stone") == ["d2", "d5", "e3", "f3", "i1"]
    assert page.locator(".fan-movable").count() == 1  # only c3 may move (capture is compulsory)
    page.click("[data-point='c3']")
    assert attrs(page, "[data-dest]", "data-dest") == ["b4", "d3"]
    assert page.locator("[data-stone='c3'].fan-sel").count() == 1
    page.click("[data-point='d3']")  # approach only: played at once
    view = wait_ply(page, 1)
    assert view["moves"] == ["c3-d3A"]
    assert view["struct"]["board"]["chain"] == {"stone": "d3", "last": "E", "visited": ["c3", "d3"]}
    # the chain: the stone stays selected, its way so far is drawn, the turn may end
    assert page.locator("[data-stone='d3'].fan-sel").count() == 1
    assert page.locator(".fan-trail").count() == 1 and page.locator(".fan-visited").count() == 1
    assert page.locator("#end-turn").is_visible()
    assert attrs(page, "[data-dest]", "data-dest") == ["d4"]
    page.click("[data-point='d4']")  # approach (takes d5) or withdrawal (takes d2): the player picks
    assert page.locator("[data-choice=A]").is_visible() and page.locator("[data-choice=W]").is_visible()
    assert attrs(page, ".fan-capt", "data-stone") == ["d2", "d5"]
    page.screenshot(path=str(shots / "fanorona-board-choice.png"))
    page.click("[data-point='d2']")  # a stone of the withdrawal line
    view = wait_ply(page, 2)
    assert view["moves"] == ["c3-d3A", "d3-d4W"]
    assert view["position"] == "...B...../...W...../........./........./........B B"
    # Black's turn: White's two steps are arrows, the three stones it took dashed rings
    assert page.locator(".fan-recent").count() == 2
    assert attrs(page, "[data-gone]", "data-gone") == ["d2", "e3", "f3"]
    assert page.locator("#end-turn").count() == 0
    page.screenshot(path=str(shots / "fanorona-board-recent.png"))
    # a paika by clicks: d5 then e5 (a click on an empty point first only deselects)
    page.click("[data-point='d5']")
    assert attrs(page, "[data-dest]", "data-dest") == ["c5", "e5"]
    page.click("[data-point='a1']")
    assert page.locator("[data-dest]").count() == 0
    page.click("[data-point='d5']")
    page.click("[data-point='e5']")
    view = wait_ply(page, 3)
    assert view["struct"]["legal"] == ["d4-c3W"]
    assert get_json(f"{live_server.url}/api/matches/{mid}/record")["moves"] == ["c3-d3A", "d3-d4W", "d5-e5"]
    assert not errors, errors


def test_end_turn_and_phone_width(browser, live_server, shots):
    """Tsivy, fanorona.md §6 examples 1–2: d2-e3A, then Black's e5-f4A may go on (f4-g5W) or end."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        open_match(page, live_server)
        assert page.locator(".fan-movable").count() == 4  # d2, d3, e2, f2 (example 1)
        page.tap("[data-point='d3']")
        page.tap("[data-point='e3']")  # d3-e3A takes f3, d3-e3W takes c3
        assert page.locator("[data-choice=A]").inner_text() == "Approach: takes 1 (f3)"
        assert page.locator("[data-choice=W]").inner_text() == "Withdrawal: takes 1 (c3)"
        assert attrs(page, ".fan-capt", "data-stone") == ["c3", "f3"]
        page.screenshot(path=str(shots / "fanorona-board-phone-choice.png"), full_page=True)
        page.get_by_role("button", name="Cancel").tap()
        assert page.locator(".fan-capt").count() == 0 and page.locator("[data-choice]").count() == 0
        page.tap("[data-point='d2']")
        page.tap("[data-point='e3']")
        wait_ply(page, 1)
        page.tap("[data-point='e5']")
        page.tap("[data-point='f4']")
        view = wait_ply(page, 2)
        assert view["struct"]["choices"]["end"] == {"action": "end"}
        assert attrs(page, "[data-dest]", "data-dest") == ["g5"]
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width}px wide on a 390px screen"
        hit = page.locator("[data-point='g5']").bounding_box()
        assert hit["width"] >= 30, hit  # a finger-sized target
        page.screenshot(path=str(shots / "fanorona-board-phone.png"), full_page=True)
        page.tap("#end-turn")
        view = wait_ply(page, 3)
        assert view["moves"] == ["d2-e3A", "e5-f4A", "end"]
        assert view["position"] == "BBBB.B.BB/BBBBBBBBB/BWBWWB.BW/WWW.WWW.W/WWWWWWWW. W"
        # White sees Black's whole turn: the step e5-f4 that took g3 h2 i1, then end
        assert page.locator(".fan-recent").count() == 1
        assert attrs(page, "[data-gone]", "data-gone") == ["g3", "h2", "i1"]
        assert not errors, errors
    finally:
        context.close()


def test_vela_takes_one_stone(page, live_server):
    """fanorona.md §6 example 7: in the vela phase d2-e3A takes only f4, and Black may not capture."""
    open_match(page, live_server, options={"vela": True})
    assert "Vela: Black may not capture yet" in page.locator("#controls").inner_text()
    page.click("[data-point='d2']")
    page.click("[data-point='e3']")
    view = wait_ply(page, 1)
    assert view["position"] == "BBBBBBBBB/BBBBB.BBB/BWBWWBWBW/WWW.WWWWW/WWWWWWWWW B"
    assert attrs(page, "[data-gone]", "data-gone") == ["f4"]
    assert view["struct"]["choices"]["phase"] == "paika"
    assert page.locator(".fan-movable").count() == 7  # c3 e4 e5 f3 f5 g4 g5
