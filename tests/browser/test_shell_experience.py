"""The shell around the boards says what happened and why (issue: "See what happened and why
the game ended"): endings in the viewer's words, a seat that is out, errors that go away, the
move list by turns, and a new-game form in players' words."""

from __future__ import annotations

from pathlib import Path

from httputil import delete_json, post_json


def open_record(page, server, game, start, options, seats):
    record = {"format": "abstracta-record", "version": 1, "game": game, "options": options, "seed": None,
              "start": start, "players": [], "moves": []}
    view = post_json(f"{server.url}/api/matches/import", {"record": record, "seats": seats})
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.id")
    return view


def test_a_seat_that_is_out_is_told_and_loses_its_controls(page, live_server, shots):
    # Green (seat 0, the person) has no pieces left: Blue and Red, computers, play on (level 3
    # thinks 0.2 s a move and the pieces stand far apart, so the game goes on during the test)
    open_record(page, live_server, "slide-checkers", "Ba1,Ba3,Bc1,Rj12,Rl10,Rl12 M B", {"players": 3},
                ["human", "level:3", "level:3"])
    banner = page.locator("#result")
    banner.wait_for()
    assert banner.inner_text() == "Green is out: Green has no pieces left. The game goes on."
    assert page.locator("#undo").is_disabled() and page.locator("#resign").is_disabled()
    page.screenshot(path=str(shots / "slide-checkers-out.png"))


def test_a_three_player_loss_is_not_called_a_draw(page, live_server):
    # 99 turns without a jump: Blue's step makes it 100, a draw for the two left; Green, out from
    # the start of the record (no turn to name), lost
    view = open_record(page, live_server, "slide-checkers", "Bd4,Bd6,Re8 M B nj=99", {"players": 3},
                       ["human", "human", "human"])
    page.wait_for_function("() => window.abstractaView.human_to_move")
    post_json(f"{live_server.url}/api/matches/{view['id']}/actions", {"action": "d4-d3", "ply": 0})
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    assert page.locator("#result").inner_text() == "Green was knocked out — Blue and Red draw. 100 turns without a jump: a draw."
    assert page.locator("#status").inner_text() == "Game over"


def test_the_result_gives_the_reason_in_the_viewers_words(page, live_server):
    # fanorona.md: one Black stone left; White's capture by approach takes it
    view = open_record(page, live_server, "fanorona", "........./........./......B../........./W.......W W",
                       {}, ["human", "level:1"])
    page.wait_for_function("() => window.abstractaView.human_to_move")
    moves = view["legal"]
    capture = next(m for m in moves if m.endswith("A") or m.endswith("W"))
    post_json(f"{live_server.url}/api/matches/{view['id']}/actions", {"action": capture, "ply": 0})
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    text = page.locator("#result").inner_text()
    # the page plays White: its own outcome first, then the colours and why (issue 38 item 5)
    assert text.startswith("You win. White wins. ") and "Black" in text, text


def test_an_error_goes_away_with_the_next_action(page, live_server):
    view = open_record(page, live_server, "fanorona", None, {"size": "dimy"}, ["human", "human"])
    page.wait_for_function("() => window.abstractaView.human_to_move")
    page.fill("#move-input", "b2-c3")
    page.press("#move-input", "Enter")
    error = page.locator("#error")
    error.wait_for()
    assert "capturing is compulsory" in error.inner_text()
    page.fill("#move-input", "b2-c3A")
    page.press("#move-input", "Enter")
    page.wait_for_function("() => window.abstractaView.ply === 1")
    assert not error.is_visible()


