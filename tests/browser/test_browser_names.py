"""People find each other from a name: an account's name, wherever the pages show it (the
match page's players, the lobby's seeks and challenges, chat…), links to its profile, and a
profile of someone else has "Challenge to a game", which opens the lobby's challenge form with
the name filled in. A guest has no profile: their name stays text, never a dead link.
Screenshots at 1280 and 390 px (``names-*.png``)."""

from __future__ import annotations

import json

from httputil import no_sideways_scroll
from test_browser_lobby import closing, in_match, name_of, person
from test_browser_people import PW, fresh


def signed_in(browser, url: str, name: str, width: int = 1280, locale: str = "en-US"):
    """A browser of its own, signed in as the account ``name``: (context, page)."""
    context = browser.new_context_without_tokens(viewport={"width": width, "height": 900 if width > 500 else 844},
                                                 locale=locale)
    page = context.new_page()
    page.set_default_timeout(20000)
    page.goto(url + "/#/signin")
    page.fill("#signin-username", name)
    page.fill("#signin-password", PW)
    page.click("#signin-submit")
    page.wait_for_selector("#me-button")
    return context, page


def call(page, method: str, path: str, body=None):
    """The page's own request (its cookie): the answer's JSON."""
    return page.evaluate("""async ([method, path, body]) => {
      const r = await fetch(path, { method, headers: { "Content-Type": "application/json" },
                                    body: body === null ? undefined : JSON.stringify(body) });
      if (!r.ok) throw new Error(`${r.status} ${await r.text()}`);
      return r.status === 204 ? null : r.json();
    }""", [method, path, body])


def in_sight(page, selector: str) -> bool:
    """Whether the top of ``selector`` is on screen (scrolled to: a fraction of a pixel above it at most)."""
    top, height = page.evaluate("(sel) => [document.querySelector(sel).getBoundingClientRect().top, window.innerHeight]",
                                selector)
    return -1 < top < height


def test_anna_finds_ben_from_a_finished_game_and_challenges_him(browser, live_server, shots):
    url = live_server.url
    people = live_server.app.state.people
    anna, ben = fresh("anna"), fresh("ben")
    for n in (anna, ben):
        people.accounts.add(n, PW)
    (ca, a), (cb, b) = signed_in(browser, url, anna), signed_in(browser, url, ben, width=390, locale="fi-FI")
    with closing(ca, cb):
        # a game between them, over: ben takes anna's challenge, then she resigns it
        game = {"game": "nibble", "options": {"variant": "square9"}, "clock": None, "rated": False, "seat": 0}
        sent = call(a, "POST", "/api/challenges", {**game, "to": ben})
        mid = call(b, "POST", f"/api/challenges/{sent['id']}/accept")["id"]
        call(a, "POST", f"/api/matches/{mid}/resign", {"seat": 0})

        # the finished game's page: ben's name in the line of players leads to his profile
        a.goto(f"{url}/#/match/{mid}")
        a.wait_for_function("() => window.abstractaView && window.abstractaView.status === 'over'")
        link = a.locator("#players a")
        assert link.count() == 1  # ben's; anna's seat reads "you"
        assert link.inner_text() == ben
        assert link.get_attribute("href") == f"#/players/{ben}"
        # the status lines stay words: no link there
        assert a.locator("#status a").count() == 0
        a.screenshot(path=str(shots / "names-match-over-1280.png"))
        link.click()

        # his profile: "Challenge to a game" (none on her own profile)
        a.wait_for_function(f"() => location.hash === '#/players/{ben}'")
        button = a.locator("#challenge-player")
        button.wait_for()
        assert button.inner_text() == "Challenge to a game"
        a.screenshot(path=str(shots / "names-profile-challenge-1280.png"), full_page=True)
        button.click()

        # the lobby's form: his name filled in, the form in sight, its first choice focused
        a.wait_for_function(f"() => location.hash === '#/lobby?challenge={ben}'")
        a.wait_for_function("() => document.activeElement && document.activeElement.id === 'new-game-choice'")
        assert a.input_value("#new-opponent") == ben
        assert ben in a.locator("#challenge-note").inner_text()
        assert in_sight(a, "#new-part")
        a.screenshot(path=str(shots / "names-lobby-challenge-1280.png"))
        a.select_option("#new-game-choice", label="Nibble — Square 9×9")
        a.select_option("#new-clock-kind", "days")
        a.click("#send-challenge")
        out = a.locator("#challenges-out li[data-status='open']")
        out.wait_for()
        assert out.locator("a").inner_text() == ben  # the challenge names him, a link too

        # ben, on another page, is told in the header
        b.goto(f"{url}/#/leaderboards")
        notice = b.locator(".challenge-notice")
        notice.wait_for()
        assert anna in notice.inner_text() and "haastaa sinut" in notice.inner_text()
        assert notice.locator("a.person").inner_text() == anna  # her name opens her profile
        b.screenshot(path=str(shots / "names-challenge-notice-390.png"), full_page=True)

        # his own profile has no Challenge
        b.goto(f"{url}/#/players/{ben}")
        b.wait_for_selector("#ratings")
        assert b.locator("#challenge-offer").count() == 0

        # the same on a phone, where the form is further down
        a.set_viewport_size({"width": 390, "height": 844})
        a.goto(f"{url}/#/players/{ben}")
        a.wait_for_selector("#challenge-player")
        a.screenshot(path=str(shots / "names-profile-challenge-390.png"), full_page=True)
        a.locator("#challenge-player").click()
        a.wait_for_function("() => document.activeElement && document.activeElement.id === 'new-game-choice'")
        assert a.input_value("#new-opponent") == ben and in_sight(a, "#new-part")
        assert no_sideways_scroll(a)
        a.screenshot(path=str(shots / "names-lobby-challenge-390.png"))


