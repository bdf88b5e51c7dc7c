"""Browser checks of what a newcomer found: the hand-over screen hides the position text, undo is
off once the game is over, a lost connection is shown and recovers, the API page works offline,
"Your games" shows and deletes games, unknown rules pages say so, move-list labels, seat names,
the visible Fibonacci core."""

from __future__ import annotations

import random
import re
import urllib.error
import urllib.request

from httputil import post_json, remember

import abstracta
from abstracta import Record

CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


def get_status(url: str) -> int:
    try:
        with urllib.request.urlopen(url) as r:
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_handover_hides_position_text(page, live_server, shots):
    view = post_json(f"{live_server.url}/api/matches",
                     {"game": "fibonacci-cards", "options": {"seed": 11, "first_player": "0"}, "seats": ["human", "human"]})
    remember(page, view)
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.locator("#handover-ok").wait_for(state="visible")
    page.click("details:has(#position-text) summary")  # open the disclosure
    text = page.locator("#position-text").text_content()
    assert not CARD.search(text.split("|")[1] if "|" in text else text), text
    assert "Hidden" in text
    assert page.locator("#download").is_disabled()
    # and why, on the page (it was a tooltip, which a phone never shows)
    note = page.locator("#download-note")
    assert note.is_visible() and note.inner_text() == "The record of a game with hidden cards is available when it is over"
    assert page.locator("#download").get_attribute("aria-describedby") == "download-note"
    page.screenshot(path=str(shots / "handover.png"), full_page=True)
    page.click("#handover-ok")
    text = page.locator("#position-text").text_content()
    hand = text.split("|")[1]
    assert CARD.search(hand), text  # seat 0's own hand is shown now
    move = page.evaluate("window.abstractaView.legal[0]")
    page.evaluate("m => document.querySelector(`button.move[data-move='${m}']`).click()", move)
    page.locator("#handover-ok").wait_for(state="visible")
    assert "Hidden" in page.locator("#position-text").text_content()
    assert page.locator("#step-back").is_disabled()


def finished_record(name: str, seed: int) -> Record:
    game = abstracta.load_game(name)
    initial = game.new_initial_state()
    state, actions, rng = initial.clone(), [], random.Random(seed)
    while not state.is_terminal():
        a = rng.choice(state.legal_actions())
        state.apply_action(a)
        actions.append(a)
    return Record.from_play(game, initial, actions, players=["human", "level:1"])


def test_undo_disabled_when_over_and_seat_names(page, live_server, shots):
    record = finished_record("nibble", 5)
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record.to_dict()})
    remember(page, view)
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.locator("#result").wait_for(state="visible")
    assert page.locator("#undo").count() == 0  # nothing to take back any more: no greyed button
    assert page.locator("#download").get_attribute("href")  # a finished game's record is available
    body = page.locator("body").inner_text()
    assert "Seat 0" not in body and "Seat 1" not in body
    assert "You vs Computer (level 1)" in page.locator(".players").inner_text()
    banner = page.locator("#result").inner_text()
    assert banner.split(". ")[0] in ("You win", "Computer (level 1) wins", "Draw"), banner
    turns = sum(1 for i, m in enumerate(view["movers"]) if i == 0 or view["movers"][i - 1] != m)
    # one link per entry of each turn as the terminal's replay writes it (a one-disc turn "a1",
    # not "a1, end")
    entries = sum(len(turn["moves"]) for turn in view["move_list"])
    assert len(view["move_list"]) == turns and entries < len(view["moves"])
    assert page.locator("ol.moves .who").count() == turns and page.locator("ol.moves a[data-ply]").count() == entries
    page.screenshot(path=str(shots / "nibble-over.png"), full_page=True)


def test_empty_move_list_hidden_and_labels(page, live_server):
    view = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "options": {"size": "telo"}, "seats": ["human", "human"]})
    remember(page, view)
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    assert not page.locator("#moves").is_visible()
    page.evaluate("m => document.querySelector(`button.move[data-move='${m}']`).click()", view["legal"][0])
    page.wait_for_function("() => window.abstractaView.ply === 1")
    assert page.locator("#moves").is_visible()
    assert page.locator("ol.moves .who").first.inner_text() == "W"


