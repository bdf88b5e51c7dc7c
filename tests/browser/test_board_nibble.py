"""Nibble played on the board drawn from the structured view (view.py, web/board.js): a one-disc
take in one click (it ends the turn), "add more of this colour" to take a set, an open turn and
"End turn", the opponent's and the computer's takes marked and faded out (not with reduced
motion), a replayed ply, a set that would split the board refused, the hex board, play by
keyboard only, the board in words (#board-text), and the page at phone width (tap targets,
no sideways scroll, screenshots). Positions: nibble.md §7 examples 1 and 8."""

from __future__ import annotations

import pytest
from httputil import get_json, post_json

WAIT_HUMAN = "() => { const v = window.abstractaView; return v && v.human_to_move && !v.thinking; }"


def import_start(page, server, start: str | None = None, options=None, seed=None, seats=("human", "human")) -> str:
    """A match of Nibble from ``start`` (or the seeded layout), shown in ``page``."""
    record = {"format": "abstracta-record", "version": 1, "game": "nibble", "options": options or {},
              "seed": seed, "start": start, "players": [], "moves": []}
    view = post_json(f"{server.url}/api/matches/import", {"record": record, "seats": list(seats)})
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_function(WAIT_HUMAN)
    return view["id"]


def view(page) -> dict:
    return page.evaluate("window.abstractaView")


def classes(page, cell: str) -> str:
    return page.locator(f"[data-cell='{cell}']").get_attribute("class") or ""


def wait_ply(page, ply: int) -> dict:
    page.wait_for_function(f"() => window.abstractaView.ply === {ply} && !window.abstractaView.thinking")
    page.wait_for_function(WAIT_HUMAN)
    return view(page)


def board_text(page) -> str:
    return page.locator("#board-text").text_content()


# the computer (seat 1) holds 7 red (A); the human takes b2 (the only C), then a1+c1 wins for the
# computer at once (nibble.md §5 instant win A): a computer's take of two discs
TWO_FOR_THE_COMPUTER = ("........./........./........./........./........./........./........./.C......./ABA...... "
                        "0 0-4-4-4-5-4-5-4-5 7-4-4-5-4-5-4-5-4")

# records every disc that starts fading out (a ghost) on the board, in order
WATCH_GHOSTS = """() => {
  window.nbGhosts = [];
  new MutationObserver((muts) => { for (const m of muts) for (const n of m.addedNodes) {
    if (n.nodeType !== 1) continue;
    for (const g of [n, ...n.querySelectorAll('.nb-ghost')]) {
      if (g.classList && g.classList.contains('nb-ghost')) window.nbGhosts.push(g.closest('[data-cell]').dataset.cell);
    }
  } }).observe(document.getElementById('board'), { childList: true, subtree: true });
}"""


def test_one_click_takes_a_disc_and_ends_the_turn(page, live_server):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # §7 example 1: only the corners are free; a1 = a9 = G, i1 = i9 = H
    mid = import_start(page, live_server, options={"first_player": 0}, seed=1)
    assert "clickable" in classes(page, "a1") and "clickable" not in classes(page, "b1")
    assert page.locator("#add-more").is_visible() and page.locator("#add-more").get_attribute("aria-pressed") == "false"
    assert page.locator("#take").count() == 0 and page.locator("#end-turn").count() == 0
    assert "Your turn" not in board_text(page) and "Player 1 to move." in board_text(page)
    page.click("[data-cell='a1']")  # one click: a1, and the turn ends (a9 could have followed)
    v = wait_ply(page, 2)
    assert v["moves"] == ["a1", "end"] and v["to_move"] == 1
    assert get_json(f"{live_server.url}/api/matches/{mid}/record")["moves"] == ["a1", "end"]
    assert "taken" in classes(page, "a1") and "recent" in classes(page, "a1")
    # the board in words: what seat 0 did, whose turn, what may be taken
    text = board_text(page)
    assert "Player 1 took a1 (blue G)." in text
    assert "Player 2 to move." in text
    assert "May be taken: " in text and "a9 (blue G)" in text
    # seat 1: b1 (red A) is free now and another red follows it (a2): one click still ends the turn
    page.click("[data-cell='b1']")
    v = wait_ply(page, 4)
    assert v["moves"][2:] == ["b1", "end"]
    assert "Player 2 took b1 (red A)." in board_text(page)
    assert not errors, errors


