"""The result line names the seat that resigned (or ran out of time) as the server recorded it,
not the first losing seat: in a 3-4 player game a seat the rules put out earlier lost too."""

from __future__ import annotations

from httputil import post_json

#: three players; Green (seat 0) has no pieces left: out by the rules (§5), Blue to move
GREEN_OUT = {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "options": {"players": 3},
             "start": "Bk11,Bl12,Ra1,Rb2 M B", "moves": []}


def test_the_result_line_names_the_seat_that_resigned_not_the_one_out_before(page, live_server):
    view = post_json(f"{live_server.url}/api/matches/import", {"record": GREEN_OUT})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    post_json(f"{live_server.url}/api/matches/{view['id']}/resign", {"seat": 1})
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    banner = page.locator("#result").inner_text()
    page.screenshot(path="/tmp/resign35-result.png")
    # Green, out before, is said to be out (since the record's start: no turn), not to have resigned
    assert banner == "Green was knocked out — Blue resigned — Red wins", banner
    # the list of your games says it too (it reads the stored record, not the match view)
    page.goto(f"{live_server.url}/#/matches")
    cell = page.locator(f"#match-list tr[data-id='{view['id']}'] td[data-label='Result']")
    assert cell.inner_text() == "Blue resigned — Red wins"


def test_a_match_stored_before_the_resigner_was_kept_names_nobody_rather_than_a_wrong_seat(page, live_server):
    import json

    from abstracta.server.storage import Store

    view = post_json(f"{live_server.url}/api/matches/import", {"record": GREEN_OUT})
    post_json(f"{live_server.url}/api/matches/{view['id']}/resign", {"seat": 1})
    store = Store(live_server.db_url)  # as an earlier version stored it: no Resigned tag
    row = store.get(view["id"])
    record = json.loads(row.record)
    del record["tags"]["Resigned"]
    store.commit(view["id"], row.revision, status=row.status, plies=row.plies, turns=row.turns, keep=0,
                 record_json=json.dumps(record))
    store.dispose()
    page.goto(f"{live_server.url}/#/matches")
    cell = page.locator(f"#match-list tr[data-id='{view['id']}'] td[data-label='Result']")
    # two seats lost and the list replays no moves: who resigned is not told
    assert cell.inner_text() == "Ended by resignation — Red wins"


def test_two_players_the_result_line_still_names_the_resigner(page, live_server):
    view = post_json(f"{live_server.url}/api/matches",
                     {"game": "slide-checkers", "options": {"players": "2"}, "seats": ["human", "human"]})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    post_json(f"{live_server.url}/api/matches/{view['id']}/resign", {"seat": 1})
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    banner = page.locator("#result").inner_text()
    assert banner.startswith(f"{view['seats'][1]['name']} resigned — {view['seats'][0]['name']} wins"), banner


def test_three_players_a_draw_after_a_seat_ran_out_of_time_names_who_drew(page, live_server):
    # a 3-4 player game the rules ended in a draw after Green's flag fell read "Green ran out of
    # time — a draw: the other side could not win any more", the two-player words
    import json

    from abstracta.server.storage import Store

    # Red's step is the 100th turn without a jump: the rules draw the game (a record with Green
    # out of time and the others still in, at a position the rules had not ended, no longer replays)
    record = {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "options": {"players": 3},
              "start": "Bb2,Gl12,Rf6 M G nj=99", "moves": ["l12-k12"]}
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record})
    assert view["status"] == "over" and view["result"] == [0.0, 0.0, 0.0]
    store = Store(live_server.db_url)  # as the server stores a game drawn by the rules with Green out on time
    row = store.get(view["id"])
    stored = json.loads(row.record)
    stored.update(result=[-1.0, 0.0, 0.0], termination="time", tags={"date": stored["tags"]["date"], "OutOfTime": "0"})
    store.commit(view["id"], row.revision, status=row.status, plies=row.plies, turns=row.turns, keep=0,
                 record_json=json.dumps(stored))
    store.dispose()
    page.goto(f"{live_server.url}/#/matches")
    cell = page.locator(f"#match-list tr[data-id='{view['id']}'] td[data-label='Result']")
    assert cell.inner_text() == "Green ran out of time — Blue and Red draw"
    from abstracta import Record

    Record.from_json(json.dumps(stored)).replay()  # a record the server could have stored


def test_three_players_a_resignation_that_leaves_two_in_names_who_drew(page, live_server):
    # Green resigns with Blue and Red still in: they draw, and the line said only "Green resigned"
    record = {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "options": {"players": 3},
              "start": "Ga1,Bl12,Rf6 M G", "moves": []}
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    post_json(f"{live_server.url}/api/matches/{view['id']}/resign", {"seat": 0})
    page.wait_for_function("() => window.abstractaView.status === 'over'")
    assert page.locator("#result").inner_text() == "Green resigned — Blue and Red draw"
    page.goto(f"{live_server.url}/#/matches")
    cell = page.locator(f"#match-list tr[data-id='{view['id']}'] td[data-label='Result']")
    assert cell.inner_text() == "Green resigned — Blue and Red draw"
