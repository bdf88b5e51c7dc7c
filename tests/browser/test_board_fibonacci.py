"""Fibonacci's board module draws the structured view and plays by clicks (fibonacci/web/board.js):
a piece, then one of its group's destinations (a swap included), pass, a Go placement and a
card-variant turn; the opponents' last turn is marked. Screenshots at desktop and phone width."""

from __future__ import annotations

from httputil import get_json, post_json


def import_start(page, server, start=None, options=None, seed=None, moves=()) -> str:
    record = {"format": "abstracta-record", "version": 1, "game": "fibonacci", "options": options or {},
              "seed": seed, "start": start, "players": [], "moves": list(moves)}
    view = post_json(f"{server.url}/api/matches/import", {"record": record, "seats": None})
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    handover(page)
    return view["id"]


def handover(page) -> None:
    """Two people at one device in the card variant: confirm the hand-over screen."""
    if page.locator("#handover-ok").is_visible():
        page.click("#handover-ok")


def wait_ply(page, ply: int) -> dict:
    page.wait_for_function(f"() => window.abstractaView.ply === {ply} && window.abstractaView.human_to_move")
    handover(page)
    return page.evaluate("window.abstractaView")


def marked(page) -> set[str]:
    """Cells marked as touched by the opponents' turns since the viewer moved (struct.recent)."""
    return set(page.eval_on_selector_all("[data-cell]:has(.fib-recent)", "els => els.map(e => e.dataset.cell)"))


def test_fibonacci_moves_swaps_and_pass_by_clicks(page, live_server, shots):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    mid = import_start(page, live_server)
    # §8 V1: Red's attackers are one group; each of them may go to the same nine cells
    assert page.locator("[data-cell].fib-src").count() == 12
    assert page.locator("svg.board text[data-piece='C']").count() == 2
    page.click("[data-cell='a5']")
    assert page.locator("[data-cell].fib-dest").count() == 9
    assert page.locator("[data-cell].fib-group").count() == 6  # the whole snake, a5 included
    assert page.locator("#fib-cancel").is_visible()
    page.click("[data-cell='a6']")  # a swap with the own core
    view = wait_ply(page, 1)
    assert view["moves"] == ["a5-a6"]
    assert view["position"].split()[0].endswith("/5A1/AAAACA")
    # Green's turn (2 moves): the Red move is marked, a swap arrow drawn
    assert marked(page) == {"a5", "a6"}
    assert page.locator(".fib-arrow").count() == 1
    info = page.locator(".fib-info").inner_text()
    assert "Turn 2" in info and "2 moves left" in info
    page.click("[data-cell='k7']")
    page.click("[data-cell='i5']")
    view = wait_ply(page, 2)
    assert view["struct"]["turn"]["actions"] == ["k7-i5"] and view["struct"]["turn"]["left"]["moves"] == 1
    page.click("#pass")
    view = wait_ply(page, 3)
    assert view["moves"] == ["a5-a6", "k7-i5", "pass"]
    assert view["struct"]["to_move"] == 0 and view["struct"]["turn"]["left"]["moves"] == 3
    # Red sees Green's whole turn marked
    assert marked(page) == {"k7", "i5"}
    # the piece can be deselected; a click on a piece of another group selects that one
    page.click("[data-cell='e8']")
    assert page.locator("[data-cell].fib-dest").count() == 13
    page.click("[data-cell='a1']")
    # the core on a5 now splits Red's attackers: a1…a4 go to b1…b5 or swap with the core
    assert page.locator("[data-cell].fib-dest").count() == 6
    page.click("#fib-cancel")
    assert page.locator("[data-cell].fib-dest").count() == 0
    assert get_json(f"{live_server.url}/api/matches/{mid}/record")["moves"] == ["a5-a6", "k7-i5", "pass"]
    page.screenshot(path=str(shots / "fibonacci-board.png"), full_page=True)
    page.click("[data-cell='b6']")
    page.screenshot(path=str(shots / "fibonacci-board-selected.png"), full_page=True)
    assert not errors, errors


