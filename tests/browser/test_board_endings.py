"""A match that ends off the board (a resignation) leaves a position with a player to move: the
boards must then speak of the end, not of a turn nobody will play (the words under the board and
the text alternative a screen reader reads)."""

from __future__ import annotations

import re

import pytest

from httputil import post_json

#: the words of a turn still to be played, in every board's English
TURN_WORDS = re.compile(r"to move|Your turn|turn to place|places a|moves? left|Click|pick a")

CASES = [
    ("fanorona", {"size": "dimy"}, 2, ""),
    ("fibonacci", {}, 2, "Ended in turn 1."),
    ("fibonacci", {"variant": "cards"}, 2, "Ended in turn 1."),
    ("fibonacci", {"variant": "go"}, 2, ""),
    ("fibonacci-cards", {}, 2, ""),
    ("nibble", {}, 2, ""),
    ("slide-checkers", {"players": "2"}, 2, ""),
    ("slide-checkers", {"players": "3"}, 3, ""),
]


@pytest.mark.parametrize("game,options,players,left", CASES,
                         ids=[f"{g}-{'-'.join(o.values()) or 'standard'}" for g, o, _, _ in CASES])
def test_after_a_resignation_the_board_tells_the_end_not_a_turn(page, live_server, game, options, players, left):
    view = post_json(f"{live_server.url}/api/matches",
                     {"game": game, "options": options, "seats": ["human"] + ["level:1"] * (players - 1)})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    # before: the board says whose turn it is (so the check below can fail)
    before = page.locator("#controls").inner_text() + " " + page.locator("#board-text").text_content()
    assert TURN_WORDS.search(before), before
    post_json(f"{live_server.url}/api/matches/{view['id']}/resign", {"seat": 0})
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    banner = page.locator("#result").inner_text()
    assert "resigned" in banner
    page.wait_for_function("t => document.querySelector('#board-text').textContent.includes(t)", arg=banner)
    said = page.locator("#board-text").text_content()
    assert not TURN_WORDS.search(said), said
    assert page.locator("#controls").inner_text().strip() == left
