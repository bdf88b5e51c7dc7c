"""The lobby in the browser (issue 42): two people who never exchanged a link find each other
through it, play with a clock of their own, one drops and the other claims victory, then they
rematch with the seats swapped while a spectator follows; quick pairing pairs two waiting
browsers; a challenge is accepted and one declined; the lobby at phone width and in Finnish,
without serious accessibility violations."""

from __future__ import annotations

import contextlib

import pytest

from abstracta.play import opening

TELO = "Fanorona — Telo 3×3"


def person(browser, url: str, width: int = 1100, locale: str = "en-US"):
    """A browser of its own (cookies, storage) on the lobby, playing as a guest: (context, page)."""
    context = browser.new_context_without_tokens(viewport={"width": width, "height": 900}, locale=locale)
    page = context.new_page()
    page.set_default_timeout(20000)
    page.goto(url + "/#/lobby")
    page.click("#lobby-guest")
    page.wait_for_selector("#quick-clocks button:not([disabled])")
    page.wait_for_function("() => document.getElementById('app').dataset.lobby === 'socket'")
    return context, page


def name_of(page) -> str:
    return page.evaluate("fetch('/api/me').then((r) => r.json()).then((me) => me.name)")


def in_match(page, mid: str | None = None) -> str:
    """Wait until ``page`` shows a match (``mid`` if given) with its view: the match's id."""
    page.wait_for_function("(mid) => location.hash.startsWith('#/match/') && window.abstractaView && "
                           "(!mid || window.abstractaView.id === mid)", arg=mid)
    return page.evaluate("window.abstractaView.id")


def play_one(page, ply: int) -> None:
    """The page's person plays a legal move at ``ply`` (theirs to play)."""
    page.wait_for_function(f"() => window.abstractaView.ply === {ply} && window.abstractaView.legal.length > 0 "
                           "&& document.querySelector('#legal [data-move]')")
    page.evaluate("document.querySelector('#legal [data-move]').click()")  # the list folded under the board
    page.wait_for_function(f"() => window.abstractaView.ply > {ply}")


@contextlib.contextmanager
def closing(*contexts):
    try:
        yield
    finally:
        for context in contexts:
            with contextlib.suppress(Exception):
                context.close()


@pytest.fixture
def quick_leaving(monkeypatch):
    """A gone opponent may be claimed against after 3 s, not 60 (the rule is tested, not its figure)."""
    monkeypatch.setattr(opening, "GONE_SECONDS", 3.0)


def test_two_strangers_meet_play_a_custom_clock_claim_and_rematch(browser, live_server, shots, quick_leaving):
    url = live_server.url
    (ca, a), (cb, b) = person(browser, url), person(browser, url)
    cs = browser.new_context_without_tokens(viewport={"width": 1100, "height": 900})
    with closing(ca, cb, cs):
        anna, ben = name_of(a), name_of(b)
        # Anna posts a seek with her own clock: 2½ minutes + 2 s a turn, and the first move
        a.select_option("#new-game-choice", label=TELO)
        a.select_option("#new-clock-kind", "live")
        a.fill("#new-clock-minutes", "2.5")
        a.fill("#new-clock-increment", "2")
        a.select_option("#new-seat", "0")
        a.click("#post-seek")
        a.wait_for_selector("#seeks li.mine")
        a.screenshot(path=str(shots / "lobby-seek-1100.png"), full_page=True)
        # Ben sees it live and takes it: both are taken to the game at once
        row = b.locator("#seeks li", has_text=anna)
        row.wait_for()
        assert "2.5 + 2" in row.inner_text() and "casual" in row.inner_text()
        row.locator("button.accept").click()
        mid = in_match(b)
        assert in_match(a, mid) == mid
        view = a.evaluate("window.abstractaView")
        assert view["clock"]["control"] == {"initial": 150.0, "increment": 2.0}
        assert view["my_seats"] == [0] and b.evaluate("window.abstractaView.my_seats") == [1]
        # the seats are the people's (their sessions hold them: no token kept), named on the board
        assert [p["name"] for p in view["people"]] == [anna, ben]
        assert b.evaluate("(mid) => (JSON.parse(localStorage.getItem('abstracta.tokens')) || {})[mid]", mid) is None
        assert f"Black ({ben})" in a.locator("#players").inner_text()
        assert f"White ({anna})" in b.locator("#players").inner_text()
        a.wait_for_selector("#start-note:not([hidden])")
        assert a.locator("#abort").is_visible() and b.locator("#abort").is_visible()
        # while the first moves' wait runs nobody reads as gone or back (a page still opening)
        b.wait_for_selector("#start-note:not([hidden])")
        assert b.locator("#gone [data-gone], #gone [data-back]").count() == 0
        spectator = cs.new_page()
        spectator.goto(f"{url}/#/match/{mid}")
        in_match(spectator, mid)
        # the first moves cost no time; then the clock runs
        play_one(a, 0)
        play_one(b, 1)
        a.wait_for_function("() => window.abstractaView.clock.running === 0")
        assert not a.locator("#abort").is_visible()
        # Anna's page goes away on her own turn: Ben is told, then may claim the game
        a.close()
        b.wait_for_selector("#gone [data-gone='0']")
        assert f"{anna} has left the game" in b.locator("#gone").inner_text()  # the seats' people are named
        b.wait_for_selector("#claim-victory")
        b.screenshot(path=str(shots / "lobby-claim-1100.png"), full_page=True)
        b.click("#claim-victory")
        b.wait_for_function("() => window.abstractaView.status === 'over'")
        over = b.evaluate("window.abstractaView")
        assert (over["termination"], over["result"], over["left"]) == ("left", [-1.0, 1.0], 0)
        result = b.locator("#result").inner_text()
        assert result == f"{anna} left the game — You win"  # the result says why, named
        # Anna comes back (her browser still holds her session) and offers a rematch; Ben
        # accepts; both, and the spectator, are taken to the new game, the seats swapped
        a = ca.new_page()
        a.set_default_timeout(20000)
        a.goto(f"{url}/#/match/{mid}")
        in_match(a, mid)
        a.click("#rematch-offer")
        b.wait_for_selector("#rematch-accept")
        b.screenshot(path=str(shots / "lobby-rematch-1100.png"), full_page=True)
        b.click("#rematch-accept")
        new = b.wait_for_function("(mid) => window.abstractaView && window.abstractaView.id !== mid && "
                                  "window.abstractaView.id", arg=mid).json_value()
        for page in (a, b, spectator):
            in_match(page, new)
        assert a.evaluate("window.abstractaView.my_seats") == [1] and b.evaluate("window.abstractaView.my_seats") == [0]
        assert spectator.evaluate("window.abstractaView.my_seats") == []
        assert a.evaluate("window.abstractaView.clock.control") == {"initial": 150.0, "increment": 2.0}
        play_one(b, 0)  # Ben moves first now, his session holding his new seat


