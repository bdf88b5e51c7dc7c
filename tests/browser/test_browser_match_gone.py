"""The match page and the refusals of its socket that would come again (match-live.js).

A game deleted while its page is open (its socket closes with 4404, a look at it answers 404) is
said to be gone, in the reader's language, with the ways back, and the page asks the server
nothing more of it: it reopened its socket every 2 s and polled for ever, showing the position
of a game that was no more. A browser holding tokens filed under a match that are not that
match's (the socket closes with 4403, GET shows the game to anyone) watches it over a socket
opened without them, once, instead of reopening the refused one every 2 s. A connection lost
over and over is asked for again less and less often."""

from __future__ import annotations

import json
import re
import time

from httputil import delete_json, post_json
from test_browser_lobby import closing

GONE = {"en": ("This game no longer exists", "One of its players deleted it while this page showed it."),
        "fi": ("Tätä peliä ei ole enää", "Joku sen pelaajista poisti pelin sillä aikaa, kun se oli auki tällä sivulla.")}


def new_match(url: str) -> str:
    """A game of two people in play (its tokens kept by httputil, which deletes it); its id."""
    return post_json(f"{url}/api/matches", {"game": "fanorona", "options": {"size": "telo"},
                                            "seats": ["human", "human"]})["id"]


def asking(page, mid: str) -> dict[str, list]:
    """Everything ``page`` asks of the match from now on: its requests, its sockets opened."""
    log: dict[str, list] = {"requests": [], "sockets": [], "errors": []}
    page.on("request", lambda r: log["requests"].append(r.url) if f"/api/matches/{mid}" in r.url else None)
    page.on("websocket", lambda ws: log["sockets"].append(ws.url) if f"/api/matches/{mid}/" in ws.url else None)
    page.on("pageerror", lambda e: log["errors"].append(str(e)))
    return log


def says_gone(page, lang: str) -> None:
    """The page says the game is gone, in ``lang``, with the ways back, and nothing of the game."""
    page.wait_for_selector("#not-found")
    heading, why = GONE[lang]
    assert page.inner_text("#app h1") == heading
    assert page.inner_text("#not-found") == why
    # the header puts "(N) " in front while games wait for this browser's move (or challenges)
    assert re.fullmatch(rf"(\(\d+\) )?{re.escape(heading)} — abstracta", page.title()), page.title()
    hrefs = page.locator("#app a.button").evaluate_all("links => links.map((a) => a.getAttribute('href'))")
    assert hrefs == ["#/", "#/matches"], hrefs
    for gone in ("#board", "#players", "#move-input", "#chat", "#error"):
        assert page.locator(gone).count() == 0, gone


def asks_no_more(page, log: dict[str, list]) -> None:
    """Nothing more asked of the match (the page reopened its socket 2 s after a close, polled every 1.5 s)."""
    before = (len(log["requests"]), len(log["sockets"]))
    page.wait_for_timeout(5000)
    assert (len(log["requests"]), len(log["sockets"])) == before, (log["requests"][-5:], log["sockets"])


def test_a_game_deleted_while_watched_says_so_and_asks_no_more(browser, live_server, shots):
    url = live_server.url
    mid = new_match(url)
    context = browser.new_context_without_tokens(viewport={"width": 1100, "height": 900})
    with closing(context):
        page = context.new_page()
        page.set_default_timeout(15000)
        log = asking(page, mid)
        page.goto(f"{url}/#/match/{mid}")
        page.wait_for_function("() => document.getElementById('app').dataset.live === 'socket' && "
                               "window.abstractaView.my_seats.length === 0")
        page.wait_for_selector("#watchers:not([hidden])")  # the room's socket is open too
        assert sorted(u.rsplit("/", 1)[1] for u in log["sockets"]) == ["room", "ws"]
        assert delete_json(f"{url}/api/matches/{mid}") == 204
        says_gone(page, "en")  # at once: the socket's close says it
        # a screen reader hears the news: the heading has the focus
        assert page.evaluate("document.activeElement === document.querySelector('#app h1')")
        asks_no_more(page, log)
        assert sorted(u.rsplit("/", 1)[1] for u in log["sockets"]) == ["room", "ws"]
        assert not log["errors"], log["errors"]
        page.screenshot(path=str(shots / "match-gone-1100.png"))
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=str(shots / "match-gone-390.png"))
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        # in Finnish too: a language switch draws the page again, still saying the game went
        page.click("#lang button[data-lang='fi']")
        page.wait_for_function("() => document.documentElement.lang === 'fi' && document.querySelector('#not-found')")
        says_gone(page, "fi")
        page.screenshot(path=str(shots / "match-gone-fi-390.png"))
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        # the ways back lead somewhere
        page.click("#app a.button[href='#/matches']")
        page.wait_for_selector("#no-games")
        assert not log["errors"], log["errors"]


