"""Slide Checkers in the browser: the board module draws the structured view (view.py) and is
played by clicks on it — placement, a slide, a launched jump with its remove/exchange
choice, a compulsory continuation, a jump back onto the start square — or by the keyboard
alone, marks every step of every other seat's turns since the viewer last moved, animates live
moves (not with reduced motion), says the position in words (#board-text), shows the whole
board on a phone with finger-sized squares a tap away ("Larger squares"), and is photographed at 1280 and 390 px (slide_checkers-1280.png,
slide_checkers-390.png in the ``shots`` folder)."""

from __future__ import annotations

from httputil import get_json, post_json


def import_start(page, server, start: str, options=None, moves=(), seats=None) -> str:
    """A match from the position text ``start`` (slide-checkers.md §6) and ``moves``, shown;
    people at every seat unless ``seats`` says otherwise."""
    record = {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "options": options or {},
              "seed": None, "start": start, "players": [], "moves": list(moves)}
    view = post_json(f"{server.url}/api/matches/import", {"record": record, "seats": seats})
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    page.wait_for_selector("svg.sc-board")
    return view["id"]


def wait_ply(page, ply: int) -> dict:
    page.wait_for_function(f"() => window.abstractaView.ply === {ply} && window.abstractaView.human_to_move")
    page.wait_for_selector("svg.sc-board")
    return page.evaluate("window.abstractaView")


def squares_with(page, selector: str) -> list[str]:
    """Names of the squares whose drawing holds ``selector`` (e.g. a target dot)."""
    return sorted(page.eval_on_selector_all(
        f"[data-square]:has({selector})", "gs => gs.map(g => g.dataset.square)"))


def test_jump_choice_continuation_and_recent(page, live_server, shots):
    # slide-checkers.md §7 example 6: e4 slides to f4 and jumps g4 to h4, then must go on to j4
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    mid = import_start(page, live_server, "Bg4,Bi4,Bl12,Ge4 M G")
    assert squares_with(page, ".sc-dest") == []  # nothing to pick before a piece is chosen
    page.click("[data-square='e4']")
    assert squares_with(page, ".sc-piece.sel") == ["e4"]
    assert squares_with(page, ".sc-transit") == ["d5", "f4"]  # §7.3's transit set, from the view
    assert squares_with(page, ".sc-dest.jump") == ["h4"]
    page.click("[data-square='h4']")
    assert squares_with(page, ".sc-over") == ["g4"]
    assert page.locator("[data-choice]").evaluate_all("bs => bs.map(b => b.textContent)") == [
        "Exchange the piece on g4 (from f4)", "Remove the piece on g4 (from f4)"]
    page.click("[data-choice='e4>f4*h4r']")
    view = wait_ply(page, 1)
    assert view["struct"]["choices"]["kind"] == "continue"
    # the chain's piece is selected for the person; only its landing square is offered
    assert squares_with(page, ".sc-piece.chain") == ["h4"]
    assert squares_with(page, ".sc-dest") == ["j4"]
    assert "must jump on with the piece on h4" in page.locator("#controls").inner_text()
    page.click("[data-square='j4']")
    page.click("[data-choice='*j4e']")
    view = wait_ply(page, 2)
    assert view["position"] == "Bl12,Gi4,Gj4 M B"
    assert view["moves"] == ["e4>f4*h4r", "*j4e"]
    # Blue sees Green's whole turn: the squares it touched and the piece it removed
    assert squares_with(page, ".sc-recent") == ["e4", "f4", "h4", "i4", "j4"]
    assert squares_with(page, ".sc-gone") == ["g4"]
    page.screenshot(path=str(shots / "slide-checkers-recent.png"))
    # Blue slides l12 through its own squares: l12 -> k12 is a B square, j11 is reached from it
    page.click("[data-square='l12']")
    assert "k12" in squares_with(page, ".sc-transit")
    page.click("[data-square='j11']")
    view = wait_ply(page, 3)
    assert view["position"] == "Bj11,Gi4,Gj4 M G nj=1"
    assert get_json(f"{live_server.url}/api/matches/{mid}/record")["moves"] == ["e4>f4*h4r", "*j4e", "l12-j11"]
    # replaying: the board draws the struct of the earlier ply, and nothing is clickable
    page.click("#step-back")
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Replay')")
    assert squares_with(page, ".sc-piece") == ["i4", "j4", "l12"]
    assert page.locator("svg.sc-board .clickable").count() == 0
    assert not errors, errors


