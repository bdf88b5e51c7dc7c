"""Fibonacci's board module draws the structured view and plays by clicks (fibonacci/web/board.js):
a piece, then one of its group's destinations (a swap included), pass, a Go placement and a
card-variant turn; the opponents' last turn is marked. Screenshots at desktop and phone width."""

from __future__ import annotations

from httputil import get_json, post_json


def import_start(page, server, start=None, options=None, seed=None, moves=()) -> str:
    record = {"format": "abstracta-record", "version": 1, "game": "fibonacci", "options": options or {},
              "seed": seed, "start": start, "players": [], "moves": list(moves)}
    view = post_json(f"{server.url}/api/matches/import", {"record": record, "seats": None})
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    handover(page)
    return view["id"]


def handover(page) -> None:
    """Two people at one device in the card variant: confirm the hand-over screen."""
    if page.locator("#handover-ok").is_visible():
        page.click("#handover-ok")


def wait_ply(page, ply: int) -> dict:
    page.wait_for_function(f"() => window.abstractaView.ply === {ply} && window.abstractaView.human_to_move")
    handover(page)
    return page.evaluate("window.abstractaView")


def marked(page) -> set[str]:
    """Cells marked as touched by the opponents' turns since the viewer moved (struct.recent)."""
    return set(page.eval_on_selector_all("[data-cell]:has(.fib-recent)", "els => els.map(e => e.dataset.cell)"))


def test_fibonacci_moves_swaps_and_pass_by_clicks(page, live_server, shots):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    mid = import_start(page, live_server)
    # §8 V1: Red's attackers are one group; each of them may go to the same nine cells
    assert page.locator("[data-cell].fib-src").count() == 12
    assert page.locator("svg.board text[data-piece='C']").count() == 2
    page.click("[data-cell='a5']")
    assert page.locator("[data-cell].fib-dest").count() == 9
    assert page.locator("[data-cell].fib-group").count() == 6  # the whole snake, a5 included
    assert page.locator("#fib-cancel").is_visible()
    page.click("[data-cell='a6']")  # a swap with the own core
    view = wait_ply(page, 1)
    assert view["moves"] == ["a5-a6"]
    assert view["position"].split()[0].endswith("/5A1/AAAACA")
    # Green's turn (2 moves): the Red move is marked, a swap arrow drawn
    assert marked(page) == {"a5", "a6"}
    assert page.locator(".fib-arrow").count() == 1
    info = page.locator(".fib-info").inner_text()
    assert "Turn 2" in info and "2 moves left" in info
    page.click("[data-cell='k7']")
    page.click("[data-cell='i5']")
    view = wait_ply(page, 2)
    assert view["struct"]["turn"]["actions"] == ["k7-i5"] and view["struct"]["turn"]["left"]["moves"] == 1
    page.click("#pass")
    view = wait_ply(page, 3)
    assert view["moves"] == ["a5-a6", "k7-i5", "pass"]
    assert view["struct"]["to_move"] == 0 and view["struct"]["turn"]["left"]["moves"] == 3
    # Red sees Green's whole turn marked
    assert marked(page) == {"k7", "i5"}
    # the piece can be deselected; a click on a piece of another group selects that one
    page.click("[data-cell='e8']")
    assert page.locator("[data-cell].fib-dest").count() == 13
    page.click("[data-cell='a1']")
    # the core on a5 now splits Red's attackers: a1…a4 go to b1…b5 or swap with the core
    assert page.locator("[data-cell].fib-dest").count() == 6
    page.click("#fib-cancel")
    assert page.locator("[data-cell].fib-dest").count() == 0
    assert get_json(f"{live_server.url}/api/matches/{mid}/record")["moves"] == ["a5-a6", "k7-i5", "pass"]
    page.screenshot(path=str(shots / "fibonacci-board.png"), full_page=True)
    page.click("[data-cell='b6']")
    page.screenshot(path=str(shots / "fibonacci-board-selected.png"), full_page=True)
    assert not errors, errors


