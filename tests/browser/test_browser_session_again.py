"""After a session ended: the person signs in again in another tab, or signed out in this one.

A match page's socket holds the seats the browser held when it opened (the server keeps them).
After Anna's session ended elsewhere it reopened as nobody's; when she then signs in again in
another tab of the same browser, the page's HTTP views carry her new session's seat while the
socket's pushes still carry none, and the page flipped between seated and watching at each (a
"your move" chime at every flip). The page now opens its sockets again as soon as it learns it
holds other seats than its socket: both agree, and the page stays seated. So too when a seat of
the match is claimed by its invitation in another tab (the tokens are the browser's).

The note "Your session has ended" stays over a language switch only while nobody is signed in
(asked again then, not the header's last answer); and signing out through this tab's own header
is no session ended: the server closes this tab's sockets with 4401 too, but the page says
nothing of it."""

from __future__ import annotations

from test_browser_lobby import closing, in_match, person, play_one
from test_browser_session_ended import PW, SEATED, WORDS, at_a_match, seated_controls, shows_session_ended, signed_up, \
    sign_out_in_another_tab, switch_language

# records every change of the seats the page's drawn view holds (window.abstractaView is set as it
# draws), from now on
WATCH_SEATS = """() => { window.seatsSeen = [JSON.stringify(window.abstractaView.my_seats)];
  setInterval(() => { const s = JSON.stringify(window.abstractaView.my_seats);
    if (window.seatsSeen[window.seatsSeen.length - 1] !== s) window.seatsSeen.push(s); }, 10); }"""


def sign_in_in_another_tab(context, url: str, name: str) -> None:
    """The same browser signs in again elsewhere (its cookie jar: the page's requests carry it)."""
    r = context.request.post(f"{url}/api/session", data={"username": name, "password": PW}, headers={"Origin": url})
    assert r.status == 200, r.text()


def test_signed_in_again_elsewhere_the_match_page_settles_seated(browser, live_server):
    url = live_server.url
    ca, a, name = signed_up(browser, url)
    cb, b = person(browser, url)
    with closing(ca, cb):
        errors = []
        a.on("pageerror", lambda e: errors.append(str(e)))
        # Anna's clock is the page's to fast-forward: a flag falling here makes a spectator's page
        # look again over HTTP (match-clocks.js), one of the page's HTTP views
        a.clock.install()
        mid = at_a_match(a, b, name, url)
        sign_out_in_another_tab(ca, url)
        shows_session_ended(a, WORDS["en-US"])
        # the game's socket reopened as nobody's: the page watches
        a.wait_for_function("(mid) => window.abstractaView.my_seats.length === 0 && "
                            "document.getElementById('app').dataset.live === 'socket'", arg=mid)
        a.wait_for_timeout(2500)
        assert sum(u.endswith(f"/api/matches/{mid}/ws") for u in a.opened) == 2, a.opened
        sign_in_in_another_tab(ca, url, name)
        play_one(b, 0)  # pushed over Anna's socket (still nobody's): she watches on
        a.wait_for_function("() => window.abstractaView.ply === 1 && window.abstractaView.my_seats.length === 0")
        # Anna answers in the other tab (her cookie's seat): the clocks run from the second move
        view = ca.request.get(f"{url}/api/matches/{mid}").json()
        assert view["my_seats"] == [1] and view["legal"], view
        moved = ca.request.post(f"{url}/api/matches/{mid}/actions", data={"action": view["legal"][0], "ply": 1},
                                headers={"Origin": url})
        assert moved.status == 200, moved.text()
        a.wait_for_function("() => window.abstractaView.ply === 2 && window.abstractaView.my_seats.length === 0")
        assert a.evaluate("window.abstractaView.clock.running") == 0  # Ben's time runs
        # Ben's clock runs out here: the page (a spectator's) asks the server over HTTP, as the
        # browser is now (Anna signed in): her seat again
        a.clock.fast_forward("02:00:00")
        a.wait_for_function("() => window.abstractaView.my_seats.length === 1 && "
                            "document.querySelector('#players').textContent.includes('(you)')")
        a.evaluate(WATCH_SEATS)
        # Ben's move is pushed over the page's socket, which holds her seat too now: it stays hers
        play_one(b, 2)
        a.wait_for_function("() => window.abstractaView.ply === 3")
        a.wait_for_timeout(1500)
        assert a.evaluate("window.seatsSeen") == ["[1]"], "the page flipped between seated and watching"
        assert a.evaluate("window.abstractaView.my_seats") == [1]
        assert "(you)" in a.inner_text("#players"), a.inner_text("#players")
        if a.evaluate("window.abstractaView.status") == "playing":
            assert seated_controls(a) == SEATED, seated_controls(a)
            assert a.evaluate("document.getElementById('app').dataset.live") == "socket"
        # the sockets opened again once, at once (the game's and the room's), not in a loop
        a.wait_for_timeout(2500)
        assert [sum(u.endswith(f"/api/matches/{mid}/{end}") for u in a.opened) for end in ("ws", "room")] == [3, 3], a.opened
        assert not errors, errors