def test_fibonacci_winning_move_by_clicks(page, live_server, shots):
    # §8 V3: d5-e6 surrounds the Green core on f6
    import_start(page, live_server, start="saaaaa/1a5/8/9/4AA4/4AcA4/4A5/4A4/8/7/S4C R 2 13")
    assert page.locator("[data-threat='f6']").count() == 5  # Red attackers already on f6's ring
    page.click("[data-cell='d5']")
    assert page.locator("[data-cell='f6'].fib-dest").count() == 1
    page.click("[data-cell='e6']")
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    view = page.evaluate("window.abstractaView")
    assert view["result"] == [1.0, -1.0]
    assert view["struct"]["end"]["reason"] == "surrounded"
    assert "Green's core on f6 is surrounded by six Red attackers" in page.locator("#result").inner_text()
    assert page.locator("[data-cell].fib-win").count() == 7  # the ring and the core
    page.screenshot(path=str(shots / "fibonacci-win.png"), full_page=True)


def test_fibonacci_go_placement_by_clicks(page, live_server, shots):
    import_start(page, live_server, options={"variant": "go"})
    assert page.locator("[data-cell].fib-place").count() == 91
    assert "Placement 1 of 26" in page.locator(".fib-info").inner_text()
    page.click("[data-cell='e5']")
    view = wait_ply(page, 1)
    assert view["moves"] == ["S@e5"]
    assert page.locator("[data-cell].fib-place").count() == 90
    page.click("[data-cell='g7']")
    view = wait_ply(page, 2)
    assert view["moves"] == ["S@e5", "S@g7"]
    cells = {c["id"]: c["piece"] for c in view["struct"]["board"]["cells"]}
    assert cells["g7"] == {"seat": 1, "kind": "support", "letter": "s", "group": 1}
    # a faint piece of the type to place follows the pointer (Red's third support)
    page.hover("[data-cell='c3']")
    page.wait_for_function("() => getComputedStyle(document.querySelector(\"[data-cell='c3'] .fib-ghost\")).opacity === '0.5'")
    assert page.locator("svg.board text[data-piece]").count() == 2  # ghosts are not pieces
    page.screenshot(path=str(shots / "fibonacci-go.png"), full_page=True)


def test_fibonacci_cards_turn_by_clicks(page, live_server, shots):
    mid = import_start(page, live_server, options={"variant": "cards"}, seed=5)
    view = page.evaluate("window.abstractaView")
    card = view["struct"]["board"]["cards"]["card"]
    assert view["struct"]["turn"]["left"]["moves"] == card
    assert page.locator("[data-card='current'] text").text_content() == str(card)
    assert page.locator("[data-pile='0'] text").text_content() == "11"
    page.click("[data-cell='b6']")
    page.click("[data-cell='c7']")
    view = wait_ply(page, 1)
    assert view["moves"] == ["b6-c7"]
    if card > 1:
        page.click("#pass")
        view = wait_ply(page, 2)
    assert view["struct"]["to_move"] == 1
    assert view["struct"]["board"]["cards"]["piles"] == [11, 11]
    assert "?" in view["position"] and "rng" not in str(view["struct"])
    page.screenshot(path=str(shots / "fibonacci-cards.png"), full_page=True)
    assert get_json(f"{live_server.url}/api/matches/{mid}")["ply"] == view["ply"]


def test_fibonacci_board_on_a_phone(browser, live_server, shots):
    view = post_json(f"{live_server.url}/api/matches", {"game": "fibonacci", "options": {}, "seats": ["human", "human"]})
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        page.wait_for_selector("#board svg [data-cell='a5']")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.tap("[data-cell='a5']")
        page.tap("[data-cell='b5']")
        page.wait_for_function("() => window.abstractaView.ply === 1")
        page.tap("[data-cell='j6']")
        box = page.locator("#board").bounding_box()
        assert box["width"] <= 390
        page.screenshot(path=str(shots / "fibonacci-phone.png"), full_page=True)
    finally:
        context.close()