def test_move_list_groups_a_turn(page, live_server):
    # fanorona.md §6 example 3: c3-d3A then d3-d4W is one turn of White's
    view = open_record(page, live_server, "fanorona", "...B...../........./..W.BB.../...B...../........B W", {},
                       ["human", "human"])
    post_json(f"{live_server.url}/api/matches/{view['id']}/actions", {"actions": ["c3-d3A", "d3-d4W"], "ply": 0})
    page.wait_for_function("() => window.abstractaView.ply === 2")
    items = page.locator("ol.moves li")
    assert items.count() == 1
    assert items.first.inner_text() == "1. W c3-d3A, d3-d4W"
    assert page.locator("ol.moves a[data-ply]").count() == 2


def test_new_game_form_speaks_the_players_language(page, live_server):
    page.goto(f"{live_server.url}/#/new/slide-checkers")
    page.locator("#opt-board").wait_for()
    form = page.locator("#new-game").inner_text()
    assert "Board colouring" in form and "mod 12" not in form and "(p,q)" not in form
    assert page.locator("#opt-board option").first.inner_text() == "Classic (1,1)"
    assert page.locator("#rules-link").get_attribute("class") == "button"
    page.goto(f"{live_server.url}/#/new/nibble")
    page.locator("#opt-first_player").wait_for()
    assert page.locator("#opt-first_player").evaluate("s => s.tagName") == "SELECT"
    assert page.locator("#opt-first_player option").all_inner_texts() == ["At random", "Player 1", "Player 2"]
    assert "Who starts" in page.locator("#new-game").inner_text()


def _long_turns(server, plies=36):
    """A Fibonacci match (standard: no chance, so always the same) of ``plies`` actions, the
    longest legal each time: its later turns are rows of moves such as ``j11-k10``."""
    view = post_json(f"{server.url}/api/matches", {"game": "fibonacci", "options": {}, "seats": ["human", "human"]})
    for _ in range(plies):
        moves = [m for m in view["legal"] if m != "pass"] or view["legal"]
        view = post_json(f"{server.url}/api/matches/{view['id']}/actions", {"action": max(moves, key=len), "ply": view["ply"]})
    return view


def test_a_move_in_the_list_is_never_split_over_two_lines(browser, live_server):
    view = _long_turns(live_server)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        page.wait_for_function("() => document.querySelectorAll('ol.moves a[data-ply]').length === 36")
        for width in (360, 390, 450):  # phones of several widths: the turns wrap at other moves
            page.set_viewport_size({"width": width, "height": 844})
            # the turns do wrap (so a split could happen) ...
            assert page.evaluate("""[...document.querySelectorAll('ol.moves li')].some(li =>
                li.getBoundingClientRect().height > 1.5 * li.querySelector('a').getBoundingClientRect().height)""")
            # ... but between moves, never inside one ("e10-" at a line's end, "f10" on the next)
            split = page.evaluate("""[...document.querySelectorAll('ol.moves a[data-ply]')]
                .filter(a => a.getClientRects().length > 1).map(a => a.textContent)""")
            assert split == [], width
    finally:
        context.close()


def test_moves_and_links_are_big_enough_to_tap(browser, live_server):
    # a finger on a phone: every move of the list and every link of the top bar at least
    # 24 px high (WCAG 2.5.8), so that a tap lands on the move meant
    view = _long_turns(live_server, plies=12)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        page.wait_for_function("() => document.querySelectorAll('ol.moves a[data-ply]').length === 12")
        small = page.evaluate("""[...document.querySelectorAll('ol.moves a, header.top a, main summary')]
            .map(e => [e.textContent.trim(), e.getBoundingClientRect()]).filter(([, r]) => r.width > 0 && r.height < 24)
            .map(([text, r]) => `${text}: ${Math.round(r.height)} px`)""")
        assert small == []
        page.locator("ol.moves a[data-ply='3']").tap()
        # the status names the round as the list numbers it (two players: a round a row, as chess
        # lists moves; Fibonacci's turns 1, 2 | 3, 4 | 5: ply 3 is in turn 2, round 1), and the
        # stepper alike; "after move 3" (or "move 3 of 12", counting actions) beside a list
        # reading "1." was two countings of one thing
        page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Replay: round 1 of 3, after ')")
        assert page.locator("#status").inner_text() == "Replay: round 1 of 3, after j10-i10"
        assert page.locator("#step-at").text_content() == "1 / 3"
        assert page.locator("ol.moves li:has(a[data-ply='3']) .n").inner_text() == "1."
        page.locator("ol.moves a[data-ply='3']").tap()
        page.click("button[aria-label='start']")
        page.wait_for_function("() => document.querySelector('#status').textContent === 'Replay: the start, before round 1 of 3'")
    finally:
        context.close()


