"""The Fibonacci card game's board module draws the structured view: Chromium plays a cut-down,
a forced draw with the drawn card played, and a sum, all by clicking cards, piles and the
stock, with the hand-over screen between two people on one device; the opponents' last turn
is marked; and the table fits a 390 px phone. Against the computer: its whole turn (a draw and
the card it played, on its pile) is marked and told in ``#board-text``; cards fly (not with
reduced motion); a game is played with the keyboard only; the end shows both hands and no turn;
tap targets are at least 40 px at 360 px. Screenshots go into the ``shots`` folder
(``fibonacci_cards-1280.png``, ``fibonacci_cards-390.png``, ``-360``, ``-end``)."""

from __future__ import annotations

import json
import urllib.request

from httputil import TOKENS, get_json, post_json

from abstracta import load_game

# piles 2c 5d Jh (T = 2, 5, 11; fibonacci-cards.md §7 example 1); seat 1 can play nothing after
# 5s/2 and draws the 3h, which fits (2 + 1) and must be played (§4)
START = "2c 5d Jh | 7h,Kd,5s,Qd,3c | 4c,6d,Jc | 3h,9h | 0"
MOVES = ["5s/2", "draw", "3h>1", "Qd>3"]

WAIT_HUMAN = """() => { const v = window.abstractaView; if (!v) return false;
  const ho = document.getElementById('handover'); if (ho && !ho.hidden) return true;
  return v.status === 'over' || (v.human_to_move && !v.thinking); }"""


def test_the_moves_are_legal_in_the_engine():
    state = load_game("fibonacci-cards").state_from_text(START)
    expected = [["5s/2", "7h>1", "7h>2", "Kd>1", "Kd>3"], ["draw"], ["3h>1", "3h>2"], ["Qd>2", "Qd>3"]]
    for move, legal in zip(MOVES, expected):
        assert state.legal_action_strings() == legal
        state.apply_action(state.string_to_action(move))


def import_match(server, moves=()) -> str:
    record = {"format": "abstracta-record", "version": 1, "game": "fibonacci-cards", "options": {},
              "seed": None, "start": START, "players": [], "moves": list(moves)}
    return post_json(f"{server.url}/api/matches/import", {"record": record, "seats": ["human", "human"]})["id"]


def ready(page, ply: int) -> dict:
    """Wait for ply ``ply`` and a person to move; pass the hand-over screen."""
    page.wait_for_function(f"() => window.abstractaView && window.abstractaView.ply === {ply}")
    page.wait_for_function(WAIT_HUMAN)
    if page.locator("#handover-ok").is_visible():
        assert page.locator(".hand .pcard").count() == 0  # nothing of a hand behind the hand-over screen
        page.click("#handover-ok")
    page.wait_for_selector("#board .cardtable")
    return page.evaluate("window.abstractaView")