def test_add_more_of_this_colour_takes_a_pair(page, live_server, shots):
    mid = import_start(page, live_server, options={"first_player": 0}, seed=1)
    page.click("#add-more")
    assert page.locator("#add-more").get_attribute("aria-pressed") == "true"
    assert page.locator("#take").is_disabled()
    page.click("[data-cell='a1']")
    assert "picked" in classes(page, "a1")
    assert page.locator("#take").inner_text() == "Take a1"
    assert page.locator("#board-say").text_content() == "Picked a1; may add a9. T takes them."
    page.click("[data-cell='a9']")
    assert page.locator("#take").inner_text() == "Take a1+a9"
    page.click("[data-cell='a9']")  # a second click puts it back
    assert page.locator("#take").inner_text() == "Take a1"
    page.click("[data-cell='i1']")  # another colour: the pick starts again from i1
    assert page.locator("#take").inner_text() == "Take i1"
    page.click("[data-cell='a1']")
    page.click("[data-cell='a9']")
    page.screenshot(path=str(shots / "nibble-board-picked.png"))
    page.click("#take")
    v = wait_ply(page, 2)  # a1, a9: no G left to take, the turn ends by itself
    assert v["moves"] == ["a1", "a9"] and v["to_move"] == 1
    assert get_json(f"{live_server.url}/api/matches/{mid}/record")["moves"] == ["a1+a9"]
    assert page.locator("[data-cell='a1'].taken, [data-cell='a9'].taken").count() == 2
    assert page.locator("#add-more").get_attribute("aria-pressed") == "false"  # a new turn starts plain
    assert "G 2" in page.locator(".ctable[data-seat='0']").inner_text()
    assert "Player 1 took a1 (blue G), took a9 (blue G)." in board_text(page)
    # Escape leaves "add more" mode
    page.click("#add-more")
    page.click("[data-cell='i1']")
    page.focus("#board")
    page.keyboard.press("Escape")
    assert page.locator("#take").count() == 0 and "picked" not in classes(page, "i1")
    # replaying ply 1 draws that ply's struct: a9 is back, a1 gone, nothing may be clicked
    page.click("#step-back")
    page.wait_for_function("() => document.querySelector(\"[data-cell='a9']\").dataset.disc === 'G'")
    assert page.locator("[data-cell='a1']").get_attribute("data-disc") is None
    assert page.locator("#board .clickable").count() == 0 and page.locator("#add-more").count() == 0
    page.click("#step-fwd")
    page.wait_for_function("() => !document.querySelector(\"[data-cell='a9']\").dataset.disc")


def test_an_open_turn_and_end_turn(page, live_server):
    # the description's square9 example: seat 1 is taking I (take=I) and may take more or end
    start = ("......EI./..HIFHGE./..EGDBHB./DBABHCIGI/EHIFAHAIA/.EGAFCEBI/.GIBC..../...C...../......... 1 "
             "4-2-3-6-0-3-0-2-0 0-1-2-1-3-3-4-1-1 take=I")
    import_start(page, live_server, start)
    v = view(page)
    more = v["struct"]["turn"]["left"]["more"]
    assert more and v["struct"]["choices"]["take"] == "I"
    assert page.locator("#end-turn").is_visible() and page.locator("#add-more").count() == 0
    assert "Taking pink I" in board_text(page)
    page.click("#end-turn")
    v = wait_ply(page, 1)
    assert v["moves"] == ["end"] and v["to_move"] == 0


# seed 6 after 59 random entries: g7 and f8 are both free C, but taking both splits the board
NIBBLE_SPLIT = ("........./.....CE../....ABC../..FHBA.../..DIAD.../.CGCGH.../.AHIE..../........./......... "
                "1 3-3-4-2-4-6-6-0-3 2-4-1-5-3-2-1-6-4")


def test_a_set_that_splits_the_board_cannot_be_picked(page, live_server):
    import_start(page, live_server, NIBBLE_SPLIT)
    together = {g["colour"]: [t["turn"] for t in g["together"]] for g in view(page)["struct"]["choices"]["colours"]}
    assert together["C"] == ["b4+g7", "b4+f8"]  # never g7 with f8
    page.click("#add-more")
    page.click("[data-cell='g7']")
    assert "blocked" in classes(page, "f8")
    page.click("[data-cell='f8']", force=True)  # refused on the page, saying why by the board
    assert page.locator("#take").inner_text() == "Take g7"
    assert page.locator("#board-note").inner_text() == "f8: yellow (C) — cannot be taken together with g7: nothing to take there."
    assert "clickable" in classes(page, "b4") and "clickable" in classes(page, "e3")  # e3: another colour
    page.click("[data-cell='b4']")
    assert page.locator("#take").inner_text() == "Take b4+g7"
    assert not page.locator("#board-note").is_visible()  # a pick that counts: the note goes
    assert "blocked" in classes(page, "f8")


