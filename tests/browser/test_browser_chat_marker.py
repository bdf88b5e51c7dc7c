"""The chat out of sight (a club player's report): on a phone the chat of a game lies under the
board, the move list and the buttons, and nothing said that the opponent wrote. A "Chat" marker
by the heading counts the lines come while the chat is out of sight (not the reader's own), and
takes the reader to the box to write in; the chat has a way back up to the board. The board
stays whole in sight, the marker over none of it nor the floating steps. Screenshots:
``chat-marker-390.png``, ``chat-marker-390-chat.png``, ``chat-marker-390-steps.png``,
``chat-marker-1280.png``."""

from __future__ import annotations

from httputil import get_json
from test_browser_notices import apart, open_page, play_first_legal, say

#: the marker as a reader sees it: [shown, badge text, accessible name]
MARKER = """() => { const m = document.getElementById('chat-jump'); const b = document.getElementById('chat-unread');
  const shown = !m.hidden && getComputedStyle(m).visibility === 'visible';
  return [shown, b.hidden ? '' : b.textContent, m.getAttribute('aria-label')]; }"""

#: the chat's input whole in sight (above the floating steps, if any)
INPUT_IN_SIGHT = """() => { const r = document.getElementById('chat-input').getBoundingClientRect();
  const s = document.querySelector('.stepper'); const fixed = !s.hidden && getComputedStyle(s).position === 'fixed';
  const foot = fixed ? s.getBoundingClientRect().top : window.innerHeight;
  return r.top >= 0 && r.bottom <= foot; }"""

#: boxes that overlap the marker (its count too): the board, the steps, the heading, the players' names
OVERLAPS = """() => { const box = (s) => { const e = document.querySelector(s); return e && !e.hidden ? e.getBoundingClientRect() : null; };
  const over = (a, b) => !!a && !!b && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const m = box('#chat-jump'), c = box('#chat-unread');
  return ['#board svg.board', '.stepper', '.matchhead h1', '.matchhead .players'].map((s) => over(m, box(s)) || over(c, box(s))); }"""


