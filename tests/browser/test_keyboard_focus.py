"""Where the keyboard's focus goes on the match page and between pages: a control pressed with a
key keeps the focus when the page draws its box again (the move box while the computer answers,
a legal move, the replay's steps, the move list, Resign), the hand-over button gives it to the
board, and a page opened from a link or button gives it to its heading. Before, each of these
left it on the page's <body>: a keyboard player Tabbed back from the top after every move, and a
screen reader said nothing of the page that had opened."""

from __future__ import annotations

import contextlib
import json
import time

from httputil import post_json

WAIT_TURN = """() => { const v = window.abstractaView;
  return v && (v.status === 'over' || (v.human_to_move && !v.thinking)); }"""

FOCUS = """() => { const a = document.activeElement;
  return !a || a === document.body ? 'BODY' : a.id || a.dataset.move || a.dataset.ply && 'ply ' + a.dataset.ply
    || a.getAttribute('aria-label') || a.tagName; }"""


@contextlib.contextmanager
def replies_held_back(server, seconds: float = 0.6):
    """The computer (level 2) answers within milliseconds, often before the page has drawn the
    answer to the move: held back (its delivery, in the web process: the search runs in the fast
    lane's worker), the page surely draws the computer's turn in between."""
    jobs = server.app.state.service.jobs
    on_done = jobs.on_done
    jobs.on_done = lambda job, text, note: (time.sleep(seconds), on_done(job, text, note))
    try:
        yield
    finally:
        jobs.on_done = on_done


def vs_computer(page, server, game: str = "fanorona", options=None) -> dict:
    view = post_json(f"{server.url}/api/matches", {"game": game, "options": options or {}, "seats": ["human", "level:2"]})
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_function(WAIT_TURN)
    return page.evaluate("window.abstractaView")


def after_reply(page, ply: int) -> dict:
    """The view once the computer has answered the move made at ``ply``."""
    page.wait_for_function("p => window.abstractaView.ply > p + 1 || window.abstractaView.status === 'over'", arg=ply,
                           timeout=30000)
    page.wait_for_function(WAIT_TURN, timeout=30000)
    return page.evaluate("window.abstractaView")


def test_the_move_box_keeps_the_focus_while_the_computer_answers(page, live_server):
    view = vs_computer(page, live_server)
    page.focus("#move-input")
    with replies_held_back(live_server):
        for _ in range(2):
            ply = view["ply"]
            page.keyboard.type(view["legal"][0])
            page.keyboard.press("Enter")
            page.wait_for_function("p => window.abstractaView.ply > p", arg=ply)
            page.wait_for_function("() => window.abstractaView.thinking || !window.abstractaView.human_to_move")
            # the computer's turn: the box says so and may not be typed in, but keeps the focus
            assert page.evaluate(FOCUS) == "move-input"
            assert page.get_attribute("#move-input", "aria-disabled") == "true"
            assert page.evaluate("document.getElementById('move-input').readOnly") is True
            view = after_reply(page, ply)
            assert view["status"] == "playing" and view["movers"][-1] == 1
            assert page.evaluate(FOCUS) == "move-input"
            assert page.get_attribute("#move-input", "aria-disabled") == "false"


def test_a_move_typed_out_of_turn_is_not_sent(page, live_server):
    view = vs_computer(page, live_server)
    with replies_held_back(live_server, 1.5):
        page.fill("#move-input", view["legal"][0])
        page.press("#move-input", "Enter")
        page.wait_for_function("p => window.abstractaView.ply > p", arg=view["ply"])
        sent = []
        page.on("request", lambda r: sent.append(r.url) if r.url.endswith("/actions") else None)
        page.evaluate("() => { const i = document.getElementById('move-input'); i.value = 'a1-a2'; }")
        page.press("#move-input", "Enter")
        page.wait_for_timeout(300)
        assert sent == [] and page.locator("#error").is_hidden()
        after_reply(page, view["ply"])


def test_a_legal_move_pressed_by_key_leaves_the_focus_in_the_legal_moves(page, live_server):
    view = vs_computer(page, live_server)
    page.focus("details.legalwrap summary")  # closed beside a board: opened by key
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUS) == view["legal"][0]
    with replies_held_back(live_server):
        ply = view["ply"]
        page.keyboard.press("Enter")
        page.wait_for_function("p => window.abstractaView.ply > p", arg=ply)
        # the moves are gone while the computer answers: the focus waits on their heading
        assert page.evaluate("() => document.activeElement.closest('details.legalwrap') !== null"), page.evaluate(FOCUS)
        after_reply(page, ply)
    assert page.evaluate("() => document.activeElement.closest('details.legalwrap') !== null"), page.evaluate(FOCUS)
    page.keyboard.press("Tab")  # and the next move is one Tab away
    assert page.evaluate("() => document.activeElement.matches('#legal button.move')"), page.evaluate(FOCUS)


