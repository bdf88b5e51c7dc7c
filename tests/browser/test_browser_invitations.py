"""Playing at a distance in the browser (issue 13, the page's side): the new-game form with a
friend's seat and a clock, the invitation links (copy, new links), the join page and its
"Take this seat", a whole game by two browsers through that link while a third watches with
the clocks running in all three, a takeback asked in one browser and answered in the other,
a refused undo past a drawn card, and a flag falling. Screenshots at 1280 and 390 px go into
the ``shots`` folder (``distance-*.png``)."""

from __future__ import annotations

import json
import random
import re
import time
import urllib.error
import urllib.request

import abstracta
from httputil import first_moves, get_json, give, no_sideways_scroll, post_json, seat_page

CLOCK = re.compile(r"^\d+:\d\d(\.\d)?$")  # m:ss, or 0:0s.t under 10 s


def status_of(url: str, body) -> int:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def fresh_page(browser, width: int = 1280, height: int = 900):
    context = browser.new_context_without_tokens(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15000)
    return context, page


def clock_texts(page) -> list[str]:
    return page.locator("#players .clock").all_inner_texts()


def seconds(text: str) -> float:
    m, s = text.split(":")
    return int(m) * 60 + float(s)


def test_invited_friend_joins_by_the_link_and_plays_a_whole_game_watched_with_clocks(browser, live_server, shots):
    contexts = []
    try:
        # the creator fills in the form: White is "me", Black a friend, 10 + 5
        ctx_a, a = fresh_page(browser)
        contexts.append(ctx_a)
        a.goto(f"{live_server.url}/#/new/fanorona")
        a.select_option("#opt-size", "telo")
        a.select_option("#seat-0", "human")
        a.select_option("#seat-1", "friend")
        a.select_option("#clock", "live:600:5")
        a.screenshot(path=str(shots / "distance-new-game-1280.png"), full_page=True)
        a.click("#start")
        a.wait_for_function("() => location.hash.startsWith('#/match/') && window.abstractaView")
        view = a.evaluate("window.abstractaView")
        mid = view["id"]
        assert view["my_seats"] == [0] and view["claimed"] == [True, False] and view["players"] == ["human", "human"]
        assert view["clock"]["control"] == {"initial": 600, "increment": 5}
        assert view["clock"]["running"] is None  # waiting for the friend
        # no move before the friend has taken the seat (issue 38 §1): the page says so and offers none
        assert view["waiting_for"] == [1]
        assert a.locator("#status").inner_text() == "Waiting for Black to take their seat"
        assert a.locator("#legal .move").count() == 0 and a.locator("#move-input").get_attribute("aria-disabled") == "true"
        assert a.locator("#players").inner_text() == "White (you) 10:00 vs Black (invited) 10:00"
        assert clock_texts(a) == ["10:00", "10:00"]
        first = a.input_value("#invite-link-1")
        assert first.startswith(f"{live_server.url}/#/join/") and len(first.rsplit("/", 1)[1]) == 22
        a.screenshot(path=str(shots / "distance-invite-1280.png"), full_page=True)
        # new links: the first code stops working
        a.click("#reinvite")
        a.wait_for_function(f"() => document.getElementById('invite-link-1').value !== {json.dumps(first)}")
        link = a.input_value("#invite-link-1")
        assert a.locator("#invites-note").inner_text() == "New links made: the earlier ones no longer work."
        assert status_of(f"{live_server.url}/api/invites/lookup", {"code": first.rsplit("/", 1)[1]}) == 404
        a.set_viewport_size({"width": 390, "height": 844})
        assert no_sideways_scroll(a)
        a.screenshot(path=str(shots / "distance-invite-390.png"), full_page=True)
        a.set_viewport_size({"width": 1280, "height": 900})

        # the friend opens the link in their own browser: what it is for, then "Take this seat"
        ctx_b, b = fresh_page(browser)
        contexts.append(ctx_b)
        b.goto(first)
        assert "There is no such invitation" in b.locator("#join-error").inner_text()
        b.goto(link)
        b.locator("#take-seat").wait_for()
        assert b.locator("#join-what").inner_text() == "You are invited to play Fanorona — Telo 3×3 as Black."
        # the creator became a guest when it invited a friend (issue 41): the seat says its name
        creator = get_json(f"{live_server.url}/api/matches/{mid}")["people"][0]
        assert creator["kind"] == "guest" and creator["name"].startswith("Guest")
        assert b.locator("#join-seats").inner_text().splitlines() == [
            f"White — {creator['name']}", "Black — this invitation"]
        b.screenshot(path=str(shots / "distance-join-1280.png"), full_page=True)
        b.set_viewport_size({"width": 360, "height": 740})
        assert no_sideways_scroll(b)
        b.set_viewport_size({"width": 390, "height": 844})
        b.screenshot(path=str(shots / "distance-join-390.png"), full_page=True)
        b.set_viewport_size({"width": 1280, "height": 900})
        b.click("#take-seat")
        b.wait_for_function(f"() => location.hash === '#/match/{mid}' && window.abstractaView")
        assert b.evaluate("window.abstractaView.my_seats") == [1]
        assert json.loads(b.evaluate("localStorage.getItem('abstracta.tokens')"))[mid].keys() == {"1"}
        assert b.locator("#watching").is_hidden()

        # the creator's page follows: the invitation is gone; each side makes its first move
        # (no time counted), then White's clock runs, White moves
        a.wait_for_function("() => window.abstractaView.claimed[1] && document.getElementById('invites').hidden")
        while True:
            state = get_json(f"{live_server.url}/api/matches/{mid}")
            if {0, 1} <= set(state["movers"]) and state["to_move"] == 0:
                break
            page = (a, b)[state["to_move"]]
            page.wait_for_function(f"() => window.abstractaView.ply === {state['ply']} && "
                                   "window.abstractaView.legal.length > 0")
            page.evaluate("document.querySelector('#legal [data-move]').click()")
            page.wait_for_function(f"() => window.abstractaView.ply > {state['ply']}")
        a.wait_for_selector("#players .clock.running[data-clock='0']")
        assert a.locator("#status").inner_text() == "Your move (White)"

        # a third browser, without tokens, watches
        ctx_c, c = fresh_page(browser)
        contexts.append(ctx_c)
        c.goto(f"{live_server.url}/#/match/{mid}")
        c.wait_for_function("() => window.abstractaView")
        assert c.locator("#watching").inner_text() == "You are watching: the moves appear here as they are played."
        # a spectator is offered nothing the server would refuse: no takeback, resign or move box
        assert c.locator("#undo").count() == 0 and c.locator("#resign").count() == 0
        assert c.locator("#move-input").is_hidden() and c.locator("#download").is_visible()
        assert c.locator("#invites").is_hidden()
        pages = [a, b, c]

        # every page shows both clocks, White's counting down
        for page in pages:
            page.wait_for_selector("#players .clock.running[data-clock='0']")
            texts = clock_texts(page)
            assert len(texts) == 2 and all(CLOCK.match(t) for t in texts), texts
            assert texts[1] == "10:00"
        before = seconds(clock_texts(c)[0])
        time.sleep(1.3)
        after = seconds(clock_texts(c)[0])
        assert 0.8 <= before - after <= 2.5, (before, after)
        assert abs(seconds(clock_texts(a)[0]) - after) <= 1.5  # both pages count from the server's time
        c.screenshot(path=str(shots / "distance-spectator-clocks-1280.png"), full_page=True)

        rng = random.Random(13)
        for _ in range(300):
            state = get_json(f"{live_server.url}/api/matches/{mid}")
            if state["status"] == "over":
                break
            mover = state["to_move"]
            page = pages[mover]
            page.wait_for_function(f"() => window.abstractaView.ply === {state['ply']} && "
                                   "window.abstractaView.legal.length > 0")
            assert page.locator("#status").inner_text().startswith("Your move")
            assert pages[1 - mover].evaluate("window.abstractaView.legal") == []
            move = rng.choice(page.evaluate("window.abstractaView.legal"))
            page.evaluate(f"document.querySelector('#legal [data-move=\"{move}\"]').click()")
            for other in pages:
                other.wait_for_function(f"() => window.abstractaView.ply > {state['ply']} || "
                                        "window.abstractaView.status === 'over'")
        final = get_json(f"{live_server.url}/api/matches/{mid}")
        assert final["status"] == "over" and final["termination"] == "normal"
        banners = []
        for page in pages:
            page.wait_for_function("() => window.abstractaView.status === 'over'")
            page.locator("#result").wait_for(state="visible")
            banners.append(page.locator("#result").inner_text())
            assert page.locator("#players .clock.running").count() == 0  # stopped at the end
        # each player reads its own outcome first (issue 38 item 5), then the line where a seat
        # played here keeps its colour and the others are named (the friend is a guest too, issue 41)
        names = [p["name"] for p in final["people"]]
        assert names[1].startswith("Guest") and names[1] != names[0]
        won = 0 if final["result"][0] > 0 else 1
        colour = ("White", "Black")[won]
        end = final['struct']['end']['text']
        own = ["You win. " if won == i else "You lose. " for i in (0, 1)]
        assert banners == [f"{own[0]}{colour if won == 0 else names[1]} wins. {end}.",
                           f"{own[1]}{colour if won == 1 else names[0]} wins. {end}.", f"{names[won]} wins. {end}."]
        c.screenshot(path=str(shots / "distance-spectator-end-1280.png"), full_page=True)
        c.set_viewport_size({"width": 390, "height": 844})
        assert no_sideways_scroll(c)
        c.screenshot(path=str(shots / "distance-spectator-end-390.png"), full_page=True)

        # the used link says so to anyone else; the friend who took the seat is told it is theirs;
        # "Your games" names the seat played in this browser
        c.goto(link)
        assert "was used already" in c.locator("#join-error").inner_text()
        b.goto(link)
        assert b.locator("#join-mine").inner_text() == "You took this seat (Black) with this link: play on."
        assert b.locator("#join-error").count() == 0
        b.goto(f"{live_server.url}/#/matches")
        row = b.locator(f"tr[data-id='{mid}']")
        row.wait_for()
        assert row.locator("td.yours").inner_text() == "Black"
        assert f"White ({names[0]}) vs Black (you)" in row.inner_text()
        b.set_viewport_size({"width": 390, "height": 844})
        assert no_sideways_scroll(b)  # the table scrolls inside its box
        b.screenshot(path=str(shots / "distance-your-games-390.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()


def test_new_game_form_copies_the_link_and_needs_a_seat_of_mine(browser, live_server, shots):
    context, page = fresh_page(browser, 390, 844)
    try:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
        page.goto(f"{live_server.url}/#/new/nibble")
        page.select_option("#opt-first_player", "0")  # the invited player starts
        page.select_option("#seat-0", "friend")
        page.select_option("#seat-1", "friend")
        page.click("#start")
        assert "Choose “Me, on this device” for one seat" in page.locator("form .error").inner_text()
        page.select_option("#seat-1", "human")
        page.select_option("#clock", "turn:86400")
        assert no_sideways_scroll(page)
        page.screenshot(path=str(shots / "distance-new-game-390.png"), full_page=True)
        page.click("#start")
        page.wait_for_function("() => location.hash.startsWith('#/match/') && window.abstractaView")
        view = page.evaluate("window.abstractaView")
        assert view["my_seats"] == [1] and view["claimed"] == [False, True]
        assert view["clock"]["control"] == {"per_turn": 86400}
        # colourless seats: the one played here is "You", the invited one "Player 1"
        assert page.locator("#status").inner_text() == "Waiting for Player 1 to take their seat"
        assert clock_texts(page) == ["1 d 0 h", "1 d 0 h"]  # a correspondence clock in days and hours
        page.click("#copy-0")
        page.wait_for_function("() => document.getElementById('invites-note').textContent === 'Copied the link for Player 1.'")
        assert page.evaluate("navigator.clipboard.readText()") == page.input_value("#invite-link-0")
        page.set_viewport_size({"width": 360, "height": 740})
        assert no_sideways_scroll(page)
    finally:
        context.close()


def test_a_takeback_asked_in_one_browser_is_answered_in_the_other(browser, live_server, shots):
    view = post_json(f"{live_server.url}/api/matches",
                     {"game": "fanorona", "options": {"size": "telo"}, "seats": ["human", "human"], "take": [0]})
    mid = view["id"]
    joined = post_json(f"{live_server.url}/api/invites/claim", {"code": view["invites"][0]["code"]})
    contexts, pages = [], []
    try:
        for seat, token in ((0, view["tokens"][0]["token"]), (1, joined["tokens"][0]["token"])):
            context, page = seat_page(browser, live_server.url, mid, {seat: token})
            contexts.append(context)
            pages.append(page)
        a, b = pages

        def white_moves(ply: int) -> str:
            a.wait_for_function(f"() => window.abstractaView.ply === {ply} && window.abstractaView.legal.length")
            move = a.evaluate("window.abstractaView.legal[0]")
            a.evaluate(f"document.querySelector('#legal [data-move=\"{move}\"]').click()")
            b.wait_for_function(f"() => window.abstractaView.ply === {ply + 1}")
            return move

        white_moves(0)
        undo = a.locator("#undo")
        assert undo.inner_text() == "Ask to take back" and b.locator("#undo").is_disabled() is False
        undo.click()
        b.wait_for_selector("#takeback-accept")
        assert b.locator("#takeback-text").inner_text() == "White asks to take back their last turn"
        a.wait_for_selector("#takeback-withdraw")
        assert a.locator("#takeback-text").inner_text() == "You asked to take back your last turn — waiting for Black…"
        assert a.locator("#undo").is_disabled()  # one request at a time
        b.screenshot(path=str(shots / "distance-takeback-1280.png"), full_page=True)
        b.set_viewport_size({"width": 390, "height": 844})
        assert no_sideways_scroll(b)
        b.screenshot(path=str(shots / "distance-takeback-390.png"), full_page=True)
        b.click("#takeback-accept")
        # the takeback is gone and said so, to the asker in its own words, until the next move
        said = {0: "Your takeback was accepted: your last turn is taken back.",
                1: "White's takeback was accepted: their last turn is taken back."}
        for seat, page in enumerate(pages):
            page.wait_for_function("() => window.abstractaView.ply === 0 && !window.abstractaView.takeback")
            page.wait_for_selector("#takeback-text")
            assert page.locator("#takeback-text").inner_text() == said[seat]
        assert get_json(f"{live_server.url}/api/matches/{mid}")["moves"] == []

        # asked again and declined: the asker is told
        white_moves(0)
        a.click("#undo")
        b.click("#takeback-decline")
        a.wait_for_function("() => document.getElementById('takeback-text') && "
                            "document.getElementById('takeback-text').textContent === 'Black declined to take back your last turn.'")
        assert a.evaluate("window.abstractaView.ply") == 1
        # asked and withdrawn: the question leaves the other page, without a "declined"
        a.click("#undo")
        b.wait_for_selector("#takeback-accept")
        a.click("#takeback-withdraw")
        b.wait_for_function("() => document.getElementById('takeback').hidden")
        a.wait_for_function("() => document.getElementById('takeback').hidden")
        assert get_json(f"{live_server.url}/api/matches/{mid}")["ply"] == 1
    finally:
        for context in contexts:
            context.close()


def test_undo_past_a_drawn_card_shows_the_servers_reason(page, live_server):
    # the person (seat 1) drew from the stock and must play the 3h now: going back would show
    # the drawn card twice, so the server refuses and the page says why
    record = {"format": "abstracta-record", "version": 1, "game": "fibonacci-cards", "options": {}, "seed": None,
              "start": "2c 5d Jh | 7h,Kd,5s,Qd,3c | 4c,6d,Jc | 3h,9h | 0", "players": [], "moves": ["5s/2", "draw"]}
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record, "seats": ["level:1", "human"]})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    assert page.locator("#undo").inner_text() == "Undo"  # against the computer: immediate, no request
    page.click("#undo")
    error = page.locator("#error")
    error.wait_for(state="visible")
    assert error.inner_text() == ("ply 2 (draw) showed hidden information or a chance outcome; "
                                  "no undo goes back past it")
    assert page.evaluate("window.abstractaView.ply") == 2