def lines_are(page, n: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('#chat-players li').length === n", arg=n)


def test_a_phone_counts_the_lines_come_while_the_chat_is_out_of_sight(browser, live_server, shots):
    mid, tokens = apart(live_server.url)
    first = get_json(f"{live_server.url}/api/matches/{mid}")["to_move"]
    contexts = []
    try:
        a_ctx, anna, _ = open_page(browser, live_server.url, mid, {0: tokens[0]}, width=390)
        b_ctx, ben, _ = open_page(browser, live_server.url, mid, {1: tokens[1]}, width=390)
        contexts += [a_ctx, b_ctx]
        for page in (anna, ben):
            page.wait_for_selector("#chat:not([hidden])")
        play_first_legal(anna if first == 0 else ben)
        anna.wait_for_function("() => window.abstractaView.ply > 0 && window.abstractaView.to_move !== undefined")
        # at the top of the page the chat lies far below: the marker says "Chat", nothing unread
        anna.wait_for_function(f"() => ({MARKER})()[0]")
        assert anna.evaluate(MARKER) == [True, "", "Go to the chat"]
        assert anna.evaluate("document.getElementById('chat').getBoundingClientRect().top") > 844
        board_at = anna.evaluate("JSON.stringify(document.querySelector('#board svg.board').getBoundingClientRect())")

        say(ben, "hi, good luck")
        lines_are(anna, 1)
        anna.wait_for_function(f"() => ({MARKER})()[1] === '1'")
        assert anna.evaluate(MARKER) == [True, "1", "Go to the chat: 1 new message"]
        # said once, politely: a second line changes the count, not what was said
        assert anna.text_content("#chat-unread-note") == "1 new message in the chat"
        assert anna.get_attribute("#chat-unread-note", "role") == "status"
        say(ben, "take your time")
        lines_are(anna, 2)
        anna.wait_for_function(f"() => ({MARKER})()[1] === '2'")
        assert anna.evaluate(MARKER) == [True, "2", "Go to the chat: 2 new messages"]
        assert anna.text_content("#chat-unread-note") == "1 new message in the chat"
        # the marker over nothing, the board where it was (the marker took no room)
        assert anna.evaluate(OVERLAPS) == [False] * 4
        assert anna.evaluate("JSON.stringify(document.querySelector('#board svg.board').getBoundingClientRect())") == board_at
        anna.screenshot(path=str(shots / "chat-marker-390.png"))

        # a tap: the box to write in, in sight and focused; the lines above it; the marker gone
        anna.click("#chat-jump")
        assert anna.evaluate("document.activeElement.id") == "chat-input"
        assert anna.evaluate(INPUT_IN_SIGHT)
        anna.wait_for_function(f"() => !({MARKER})()[0]")
        assert anna.evaluate(MARKER) == [False, "", "Go to the chat"]
        assert anna.text_content("#chat-unread-note") == ""
        assert anna.is_visible("#chat-players li:has-text('take your time')")
        # a line come while the chat is in sight is read
        say(ben, "nice move")
        lines_are(anna, 3)
        assert anna.evaluate(MARKER)[:2] == [False, ""]
        anna.screenshot(path=str(shots / "chat-marker-390-chat.png"))

        # the way back: the board whole in sight again, the marker back without a count
        anna.click("#chat-to-board")
        assert anna.evaluate("window.scrollY") == 0
        assert anna.evaluate("document.activeElement.id") == "board"
        anna.wait_for_function(f"() => ({MARKER})()[0]")
        assert anna.evaluate(MARKER) == [True, "", "Go to the chat"]
        # her own line (written in another tab of hers) counts for nothing; ben, at the top of
        # his page, counts it
        ben.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
        ben.wait_for_function(f"() => ({MARKER})()[0]")
        assert ben.evaluate(MARKER)[:2] == [True, ""]
        other = a_ctx.new_page()
        other.goto(f"{live_server.url}/#/match/{mid}")
        other.wait_for_selector("#chat-form:not([hidden])")
        say(other, "thanks, you too")
        lines_are(anna, 4)
        lines_are(ben, 4)
        ben.wait_for_function(f"() => ({MARKER})()[1] === '1'")
        assert anna.evaluate(MARKER) == [True, "", "Go to the chat"]
        other.close()

        # studying the game: the steps float at the foot, the marker by the heading over neither
        anna.click("#step-back")
        anna.wait_for_function("() => getComputedStyle(document.querySelector('.stepper')).position === 'fixed'")
        anna.evaluate("window.scrollTo(0, 0)")  # the click scrolled to the steps, under the board then
        anna.wait_for_function(f"() => ({MARKER})()[0]")
        assert anna.evaluate(OVERLAPS) == [False] * 4
        anna.screenshot(path=str(shots / "chat-marker-390-steps.png"))
        # the jump puts the input above the floating steps
        anna.click("#chat-jump")
        assert anna.evaluate("document.activeElement.id") == "chat-input" and anna.evaluate(INPUT_IN_SIGHT)
        # in Finnish, its longer word: room kept for it beside the names, a line come counted
        anna.click("#lang button[data-lang='fi']")
        anna.wait_for_function("() => document.getElementById('chat-title')?.textContent === 'Keskustelu'")
        anna.evaluate("window.scrollTo(0, 0)")
        anna.wait_for_function(f"() => ({MARKER})()[0]")
        say(ben, "hyvä siirto")
        lines_are(anna, 5)
        anna.wait_for_function(f"() => ({MARKER})()[1] === '1'")
        assert anna.evaluate(MARKER) == [True, "1", "Siirry keskusteluun: 1 uusi viesti"]
        assert anna.text_content("#chat-jump") == "Keskustelu1"
        assert anna.evaluate(OVERLAPS) == [False] * 4
        anna.screenshot(path=str(shots / "chat-marker-390-fi.png"))
    finally:
        for context in contexts:
            context.close()


def test_a_wide_screen_shows_no_marker_while_the_chat_is_in_sight(browser, live_server, shots):
    mid, tokens = apart(live_server.url)
    contexts = []
    try:
        a_ctx, anna, _ = open_page(browser, live_server.url, mid, {0: tokens[0]}, width=1280)
        b_ctx, ben, _ = open_page(browser, live_server.url, mid, {1: tokens[1]}, width=390)
        contexts += [a_ctx, b_ctx]
        anna.wait_for_selector("#chat:not([hidden])")
        say(ben, "hello")
        lines_are(anna, 1)
        # beside the board, in sight: nothing changes, the line simply read
        assert anna.evaluate(MARKER)[:2] == [False, ""]
        assert anna.is_hidden("#chat-to-board")
        anna.screenshot(path=str(shots / "chat-marker-1280.png"))
    finally:
        for context in contexts:
            context.close()


def test_each_reader_counts_the_chat_it_can_read(browser, live_server, shots):
    # the spectators' chat counts for a spectator, and for a player only once opened; the
    # players' chat never reaches a spectator
    mid, tokens = apart(live_server.url)
    contexts = []
    try:
        a_ctx, anna, _ = open_page(browser, live_server.url, mid, {0: tokens[0]}, width=390)
        c_ctx, carl, _ = open_page(browser, live_server.url, mid, {}, width=390)
        d_ctx, dana, _ = open_page(browser, live_server.url, mid, {}, width=1100)
        contexts += [a_ctx, c_ctx, d_ctx]
        for page in (anna, carl, dana):
            page.wait_for_selector("#chat:not([hidden])")
        dana.click("#chat-guest")
        dana.wait_for_selector("#chat-form:not([hidden])")
        for page in (anna, carl):
            page.wait_for_function(f"() => ({MARKER})()[0]")
        say(dana, "who wins?")
        carl.wait_for_function(f"() => ({MARKER})()[1] === '1'")
        assert carl.text_content("#chat-unread-note") == "1 new message in the chat"
        # the player has not opened the spectators' chat: nothing to read there yet
        anna.wait_for_function("() => document.querySelectorAll('#chat-spectators li').length === 1")
        assert anna.evaluate(MARKER)[:2] == [True, ""]
        # the players' chat: the spectator never has it, so nothing to count
        say(anna, "good luck")
        anna.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
        dana.wait_for_function("() => document.querySelector('#chat-players li') === null")
        assert carl.evaluate(MARKER)[:2] == [True, "1"]
        # opened, the spectators' chat counts for the player too
        anna.click("#chat-spectators-box > summary")
        anna.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
        anna.wait_for_function(f"() => ({MARKER})()[0]")
        say(dana, "a fine game")
        anna.wait_for_function(f"() => ({MARKER})()[1] === '1'")
        carl.wait_for_function(f"() => ({MARKER})()[1] === '2'")
        # a spectator not signed in is taken to the way to sign in, to write
        carl.click("#chat-jump")
        assert carl.evaluate("document.activeElement.id") == "chat-guest"
        carl.wait_for_function(f"() => !({MARKER})()[0]")
        assert carl.evaluate(MARKER)[1] == ""
        carl.screenshot(path=str(shots / "chat-marker-390-spectator.png"))
    finally:
        for context in contexts:
            context.close()