def test_quick_pairing_pairs_two_waiting_browsers(browser, live_server, shots):
    url = live_server.url
    (ca, a), (cb, b) = person(browser, url), person(browser, url, width=390)
    with closing(ca, cb):
        for page in (a, b):
            page.select_option("#quick-game", label="Nibble — Square 9×9")
        a.click("#quick-clocks [data-clock='{\"initial\":180,\"increment\":2}']")
        a.wait_for_selector("#quick-waiting")
        assert "3 + 2" in a.locator("#quick-waiting").inner_text()
        b.screenshot(path=str(shots / "lobby-390.png"), full_page=True)
        b.click("#quick-clocks [data-clock='{\"initial\":180,\"increment\":2}']")
        mid = in_match(a)
        assert in_match(b, mid) == mid
        assert sorted(a.evaluate("window.abstractaView.my_seats") + b.evaluate("window.abstractaView.my_seats")) == [0, 1]
        b.screenshot(path=str(shots / "lobby-match-390.png"), full_page=True)


def test_a_challenge_accepted_and_one_declined(browser, live_server):
    url = live_server.url
    (ca, a), (cb, b) = person(browser, url), person(browser, url, locale="fi-FI")
    with closing(ca, cb):
        ben = name_of(b)
        a.select_option("#new-game-choice", label="Nibble — Square 9×9")
        a.select_option("#new-clock-kind", "days")
        a.fill("#new-clock-days", "2")
        a.fill("#new-opponent", ben)
        a.click("#send-challenge")
        a.wait_for_selector("#challenges-out li[data-status='open']")
        incoming = b.locator("#challenges-in li")
        incoming.wait_for()
        said = incoming.inner_text()
        assert "haastaa sinut" in said and "2 päivää siirtoa kohden" in said  # in Finnish, with its settings
        incoming.locator("button.primary").click()
        mid = in_match(b)
        assert in_match(a, mid) == mid
        assert a.evaluate("window.abstractaView.clock.control") == {"per_turn": 172800.0}
        # a second challenge, declined
        a.goto(url + "/#/lobby")
        a.wait_for_selector("#new-opponent")
        a.fill("#new-opponent", ben)
        a.click("#send-challenge")
        b.goto(url + "/#/lobby")
        b.locator("#challenges-in li").wait_for()
        b.locator("#challenges-in li button:not(.primary)").click()
        a.wait_for_selector("#challenges-out li[data-status='declined']")
        assert "declined" in a.locator("#challenges-out li[data-status='declined']").inner_text()


