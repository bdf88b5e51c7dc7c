"""A rated game between two accounts in two browsers (issue 41, "Done when"): anna signs up and
creates a rated game with a friend's seat, ben (a phone, in Finnish) signs up and takes it by
the link; each sees the other's name; anna opens the game in a second browser where she signs
in, and has her seat's controls there; ben resigns; both see the result with the names and the
rating change, and anna's profile lists the game with ben's name and a link to it. Screenshots
at 390 and 1100 px (``rated-*.png``)."""

from __future__ import annotations

import itertools
import re
import uuid

from httputil import no_sideways_scroll

PW = "correct horse"
_names = itertools.count()


def fresh(prefix: str) -> str:
    return f"{prefix}{next(_names)}{uuid.uuid4().hex[:4]}"


def person(browser, width: int, locale: str = "en-US"):
    context = browser.new_context_without_tokens(viewport={"width": width, "height": 844 if width < 500 else 900},
                                                 locale=locale)
    page = context.new_page()
    page.set_default_timeout(20000)
    return context, page


def sign_up(page, url: str, name: str) -> None:
    page.goto(url + "/#/signup")
    page.fill("#signup-username", name)
    page.fill("#signup-password", PW)
    page.click("#signup-submit")
    page.wait_for_selector("#codes-done")
    page.click("#codes-done")
    page.wait_for_selector("#me-button")


def sign_in(page, url: str, name: str) -> None:
    page.goto(url + "/#/signin")
    page.fill("#signin-username", name)
    page.fill("#signin-password", PW)
    page.click("#signin-submit")
    page.wait_for_selector("#me-button")


def players(page) -> str:
    """The line of players without its running clocks ("White (you) vs Black (ben)")."""
    return re.sub(r"\s+", " ", re.sub(r"\d+:\d\d(\.\d)?", "", page.locator("#players").inner_text())).strip()


def view_of(page) -> dict:
    return page.evaluate("window.abstractaView")


