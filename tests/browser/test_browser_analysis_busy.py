"""A refused analysis does not leave the page stuck (issue 38 item 2): the pasted-position page
read "2 analyses of yours are running; wait for one to finish" and showed nothing for 120 s but
two empty framed boxes, never asking again. Now it says what happened, asks again by itself once
the server's wait is over (or at once on "Try now"), and draws no empty box; and the count is per
browser, so a second person behind the same address is not refused."""

from __future__ import annotations

import urllib.parse

import pytest
from httputil import post_json
from test_browser_analysis import SCALE, resigned_record

import abstracta
from abstracta.server.analysis import ANALYSIS_PER_CLIENT

#: the ids the test browsers name their sessions with (the page keeps its own in localStorage)
BUSY, OTHER = "busy-browser-0001", "other-browser-02"


def session(sid: str) -> str:
    return f"localStorage.setItem('abstracta.session', {sid!r});"


def pasted_url(server) -> str:
    position = abstracta.load_game("fanorona", size="dimy").new_initial_state().to_text()
    return f"{server.url}/#/analysis/fanorona?" + urllib.parse.urlencode({"size": "dimy", "position": position})


def hold_slots(service, sid: str) -> None:
    """As if this browser's analyses (two: all it may run) were running elsewhere (other tabs)."""
    with service.analysis._guard:
        service.analysis._asking[("127.0.0.1", f"session:{sid}")] = ANALYSIS_PER_CLIENT


def free_slots(service, sid: str) -> None:
    with service.analysis._guard:
        service.analysis._asking.pop(("127.0.0.1", f"session:{sid}"), None)


def framed_and_empty(page) -> list[str]:
    """The framed boxes in sight with nothing in them."""
    return page.evaluate("""[...document.querySelectorAll('.boardbox, .analysis')]
        .filter(b => !b.closest('[hidden]') && b.getClientRects().length && !b.textContent.trim() && !b.querySelector('svg'))
        .map(b => b.id || b.className)""")


@pytest.mark.parametrize("locale, words", [
    ("en-US", ("2 analyses of yours are running; wait for one to finish. It starts by itself as soon as one of them ends.",
               "Try now")),
    ("fi-FI", ("2 analyysiäsi on käynnissä; odota, että jokin niistä valmistuu. Se alkaa itsestään heti, kun jokin niistä valmistuu.",
               "Yritä nyt")),
])
def test_a_pasted_position_waits_for_a_free_slot_and_then_is_analysed(browser, live_server, shots, locale, words):
    service = live_server.app.state.service
    hold_slots(service, BUSY)
    context = browser.new_context(locale=locale, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        context.add_init_script(SCALE + session(BUSY))
        page = context.new_page()
        page.goto(pasted_url(live_server))
        note = page.locator("#an-busy")
        note.wait_for()
        assert note.locator("p").inner_text() == words[0]
        assert note.locator("#an-try-now").inner_text() == words[1]
        assert framed_and_empty(page) == [] and page.locator("#board").is_hidden()
        page.screenshot(path=str(shots / f"analysis-busy-{locale}-390.png"))
        # the page asks again by itself: still refused while the two run…
        with page.expect_request(lambda r: r.url.endswith("/api/analysis"), timeout=10000):
            pass
        note.wait_for()
        # …and answered once one of them has ended, with no click
        free_slots(service, BUSY)
        page.wait_for_selector("#an-number", timeout=60000)
        assert page.locator("#an-busy").count() == 0 and page.locator("#board svg").count() == 1
        assert framed_and_empty(page) == []
    finally:
        free_slots(service, BUSY)
        context.close()


def test_try_now_asks_at_once(browser, live_server, shots, monkeypatch):
    from abstracta.server.errors import TooBusy

    monkeypatch.setattr(TooBusy, "retry_after", 30)  # the page would wait half a minute by itself
    service = live_server.app.state.service
    hold_slots(service, BUSY)
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        context.add_init_script(SCALE + session(BUSY))
        page = context.new_page()
        page.goto(pasted_url(live_server))
        page.locator("#an-busy").wait_for()
        assert framed_and_empty(page) == []
        page.screenshot(path=str(shots / "analysis-busy-en-US-1100.png"))
        free_slots(service, BUSY)
        page.click("#an-try-now")
        page.wait_for_selector("#an-number", timeout=20000)
    finally:
        free_slots(service, BUSY)
        context.close()


def test_another_browser_behind_the_same_address_is_not_refused(browser, live_server):
    # a club behind one router: one person's two running analyses no longer refuse the others'
    service = live_server.app.state.service
    hold_slots(service, BUSY)
    context = browser.new_context()
    try:
        context.add_init_script(SCALE + session(OTHER))
        page = context.new_page()
        page.goto(pasted_url(live_server))
        page.wait_for_selector("#an-number, #an-busy, #an-error:not([hidden])", timeout=60000)
        assert page.locator("#an-number").count() == 1, page.locator("#analysis").inner_text()
    finally:
        free_slots(service, BUSY)
        context.close()


def test_the_analysis_panel_of_a_finished_game_waits_and_asks_again(browser, live_server):
    view = post_json(f"{live_server.url}/api/matches/import", {"record": resigned_record("fanorona", {"size": "dimy"})})
    service = live_server.app.state.service
    hold_slots(service, BUSY)
    context = browser.new_context_without_tokens()  # a spectator: counted by its session
    try:
        context.add_init_script(SCALE + session(BUSY))
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        page.click("#analyse")
        page.locator("#analysis #an-busy").wait_for()
        assert "It starts by itself" in page.locator("#an-busy").inner_text()
        free_slots(service, BUSY)
        page.wait_for_selector("#an-number", timeout=60000)
        page.wait_for_selector("#an-graph", timeout=60000)
        assert page.locator("#an-busy").count() == 0
    finally:
        free_slots(service, BUSY)
        context.close()