def test_play_cut_draw_and_sum_by_clicking(page, live_server, shots):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    mid = import_match(live_server)
    page.goto(f"{live_server.url}/#/match/{mid}")

    # seat 0: pick the 5s, then the pile it cuts down
    view = ready(page, 0)
    assert view["viewer"] == 0
    hand = page.locator("[data-hand='hand0'] .pcard")
    assert hand.evaluate_all("cs => cs.map(c => c.dataset.card)") == ["7h", "Kd", "5s", "Qd", "3c"]
    assert page.locator("[data-hand='hand1'] .pcard.back").count() == 3
    assert page.locator(".hand .pcard.playable").evaluate_all("cs => cs.map(c => c.dataset.card)") == ["7h", "Kd", "5s"]
    assert page.locator(".pile.target").count() == 0
    page.click(".hand [data-card='5s']")
    assert page.locator(".hand [data-card='5s']").get_attribute("class").split().count("picked") == 1
    assert page.locator(".pile.target").evaluate_all("ps => ps.map(p => p.dataset.pile)") == ["2"]
    assert page.locator("[data-pile='2'] .pilehint").inner_text() == "cut down to 1"
    page.click("[data-pile='2']")

    # seat 1: nothing fits; the stock is the only choice, and the drawn 3h must be played
    view = ready(page, 1)
    assert view["viewer"] == 1 and view["struct"]["choices"]["draw"] == {"action": "draw"}
    assert page.locator("[data-pile='2'] .pcard.cut[data-card='5s']").count() == 1
    assert "value 1" in page.locator("[data-pile='2'] .pileinfo").inner_text()
    assert page.locator("[data-pile='2'].recent").count() == 1  # seat 0's cut is marked
    assert page.locator(".hand .pcard.playable").count() == 0 and page.locator("#draw").is_visible()
    page.click("[data-pile='stock']")  # clicking the stock draws
    page.wait_for_function("() => window.abstractaView.ply === 2")
    page.wait_for_selector(".hand [data-card='3h'].drawn.picked")  # the only card allowed: already picked
    page.screenshot(path=str(shots / "cards-board-drawn.png"), full_page=True)
    assert page.locator(".pile.target").evaluate_all("ps => ps.map(p => p.dataset.pile)") == ["1", "2"]
    page.click("[data-pile='1']")

    # seat 0 sees what seat 1 did (a draw and the 3h) and plays the Qd as a sum
    view = ready(page, 3)
    assert view["viewer"] == 0
    assert [t["actions"] for t in view["struct"]["recent"]] == [["draw", "3h>1"]]
    assert page.locator("[data-pile='1'].recent .pcard.fresh[data-card='3h']").count() == 1
    assert page.locator("[data-pile='stock'].recent").count() == 1
    assert page.locator("#recent-turns").inner_text().endswith("drew a card, played 3h on pile 1 (2 + 1 = 3)")
    page.click(".hand [data-card='Qd']")
    assert page.locator(".pile.target").evaluate_all("ps => ps.map(p => p.dataset.pile)") == ["2", "3"]
    page.screenshot(path=str(shots / "cards-board-desktop.png"), full_page=True)
    page.click("[data-pile='3']")
    view = ready(page, 4)
    assert get_json(f"{live_server.url}/api/matches/{mid}")["moves"] == MOVES
    assert page.locator("[data-pile='3'] .pcard").last.get_attribute("data-card") == "Qd"

    # replaying: the board draws the struct of the earlier ply, and nothing can be picked
    page.click("#step-back")
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Replay')")
    assert page.locator("[data-pile='3'] .pcard").last.get_attribute("data-card") == "Jh"
    assert page.locator(".pcard.playable, .pile.target").count() == 0
    assert not errors, errors


def test_the_table_fits_a_phone(browser, live_server, shots):
    mid = import_match(live_server, MOVES[:3])  # seat 0 to move after a cut, a draw and a play
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{mid}")
        ready(page, 3)
        page.click(".hand [data-card='Qd']")
        assert page.locator(".pile.target").count() == 2
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        for pile in ("1", "2", "3", "stock"):  # all four piles side by side, inside the screen
            box = page.locator(f"[data-pile='{pile}']").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (pile, box)
        boxes = [page.locator(f"[data-pile='{p}']").bounding_box() for p in ("1", "2", "3", "stock")]
        assert len({round(b["width"]) for b in boxes}) == 1 and len({round(b["y"]) for b in boxes}) == 1, boxes  # one even row
        page.screenshot(path=str(shots / "cards-board-phone.png"), full_page=True)
        page.click("[data-pile='2']")
        page.wait_for_function("() => window.abstractaView.ply === 4")
    finally:
        context.close()


# --- against the computer: whole-turn highlights, flights, keyboard, text, phone, the end ------
# seat 0 (the person) cuts pile 2 with the 5s; the computer (seat 1) has nothing that fits, draws
# the 3h, which fits (2 + 1 or 1 + 2 = 3), and must play it: a two-step turn to show
VS_COMPUTER = ["human", "level:1"]

# a MutationObserver notes every flying card (a ghost in .flyers) the board adds
WATCH_FLIGHTS = """() => { window.__flights = [];
  new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes) {
    if (n.nodeType !== 1) continue;
    for (const g of [n, ...n.querySelectorAll('*')]) if (g.matches && g.matches('.flyers .pcard'))
      window.__flights.push(g.classList.contains('back') ? 'back' : g.textContent); } })
  .observe(document.getElementById('board'), { subtree: true, childList: true }); }"""


def open_vs_computer(page, live_server, start=START, moves=()) -> str:
    record = {"format": "abstracta-record", "version": 1, "game": "fibonacci-cards", "options": {},
              "seed": None, "start": start, "players": [], "moves": list(moves)}
    mid = post_json(f"{live_server.url}/api/matches/import", {"record": record, "seats": VS_COMPUTER})["id"]
    page.goto(f"{live_server.url}/#/match/{mid}")
    page.wait_for_selector("#board .cardtable")
    page.wait_for_function(WAIT_HUMAN)
    return mid