def test_hex_board_pair(page, live_server, shots):
    # §7 example 8: the six corners are free, h1 = o8 = G may be taken together
    import_start(page, live_server, options={"variant": "hex", "first_player": 0}, seed=1)
    for corner in ("a1", "a8", "h1", "h15", "o8", "o15"):
        assert "clickable" in classes(page, corner)
    assert "clickable" not in classes(page, "a2")
    page.click("[data-cell='h1']", modifiers=["Shift"])  # shift-click: "add more" at once
    assert page.locator("#add-more").get_attribute("aria-pressed") == "true"
    page.click("[data-cell='o8']")
    assert page.locator("#take").inner_text() == "Take h1+o8"
    page.screenshot(path=str(shots / "nibble-board-hex.png"))
    page.click("#take")
    v = wait_ply(page, 2)
    assert v["moves"] == ["h1", "o8"]
    assert page.locator("[data-cell='h1'].taken, [data-cell='o8'].taken").count() == 2


def test_the_computers_take_of_two_discs_is_marked_and_fades_out(page, live_server, shots):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    import_start(page, live_server, TWO_FOR_THE_COMPUTER, seats=("human", "level:4"))
    page.evaluate(WATCH_GHOSTS)
    page.click("[data-cell='b2']")  # the only C: the take ends the turn by itself ("b2" alone)
    page.locator("#result").wait_for(state="visible")
    v = view(page)
    # the two takes win equally: the search's seeded tie-break picks which comes first
    assert v["moves"] in (["b2", "a1", "c1"], ["b2", "c1", "a1"])
    first, second = v["moves"][1:]
    # both discs of the computer's turn are marked, numbered in order
    assert page.locator("[data-cell='a1'].taken.recent, [data-cell='c1'].taken.recent").count() == 2
    assert page.locator(f"[data-cell='{first}'] .nb-order").text_content() == "1"
    assert page.locator(f"[data-cell='{second}'] .nb-order").text_content() == "2"
    # they faded out where they stood (after the person's own b2), in the order taken
    ghosts = page.evaluate("window.nbGhosts")
    assert "b2" in ghosts and "a1" in ghosts and "c1" in ghosts
    assert ghosts.index(first) < ghosts.index(second) or ghosts.count(first) > 1
    page.wait_for_function("() => !document.querySelector('#board .nb-ghost')", timeout=3000)  # done within ~1.5 s
    text = board_text(page)
    assert f"Computer (level 4) took {first} (red A), took {second} (red A) and won." in text
    assert "Computer (level 4) wins. All 9 red discs (A) collected." in text
    assert text.endswith("You hold 36 discs, 4 majorities (5 needed); Computer (level 4) holds 44 discs, "
                         "4 majorities (5 needed).")
    assert not errors, errors


@pytest.mark.parametrize("locale, words", [
    ("en-US", ("You: 35 discs · 3 majorities (5 needed)", "You hold 35 discs, 3 majorities (5 needed); ")),
    ("fi-FI", ("Sinä: 35 kiekkoa · 3 enemmistöä (tarvitaan 5)", "Sinä: 35 kiekkoa, 3 enemmistöä (tarvitaan 5); ")),
])
def test_the_majorities_are_a_count_and_a_target_in_words(browser, live_server, locale, words):
    # "majorities 4/5" (a screen reader: "majorities 4 of 5", and 8/5 "8 of 5"): the count
    # and how many win, in words, in the collection's line and in the board's words
    context = browser.new_context(locale=locale, viewport={"width": 1100, "height": 900})
    try:
        page = context.new_page()
        import_start(page, live_server, TWO_FOR_THE_COMPUTER, seats=("human", "level:4"))
        head = page.locator(".ctable[data-seat='0'] .chead").inner_text()
        assert head.startswith(words[0]), head
        assert words[1] in board_text(page), board_text(page)
    finally:
        context.close()