def test_a_visitor_signs_in_or_plays_as_a_guest_to_challenge(browser, live_server):
    url = live_server.url
    ben = fresh("ben")
    live_server.app.state.people.accounts.add(ben, PW)
    context = browser.new_context_without_tokens(viewport={"width": 1280, "height": 900})
    with closing(context):
        page = context.new_page()
        page.set_default_timeout(20000)
        page.goto(f"{url}/#/players/{ben}")
        page.wait_for_selector("#challenge-offer")
        assert page.locator("#challenge-player").count() == 0
        assert ben in page.locator("#challenge-offer").inner_text()
        assert page.get_attribute("#challenge-signin", "href") == "#/signin"
        page.click("#challenge-guest")
        page.wait_for_function(f"() => location.hash === '#/lobby?challenge={ben}'")
        page.wait_for_selector("#send-challenge")
        assert page.input_value("#new-opponent") == ben  # hidden: the form is for him
        # Enter in a field of the form opened to challenge him sends the challenge, not a seek
        # (the form's first button)
        page.select_option("#new-game-choice", label="Nibble — Square 9×9")
        page.fill("#new-clock-minutes", "10")
        page.press("#new-clock-minutes", "Enter")
        page.locator("#challenges-out li[data-status='open']").wait_for()
        assert page.locator("#challenges-out li[data-status='open'] a").inner_text() == ben
        assert page.locator("#seeks li.mine").count() == 0
        # and Enter in the opponent's name, in a form opened plainly, challenges too (refused
        # here: one open challenge to a person at a time)
        page.evaluate("() => { location.hash = '#/lobby'; }")
        page.wait_for_function("() => !document.getElementById('challenge-note') && document.getElementById('new-opponent')")
        page.fill("#new-opponent", ben)
        page.press("#new-opponent", "Enter")
        error = page.locator("#new-seek-error")
        error.wait_for()
        assert f"challenged {ben} already" in error.inner_text(), error.inner_text()
        assert page.locator("#seeks li.mine").count() == 0


def test_a_guests_name_is_text_and_an_accounts_a_link(browser, live_server, shots):
    url = live_server.url
    anna = fresh("anna")
    live_server.app.state.people.accounts.add(anna, PW)
    (cg, g) = person(browser, url)  # a guest, in the lobby
    (ca, a) = signed_in(browser, url, anna)
    with closing(cg, ca):
        guest = name_of(g)
        g.select_option("#new-game-choice", label="Nibble — Square 9×9")
        g.click("#post-seek")
        # anna reads the guest's seek: the name as text (no profile to open)
        a.goto(f"{url}/#/lobby")
        seek = a.locator("#seeks li", has_text=guest)
        seek.wait_for()
        assert seek.locator(".who").inner_text() == guest
        assert seek.locator(".who a").count() == 0
        # anna takes it: on her match page the guest's name is text too; on the guest's, hers a link
        a.screenshot(path=str(shots / "names-lobby-seeks-1280.png"), full_page=True)
        seek.locator("button.accept").click()
        mid = in_match(a)
        assert in_match(g, mid) == mid
        a.wait_for_function("() => window.abstractaView.people.every(Boolean)")
        assert guest in a.locator("#players").inner_text()
        assert a.locator("#players a").count() == 0
        g.wait_for_function("() => window.abstractaView.people.every(Boolean)")
        assert g.locator("#players a").inner_text() == anna
        # the chat between them: anna's line by a link, the guest's by text
        a.fill("#chat-input", "good luck")
        a.click("#chat-send")
        g.wait_for_selector("#chat-players li")
        g.fill("#chat-input", "you too")
        g.click("#chat-send")
        a.wait_for_function("() => document.querySelectorAll('#chat-players li').length === 2")
        for page in (a, g):
            lines = page.locator("#chat-players li .who")
            assert lines.all_inner_texts() == [anna, guest]
            assert lines.nth(0).locator("a").get_attribute("href") == f"#/players/{anna}"
            assert lines.nth(1).locator("a").count() == 0
        g.screenshot(path=str(shots / "names-match-guest-1100.png"))
        # anna's profile lists the game against the guest: by name, with no link to a profile
        a.goto(f"{url}/#/players/{anna}")
        current = a.locator("#current-games li")
        current.wait_for()
        assert guest in current.inner_text()
        assert current.locator("a[href^='#/players/']").count() == 0
        # the live games' list: anna a link, the guest text; the card's link to the game apart
        a.goto(f"{url}/#/live")
        card = a.locator(f"#live-games li[data-id={json.dumps(mid)}]")
        card.wait_for()
        assert card.locator(".live-who a").all_inner_texts() == [anna]
        assert guest in card.locator(".live-who").inner_text()
        a.screenshot(path=str(shots / "names-live-1280.png"))
        # the home page's Continue a game: "against anna", her name a link
        g.set_viewport_size({"width": 390, "height": 844})
        g.goto(f"{url}/#/")
        going = g.locator(f"#continue-list li[data-id={json.dumps(mid)}]")
        going.wait_for()
        assert going.locator("a.person").all_inner_texts() == [anna]
        assert f"against {anna}" in going.inner_text()
        g.screenshot(path=str(shots / "names-home-390.png"))
        # Your games: the same
        g.goto(f"{url}/#/matches")
        row = g.locator(f"#match-list tr[data-id={json.dumps(mid)}]")
        row.wait_for()
        g.screenshot(path=str(shots / "names-your-games-390.png"), full_page=True)
        assert row.locator("td a.person").all_inner_texts() == [anna]
        row.locator("a.person").click()
        g.wait_for_function(f"() => location.hash === '#/players/{anna}'")
        g.wait_for_selector("#challenge-player")
