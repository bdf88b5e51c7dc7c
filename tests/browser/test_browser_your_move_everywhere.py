""""Your move" and challenges off the game page: on the home page a person learns live, without a
reload, that a challenge came (Accept and Decline under the header) and that it is their move
(the header's badge, the tab's title, the home page's waiting line and "Continue a game" with the
opponent and whose move it is); the game page's own "● Your move" title stays; at phone width
too."""

from __future__ import annotations

import os
from pathlib import Path

from test_browser_lobby import TELO, closing, in_match, name_of, person, play_one

LIVE_SECONDS = 6000  # a few seconds is what a person waits; the socket says it at once


def shots_dir() -> Path:
    folder = Path(os.environ.get("YOURMOVE_SHOTS") or "/tmp/yourmove-shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def play_turn(page, seat: int) -> None:
    """The page's person plays their whole turn (a capture may go on in the same turn)."""
    page.wait_for_function(f"() => window.abstractaView && window.abstractaView.to_move === {seat}")
    while page.evaluate(f"window.abstractaView.status === 'playing' && window.abstractaView.to_move === {seat}"):
        play_one(page, page.evaluate("window.abstractaView.ply"))


def home(page, url: str) -> None:
    page.goto(url + "/#/")
    page.wait_for_selector("#home-lobby")
    page.wait_for_function("() => document.querySelector('header.top').dataset.notices === 'socket'")


def test_a_challenge_and_the_turn_reach_a_person_on_the_home_page(browser, live_server):
    url = live_server.url
    (ca, a), (cb, b) = person(browser, url), person(browser, url, width=390)
    shots = shots_dir()
    with closing(ca, cb):
        anna, ben = name_of(a), name_of(b)
        home(b, url)
        assert b.title() == "abstracta" and b.locator("#turn-badge").is_hidden()
        assert b.locator("#challenge-notices").is_hidden()
        # Anna challenges Ben by name (5 + 3, she moves first) while he is on the home page
        a.select_option("#new-game-choice", label=TELO)
        a.select_option("#new-clock-kind", "live")
        a.fill("#new-clock-minutes", "5")
        a.fill("#new-clock-increment", "3")
        a.select_option("#new-seat", "0")
        a.fill("#new-opponent", ben)
        a.click("#send-challenge")
        notice = b.locator("#challenge-notices .challenge-notice")
        notice.wait_for(timeout=LIVE_SECONDS)
        said = notice.inner_text()
        assert f"{anna} (" in said and "challenges you" in said and "5 + 3" in said and "You move second." in said
        assert b.title() == "(1) abstracta"  # the tab says it too
        b.screenshot(path=str(shots / "home-challenge-390.png"), full_page=True)
        notice.get_by_role("button", name=f"Accept the challenge of {anna}").click()
        mid = in_match(b)
        assert in_match(a, mid) == mid
        play_turn(a, 0)
        b.wait_for_function("() => document.title.startsWith('● Your move')")  # the game page's own title stays
        play_turn(b, 1)
        # Ben goes to the home page at once: Anna is to move, named; the list is never drawn
        # from a reading made before his move ("Your move" of the game he has just moved in)
        b.evaluate("""() => { window.__rows = []; new MutationObserver(() => {
            for (const li of document.querySelectorAll('#continue-list li')) window.__rows.push(li.dataset.id + ' ' + li.textContent);
          }).observe(document.body, { childList: true, subtree: true, characterData: true }); }""")
        home(b, url)
        row = b.locator(f"#continue-list li[data-id='{mid}']")
        row.wait_for()
        assert f"against {anna}" in row.inner_text() and f"{anna} to move" in row.inner_text()
        drawn = [r for r in b.evaluate("window.__rows") if r.startswith(mid)]
        assert drawn and not [r for r in drawn if "Your move" in r], drawn
        assert b.locator("#waiting-count").is_hidden() and b.locator("#turn-badge").is_hidden()
        assert b.title() == "abstracta"
        # Anna moves: his header, title, waiting line and list say so without a reload
        a.wait_for_function("() => window.abstractaView.to_move === 0")
        play_turn(a, 0)
        b.wait_for_selector("#turn-badge:not([hidden])", timeout=LIVE_SECONDS)
        # at 390 px the badge's words are short (the phone's header has one line for it); whole
        # to a screen reader, and on a wider screen
        assert b.locator("#turn-badge").inner_text() == "Move 1"
        assert b.locator("#turn-badge").get_attribute("aria-label") == "1 game waits for your move"
        assert b.locator("#turn-badge").get_attribute("href") == f"#/match/{mid}"
        b.wait_for_function("() => document.title === '(1) abstracta'", timeout=LIVE_SECONDS)
        b.wait_for_selector("#waiting-count:not([hidden])", timeout=LIVE_SECONDS)
        assert b.locator("#waiting-count").inner_text() == "1 game waits for your move"
        b.wait_for_selector(f"#continue-list li.your-move[data-id='{mid}']", timeout=LIVE_SECONDS)
        assert "Your move" in b.locator(f"#continue-list li[data-id='{mid}']").inner_text()
        b.screenshot(path=str(shots / "home-your-move-390.png"), full_page=True)
        b.set_viewport_size({"width": 1280, "height": 900})
        b.wait_for_function("() => document.querySelector('#turn-badge').textContent === 'Your move 1'")
        b.screenshot(path=str(shots / "home-your-move-1280.png"))
        # in Finnish: the header's and the home page's words follow the switch
        b.click("#lang button[data-lang='fi']")
        b.wait_for_function("() => document.querySelector('#turn-badge').textContent === 'Sinun vuorosi 1'")
        b.wait_for_selector(f"#continue-list li.your-move[data-id='{mid}']")
        assert "Sinun vuorosi" in b.locator(f"#continue-list li[data-id='{mid}']").inner_text()
        assert b.locator("#waiting-count").inner_text() == "1 peli odottaa siirtoasi"
        b.screenshot(path=str(shots / "home-your-move-fi-1280.png"))
        b.click("#lang button[data-lang='en']")
        b.wait_for_function("() => document.querySelector('#turn-badge').textContent === 'Your move 1'")
        # on another page too (the rules): the badge and the title follow him; the badge leads to the game
        b.goto(url + "/#/rules/nibble")
        b.wait_for_selector(".rules")
        b.wait_for_function("() => document.title.startsWith('(1) ') && document.title.includes('Nibble')")
        assert b.locator("#turn-badge").is_visible()
        b.click("#turn-badge")
        in_match(b, mid)
        b.wait_for_function("() => document.title.startsWith('● Your move')")
        assert b.locator("#turn-badge").is_hidden()  # the game on screen says it itself
        play_turn(b, 1)  # his move played: back on the home page, no game waits for him
        b.evaluate("location.hash = '#/'")
        b.locator(f"#continue-list li[data-id='{mid}']", has_text=f"{anna} to move").wait_for(timeout=LIVE_SECONDS)
        assert b.locator("#turn-badge").is_hidden() and b.locator("#waiting-count").is_hidden()
        assert b.title() == "abstracta"


def test_on_a_wide_screen_a_challenge_shows_on_any_page_and_may_be_declined(browser, live_server):
    url = live_server.url
    (ca, a), (cb, b) = person(browser, url), person(browser, url, width=1280)
    shots = shots_dir()
    with closing(ca, cb):
        ben = name_of(b)
        b.goto(url + "/#/matches")
        b.wait_for_function("() => document.querySelector('header.top').dataset.notices === 'socket'")
        a.select_option("#new-game-choice", label=TELO)
        a.fill("#new-opponent", ben)
        a.click("#send-challenge")
        notice = b.locator("#challenge-notices .challenge-notice")
        notice.wait_for(timeout=LIVE_SECONDS)
        b.screenshot(path=str(shots / "matches-challenge-1280.png"))
        from test_accessibility import report, severe_violations
        found = severe_violations(b)
        assert not found, report(found)
        notice.get_by_role("button", name="Decline", exact=False).last.click()
        a.wait_for_selector("#challenges-out li[data-status='declined']")
        b.wait_for_selector("#challenge-notices", state="hidden")
        assert b.title() == "Your games — abstracta"


def test_a_visitor_with_nothing_to_ask_reads_no_games_on_a_return_to_the_tab(browser, live_server):
    # nobody signed in, no seat token: nothing is addressed to this browser, so neither a
    # return to the tab, nor a page change, nor the minute's poll asks the server for games;
    # the notices' socket, refused as nobody's (1000), is not opened again
    url = live_server.url
    # (a context of its own: the browser fixture's others hold the tokens of every match the
    # tests made so far, games to ask about)
    ctx = browser.new_context_without_tokens(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    with closing(ctx):
        asked, sockets = [], []
        page.on("request", lambda r: asked.append(r.url) if "/api/matches?" in r.url else None)
        page.on("websocket", lambda ws: sockets.append(ws.url) if ws.url.endswith("/api/notices/ws") else None)
        page.goto(url + "/#/")
        page.wait_for_selector("#home-lobby")
        # the page's first readings done (a busy server answers late: counted after, they were
        # taken for readings of the return to the tab)
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(500)
        before = len(asked)
        page.evaluate("() => { window.dispatchEvent(new Event('focus')); document.dispatchEvent(new Event('visibilitychange')); }")
        page.evaluate("() => { location.hash = '#/signin'; }")
        page.wait_for_timeout(3000)
        assert len(asked) == before, asked
        assert sockets == [], sockets