def test_the_replay_steps_and_the_move_list_keep_the_focus(page, live_server):
    view = vs_computer(page, live_server)
    for _ in range(2):  # two turns of each side, typed
        page.fill("#move-input", view["legal"][0])
        page.press("#move-input", "Enter")
        view = after_reply(page, view["ply"])
    last = view["ply"]
    page.focus("#step-back")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('status').innerText.startsWith('Replay')")
    assert page.evaluate(FOCUS) == "step-back"
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#moves a.at[data-ply='{last - 2}']")
    assert page.evaluate(FOCUS) == "step-back"
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUS) == "step-fwd"
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#moves a.at[data-ply='{last - 1}']")
    assert page.evaluate(FOCUS) == "step-fwd"
    page.keyboard.press("Enter")  # back at the live position: ▶ may no longer be used
    page.wait_for_selector(f"#moves a.at[data-ply='{last}']")
    assert page.locator("#step-fwd").is_disabled()
    assert page.evaluate(FOCUS) == "step-back"  # the nearest step that may, not <body>
    # a move of the list chosen with Enter
    page.focus("#moves a[data-ply='1']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#moves a.at[data-ply='1']")
    assert page.evaluate(FOCUS) == "ply 1"


def test_resign_by_key_leaves_the_focus_on_the_next_thing_to_do(page, live_server):
    vs_computer(page, live_server)
    page.once("dialog", lambda dialog: dialog.accept())
    page.focus("#resign")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    page.locator("#result").wait_for(state="visible")
    # Resign is gone with the game: the focus is on the end's first action, by the result
    assert page.locator("#resign").count() == 0
    assert page.evaluate(FOCUS) == "rematch-offer"


CARDS_START = "2c 5d Jh | 7h,Kd,5s,Qd,3c | 4c,6d,Jc | 3h,9h | 0"  # hidden hands, two people: the hand-over screen


def test_the_hand_over_button_gives_the_focus_to_the_board(page, live_server):
    record = {"format": "abstracta-record", "version": 1, "game": "fibonacci-cards", "options": {},
              "seed": None, "start": CARDS_START, "players": [], "moves": ["5s/2"]}
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record, "seats": ["human", "human"]})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_selector("#handover-ok")
    assert page.evaluate(FOCUS) == "handover-ok"
    page.keyboard.press("Enter")
    page.wait_for_selector("#board .cardtable")
    assert page.evaluate(FOCUS) == "board"


def test_a_page_opened_by_key_gives_its_heading_the_focus(page, live_server):
    page.goto(f"{live_server.url}/#/")
    page.wait_for_selector("[data-game=nibble]")
    assert page.evaluate(FOCUS) == "BODY"  # a first load starts from the top
    page.focus("[data-game=nibble] a.primary")
    page.keyboard.press("Enter")
    page.wait_for_selector("#start")
    assert page.evaluate("() => document.activeElement.tagName") == "H1"
    assert page.evaluate("() => document.activeElement.innerText") == "New game of Nibble"
    page.focus("#start")
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_TURN)
    assert page.evaluate("() => [document.activeElement.tagName, document.activeElement.innerText]") == ["H1", "Nibble"]
    page.keyboard.press("Tab")  # the board is next
    assert page.evaluate(FOCUS) == "board"
    # the language switch draws the page again and keeps its own focus
    page.focus("#lang button[data-lang=fi]")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.documentElement.lang === 'fi' && document.querySelector('#board svg')")
    page.wait_for_timeout(300)
    assert page.evaluate("() => document.activeElement.dataset.lang") == "fi"


def test_hints_by_key_keep_the_focus_and_the_hint_is_said(page, live_server):
    view = vs_computer(page, live_server)
    page.focus("#hints-toggle")
    page.keyboard.press("Space")
    page.wait_for_selector("#hint")
    assert page.is_checked("#hints-toggle") and page.evaluate(FOCUS) == "hints-toggle"
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUS) == "hint"
    page.keyboard.press("Enter")
    page.wait_for_selector("#an-line li")
    page.wait_for_function("() => !document.getElementById('hint').disabled")
    assert page.evaluate(FOCUS) == "hint"
    # the hint in words, at once (the marks on the board say nothing to a screen reader)
    first = page.get_attribute("#an-line li", "data-actions")
    said = page.inner_text("#board-say")
    assert said.endswith(f"Best line: White: {', '.join(json.loads(first))}."), said
    assert said.startswith(page.inner_text("#an-number") + " for White."), said
    assert page.evaluate("window.abstractaView.ply") == view["ply"]  # a hint plays nothing
    # a finished game's Analyse opens and closes by key, the focus staying on it
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_selector("#analyse")
    page.focus("#analyse")
    page.keyboard.press("Enter")
    page.wait_for_selector("#an-line li, #an-result, .an-result")
    assert page.get_attribute("#analyse", "aria-expanded") == "true"
    assert page.evaluate(FOCUS) == "analyse"
