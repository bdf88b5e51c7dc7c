"""The match page sends its moves over its open WebSocket (issue 44 §1; docs: api/guide.md "Moves
over the socket"): a move clicked on the board goes as a frame, no POST …/actions, and the board
shows it; a refused one shows its refusal under the board as a refused POST did; without a socket
the page POSTs its moves as before. Nibble, nibble.md §7 example 1 (the corners free)."""

from __future__ import annotations

import json
import time

from httputil import get_json, post_json

WAIT_HUMAN = "() => { const v = window.abstractaView; return v && v.human_to_move && !v.thinking; }"


def watched(page) -> dict[str, list]:
    """The page's requests to …/actions, its socket's frames sent and received, its errors."""
    log: dict[str, list] = {"posts": [], "sent": [], "received": [], "errors": []}
    page.on("request", lambda r: log["posts"].append(r.url) if r.url.endswith("/actions") else None)
    page.on("pageerror", lambda e: log["errors"].append(str(e)))

    def socket(ws):
        if ws.url.endswith("/ws"):
            ws.on("framesent", lambda payload: log["sent"].append(payload))
            ws.on("framereceived", lambda payload: log["received"].append(payload))

    page.on("websocket", socket)
    return log


def open_match(page, server) -> str:
    record = {"format": "abstracta-record", "version": 1, "game": "nibble", "options": {"first_player": 0},
              "seed": 1, "start": None, "players": [], "moves": []}
    view = post_json(f"{server.url}/api/matches/import", {"record": record, "seats": ["human", "human"]})
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_function(WAIT_HUMAN)
    return view["id"]


def until(predicate, page, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        page.wait_for_timeout(50)


def moves_sent(log) -> list[dict]:
    frames = [json.loads(f) for f in log["sent"] if isinstance(f, str) and f.startswith("{")]
    return [f for f in frames if "move" in f]


def test_a_move_clicked_on_the_board_goes_over_the_socket(page, live_server):
    log = watched(page)
    mid = open_match(page, live_server)
    page.wait_for_function("() => document.getElementById('app').dataset.live === 'socket'")
    # the socket's first view has come (until then a move would be POSTed)
    until(lambda: any('"revision"' in f for f in log["received"] if isinstance(f, str)), page)
    page.click("[data-cell='a1']")  # one click: a1, and the turn ends
    page.wait_for_function("() => window.abstractaView.ply === 2 && !window.abstractaView.thinking")
    assert "taken" in (page.locator("[data-cell='a1']").get_attribute("class") or "")  # the board shows it
    assert page.evaluate("window.abstractaView.moves") == ["a1", "end"]
    assert get_json(f"{live_server.url}/api/matches/{mid}/record")["moves"] == ["a1", "end"]
    sent = moves_sent(log)
    assert len(sent) == 1 and sent[0]["move"]["ply"] == 0 and isinstance(sent[0]["id"], int)
    acks = [json.loads(f) for f in log["received"] if isinstance(f, str) and '"ack"' in f]
    assert acks == [{"ack": sent[0]["id"], "ply": 2}]
    # the other seat (this device holds both) moves over the socket too
    page.click("[data-cell='b1']")
    page.wait_for_function("() => window.abstractaView.ply === 4 && !window.abstractaView.thinking")
    assert len(moves_sent(log)) == 2
    assert log["posts"] == []  # no POST …/actions at all
    assert not page.locator("#error").is_visible()
    assert not log["errors"], log["errors"]


def test_a_move_refused_over_the_socket_shows_its_refusal(page, live_server):
    log = watched(page)
    open_match(page, live_server)
    page.wait_for_function("() => document.getElementById('app').dataset.live === 'socket'")
    until(lambda: any('"revision"' in f for f in log["received"] if isinstance(f, str)), page)
    page.fill("#move-input", "end")  # not a turn: the server refuses it (422)
    page.press("#move-input", "Enter")
    page.wait_for_selector("#error:not([hidden])")
    assert "end" in page.locator("#error").text_content()
    assert page.evaluate("window.abstractaView.ply") == 0
    frames = [json.loads(f) for f in log["received"] if isinstance(f, str)]
    refused = [f for f in frames if "error" in f]
    assert [(r["status"], r["id"]) for r in refused] == [(422, moves_sent(log)[0]["id"])]
    assert log["posts"] == []
    # the socket stays open: the next move goes over it
    page.click("[data-cell='a1']")
    page.wait_for_function("() => window.abstractaView.ply === 2")
    assert log["posts"] == [] and len(moves_sent(log)) == 2
    assert page.evaluate("document.getElementById('app').dataset.live") == "socket"
    assert not log["errors"], log["errors"]


def test_without_a_socket_the_page_posts_its_moves(page, live_server):
    page.add_init_script("delete window.WebSocket;")  # a browser without WebSockets: polling
    log = watched(page)
    mid = open_match(page, live_server)
    assert page.evaluate("document.getElementById('app').dataset.live") != "socket"
    page.click("[data-cell='a1']")
    page.wait_for_function("() => window.abstractaView.ply === 2")
    assert len(log["posts"]) == 1 and log["posts"][0].endswith(f"/api/matches/{mid}/actions")
    assert log["sent"] == []
    assert not log["errors"], log["errors"]