def test_fibonacci_winning_move_by_clicks(page, live_server, shots):
    # §8 V3: d5-e6 surrounds the Green core on f6
    import_start(page, live_server, start="saaaaa/1a5/8/9/4AA4/4AcA4/4A5/4A4/8/7/S4C R 2 13")
    assert page.locator("[data-threat='f6']").count() == 5  # Red attackers already on f6's ring
    page.click("[data-cell='d5']")
    assert page.locator("[data-cell='f6'].fib-dest").count() == 1
    page.click("[data-cell='e6']")
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    view = page.evaluate("window.abstractaView")
    assert view["result"] == [1.0, -1.0]
    assert view["struct"]["end"]["reason"] == "surrounded"
    assert "Green's core on f6 is surrounded by six Red attackers" in page.locator("#result").inner_text()
    assert page.locator("[data-cell].fib-win").count() == 7  # the ring and the core
    page.screenshot(path=str(shots / "fibonacci-win.png"), full_page=True)


def test_fibonacci_go_placement_by_clicks(page, live_server, shots):
    import_start(page, live_server, options={"variant": "go"})
    assert page.locator("[data-cell].fib-place").count() == 91
    assert "Placement 1 of 26" in page.locator(".fib-info").inner_text()
    page.click("[data-cell='e5']")
    view = wait_ply(page, 1)
    assert view["moves"] == ["S@e5"]
    assert page.locator("[data-cell].fib-place").count() == 90
    page.click("[data-cell='g7']")
    view = wait_ply(page, 2)
    assert view["moves"] == ["S@e5", "S@g7"]
    cells = {c["id"]: c["piece"] for c in view["struct"]["board"]["cells"]}
    assert cells["g7"] == {"seat": 1, "kind": "support", "letter": "s", "group": 1}
    # a faint piece of the type to place follows the pointer (Red's third support)
    page.hover("[data-cell='c3']")
    page.wait_for_function("() => getComputedStyle(document.querySelector(\"[data-cell='c3'] .fib-ghost\")).opacity === '0.5'")
    assert page.locator("svg.board text[data-piece]").count() == 2  # ghosts are not pieces
    page.screenshot(path=str(shots / "fibonacci-go.png"), full_page=True)


def test_fibonacci_cards_turn_by_clicks(page, live_server, shots):
    mid = import_start(page, live_server, options={"variant": "cards"}, seed=5)
    view = page.evaluate("window.abstractaView")
    card = view["struct"]["board"]["cards"]["card"]
    assert view["struct"]["turn"]["left"]["moves"] == card
    assert page.locator("[data-card='current'] text").text_content() == str(card)
    assert page.locator("[data-pile='0'] text").text_content() == "11"
    page.click("[data-cell='b6']")
    page.click("[data-cell='c7']")
    view = wait_ply(page, 1)
    assert view["moves"] == ["b6-c7"]
    if card > 1:
        page.click("#pass")
        view = wait_ply(page, 2)
    assert view["struct"]["to_move"] == 1
    assert view["struct"]["board"]["cards"]["piles"] == [11, 11]
    assert "?" in view["position"] and "rng" not in str(view["struct"])
    page.screenshot(path=str(shots / "fibonacci-cards.png"), full_page=True)
    assert get_json(f"{live_server.url}/api/matches/{mid}")["ply"] == view["ply"]


def test_fibonacci_board_on_a_phone(browser, live_server, shots):
    view = post_json(f"{live_server.url}/api/matches", {"game": "fibonacci", "options": {}, "seats": ["human", "human"]})
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        page.wait_for_selector("#board svg [data-cell='a5']")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.tap("[data-cell='a5']")
        page.tap("[data-cell='b5']")
        page.wait_for_function("() => window.abstractaView.ply === 1")
        page.tap("[data-cell='j6']")
        box = page.locator("#board").bounding_box()
        assert box["width"] <= 390
        page.screenshot(path=str(shots / "fibonacci-phone.png"), full_page=True)
    finally:
        context.close()


def test_fibonacci_cards_board_on_a_phone(browser, live_server, shots):
    view = post_json(f"{live_server.url}/api/matches", {"game": "fibonacci", "options": {"variant": "cards", "seed": 4},
                                                         "seats": ["human", "level:1"]})
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        page.wait_for_selector("#board svg [data-card='current']")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.locator("[data-pile='1'] text").text_content() == "12"  # Green's card is not drawn yet
        page.screenshot(path=str(shots / "fibonacci-cards-phone.png"), full_page=True)
    finally:
        context.close()
