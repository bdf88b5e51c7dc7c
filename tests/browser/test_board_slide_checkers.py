"""Slide Checkers in the browser: the board module draws the structured view (view.py) and is
played only by clicks on it — placement, a slide, a launched jump with its remove/exchange
choice, a compulsory continuation, a jump back onto the start square — and marks what the
opponent did since the viewer last moved. Screenshots at desktop and phone (390 px) width."""

from __future__ import annotations

from httputil import get_json, post_json


def import_start(page, server, start: str, options=None) -> str:
    """A match of two people from the position text ``start`` (slide-checkers.md §6), shown."""
    record = {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "options": options or {},
              "seed": None, "start": start, "players": [], "moves": []}
    view = post_json(f"{server.url}/api/matches/import", {"record": record, "seats": None})
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    page.wait_for_selector("svg.sc-board")
    return view["id"]


def wait_ply(page, ply: int) -> dict:
    page.wait_for_function(f"() => window.abstractaView.ply === {ply} && window.abstractaView.human_to_move")
    page.wait_for_selector("svg.sc-board")
    return page.evaluate("window.abstractaView")


def squares_with(page, selector: str) -> list[str]:
    """Names of the squares whose drawing holds ``selector`` (e.g. a target dot)."""
    return sorted(page.eval_on_selector_all(
        f"[data-square]:has({selector})", "gs => gs.map(g => g.dataset.square)"))


def test_jump_choice_continuation_and_recent(page, live_server, shots):
    # slide-checkers.md §7 example 6: e4 slides to f4 and jumps g4 to h4, then must go on to j4
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    mid = import_start(page, live_server, "Bg4,Bi4,Bl12,Ge4 M G")
    assert squares_with(page, ".sc-dest") == []  # nothing to pick before a piece is chosen
    page.click("[data-square='e4']")
    assert squares_with(page, ".sc-piece.sel") == ["e4"]
    assert squares_with(page, ".sc-transit") == ["d5", "f4"]  # §7.3's transit set, from the view
    assert squares_with(page, ".sc-dest.jump") == ["h4"]
    page.click("[data-square='h4']")
    assert squares_with(page, ".sc-over") == ["g4"]
    assert page.locator("[data-choice]").evaluate_all("bs => bs.map(b => b.textContent)") == [
        "Exchange the piece on g4 (from f4)", "Remove the piece on g4 (from f4)"]
    page.click("[data-choice='e4>f4*h4r']")
    view = wait_ply(page, 1)
    assert view["struct"]["choices"]["kind"] == "continue"
    # the chain's piece is selected for the person; only its landing square is offered
    assert squares_with(page, ".sc-piece.chain") == ["h4"]
    assert squares_with(page, ".sc-dest") == ["j4"]
    assert "must jump on with the piece on h4" in page.locator("#controls").inner_text()
    page.click("[data-square='j4']")
    page.click("[data-choice='*j4e']")
    view = wait_ply(page, 2)
    assert view["position"] == "Bl12,Gi4,Gj4 M B"
    assert view["moves"] == ["e4>f4*h4r", "*j4e"]
    # Blue sees Green's whole turn: the squares it touched and the piece it removed
    assert squares_with(page, ".sc-recent") == ["e4", "f4", "h4", "i4", "j4"]
    assert squares_with(page, ".sc-gone") == ["g4"]
    page.screenshot(path=str(shots / "slide-checkers-recent.png"))
    # Blue slides l12 through its own squares: l12 -> k12 is a B square, j11 is reached from it
    page.click("[data-square='l12']")
    assert "k12" in squares_with(page, ".sc-transit")
    page.click("[data-square='j11']")
    view = wait_ply(page, 3)
    assert view["position"] == "Bj11,Gi4,Gj4 M G nj=1"
    assert get_json(f"{live_server.url}/api/matches/{mid}/record")["moves"] == ["e4>f4*h4r", "*j4e", "l12-j11"]
    # replaying: the board draws the struct of the earlier ply, and nothing is clickable
    page.click("#step-back")
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Replay')")
    assert squares_with(page, ".sc-piece") == ["i4", "j4", "l12"]
    assert page.locator("svg.sc-board .clickable").count() == 0
    assert not errors, errors


def test_placement_by_clicks(page, live_server):
    # §7.2: G has 24 squares to place on; after @e4, B may not use f3 or f5 (they touch e4)
    view = post_json(f"{live_server.url}/api/matches", {"game": "slide-checkers", "options": {}, "seats": ["human", "human"]})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_selector("svg.sc-board")
    assert len(squares_with(page, ".sc-dest")) == 24
    page.click("[data-square='e4']")
    wait_ply(page, 1)
    dests = squares_with(page, ".sc-dest")
    assert len(dests) == 22 and "f3" not in dests and "f5" not in dests and "b6" in dests
    page.click("[data-square='b6']")
    view = wait_ply(page, 2)
    assert view["position"] == "Bb6,Ge4 P:6/6 G"


def test_launched_jump_back_onto_the_start_square(page, live_server):
    # c4 may slide to e4 and jump d4 back onto c4: a click on the selected piece offers it
    import_start(page, live_server, "Bd4,Gc4 M G")
    page.click("[data-square='c4']")
    assert squares_with(page, ".sc-dest.jump") == ["c4", "d3", "e4"]
    page.click("[data-square='c4']")
    page.click("[data-choice='c4>e4*c4r']")
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    view = page.evaluate("window.abstractaView")
    assert view["moves"] == ["c4>e4*c4r"] and view["position"] == "Gc4 M G"
    assert "Only Green pieces are left on the board" in page.locator("#result").inner_text()


def test_phone_width(browser, live_server, shots):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        # §7.5: the slide-then-jump position, with the piece chosen and a choice pending
        import_start(page, live_server, "Be8,Gc9 M G")
        page.click("[data-square='c9']")
        page.click("[data-square='f8']")
        assert page.locator("[data-choice='c9>d8*f8r']").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        box = page.locator("svg.sc-board").bounding_box()
        assert box["width"] <= 390 and box["height"] >= 300
        page.screenshot(path=str(shots / "slide-checkers-phone.png"), full_page=True)
        page.click("[data-choice='c9>d8*f8r']")
        page.wait_for_function("() => window.abstractaView.status === 'over'")
        assert page.evaluate("window.abstractaView.position") == "Gf8 M G"
    finally:
        context.close()


def test_four_players(page, live_server, shots):
    # the description's 4-player position: Green and Blue are out, Red moves a piece by clicks
    import_start(page, live_server, "Rb6,Rg2,Rg4,Rh3,Rl2,Ya11,Yb12,Yj12,Yl6,Yl12 M R nj=1", options={"players": 4})
    # pieces in the seats' colours from the description (Red, Yellow)
    assert page.get_attribute("[data-square='b6'] .sc-piece", "fill") == "#c8322b"
    assert page.get_attribute("[data-square='a11'] .sc-piece", "fill") == "#d9b80f"
    assert "1 of 100 turns without a jump" in page.locator(".sc-legend").inner_text()
    page.click("[data-square='g2']")
    page.click("[data-square='g1']")
    view = wait_ply(page, 1)
    assert view["moves"] == ["g2-g1"] and view["struct"]["to_move"] == 3
    page.screenshot(path=str(shots / "slide-checkers-4p.png"))
