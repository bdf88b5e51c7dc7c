"""The end of a game in the reader's own words (issue 38 items 3 and 5): a seat played here reads
its own outcome first ("You win", "You lose"; in a 3–4 player game how and when it went out),
then the colours and why; a spectator reads the colours. English and Finnish."""

from __future__ import annotations

import pytest
from httputil import post_json

#: fanorona.md: one Black stone left; White's capture takes it
ONE_BLACK_STONE = "........./........./......B../........./W.......W W"


def green_knocked_out_then_a_draw() -> list[str]:
    """Three seats of Slide Checkers from ``Gd9,Bd4,Rl12 M G``: Blue's slide-and-jump on the 8th
    turn takes Green's last piece (turned Blue: "e"), then Red and Blue step to and fro for 100
    turns without a jump, and the rules draw the game for the two left (§5)."""
    moves = ["d9-d7", "d4-e5", "l12-k12", "d7-f8", "e5-e6", "k12-l12", "f8-f9", "e6>g8*e10e"]
    for i in range(100):  # Red, Blue, Red, Blue…
        moves.append(("l12-k12", "k12-l12")[i // 2 % 2] if i % 2 == 0 else ("e10-e11", "e11-e10")[i // 2 % 2])
    return moves


THREE = {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "options": {"players": 3},
         "start": "Gd9,Bd4,Rl12 M G", "moves": green_knocked_out_then_a_draw()}


def open_page(browser, url: str, mid: str, locale: str, width: int, tokens: bool = True):
    """A page of ``mid`` in ``locale`` at ``width``: with the seat tokens the tests hold (the
    page plays the person seat), or none (a spectator)."""
    options = {"locale": locale, "viewport": {"width": width, "height": 844 if width < 500 else 900}}
    context = browser.new_context(**options) if tokens else browser.new_context_without_tokens(**options)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{url}/#/match/{mid}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.status === 'over'")
    page.locator("#result").wait_for(state="visible")
    return context, page


@pytest.mark.parametrize("locale, mine, spectator", [
    ("en-US", "You were knocked out on turn 8. Blue and Red draw. 100 turns without a jump: a draw.",
     "Green was knocked out on turn 8 — Blue and Red draw. 100 turns without a jump: a draw."),
    ("fi-FI", "Putosit pelistä vuorolla 8. Sininen ja Punainen pelaavat tasapelin. 100 vuoroa ilman hyppyä: tasapeli.",
     "Vihreä putosi pelistä vuorolla 8 — Sininen ja Punainen pelaavat tasapelin. 100 vuoroa ilman hyppyä: tasapeli."),
])
def test_three_players_the_reader_is_told_when_it_went_out_and_how_the_others_ended(browser, live_server, shots,
                                                                                     locale, mine, spectator):
    # Green against two computers read "Green loses. 100 turns without a jump: a draw.": Green
    # had gone out 100 turns before, and Blue and Red drew
    view = post_json(f"{live_server.url}/api/matches/import", {"record": THREE, "seats": ["human", "level:1", "level:1"]})
    assert view["status"] == "over" and view["result"] == [-1.0, 0.0, 0.0]
    assert view["out_at"] == [{"seat": 0, "ply": 8}] and view["turn_numbers"][7] == 8
    for width in (390, 1100):
        context, page = open_page(browser, live_server.url, view["id"], locale, width)
        try:
            assert page.locator("#result").inner_text() == mine
            page.screenshot(path=str(shots / f"result-3p-{locale}-{width}.png"))
        finally:
            context.close()
    context, page = open_page(browser, live_server.url, view["id"], locale, 1100, tokens=False)
    try:
        assert page.locator("#result").inner_text() == spectator
    finally:
        context.close()


def test_three_players_the_list_of_games_says_who_lost_and_who_drew(page, live_server):
    # the row said "Green loses", as if nobody had drawn (the list does not know when Green went)
    view = post_json(f"{live_server.url}/api/matches/import", {"record": THREE, "seats": ["human", "level:1", "level:1"]})
    page.goto(f"{live_server.url}/#/matches")
    cell = page.locator(f"#match-list tr[data-id='{view['id']}'] td[data-label='Result']")
    assert cell.inner_text() == "Green loses — Blue and Red draw"


@pytest.mark.parametrize("locale, won, spectator", [
    ("en-US", "You win. White wins. ", "White wins. "),
    ("fi-FI", "Voitit. Valkoinen voittaa. ", "Valkoinen voittaa. "),
])
def test_a_colour_seat_reads_you_win_first_and_a_spectator_the_colours(browser, live_server, shots, locale, won, spectator):
    record = {"format": "abstracta-record", "version": 1, "game": "fanorona", "options": {},
              "start": ONE_BLACK_STONE, "moves": []}
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record, "seats": ["human", "level:1"]})
    capture = next(m for m in view["legal"] if m.endswith("A") or m.endswith("W"))
    post_json(f"{live_server.url}/api/matches/{view['id']}/actions", {"action": capture, "ply": 0})
    context, page = open_page(browser, live_server.url, view["id"], locale, 390)
    try:
        text = page.locator("#result").inner_text()
        assert text.startswith(won) and len(text) > len(won), text  # and why (the engine's words)
        page.screenshot(path=str(shots / f"result-win-{locale}-390.png"))
    finally:
        context.close()
    context, page = open_page(browser, live_server.url, view["id"], locale, 1100, tokens=False)
    try:
        text = page.locator("#result").inner_text()
        assert text.startswith(spectator) and len(text) > len(spectator), text
    finally:
        context.close()


@pytest.mark.parametrize("locale, lost", [("en-US", "You lose. White resigned — Black wins"),
                                          ("fi-FI", "Hävisit. Valkoinen luovutti — Musta voittaa")])
def test_a_colour_seat_that_resigned_reads_you_lose_first(browser, live_server, locale, lost):
    view = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "seats": ["human", "level:1"]})
    post_json(f"{live_server.url}/api/matches/{view['id']}/resign", {"seat": 0})
    context, page = open_page(browser, live_server.url, view["id"], locale, 1100)
    try:
        assert page.locator("#result").inner_text() == lost
    finally:
        context.close()


def test_people_sharing_a_device_and_a_game_without_colours_read_no_second_you(browser, live_server):
    # pass and play: both seats are played here, neither is "you"; the card game names its seat
    # "You" already ("You win"), and says it once
    view = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "seats": ["human", "human"]})
    post_json(f"{live_server.url}/api/matches/{view['id']}/resign", {"seat": 1})
    context, page = open_page(browser, live_server.url, view["id"], "en-US", 1100)
    try:
        assert page.locator("#result").inner_text() == "Black resigned — White wins"
    finally:
        context.close()
    view = post_json(f"{live_server.url}/api/matches", {"game": "fibonacci-cards", "seats": ["human", "level:1"]})
    post_json(f"{live_server.url}/api/matches/{view['id']}/resign", {"seat": 0})
    context, page = open_page(browser, live_server.url, view["id"], "en-US", 1100)
    try:
        assert page.locator("#result").inner_text() == "You resigned — Computer (level 1) wins"
    finally:
        context.close()
