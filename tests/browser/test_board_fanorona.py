"""Fanorona's board module (games/fanorona/web/board.js) draws the structured view and is played
by clicks, taps or keys: a stone, then a destination; A/W choices by clicking a stone of the line
to take (or the A / W keys); "End turn" (or E) in a chain; the opponents' whole last turn marked
and animated step by step (not with reduced motion), in words in #board-text; finger-sized
points on a 360 px phone (the 9×5 board turns to portrait). Positions from fanorona.md §6."""

from __future__ import annotations

import contextlib
import time

from httputil import get_json, post_json

EXAMPLE_3 = "...B...../........./..W.BB.../...B...../........B W"  # fanorona.md §6 example 3


def open_match(page, server, start: str | None = None, options=None) -> str:
    """A match of two people on this page (copied from test_browser_games.import_start)."""
    record = {"format": "abstracta-record", "version": 1, "game": "fanorona", "options": options or {},
              "seed": None, "start": start, "players": [], "moves": []}
    view = post_json(f"{server.url}/api/matches/import", {"record": record, "seats": None})
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    page.wait_for_selector("svg.fan-board")
    return view["id"]


def wait_ply(page, ply: int) -> dict:
    page.wait_for_function(f"() => window.abstractaView.ply === {ply} && window.abstractaView.human_to_move")
    page.wait_for_selector("svg.fan-board")
    return page.evaluate("window.abstractaView")


def attrs(page, selector: str, name: str) -> list[str]:
    return sorted(page.eval_on_selector_all(selector, f"els => els.map(e => e.getAttribute('{name}'))"))


def test_chain_choice_by_clicking_a_stone_and_the_last_turn_marked(page, live_server, shots):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    mid = open_match(page, live_server, EXAMPLE_3)
    assert attrs(page, "[data-seat='0']", "data-stone") == ["c3"]
    assert attrs(page, "[data-seat='1']", "data-stone") == ["d2", "d5", "e3", "f3", "i1"]
    assert page.locator(".fan-movable").count() == 1  # only c3 may move (capture is compulsory)
    page.click("[data-point='c3']")
    assert attrs(page, "[data-dest]", "data-dest") == ["b4", "d3"]
    assert page.locator("[data-stone='c3'].fan-sel").count() == 1
    page.click("[data-point='d3']")  # approach only: played at once
    view = wait_ply(page, 1)
    assert view["moves"] == ["c3-d3A"]
    assert view["struct"]["board"]["chain"] == {"stone": "d3", "last": "E", "visited": ["c3", "d3"],
                                                "taken": ["e3", "f3"]}
    # the chain: the stone stays selected, its way so far and the stones taken are drawn, the
    # turn may end
    assert page.locator("[data-stone='d3'].fan-sel").count() == 1
    assert page.locator(".fan-trail").count() == 1 and page.locator(".fan-visited").count() == 1
    assert attrs(page, "[data-taken]", "data-taken") == ["e3", "f3"]
    assert page.locator("#end-turn").is_visible()
    assert attrs(page, "[data-dest]", "data-dest") == ["d4"]
    page.click("[data-point='d4']")  # approach (takes d5) or withdrawal (takes d2): the player picks
    assert page.locator("[data-choice=A]").is_visible() and page.locator("[data-choice=W]").is_visible()
    assert attrs(page, ".fan-capt", "data-stone") == ["d2", "d5"]
    page.screenshot(path=str(shots / "fanorona-board-choice.png"))
    page.click("[data-point='d2']")  # a stone of the withdrawal line
    view = wait_ply(page, 2)
    assert view["moves"] == ["c3-d3A", "d3-d4W"]
    assert view["position"] == "...B...../...W...../........./........./........B B"
    # Black's turn: White's two steps are arrows, the three stones it took dashed rings
    assert page.locator(".fan-recent").count() == 2
    assert attrs(page, "[data-gone]", "data-gone") == ["d2", "e3", "f3"]
    assert page.locator("#end-turn").count() == 0
    page.wait_for_function(f"() => {BOARD_ANIMATIONS} === 0")  # the last step slides in first
    page.screenshot(path=str(shots / "fanorona-board-recent.png"))
    # a paika by clicks: d5 then e5 (a click on an empty point first only deselects)
    page.click("[data-point='d5']")
    assert attrs(page, "[data-dest]", "data-dest") == ["c5", "e5"]
    page.click("[data-point='a1']")
    assert page.locator("[data-dest]").count() == 0
    page.click("[data-point='d5']")
    page.click("[data-point='e5']")
    view = wait_ply(page, 3)
    assert view["struct"]["legal"] == ["d4-c3W"]
    assert get_json(f"{live_server.url}/api/matches/{mid}/record")["moves"] == ["c3-d3A", "d3-d4W", "d5-e5"]
    assert not errors, errors