def test_an_address_that_names_nothing_says_so_and_leads_back(page, live_server):
    # a link cut short or a deleted game: a heading, the reason in a person's words (not the
    # API's "no match with id '…'") and the way back, in English and in Finnish
    for url, heading in ((f"{live_server.url}/#/match/deadbeef00000000", "No such game"),
                         (f"{live_server.url}/#/new/chess", "No such game")):
        page.goto(url)
        page.locator("#not-found").wait_for()
        assert page.locator("h1").inner_text() == heading
        assert "no match with id" not in page.locator("main").inner_text()
        assert "unknown game" not in page.locator("main").inner_text()
        page.locator("main a[href='#/']").click()
        page.locator(".card").first.wait_for()
    page.goto(f"{live_server.url}/#/match/deadbeef00000000")
    page.locator("#not-found").wait_for()
    assert page.locator("#not-found").inner_text().startswith("There is no game at this address.")
    page.click("#lang button[data-lang='fi']")
    page.wait_for_function("() => document.querySelector('h1') && document.querySelector('h1').textContent === 'Peliä ei löydy'")
    assert page.locator("main a[href='#/matches']").inner_text() == "Omat pelit"
    page.click("#lang button[data-lang='en']")


def test_a_refused_new_game_is_seen_on_a_phone(browser, live_server):
    # Start sits at the bottom edge of a phone's screen: the refusal written under it must be
    # brought into sight (and announced), or the tap seems to do nothing
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(5000)
        page.goto(f"{live_server.url}/#/new/slide-checkers")
        page.locator("#opt-colours").fill("ZZZ")
        page.locator("#start").tap()
        error = page.locator("#new-error")
        error.wait_for()
        assert "is not a major colour" in error.inner_text()
        assert error.get_attribute("role") == "alert"
        page.wait_for_function("() => document.querySelector('#new-error').getBoundingClientRect().bottom <= innerHeight + 1")
        assert page.url.endswith("#/new/slide-checkers")
        # the same for a record that cannot be read, under Import at the foot of the home page
        page.goto(f"{live_server.url}/#/")
        assert page.locator("#import-file").bounding_box()["height"] >= 40  # a finger's "Choose file" (was 21 px)
        page.locator("#import-text").fill("{not json")
        page.locator("#import-go").scroll_into_view_if_needed()
        page.locator("#import-go").tap()
        page.locator("#import-error").wait_for()
        page.wait_for_function("() => document.querySelector('#import-error').getBoundingClientRect().bottom <= innerHeight + 1")
        # JSON, but not a record: said in words, not in the server's schema terms
        page.locator("#import-text").fill("[1, 2]")
        page.locator("#import-go").tap()
        page.wait_for_function("() => document.querySelector('#import-error').textContent.startsWith('This is not')")
        assert page.locator("#import-error").inner_text() == ("This is not a game record: a record is a JSON object {…}, "
                                                              "as Download record saves it.")
    finally:
        context.close()