def test_placement_by_clicks(page, live_server):
    # §7.2: G has 24 squares to place on; after @e4, B may not use f3 or f5 (they touch e4)
    view = post_json(f"{live_server.url}/api/matches", {"game": "slide-checkers", "options": {}, "seats": ["human", "human"]})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_selector("svg.sc-board")
    assert len(squares_with(page, ".sc-dest")) == 24
    page.click("[data-square='e4']")
    wait_ply(page, 1)
    dests = squares_with(page, ".sc-dest")
    assert len(dests) == 22 and "f3" not in dests and "f5" not in dests and "b6" in dests
    page.click("[data-square='b6']")
    view = wait_ply(page, 2)
    assert view["position"] == "Bb6,Ge4 P:6/6 G"


def test_launched_jump_back_onto_the_start_square(page, live_server):
    # c4 may slide to e4 and jump d4 back onto c4: a click on the selected piece offers it
    import_start(page, live_server, "Bd4,Gc4 M G")
    page.click("[data-square='c4']")
    assert squares_with(page, ".sc-dest.jump") == ["c4", "d3", "e4"]
    page.click("[data-square='c4']")
    page.click("[data-choice='c4>e4*c4r']")
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    view = page.evaluate("window.abstractaView")
    assert view["moves"] == ["c4>e4*c4r"] and view["position"] == "Gc4 M G"
    assert "Only Green pieces are left on the board" in page.locator("#result").inner_text()


def test_phone_width(browser, live_server, shots):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        # §7.5: the slide-then-jump position, with the piece chosen and a choice pending
        import_start(page, live_server, "Be8,Gc9 M G")
        page.click("[data-square='c9']")
        page.click("[data-square='f8']")
        assert page.locator("[data-choice='c9>d8*f8r']").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # the whole board in sight, its twelve files as wide as the board box lets them (28 px)
        box = page.locator(".sc-scroll").bounding_box()
        assert box["width"] <= 390 and box["height"] >= 300
        assert page.evaluate("(s => s.scrollWidth <= s.clientWidth)(document.querySelector('.sc-scroll'))")
        assert page.locator("[data-square='l1'] .sc-sq").bounding_box()["x"] + 28 <= 390
        assert 28 <= page.locator("[data-square='a1'] .sc-sq").bounding_box()["width"] < 29
        page.screenshot(path=str(shots / "slide-checkers-phone.png"), full_page=True)
        page.click("[data-choice='c9>d8*f8r']")
        page.wait_for_function("() => window.abstractaView.status === 'over'")
        assert page.evaluate("window.abstractaView.position") == "Gf8 M G"
    finally:
        context.close()


def test_four_players(page, live_server, shots):
    # the description's 4-player position: Green and Blue are out, Red moves a piece by clicks
    import_start(page, live_server, "Rb6,Rg2,Rg4,Rh3,Rl2,Ya11,Yb12,Yj12,Yl6,Yl12 M R nj=1", options={"players": 4})
    # pieces in the seats' colours from the description (Red, Yellow)
    assert page.get_attribute("[data-square='b6'] .sc-piece", "fill") == "#c8322b"
    assert page.get_attribute("[data-square='a11'] .sc-piece", "fill") == "#d9b80f"
    assert "1 of 100 turns without a jump" in page.locator(".sc-legend").inner_text()
    # seats that are out are shown as out (struck through in the legend, their squares' marks faint)
    out = [t.strip() for t in page.locator(".sc-legend .sc-out").all_inner_texts()]
    assert out == ["Green: out · own squares", "Blue: out · own squares"]
    assert "Red: 5 pieces · own squares" in page.locator(".sc-legend").inner_text()
    assert page.get_attribute("[data-square='e4'] .sc-mark", "opacity") == "0.3"  # a Green square
    # a calm board: no letters on the squares; every piece has its contrast ring
    assert page.locator("svg.sc-board [data-square] text").count() == 0
    assert page.locator("svg.sc-board .sc-ring").count() == page.locator("svg.sc-board .sc-piece").count() == 10
    page.click("[data-square='g2']")
    page.click("[data-square='g1']")
    view = wait_ply(page, 1)
    assert view["moves"] == ["g2-g1"] and view["struct"]["to_move"] == 3
    page.screenshot(path=str(shots / "slide-checkers-4p.png"))