def test_a_language_switch_after_signing_in_again_elsewhere_drops_the_note(browser, live_server):
    url = live_server.url
    ca, a, name = signed_up(browser, url)
    cb, b = person(browser, url)
    with closing(ca, cb):
        at_a_match(a, b, name, url)
        sign_out_in_another_tab(ca, url)
        shows_session_ended(a, WORDS["en-US"])
        a.wait_for_function("() => window.abstractaView.my_seats.length === 0")
        sign_in_in_another_tab(ca, url, name)
        # the match page knows nothing of it (its header asked last when the session ended)
        switch_language(a, "fi")
        a.wait_for_timeout(1500)
        assert a.locator("#session-ended").count() == 0, "the note stayed for a person signed in"
        a.wait_for_selector("#me-button")  # the header asked again: Anna's
        assert a.inner_text("#me-button").startswith(name)
        a.wait_for_function("() => window.abstractaView.my_seats.length === 1")  # the page drawn for her
        # signed out elsewhere again: said again, and it stays over a switch while nobody is signed in
        sign_out_in_another_tab(ca, url)
        shows_session_ended(a, WORDS["fi-FI"])
        switch_language(a, "en")
        shows_session_ended(a, WORDS["en-US"])

def test_signing_out_here_on_a_match_page_says_no_session_ended(browser, live_server):
    url = live_server.url
    ca, a, name = signed_up(browser, url)
    cb, b = person(browser, url)
    with closing(ca, cb):
        at_a_match(a, b, name, url)
        a.click("#me-button")
        a.click("#sign-out")
        a.wait_for_selector("#me-signin")
        a.wait_for_function("() => location.hash === '#/'")
        a.wait_for_timeout(3500)  # the page asks /api/me 1.5 s after its sockets' 4401
        assert a.locator("#session-ended").count() == 0, a.inner_text("#app")


def test_a_seat_claimed_in_another_tab_seats_the_page_watching_it(browser, live_server):
    """Tokens are the browser's (localStorage): a seat taken by its invitation in one tab is the
    other tab's too, whose socket opened without it; that page takes it at once and keeps it."""
    url = live_server.url
    ca = browser.new_context_without_tokens(viewport={"width": 1100, "height": 900})
    cb = browser.new_context_without_tokens(viewport={"width": 1100, "height": 900})
    with closing(ca, cb):
        a = ca.new_page()
        a.set_default_timeout(20000)
        a.goto(f"{url}/#/new/fanorona")
        a.select_option("#opt-size", "telo")
        a.select_option("#seat-0", "human")
        a.select_option("#seat-1", "friend")
        a.click("#start")
        mid = in_match(a)
        link = a.input_value("#invite-link-1")
        # Ben's browser watches the game in one tab…
        watching = cb.new_page()
        watching.set_default_timeout(20000)
        errors = []
        watching.on("pageerror", lambda e: errors.append(str(e)))
        watching.opened = []
        watching.on("websocket", lambda ws: watching.opened.append(ws.url))
        watching.goto(f"{url}/#/match/{mid}")
        in_match(watching, mid)
        watching.wait_for_function("() => document.getElementById('app').dataset.live === 'socket' && "
                                   "window.abstractaView.my_seats.length === 0")
        assert watching.locator("#watching").is_visible()
        # …and takes the seat by its link in another
        joining = cb.new_page()
        joining.set_default_timeout(20000)
        joining.goto(link)
        joining.click("#take-seat")
        joining.wait_for_function(f"() => location.hash === '#/match/{mid}' && window.abstractaView")
        joining.close()
        watching.wait_for_function("() => window.abstractaView.my_seats.length === 1 && "
                                   "document.querySelector('#players').textContent.includes('(you)')")
        watching.evaluate(WATCH_SEATS)
        play_one(a, 0)  # pushed over the watching tab's socket, which holds the seat now
        watching.wait_for_function("() => window.abstractaView.ply === 1")
        play_one(watching, 1)  # the seat's move, from the page that watched
        a.wait_for_function("() => window.abstractaView.ply === 2")
        watching.wait_for_timeout(1000)
        assert watching.evaluate("window.seatsSeen") == ["[1]"]
        assert watching.locator("#watching").is_hidden()
        assert sum(u.endswith(f"/api/matches/{mid}/ws") for u in watching.opened) == 2, watching.opened
        assert not errors, errors