def test_fibonacci_cards_board_on_a_phone(browser, live_server, shots):
    view = post_json(f"{live_server.url}/api/matches", {"game": "fibonacci", "options": {"variant": "cards", "seed": 4},
                                                         "seats": ["human", "level:1"]})
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        # a phone shows the card and the piles in a row above the board (its corners pan away)
        page.wait_for_selector("#board [data-strip='current']")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.locator("[data-pile='1'] text").text_content() == "12"  # Green's card is not drawn yet
        assert page.locator("[data-strip='pile1'] .fib-mini").inner_text() == "12"
        page.screenshot(path=str(shots / "fibonacci-cards-phone.png"), full_page=True)
    finally:
        context.close()



def test_fibonacci_cards_finished_replay_shows_the_piles(page, live_server, shots):
    """While the game runs nobody sees the order of the draw piles; once it is over its replay
    turns each pile's next card up and names the next few (the server's revealed view)."""
    from abstracta import load_game

    mid = import_start(page, live_server, options={"variant": "cards"}, seed=5)
    assert page.locator("[data-pile-next]").count() == 0
    assert page.locator("[data-pile='0'] text").text_content() == "11"  # face down: the size
    post_json(f"{live_server.url}/api/matches/{mid}/resign", {"seat": 0})
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    state = load_game("fibonacci", variant="cards", seed=5).new_initial_state()
    red, green = state.piles
    assert page.locator("[data-pile='0']").get_attribute("data-next") == str(red[0])
    assert page.locator("[data-pile='0'] text").text_content() == str(red[0])
    assert page.locator("[data-pile-next='0']").text_content() == "next: " + " ".join(map(str, red[:3])) + " …"
    assert page.locator("[data-pile='1'] text").text_content() == str(green[0])
    page.screenshot(path=str(shots / "fibonacci-cards-over.png"), full_page=True)


def test_fibonacci_cards_piles_in_sight_on_a_phone(browser, live_server, shots):
    # the board panned sideways on a phone and its corners, where the card and the piles are drawn,
    # were cut off ("d's pile") until one swiped: the card and both piles are in sight at once
    view = post_json(f"{live_server.url}/api/matches", {"game": "fibonacci", "options": {"variant": "cards", "seed": 4},
                                                         "seats": ["human", "level:1"]})
    shown = """() => [...document.querySelectorAll('#board text, #board [data-strip] *')]
        .filter(e => e.getBoundingClientRect().width > 0 && /pile|card/.test(e.textContent))
        .map(e => { const r = e.getBoundingClientRect(); return [e.textContent, r.left, r.right]; })"""
    for width in (390, 360):
        context = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=True, has_touch=True)
        try:
            page = context.new_page()
            page.goto(f"{live_server.url}/#/match/{view['id']}")
            page.wait_for_selector("#board svg [data-card='current']", state="attached")
            page.wait_for_timeout(300)  # the frame is scrolled to the middle after a frame
            labels = page.evaluate(shown)
            for who in ("Red's pile", "Green's pile", "Red's card"):
                assert any(text == who for text, _, _ in labels), (who, labels)
            assert all(0 <= left and right <= width for _, left, right in labels), labels
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(shots / f"fibonacci-cards-piles-{width}.png"))
        finally:
            context.close()

# --- see what happened, effects in words, keyboard, phone (the UX issues) -----------------------
def computer_match(page, server, *, variant="standard", level=1) -> str:
    """A new game, the person Red against the computer at ``level`` as Green."""
    view = post_json(f"{server.url}/api/matches", {"game": "fibonacci", "options": {"variant": variant},
                                                   "seats": ["human", f"level:{level}"]})
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    return view["id"]


def after_computer_turn(page) -> dict:
    """Red plays b6-c7 by clicks; Green (the computer, 2 moves) answers; Red to move again."""
    page.click("[data-cell='b6']")
    page.click("[data-cell='c7']")
    page.wait_for_function("() => window.abstractaView.ply >= 2 && window.abstractaView.human_to_move")
    return page.evaluate("window.abstractaView")