def test_a_move_leaves_the_board_in_sight_on_a_phone(browser, live_server):
    # on a phone the move list is under the board: keeping its last move in view must scroll
    # the list, not the page (each move used to pull the board up, a little more each time)
    long = _long_turns(live_server)
    view = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "options": {"size": "dimy"},
                                                        "seats": ["human", "human"]})
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{long['id']}")
        page.wait_for_function("() => document.querySelectorAll('ol.moves a[data-ply]').length === 36")
        page.wait_for_timeout(200)
        assert page.evaluate("scrollY") == 0
        # the list itself shows its last move
        assert page.evaluate("""(() => { const box = document.querySelector('ol.moves').getBoundingClientRect();
            const r = document.querySelector('ol.moves li.current').getBoundingClientRect();
            return document.querySelector('ol.moves').scrollTop > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1; })()""")
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        for ply in range(2):
            page.wait_for_function(f"() => window.abstractaView.ply === {ply} && window.abstractaView.human_to_move")
            move = page.evaluate("window.abstractaView.struct.choices.moves[0]")
            page.locator(f"[data-point='{move['from']}']").tap()
            page.locator(f"[data-point='{move['to'][0]['to']}']").tap()
            page.wait_for_function(f"() => window.abstractaView.ply === {ply + 1}")
            page.wait_for_timeout(100)
            assert page.evaluate("scrollY") == 0
    finally:
        context.close()


def test_a_phone_steps_through_a_game_with_the_board_in_sight(browser, live_server):
    # on a phone the steps are under the board, its notes and the move list: every tap on Back
    # showed the next position out of sight. While a game is studied they float at the foot of
    # the screen, under the board; in live play they stay where they are
    view = _long_turns(live_server, plies=12)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(5000)
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        page.wait_for_function("() => window.abstractaView && window.abstractaView.ply === 12")
        position = "e => getComputedStyle(e).position"
        assert page.locator(".stepper").evaluate(position) == "static"
        page.locator("#step-back").tap()
        page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Replay')")
        assert page.locator(".stepper").evaluate(position) == "fixed"
        page.evaluate("scrollTo(0, 0)")
        for ply in (10, 9, 8):
            page.locator("#step-back").tap()
            page.wait_for_function(f"() => document.getElementById('step-at').dataset.ply === '{ply}'")
            assert page.evaluate("scrollY") == 0
        back, board = page.locator("#step-back").bounding_box(), page.locator("#board").bounding_box()
        assert back["y"] + back["height"] <= 844 and back["height"] >= 40
        assert 0 <= board["y"] < back["y"]
        page.locator(".stepper button[aria-label='live position']").tap()
        page.wait_for_function("() => !document.getElementById('status').textContent.startsWith('Replay')")
        assert page.locator(".stepper").evaluate(position) == "static"
    finally:
        context.close()


def test_share_link_lets_another_browser_watch(browser, live_server):
    # a finished game had no way to be shown to someone: Share link copies its address, which
    # a browser holding no seat opens as a spectator
    view = _long_turns(live_server, plies=4)
    post_json(f"{live_server.url}/api/matches/{view['id']}/resign", {"seat": 0})
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        page.set_default_timeout(5000)
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        page.locator("#result").wait_for()
        page.locator("#share").click()
        page.wait_for_function("() => document.getElementById('share-note').textContent !== ''")
        assert page.locator("#share-note").inner_text() == "Link copied: whoever opens it can watch this game."
        url = page.evaluate("navigator.clipboard.readText()")
        assert url == f"{live_server.url}/#/match/{view['id']}"
        # no clipboard (plain http on another host): the link is written out to copy by hand
        page.evaluate("() => { navigator.clipboard.writeText = () => Promise.reject(new DOMException('no', 'NotAllowedError')); }")
        page.locator("#share").click()
        page.wait_for_function("() => document.getElementById('share-note').textContent.includes('/#/match/')")
        assert page.locator("#share-note").inner_text() == f"Anyone with this link can watch the game: {url}"
    finally:
        context.close()
    other = browser.new_context_without_tokens()
    try:
        watcher = other.new_page()
        watcher.goto(url)
        watcher.locator("#result").wait_for()
        assert watcher.locator("#watching").is_visible() and watcher.locator("#resign").count() == 0
    finally:
        other.close()