def test_the_lobby_has_no_serious_accessibility_violation(browser, live_server):
    from test_accessibility import report, severe_violations

    context, page = person(browser, live_server.url)
    with closing(context):
        page.select_option("#quick-game", label=TELO)
        page.click("#post-seek")
        page.wait_for_selector("#seeks li.mine")
        found = severe_violations(page)
        assert not found, report(found)


def test_a_seek_is_said_posted_never_listed_twice_and_withdrawn_once_its_seeker_plays(browser, live_server, shots,
                                                                                     monkeypatch):
    """Anna's seek is said posted and listed as hers; posting it again is refused. Ben takes it:
    her other live seek leaves everyone's lobby at once, her correspondence seek stays. She never
    makes her first move: Your games, open in another tab, stops saying "your move" once the game
    is aborted, without a reload."""
    monkeypatch.setattr(opening, "FIRST_MOVE_SECONDS", 8.0)  # the rule is tested, not its figure
    url = live_server.url
    (ca, a), (cb, b), (cc, c) = person(browser, url, width=1280), person(browser, url), person(browser, url, width=390)
    with closing(ca, cb, cc):
        anna = name_of(a)
        a.select_option("#new-game-choice", label=TELO)
        a.select_option("#new-seat", "0")
        a.click("#post-seek")
        a.wait_for_selector("#new-seek-note:not([hidden])")
        assert a.locator("#new-seek-note").inner_text().startswith("Seek posted")
        mine = a.locator("#seeks li.mine")
        mine.wait_for()
        first = mine.get_attribute("data-seek")
        assert "your seek" in mine.inner_text() and mine.locator("button.withdraw").is_visible()
        a.screenshot(path=str(shots / "lobby-seek-posted-1280.png"), full_page=True)
        a.click("#post-seek")  # the second click of the report
        a.wait_for_selector("#new-seek-error:not([hidden])")
        assert "you have this very seek open already" in a.locator("#new-seek-error").inner_text()
        assert a.locator("#new-seek-note").is_hidden() and a.locator("#seeks li.mine").count() == 1
        a.set_viewport_size({"width": 390, "height": 900})
        a.screenshot(path=str(shots / "lobby-seek-twice-390.png"), full_page=True)
        a.set_viewport_size({"width": 1280, "height": 900})
        a.select_option("#new-seat", "1")  # another live seek
        a.click("#post-seek")
        a.wait_for_function("() => document.querySelectorAll('#seeks li.mine').length === 2")
        a.select_option("#new-clock-kind", "days")  # and a correspondence one
        a.click("#post-seek")
        a.wait_for_function("() => document.querySelectorAll('#seeks li.mine').length === 3")
        daily = a.locator("#seeks li.mine").nth(2).get_attribute("data-seek")
        hers = c.locator("#seeks li", has_text=anna)
        c.wait_for_function(f"() => [...document.querySelectorAll('#seeks li')].filter((li) => li.textContent.includes({anna!r})).length === 3")
        b.locator(f"#seeks li[data-seek='{first}'] button.accept").click()
        mid = in_match(b)
        assert in_match(a, mid) == mid
        # the lobby of a third person drops her other live seek at once; the daily one stays
        c.wait_for_function(f"() => [...document.querySelectorAll('#seeks li')].filter((li) => li.textContent.includes({anna!r})).length === 1")
        assert hers.get_attribute("data-seek") == daily
        c.screenshot(path=str(shots / "lobby-seeks-withdrawn-390.png"), full_page=True)
        # Your games and the home page in other tabs of hers: "your move", then the game aborted,
        # unreloaded
        home = ca.new_page()
        home.goto(f"{url}/#/")
        home.wait_for_selector("#waiting-count:not([hidden])")
        assert home.locator("#waiting-count").inner_text() == "1 game waits for your move"
        home.wait_for_selector(f".recent a[href='#/match/{mid}']")
        games = ca.new_page()
        games.goto(f"{url}/#/matches")
        cell = games.locator(f"#match-list tr[data-id='{mid}'] td:nth-child(5)")
        cell.wait_for()
        assert cell.inner_text() == "your move" and games.locator("#waiting-count").is_visible()
        games.wait_for_function(f"() => (document.querySelector(\"#match-list tr[data-id='{mid}'] td:nth-child(5)\") || {{}}).textContent === 'Game aborted'",
                                timeout=20000)
        assert games.locator("#waiting-count").is_hidden()
        games.screenshot(path=str(shots / "your-games-aborted-1280.png"), full_page=True)
        home.wait_for_selector("#waiting-count[hidden]", state="attached")
        assert home.locator(f".recent a[href='#/match/{mid}']").count() == 0
