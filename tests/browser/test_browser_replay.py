"""Stepping through a long game in the browser fetches the replay page by page (server32): the
whole replay of a 1,666-ply Fibonacci game was one 26 MB answer."""

from __future__ import annotations

import json
import random

import abstracta
from abstracta.core.records import Record
from abstracta.server.views import REPLAY_PAGE
from httputil import post_json


def long_record() -> tuple[Record, list[str]]:
    """A finished Fibonacci game of random play (1,666 plies) and the position text after each ply."""
    game = abstracta.load_game("fibonacci")
    initial = game.new_initial_state()
    state, actions, texts, rng = initial.clone(), [], [initial.to_text()], random.Random(0)
    while not state.is_terminal():
        actions.append(rng.choice(state.legal_actions()))
        state.apply_action(actions[-1])
        texts.append(state.to_text())
    return Record.from_play(game, initial, actions, players=["human", "human"]), texts


def test_stepping_through_a_long_game_fetches_pages(page, live_server):
    record, texts = long_record()
    last = len(texts) - 1
    assert last > 3 * REPLAY_PAGE
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record.to_dict()})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    fetched: list[tuple[str, int]] = []
    page.on("response", lambda r: fetched.append((r.url, len(r.body()))) if "/positions" in r.url else None)
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.locator("#result").wait_for(state="visible")

    page.click("#step-back")
    page.wait_for_function(f"() => document.getElementById('step-at').dataset.ply === '{last - 1}'")
    assert page.locator("#position-text").text_content() == texts[last - 1]
    page.click("#step-back")
    page.wait_for_function(f"() => document.getElementById('step-at').dataset.ply === '{last - 2}'")
    assert page.locator("#position-text").text_content() == texts[last - 2]
    page.locator("#moves a[data-ply='5']").click()
    page.wait_for_function(f"() => document.getElementById('step-at').dataset.ply === '5'")
    assert page.locator("#position-text").text_content() == texts[5]
    # one page for the end (asked once for both steps back), one for the start; each small
    start_of_last = (last - 1) // REPLAY_PAGE * REPLAY_PAGE
    assert [url.split("/positions", 1)[1] for url, _ in fetched] == [f"?from={start_of_last}", "?from=0"]
    assert all(size < 3_000_000 for _, size in fetched), fetched
    assert not errors, errors


def test_home_and_end_keys_jump_to_the_start_and_the_end_of_a_replay(page, live_server):
    record, texts = long_record()
    last = len(texts) - 1
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record.to_dict()})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.locator("#result").wait_for(state="visible")
    page.keyboard.press("Home")
    page.wait_for_function(f"() => document.getElementById('step-at').dataset.ply === '0'")
    assert page.locator("#position-text").text_content() == texts[0]
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => document.getElementById('step-at').dataset.ply === '1'")
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.getElementById('step-at').dataset.ply === '{last}'")
    assert page.locator("#position-text").text_content() == texts[last]


def test_a_replay_page_lost_on_the_way_after_a_new_move_leaves_the_page_working(page, live_server):
    # a move arrives while a person studies an earlier ply: the page drops its replay pages and
    # fetches the ply's page again; when that fetch is lost (the network, a 429), whatever draws
    # the page meanwhile (here "connection lost") drew a replay ply it no longer had a page for
    # and threw, leaving the status line and the board half drawn
    game = abstracta.load_game("fanorona", size="dimy")
    state, moves = game.new_initial_state(), []
    for _ in range(4):
        moves.append(state.action_to_string(state.legal_actions()[0]))
        state.apply_action(state.legal_actions()[0])
    record = {"format": "abstracta-record", "version": 1, "game": "fanorona", "options": {"size": "dimy"},
              "players": ["human", "human"], "moves": moves[:3]}
    mid = post_json(f"{live_server.url}/api/matches/import", {"record": record})["id"]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/#/match/{mid}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.ply === 3")
    page.click("#step-back")
    page.wait_for_function("() => document.getElementById('step-at').dataset.ply === '2'")
    page.route("**/positions*", lambda route: route.abort())
    post_json(f"{live_server.url}/api/matches/{mid}/actions", {"action": moves[3], "ply": 3})
    page.wait_for_function("() => window.abstractaView.ply === 4")
    page.wait_for_timeout(500)
    assert not errors, errors
    # the page shows the live position rather than a ply it holds no page for
    page.unroute("**/positions*")
    assert page.locator("#position-text").text_content() == state.to_text()
    page.click("#step-back")  # and steps back again once the replay can be fetched
    page.wait_for_function("() => document.getElementById('step-at').dataset.ply === '3'")
    assert not errors, errors