def after_computer(page, ply: int) -> dict:
    page.wait_for_function(f"() => window.abstractaView.ply === {ply} && window.abstractaView.human_to_move"
                           " && !window.abstractaView.thinking")
    page.wait_for_selector("#board .cardtable")
    return page.evaluate("window.abstractaView")


def test_the_computers_whole_turn_is_marked_and_told(page, live_server):
    open_vs_computer(page, live_server)
    page.click(".hand [data-card='5s']")
    page.click("[data-pile='2']")
    view = after_computer(page, 3)
    (turn,) = view["struct"]["recent"]
    assert turn["seat"] == 1 and turn["actions"][0] == "draw" and turn["actions"][1].startswith("3h>")
    pile = turn["actions"][1][-1]
    # the card played and its pile, the stock drawn from and the hand it went to
    assert page.locator(f"[data-pile='{pile}'].recent .pcard.fresh[data-card='3h']").count() == 1
    assert page.locator(f"[data-pile='{pile}'] .badge").inner_text() == "new"
    assert page.locator("[data-pile='stock'].recent").count() == 1
    assert page.locator("[data-hand='hand1'].recent").count() == 1
    assert page.locator(".pile.recent").count() == 2  # that pile and the stock, nothing else
    # the turn in words, in the live region tied to the board
    text = page.locator("#board-text").text_content()
    assert text.startswith("Your turn.")
    assert f"Last turn: Computer (level 1): drew a card, played 3h on pile {pile} (" in text
    assert "Piles: 1: " in text and "Your hand: 7h, Kd, Qd, 3c." in text and "Computer (level 1) holds 3 cards." in text
    assert page.locator("#board").get_attribute("aria-describedby") == "board-text"
    assert "Arrow keys" in page.locator("#board").get_attribute("aria-label")


def test_cards_fly_and_not_with_reduced_motion(browser, live_server):
    for reduce in (False, True):
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        try:
            page = context.new_page()
            page.emulate_media(reduced_motion="reduce" if reduce else "no-preference")
            open_vs_computer(page, live_server)
            page.evaluate(WATCH_FLIGHTS)
            page.click(".hand [data-card='5s']")
            page.click("[data-pile='2']")
            after_computer(page, 3)
            page.wait_for_timeout(100)
            flights = page.evaluate("window.__flights")
            if reduce:
                assert flights == [] and page.evaluate("document.getAnimations().length") == 0
                assert page.locator("#board").get_attribute("data-flights") is None
            else:
                # the person's 5s flies from the hand to pile 2; the computer's draw flies from
                # the stock (a card back) and its 3h from its hand to the pile, in that order
                assert "5♠5♠" in flights[0]
                assert "back" in flights and any("3♥" in f for f in flights), flights
                assert flights.index("back") < max(i for i, f in enumerate(flights) if "3♥" in f)
                assert int(page.locator("#board").get_attribute("data-flights")) >= 3
                # a click ends the flights at once (never wait for an animation)
                page.click("#board .felt", position={"x": 5, "y": 5})
                assert page.evaluate("document.getAnimations().filter(a => a.playState === 'running').length") == 0
        finally:
            context.close()


def press(page, *keys: str) -> None:
    for k in keys:
        page.keyboard.press(k)


def keyboard_play(page, move: str) -> None:
    """Play ``move`` with the keys only: down to the hand, to its card, Enter, to the pile, Enter."""
    view = page.evaluate("window.abstractaView")
    if move in ("draw", "pass"):
        press(page, "ArrowUp", *["ArrowRight"] * 4, "Enter")
        return
    me = view["struct"]["viewer"]
    hand = [c["card"] for c in view["struct"]["board"]["hands"][me]["cards"]]
    card, pile = move[:2], int(move[3])
    press(page, "ArrowDown", *["ArrowLeft"] * len(hand), *["ArrowRight"] * hand.index(card))
    assert page.locator(".cardtable .kcur").get_attribute("data-card") == card
    press(page, "Enter")
    assert page.locator(f".hand [data-card='{card}']").get_attribute("class").split().count("picked") == 1
    press(page, "ArrowUp", *["ArrowLeft"] * 4, *["ArrowRight"] * (pile - 1))
    assert page.locator(".cardtable .kcur").get_attribute("data-pile") == str(pile)
    press(page, "Enter")


