"""The end of a game between two people, where the eye is (a tester's evening on two phones): the
rematch, its offer's Accept and Decline and a new game stand under the result, above the board,
in the first screen of a phone as of a desktop — the offer sat some 1,100 px down a phone's page,
under the board, the scores, Analysis and Moves, and the person offered it saw the result alone.
The buttons of a game in play (take back, resign, draw) go once it is over. On a phone the
header's "Your move" badge no longer pushes the EN/FI switch onto a line of its own."""

from __future__ import annotations

import json
import urllib.request

import pytest
from httputil import TOKENS, first_moves, give, no_sideways_scroll, post_json

#: where a control is against the screen: its box, and the foot of what is seen of the page (a
#: phone's replay steps float over its bottom edge)
PLACE = """(sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  const s = document.querySelector('.stepper');
  const fixed = !s.hidden && getComputedStyle(s).position === 'fixed';
  const board = document.querySelector('#board').getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, right: r.right, foot: fixed ? s.getBoundingClientRect().top : innerHeight,
          boardTop: board.top, scrollY, live: !!document.querySelector(sel).closest('[aria-live]')};
}"""


def as_seat(url: str, mid: str, seat: int, what: str, body) -> None:
    """POST /api/matches/{mid}/{what} as the one seat ``seat`` (the other player's browser)."""
    req = urllib.request.Request(f"{url}/api/matches/{mid}/{what}", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKENS[mid][seat]}"})
    urllib.request.urlopen(req).close()


def seat_screen(browser, url: str, mid: str, seat: int, width: int, height: int):
    """The browser of the person at ``seat`` (that seat's token alone), a phone below 500 px, its
    match page open: (context, page)."""
    phone = width < 500
    context = browser.new_context_without_tokens(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
    give(context, mid, {str(seat): TOKENS[mid][seat]})
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{url}/#/match/{mid}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.viewer !== undefined")
    return context, page


def in_first_screen(page, sel: str) -> dict:
    """Assert that ``sel`` is seen whole without scrolling, above the board; its place."""
    place = page.evaluate(PLACE, sel)
    assert place["scrollY"] == 0, place
    assert 0 <= place["top"] and place["bottom"] <= place["foot"], (sel, place)
    assert place["bottom"] <= place["boardTop"], (sel, place)  # by the result, not under the board
    return place


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 900)])
def test_a_rematch_offer_arrives_where_the_result_is(browser, live_server, shots, width, height):
    url = live_server.url
    view = post_json(f"{url}/api/matches", {"game": "nibble", "seats": ["human", "human"]})
    mid = view["id"]
    first_moves(url, mid)
    (ca, maija), (cb, pekka) = (seat_screen(browser, url, mid, seat, width, height) for seat in (0, 1))
    try:
        maija.on("dialog", lambda dialog: dialog.accept())
        maija.click("#resign")
        for page in (maija, pekka):
            page.wait_for_function("() => window.abstractaView.status === 'over'")
            page.locator("#rematch-offer").wait_for()
            # both see the way on at once: Rematch and New game by the result
            in_first_screen(page, "#rematch-offer")
            in_first_screen(page, "#ending #new-game-link")
        maija.click("#rematch-offer")
        # the offer comes to Pekka's page as it is (no reload), where he looks, and is said:
        # its words and buttons are in a live region
        pekka.locator("#rematch-accept").wait_for()
        assert pekka.locator("#rematch-text").inner_text() == "Player 1 offers a rematch."
        accept = in_first_screen(pekka, "#rematch-accept")
        decline = in_first_screen(pekka, "#rematch-decline")
        assert accept["live"] and decline["right"] <= width
        assert pekka.locator("#rematch").get_attribute("aria-live") == "polite"
        in_first_screen(maija, "#rematch-withdraw")
        pekka.screenshot(path=str(shots / f"match-end-offered-{width}.png"))
        pekka.click("#rematch-accept")
        new = pekka.wait_for_function("(mid) => window.abstractaView.id !== mid && window.abstractaView.id", arg=mid).json_value()
        maija.wait_for_function("(id) => window.abstractaView.id === id", arg=new)
    finally:
        ca.close()
        cb.close()