def test_a_flag_falls_and_the_page_claims_it(browser, live_server, shots):
    view = post_json(f"{live_server.url}/api/matches",
                     {"game": "fanorona", "options": {"size": "telo"}, "seats": ["human", "human"], "take": [0],
                      "clock": {"initial": 4, "increment": 0}})
    mid = view["id"]
    joined = post_json(f"{live_server.url}/api/invites/claim", {"code": view["invites"][0]["code"]})
    first_moves(live_server.url, mid)  # White's clock runs after each side's first move
    contexts = []
    try:
        # White's page learns nothing from the server by itself (no WebSocket, its polls fail as
        # if the connection were down), so the end can only come from the page's own claim
        ctx_a, a = fresh_page(browser)
        contexts.append(ctx_a)
        give(ctx_a, mid, {0: view["tokens"][0]["token"]})
        ctx_a.add_init_script("delete window.WebSocket")
        loads = []

        def stale(route):
            if route.request.method == "GET" and not loads:
                loads.append(1)
                route.continue_()
            else:
                route.abort()

        a.route(re.compile(rf".*/api/matches/{mid}$"), stale)
        flags = []
        a.on("request", lambda r: flags.append(r.method) if r.url.endswith(f"/api/matches/{mid}/flag") else None)
        a.goto(f"{live_server.url}/#/match/{mid}")
        low = a.locator("#players .clock.running.low[data-clock='0']")
        low.wait_for()
        assert a.evaluate("getComputedStyle(document.querySelector('.clock.low')).backgroundColor") == "rgb(168, 50, 45)"
        assert seconds(low.inner_text()) < 4
        a.locator("#result").wait_for(state="visible", timeout=10000)
        # Black's page, opened afterwards (its WebSocket would have let the server apply the flag
        # by itself first), shows the same end
        ctx_b, b = fresh_page(browser, 390, 844)
        contexts.append(ctx_b)
        give(ctx_b, mid, {1: joined["tokens"][0]["token"]})
        b.goto(f"{live_server.url}/#/match/{mid}")
        b.locator("#result").wait_for(state="visible")
        assert a.locator("#result").inner_text() == "You lose. White ran out of time — Black wins"
        assert b.locator("#result").inner_text() == "You win. White ran out of time — Black wins"
        assert flags == ["POST"]  # claimed once
        final = get_json(f"{live_server.url}/api/matches/{mid}")
        assert final["termination"] == "time" and final["result"] == [-1.0, 1.0]
        assert a.locator("#players .clock").all_inner_texts()[0] == "0:00.0"
        a.screenshot(path=str(shots / "distance-flag-1280.png"), full_page=True)
        assert no_sideways_scroll(b)
        b.screenshot(path=str(shots / "distance-flag-390.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()


def test_the_join_page_counts_the_turns_played_not_the_actions(page, live_server):
    # "N moves played so far" counted the view's actions: Nibble's i9, end and a1, a9 (two turns,
    # 1. i9 2. a1+a9 in the move list) read "4 moves"; it counts turns, as "Your games" does
    record = {"game": "nibble", "options": {"first_player": 0}, "seed": 1, "moves": ["i9", "end", "a1+a9"]}
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record, "seats": ["human", "human"], "take": [0]})
    assert (view["ply"], [t["moves"] for t in view["move_list"]]) == (4, [["i9"], ["a1+a9"]])
    page.goto(f"{live_server.url}/#/join/{view['invites'][0]['code']}")
    page.locator("#take-seat").wait_for()
    assert page.locator("#join-played").inner_text() == "2 moves played so far."
    page.click("#lang button[data-lang='fi']")
    page.wait_for_function("() => (document.getElementById('join-played') || {}).textContent === "
                           "'Tähän mennessä pelattu 2 siirtoa.'")
    page.click("#lang button[data-lang='en']")
    # a new game: none yet
    fresh = post_json(f"{live_server.url}/api/matches", {"game": "nibble", "seats": ["human", "human"], "take": [0]})
    page.goto(f"{live_server.url}/#/join/{fresh['invites'][0]['code']}")
    page.locator("#take-seat").wait_for()
    assert page.locator("#join-played").inner_text() == "No move played yet."


