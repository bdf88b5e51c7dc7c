"""Browser checks of a second newcomer's findings: a late answer to a move must not replace a newer
live update (the page stuck on "thinking"), Nibble only lets the player pick a set of discs that
is a legal whole turn, and small display fixes (no ⏳ glyph, pluralised disc counts)."""

from __future__ import annotations

import json
import urllib.request

import pytest
from httputil import get_json, post_json, remember


WAIT_HUMAN = "() => { const v = window.abstractaView; return v && v.human_to_move && !v.thinking; }"


def test_late_move_answer_does_not_hide_the_computers_reply(page, live_server, shots):
    """The computer's reply (revision N+1) reaches the page over the WebSocket before the answer
    to the person's own move (the ack of the move sent on the socket, held back here until the
    reply's view has been pushed): the page must keep the newer state."""
    view = post_json(f"{live_server.url}/api/matches",
                     {"game": "fanorona", "options": {}, "seats": ["human", "level:1"]})
    mid = view["id"]
    remember(page, view)
    held: dict = {}

    def hold_the_ack(route):
        server = route.connect_to_server()
        route.on_message(server.send)

        def from_server(message):
            frame = json.loads(message) if isinstance(message, str) else {}
            if "ack" in frame:  # held until the computer's reply has been pushed
                held["ack"] = message
                held["ply"] = frame["ply"]
                return
            route.send(message)
            if "ack" in held and frame.get("ply", -1) > held["ply"] and not frame.get("thinking"):
                held["released"] = frame["revision"]
                route.send(held.pop("ack"))

        server.on_message(from_server)

    page.route_web_socket(f"**/api/matches/{mid}/ws", hold_the_ack)
    page.goto(f"{live_server.url}/#/match/{mid}")
    page.wait_for_function("() => document.getElementById('app').dataset.live === 'socket'")
    page.wait_for_function(WAIT_HUMAN)
    start = page.evaluate("window.abstractaView")
    page.wait_for_timeout(300)  # the socket's first view has come: the move goes over it
    page.fill("#move-input", start["legal"][0])
    page.press("#move-input", "Enter")
    page.wait_for_function(f"() => window.abstractaView.ply > {start['ply']} && !document.querySelector('#move-input').readOnly",
                           timeout=40000)
    page.wait_for_timeout(300)  # nothing older may arrive afterwards and replace it
    view = page.evaluate("window.abstractaView")
    server = get_json(f"{live_server.url}/api/matches/{mid}")
    assert "released" in held, "the move did not go over the socket, or the computer did not reply"
    assert view["revision"] == server["revision"] >= held["released"]
    assert view["human_to_move"] and not view["thinking"]
    assert "thinking" not in page.locator("#status").inner_text()
    page.screenshot(path=str(shots / "race-after-reply.png"))


NIBBLE_SPLIT = ("........./.....CE../....ABC../..FHBA.../..DIAD.../.CGCGH.../.AHIE..../........./......... "
                "1 3-3-4-2-4-6-6-0-3 2-4-1-5-3-2-1-6-4")  # seed 6 after 59 random entries: g7, f8 both free G


def import_start(page, server, game: str, start: str) -> str:
    record = {"format": "abstracta-record", "version": 1, "game": game, "options": {},
              "start": start, "players": [], "moves": []}
    view = post_json(f"{server.url}/api/matches/import", {"record": record, "seats": ["human", "human"]})
    remember(page, view)
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_function(WAIT_HUMAN)
    return view["id"]


def test_nibble_only_lets_the_player_pick_a_legal_turn(page, live_server, shots):
    mid = import_start(page, live_server, "nibble", NIBBLE_SPLIT)
    assert "g7+f8" not in page.evaluate("window.abstractaView.turns")
    page.click("#add-more")
    page.click("[data-cell='g7']")
    f8 = page.locator("[data-cell='f8']")
    assert "blocked" in f8.get_attribute("class")  # taking g7 and f8 would split the board
    assert "clickable" in page.locator("[data-cell='b4']").get_attribute("class")
    page.screenshot(path=str(shots / "nibble-blocked.png"))
    f8.click()  # refused on the page: the picked set stays g7
    assert page.locator("#take").inner_text() == "Take g7"
    page.click("[data-cell='b4']")
    assert page.locator("#take").inner_text() == "Take b4+g7"
    page.click("#take")
    page.wait_for_function("() => window.abstractaView.ply >= 2")
    assert not page.locator("#error").is_visible()
    assert get_json(f"{live_server.url}/api/matches/{mid}/record")["moves"] == ["b4+g7"]
    # the cells just taken are marked, and a table of one disc is not "1 discs"
    assert page.locator("[data-cell='b4'].taken, [data-cell='g7'].taken").count() == 2
    assert " 1 discs" not in page.locator(".collect-tables").inner_text()
    page.screenshot(path=str(shots / "nibble-taken.png"))


