"""A session ended elsewhere, in the browser (the sockets' close code 4401): a person signed in in
two tabs signs out in one; the other tab's lobby, match and chat sockets close at once (woken by
the end), and that tab says so ("Your session has ended — sign in again", in English and Finnish,
with the way to sign in) and its header turns to nobody's. The lobby, drawn for that person, stops;
the match page's game and room sockets open again as the browser is now (nobody's: the game as
anyone sees it)."""

from __future__ import annotations

import itertools
import uuid

import pytest

from test_browser_lobby import TELO, closing, in_match, person, play_one

PW = "correct horse"
_names = itertools.count()
WORDS = {"en-US": "Your session has ended — sign in again.", "fi-FI": "Istuntosi on päättynyt – kirjaudu sisään uudelleen."}


def signed_up(browser, url: str, width: int = 1100, locale: str = "en-US"):
    """A browser of its own with a new account signed in: (context, page, name); every WebSocket
    the page opens is listed in ``page.opened`` (their addresses)."""
    context = browser.new_context_without_tokens(viewport={"width": width, "height": 900}, locale=locale)
    name = f"ended{next(_names)}{uuid.uuid4().hex[:4]}"
    # the context's requests share its cookies: the page is signed in as the account
    made = context.request.post(f"{url}/api/accounts", data={"username": name, "password": PW}, headers={"Origin": url})
    assert made.status == 201, made.text()
    page = context.new_page()
    page.set_default_timeout(20000)
    page.opened = []
    page.on("websocket", lambda ws: page.opened.append(ws.url))
    return context, page, name


def sign_out_in_another_tab(context, url: str) -> None:
    """The same browser's other tab signs out through the header's menu."""
    other = context.new_page()
    other.set_default_timeout(20000)
    other.goto(url + "/#/")
    other.click("#me-button")
    other.click("#sign-out")
    other.wait_for_selector("#me-signin")
    other.close()


def shows_session_ended(page, words: str) -> None:
    """The page says the session ended, once, with the way to sign in; the header is nobody's."""
    page.wait_for_selector("#session-ended")
    assert page.locator("#session-ended").count() == 1
    assert page.get_attribute("#session-ended", "role") == "alert"
    assert page.inner_text("#session-ended").startswith(words)
    assert page.get_attribute("#session-signin", "href") == "#/signin"
    page.wait_for_selector("#me-signin")  # the header asked /api/me again: nobody
    assert page.locator("#me-button").count() == 0


# a seated player's controls on the match page (the move typed, resigning, a takeback, the chat's
# box to write in, the your-move notices), and the note to a spectator in their stead
SEATED = {"#move-input", "#resign", "#undo", "#chat-form", "#notices"}
WATCHING = {"#watching"}


def seated_controls(page) -> set[str]:
    """Which of SEATED and WATCHING the page shows."""
    return {sel for sel in SEATED | WATCHING if page.locator(sel).is_visible()}


def watches_as_anyone(page, name: str) -> None:
    """The match page shows the game as anyone without a seat sees it: ``name``'s seat is named
    for them (not "you"), no control of a seat's is offered, the note to a spectator is up."""
    page.wait_for_function("() => window.abstractaView.my_seats.length === 0 && "
                           "!document.querySelector('#players').textContent.includes('(you)')")
    assert f"({name})" in page.inner_text("#players"), page.inner_text("#players")
    assert seated_controls(page) == WATCHING, seated_controls(page)


def opens_no_more(page, ending: str, before: int) -> None:
    """No socket whose address ends with ``ending`` opened again (the pages reopen theirs after 1-2 s)."""
    page.wait_for_timeout(4500)
    assert sum(u.endswith(ending) for u in page.opened) == before, page.opened