def test_connection_lost_and_back(browser, tmp_path, server_factory):
    LiveServer = server_factory  # noqa: N806
    db = tmp_path / "conn.db"
    first = LiveServer(db).start()
    context = browser.new_context()
    second = None
    try:
        page = context.new_page()
        view = post_json(f"{first.url}/api/matches", {"game": "fanorona", "options": {"size": "telo"}, "seats": ["human", "human"]})
        remember(page, view)
        page.goto(f"{first.url}/#/match/{view['id']}")
        page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
        page.wait_for_function("() => document.getElementById('app').dataset.live === 'socket'")
        first.stop()
        page.wait_for_function("() => document.getElementById('status').textContent.includes('Connection lost')", timeout=20000)
        assert page.evaluate("document.getElementById('app').dataset.live") == "polling"
        second = LiveServer(db, port=first.port).start()  # the same port again
        page.wait_for_function("() => !document.getElementById('status').textContent.includes('Connection lost')", timeout=20000)
        assert not page.locator("#error").is_visible()
        page.wait_for_function("() => document.getElementById('app').dataset.live === 'socket'", timeout=20000)
        # live updates work again: a move made elsewhere shows up
        post_json(f"{second.url}/api/matches/{view['id']}/actions", {"action": view["legal"][0], "ply": 0})
        page.wait_for_function("() => window.abstractaView.ply === 1", timeout=20000)
    finally:
        context.close()
        if second is not None:
            second.stop()


def test_api_page_works_offline(page, live_server):
    page.goto(f"{live_server.url}/")
    assert page.locator("#api-link").get_attribute("href") == "/api.html"
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1).*"), lambda route: route.abort())  # no CDN
    page.click("#api-link")
    page.locator("#endpoints").wait_for()
    text = page.locator("#endpoints").inner_text()
    assert "/api/matches/{match_id}/undo" in text and "DELETE" in text
    assert "413" in page.locator("#api-rules").inner_text()


def test_unknown_rules_page(page, live_server):
    page.goto(f"{live_server.url}/#/rules/no-such-game")
    page.locator("#not-found").wait_for()
    assert page.get_by_text("Play it").count() == 0


def test_your_games_list_and_delete(page, live_server, shots):
    a = post_json(f"{live_server.url}/api/matches", {"game": "nibble", "options": {}, "seats": ["human", "level:2"]})
    b = post_json(f"{live_server.url}/api/matches", {"game": "fibonacci", "options": {"variant": "go"}, "seats": ["human", "human"]})
    remember(page, a)
    remember(page, b)
    page.goto(f"{live_server.url}/#/matches")
    row_a = page.locator(f"tr[data-id='{a['id']}']")
    row_a.wait_for()
    assert "You vs Computer (level 2)" in row_a.inner_text() and ":" not in row_a.locator("td").nth(2).inner_text()
    row_b = page.locator(f"tr[data-id='{b['id']}']")
    assert "Variant: Go start: place the pieces first" in row_b.inner_text()
    assert "Red (person) vs Green (person)" in row_b.inner_text()
    page.screenshot(path=str(shots / "your-games.png"), full_page=True)
    page.once("dialog", lambda d: d.accept())
    row_a.locator("button.delete").click()
    row_a.wait_for(state="detached")
    assert get_status(f"{live_server.url}/api/matches/{a['id']}") == 404


def test_fibonacci_core_visible(page, live_server, shots):
    view = post_json(f"{live_server.url}/api/matches", {"game": "fibonacci", "options": {}, "seats": ["human", "level:1"]})
    remember(page, view)
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    cores = page.locator("svg.board text[data-piece='C']")
    assert cores.count() == 2
    assert cores.first.get_attribute("fill") == "#222"
    page.screenshot(path=str(shots / "fibonacci.png"), full_page=True)
