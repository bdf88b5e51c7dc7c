"""What a club player met in Finnish and with a screen reader (the tester's round of December):
the lobby's clock kind inside its box at desktop and phone widths in both languages; the home
page's game against a person in natural Finnish, the name never inflected; a board's per-seat
count naming each side alike ("White (anna) 22, Black (ben) 22", not "White 22, ben 22"); a
new member past the recovery codes going on to play, not to the account's settings.
Screenshots ``tester-fi-*.png``."""

from __future__ import annotations

import pytest

from test_browser_lobby import closing, person
from test_browser_names import call, signed_in
from test_browser_people import PW, fresh

#: the clock kind's select and its fieldset, right edges (the fieldset's inside its border) and
#: the page's sideways scroll
EDGES = """(sel) => { const s = document.querySelector(sel || '#new-clock-kind'), f = s.closest('fieldset');
  const fr = f.getBoundingClientRect(), border = parseFloat(getComputedStyle(f).borderRightWidth);
  return { select: s.getBoundingClientRect().right, box: fr.right - border,
           fits: document.documentElement.scrollWidth <= document.documentElement.clientWidth }; }"""


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("locale", ["fi-FI", "en-US"])
def test_the_clock_kind_stays_inside_its_box(browser, live_server, shots, width, locale):
    context, page = person(browser, live_server.url, width=width, locale=locale)
    with closing(context):
        page.select_option("#new-clock-kind", "live")
        edges = page.evaluate(EDGES)
        assert edges["select"] <= edges["box"] + 0.5, edges
        assert edges["fits"]
        page.locator("#new-clock").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"tester-fi-clock-{locale[:2]}-{width}.png"))
        # a translation longer still (another language, a longer word) shrinks the select
        # rather than pushing it out of the box
        page.evaluate("""() => { const o = document.querySelector('#new-clock-kind option[value="live"]');
          o.textContent = o.textContent + ' — ' + o.textContent + ' — ' + o.textContent; }""")
        edges = page.evaluate(EDGES)
        assert edges["select"] <= edges["box"] + 0.5, edges
        assert edges["fits"]


def test_the_new_game_pages_clock_kind_stays_inside_its_box(browser, live_server):
    for width in (1280, 390):
        context = browser.new_context_without_tokens(viewport={"width": width, "height": 900}, locale="fi-FI")
        with closing(context):
            page = context.new_page()
            page.goto(live_server.url + "/#/new/fanorona")
            page.wait_for_selector("#clock")
            page.select_option("#clock", "custom")
            page.evaluate("""() => { const o = document.querySelector('#clock-custom-kind option[value="live"]');
              o.textContent = o.textContent + ' — ' + o.textContent + ' — ' + o.textContent; }""")
            page.select_option("#clock-custom-kind", "live")
            edges = page.evaluate(EDGES, "#clock-custom-kind")
            assert edges["select"] <= edges["box"] + 0.5, (width, edges)
            assert edges["fits"]


@pytest.fixture
def anna_and_ben(browser, live_server):
    """Anna (English, 1280 px) and Ben (Finnish, 390 px) signed in, in a Fanorona game of
    Anna's challenge (Anna White): (anna's name, her page, ben's name, his page, the match id)."""
    people = live_server.app.state.people
    anna, ben = fresh("Anna"), fresh("Ben")
    for n in (anna, ben):
        people.accounts.add(n, PW)
    (ca, a), (cb, b) = signed_in(browser, live_server.url, anna), signed_in(browser, live_server.url, ben, width=390, locale="fi-FI")
    with closing(ca, cb):
        game = {"game": "fanorona", "options": {}, "clock": None, "rated": False, "seat": 0}
        sent = call(a, "POST", "/api/challenges", {**game, "to": ben})
        mid = call(b, "POST", f"/api/challenges/{sent['id']}/accept")["id"]
        yield anna, a, ben, b, mid


def test_the_home_page_names_the_opponent_without_inflecting_the_name(anna_and_ben, live_server, shots):
    anna, a, ben, b, mid = anna_and_ben
    for page, other, words in ((b, anna, f"Fanorona, vastustajana {anna} — "), (a, ben, f"Fanorona against {ben} — ")):
        page.goto(f"{live_server.url}/#/")
        row = page.locator(f"#continue-list li[data-id='{mid}']")
        row.wait_for()
        assert row.inner_text().startswith(words), row.inner_text()
        assert row.locator("a.person").all_inner_texts() == [other]  # the name still leads to the profile
        assert row.locator(f"a[href='#/match/{mid}']").inner_text() == "Fanorona"
    b.screenshot(path=str(shots / "tester-fi-home-390.png"))


def test_a_boards_count_of_stones_names_each_side_alike(anna_and_ben, live_server, shots):
    anna, a, ben, b, mid = anna_and_ben
    for page, words in ((a, f"Stones: White ({anna}) 22, Black ({ben}) 22."),
                        (b, f"Kivet: Valkoinen ({anna}) 22, Musta ({ben}) 22.")):
        page.goto(f"{live_server.url}/#/match/{mid}")
        try:
            page.wait_for_function("(w) => (document.getElementById('board-text') || {textContent: ''}).textContent.includes(w)",
                                   arg=words, polling=100)
        except Exception:
            raise AssertionError(f"{words!r} not in {page.locator('#board-text').text_content()!r}") from None
    # whose turn it is keeps the shell's names (another person by their name)
    assert "Vuorossa: " + anna in b.locator("#board-text").text_content()
    a.screenshot(path=str(shots / "tester-fi-stones-anna-1280.png"))


def test_past_the_recovery_codes_a_new_member_goes_on_to_play(browser, live_server, shots):
    for start, then in (("#/lobby", "#/lobby"), ("#/", "#/")):
        context = browser.new_context_without_tokens(viewport={"width": 390, "height": 844}, locale="fi-FI")
        with closing(context):
            page = context.new_page()
            page.goto(live_server.url + "/" + start)
            page.click("#me-signin")
            page.wait_for_selector("#signin")
            page.click("a[href='#/signup']")
            page.fill("#signup-username", fresh("uusi"))
            page.fill("#signup-password", PW)
            page.click("#signup-submit")
            page.wait_for_selector("#recovery-codes li")
            assert page.get_attribute("#codes-done", "href") == then
            page.click("#codes-done")
            page.wait_for_function("(h) => location.hash === h", arg=then)
            page.wait_for_selector("#new-clock-kind" if then == "#/lobby" else ".cards")
            assert page.locator("#me-button").inner_text().startswith("uusi")
            if then == "#/lobby":
                page.screenshot(path=str(shots / "tester-fi-after-codes-390.png"))
    # a sign-up page opened by its address goes on to the home page
    context = browser.new_context_without_tokens(viewport={"width": 1280, "height": 900})
    with closing(context):
        page = context.new_page()
        page.goto(live_server.url + "/#/signup")
        page.fill("#signup-username", fresh("new"))
        page.fill("#signup-password", PW)
        page.click("#signup-submit")
        page.wait_for_selector("#recovery-codes li")
        assert page.get_attribute("#codes-done", "href") == "#/"