WATCHED = "() => Object.keys(JSON.parse(localStorage.getItem('abstracta.watched') || '{}'))"


def test_a_page_that_lost_its_seat_is_a_watched_game_until_the_seat_is_hers_again(browser, live_server):
    """Anna's match page, after her session ended elsewhere, watches the game: Your games keeps it
    under Watched games, as for a page opened without a seat (it was kept only once a reload or a
    language switch drew the page again). Signed in again, it is hers: listed with her games alone."""
    url = live_server.url
    ca, a, name = signed_up(browser, url)
    cb, b = person(browser, url)
    with closing(ca, cb):
        errors = []
        a.on("pageerror", lambda e: errors.append(str(e)))
        mid = at_a_match(a, b, name, url)
        assert a.evaluate(WATCHED) == []  # her seat's page: no watched game
        sign_out_in_another_tab(ca, url)
        shows_session_ended(a, WORDS["en-US"])
        a.wait_for_function("() => window.abstractaView.my_seats.length === 0")
        assert a.evaluate(WATCHED) == [mid]
        a.goto(f"{url}/#/matches")  # signed out: none of her games, this one watched
        a.wait_for_selector(f"#watched-list tr[data-id='{mid}']")
        assert a.locator("#match-list tbody tr").count() == 0
        sign_in_in_another_tab(ca, url, name)
        a.reload()
        a.wait_for_selector(f"#match-list tr[data-id='{mid}']")
        a.wait_for_timeout(1000)  # the watched games are asked for after her games are drawn
        assert a.locator("#watched").count() == 0, a.inner_text("#watched")
        assert not errors, errors


def test_signed_out_here_with_no_socket_open_a_later_end_is_said(browser, live_server):
    """A tab that signed out with no socket open (the server had none of its to close) learns
    nothing of that sign-out from a socket; a session begun later in another tab only, whose
    socket this tab opened, ending elsewhere is news the first time too (it was taken for this
    tab's own sign-out, and nothing was said)."""
    url = live_server.url
    ca, a, name = signed_up(browser, url)
    cb, b = person(browser, url)
    with closing(ca, cb):
        mid = at_a_match(a, b, name, url)
        a.evaluate("location.hash = '#/'")  # the same document: the match page's sockets close
        a.wait_for_selector("#me-button")
        a.wait_for_timeout(500)
        a.click("#me-button")
        a.click("#sign-out")
        a.wait_for_selector("#me-signin")
        a.wait_for_timeout(2500)  # nothing to say: no socket of this tab was open
        assert a.locator("#session-ended").count() == 0
        sign_in_in_another_tab(ca, url, name)
        a.evaluate(f"location.hash = '#/match/{mid}'")  # opened as the browser is now: her seat
        a.wait_for_function("() => window.abstractaView && window.abstractaView.my_seats.length === 1 && "
                            "document.getElementById('app').dataset.live === 'socket'")
        a.wait_for_timeout(500)
        sign_out_in_another_tab(ca, url)
        shows_session_ended(a, WORDS["en-US"])
