"""What a club player read on the pages and tripped over (a tester's report): an invited seat
nobody has taken is not "gone"; the invitation page prints no "null"; the first moves' deadline
reads as a duration and speaks to its own seat as "you"; "Play as a guest" in the lobby throws
nothing; a spectator is told "Last turns" once; the Finnish words for a rated game agree; the
sign-up form says what a name may be and every field's error at once. Screenshots at 1280 and
390 px go into the ``shots`` folder (``tester-*.png``)."""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path

import abstracta
from httputil import first_moves, post_json

def fresh(browser, width: int = 1280, locale: str = "en-US"):
    context = browser.new_context_without_tokens(viewport={"width": width, "height": 900}, locale=locale)
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


@contextlib.contextmanager
def closing(*contexts):
    try:
        yield
    finally:
        for context in contexts:
            with contextlib.suppress(Exception):
                context.close()


def invite(page, url: str, clock: str = "live:600:5") -> tuple[str, str]:
    """White is this page, Black a friend invited, on Fanorona Telo: (match id, the link)."""
    page.goto(f"{url}/#/new/fanorona")
    page.select_option("#opt-size", "telo")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "friend")
    page.select_option("#clock", clock)
    page.click("#start")
    page.wait_for_function("() => location.hash.startsWith('#/match/') && window.abstractaView")
    page.wait_for_selector("#invite-link-1")
    return page.evaluate("window.abstractaView.id"), page.input_value("#invite-link-1")


def test_an_invited_seat_nobody_took_is_waited_for_not_gone(browser, live_server, shots):
    ctx, a, errors = fresh(browser)
    with closing(ctx):
        mid, _ = invite(a, live_server.url)
        # the socket's presence comes within a moment of the page: it said the seat "left"
        a.wait_for_timeout(2500)
        assert a.locator("#status").inner_text() == "Waiting for Black to take their seat"
        assert a.locator("#gone").is_hidden()
        assert "has left the game" not in a.locator("#app").inner_text()
        a.screenshot(path=str(shots / "tester-invite-waiting-1280.png"), full_page=True)
        a.set_viewport_size({"width": 390, "height": 844})
        a.screenshot(path=str(shots / "tester-invite-waiting-390.png"), full_page=True)
        assert errors == []


def test_the_invitation_page_of_an_unrated_game_prints_no_null(browser, live_server, shots):
    ca, a, _ = fresh(browser)
    cb, b, errors = fresh(browser, 390)
    with closing(ca, cb):
        _, link = invite(a, live_server.url)
        b.goto(link)
        b.wait_for_selector("#take-seat")
        text = b.locator("#app").inner_text()
        assert not re.search(r"\b(null|undefined)\b", text), text
        assert b.locator("#join-rated").count() == 0
        # the seat list follows the lead directly
        assert b.evaluate("document.getElementById('join-what').nextSibling.id") == "join-seats"
        b.screenshot(path=str(shots / "tester-join-390.png"), full_page=True)
        assert errors == []


def test_the_first_move_deadline_reads_as_a_duration_and_speaks_to_its_own_seat(browser, live_server, shots):
    ca, a, _ = fresh(browser)
    cb, b, _ = fresh(browser, 390, locale="fi-FI")
    with closing(ca, cb):
        # a day per move: the first move may wait a day
        mid, link = invite(a, live_server.url, "turn:86400")
        b.goto(link)
        b.click("#take-seat")
        b.wait_for_function("(mid) => location.hash === `#/match/${mid}` && window.abstractaView", arg=mid)
        a.wait_for_selector("#start-note:not([hidden])")
        b.wait_for_selector("#start-note:not([hidden])")
        # White, to move, is spoken to; the friend reads who must move, in Finnish
        assert re.fullmatch(r"Make your first move within (1 day|23 h 59 min), or the game is aborted\.",
                            a.locator("#start-note").inner_text()), a.locator("#start-note").inner_text()
        host = b.evaluate("window.abstractaView.people[0].name")  # the host, a guest now, by name
        assert re.fullmatch(rf"Pelaajan {host} on tehtävä ensimmäinen siirtonsa (1 vrk|23 t 59 min) kuluessa, "
                            r"tai peli keskeytetään\.", b.locator("#start-note").inner_text()), b.locator("#start-note").inner_text()
        a.screenshot(path=str(shots / "tester-deadline-1280.png"), full_page=True)
        b.screenshot(path=str(shots / "tester-deadline-fi-390.png"), full_page=True)
        # the words of shorter waits, as a live game's 30 s reads
        said = a.evaluate("""async () => { const { durationWords } = await import('/words.js');
            return [86400, 86397, 3 * 86400 + 7200, 3600, 125, 60, 27, 0.2].map(durationWords); }""")
        assert said == ["1 day", "23 h 59 min", "3 d 2 h", "1 h 0 min", "2 min 5 s", "1 min", "27 s", "1 s"]