def test_your_games_fits_a_phone(browser, live_server):
    # seven columns did not fit 390 px: the result and Delete were past the right edge; on a
    # phone each game is a card, each cell under its column's name
    # the row is this test's own game: the list is newest first, and a computer game an earlier
    # test left running (the live server is shared) may have moved since and head the list
    mine = [post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "options": {"size": "dimy"}, "seats": seats})["id"]
            for seats in (["human", "level:1"], ["human", "human"])]
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/matches")
        page.locator("#match-list tbody tr").first.wait_for()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.evaluate("document.querySelector('.tablewrap').scrollWidth <= document.querySelector('.tablewrap').clientWidth")
        row = page.locator(f"#match-list tbody tr[data-id='{mine[0]}']")
        for cell in row.locator("td").all():
            if cell.is_visible():
                box = cell.bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= 390, cell.inner_text()
        delete = row.locator("button.delete")
        assert delete.is_visible() and delete.bounding_box()["x"] + delete.bounding_box()["width"] <= 390
        result = row.locator("td[data-label='Result']")
        assert result.inner_text() == "your move"  # White, this browser's seat
        assert result.evaluate("td => getComputedStyle(td, '::before').content") == '"Result: "'
        # a returning player finds a game by when it was played (the card had dropped the date),
        # and taps into it or deletes it with a finger (the link was 18 px high, Delete 26)
        assert row.locator("td[data-label='Last played']").is_visible()
        assert row.locator("td.game a").bounding_box()["height"] >= 40
        assert delete.bounding_box()["height"] >= 40
    finally:
        context.close()
    # a wide screen keeps the table with its head
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(f"{live_server.url}/#/matches")
    page.locator("#match-list thead th").first.wait_for()
    assert page.locator("#match-list thead").is_visible()
    assert page.locator("#match-list tbody td[data-label='Result']").first.evaluate(
        "td => getComputedStyle(td, '::before').content") == "none"
    page.context.close()


def test_a_spectator_of_a_finished_game_is_not_told_to_wait_for_moves(browser, live_server):
    view = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "options": {"size": "telo"},
                                                        "seats": ["human", "human"]})
    context = browser.new_context_without_tokens(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        note = page.locator("#watching")
        note.wait_for()
        assert note.inner_text() == "You are watching: the moves appear here as they are played."
        post_json(f"{live_server.url}/api/matches/{view['id']}/resign", {"seat": 0})
        page.wait_for_function("() => window.abstractaView.status === 'over'")
        assert note.inner_text() == "You are watching a finished game: step through its moves with the buttons under Moves."
    finally:
        context.close()


def test_what_cannot_be_used_is_not_shown(browser, live_server):
    # a spectator, and anyone looking at a finished game, saw the "Legal moves" box and a greyed
    # move input: shown only to a seat in a game that runs (greyed while it is not their move)
    view = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "options": {"size": "telo"},
                                                        "seats": ["human", "human"]})
    mid = view["id"]
    player = browser.new_context(viewport={"width": 1280, "height": 800})
    watcher = browser.new_context_without_tokens(viewport={"width": 1280, "height": 800})
    try:
        seat, spectator = player.new_page(), watcher.new_page()
        for page in (seat, spectator):
            page.goto(f"{live_server.url}/#/match/{mid}")
            page.wait_for_function("() => window.abstractaView && window.abstractaView.id")
        assert seat.locator("details.legalwrap").is_visible() and seat.locator("#move-input").is_enabled()
        assert spectator.locator("details.legalwrap").is_hidden() and spectator.locator("#move-input").is_hidden()
        post_json(f"{live_server.url}/api/matches/{mid}/resign", {"seat": 0})
        for page in (seat, spectator):
            page.wait_for_function("() => window.abstractaView.status === 'over'")
            assert page.locator("details.legalwrap").is_hidden() and page.locator("#move-input").is_hidden()
    finally:
        player.close()
        watcher.close()