def test_play_with_the_keyboard_only(page, live_server):
    open_vs_computer(page, live_server)
    page.focus("#board")
    # the cursor shows once a key is used; Escape puts a picked card back
    press(page, "ArrowDown", "ArrowRight")
    assert page.locator(".cardtable.kbd .kcur[data-card='Kd']").count() == 1
    assert page.locator(".kcur").evaluate("e => getComputedStyle(e, '::before').borderTopWidth") == "3px"
    press(page, "Enter")  # Kd picked: the cursor jumps to its first pile
    assert page.locator(".pcard.picked").get_attribute("data-card") == "Kd"
    assert page.locator(".kcur").get_attribute("data-pile") == "1"
    assert "Kd picked: pile 1 (sum), pile 3 (sum)." == page.locator("#board-say").text_content()
    press(page, "Escape")
    assert page.locator(".pcard.picked").count() == 0 and page.locator(".kcur").get_attribute("data-card") == "Kd"
    assert page.locator("#board-say").text_content() == "Cancelled: Kd put back."
    keyboard_play(page, "5s/2")
    view = after_computer(page, 3)
    assert view["moves"][0] == "5s/2"
    # the cursor stayed on the board through the computer's turn; play its first choice
    move = view["struct"]["choices"]["cards"][0]["plays"][0]["action"] if view["struct"]["choices"]["cards"] else "draw"
    page.focus("#board")
    keyboard_play(page, move)
    page.wait_for_function("() => window.abstractaView.ply >= 4")
    assert page.evaluate("window.abstractaView.moves")[3] == move
    # digits: pick a card with Enter, then 1–3 play it on that pile
    page.wait_for_function("() => { const v = window.abstractaView; return v.status === 'over' ||"
                           " (v.ply > 4 && v.human_to_move && !v.thinking); }")
    view = page.evaluate("window.abstractaView")
    if view["status"] == "playing" and view["struct"]["choices"].get("cards"):
        choice = view["struct"]["choices"]["cards"][0]
        hand = [c["card"] for c in view["struct"]["board"]["hands"][0]["cards"]]
        page.focus("#board")
        press(page, "ArrowDown", *["ArrowLeft"] * len(hand), *["ArrowRight"] * hand.index(choice["card"]), "Enter",
              choice["plays"][-1]["pile"])
        page.wait_for_function(f"() => window.abstractaView.ply > {view['ply']}")
        assert page.evaluate("window.abstractaView.moves")[view["ply"]] == choice["plays"][-1]["action"]


def test_a_forced_draw_with_the_keyboard(page, live_server):
    # fibonacci-cards.md §7 example 6: nothing fits, so the cursor starts on the stock; Enter
    # draws the 7s, which must be played: it is picked and the cursor waits on its first pile
    open_vs_computer(page, live_server, start="2c 5d Jh | 4c,6d | 9s | 7s,8c | 0")
    page.focus("#board")
    press(page, "Enter")
    page.wait_for_function("() => window.abstractaView.ply === 1 && window.abstractaView.human_to_move")
    page.wait_for_selector(".hand [data-card='7s'].drawn.picked")
    assert page.locator(".kcur").get_attribute("data-pile") == "1"
    assert "The card you drew fits and must be played." in page.locator("#board-text").text_content()
    press(page, "ArrowRight", "Enter")
    page.wait_for_function("() => window.abstractaView.ply >= 2")
    assert page.evaluate("window.abstractaView.moves")[:2] == ["draw", "7s>2"]


def test_the_board_text_after_a_move(page, live_server):
    open_vs_computer(page, live_server)
    text = page.locator("#board-text").text_content()
    assert text.startswith("Your turn. Piles: 1: 2c, value 2; 2: 5d, value 5; 3: Jh, value 11. Stock: 2 cards.")
    assert "Cards that fit: 5s, 7h, Kd." in text
    page.click(".hand [data-card='5s']")
    page.click("[data-pile='2']")
    after_computer(page, 3)
    text = page.locator("#board-text").text_content()
    pile = page.evaluate("window.abstractaView.moves[2]")[-1]
    assert f"Computer (level 1): drew a card, played 3h on pile {pile} (2 + 1 = 3)." in text
    # the piles as they are now: the 3h on pile 1 (2 + 1), or on the cut-down pile 2 (1 + 2)
    assert ("Piles: 1: 3h, value 3; 2: 5s cut down, value 1; 3: Jh" if pile == "1"
            else "Piles: 1: 2c, value 2; 2: 3h, value 3; 3: Jh") in text