def test_play_as_a_guest_in_the_lobby_throws_nothing_and_seats_the_guest(browser, live_server, shots):
    ctx, page, errors = fresh(browser)
    with closing(ctx):
        page.goto(f"{live_server.url}/#/")
        page.goto(f"{live_server.url}/#/lobby")
        page.click("#lobby-guest")
        page.wait_for_selector("#quick-clocks button:not([disabled])")
        page.wait_for_selector("#me-button")
        assert page.locator("#lobby-guest").count() == 0
        assert re.fullmatch(r"Guest\d{6}", page.evaluate("fetch('/api/me').then((r) => r.json()).then((me) => me.name)"))
        # the header shows the guest, and its menu opens
        page.click("#me-button")
        page.wait_for_selector("#me-menu:not([hidden])")
        page.wait_for_timeout(200)
        assert errors == [], errors
        page.screenshot(path=str(shots / "tester-guest-1280.png"), full_page=True)


def test_a_spectator_is_told_the_last_turns_once(browser, live_server, shots):
    view = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "options": {"size": "telo"},
                                                        "seats": ["human", "human"]})
    first_moves(live_server.url, view["id"])
    ctx, page, errors = fresh(browser)
    with closing(ctx):
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        page.wait_for_function("() => window.abstractaView && document.getElementById('board-text').textContent")
        said = page.locator("#board-text").text_content()
        assert said.count("Last turn") == 1, said
        assert re.match(r"Last turns: White: .+ · Black: .+\. ", said), said
        assert errors == []


def test_finnish_says_rated_one_way(browser, live_server):
    catalog = json.loads((Path(abstracta.__file__).parent / "web" / "i18n" / "fi.json").read_text("utf-8"))
    assert catalog["lobby.rated"] == catalog["match.rated"] == "Pisteytetty"
    assert not [k for k, v in catalog.items() if "vahvuuslukuun" in json.dumps(v, ensure_ascii=False).lower()]
    assert "sinun kutsumiasi" in catalog["new.rated_fits"]
    ctx, page, _ = fresh(browser, locale="fi-FI")
    with closing(ctx):
        page.goto(f"{live_server.url}/#/lobby")
        page.click("#lobby-guest")
        page.wait_for_selector("#quick-clocks button:not([disabled])")
        assert "Vahvuuslukuun" not in page.locator("#app").inner_text()


def test_the_sign_up_form_says_what_a_name_may_be_and_every_error_at_once(browser, live_server, shots):
    ctx, page, errors = fresh(browser)
    with closing(ctx):
        page.goto(f"{live_server.url}/#/signup")
        hint = page.locator("#signup-username-hint").inner_text()
        assert hint == "2–20 characters, each a letter A–Z (either case, no accents), a digit, _ or -"
        page.fill("#signup-username", "Alice Smith")
        page.fill("#signup-password", "short")
        page.click("#signup-submit")
        page.wait_for_selector("#signup-error:not([hidden])")
        said = page.locator("#signup-error").inner_text()
        assert "'Alice Smith' is not a valid name" in said and "a password has at least 8 characters" in said, said
        page.screenshot(path=str(shots / "tester-signup-1280.png"), full_page=True)
        assert errors == []
    ctx, page, errors = fresh(browser, 390, locale="fi-FI")
    with closing(ctx):
        page.goto(f"{live_server.url}/#/signup")
        page.fill("#signup-username", "Äiti")
        page.fill("#signup-password", "lyhyt")
        page.click("#signup-submit")
        page.wait_for_selector("#signup-error:not([hidden])")
        assert page.locator("#signup-error").inner_text() == (
            "nimessä on 2–20 merkkiä, kukin kirjain A–Z (iso tai pieni, ei ääkkösiä), numero, _ tai - "
            "ja salasanassa on vähintään 8 merkkiä")
        page.screenshot(path=str(shots / "tester-signup-fi-390.png"), full_page=True)
        assert errors == []