# --- what happened, in marks, motion and words; keyboard; phone; screenshots -----------------------------
# A 3-player game (random playout, seed 6) where Blue and Red each jumped twice since Green moved
THREE_START = "- P:5/5/5 G"
THREE_MOVES = ["@i4", "@b7", "@f9", "@f4", "@b6", "@a2", "@d8", "@l6", "@f11", "@e4", "@k12", "@b1", "@g2",
               "@j2", "@k8", "d8>e8*g10r", "*e12e", "b7-b10", "b1>a6*c6e", "e4>d5*b7e", "*b5r", "b10>b6*d6e",
               "a2>c4*a6r", "f4>d5*b7e", "d6*b6r", "*b8e", "a6*c8e", "*a8r"]
SEAT_COLOURS = {"G": "#2f8a3e", "B": "#2f64c8", "R": "#c8322b"}


def arrows(page) -> list[tuple[str, str]]:
    """(step action, stroke colour) of every arrow the board draws for the recent turns."""
    return [tuple(a) for a in page.eval_on_selector_all(
        "svg.sc-board .sc-arrow", "as => as.map(a => [a.dataset.step, a.getAttribute('stroke')])")]


def watch_animation(page) -> None:
    """Count the animation overlays the board adds from now on (window.scAnimSeen)."""
    page.evaluate("""() => {
        window.scAnimSeen = 0;
        new MutationObserver(ms => { for (const m of ms) for (const n of m.addedNodes)
            if (n.classList && n.classList.contains('sc-anim')) window.scAnimSeen++; })
          .observe(document.getElementById('board'), {childList: true, subtree: true});
    }""")


def cursor_to(page, square: str) -> None:
    """Walk the board's keyboard cursor to ``square`` with the arrow keys."""
    here = page.get_attribute("svg.sc-board", "data-cursor")
    dx = ord(square[0]) - ord(here[0])
    dy = int(square[1:]) - int(here[1:])
    for _ in range(abs(dx)):
        page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
    for _ in range(abs(dy)):
        page.keyboard.press("ArrowUp" if dy > 0 else "ArrowDown")
    assert page.get_attribute("svg.sc-board", "data-cursor") == square


def test_three_players_both_opponents_turns_marked(page, live_server):
    # Green (a person) slides; Blue and Red (the computer) answer; Green sees both whole turns
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    import_start(page, live_server, "Bl12,Ge4,Ra1 M G", options={"players": 3}, seats=["human", "level:1", "level:1"])
    page.click("[data-square='e4']")
    page.click("[data-square='g5']")
    view = wait_ply(page, 3)
    recent = view["struct"]["recent"]
    assert [t["seat"] for t in recent] == [1, 2]
    page.wait_for_selector("svg.sc-board .sc-anim", state="detached")
    marks = arrows(page)
    assert [a for a, _ in marks] == [s["action"] for t in recent for s in t["steps"]]
    assert [c for _, c in marks] == [SEAT_COLOURS["B"], SEAT_COLOURS["R"]]  # each seat in its own colour
    for t in recent:  # every square each step touched is outlined in the mover's colour
        for s in t["steps"]:
            for sq in s["touched"]:
                stroke = page.get_attribute(f"[data-square='{sq}'] .sc-recent", "stroke")
                assert stroke == SEAT_COLOURS["BR"[t["seat"] - 1]]
    # the turns in words under the board and in the text alternative
    words = [s["text"] for t in recent for s in t["steps"]]
    assert page.locator(".sc-last li").all_inner_texts() == words
    text = page.locator("#board-text").inner_text()
    assert all(w in text for w in words) and "Green's turn" in text
    assert not errors, errors