def test_no_animation_with_reduced_motion(page, live_server):
    page.emulate_media(reduced_motion="reduce")
    import_start(page, live_server, TWO_FOR_THE_COMPUTER, seats=("human", "level:4"))
    page.evaluate(WATCH_GHOSTS)
    page.click("[data-cell='b2']")
    page.locator("#result").wait_for(state="visible")
    assert page.evaluate("window.nbGhosts") == []
    assert page.locator("[data-cell='a1'].taken.recent, [data-cell='c1'].taken.recent").count() == 2  # still marked


def test_a_click_during_the_animation_finishes_it(page, live_server):
    import_start(page, live_server, options={"first_player": 0}, seed=1)
    page.click("#add-more")
    page.click("[data-cell='a1']")
    page.click("[data-cell='a9']")
    page.click("#take")
    # as soon as a disc fades out, a pointer on the board ends the animation at once
    page.wait_for_function("""() => {
      if (!document.querySelector('#board .nb-ghost')) return false;
      const before = document.querySelectorAll('#board .nb-ghost').length;
      document.querySelector("#board [data-cell='e5']").dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
      window.nbAfter = [before, document.querySelectorAll('#board .nb-ghost').length];
      return true;
    }""")
    before, after = page.evaluate("window.nbAfter")
    assert before == 2 and after == 0
    page.wait_for_function("() => window.abstractaView.ply === 2")


def test_keyboard_only(page, live_server):
    mid = import_start(page, live_server, options={"first_player": 0}, seed=1)
    page.focus("#board")
    assert "Arrow keys" in page.locator("#board").get_attribute("aria-label")
    # the cursor starts on the first disc that may be taken (a1)
    assert page.locator("[data-cell='a1'][data-cursor]").count() == 1
    assert page.locator("#board .nb-cursor").is_visible()
    page.keyboard.press("ArrowRight")
    assert page.locator("[data-cell='b1'][data-cursor]").count() == 1
    assert "b1: red (A)" in page.locator("#board-say").text_content()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")  # takes a1 and ends the turn
    v = wait_ply(page, 2)
    assert v["moves"] == ["a1", "end"]
    assert page.locator("[data-cell='a1'][data-cursor]").count() == 1  # the cursor stays where it was
    page.keyboard.press("ArrowUp")  # a2, free since a1 went
    page.keyboard.press(" ")
    v = wait_ply(page, 4)
    assert v["moves"][2:] == ["a2", "end"]
    # "add more of this colour" by keyboard: A, pick i1 and i9 (both H), T takes them
    assert "i1+i9" in [t["turn"] for g in v["struct"]["choices"]["colours"] for t in g["together"]]
    page.keyboard.press("a")
    assert page.locator("#add-more").get_attribute("aria-pressed") == "true"
    for _ in range(8):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    assert page.locator("[data-cell='i1'][data-cursor]").count() == 1
    page.keyboard.press("Enter")
    for _ in range(8):
        page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    assert page.locator("#take").inner_text() == "Take i1+i9"
    page.keyboard.press("t")
    v = wait_ply(page, 6)
    assert v["moves"][4:] == ["i1", "i9"]
    assert get_json(f"{live_server.url}/api/matches/{mid}/record")["moves"] == ["a1", "end", "a2", "end", "i1+i9"]
    # Tab reaches the controls under the board
    page.focus("#board")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "add-more"
    page.keyboard.press("Enter")  # the button switches the mode and keeps the focus
    assert page.locator("#add-more").get_attribute("aria-pressed") == "true"
    assert page.evaluate("document.activeElement.id") == "add-more"


def test_hex_cursor_goes_straight_up(page, live_server):
    import_start(page, live_server, options={"variant": "hex", "first_player": 0}, seed=1)
    page.focus("#board")
    assert page.locator("[data-cell='a1'][data-cursor]").count() == 1
    cells = []
    for _ in range(4):
        page.keyboard.press("ArrowUp")
        cells.append(page.locator("[data-cursor]").get_attribute("data-cell"))
    assert cells == ["b2", "c2", "d3", "e3"]  # up-right, up-left…: the same column of the drawing
    page.keyboard.press("ArrowDown")
    assert page.locator("[data-cursor]").get_attribute("data-cell") == "d2"  # a tie going down: down-left