def test_end_turn_and_phone_width(browser, live_server, shots):
    """Tsivy, fanorona.md §6 examples 1–2: d2-e3A, then Black's e5-f4A may go on (f4-g5W) or end."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        open_match(page, live_server)
        assert page.locator(".fan-movable").count() == 4  # d2, d3, e2, f2 (example 1)
        page.tap("[data-point='d3']")
        page.tap("[data-point='e3']")  # d3-e3A takes f3, d3-e3W takes c3
        assert page.locator("[data-choice=A]").inner_text() == "Approach: takes 1 (f3)"
        assert page.locator("[data-choice=W]").inner_text() == "Withdrawal: takes 1 (c3)"
        assert attrs(page, ".fan-capt", "data-stone") == ["c3", "f3"]
        page.screenshot(path=str(shots / "fanorona-board-phone-choice.png"), full_page=True)
        page.get_by_role("button", name="Cancel").tap()
        assert page.locator(".fan-capt").count() == 0 and page.locator("[data-choice]").count() == 0
        page.tap("[data-point='d2']")
        page.tap("[data-point='e3']")
        wait_ply(page, 1)
        page.tap("[data-point='e5']")
        page.tap("[data-point='f4']")
        view = wait_ply(page, 2)
        assert view["struct"]["choices"]["end"] == {"action": "end"}
        assert attrs(page, "[data-dest]", "data-dest") == ["g5"]
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width}px wide on a 390px screen"
        hit = page.locator("[data-point='g5']").bounding_box()
        assert hit["width"] >= 30, hit  # a finger-sized target
        page.screenshot(path=str(shots / "fanorona-board-phone.png"), full_page=True)
        page.tap("#end-turn")
        view = wait_ply(page, 3)
        assert view["moves"] == ["d2-e3A", "e5-f4A", "end"]
        assert view["position"] == "BBBB.B.BB/BBBBBBBBB/BWBWWB.BW/WWW.WWW.W/WWWWWWWW. W"
        # White sees Black's whole turn: the step e5-f4 that took g3 h2 i1, then end
        assert page.locator(".fan-recent").count() == 1
        assert attrs(page, "[data-gone]", "data-gone") == ["g3", "h2", "i1"]
        assert not errors, errors
    finally:
        context.close()


def test_vela_takes_one_stone(page, live_server):
    """fanorona.md §6 example 7: in the vela phase d2-e3A takes only f4, and Black may not capture."""
    open_match(page, live_server, options={"vela": True})
    assert "Vela: Black may not capture yet" in page.locator("#controls").inner_text()
    page.click("[data-point='d2']")
    page.click("[data-point='e3']")
    view = wait_ply(page, 1)
    assert view["position"] == "BBBBBBBBB/BBBBB.BBB/BWBWWBWBW/WWW.WWWWW/WWWWWWWWW B"
    assert attrs(page, "[data-gone]", "data-gone") == ["f4"]
    assert view["struct"]["choices"]["phase"] == "paika"
    assert page.locator(".fan-movable").count() == 7  # c3 e4 e5 f3 f5 g4 g5


# --- the whole turn seen, animated, in words; keyboard play; phones ---------------------------------

# White to move: after the paika e2-e3, Black's only capture is c3-d3A (takes e3 f3), which may
# go on with d3-d4A (takes d5; a greedy computer takes it). With the stone on i1 the game goes on.
CHAIN_SETUP = "...W...../........./..B..W.../....W..../........W W"
CHAIN_WIN = "...W...../........./..B..W.../....W..../......... W"  # no i1: Black's chain wins


def open_vs_computer(page, server, start: str) -> str:
    record = {"format": "abstracta-record", "version": 1, "game": "fanorona", "options": {},
              "seed": None, "start": start, "players": [], "moves": []}
    view = post_json(f"{server.url}/api/matches/import", {"record": record, "seats": ["human", "level:2"]})
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    page.wait_for_selector("svg.fan-board")
    return view["id"]


@contextlib.contextmanager
def replies_held_back(server, seconds: float = 0.4):
    """The computer (level 2: the fast lane's worker process) answers within milliseconds, often
    before the page has the answer to its own move; tests of the chain's animation hold the
    reply back a little (the early reply is the shell's own case): its delivery, in the web
    process, as the search itself runs in the worker."""
    jobs = server.app.state.service.jobs
    on_done = jobs.on_done
    jobs.on_done = lambda job, text, note: (time.sleep(seconds), on_done(job, text, note))
    try:
        yield
    finally:
        jobs.on_done = on_done


# the animations of the board's own elements (the shell may run its own, e.g. "thinking…")
BOARD_ANIMATIONS = ("document.getAnimations().filter(a => a.effect && a.effect.target"
                    " && document.getElementById('board').contains(a.effect.target)).length")


def board_text(page) -> str:
    return page.locator("#board-text").inner_text()


# Records every animation the board starts that fades stones out, as it starts (the observer
# runs right after the board's render, before a frame passes, so a loaded machine cannot make
# the test miss a half-second animation): its steps, length, ghosts in the order they fade and
# how many of the board's animations were running.
WATCH_ANIMATIONS = f"""() => {{
  window.fanAnims = [];
  new MutationObserver((muts) => {{ for (const m of muts) for (const n of m.addedNodes) {{
    if (n.nodeType !== 1 || !n.classList.contains('fan-ghosts')) continue;
    const svg = n.closest('svg.fan-board');
    window.fanAnims.push({{ steps: svg.dataset.animSteps, ms: Number(svg.dataset.animMs),
      ghosts: [...n.querySelectorAll('[data-ghost]')].map((g) => g.dataset.ghost),
      running: {BOARD_ANIMATIONS} }});
  }} }}).observe(document.getElementById('board'), {{ childList: true, subtree: true }});
}}"""


def test_computer_chain_marked_step_by_step_and_animated(page, live_server, shots):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_vs_computer(page, live_server, CHAIN_SETUP)
    page.evaluate(WATCH_ANIMATIONS)
    with replies_held_back(live_server):
        page.click("[data-point='e2']")
        page.click("[data-point='e3']")
        page.wait_for_function("() => window.abstractaView.ply === 3 && window.abstractaView.human_to_move")
    view = page.evaluate("window.abstractaView")
    assert view["moves"] == ["e2-e3", "c3-d3A", "d3-d4A"] and view["human_to_move"]
    # the computer's two-step chain arrived animated: the capturing stone slid c3→d3→d4 and
    # the three stones it took faded where they stood, e3 and f3 (first step) before d5
    # (the person's own paika step slides first, taking nothing; a re-render during the
    # chain's animation would run the rest of it again, with the same ghosts)
    anims = page.evaluate("window.fanAnims")
    taking = [a for a in anims if a["ghosts"]]
    assert taking, f"the computer's chain was not animated: {anims}"
    first = taking[0]
    assert first["steps"] == "2" and first["ghosts"] == ["e3", "f3", "d5"] and first["running"] > 0, anims
    # 200-300 ms a step, under 1.5 s in all; it ends by itself, leaving no ghosts
    assert 400 <= first["ms"] <= 600
    page.wait_for_function(f"() => {BOARD_ANIMATIONS} === 0", timeout=5000)
    assert page.locator("[data-ghost]").count() == 0
    # every step and every stone taken stays marked: numbered arrows, dashed rings
    assert attrs(page, ".fan-recent", "data-step") == ["c3-d3A", "d3-d4A"]
    assert page.locator(".fan-stepno").count() == 2
    assert attrs(page, "[data-gone]", "data-gone") == ["d5", "e3", "f3"]
    assert attrs(page, "[data-moved]", "data-moved") == ["d4"]
    assert attrs(page, "[data-seat='1']", "data-stone") == ["d4"]
    text = board_text(page)
    assert ("Last turn: Black c3→d3, takes e3 and f3 by approach; Black d3→d4, takes d5 by approach."
            in text), text
    assert "White to move." in text and "Stones: White 1, Black 1." in text
    page.screenshot(path=str(shots / "fanorona-computer-chain.png"))
    assert not errors, errors


def test_a_click_finishes_the_animation_at_once(page, live_server):
    open_vs_computer(page, live_server, CHAIN_SETUP)
    with replies_held_back(live_server):
        page.click("[data-point='e2']")
        page.click("[data-point='e3']")
        page.wait_for_function("() => window.abstractaView.ply === 3")
    # the computer's chain (two steps; the person's own step slid in before it)
    page.wait_for_function(f"() => {BOARD_ANIMATIONS} > 0"
                           " && document.querySelector('svg.fan-board[data-anim-steps=\"2\"]')")
    page.click("[data-point='a5']")
    assert page.evaluate(BOARD_ANIMATIONS) == 0
    assert page.locator("[data-ghost]").count() == 0
    assert page.locator("[data-stone='d4']").count() == 1


def test_no_animation_with_reduced_motion_and_the_result_in_words(page, live_server):
    page.emulate_media(reduced_motion="reduce")
    open_vs_computer(page, live_server, CHAIN_WIN)
    page.evaluate("() => { window.fanAnimations = 0; new MutationObserver(() => { window.fanAnimations += "
                  f"{BOARD_ANIMATIONS}; }}).observe(document.getElementById('board'), "
                  "{childList: true, subtree: true}); }")
    page.click("[data-point='e2']")
    page.click("[data-point='e3']")
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    page.wait_for_selector("[data-gone='d5']")
    assert page.evaluate(BOARD_ANIMATIONS) == 0
    assert page.evaluate("window.fanAnimations") == 0
    assert page.locator("svg.fan-board[data-anim-steps]").count() == 0
    assert page.locator("[data-ghost]").count() == 0
    # the whole turn is marked all the same
    assert attrs(page, ".fan-recent", "data-step") == ["c3-d3A", "d3-d4A"]
    assert attrs(page, "[data-gone]", "data-gone") == ["d5", "e3", "f3"]
    text = board_text(page)
    assert "Game over: Black wins. White has no stones left." in text, text
    assert "Black d3→d4, takes d5 by approach" in text
    assert page.locator("#result").inner_text() == "You lose. Black wins. White has no stones left."


def keys(page, *names: str) -> None:
    for name in names:
        page.keyboard.press(name)


def test_keyboard_only_play(page, live_server):
    """fanorona.md §6 examples 1-3 played with the arrow keys, Enter, W and Escape."""
    from abstracta import load_game

    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_match(page, live_server)
    page.focus("#board")
    assert "Arrow keys move the cursor" in page.get_attribute("#board", "aria-label")
    # the cursor starts on the first stone that may move (d2) and shows once keys are used
    keys(page, "ArrowLeft", "ArrowRight")
    assert page.locator(".fan-cursor").is_visible()
    assert page.get_attribute(".fan-cursor", "data-cursor") == "d2"
    assert page.locator("#board-say").inner_text() == "d2, White stone, can move"
    keys(page, "Enter")  # select d2
    assert page.locator("[data-stone='d2'].fan-sel").count() == 1
    assert page.locator("#board-say").inner_text() == "Selected d2. Moves: e3 (approach taking f4 and g5)."
    keys(page, "Escape")  # cancel
    assert page.locator(".fan-sel").count() == 0
    assert page.locator("#board-say").inner_text() == "Selection cancelled."
    keys(page, "Enter", "ArrowRight", "ArrowUp")  # d2 again, then the cursor to e3
    assert page.get_attribute(".fan-cursor", "data-cursor") == "e3"
    keys(page, "Enter")  # d2-e3A
    view = wait_ply(page, 1)
    assert view["moves"] == ["d2-e3A"]
    assert "Last turn: White d2→e3, takes f4 and g5 by approach." in board_text(page)
    assert "Black to move." in board_text(page)
    # Black (the other person at this device): the cursor stayed on e3; f3-f4W takes f2 f1
    page.focus("#board")
    keys(page, "ArrowRight", "Enter", "ArrowUp", "Enter")
    view = wait_ply(page, 2)
    assert view["moves"] == ["d2-e3A", "f3-f4W"]
    state = load_game("fanorona").new_initial_state()
    for move in view["moves"]:
        state.apply_action(state.string_to_action(move))
    assert view["position"] == state.to_text()
    # the chain may go on (f4-g5W): its way and the stones taken so far are in words; E ends it
    assert ("Capture chain: the stone on f4 came f3→f4 and has taken f1 and f2; it may capture again"
            " or end the turn.") in board_text(page)
    page.focus("#board")
    keys(page, "e")
    view = wait_ply(page, 3)
    assert view["moves"] == ["d2-e3A", "f3-f4W", "end"]
    assert "Last turn: Black f3→f4, takes f2 and f1 by withdrawal; Black ends the turn." in board_text(page)
    assert not errors, errors


def test_keyboard_chain_with_the_approach_withdrawal_choice(page, live_server, shots):
    open_match(page, live_server, EXAMPLE_3)
    page.focus("#board")
    keys(page, "Enter", "ArrowRight", "Enter")  # c3 (the cursor starts there), d3: c3-d3A
    view = wait_ply(page, 1)
    assert view["moves"] == ["c3-d3A"]
    assert page.get_attribute(".fan-cursor", "data-cursor") == "d3"
    assert "Capture chain: the stone on d3 came c3→d3 and has taken e3 and f3" in board_text(page)
    page.focus("#board")
    keys(page, "ArrowUp", "Enter")  # d4: approach (d5) or withdrawal (d2)
    assert page.locator("[data-choice=A]").is_visible() and page.locator("[data-choice=W]").is_visible()
    assert "Press A or W" in page.locator("#board-say").inner_text()
    keys(page, "Escape")
    assert page.locator("[data-choice]").count() == 0
    keys(page, "Enter")
    page.screenshot(path=str(shots / "fanorona-keyboard-choice.png"))
    keys(page, "w")
    view = wait_ply(page, 2)
    assert view["moves"] == ["c3-d3A", "d3-d4W"]
    assert view["position"] == "...B...../...W...../........./........./........B B"


def test_keyboard_ends_a_chain(page, live_server):
    open_match(page, live_server, EXAMPLE_3)
    page.focus("#board")
    keys(page, "Enter", "ArrowRight", "Enter")
    wait_ply(page, 1)
    page.focus("#board")
    keys(page, "e")
    view = wait_ply(page, 2)
    assert view["moves"] == ["c3-d3A", "end"]


def tap_targets(page) -> list[dict]:
    return page.eval_on_selector_all("[data-point]", "els => els.map(e => e.getBoundingClientRect().toJSON())")


def test_phone_360_tap_targets_and_no_sideways_scroll(browser, live_server, shots):
    """At 360 px the 9×5 board turns to portrait: every point ≥ 40×40 px, no horizontal scroll."""
    for options, width in (({}, 360), ({"size": "dimy"}, 360), ({}, 390)):
        context = browser.new_context(viewport={"width": width, "height": 740}, is_mobile=True, has_touch=True)
        try:
            page = context.new_page()
            page.set_default_timeout(15000)
            open_match(page, live_server, options=options)
            scroll = page.evaluate("document.documentElement.scrollWidth")
            assert scroll <= width, f"the page is {scroll}px wide on a {width}px screen"
            boxes = tap_targets(page)
            assert len(boxes) == (45 if not options else 25)
            small = [b for b in boxes if b["width"] < 40 or b["height"] < 40]
            assert not small, small[:3]
            assert all(b["right"] <= width for b in boxes)
            if not options:
                assert page.locator("svg.fan-board.fan-portrait").count() == 1
                page.tap("[data-point='d3']")
                page.tap("[data-point='e3']")  # approach or withdrawal: two buttons
                for b in page.eval_on_selector_all("#controls button", "els => els.map(e => e.getBoundingClientRect().toJSON())"):
                    assert b["height"] >= 40 and b["width"] >= 40, b
                assert page.evaluate("document.documentElement.scrollWidth") <= width
                if width == 390:
                    page.screenshot(path=str(shots / "fanorona-390.png"), full_page=True)
        finally:
            context.close()


def test_desktop_screenshot(browser, live_server, shots):
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        open_match(page, live_server)
        assert page.locator("svg.fan-board.fan-portrait").count() == 0  # wide screens: landscape
        page.click("[data-point='d2']")
        page.click("[data-point='e3']")
        wait_ply(page, 1)
        page.click("[data-point='e5']")
        page.click("[data-point='f4']")
        wait_ply(page, 2)
        page.wait_for_function(f"() => {BOARD_ANIMATIONS} === 0")
        boxes = tap_targets(page)
        assert min(b["width"] for b in boxes) >= 40
        page.screenshot(path=str(shots / "fanorona-1280.png"), full_page=True)
    finally:
        context.close()