@pytest.mark.parametrize("locale", ["en-US", "fi-FI"])
def test_the_lobby_says_a_session_ended_elsewhere_and_stops(browser, live_server, shots, locale):
    url = live_server.url
    ca, a, _ = signed_up(browser, url, locale=locale)
    with closing(ca):
        errors = []
        a.on("pageerror", lambda e: errors.append(str(e)))
        a.goto(url + "/#/lobby")
        a.wait_for_function("() => document.getElementById('app').dataset.lobby === 'socket'")
        a.wait_for_selector("#me-button")
        assert a.locator("#post-seek").count() == 1  # the lobby of a person signed in
        sign_out_in_another_tab(ca, url)
        shows_session_ended(a, WORDS[locale])  # at once: nothing else happens in the lobby
        opens_no_more(a, "/api/lobby/ws", 1)
        assert not errors, errors
        tag = locale[:2]
        a.screenshot(path=str(shots / f"session-ended-lobby-{tag}-1100.png"))
        a.set_viewport_size({"width": 390, "height": 844})
        a.screenshot(path=str(shots / f"session-ended-lobby-{tag}-390.png"))
        assert a.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        # the way back in: the sign-in page, which returns to the lobby
        a.click("#session-signin")
        a.wait_for_selector("#signin")


def at_a_match(a, b, name: str, url: str) -> str:
    """Anna's seek (she plays second) taken by Ben: both on its page, Anna's sockets open; its id."""
    a.goto(url + "/#/lobby")
    a.wait_for_function("() => document.getElementById('app').dataset.lobby === 'socket'")
    a.select_option("#new-game-choice", label=TELO)
    a.select_option("#new-seat", "1")
    a.click("#post-seek")
    a.wait_for_selector("#seeks li.mine")
    b.locator("#seeks li", has_text=name).locator("button.accept").click()
    mid = in_match(b)
    assert in_match(a, mid) == mid and a.evaluate("window.abstractaView.my_seats") == [1]
    a.wait_for_function("() => document.getElementById('app').dataset.live === 'socket'")
    a.wait_for_selector("#chat:not([hidden])")
    return mid


def switch_language(page, lang: str) -> None:
    """The header's language button: the match page drawn again in ``lang``."""
    page.click(f"#lang button[data-lang='{lang}']")
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}' && document.querySelector('#players')")


def test_a_match_page_says_a_session_ended_elsewhere_and_watches_on(browser, live_server, shots):
    url = live_server.url
    ca, a, name = signed_up(browser, url)
    cb, b = person(browser, url)
    with closing(ca, cb):
        errors = []
        a.on("pageerror", lambda e: errors.append(str(e)))
        mid = at_a_match(a, b, name, url)  # their sessions' seats
        b.wait_for_selector("#chat:not([hidden])")
        assert "(you)" in a.inner_text("#players") and seated_controls(a) == SEATED, seated_controls(a)
        game, room = (sum(u.endswith(f"/api/matches/{mid}/{end}") for u in a.opened) for end in ("ws", "room"))
        assert (game, room) == (1, 1)
        sign_out_in_another_tab(ca, url)
        shows_session_ended(a, WORDS["en-US"])  # at once, Ben not having moved
        # both sockets open again, once each, as the browser is now: nobody's
        a.wait_for_function("() => document.getElementById('app').dataset.live === 'socket'")
        a.wait_for_timeout(4500)
        assert [sum(u.endswith(f"/api/matches/{mid}/{end}") for u in a.opened) for end in ("ws", "room")] == [2, 2]
        # the page is drawn again as anyone without a seat sees the game (no reload, Ben not
        # having moved): Anna's seat is hers by name, not "you"; nothing of a player's is offered
        watches_as_anyone(a, name)
        play_one(b, 0)  # Ben's move reaches Anna's page over its socket: the game as anyone sees it
        a.wait_for_function("() => window.abstractaView.ply > 0 && window.abstractaView.my_seats.length === 0")
        assert a.locator("#session-ended").count() == 1  # said once, for both sockets
        assert not errors, errors
        a.screenshot(path=str(shots / "session-ended-match-1100.png"))
        watches_as_anyone(a, name)
        a.set_viewport_size({"width": 390, "height": 844})
        a.screenshot(path=str(shots / "session-ended-match-390.png"))
        assert a.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        # a language switch draws the page again in Finnish: the note stays, said in Finnish, once
        switch_language(a, "fi")
        shows_session_ended(a, WORDS["fi-FI"])
        a.wait_for_function("() => window.abstractaView.my_seats.length === 0")
        assert seated_controls(a) == WATCHING, seated_controls(a)
        a.screenshot(path=str(shots / "session-ended-match-fi-390.png"))
        assert a.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert not errors, errors