def test_the_end_shows_both_hands_and_no_turn(page, live_server, shots):
    # fibonacci-cards.md §7 example 5: nobody can play and the stock is empty: over at once
    open_vs_computer(page, live_server, start="9c 5d 4h | 2c,Qd | 6h | - | 0")
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    assert "to move" not in page.locator("#board").inner_text()
    assert page.locator(".pcard.back").count() == 0
    assert page.locator("[data-hand='hand1'] .pcard").evaluate_all("cs => cs.map(c => c.dataset.card)") == ["6h"]
    assert page.locator("[data-hand='hand0'] .pcard").evaluate_all("cs => cs.map(c => c.dataset.card)") == ["2c", "Qd"]
    assert page.locator("[data-seat='0'] .res").inner_text() == "loses"
    assert page.locator("[data-seat='1'] .res").inner_text() == "wins"
    text = page.locator("#board-text").text_content()
    assert text.startswith("Game over. Computer (level 1) wins. The stock is empty and nobody can play: fewer cards in hand wins (1 against 2).")
    assert "Computer (level 1) holds 6h." in text
    page.screenshot(path=str(shots / "fibonacci_cards-end.png"), full_page=True)


def test_tap_targets_at_360_px(browser, live_server, shots):
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        for start in (START, "2c 5d Jh | 4c,6d | 9s | 7s,8c | 0"):  # a play, then a forced draw
            open_vs_computer(page, live_server, start=start)
            if start == START:
                page.click(".hand [data-card='Kd']")  # two piles become targets
            targets = page.locator("#board .pcard.playable, #board .pile.target, #board .pile, #controls button").all()
            assert targets
            for t in targets:
                box = t.bounding_box()
                assert box["width"] >= 40 and box["height"] >= 40, (t.evaluate("e => e.outerHTML.slice(0, 80)"), box)
                assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
            # the four piles share the row evenly
            widths = {round(page.locator(f"[data-pile='{p}']").bounding_box()["width"]) for p in ("1", "2", "3", "stock")}
            assert len(widths) == 1, widths
            tops = {round(page.locator(f"[data-pile='{p}']").bounding_box()["y"]) for p in ("1", "2", "3", "stock")}
            assert len(tops) == 1, tops
            if start == START:
                page.screenshot(path=str(shots / "fibonacci_cards-360.png"), full_page=True)
    finally:
        context.close()


def test_screenshots_1280_and_390(browser, live_server, shots):
    for width, height in ((1280, 900), (390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 500,
                                      has_touch=width < 500)
        try:
            page = context.new_page()
            page.emulate_media(reduced_motion="reduce")  # a still picture
            open_vs_computer(page, live_server)
            page.click(".hand [data-card='5s']")
            page.click("[data-pile='2']")
            after_computer(page, 3)
            page.click(".hand [data-card='Qd']" if page.locator(".hand [data-card='Qd'].playable").count()
                       else ".hand .pcard.playable")
            page.focus("#board")
            press(page, "ArrowUp")  # the keyboard cursor shows on the table
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(shots / f"fibonacci_cards-{width}.png"), full_page=True)
        finally:
            context.close()