def test_a_watched_game_is_found_again_under_your_games(browser, live_server):
    # a game opened by its link, without a seat, was in no list: Your games keeps it (this
    # browser's localStorage) under Watched games, until forgotten or deleted on the server
    views = [post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "options": {"size": "telo"},
                                                          "seats": ["human", "human"]}) for _ in range(2)]
    post_json(f"{live_server.url}/api/matches/{views[0]['id']}/resign", {"seat": 1})
    context = browser.new_context_without_tokens(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/matches")
        page.locator("#no-games").wait_for()
        assert page.locator("#watched").count() == 0
        for view in views:
            page.goto(f"{live_server.url}/#/match/{view['id']}")
            page.wait_for_function(f"() => window.abstractaView && window.abstractaView.id === '{view['id']}'")
        page.goto(f"{live_server.url}/#/matches")
        rows = page.locator("#watched-list tbody tr")
        rows.first.wait_for()
        assert page.locator("#watched h2").inner_text() == "Watched games"
        # the latest watched first, each as the server shows it to a spectator now
        assert rows.evaluate_all("rs => rs.map(r => r.dataset.id)") == [views[1]["id"], views[0]["id"]]
        assert rows.nth(0).locator("td[data-label='Result']").inner_text() == "White to move"
        assert rows.nth(1).locator("td[data-label='Result']").inner_text() != "White to move"
        assert rows.nth(1).locator("td.game a").get_attribute("href") == f"#/match/{views[0]['id']}"
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        forget = rows.nth(0).locator("button.delete")
        assert forget.inner_text() == "Forget" and forget.bounding_box()["height"] >= 40
        forget.click()
        assert rows.evaluate_all("rs => rs.map(r => r.dataset.id)") == [views[0]["id"]]
        # a game deleted on the server leaves the list
        deleted = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "options": {"size": "telo"},
                                                               "seats": ["human", "human"]})
        page.goto(f"{live_server.url}/#/match/{deleted['id']}")
        page.wait_for_function(f"() => window.abstractaView && window.abstractaView.id === '{deleted['id']}'")
        delete_json(f"{live_server.url}/api/matches/{deleted['id']}")
        page.goto(f"{live_server.url}/#/matches")
        rows.first.wait_for()
        assert rows.evaluate_all("rs => rs.map(r => r.dataset.id)") == [views[0]["id"]]
        assert deleted["id"] not in page.evaluate("localStorage.getItem('abstracta.watched')")
    finally:
        context.close()


def test_language_switch_and_legal_moves_take_a_finger(browser, live_server):
    # on a phone the EN/FI switch was 37×32 px and a legal-move button about 24 px high: at
    # least 40 px on a touch screen; a desktop keeps its compact sizes
    view = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "options": {"size": "telo"},
                                                        "seats": ["human", "human"]})
    sizes = "sel => [...document.querySelectorAll(sel)].map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })"
    for phone in (True, False):
        kw = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True} if phone else \
            {"viewport": {"width": 1280, "height": 800}}
        context = browser.new_context(**kw)
        try:
            page = context.new_page()
            page.goto(f"{live_server.url}/#/match/{view['id']}")
            page.wait_for_selector("#legal button.move", state="attached")
            page.evaluate("document.querySelector('details.legalwrap').open = true")
            langs, moves = page.evaluate(sizes, "header.top .lang button"), page.evaluate(sizes, "#legal button.move")
            # the move box and its Play button, the way to play without the board (were 38 px high)
            entry = page.evaluate(sizes, "form.entry input, form.entry button")
            assert len(langs) == 2 and moves and len(entry) == 2
            if phone:
                assert all(w >= 40 and h >= 40 for w, h in langs + moves + entry), (langs, moves, entry)
                assert page.evaluate("document.documentElement.scrollWidth") <= 390
            else:
                assert all(h < 40 for _, h in langs + moves), (langs, moves)
        finally:
            context.close()