def test_three_players_jump_chains_marked_and_screenshots(browser, live_server, shots):
    for width, height in ((1280, 900), (390, 844)):
        phone = width < 500
        context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
        try:
            page = context.new_page()
            page.set_default_timeout(15000)
            import_start(page, live_server, THREE_START, options={"players": 3}, moves=THREE_MOVES)
            # Blue's chain (d6*b6r, *b8e) and Red's (a6*c8e, *a8r): every step marked, in order
            assert arrows(page) == [("d6*b6r", SEAT_COLOURS["B"]), ("*b8e", SEAT_COLOURS["B"]),
                                    ("a6*c8e", SEAT_COLOURS["R"]), ("*a8r", SEAT_COLOURS["R"])]
            assert squares_with(page, ".sc-gone") == ["b8", "c6"]  # taken pieces, where they stood
            assert squares_with(page, ".sc-conv") == ["b7"]  # exchanged twice: Blue took it, then Red
            text = page.locator("#board-text").inner_text()
            assert ("Blue jumps d6→b6 over Green's c6 and removes it, then Blue jumps on b6→b8 over Green's b7 "
                    "and turns it Blue.") in text
            assert ("Red jumps a6→c8 over Blue's b7 and turns it Red, then Red jumps on c8→a8 over Blue's b8 "
                    "and removes it.") in text
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(shots / f"slide_checkers-{width}.png"), full_page=True)
        finally:
            context.close()


def test_animation_and_reduced_motion(page, live_server):
    import_start(page, live_server, "Bl12,Ge4 M G")
    watch_animation(page)
    page.click("[data-square='e4']")
    page.click("[data-square='g5']")
    wait_ply(page, 1)
    # the piece slides from e4 to g5 on an overlay that is gone again within ~1.5 s
    page.wait_for_function("() => window.scAnimSeen > 0", timeout=3000)
    page.wait_for_selector("svg.sc-board .sc-anim", state="detached", timeout=3000)
    assert squares_with(page, ".sc-piece") == ["g5", "l12"]
    assert page.locator("svg.sc-board .sc-hide").count() == 0
    # a click during an animation ends it at once
    watch_animation(page)
    page.click("[data-square='l12']")
    page.click("[data-square='k11']")
    wait_ply(page, 2)
    page.wait_for_function("() => window.scAnimSeen > 0", timeout=3000)
    page.click("[data-square='a1']")
    assert page.locator("svg.sc-board .sc-anim").count() == 0
    # with reduced motion nothing moves: the board shows the new position at once
    page.emulate_media(reduced_motion="reduce")
    watch_animation(page)
    page.click("[data-square='g5']")
    page.click("[data-square='h6']")
    wait_ply(page, 3)
    page.wait_for_timeout(400)
    assert page.evaluate("window.scAnimSeen") == 0
    assert squares_with(page, ".sc-piece") == ["h6", "k11"]


def test_keyboard_only(page, live_server, shots):
    # slide-checkers.md §7 example 6 played with the arrow keys, Enter and the digit keys
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    import_start(page, live_server, "Bg4,Bi4,Bl12,Ge4 M G")
    page.focus("#board")
    assert "Arrow keys" in page.get_attribute("#board", "aria-label")
    cursor_to(page, "e4")
    page.keyboard.press("Enter")
    assert squares_with(page, ".sc-piece.sel") == ["e4"]
    assert "e4 selected" in page.locator("#board-say").inner_text()
    page.keyboard.press("Escape")  # cancel, then select again
    assert squares_with(page, ".sc-piece.sel") == []
    page.keyboard.press(" ")
    cursor_to(page, "h4")
    page.keyboard.press("Enter")
    assert page.locator("svg.sc-board .sc-cursor").is_visible()  # the cursor shows while the board has the keys
    page.screenshot(path=str(shots / "slide-checkers-keyboard.png"))
    assert squares_with(page, ".sc-over") == ["g4"]
    page.keyboard.press("2")  # the second choice: remove (choices follow the legal list: e, r)
    view = wait_ply(page, 1)
    assert view["moves"] == ["e4>f4*h4r"]
    assert squares_with(page, ".sc-piece.chain") == ["h4"]
    cursor_to(page, "j4")
    page.keyboard.press("Enter")
    page.keyboard.press("1")  # exchange
    view = wait_ply(page, 2)
    assert view["position"] == "Bl12,Gi4,Gj4 M B"
    # Blue, on the same device: the cursor stayed on j4 across the re-render; N finds l12
    assert page.get_attribute("svg.sc-board", "data-cursor") == "j4"
    page.keyboard.press("n")
    assert page.get_attribute("svg.sc-board", "data-cursor") == "l12"
    page.keyboard.press("Enter")
    cursor_to(page, "j11")
    page.keyboard.press("Enter")
    view = wait_ply(page, 3)
    assert view["position"] == "Bj11,Gi4,Gj4 M G nj=1"
    assert page.evaluate("document.activeElement.id") == "board"
    assert not errors, errors