@pytest.mark.parametrize("variant", ["square9", "square13", "hex"])
def test_phone_width(browser, live_server, shots, variant):
    record = {"format": "abstracta-record", "version": 1, "game": "nibble", "options": {"variant": variant},
              "seed": 4, "start": None, "players": [], "moves": []}
    mid = post_json(f"{live_server.url}/api/matches/import", {"record": record, "seats": ["human", "human"]})["id"]
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{mid}")
        page.wait_for_function(WAIT_HUMAN)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        cell_sizes = """() => [...document.querySelectorAll('#board [data-cell]')].map((g) => {
            const r = g.getBoundingClientRect(); return Math.min(r.width, r.height); })"""
        wrap = """(() => { const w = document.querySelector('#board .nb-wrap');
            return [w.scrollWidth, w.clientWidth, w.getBoundingClientRect().right]; })()"""
        # the whole board in sight, its cells as wide as the board box lets them (the 9×9 board's
        # 41 px had hidden its i-file behind the edge)
        w = page.evaluate(wrap)
        assert w[0] <= w[1] and w[2] <= 360
        smallest = min(page.evaluate(cell_sizes))
        zoom = page.locator("#board button[data-zoom]")
        if variant == "square9":
            assert smallest >= 33 and zoom.count() == 0
        else:
            # smaller than 30 px: "Larger cells" under the board gives cells of 41 px in an area
            # that scrolls sideways from its left edge, and says so
            assert smallest < 30 and zoom.inner_text() == "Larger cells"
            zoom.tap()
            assert min(page.evaluate(cell_sizes)) >= 40
            w = page.evaluate(wrap)
            assert w[0] > w[1] and w[2] <= 360
            assert page.evaluate("document.querySelector('#board .nb-wrap').scrollLeft") == 0
            assert "Swipe the board sideways" in page.locator(".nb-zoomline").inner_text()
            assert zoom.inner_text() == "Whole board"
        for control in ("#add-more",):
            box = page.locator(control).bounding_box()
            assert box["width"] >= 40 and box["height"] >= 40
        # what "Add more of this colour" does was said only in its tooltip, which a finger never
        # brings up: the line beside it says it
        info = page.locator("#controls .info")
        assert info.is_visible() and "“Add more of this colour” to take several discs of one colour" in info.inner_text()
        v = view(page)
        first = v["struct"]["choices"]["colours"][0]["discs"][0]["cell"]
        page.locator(f"[data-cell='{first}']").scroll_into_view_if_needed()
        page.tap(f"[data-cell='{first}']")  # one tap takes it and ends the turn
        page.wait_for_function("m => window.abstractaView.ply >= 1 && window.abstractaView.to_move === 1 - m", arg=v["to_move"])
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.screenshot(path=str(shots / f"nibble-board-phone-{variant}.png"), full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_screenshots(browser, live_server, shots, width):
    """The game page after the computer's turn, at a desktop and a phone width."""
    context = browser.new_context(viewport={"width": width, "height": 900 if width > 500 else 844},
                                  is_mobile=width < 500, has_touch=width < 500)
    try:
        page = context.new_page()
        page.set_default_timeout(20000)
        mid = post_json(f"{live_server.url}/api/matches", {"game": "nibble", "options": {"seed": 3, "first_player": 0},
                                                           "seats": ["human", "level:2"]})["id"]
        page.goto(f"{live_server.url}/#/match/{mid}")
        page.wait_for_function(WAIT_HUMAN)
        first = view(page)["struct"]["choices"]["colours"][0]["discs"][0]["cell"]
        page.locator(f"[data-cell='{first}']").dispatch_event("click")  # the board area keeps its scroll
        page.wait_for_function("() => { const v = window.abstractaView; return v.ply >= 3 && v.human_to_move && !v.thinking; }")
        page.wait_for_function("() => !document.querySelector('#board .nb-ghost')", timeout=3000)
        assert page.locator("#board .taken.recent").count() >= 1
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(shots / f"nibble-{width}.png"), full_page=True)
    finally:
        context.close()


def type_move(page, text: str) -> None:
    page.fill("#move-input", text)
    page.press("#move-input", "Enter")


