"""Keyboard-only play (issue 16 §2, §5): one whole Fanorona Dimy game against the computer
(level 1) with only the keyboard — Tab from the start of the page to the board, the arrow keys
to move the board's cursor, Enter to pick a stone and its destination, A / W to choose approach
or withdrawal and E to end a capture chain (the board module's keyHelp). The test picks each
move from the structured view and steers the cursor to its points; the board's text
alternative (#board-text) tells in words what the computer did."""

from __future__ import annotations

import re

from httputil import post_json


def tab_to_board(page) -> int:
    """Press Tab from the start of the page until the board has the focus: the board box is the
    first thing of the page past the header's links and buttons (abstracta, the person's name or
    Sign in, the pages, the language switch, a "Your move" badge while a game waits, a challenge's
    buttons under it), which grow with the site. The presses it took."""
    page.wait_for_selector("header.top #me a")  # drawn once the server said who this is
    most = page.evaluate("document.querySelectorAll('header.top a[href], header.top button, #challenge-notices button, #challenge-notices a').length") + 1
    for presses in range(most + 1):
        where = page.evaluate("""() => { const a = document.activeElement;
          return a && a.id === 'board' ? 'board' : a && a.closest('header.top, #challenge-notices') ? 'header' : a === document.body ? 'start' : (a.id || a.tagName); }""")
        if where == "board":
            return presses
        assert where in ("start", "header") or presses == 0, f"Tab {presses} reached {where!r} before the board"
        page.keyboard.press("Tab")
    raise AssertionError(f"the board had no focus after {most} Tabs")


WAIT_TURN = """() => { const v = window.abstractaView;
  return v && (v.status === 'over' || (v.human_to_move && !v.thinking)); }"""

SNAPSHOT = "() => [window.abstractaView, document.getElementById('board-text').innerText]"

ACTIVE = "(() => document.activeElement && document.activeElement.id)()"


def steer(page, to: str) -> None:
    """Move the cursor to point ``to`` with the arrow keys (landscape: files left to right,
    rank 1 at the bottom)."""
    at = page.get_attribute("svg.fan-board [data-cursor]", "data-cursor")
    df = ord(to[0]) - ord(at[0])
    dr = int(to[1:]) - int(at[1:])
    for _ in range(abs(df)):
        page.keyboard.press("ArrowRight" if df > 0 else "ArrowLeft")
    for _ in range(abs(dr)):
        page.keyboard.press("ArrowUp" if dr > 0 else "ArrowDown")
    assert page.get_attribute("svg.fan-board [data-cursor]", "data-cursor") == to


def play_by_keys(page, view: dict, move: str) -> None:
    assert page.evaluate(ACTIVE) == "board", "the board lost the keyboard focus"
    if move == "end":
        page.keyboard.press("e")
        return
    frm, to, kind = re.fullmatch(r"([a-e]\d)-([a-e]\d)([AW]?)", move).groups()
    if not view["struct"]["board"].get("chain"):  # in a chain the stone is already picked
        steer(page, frm)
        page.keyboard.press("Enter")
        assert page.locator(f"[data-stone='{frm}'].fan-sel").count() == 1
    steer(page, to)
    page.keyboard.press("Enter")
    legal = view["legal"]
    if kind and f"{frm}-{to}A" in legal and f"{frm}-{to}W" in legal:  # both lines: the player picks
        page.keyboard.press(kind.lower())


def play_game(page, server) -> tuple[dict, dict[str, bool], int]:
    """One whole game by keys from a fresh page: the final view, which of the choice keys were
    used (A / W, E) and how many of the computer's turns #board-text told in words."""
    view = post_json(f"{server.url}/api/matches",
                     {"game": "fanorona", "options": {"size": "dimy"}, "seats": ["human", "level:1"]})
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.reload()  # a fresh document (a second game's goto only changes the hash): Tab from the top
    page.wait_for_function(WAIT_TURN)
    page.wait_for_selector("svg.fan-board")
    assert tab_to_board(page) >= 3  # abstracta, Sign in and the pages come first
    assert page.evaluate(ACTIVE) == "board"

    replies_told = 0
    keys_used = {"e": False, "aw": False}
    for _ in range(400):
        view = page.evaluate("window.abstractaView")
        if view["status"] == "over":
            break
        legal = view["struct"]["legal"]
        assert legal == view["legal"]
        # the first legal move (capturing on while a chain may), but once each: a capture that
        # may take either line (the A / W keys) and ending a chain early (the E key)
        both = [m for m in legal if m.endswith("A") and m[:-1] + "W" in legal]
        if "end" in legal and not keys_used["e"]:
            move = "end"
        elif both and not keys_used["aw"]:
            move = both[0]
        else:
            move = next((m for m in legal if m != "end"), legal[0])
        keys_used["e"] |= move == "end"
        keys_used["aw"] |= move in both or move[:-1] + "A" in both
        ply = view["ply"]
        _, earlier = page.evaluate(SNAPSHOT)
        play_by_keys(page, view, move)
        page.wait_for_function("p => window.abstractaView.ply > p", arg=ply, timeout=20000)
        # the view and the text alternative read together (the computer may answer at any time:
        # its move is pushed as soon as it is stored, possibly before the page showed ours)
        mine, before = page.evaluate(SNAPSHOT)
        answered = mine["status"] == "playing" and mine["human_to_move"] and mine["movers"][-1] != 0
        if mine["status"] == "playing" and (answered or not mine["human_to_move"]):
            # the computer's turn: once it has moved, the text alternative tells what it did
            page.wait_for_function(WAIT_TURN, timeout=60000)
            after, said = page.evaluate(SNAPSHOT)
            before = earlier if answered else before
            if after["status"] == "playing":
                # its last turn in words: "Last turn: Black e4→e3, takes e2 and e1 by approach."
                assert re.search(r"Last turn: Black .*\b[a-e]\d\b", said), said
                assert "White to move" in said, said
                assert said != before, (before, said)
                replies_told += 1
            assert page.evaluate(ACTIVE) == "board", "the computer's reply took the focus from the board"
    else:
        raise AssertionError("the game did not end in 400 moves")
    return page.evaluate("window.abstractaView"), keys_used, replies_told


def test_fanorona_dimy_by_keyboard_only(page, live_server, shots):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # the computer's moves are random (seeded by the match id): a game in which no capture
    # chain of ours could go on (so E never came up) is followed by another, at most four
    for _ in range(4):
        view, keys_used, replies_told = play_game(page, live_server)
        assert view["status"] == "over"
        assert replies_told > 0
        assert view["players"] == ["human", "level:1"] and view["options"]["size"] == "dimy"
        banner = page.locator("#result")
        banner.wait_for(state="visible")
        assert re.search(r"wins|Draw", banner.inner_text()), banner.inner_text()
        assert "Game over" in page.inner_text("#board-text")
        assert not errors, errors
        if keys_used["e"]:
            break
    assert keys_used == {"e": True, "aw": True}, keys_used
    page.screenshot(path=str(shots / "fanorona-dimy-keyboard.png"), full_page=True)