def test_fibonacci_computer_turn_marked_move_by_move(page, live_server, shots):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for _ in range(4):  # level 1 plays random legal actions: rarely a pass ends its turn early
        computer_match(page, live_server)
        view = after_computer_turn(page)
        green = view["moves"][1:]
        if "pass" not in green:
            break
    assert view["struct"]["recent"][-1]["actions"] == green
    played = [m for m in green if m != "pass"]
    assert len(played) >= 2, green  # Green's turn 2 has two moves
    # every move of the computer's turn: its two cells outlined, an arrow numbered in playing order
    steps = page.eval_on_selector_all(".fib-step", "els => els.map(e => [e.dataset.step, e.dataset.from, e.dataset.to])")
    assert steps == [[str(i + 1), *m.split("-")] for i, m in enumerate(green) if m != "pass"]
    assert [page.locator(f".fib-step[data-step='{i + 1}'] .fib-num text").text_content() for i in range(len(played))] == \
        [str(i + 1) for i in range(len(played))]
    assert marked(page) == {c for m in played for c in m.split("-")}
    # the board's text alternative says it in words
    text = page.locator("#board-text").text_content()
    assert "Turn 3: Red to move, 3 moves left." in text
    assert "Green's last turn: 1. Green " in text and "2. Green " in text
    assert not errors, errors


#: the board's own animations (scripted slides and fades; not the shell's or hover transitions)
SLIDES = "document.getAnimations().filter(a => a.constructor === Animation)"


def test_fibonacci_moves_are_animated_unless_reduced_motion(page, live_server):
    def opponent_turn(mid):
        """Red's move, then Green's whole turn of two moves in one request (as a computer's turn
        arrives): the page gets the new positions pushed."""
        post_json(f"{live_server.url}/api/matches/{mid}/actions", {"action": "b6-c7", "ply": 0})
        page.wait_for_function("() => window.abstractaView.ply === 1")
        post_json(f"{live_server.url}/api/matches/{mid}/actions", {"actions": ["k7-i5", "e4-e5"], "ply": 1})

    mid = import_start(page, live_server)
    opponent_turn(mid)
    # both moves slide, one after the other (each piece and each numbered arrow has its animation)
    page.wait_for_function("() => document.querySelector('#board svg').dataset.animSteps === '2' && "
                           + SLIDES + ".some(a => a.playState === 'running')")
    timing = page.evaluate(SLIDES + "[0].effect.getTiming().duration")
    assert 400 <= timing <= 1500
    # a click during an animation finishes it at once (and acts: here it selects a piece)
    page.click("[data-cell='e8']")
    assert page.evaluate(SLIDES + ".filter(a => a.playState === 'running').length") == 0
    assert page.locator("[data-cell].fib-dest").count() == 13
    assert page.evaluate("window.abstractaView.ply") == 3

    page.emulate_media(reduced_motion="reduce")
    mid = import_start(page, live_server)
    opponent_turn(mid)
    page.wait_for_function("() => window.abstractaView.ply === 3")
    assert page.locator("#board svg").get_attribute("data-anim-steps") == "0"
    assert page.evaluate(SLIDES + ".length") == 0
    assert page.locator(".fib-step").count() == 2  # the marks stay