def open_match(page, server, game: str, seats, moves: int = 0) -> dict:
    """A new match, ``moves`` legal moves played through the API, shown in the page."""
    view = post_json(f"{server.url}/api/matches", {"game": game, "options": {}, "seats": seats})
    for _ in range(moves):
        view = post_json(f"{server.url}/api/matches/{view['id']}/actions", {"action": view["legal"][0], "ply": view["ply"]})
    remember(page, view)
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_function(f"() => window.abstractaView && window.abstractaView.ply >= {view['ply']}")
    return view


def test_thinking_spinner_is_not_an_emoji(page, live_server, shots):
    with urllib.request.urlopen(f"{live_server.url}/style.css") as r:
        assert "⏳" not in r.read().decode()
    open_match(page, live_server, "fanorona", ["level:6", "human"])
    page.wait_for_selector("#status.thinking", timeout=10000)
    content = page.evaluate("getComputedStyle(document.querySelector('#status'), '::after').content")
    assert "⏳" not in content and content in ('""', "none", "")
    assert page.evaluate("getComputedStyle(document.querySelector('#status'), '::after').animationName") == "spin"
    page.locator(".matchhead").screenshot(path=str(shots / "thinking-head.png"))
    page.screenshot(path=str(shots / "thinking.png"), clip={"x": 0, "y": 40, "width": 500, "height": 100})


@pytest.mark.parametrize("game,colours", [
    ("fibonacci", ["rgb(200, 50, 43)", "rgb(47, 138, 62)"]),  # Red, Green
    ("slide-checkers", ["rgb(47, 138, 62)", "rgb(47, 100, 200)"]),  # Green, Blue
])
def test_move_list_badges_use_the_seat_colour(page, live_server, shots, game, colours):
    view = open_match(page, live_server, game, ["human", "human"], moves=2)
    for i, seat in enumerate(view["movers"][:2]):  # the first round: its two turns, in one row
        badge = page.locator("#moves li:nth-child(1) .turn").nth(i).locator(".who")
        assert badge.evaluate("b => getComputedStyle(b).backgroundColor") == colours[seat]
    page.locator("aside.right").screenshot(path=str(shots / f"badges-{game}.png"))


def test_card_game_says_what_an_ace_counts(page, live_server, shots):
    open_match(page, live_server, "fibonacci-cards", ["human", "level:1"])
    hint = page.locator("#card-hint")
    assert hint.is_visible()
    assert "ace counts 14 in your hand and 1 on the table" in hint.inner_text()
    page.screenshot(path=str(shots / "cards-hint.png"))


def test_a_page_left_while_loading_does_not_draw_into_the_next(page, live_server):
    """"Your games" clicked while a match page is still loading: the match page used to finish
    into the list's page (a board under the table, its clock, socket and keys running), until
    a reload."""
    view = post_json(f"{live_server.url}/api/matches",
                     {"game": "fanorona", "options": {"size": "dimy"}, "seats": ["human", "level:1"]})
    page.goto(f"{live_server.url}/#/")
    page.locator(".card").first.wait_for()
    # the match page starts (its request on the way), then the person goes on at once
    page.evaluate("id => { location.hash = `#/match/${id}`; setTimeout(() => { location.hash = '#/matches'; }, 0); }",
                  view["id"])
    page.locator("#match-list").wait_for()
    page.wait_for_timeout(1000)  # time for the match page's requests and board module to come in
    assert page.locator("main h1").all_inner_texts() == ["Your games"]
    assert page.locator("#board, #status, #moves").count() == 0
    assert page.evaluate("document.getElementById('app').dataset.live") is None
    # and the match itself still opens as it should
    page.locator(f"#match-list a[href='#/match/{view['id']}']").click()
    page.wait_for_function("() => document.getElementById('app').dataset.live === 'socket'")
    assert page.locator("main h1").all_inner_texts() == ["Fanorona — Dimy 5×5"]  # the variant named (view.variant)
