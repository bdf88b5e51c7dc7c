"""Your move, chat and live games in the browser (issue 43): in two browsers a player gets the
your-move title and a notification while the tab is hidden; chat works between the players and
among the spectators, apart, and markup and a script sent in a line stay text with the
Content-Security-Policy silent; a third browser finds the game in the live list and watches it,
the number watching shown; at phone width too."""

from __future__ import annotations

import json
import re

from httputil import get_json, give, no_sideways_scroll, post_json

#: Notifications made by the page, permission requests, and a tab hidden at will (Playwright
#: emulates no visibility: the page's own document.hidden is made to say so)
SPY = """(() => {
  window.__notes = []; window.__asks = 0;
  const Real = window.Notification;
  if (Real) {
    const Spy = function (title, options) { window.__notes.push({ title, body: options && options.body }); return new Real(title, options); };
    Object.defineProperty(Spy, 'permission', { get: () => Real.permission });
    Spy.requestPermission = (...a) => { window.__asks++; return Real.requestPermission(...a); };
    window.Notification = Spy;
  }
  window.__hide = () => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  };
})();"""
#: every CSP refusal the page meets (test_browser_csp.py's listener)
LISTEN = ("window.__csp = []; document.addEventListener('securitypolicyviolation', "
          "e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")
MARKUP = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><b>bold</b>'


def apart(url: str, game: str = "nibble", **extra) -> tuple[str, dict[int, str]]:
    """A match of two people at a distance: (id, {seat: token})."""
    view = post_json(f"{url}/api/matches", {"game": game, "seats": ["human", "human"], "take": [0], **extra})
    joined = post_json(f"{url}/api/invites/claim", {"code": view["invites"][0]["code"]})
    return view["id"], {0: view["tokens"][0]["token"], 1: joined["tokens"][0]["token"]}


def open_page(browser, url: str, mid: str | None, tokens: dict[int, str], width: int = 1100, path: str | None = None):
    """A browser of its own holding ``tokens`` of ``mid`` (none: a spectator): (context, page, CSP messages)."""
    context = browser.new_context_without_tokens(viewport={"width": width, "height": 900})
    if mid is not None:
        give(context, mid, {str(k): v for k, v in tokens.items()})
    context.add_init_script(SPY)
    context.add_init_script(LISTEN)
    page = context.new_page()
    page.set_default_timeout(15000)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: console.append(str(e)))
    page.goto(f"{url}/{path or f'#/match/{mid}'}")
    if path is None:
        page.wait_for_function("() => window.abstractaView && window.abstractaView.viewer !== undefined")
    return context, page, console


def title_is(page, text: str) -> None:
    page.wait_for_function("t => document.title === t", arg=text, timeout=8000)


def play_first_legal(page) -> None:
    """Play a whole turn where the game lists them (the turn passes), else the first legal action."""
    page.wait_for_function("() => window.abstractaView.legal.length > 0")
    turns = page.evaluate("window.abstractaView.turns")
    if turns:
        page.fill("#move-input", turns[0])
        page.press("#move-input", "Enter")
        return
    move = page.evaluate("window.abstractaView.legal[0]")
    page.evaluate("m => document.querySelector(`#legal [data-move=\"${m}\"]`).click()", move)


def chat_lines(page, room: str) -> list[str]:
    return page.evaluate("r => [...document.querySelectorAll(`#chat-${r} li .text`)].map(n => n.textContent)", room)


