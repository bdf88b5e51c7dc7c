"""A computer that cannot move, shown on the match page: the view's ``bot_error`` (why: its move
could not be played, its search could not start) under the status line, in the reader's language
as a refused move is, with what the player can do (an undo starts its search again; with nothing
to take back, a new game); gone once the view no longer carries it. The failure is the server's
own, made in-process (its computer's answer raising while it is played, as in
tests/server/test_server_bots.py)."""

from __future__ import annotations

import pytest
from httputil import get_json, post_json



@pytest.fixture
def server(server_factory, tmp_path):
    server = server_factory(tmp_path / "boterr.db").start()
    yield server
    server.stop()


def broken_answers(monkeypatch, server) -> None:
    """Every computer answer of ``server`` fails while it is played (a game bug)."""
    def broken(match):
        raise RuntimeError("a game bug")

    from abstracta.server.matches import Match

    monkeypatch.setattr(Match, "_canonical_turn", broken)  # the session putting the computer's turn in order


def person_plays(server, mid: str) -> dict:
    """The person's whole first turn (a capture may go on), by the API."""
    view = get_json(f"{server.url}/api/matches/{mid}")
    while view["human_to_move"]:
        view = post_json(f"{server.url}/api/matches/{mid}/actions", {"action": view["legal"][0], "ply": view["ply"]})
    return view


def stuck_page(page, server) -> str:
    """A Fanorona match against level 1 on ``page`` whose computer failed to move (live: the
    page is open when it fails); its id."""
    view = post_json(f"{server.url}/api/matches", {"game": "fanorona", "seats": ["human", "level:1"]})
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_selector("#board svg")
    assert page.locator("#bot-error").is_hidden()  # nothing to say before anything failed
    person_plays(server, view["id"])
    page.locator("#bot-error").wait_for(state="visible")
    return view["id"]


def test_a_computer_that_cannot_move_is_told_with_the_undo_that_retries_it(page, server, monkeypatch, shots):
    broken_answers(monkeypatch, server)
    mid = stuck_page(page, server)
    view = page.evaluate("window.abstractaView")
    assert (view["thinking"], view["human_to_move"], view["bot_error"]) == (
        False, False, "level:1: its move could not be played (RuntimeError)")
    assert page.locator("#status").inner_text() == "Black (computer) cannot move"
    # the player's words; the server's technical English (seat spec, exception) is the tooltip
    assert page.locator("#bot-error-text").inner_text() == (
        "The computer's move could not be played: an error on the server (it is logged).")
    assert page.locator("#bot-error-text").get_attribute("title") == "level:1: its move could not be played (RuntimeError)"
    assert page.locator("#bot-error-next").inner_text().startswith(
        "Undo your last move, then play again: the computer tries again.")
    # said where the status is, above the board (in sight on a phone too)
    assert page.locator("#bot-error").bounding_box()["y"] < page.locator("#board").bounding_box()["y"]
    page.screenshot(path=str(shots / "bot-error-1100.png"), full_page=True)
    # the way forward works: the undo takes the person's move back, and the error goes with it
    monkeypatch.undo()
    page.click("#bot-error-undo")
    page.locator("#bot-error").wait_for(state="hidden")
    assert page.evaluate("[window.abstractaView.ply, window.abstractaView.bot_error]") == [0, None]
    assert page.locator("#status").inner_text() == "Your move (White)"
    person_plays(server, mid)
    page.wait_for_function("() => window.abstractaView.human_to_move && window.abstractaView.ply >= 2")  # it moved
    assert page.locator("#bot-error").is_hidden()


def test_a_finnish_phone_reader_is_told_in_finnish(browser, server, monkeypatch, shots):
    broken_answers(monkeypatch, server)
    fi = get_json(f"{server.url}/api/i18n/fi")
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="fi-FI", is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        stuck_page(page, server)
        assert page.locator("#bot-error-text").inner_text() == fi["error.bot_move_failed"]
        assert page.locator("#bot-error-next").inner_text().startswith(fi["bot_error.undo"])
        assert page.locator("#bot-error-undo").inner_text() == fi["match.undo"]
        assert page.locator("#status").inner_text() == "Musta (tietokone) ei pysty siirtämään"
        # in sight without scrolling, and nothing wider than the phone
        box = page.locator("#bot-error").bounding_box()
        assert box["y"] + box["height"] <= 844 and box["x"] + box["width"] <= 390
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(shots / "bot-error-fi-390.png"), full_page=True)
    finally:
        context.close()


def test_with_nothing_to_take_back_a_new_game_is_the_way_forward(page, server, monkeypatch):
    # the computer moves first and its search cannot start: there is no move of the person's to undo
    def no_worker(job):
        raise OSError("no worker could be started")

    service = server.app.state.service
    monkeypatch.setattr(service.jobs, "submit", no_worker)
    view = post_json(f"{server.url}/api/matches", {"game": "fanorona", "seats": ["level:1", "human"]})
    assert (view["ply"], view["bot_error"]) == (0, "level:1: its search could not start (OSError)")
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.locator("#bot-error").wait_for(state="visible")
    assert page.locator("#bot-error-text").inner_text() == (
        "The computer's search could not start: an error on the server (it is logged).")
    assert page.locator("#bot-error-next").inner_text().startswith("Nothing can be taken back")
    assert page.locator("#bot-error-undo").count() == 0
    page.click("#bot-error-new")
    page.wait_for_function("() => location.hash === '#/new/fanorona'")


def test_a_move_a_quick_search_played_is_a_note_with_nothing_to_do(page, server, monkeypatch):
    # the computer did move (its own search's answer refused, a quick search played instead): its
    # bot_error is told, as a note, with no way forward to offer
    service = server.app.state.service
    held: list = []
    monkeypatch.setattr(service.jobs, "submit", held.append)
    view = post_json(f"{server.url}/api/matches", {"game": "fanorona", "seats": ["human", "level:1"]})
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_selector("#board svg")
    person_plays(server, view["id"])
    for _ in range(20):  # each action of its turn (a capture goes on)
        service.computer.apply_answer(held[-1], "z9-z8", None)  # as if its search answered nonsense
        if get_json(f"{server.url}/api/matches/{view['id']}")["human_to_move"]:
            break
    page.locator("#bot-error").wait_for(state="visible")
    assert page.evaluate("window.abstractaView.human_to_move")
    assert page.locator("#bot-error-text").inner_text() == (
        "The computer's search chose a move the real position does not allow; a quick search played instead.")
    assert page.locator("#bot-error").get_attribute("class") == "bot-error moved"
    assert page.locator("#bot-error-next").count() == 0
    assert page.locator("#status").inner_text() == "Your move (White)"