#: the rematch box and the note of an offer against the screen
NOTICE = """() => { const place = (s) => { const n = document.querySelector(s); if (!n || n.closest('[hidden]')) return null;
    const r = n.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  return {box: place('#rematch'), notice: place('#rematch-notice'), height: innerHeight, width: innerWidth,
          text: (document.querySelector('#rematch-notice-text') || {}).textContent}; }"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (320, 568), (1280, 500)])
def test_a_rematch_offer_is_noted_to_a_player_reading_the_chat(browser, live_server, shots, width, height):
    # a tester on a phone, reading the chat under the board: the offer came to the box under the
    # result, out of sight, and went unseen
    url = live_server.url
    # two people at a distance (an invitation claimed): a match with a chat
    view = post_json(f"{url}/api/matches", {"game": "fanorona", "seats": ["human", "human"], "take": [0]})
    mid = view["id"]
    joined = post_json(f"{url}/api/invites/claim", {"code": view["invites"][0]["code"]})
    TOKENS[mid] = {0: view["tokens"][0]["token"], 1: joined["tokens"][0]["token"]}
    first_moves(url, mid)
    (ca, maija), (cb, pekka) = (seat_screen(browser, url, mid, seat, width, height) for seat in (0, 1))
    try:
        pekka.wait_for_selector("#chat:not([hidden])")
        as_seat(url, mid, 0, "resign", {"seat": 0})
        for page in (maija, pekka):
            page.locator("#rematch-offer").wait_for()
        # an offer to a player looking at the box: the box says it, no note over the page
        maija.click("#rematch-offer")
        pekka.locator("#rematch-accept").wait_for()
        pekka.wait_for_timeout(300)
        assert pekka.evaluate(NOTICE)["notice"] is None
        # down in the chat the same waiting offer is noted at the top of the screen, with its buttons
        pekka.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        pekka.wait_for_timeout(300)
        assert pekka.evaluate(NOTICE)["box"]["bottom"] <= 0, pekka.evaluate(NOTICE)  # the box out of sight, above
        pekka.locator("#rematch-notice").wait_for()
        seen = pekka.evaluate(NOTICE)
        assert 0 <= seen["notice"]["top"] and seen["notice"]["bottom"] <= seen["height"] / 2, seen
        # (at 320 px Fanorona's board keeps a floor the page is scrolled sideways to: the screen's width)
        assert 0 <= seen["notice"]["left"] and seen["notice"]["right"] <= seen["width"], seen
        assert seen["text"] == "White offers a rematch."
        for button in ("#rematch-notice-accept", "#rematch-notice-decline", "#rematch-notice-hide"):
            place = pekka.locator(button).bounding_box()
            assert place["height"] >= 40 and place["y"] >= 0, (button, place)
        # said to a screen reader once, by the box's live region (a second would say it twice)
        assert pekka.locator("#rematch").get_attribute("aria-live") == "polite"
        assert pekka.locator("#rematch-text").inner_text() == "White offers a rematch."
        assert pekka.locator("#rematch-notice [aria-live], #rematch-notice[aria-live]").count() == 0
        assert pekka.get_attribute("#rematch-notice", "aria-labelledby") == "rematch-notice-text"
        pekka.screenshot(path=str(shots / f"rematch-notice-{width}.png"))
        # hidden, it stays hidden for that offer; the box still has it
        pekka.focus("#rematch-notice-hide")
        pekka.keyboard.press("Enter")
        assert pekka.locator("#rematch-notice").is_hidden() and pekka.locator("#rematch-accept").count() == 1
        # the key goes on in the box, the screen stays on the chat
        assert pekka.evaluate("document.activeElement.id") == "rematch-accept"
        assert pekka.evaluate(NOTICE)["box"]["bottom"] <= 0
        # withdrawn and offered again: noted again, and accepted from the note
        maija.click("#rematch-withdraw")
        maija.locator("#rematch-offer").wait_for()
        pekka.locator("#rematch-offer").wait_for()
        maija.click("#rematch-offer")
        pekka.locator("#rematch-notice").wait_for()
        pekka.click("#rematch-notice-accept")
        new = pekka.wait_for_function("(mid) => window.abstractaView.id !== mid && window.abstractaView.id", arg=mid).json_value()
        maija.wait_for_function("(id) => window.abstractaView.id === id", arg=new)
        assert pekka.locator("#rematch-notice").is_hidden()
    finally:
        ca.close()
        cb.close()


def test_the_buttons_of_a_game_in_play_go_when_it_is_over(browser, live_server, shots):
    # between people at a distance: Ask to take back, Resign and Offer draw while it is played
    # (a game that may be drawn: Nibble's rules always decide a winner)
    url = live_server.url
    view = post_json(f"{url}/api/matches", {"game": "fanorona", "seats": ["human", "human"]})
    mid = view["id"]
    first_moves(url, mid)
    (ca, maija), (cb, pekka) = (seat_screen(browser, url, mid, seat, 390, 844) for seat in (0, 1))
    try:
        for page in (maija, pekka):
            page.wait_for_selector("#resign:not([disabled])")
            assert page.locator("#undo").inner_text() == "Ask to take back"
            assert page.locator("#ending").is_hidden()
        maija.wait_for_selector("#offer-draw:not([disabled])")  # hers to move: hers to offer
        as_seat(url, mid, 0, "resign", {"seat": 0})
        for page in (maija, pekka):
            page.wait_for_function("() => window.abstractaView.status === 'over'")
            page.locator("#ending").wait_for()
            assert page.locator("#undo, #resign, #offer-draw").count() == 0
            # what remains: the end's actions by the result, and the record, rules and link below
            assert page.locator("#ending #rematch-offer").is_visible() and page.locator("#ending #new-game-link").is_visible()
            assert page.locator("#new-game-link").count() == 1  # not twice
            assert page.locator(".actions #download, .actions #share").count() == 2
        pekka.screenshot(path=str(shots / "match-end-buttons-390.png"), full_page=True)
    finally:
        ca.close()
        cb.close()


HEADER = """() => { const box = (s) => { const r = document.querySelector(s).getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; };
  return { header: box('header.top'), brand: box('header.top .brand'), me: box('#me'), badge: box('#turn-badge'),
           lang: box('#lang'), badgeText: document.querySelector('#turn-badge').textContent }; }"""


def middle(edges) -> float:
    return (edges[0] + edges[1]) / 2


@pytest.mark.parametrize("width", [390, 360, 320])
@pytest.mark.parametrize("locale", ["en-US", "fi-FI"])
def test_a_phones_header_keeps_its_lines_with_the_your_move_badge(browser, live_server, shots, width, locale):
    # a guest (a name in the header) with a game waiting for their move: the badge pushed the
    # EN/FI switch onto a line of its own, a header of three lines (139 px) at 390 px
    other = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "seats": ["human", "level:1"]})
    assert other["to_move"] == 0 and other["human_to_move"], other
    context = browser.new_context_without_tokens(viewport={"width": width, "height": 844}, is_mobile=True, has_touch=True, locale=locale)
    give(context, other["id"], {"0": TOKENS[other["id"]][0]})
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/lobby")
        page.click("#lobby-guest")
        page.wait_for_selector("#me-button")
        page.goto(f"{live_server.url}/#/")
        page.wait_for_selector("#turn-badge:not([hidden])")
        shape = page.evaluate(HEADER)
        page.screenshot(path=str(shots / f"header-badge-{width}-{locale}.png"), clip={"x": 0, "y": 0, "width": width, "height": 200})
        # the brand, the badge and the switch on one line, nothing off the right edge; the name
        # too at 390 px, on a line of its own under them at 360 and less (test_a_long_name_…)
        for part in ("me", "badge", "lang") if width > 380 else ("badge", "lang"):
            assert abs(middle(shape[part]) - middle(shape["brand"])) < 3, (part, shape)
        assert shape["lang"][3] <= width and shape["badge"][3] <= shape["lang"][2] and no_sideways_scroll(page)
        assert shape["me"][3] - shape["me"][2] >= 40, shape  # the name's menu is still a finger's target
        # the links take the second line (at 320 px English's five take two, as without the
        # badge): a line of 40 px targets, a line of links (~30 px), the header's padding and gap
        # are under 100 px; a third line made 139 (the name's own line: 45 px more)
        links = 2 if (width, locale) == (320, "en-US") else 1
        assert shape["header"][1] < 100 + (links - 1) * 30 + (45 if width <= 380 else 0), shape
        # the badge says the count, and in words while there is room; in full to a screen reader
        words = {"en-US": "Move 1", "fi-FI": "Vuoro 1"}[locale] if width > 360 else "1"
        assert shape["badgeText"] == words
        label = {"en-US": "1 game waits for your move", "fi-FI": "1 peli odottaa siirtoasi"}[locale]
        assert page.locator("#turn-badge").get_attribute("aria-label") == label
    finally:
        context.close()


NAME = """() => { const box = (s) => { const r = document.querySelector(s).getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; };
  const name = document.querySelector('#me-button');
  return { header: box('header.top'), brand: box('header.top .brand'), me: box('#me-button'), lang: box('#lang'), nav: box('header.top nav'),
           whole: name.scrollWidth <= name.clientWidth, text: name.textContent }; }"""


@pytest.mark.parametrize("width", [320, 360, 390, 1280])
def test_a_long_name_is_read_whole_in_the_header(browser, live_server, shots, width):
    # a tester at 320 px read "Gu…" of a guest's name: the first line of a phone's header (the
    # brand, the badge, the EN/FI switch) left it some 60 px. Under 390 px it takes a line of its
    # own; at 390 px the header keeps its two lines
    other = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "seats": ["human", "level:1"]})
    phone = width < 500
    context = browser.new_context_without_tokens(viewport={"width": width, "height": 700}, is_mobile=phone, has_touch=phone)
    give(context, other["id"], {"0": TOKENS[other["id"]][0]})
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        page.goto(f"{live_server.url}/#/account")
        page.click("#play-as-guest")
        page.wait_for_selector("#rename")
        guest = page.text_content("#me-button").replace("▾", "").strip()
        shape = page.evaluate(NAME)
        if width <= 380:
            assert shape["whole"], shape  # the generated name, whole
        name = f"Maija-Liisa_{width}_{guest[-4:]}"[:20]
        page.fill("#rename-name", name)
        page.click("#rename-submit")
        page.wait_for_function("(n) => document.querySelector('#me-button').textContent.startsWith(n)", arg=name)
        page.goto(f"{live_server.url}/#/")
        page.wait_for_selector("#turn-badge:not([hidden])")
        shape = page.evaluate(NAME)
        page.screenshot(path=str(shots / f"header-name-{width}.png"), clip={"x": 0, "y": 0, "width": width, "height": 200})
        assert no_sideways_scroll(page), shape
        assert shape["me"][3] <= width and shape["lang"][3] <= width, shape
        if width <= 380:
            # its own line, between the brand's and the links', the twenty characters whole
            assert shape["whole"], shape
            assert shape["me"][0] >= shape["brand"][1] and shape["me"][1] <= shape["nav"][0], shape
            assert shape["me"][2] < 20, shape  # at the left, under the brand
        elif width == 390:
            # two lines: the name on the brand's, cut short if it must (the badge and the switch
            # beside it), the links under them
            assert abs(middle(shape["me"]) - middle(shape["brand"])) < 3, shape
            assert shape["header"][1] < 100, shape
        else:
            assert shape["whole"] and shape["header"][1] < 60, shape
    finally:
        context.close()