def test_a_finished_games_replay_shows_both_hands_to_a_spectator(browser, live_server, shots):
    # START with its four moves, then seat 0 resigns: the rules' position is not terminal, the
    # match is over, and the deal is public (its record is handed out to anyone now)
    mid = import_match(live_server, MOVES)
    post_json(f"{live_server.url}/api/matches/{mid}/resign", {"seat": 0})
    context = browser.new_context_without_tokens(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{mid}")
        page.wait_for_function("() => window.abstractaView && window.abstractaView.status === 'over'")
        assert page.evaluate("window.abstractaView.viewer") is None
        hand = "[data-hand='hand{}'] .pcard"
        assert page.locator(hand.format(1)).evaluate_all("cs => cs.map(c => c.dataset.card)") == ["4c", "6d", "Jc"]
        # the stock's next cards in words, as the finished game's struct gives them (top first)
        stock = page.evaluate("window.abstractaView.struct.board.stock")
        assert stock["cards"] == ["9h"]  # START's stock: one card
        nxt = page.locator("[data-stock-next]")
        assert nxt.get_attribute("data-stock-next") == "9h" and nxt.inner_text() == "next: 9h"
        page.click("#step-back")
        page.click("#step-back")  # after 5s/2 and the draw: seat 1 holds the drawn 3h
        page.wait_for_function("() => document.getElementById('step-at').dataset.ply === '2'")
        assert page.locator("[data-hand] .pcard.back").count() == 0  # (the stock stays face down)
        assert page.locator(hand.format(0)).evaluate_all("cs => cs.map(c => c.dataset.card)") == ["7h", "Kd", "Qd", "3c"]
        assert page.locator(hand.format(1)).evaluate_all("cs => cs.map(c => c.dataset.card)") == ["4c", "6d", "Jc", "3h"]
        page.screenshot(path=str(shots / "fibonacci_cards-replay-over.png"), full_page=True)
    finally:
        context.close()


# every card string as a word in the page's markup or text (sr-only regions, attributes too)
CARDS_IN_PAGE = r"""(cards) => { const html = document.getElementById('app').outerHTML, text = document.body.innerText;
  return cards.filter((c) => [html, text].some((s) => new RegExp('(^|[^A-Za-z0-9])' + c + '([^A-Za-z0-9]|$)').test(s))); }"""


def test_nothing_of_a_hand_in_the_page_behind_the_hand_over_screen(page, live_server):
    # the words of the board (#board-text, for screen readers) kept the last seat's hand behind
    # the hand-over screen: "Your hand: 7h, Kd, Qd, 3c" for the next person to read
    mid = import_match(live_server)
    page.goto(f"{live_server.url}/#/match/{mid}")
    hands = {0: ["7h", "Kd", "5s", "Qd", "3c"], 1: ["4c", "6d", "Jc"]}
    stock = ["3h", "9h"]
    page.wait_for_function(WAIT_HUMAN)
    assert page.locator("#handover-ok").is_visible()
    assert page.evaluate(CARDS_IN_PAGE, hands[0] + hands[1] + stock) == []
    page.click("#handover-ok")
    page.wait_for_selector("#board .cardtable")
    assert "Your hand: 7h, Kd, 5s, Qd, 3c" in page.locator("#board-text").text_content()
    assert page.evaluate(CARDS_IN_PAGE, hands[1] + stock) == []
    page.click(".hand [data-card='7h']")  # picked, then another card played
    page.click(".hand [data-card='5s']")
    page.click("[data-pile='2']")
    page.wait_for_function("() => window.abstractaView.ply === 1")
    page.wait_for_selector("#handover-ok")
    assert page.locator("#handover").inner_text().startswith("Pass the device to Player 2.")
    # 5s is on the table now: public; nothing else of either hand
    assert page.evaluate(CARDS_IN_PAGE, ["7h", "Kd", "Qd", "3c"] + hands[1] + stock) == []
    assert page.locator("#board-text").text_content() == "Hidden until the next player is ready."
    assert page.locator("#board-say").text_content() == ""
    # it is a person's move on this device: not "Not your move." under the legal moves
    assert page.locator("#legal").text_content() == "Hidden until the next player is ready."
    page.click("#handover-ok")
    page.wait_for_selector("#board .cardtable")
    assert "Your hand: 4c, 6d, Jc" in page.locator("#board-text").text_content()
    assert page.evaluate(CARDS_IN_PAGE, ["7h", "Kd", "Qd", "3c"] + stock) == []


def test_the_board_words_come_back_after_the_hand_over_without_a_board_module(page, live_server):
    # a game drawn as text (no board module, or one that does not load) kept "Hidden until the
    # next player is ready." as the board's words after the next person pressed "show my hand"
    page.route("**/games/fibonacci-cards/board.js", lambda route: route.abort())
    mid = import_match(live_server)
    page.goto(f"{live_server.url}/#/match/{mid}")
    page.wait_for_function(WAIT_HUMAN)
    assert page.locator("#board-text").text_content() == "Hidden until the next player is ready."
    page.click("#handover-ok")
    page.wait_for_selector("#board pre.position")
    assert "7h" in page.locator("#board pre.position").text_content()  # the seat's own hand, as text
    assert page.locator("#board-text").text_content() == ""


def test_a_replay_answer_that_arrives_after_the_hand_over_shows_no_hand(page, live_server):
    # Player 2 steps back through the game; the hand passes to Player 1 while the replay's
    # answers are on their way: the page kept Player 2's replay (their hand) on screen with no
    # hand-over screen until the answers came
    mid = import_match(live_server, MOVES[:1])
    page.goto(f"{live_server.url}/#/match/{mid}")
    ready(page, 1)
    page.click("#step-back")
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Replay')")
    assert "Your hand: 4c, 6d, Jc" in page.locator("#board-text").text_content()
    # from here the replay's answers are held back, each as the server gave it when asked
    held = []
    page.route("**/positions*", lambda route: held.append((route, route.fetch())))
    post_json(f"{live_server.url}/api/matches/{mid}/actions", {"action": MOVES[1], "ply": 1})
    post_json(f"{live_server.url}/api/matches/{mid}/actions", {"action": MOVES[2], "ply": 2})
    hidden = ["4c", "6d", "Jc", "9h", "7h", "Kd", "Qd", "3c"]  # both hands and the stock
    for _ in range(100):  # the page has heard of ply 3 once it shows the hand-over or asks twice
        if page.locator("#handover-ok").is_visible() or len(held) >= 2:
            break
        page.wait_for_timeout(100)
    assert page.locator("#handover-ok").is_visible()
    assert page.evaluate(CARDS_IN_PAGE, hidden) == []
    for route, answer in held:  # Player 2's answers arrive behind the hand-over screen
        route.fulfill(response=answer)
    page.wait_for_timeout(500)
    assert page.locator("#handover-ok").is_visible()
    assert page.evaluate(CARDS_IN_PAGE, hidden) == []
    page.unroute("**/positions*")
    page.click("#handover-ok")
    page.wait_for_selector("#board .cardtable")
    page.click("#step-back")  # Player 1 steps back: their own hand, none of Player 2's
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Replay')")
    assert "Your hand: 7h, Kd, Qd, 3c" in page.locator("#board-text").text_content()
    assert page.evaluate(CARDS_IN_PAGE, ["4c", "6d", "Jc", "9h"]) == []


def test_a_replay_answer_from_a_newer_position_is_not_drawn(page, live_server):
    # the page has not heard yet that the hand passed (its live updates are late) when Player 2
    # steps back: the server answers for the match as it is, with Player 1's eyes, and the page
    # drew Player 1's hand for Player 2
    page.route_web_socket("**/ws", lambda ws: None)  # an open socket that never says anything
    mid = import_match(live_server, MOVES[:1])
    page.goto(f"{live_server.url}/#/match/{mid}")
    ready(page, 1)
    post_json(f"{live_server.url}/api/matches/{mid}/actions", {"action": MOVES[1], "ply": 1})
    post_json(f"{live_server.url}/api/matches/{mid}/actions", {"action": MOVES[2], "ply": 2})
    page.wait_for_timeout(300)
    assert page.evaluate("window.abstractaView.ply") == 1  # nothing heard
    page.click("#step-back")
    # the answer says the page is behind: it fetches the position and hands over
    page.wait_for_selector("#handover-ok")
    assert page.evaluate("window.abstractaView.ply") == 3
    assert page.evaluate(CARDS_IN_PAGE, ["4c", "6d", "Jc", "9h", "7h", "Kd", "Qd", "3c"]) == []


# what acts for a seat: behind the hand-over screen none of it may be used, by pointer or keyboard
ACTING = "#resign, #undo, #move-input, #legal button, #board, #takeback button, #invites button, #analysis button, #analysis input"


def test_nothing_acts_behind_the_hand_over_screen(page, live_server):
    # Resign stayed a live button behind the screen: the person handing over (or the one
    # taking the device) could resign for the seat whose hand is hidden, by a click or by Tab
    mid = import_match(live_server, MOVES[:1])
    page.goto(f"{live_server.url}/#/match/{mid}")
    page.wait_for_function(WAIT_HUMAN)
    assert page.locator("#handover-ok").is_visible()
    assert page.locator("#resign").is_disabled() and page.locator("#undo").is_disabled()
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#resign").click(force=True)
    page.wait_for_timeout(300)
    assert get_json(f"{live_server.url}/api/matches/{mid}")["status"] == "playing"
    # the keyboard: from the hand-over button round the whole page, nothing that acts takes focus
    page.focus("#handover-ok")
    reached = []
    for _ in range(60):
        page.keyboard.press("Tab")
        reached.append(page.evaluate(f"""() => {{ const a = document.activeElement;
          return !a || a === document.body ? null : a.closest('{ACTING}') ? 'ACTS: ' + (a.id || a.outerHTML.slice(0, 60))
            : a.id || a.tagName; }}"""))
    assert "handover-ok" in reached  # round the page and back
    assert [r for r in reached if r and r.startswith("ACTS")] == []
    page.click("#handover-ok")
    page.wait_for_selector("#board .cardtable")
    assert page.locator("#resign").is_enabled()  # Player 2's own controls, once their hand is shown


def test_a_resign_question_open_when_the_hand_passes_resigns_nobody(page, live_server):
    # the Resign question (modal) was answered after the hand had passed (the move of another
    # tab of this device, or one still on its way): it resigned Player 1, whose hand was no
    # longer the one due on screen, and the hand-over screen never came up first
    mid = import_match(live_server)
    page.goto(f"{live_server.url}/#/match/{mid}")
    ready(page, 0)

    def hand_passes_then_yes(dialog):
        post_json(f"{live_server.url}/api/matches/{mid}/actions", {"action": MOVES[0], "ply": 0})
        dialog.accept()

    page.once("dialog", hand_passes_then_yes)
    page.click("#resign")
    page.wait_for_selector("#handover-ok")
    page.wait_for_timeout(300)
    match = get_json(f"{live_server.url}/api/matches/{mid}")
    assert (match["status"], match["ply"], match["to_move"]) == ("playing", 1, 1)
    # and says so: the person who confirmed is not left to guess whether they resigned
    assert page.locator("#error").is_visible()
    assert page.locator("#error").text_content() == RESIGN_CANCELLED
    assert page.locator("#handover-ok").inner_text() == "I am Player 2: show my hand"
    page.click("#handover-ok")
    page.wait_for_selector("#board .cardtable")
    page.once("dialog", lambda dialog: dialog.accept())  # Player 2's own question still resigns
    page.click("#resign")
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    assert get_json(f"{live_server.url}/api/matches/{mid}")["result"] == [1.0, -1.0]


RESIGN_CANCELLED = "The position changed before your resignation was sent: you have not resigned. Resign again if you still want to."


def test_a_resign_question_answered_after_a_change_that_moves_nothing_resigns(page, live_server):
    # the page asks the server again before resigning (the hand may have passed): a new
    # revision for another reason (here the other person asks from elsewhere for a takeback;
    # a hint counted, an invitation claimed) dropped the resignation without a word
    mid = import_match(live_server, MOVES[:1])
    page.goto(f"{live_server.url}/#/match/{mid}")
    ready(page, 1)
    before = get_json(f"{live_server.url}/api/matches/{mid}")["revision"]

    def takeback_asked_then_yes(dialog):
        req = urllib.request.Request(f"{live_server.url}/api/matches/{mid}/takeback", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKENS[mid][0]}"})
        with urllib.request.urlopen(req) as r:
            asked = json.load(r)
        assert (asked["revision"], asked["ply"], asked["takeback"]["by"]) == (before + 1, 1, 0)
        dialog.accept()

    page.once("dialog", takeback_asked_then_yes)
    page.click("#resign")
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    match = get_json(f"{live_server.url}/api/matches/{mid}")
    assert (match["termination"], match["result"], match["ply"]) == ("resignation", [1.0, -1.0], 1)
    assert page.locator("#result").text_content().startswith("Player 2 resigned")
    assert not page.locator("#error").is_visible()


def test_a_drawn_end_and_an_invitation_in_words_of_the_game(page, live_server):
    # "You: 2 cards · draw" read as drawing a card; the invitation said "as seat 2" where every
    # other page says "Player 2"
    open_vs_computer(page, live_server, start="9c 5d 4h | 2c,Qd | 6h,2d | - | 0")
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    assert page.locator("[data-seat='0'] .res").inner_text() == "drawn game"
    assert page.locator("[data-seat='1'] .res").inner_text() == "drawn game"
    view = post_json(f"{live_server.url}/api/matches", {"game": "fibonacci-cards", "seats": ["human", "human"], "take": [0]})
    page.goto(f"{live_server.url}/#/join/{view['invites'][0]['code']}")
    page.locator("#take-seat").wait_for()
    assert page.locator("#join-what").inner_text() == "You are invited to play Fibonacci card game as Player 2."
    page.click("#lang button[data-lang='fi']")
    page.wait_for_function("() => (document.getElementById('join-what') || {}).textContent === "
                           "'Sinut on kutsuttu pelaamaan peliä Fibonaccin korttipeli (paikka: Pelaaja 2).'")
    page.click("#lang button[data-lang='en']")


def test_the_stocks_hint_is_in_the_readers_language(browser, live_server):
    """The stock said "draw" to a Finnish reader: the one English word of a Finnish table (the
    piles' hints beside it were in Finnish)."""
    fi = get_json(f"{live_server.url}/api/i18n/fi")
    mid = import_match(live_server, MOVES[:1])  # seat 1: nothing fits, the stock is the only choice
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="fi-FI")
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        page.goto(f"{live_server.url}/#/match/{mid}")
        ready(page, 1)
        assert page.locator("[data-pile='stock'] .pilehint").inner_text() == fi["fibonacci-cards.board.hint_draw"] == "nosta kortti"
    finally:
        context.close()
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    try:
        page.goto(f"{live_server.url}/#/match/{mid}")
        ready(page, 1)
        assert page.locator("[data-pile='stock'] .pilehint").inner_text() == "draw a card"
    finally:
        page.context.close()