def test_the_join_page_names_the_variant(page, live_server):
    # the invitation read "Invitation to Fibonacci" for a Card variant game that the match view
    # heads "Fibonacci — Card variant"; it names the variant as the match does
    made = post_json(f"{live_server.url}/api/matches", {"game": "fibonacci", "options": {"variant": "cards"},
                                                        "seats": ["human", "human"], "take": [0]})
    page.goto(f"{live_server.url}/#/join/{made['invites'][0]['code']}")
    page.locator("#take-seat").wait_for()
    assert page.locator("h1").inner_text() == "Invitation to Fibonacci — Card variant"
    assert page.locator("#join-what").inner_text().startswith("You are invited to play Fibonacci — Card variant as ")
    page.click("#lang button[data-lang='fi']")
    page.wait_for_function("() => document.querySelector('h1')?.textContent === 'Kutsu peliin: Fibonacci — Korttimuunnelma'")
    page.click("#lang button[data-lang='en']")


def test_the_join_page_counts_what_was_played_before_the_first_turn(page, live_server):
    # Fibonacci Go's placements come before the rules' first turn (turn number 0): the join page
    # counted the last turn's number and said "No move played yet." beside a board with pieces
    # on it. It counts what the move list lists: each placement an entry, then the turns.
    game = abstracta.load_game("fibonacci", variant="go")
    state, rng, moves = game.new_initial_state(), random.Random(2), []
    while state.to_struct(None)["board"]["t"] < 3:  # the 26 placements, turns 1 and 2
        action = rng.choice(state.legal_actions())
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    for played, said, fi in ((3, "3 moves played so far.", "Tähän mennessä pelattu 3 siirtoa."),
                             (26, "26 moves played so far.", None),
                             (len(moves), f"{26 + 2} moves played so far.", None)):
        record = {"game": "fibonacci", "options": {"variant": "go"}, "moves": moves[:played]}
        view = post_json(f"{live_server.url}/api/matches/import", {"record": record, "seats": ["human", "human"], "take": [0]})
        assert (len(view["move_list"]), max(view["turn_numbers"])) == (played, max(0, played - 26))
        page.goto(f"{live_server.url}/#/join/{view['invites'][0]['code']}")
        page.locator("#take-seat").wait_for()
        assert page.locator("#join-played").inner_text() == said
        if fi:
            page.click("#lang button[data-lang='fi']")
            page.wait_for_function(f"() => (document.getElementById('join-played') || {{}}).textContent === '{fi}'")
            page.click("#lang button[data-lang='en']")
            page.wait_for_function(f"() => (document.getElementById('join-played') || {{}}).textContent === '{said}'")