def test_fibonacci_played_by_keyboard_only(page, live_server, shots):
    mid = import_start(page, live_server)
    page.focus("#board")
    assert "arrow keys" in page.locator("#board").get_attribute("aria-label").lower()
    # the cursor starts on the first piece that can move (a1) and is visible while the board has the focus
    assert page.locator(".fib-cursor").get_attribute("data-at") == "a1"
    assert page.locator(".fib-cursor").is_visible()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.locator(".fib-cursor").get_attribute("data-at") == "a3"
    assert page.locator("#board-say").text_content().startswith("a3: Red attacker, can move")
    page.keyboard.press("Enter")  # select a3
    assert page.locator("[data-cell].fib-dest").count() == 9
    assert "Red attacker on a3 selected; it can go to 9 cells: a6 (swap with Red core), b1" in \
        page.locator("#board-say").text_content()
    page.keyboard.press("Escape")
    assert page.locator("[data-cell].fib-dest").count() == 0
    assert page.locator("#board-say").text_content() == "Selection cancelled."
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowUp")  # a3 (x 2.5) has b3 (x 2) and b4 (x 3) above it: the left one on a tie
    cell = page.locator(".fib-cursor").get_attribute("data-at")
    assert cell == "b3"
    page.keyboard.press("ArrowUp")  # c4 (x 2.5): back on a3's column
    assert page.locator(".fib-cursor").get_attribute("data-at") == "c4"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # a3 → that cell
    view = wait_ply(page, 1)
    assert view["moves"] == [f"a3-{cell}"]
    # Green (a person on this device) answers with the hex keys W E / A D / Z X; the cursor
    # stayed where Red left it (kept across re-renders)
    page.focus("#board")
    assert page.locator(".fib-cursor").get_attribute("data-at") == cell
    target = "j6"
    for _ in range(30):
        now = page.locator(".fib-cursor").get_attribute("data-at")
        if now == target:
            break
        r, c = ord(now[0]) - 96, int(now[1:])
        tr, tc = ord(target[0]) - 96, int(target[1:])
        page.keyboard.press("w" if tr > r and tc == c else "e" if tr > r else "x" if tr < r and tc == c else
                            "z" if tr < r else "d" if tc > c else "a")
    assert page.locator(".fib-cursor").get_attribute("data-at") == target
    page.keyboard.press(" ")  # Space selects j6
    page.keyboard.press("e")  # up-right: k7
    page.keyboard.press("x")  # down-right: j7
    assert page.locator(".fib-cursor").get_attribute("data-at") == "j7"
    assert page.locator(".fib-cursor").is_visible()
    page.locator("#board").screenshot(path=str(shots / "fibonacci-keyboard.png"))
    page.keyboard.press("Enter")  # j6-j7: a Green attacker leaves the snake
    view = wait_ply(page, 2)
    assert view["moves"][-1] == "j6-j7"
    assert get_json(f"{live_server.url}/api/matches/{mid}/record")["moves"] == view["moves"]
    # Tab reaches the Pass button, Enter there ends Green's turn
    page.focus("#board")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "pass"
    page.keyboard.press("Enter")
    view = wait_ply(page, 3)
    assert view["moves"][-1] == "pass" and view["struct"]["to_move"] == 0


def test_fibonacci_board_text_after_a_move(page, live_server):
    import_start(page, live_server)
    assert page.locator("#board-text").text_content() == "Turn 1: Red to move, 1 move left."
    page.click("[data-cell='a5']")
    page.click("[data-cell='a6']")
    wait_ply(page, 1)
    assert page.locator("#board-text").text_content() == (
        "Turn 2: Green to move, 2 moves left. "
        "Red's last turn: Red attacker a5→a6, swapping with Red's core (now on a5).")


def test_fibonacci_board_text_at_the_end(page, live_server):
    import_start(page, live_server, start="saaaaa/1a5/8/9/4AA4/4AcA4/4A5/4A4/8/7/S4C R 2 13")
    page.click("[data-cell='d5']")
    page.click("[data-cell='e6']")
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    text = page.locator("#board-text").text_content()
    assert text.startswith("Game over: Red wins. Green's core on f6 is surrounded by six Red attackers.")
    assert "Red's last turn: Red attacker d5→e6." in text


def test_fibonacci_tap_targets_on_a_360px_phone(browser, live_server, shots):
    view = post_json(f"{live_server.url}/api/matches", {"game": "fibonacci", "options": {}, "seats": ["human", "human"]})
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        page.wait_for_selector("#board svg [data-cell='a5']")
        page.tap("[data-cell='a5']")  # a selection shows the Cancel and Pass buttons too
        assert page.locator("#fib-cancel").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        # the whole board in sight at first (cells of 27 px); "Larger cells" enlarges them
        assert page.evaluate("(f => f.scrollWidth <= f.clientWidth)(document.querySelector('.fib-scroll'))")
        assert 27 <= page.evaluate("document.querySelector('[data-cell=e5]').getBoundingClientRect().width") < 28
        page.tap("#board button[data-zoom]")
        assert page.locator("#board button[data-zoom]").inner_text() == "Whole board"
        assert page.locator(".fib-zoomline").inner_text().startswith("◀ Swipe the board sideways")
        page.wait_for_timeout(100)  # the frame is centred after a frame
        # every cell (each a tap target) and every board button: at least 40 × 40 CSS px
        boxes = page.eval_on_selector_all(
            "#board [data-cell], #controls button",
            "els => els.map(e => { const r = e.getBoundingClientRect(); return [e.dataset.cell || e.id, r.width, r.height]; })")
        assert len(boxes) == 91 + 2  # the cells, Cancel and Pass
        small = [b for b in boxes if b[1] < 40 or b[2] < 40]
        assert not small, small
        # the board pans sideways inside its own frame, which starts centred
        frame = page.evaluate("(() => { const f = document.querySelector('.fib-scroll');"
                              " return [f.scrollWidth, f.clientWidth, f.scrollLeft]; })()")
        assert frame[0] > frame[1] and 0 < frame[2] < frame[0] - frame[1]
        page.tap("[data-cell='b5']")
        page.wait_for_function("() => window.abstractaView.ply === 1")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()