def say(page, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")
    page.wait_for_function("() => document.getElementById('chat-input').value === ''")


def test_your_move_title_and_a_notification_while_the_tab_is_hidden(browser, live_server, shots):
    mid, tokens = apart(live_server.url)
    first = get_json(f"{live_server.url}/api/matches/{mid}")["to_move"]  # Nibble's layout decides who starts
    contexts = []
    try:
        a_ctx, a, _ = open_page(browser, live_server.url, mid, {first: tokens[first]})
        b_ctx, b, _ = open_page(browser, live_server.url, mid, {1 - first: tokens[1 - first]})
        contexts += [a_ctx, b_ctx]
        title_is(a, "● Your move — Nibble")
        title_is(b, "Nibble — abstracta")
        assert a.evaluate("document.querySelector('link[rel~=icon]').getAttribute('href')").startswith("data:image/svg+xml")
        assert b.evaluate("document.querySelector('link[rel~=icon]').getAttribute('href')") == "data:,"
        # nothing asked before a tap; the tap asks, and the browser says yes
        b.click("#notices > summary")
        assert b.evaluate("window.__asks") == 0 and b.evaluate("Notification.permission") == "default"
        b_ctx.grant_permissions(["notifications"], origin=live_server.url)
        b.click("#notify-me")
        b.wait_for_function("() => window.__asks === 1 && Notification.permission === 'granted'")
        b.wait_for_function("() => document.getElementById('notice-state').textContent.startsWith('The browser tells you')")
        b.evaluate("window.__hide()")
        play_first_legal(a)
        title_is(b, "● Your move — Nibble")
        title_is(a, "Nibble — abstracta")
        b.wait_for_function("() => window.__notes.length === 1")
        note = b.evaluate("window.__notes[0]")
        moved = b.evaluate("window.abstractaView.moves")
        assert note == {"title": "Your move — Nibble", "body": f"The last move: {moved[-1]}"}
        assert b.evaluate("document.querySelector('link[rel~=icon]').getAttribute('href')").startswith("data:image/svg+xml")
        # the turn passing back: the title says it to the other page, which was not hidden and
        # asked for nothing (no notification there)
        play_first_legal(b)
        title_is(b, "Nibble — abstracta")
        title_is(a, "● Your move — Nibble")
        assert a.evaluate("window.__notes.length") == 0 and b.evaluate("window.__notes.length") == 1
        b.screenshot(path=str(shots / "notices-your-move.png"))
    finally:
        for context in contexts:
            context.close()


def test_the_move_sound_is_a_setting_off_unless_chosen(browser, live_server):
    mid, tokens = apart(live_server.url)
    context, page, _ = open_page(browser, live_server.url, mid, {0: tokens[0]})
    try:
        page.click("#notices > summary")
        assert not page.is_checked("#move-sound")
        page.check("#move-sound")
        assert page.evaluate("localStorage.getItem('abstracta.notices.sound')") == "on"
        page.reload()
        page.wait_for_function("() => window.abstractaView")
        page.click("#notices > summary")
        assert page.is_checked("#move-sound")
        # labelled for a screen reader
        assert page.evaluate("document.querySelector('label[for=move-sound]').textContent.trim()") == \
            "Play a sound when it is my move"
    finally:
        context.close()


def test_pass_and_play_has_no_your_move_title(browser, live_server):
    # one device, both seats: it is always somebody's move here (the status line says whose).
    # The browser holds this game's tokens only: the tokens of other games waiting for a move
    # would put their count in front of the title ("(3) Nibble — abstracta"), rightly.
    view = post_json(f"{live_server.url}/api/matches", {"game": "nibble", "seats": ["human", "human"]})
    context, page, _ = open_page(browser, live_server.url, view["id"], {t["seat"]: t["token"] for t in view["tokens"]})
    try:
        assert page.evaluate("window.abstractaView.my_seats") == [0, 1]
        title_is(page, "Nibble — abstracta")
        assert page.is_hidden("#notices") and page.is_hidden("#chat")
    finally:
        context.close()


def test_chat_between_players_and_among_spectators_keeps_markup_as_text(browser, live_server, shots):
    mid, tokens = apart(live_server.url)
    contexts, pages = [], []
    try:
        for held in ({0: tokens[0]}, {1: tokens[1]}, {}, {}):
            context, page, console = open_page(browser, live_server.url, mid, held)
            contexts.append(context)
            pages.append((page, console))
        (a, _), (b, _), (c, _), (d, _) = pages
        for page, _ in pages:
            page.wait_for_selector("#chat:not([hidden])")
        # the players' chat, between the two players
        say(a, MARKUP)
        b.wait_for_function("() => document.querySelectorAll('#chat-players li').length === 1")
        assert chat_lines(b, "players") == [MARKUP]
        say(b, "hi, good luck")
        a.wait_for_function("() => document.querySelectorAll('#chat-players li').length === 2")
        assert chat_lines(a, "players") == [MARKUP, "hi, good luck"]
        # spectators neither see it nor may write in it; they sign in as guests to chat
        assert c.is_hidden("#chat-players") and chat_lines(c, "players") == []
        assert c.is_visible("#chat-signin") and c.is_hidden("#chat-form")
        for spectator in (c, d):
            spectator.click("#chat-guest")
            spectator.wait_for_selector("#chat-form:not([hidden])")
        say(c, "who wins? <script>window.__pwned=3</script>")
        d.wait_for_function("() => document.querySelectorAll('#chat-spectators li').length === 1")
        assert chat_lines(d, "spectators") == ["who wins? <script>window.__pwned=3</script>"]
        assert d.get_attribute("#chat-input", "placeholder") == "Write to the other spectators"
        # a player sees the spectators' chat only when it chooses to
        assert a.is_hidden("#chat-spectators")
        a.click("#chat-spectators-box > summary")
        a.wait_for_function("() => document.querySelectorAll('#chat-spectators li').length === 1")
        assert chat_lines(a, "spectators") == ["who wins? <script>window.__pwned=3</script>"]
        # markup stayed text everywhere: no element made of it, no script run, no policy refused
        for page, console in pages:
            assert page.evaluate("window.__pwned") is None
            assert page.evaluate("document.querySelectorAll('#chat img, #chat script, #chat b').length") == 0
            assert page.evaluate("window.__csp") == [] and console == []
        # new lines are announced politely and take no focus
        assert a.evaluate("document.getElementById('chat-players').getAttribute('role')") == "log"
        a.focus("#move-input") if a.is_visible("#move-input") else a.focus("#chat-input")
        focused = a.evaluate("document.activeElement.id")
        say(b, "your move")
        a.wait_for_function("() => document.querySelectorAll('#chat-players li').length === 3")
        assert a.evaluate("document.activeElement.id") == focused
        # a spectator mutes another; a player reports a line
        d.click("#chat-spectators li button:has-text('Mute')")
        d.wait_for_function("() => document.querySelectorAll('#chat-spectators li').length === 0")
        assert "Muted:" in d.text_content("#chat-muted")
        a.click("#chat-spectators li button:has-text('Report')")
        a.wait_for_selector("#chat-spectators li >> text=Reported: thank you.")
        a.screenshot(path=str(shots / "chat-player-1100.png"))
        context, phone, console = open_page(browser, live_server.url, mid, {1: tokens[1]}, width=390)
        contexts.append(context)
        phone.wait_for_function("() => document.querySelectorAll('#chat-players li').length === 3")
        wide = phone.evaluate("""() => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 12)""")
        assert no_sideways_scroll(phone), wide
        phone.locator("#chat").scroll_into_view_if_needed()
        phone.screenshot(path=str(shots / "chat-player-390.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()


def test_no_chat_against_the_computer(page, live_server):
    view = post_json(f"{live_server.url}/api/matches", {"game": "nibble", "seats": ["human", "level:1"]})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView")
    page.wait_for_timeout(300)  # the room's first frame
    assert page.is_hidden("#chat")


def test_a_third_browser_finds_the_game_in_the_live_list_and_watches_it(browser, live_server, shots):
    mid, tokens = apart(live_server.url, game="fanorona", options={"size": "dimy"}, clock={"per_turn": 86400})
    contexts = []
    try:
        a_ctx, a, _ = open_page(browser, live_server.url, mid, {0: tokens[0]})
        early_ctx, early, _ = open_page(browser, live_server.url, mid, {})  # one spectator already
        contexts += [a_ctx, early_ctx]
        a.wait_for_function("() => document.getElementById('watchers').textContent === '1 watching'")
        c_ctx, c, console = open_page(browser, live_server.url, None, {}, path="#/")
        contexts.append(c_ctx)
        c.click("#live-link")  # from the home page
        card = c.locator(f"#live-games li[data-id='{mid}']")
        card.wait_for()
        # the most watched game first, with its count and a small board drawn by the game's module
        assert c.evaluate("document.querySelector('#live-games li').dataset.id") == mid
        assert card.locator(".live-count").text_content() == "1 watching"
        assert card.locator(".live-board svg").count() >= 1
        assert "Fanorona" in card.text_content() and "White vs Black" in card.text_content()
        c.screenshot(path=str(shots / "live-games-1100.png"))
        card.locator("a").click()
        c.wait_for_function(f"() => window.abstractaView && window.abstractaView.id === {json.dumps(mid)}")
        assert c.evaluate("window.abstractaView.my_seats") == []
        a.wait_for_function("() => document.getElementById('watchers').textContent === '2 watching'")
        c.wait_for_function("() => document.getElementById('watchers').textContent === '2 watching'")
        # the board moves there as the players play
        play_first_legal(a)
        c.wait_for_function("() => window.abstractaView.ply >= 1")
        assert c.evaluate("window.__csp") == [] and console == []
        phone_ctx, phone, _ = open_page(browser, live_server.url, None, {}, width=390, path="#/live")
        contexts.append(phone_ctx)
        phone.locator(f"#live-games li[data-id='{mid}']").wait_for()
        assert no_sideways_scroll(phone)
        phone.screenshot(path=str(shots / "live-games-390.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()


def test_every_games_thumbnail_in_the_live_list_is_its_board_whole(browser, live_server, shots):
    # a card's small board is the board alone: Nibble's collection tables under it were cut off
    # by the card (a strip of half letters) and, the game's words not loaded on that page, read
    # as a raw key ("nibble.board.collection")
    ids = {game: apart(live_server.url, game=game)[0] for game in ("nibble", "fibonacci", "fibonacci-cards", "slide-checkers", "fanorona")}
    for width in (1280, 390):
        context, page, console = open_page(browser, live_server.url, None, {}, width=width, path="#/live")
        try:
            for game, mid in ids.items():
                board = page.locator(f"#live-games li[data-id='{mid}'] .live-board")
                board.locator(":scope > *").first.wait_for()
                cut = board.evaluate("(b) => b.scrollHeight - b.clientHeight")
                assert cut <= 1, (game, width, cut)
                words = page.locator(f"#live-games li[data-id='{mid}']").inner_text()
                assert not re.search(r"\b[a-z_-]+\.board\.[a-z_]+", words), (game, words)
            assert console == [], console
            page.screenshot(path=str(shots / f"live-thumbnails-{width}.png"), full_page=True)
        finally:
            context.close()


def test_the_home_page_and_your_games_count_the_games_waiting(browser, live_server):
    mid, tokens = apart(live_server.url)
    other, more = apart(live_server.url)
    context = browser.new_context_without_tokens(viewport={"width": 1100, "height": 900})
    try:
        # the seat to move of the first game, the other seat of the second
        up = get_json(f"{live_server.url}/api/matches/{mid}")["to_move"]
        down = 1 - get_json(f"{live_server.url}/api/matches/{other}")["to_move"]
        held = {mid: {str(up): tokens[up]}, other: {str(down): more[down]}}
        context.add_init_script(f"localStorage.setItem('abstracta.tokens', {json.dumps(json.dumps(held))})")
        page = context.new_page()
        page.set_default_timeout(15000)
        page.goto(f"{live_server.url}/#/")
        page.wait_for_selector("#waiting-count:not([hidden])")
        assert page.text_content("#waiting-count") == "1 game waits for your move"
        page.click("#waiting-count a")
        page.wait_for_selector("#match-list")
        assert page.text_content("#waiting-count") == "1 game waits for your move"
    finally:
        context.close()


def test_a_correspondence_game_offers_push_and_says_when_the_browser_cannot(browser, live_server):
    """The tap subscribes through the service worker (sw.js); a browser with no push service (this
    headless one: Chromium has none in a private context) says it tells you while the page is open."""
    mid, tokens = apart(live_server.url, clock={"per_turn": 86400})
    context, page, console = open_page(browser, live_server.url, mid, {0: tokens[0]})
    try:
        page.click("#notices > summary")
        assert page.text_content("#notify-me") == "Notify this device when it is my move, even with the page closed"
        context.grant_permissions(["notifications"], origin=live_server.url)
        page.click("#notify-me")
        page.wait_for_function("() => document.getElementById('notice-state').textContent.startsWith('This browser cannot receive')",
                               timeout=15000)
        assert page.evaluate("navigator.serviceWorker.getRegistration().then(r => !!r && r.active !== undefined)")
        assert page.evaluate("window.__csp") == [] and console == []
    finally:
        context.close()


def test_a_site_over_plain_http_says_why_it_cannot_notify(browser, live_server):
    """Chromium reports notifications "denied" on a site that is not a secure context (a club server
    reached by plain HTTP on the local network; the tests' loopback is secure, so it is made to say
    otherwise): the page says HTTPS is what is missing, not the player's browser settings."""
    mid, tokens = apart(live_server.url)
    context, page, console = open_page(browser, live_server.url, mid, {0: tokens[0]})
    try:  # the same page in a secure context offers to notify
        page.click("#notices > summary")
        assert page.is_visible("#notify-me") and "HTTPS" not in page.text_content("#notice-state")
    finally:
        context.close()
    context = browser.new_context_without_tokens(viewport={"width": 1100, "height": 900})
    give(context, mid, {"0": tokens[0]})
    context.add_init_script("Object.defineProperty(window, 'isSecureContext', { get: () => false });")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/#/match/{mid}")
        page.wait_for_function("() => window.abstractaView && window.abstractaView.viewer !== undefined")
        page.click("#notices > summary")
        assert page.text_content("#notice-state") == ("Browsers show notifications only for a site reached over "
                                                      "HTTPS: this tab's title says when it is your move.")
        assert not page.is_visible("#notify-me")
    finally:
        context.close()


def test_a_player_who_joined_by_the_link_chats_under_their_name(browser, live_server):
    """Seats belong to people (issue 41): taking the invited seat makes a guest of the browser,
    and its lines carry that guest's name; the seat is the guest's on its session, so the chat
    takes the session cookie without the seat's token (issue 43's API contract)."""
    view = post_json(f"{live_server.url}/api/matches", {"game": "nibble", "seats": ["human", "human"], "take": [0]})
    mid = view["id"]
    contexts = []
    try:
        a_ctx, a, _ = open_page(browser, live_server.url, mid, {0: view["tokens"][0]["token"]})
        b_ctx = browser.new_context_without_tokens(viewport={"width": 1100, "height": 900})
        contexts += [a_ctx, b_ctx]
        b = b_ctx.new_page()
        b.set_default_timeout(15000)
        b.goto(f"{live_server.url}/#/join/{view['invites'][0]['code']}")
        b.click("#take-seat")
        b.wait_for_function("() => window.abstractaView && window.abstractaView.my_seats.length === 1")
        name = b.evaluate("fetch('/api/me').then(r => r.json()).then(j => j.name)")
        assert name
        # the seat's token forgotten: the session alone holds the seat, and writes in the players' chat
        b.evaluate("localStorage.removeItem('abstracta.tokens')")
        b.reload()
        b.wait_for_function("() => window.abstractaView && window.abstractaView.my_seats.length === 1")
        b.wait_for_selector("#chat-form:not([hidden])")
        assert b.get_attribute("#chat-input", "placeholder") != "Write to the other spectators"
        say(b, "hello from the link")
        a.wait_for_function("() => document.querySelectorAll('#chat-players li').length === 1")
        assert chat_lines(a, "players") == ["hello from the link"]
        assert a.text_content("#chat-players li .who") == name
    finally:
        for context in contexts:
            context.close()