def test_two_accounts_play_a_rated_game_from_the_invitation_to_the_result(browser, live_server, shots):
    url = live_server.url
    anna, ben = fresh("anna"), fresh("ben")
    contexts = []
    try:
        ctx_a, a = person(browser, 1100)
        ctx_b, b = person(browser, 390, "fi-FI")
        contexts += [ctx_a, ctx_b]
        sign_up(a, url, anna)
        sign_up(b, url, ben)

        # anna's new game: White is hers, Black a friend's, 5 + 3, rated
        a.goto(f"{url}/#/new/fanorona")
        a.wait_for_selector("#seat-1")
        # each computer level says its approximate rating (the level ladder's)
        assert a.locator("#seat-1 option[value='level:4']").inner_text().startswith("Computer, level 4 (≈ ")
        a.select_option("#seat-1", "friend")
        a.select_option("#clock", "live:300:3")
        a.wait_for_selector("#rated:not([disabled])")
        a.check("#rated")
        a.screenshot(path=str(shots / "rated-new-game-1100.png"), full_page=True)
        a.click("#start")
        a.wait_for_function("() => location.hash.startsWith('#/match/') && window.abstractaView")
        view = view_of(a)
        mid = view["id"]
        assert view["rated"] is True and view["my_seats"] == [0] and view["people"][0]["name"] == anna
        assert a.locator("#rated-mark").inner_text() == "Rated"
        link = a.input_value("#invite-link-1")

        # ben opens the link: a rated game, anna named at her seat; he takes Black
        b.goto(link)
        b.wait_for_selector("#take-seat:not([disabled])")
        assert "pisteytetty" in b.locator("#join-rated").inner_text()
        assert b.locator("#join-seats").inner_text().splitlines()[0] == f"Valkoinen — {anna}"
        b.screenshot(path=str(shots / "rated-join-390.png"), full_page=True)
        b.click("#take-seat")
        b.wait_for_function(f"() => location.hash === '#/match/{mid}' && window.abstractaView")
        assert view_of(b)["my_seats"] == [1]

        # each sees the other's name at their seat
        a.wait_for_function("() => window.abstractaView.people[1] !== null")
        assert players(a) == f"White (you) vs Black ({ben})"
        b.wait_for_selector("#players .clock")
        # no clock runs before each side's first move (issue 42 §4)
        assert b.locator("#players .clock.running").count() == 0
        assert players(b) == f"Valkoinen ({anna}) vs. Musta (sinä)"
        assert f"{anna}" in b.locator("#status").inner_text()  # "anna… siirtää" or the like: her turn, by name

        # anna's first move, typed in her browser
        move = view_of(a)["legal"][0]
        a.fill("#move-input", move)
        a.press("#move-input", "Enter")
        b.wait_for_function("() => window.abstractaView.ply >= 1")

        # anna opens the game on a second browser, signed in there: her seat, with its controls
        ctx_c, c = person(browser, 1100)
        contexts.append(ctx_c)
        sign_in(c, url, anna)
        c.goto(f"{url}/#/matches")
        c.wait_for_selector(f"#match-list tr[data-id='{mid}']")
        row = c.locator(f"#match-list tr[data-id='{mid}']").inner_text()
        assert f"White (you) vs Black ({ben})" in row
        c.click(f"#match-list tr[data-id='{mid}'] td.game a")
        c.wait_for_function(f"() => location.hash === '#/match/{mid}' && window.abstractaView")
        assert view_of(c)["my_seats"] == [0]
        assert c.locator("#watching").is_hidden()
        assert c.locator("#resign").is_enabled() and c.locator("#undo").is_visible()
        assert players(c) == f"White (you) vs Black ({ben})"
        assert c.evaluate("localStorage.getItem('abstracta.tokens')") is None  # no token: the cookie
        c.screenshot(path=str(shots / "rated-second-browser-1100.png"), full_page=True)

        # ben resigns on his phone
        b.wait_for_selector("#resign:not([disabled])")
        b.once("dialog", lambda dialog: dialog.accept())
        b.click("#resign")
        for page in (a, b, c):
            page.wait_for_function("() => window.abstractaView.status === 'over' && window.abstractaView.rating_changes")
            page.locator("#rating-change").wait_for(state="visible")
        changes = view_of(a)["rating_changes"]
        assert changes[0]["after"] > 1500 > changes[1]["after"]
        # each reads its own outcome first (issue 38), then the line with the other's name
        assert a.locator("#result").inner_text() == f"You win. {ben} resigned — White wins"
        assert c.locator("#result").inner_text() == f"You win. {ben} resigned — White wins"
        assert a.locator("#rating-change").inner_text() == (
            f"Your rating: 1500 → {changes[0]['after']}? (+{changes[0]['change']}) · "
            f"{ben}: 1500 → {changes[1]['after']}? (−{-changes[1]['change']})")
        assert b.locator("#rating-change").inner_text() == (
            f"Vahvuuslukusi: 1500 → {changes[1]['after']}? (−{-changes[1]['change']}) · "
            f"{anna}: 1500 → {changes[0]['after']}? (+{changes[0]['change']})")
        assert b.locator("#result").inner_text() == f"Hävisit. Musta luovutti — {anna} voittaa"
        # the second browser shows the finished game as anna's, not "You are watching a finished game"
        assert c.locator("#watching").is_hidden() and c.locator("#rating-change").inner_text().startswith("Your rating")
        assert no_sideways_scroll(b)
        a.screenshot(path=str(shots / "rated-result-1100.png"), full_page=True)
        b.screenshot(path=str(shots / "rated-result-390-fi.png"), full_page=True)

        # a spectator reads the names
        ctx_d, d = person(browser, 1100)
        contexts.append(ctx_d)
        d.goto(f"{url}/#/match/{mid}")
        d.wait_for_function("() => window.abstractaView && window.abstractaView.rating_changes")
        assert d.locator("#result").inner_text().startswith(f"{ben} resigned — {anna} wins")
        assert players(d) == f"White ({anna}) vs Black ({ben})"

        # anna's profile: the rating, and the game with ben's name and a link to it
        a.goto(f"{url}/#/players/{anna}")
        a.wait_for_selector("#recent-games li")
        line = a.locator("#recent-games li").first
        assert ben in line.inner_text() and line.locator(f"a[href='#/match/{mid}']").count() == 1
        assert line.locator(f"a[href='#/players/{ben}']").count() == 1
        a.screenshot(path=str(shots / "rated-profile-1100.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()