def test_a_players_page_without_a_socket_learns_it_from_its_polling(browser, live_server):
    """No WebSocket: the page polls, and its look at the game answered 404 ends the page likewise
    (it showed "no match with id …" under the board every 1.5 s)."""
    url = live_server.url
    mid = new_match(url)
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="fi-FI")
    context.add_init_script("delete window.WebSocket")
    with closing(context):
        page = context.new_page()  # holding the game's tokens: both seats are this page's
        page.set_default_timeout(15000)
        log = asking(page, mid)
        page.goto(f"{url}/#/match/{mid}")
        page.wait_for_function("() => window.abstractaView && window.abstractaView.my_seats.length === 2")
        page.wait_for_timeout(2000)
        assert log["requests"] and not log["sockets"]  # polling
        assert delete_json(f"{url}/api/matches/{mid}") == 204
        says_gone(page, "fi")
        asks_no_more(page, log)
        assert not log["errors"], log["errors"]


def test_tokens_not_of_the_match_are_left_out_of_its_sockets(browser, live_server):
    """A token filed under the match that none of its seats has: GET shows the game to anyone;
    its socket, refused (4403), opens once more without it, and stays open as a spectator's; so
    does its room's (it stopped: no chat, no count of watchers)."""
    url = live_server.url
    view = post_json(f"{url}/api/matches", {"game": "fanorona", "options": {"size": "telo"}, "seats": ["human", "human"]})
    mid = view["id"]
    context = browser.new_context_without_tokens(viewport={"width": 1100, "height": 900})
    stranger = "A" * 22  # a token's shape: no seat's
    context.add_init_script(f"localStorage.setItem('abstracta.tokens', {json.dumps(json.dumps({mid: {'0': stranger}}))})")
    with closing(context):
        page = context.new_page()
        page.set_default_timeout(15000)
        log = asking(page, mid)
        firsts: list[dict] = []
        closes: list[int] = []

        rooms: list[dict] = []

        def socket(ws):
            if ws.url.endswith("/ws"):
                ws.on("framesent", lambda payload: firsts.append(json.loads(payload)) if '"tokens"' in payload else None)
                ws.on("close", lambda _ws: closes.append(1))
            elif ws.url.endswith("/room"):
                ws.on("framesent", lambda payload: rooms.append(json.loads(payload)) if '"tokens"' in payload else None)

        page.on("websocket", socket)
        page.goto(f"{url}/#/match/{mid}")
        page.wait_for_function("() => window.abstractaView && window.abstractaView.my_seats.length === 0")
        page.wait_for_function("() => document.getElementById('app').dataset.live === 'socket'")
        page.wait_for_timeout(5000)  # the refused socket was reopened every 2 s
        assert [f["tokens"] for f in firsts] == [[stranger], []], firsts
        assert len(closes) == 1 and page.evaluate("document.getElementById('app').dataset.live") == "socket"
        assert page.locator("#watching").is_visible()
        assert [f["tokens"] for f in rooms] == [[stranger], []], rooms
        assert page.inner_text("#watchers") == "1 watching"  # the room's count: this page
        # the game reaches the page over its socket, as anyone sees it
        token = view["tokens"][0]["token"]
        legal = view["legal"][0]
        moved = page.request.post(f"{url}/api/matches/{mid}/actions", data={"action": legal, "ply": 0},
                                  headers={"Authorization": f"Bearer {token}", "Origin": url})
        assert moved.status == 200, moved.text()
        page.wait_for_function("() => window.abstractaView.ply === 1 && window.abstractaView.my_seats.length === 0")
        assert len(log["sockets"]) == 4  # the game's and the room's twice each
        assert not log["errors"], log["errors"]



def test_a_socket_that_keeps_closing_is_reopened_less_and_less_often(page, live_server):
    """Closes of a connection lost (here 1011, the server's error, at every opening) reopen the
    socket 2 s later, then 4 s, 8 s…: every page of a server down is not at its door every 2 s
    (the polling keeps the game up to date meanwhile)."""
    mid = new_match(live_server.url)
    opened: list[float] = []

    def refuse(ws):
        opened.append(time.monotonic())
        ws.close(code=1011, reason="a test's server error")

    page.route_web_socket(re.compile(r"/api/matches/[^/]+/ws$"), refuse)
    log = asking(page, mid)
    page.goto(f"{live_server.url}/#/match/{mid}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.status === 'playing'")
    page.wait_for_timeout(7500)
    gaps = [round(b - a) for a, b in zip(opened, opened[1:])]
    assert gaps == [2, 4], gaps  # 2 s fixed: 2, 2, 2
    # polled meanwhile: a move made elsewhere is on the board
    post_json(f"{live_server.url}/api/matches/{mid}/actions", {"action": page.evaluate("window.abstractaView.legal[0]"), "ply": 0})
    page.wait_for_function("() => window.abstractaView.ply === 1")
    assert not log["errors"], log["errors"]