def test_fibonacci_screenshots_1280_and_390(browser, live_server, shots):
    for width, height in ((1280, 900), (390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 500,
                                      has_touch=width < 500)
        try:
            page = context.new_page()
            page.emulate_media(reduced_motion="reduce")  # the final position, not a frame of a slide
            computer_match(page, live_server)
            after_computer_turn(page)
            page.click("[data-cell='e8']")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(shots / f"fibonacci-{width}.png"), full_page=True)
        finally:
            context.close()


def test_fibonacci_drawn_at_the_turn_limit_says_it_ended_in_turn_300(page, live_server):
    # turn 300 ends with Green's pass: the rules count on to 301, a turn nobody plays
    record = {"format": "abstracta-record", "version": 1, "game": "fibonacci", "options": {}, "seed": None,
              "start": "caaaaa/1a5/8/8S/2s3SSS1/3s3S3/1sss3S2/s8/8/5A1/AAAAAC G 6 300", "players": [],
              "moves": ["pass"], "result": [0.0, 0.0], "termination": "normal"}
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record, "seats": None})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.status === 'over'")
    assert page.locator("#result").inner_text() == "Draw. Turn 300 ended without a winner: a draw."
    assert page.locator("#controls").inner_text().strip() == "Ended in turn 300."


def test_fibonacci_go_move_list_numbers_the_turns_as_the_board_does(page, live_server):
    # the 26 placements are no turns (fibonacci.md §9.3: movement starts at turn 1): the list
    # numbered them and said "38." beside a board saying "Turn 13"; now the placements go
    # unnumbered, and the turns 1-12 are rounds 1-6 of two turns each, as chess numbers its
    # moves (the 12th turn, Green's, ends round 6; each turn's own number in its tooltip), and
    # the replay says which round a step is in
    import random

    import abstracta

    game = abstracta.load_game("fibonacci", variant="go")
    state, moves, rng = game.new_initial_state(), [], random.Random(1)
    while state.to_struct(None)["board"]["t"] < 13:
        action = rng.choice(state.legal_actions())
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    import_start(page, live_server, options={"variant": "go"}, moves=moves)
    assert "Turn 13: Red" in page.locator(".fib-info").inner_text()
    numbers = [n for n in page.locator("ol.moves li .n").all_inner_texts() if n]
    assert numbers == [f"{n}." for n in range(1, 7)]
    assert page.locator("ol.moves li").count() == 26 // 2 + 12 // 2  # the placements paired too, unnumbered
    assert page.locator("ol.moves li.pair:last-child .turn").evaluate_all("ts => ts.map(t => t.title)") == \
        ["Red, turn 11", "Green, turn 12"]
    page.locator("ol.moves a[data-ply='5']").click()
    page.wait_for_function("() => document.getElementById('step-at').dataset.ply === '5'")
    assert page.locator("#status").inner_text() == f"Replay: after {moves[4]}, before the first turn"
    assert page.locator("#step-at").text_content() == "0 / 6"  # the placements go unnumbered, as in the list
    page.locator("ol.moves a[data-ply='27']").click()
    page.wait_for_function("() => document.getElementById('step-at').dataset.ply === '27'")
    assert page.locator("#status").inner_text() == f"Replay: round 1 of 6, after {moves[26]}"
    assert page.locator("#step-at").text_content() == "1 / 6"
    page.locator("button[aria-label='start']").click()
    page.wait_for_function("() => document.querySelector('#status').textContent === 'Replay: the start, before round 1 of 6'")