def test_the_move_box_reads_a_typed_turn_as_the_terminal_does(page, live_server):
    # §7 example 1: a1 = a9 = G, i1 = i9 = H. At the start of a turn a typed cell is the whole
    # turn (Game.parse_turn): i9 takes i9 and ends the turn, though i1 could have followed
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    mid = import_start(page, live_server, options={"first_player": 0}, seed=1)
    type_move(page, "i9")
    v = wait_ply(page, 2)
    assert v["moves"] == ["i9", "end"] and v["to_move"] == 1
    type_move(page, "A9+a1")  # either case and order: the same turn as the listed a1+a9
    v = wait_ply(page, 4)
    assert v["moves"][2:] == ["a1", "a9"] and v["to_move"] == 0
    assert get_json(f"{live_server.url}/api/matches/{mid}/record")["moves"] == ["i9", "end", "a1+a9"]
    type_move(page, "end")  # not a turn: refused, nothing played
    page.wait_for_selector("#error:not([hidden])")
    assert "end" in page.locator("#error").text_content() and view(page)["ply"] == 4
    assert page.input_value("#move-input") == "end"
    assert not errors


def test_the_move_box_plays_on_an_open_turn_one_action_at_a_time(page, live_server):
    # in the middle of a turn the terminal reads one action, and so does the move box
    start = ("......EI./..HIFHGE./..EGDBHB./DBABHCIGI/EHIFAHAIA/.EGAFCEBI/.GIBC..../...C...../......... 1 "
             "4-2-3-6-0-3-0-2-0 0-1-2-1-3-3-4-1-1 take=I")
    import_start(page, live_server, start)
    assert view(page)["turns"] is None
    type_move(page, "end")
    v = wait_ply(page, 1)
    assert v["moves"] == ["end"] and v["to_move"] == 0


def list_entries(page) -> list[tuple[str, str]]:  # each turn: its text, the plies its moves go to
    return [tuple(e) for e in page.evaluate("""[...document.querySelectorAll('#moves li')].map(li =>
        [li.innerText.replace(/\\s+/g, ' ').trim(), [...li.querySelectorAll('a')].map(a => a.dataset.ply).join(' ')])""")]


def test_the_move_list_reads_each_turn_as_the_terminals_replay(page, live_server):
    # §4 writes a turn as its set of discs: the list read "i9, end" and "a1, a9" (one entry per
    # engine action) where `abstracta replay` prints "1. i9" and "2. a1+a9"; now it is the
    # server's text of each turn (view.move_list). A click on a turn written whole goes to its
    # end; the stepper still steps through its actions, the turn's entry marked meanwhile
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    record = {"format": "abstracta-record", "version": 1, "game": "nibble", "options": {"first_player": 0},
              "seed": 1, "start": None, "players": [], "moves": ["i9", "end", "a1+a9", "b1", "end", "i8+h9"]}
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record, "seats": ["human", "human"]})
    assert view["moves"][:6] == ["i9", "end", "a1", "a9", "b1", "end"]
    last = view["ply"]
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function(WAIT_HUMAN)
    # two players: a round a row, as chess lists moves; the status names the round
    assert list_entries(page) == [("1. P1 i9 P2 a1+a9", "2 4"), ("2. P1 b1 P2 i8+h9", f"6 {last}")]
    # a turn written whole: its end, "after a1+a9", not "after a9"
    page.click("#moves a[data-ply='4']")
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Replay: round 1 of 2')")
    assert page.locator("#status").inner_text() == "Replay: round 1 of 2, after a1+a9"
    assert page.locator("#step-at").text_content() == "1 / 2"  # the list's rounds, not the actions
    assert page.locator("#moves a.at").inner_text() == "a1+a9"
    assert page.locator("[data-cell='a1']").get_attribute("data-disc") is None
    # one action back: a1 taken, a9 not yet; still inside the turn the list writes as a1+a9
    page.click("#step-back")
    page.wait_for_function("() => document.getElementById('step-at').dataset.ply === '3'")
    assert page.locator("#status").inner_text() == "Replay: round 1 of 2, after a1 — step 1 of 2 of this turn"
    assert page.locator("[data-cell='a9']").get_attribute("data-disc") == "G"
    assert page.locator("#moves a.at").inner_text() == "a1+a9"
    # a one-disc turn ended by `end`: one entry, b1, at the end
    page.click("#moves a[data-ply='6']")
    page.wait_for_function("() => document.getElementById('step-at').dataset.ply === '6'")
    assert page.locator("#status").inner_text() == "Replay: round 2 of 2, after b1"
    assert "end" not in page.locator("#moves").inner_text()
    assert not errors