def test_seats_read_apart_and_you_are_you_against_the_computer(page, live_server, shots):
    # the landing page says a friend may play from their own browser, not only on this device
    page.goto(f"{live_server.url}/")
    assert "invitation link" in page.locator("p.lead").inner_text()
    # two computers of one level in a game without seat colours: "Computer (level 1) wins" said
    # nothing, and both badges of the move list read "C"
    # (the server's bots draw their own randomness, so a game may end drawn: play until one is won)
    for _ in range(8):
        view = post_json(f"{live_server.url}/api/matches", {"game": "fibonacci-cards", "options": {"seed": 3},
                                                             "seats": ["level:1", "level:1"]})
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        # a hash change keeps the page: until this match is drawn, the last one's view is read
        page.wait_for_function("id => window.abstractaView && window.abstractaView.id === id"
                               " && window.abstractaView.status === 'over'", arg=view["id"], timeout=60000)
        if len(set(page.evaluate("window.abstractaView.result"))) > 1:
            break
    names = ["Computer 1 (level 1)", "Computer 2 (level 1)"]
    assert page.locator(".players").inner_text() == " vs ".join(names)
    # the documentation names them as the page does (it said "Computer 1" and "Computer 2")
    page_doc = Path(__file__).resolve().parents[2] / "docs" / "playing" / "browser.md"
    said = " ".join(page_doc.read_text().split())
    assert 'two computers of one level are "{}" and "{}"'.format(*names) in said
    result = page.evaluate("window.abstractaView.result")
    winner = result.index(max(result)) + 1
    assert page.locator("#result").inner_text().startswith(f"Computer {winner} (level 1) wins")
    assert set(page.locator("ol.moves .who").all_inner_texts()) == {"P1", "P2"}
    page.screenshot(path=str(shots / "fibonacci_cards-two-computers.png"), full_page=True)
    # against the computer the person's seat is "you" and the status says whose move is yours ...
    view = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "options": {"size": "dimy"},
                                                         "seats": ["human", "level:3"]})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    assert page.locator(".players").inner_text() == "White (you) vs Black (computer, level 3)"
    assert page.locator("#status").inner_text() == "Your move (White)"
    # ... and in pass and play, where two people share the device, each seat is a person
    view = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "options": {"size": "dimy"},
                                                         "seats": ["human", "human"]})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    assert page.locator(".players").inner_text() == "White (person) vs Black (person)"
    assert page.locator("#status").inner_text() == "White to move"


def test_a_refused_typed_move_says_why_in_english_and_is_finnish_in_finnish(browser, page, live_server):
    # An English reader sees the engine's reason; a typed Nibble move (sent as a whole turn)
    # showed it followed by the API's "(the view's 'turns' lists the legal whole turns)"
    def refused(pg, game, options, move):
        view = post_json(f"{live_server.url}/api/matches", {"game": game, "options": options,
                                                             "seats": ["human", "human"]})
        pg.goto(f"{live_server.url}/#/match/{view['id']}")
        pg.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
        pg.wait_for_selector("#board svg, #board .cardtable, #handover-ok")
        if pg.locator("#handover-ok").is_visible():  # two people on one device, hidden cards
            pg.click("#handover-ok")
        pg.fill("#move-input", move)
        pg.press("#move-input", "Enter")
        pg.locator("#error").wait_for()
        return pg.locator("#error").inner_text()

    nibble = {"seed": 1, "first_player": 0}  # nibble.md §7 example 1: e3 is not free
    assert refused(page, "nibble", nibble, "e3") == \
        "'e3' is not legal here: e3 is not free (needs 2 consecutive exposed sides)"
    assert refused(page, "nibble", nibble, "d2-e3A") == "'d2-e3A' is not a cell of the square 9×9 board"
    # seed 3, seat 0 first: piles K K J (13, 13, 11), 9h in nobody's sight but the stock's
    cards = {"seed": 3, "first_player": 0}
    assert refused(page, "fibonacci-cards", cards, "9h>1") == "'9h>1' is not legal here: 9h is not in your hand"
    assert "(the piles show 13, 13, 11)" in refused(page, "fibonacci-cards", cards, "Qs/3")
    # a Finnish reader gets the engine's reason in Finnish too (it got the generic refusal alone)
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="fi-FI")
    try:
        finnish = context.new_page()
        finnish.set_default_timeout(15000)
        assert refused(finnish, "nibble", nibble, "e3") == \
            "'e3' ei ole sallittu tässä asemassa: ruudun e3 kiekko ei ole vapaa (tarvitaan 2 vierekkäistä avointa sivua)"
        assert refused(finnish, "fibonacci-cards", cards, "9h>1") == "'9h>1' ei ole sallittu tässä asemassa: 9h ei ole kädessäsi"
    finally:
        context.close()