def test_board_text_after_a_move(page, live_server):
    # Green's turn in words, its pieces, the compulsory jump; then the selected piece's moves,
    # and after the jump the step in words and the result with its reason
    import_start(page, live_server, "Be8,Gc9,Gl1,Bl12 M G")
    text = page.locator("#board-text").inner_text()
    assert "Green's turn. A jump is compulsory." in text
    assert "Pieces. Green: c9 l1. Blue: e8 l12." in text
    page.click("[data-square='c9']")
    assert page.locator("#board-say").inner_text() == (
        "c9 selected. Jumps to f8 over e8, f7 over e8. Slides through b8, d8, d9.")
    page.click("[data-square='f8']")
    page.click("[data-choice='c9>d8*f8e']")
    page.wait_for_function("() => window.abstractaView.ply === 1")
    page.wait_for_function("() => document.getElementById('board-text').textContent.startsWith('Green slides')")
    text = page.locator("#board-text").inner_text()
    assert text.startswith("Green slides c9→d8, jumps d8→f8 over Blue's e8 and turns it Green. Blue's turn.")
    assert "Pieces. Green: e8 f8 l1. Blue: l12." in text
    # the end and its reason: Blue's last piece is taken (§7.5)
    import_start(page, live_server, "Be8,Gc9 M G")
    page.click("[data-square='c9']")
    page.click("[data-square='f8']")
    page.click("[data-choice='c9>d8*f8r']")
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    text = page.locator("#board-text").inner_text()
    assert text.startswith("Game over: Green wins. Only Green pieces are left on the board.")
    assert "Pieces. Green: f8. Blue: out." in text


def test_tap_targets_at_360(browser, live_server):
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        import_start(page, live_server, "Bg4,Bi4,Bl12,Ge4 M G")
        # the whole board at first, squares of 25 px; "Larger squares" makes them a finger's size
        assert 25 <= page.locator("[data-square='a1'] .sc-sq").bounding_box()["width"] < 26
        assert page.evaluate("(s => s.scrollWidth <= s.clientWidth)(document.querySelector('.sc-scroll'))")
        page.tap("#board button[data-zoom]")
        assert page.locator("#board button[data-zoom]").inner_text() == "Whole board"
        assert page.locator(".sc-zoomline").inner_text().startswith("◀ Swipe the board sideways")
        page.tap("[data-square='e4']")
        page.tap("[data-square='h4']")  # the remove / exchange buttons are shown too
        sizes = page.eval_on_selector_all(
            "svg.sc-board [data-square] .sc-sq, #controls button, #board button",
            "es => es.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })")
        assert len(sizes) == 144 + 3 + 1  # squares, exchange / remove / cancel, whole board
        assert min(w for w, _ in sizes) >= 40 and min(h for _, h in sizes) >= 40, min(sizes)
        # no sideways page scroll; the board area pans by itself
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert page.evaluate("(s => s.scrollWidth > s.clientWidth)(document.querySelector('.sc-scroll'))")
        page.tap("[data-choice='e4>f4*h4r']")
        view = wait_ply(page, 1)
        assert view["moves"] == ["e4>f4*h4r"]
    finally:
        context.close()




def test_the_last_clicks_words_go_when_the_game_ends(page, live_server):
    # the screen reader's message of the last click ("e4 selected. …") stayed in the page
    # after the game had ended, as if a move were still being chosen
    import_start(page, live_server, "Bf4,Ge4 M G")
    page.click("[data-square='e4']")
    say = page.locator("#board-say")
    assert say.text_content().startswith("e4 selected.")
    page.click("[data-square='g4']")  # the jump over Blue's last piece: remove or exchange
    landing = say.text_content()
    assert "g4" in landing and landing != ""  # said while playing, and kept
    page.click("[data-choice='e4*g4r']")
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    assert page.locator("#result").inner_text().startswith("Green wins")
    assert say.text_content() == ""
    # a resignation ends it as well, with a piece selected
    import_start(page, live_server, "Bf4,Bl12,Ge4 M G")
    page.click("[data-square='e4']")
    assert say.text_content().startswith("e4 selected.")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    assert say.text_content() == ""