def test_a_computer_starting_to_think_keeps_the_replay_pages(browser, live_server):
    # the server pushes a view when a computer starts thinking, at the same revision: the page
    # dropped its replay pages on it too, so a spectator stepping back through a game of two
    # computers fetched /positions twice per move (near the replay's rate limit); only a new
    # revision (other moves) or other eyes drop them
    game = abstracta.load_game("fanorona", size="dimy")
    state, moves = game.new_initial_state(), []
    for _ in range(3):
        moves.append(state.action_to_string(state.legal_actions()[0]))
        state.apply_action(state.legal_actions()[0])
    record = {"format": "abstracta-record", "version": 1, "game": "fanorona", "options": {"size": "dimy"},
              "players": ["human", "human"], "moves": moves}
    mid = post_json(f"{live_server.url}/api/matches/import", {"record": record})["id"]
    context = browser.new_context_without_tokens(viewport={"width": 1100, "height": 900})  # a spectator
    page = context.new_page()
    sockets = []

    def relay(ws):
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket("**/ws", relay)
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if "/positions" in r.url else None)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/#/match/{mid}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.ply === 3 && document.getElementById('app').dataset.live === 'socket'")
    page.click("#step-back")
    page.wait_for_function("() => document.getElementById('step-at').dataset.ply === '2'")
    assert len(fetched) == 1
    spectator_view = page.evaluate("() => window.abstractaView")
    for thinking in (True, False):  # what the server pushes when a computer starts and stops
        sockets[0].send(json.dumps({**spectator_view, "thinking": thinking}))
        page.wait_for_function(f"() => window.abstractaView.thinking === {str(thinking).lower()}")
    page.click("#step-back")
    page.wait_for_function("() => document.getElementById('step-at').dataset.ply === '1'")
    page.wait_for_timeout(300)
    assert len(fetched) == 1, fetched  # ply 1 is on the page held since the first step
    assert page.locator("#position-text").text_content() != state.to_text()
    # a new revision (a move) still drops them: the next step back fetches again
    post_json(f"{live_server.url}/api/matches/{mid}/actions", {"action": state.action_to_string(state.legal_actions()[0]), "ply": 3})
    page.wait_for_function("() => window.abstractaView.ply === 4")
    page.wait_for_function("() => document.getElementById('step-at').dataset.ply === '1'")
    assert len(fetched) == 2, fetched
    assert not errors, errors
    context.close()


def test_steps_clicked_while_a_replay_page_loads_each_count(page, live_server):
    # two quick clicks on ◀ while the page of positions was still on its way both counted back
    # from the position on screen: the page stepped back once. Each click is one step, counted
    # from where the steps already asked go (as lichess steps); ▶ alike. The page is fetched once.
    record, texts = long_record()
    last = len(texts) - 1
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record.to_dict()})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    held = []  # the answers for /positions, let through when the test says
    page.route("**/positions*", lambda route: held.append(route))
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.locator("#result").wait_for(state="visible")

    page.click("#step-back")
    page.click("#step-back")
    page.wait_for_timeout(300)
    assert page.locator("#step-at").get_attribute("data-ply") == f"{last}"  # still loading
    assert len(held) == 1, [r.request.url for r in held]  # one page for both steps
    release(page, held)
    page.wait_for_function(f"() => document.getElementById('step-at').dataset.ply === '{last - 2}'")
    assert page.locator("#position-text").text_content() == texts[last - 2]

    # forward over a page's end: the next page is on its way while ▶ is clicked again
    edge = REPLAY_PAGE - 1
    page.locator(f"#moves a[data-ply='{edge}']").click()
    release(page, held)
    page.wait_for_function(f"() => document.getElementById('step-at').dataset.ply === '{edge}'")
    page.click("#step-fwd")
    page.click("#step-fwd")
    page.click("#step-back")
    page.click("#step-fwd")
    page.wait_for_timeout(300)
    assert page.locator("#step-at").get_attribute("data-ply") == f"{edge}"
    assert [r.request.url.split("/positions", 1)[1] for r in held] == [f"?from={REPLAY_PAGE}"]
    release(page, held)
    page.wait_for_function(f"() => document.getElementById('step-at').dataset.ply === '{edge + 2}'")
    assert page.locator("#position-text").text_content() == texts[edge + 2]
    page.wait_for_timeout(300)
    assert page.locator("#step-at").get_attribute("data-ply") == f"{edge + 2}"  # and stays there
    assert not held and not errors, errors


def release(page, held: list) -> None:
    """Let the one request held back go on (waiting for it to be asked)."""
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1, [r.request.url for r in held]
    held.pop().continue_()