def test_named_computer_seats_say_their_level_as_a_level(page, live_server):
    # "Blue (computer 1) vs Red (computer 1)" read as one computer twice, or as the first of
    # several (a game without seat names numbers them so: "Computer 1 (level 1)")
    view = post_json(f"{live_server.url}/api/matches", {"game": "slide-checkers", "options": {"players": "3"},
                                                         "seats": ["human", "level:1", "level:2"]})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView")
    assert page.locator(".players").inner_text() == \
        "Green (you) vs Blue (computer, level 1) vs Red (computer, level 2)"
    page.goto(f"{live_server.url}/#/matches")
    row = page.locator(f"[href='#/match/{view['id']}']").locator("xpath=ancestor::tr")
    assert "Green (you) vs Blue (computer, level 1) vs Red (computer, level 2)" in row.inner_text()


def test_the_new_game_form_takes_a_finger(browser, live_server):
    # the first page a phone player touches: its choices were 33 px high, the seed box 37 and
    # Start 38, under the 40 px the move box, the legal moves and EN/FI take on a touch screen;
    # and "Your games"' filters were drawn in the browser's small default font
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/new/nibble")
        page.wait_for_selector("#start")
        small = page.evaluate("""[...document.querySelectorAll('#new-game select, #new-game input, #new-game button, #rules-link')]
            .map(e => [e.id, e.getBoundingClientRect()]).filter(([, r]) => r.width > 0 && r.height < 40)
            .map(([id, r]) => `${id}: ${Math.round(r.height)} px`)""")
        assert small == []
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        post_json(f"{live_server.url}/api/matches", {"game": "nibble", "seats": ["human", "human"]})
        page.goto(f"{live_server.url}/#/matches")
        page.wait_for_selector("#filter-game")
        body = page.evaluate("getComputedStyle(document.body).fontSize")
        assert [page.evaluate(f"getComputedStyle(document.getElementById('{i}')).fontSize") for i in ("filter-game", "filter-status")] == [body, body]
    finally:
        context.close()
    # a desktop keeps the form as it was: no finger, no taller choices
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(f"{live_server.url}/#/new/nibble")
    page.wait_for_selector("#start")
    assert page.locator("#opt-variant").bounding_box()["height"] < 40
    page.context.close()


def test_your_games_with_no_game_shows_no_filters(browser, live_server):
    # "You have not played a game here yet." stood over the filters and "0 games": the filters'
    # row (display: flex) and the phone's card table (display: block) outranked their hidden
    for kw in ({"viewport": {"width": 1280, "height": 800}},
               {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}):
        context = browser.new_context_without_tokens(**kw)
        try:
            page = context.new_page()
            page.goto(f"{live_server.url}/#/matches")
            page.locator("#no-games").wait_for(state="visible")
            assert page.locator("#no-games").inner_text() == "You have not played a game here yet."
            assert not page.locator(".filters").is_visible()
            assert not page.locator("#games-count").is_visible()
            assert not page.locator("#match-list").is_visible()
        finally:
            context.close()
