"""The move list reads as chess move lists do (issue 38 item 7): two players, a round a row
("1. W b4-c5W, end   B e3-d3A"), the two turns in two straight columns, every entry a step of
the replay, the status naming the round; three or four players, a line per turn."""

from __future__ import annotations

import pytest
from httputil import post_json
from test_browser_result_banner import THREE

import abstracta

#: the rows as the page shows them: per row its number and, per turn, its seat's badge, its
#: entries and the left edge of the turn's box
ROWS = """() => [...document.querySelectorAll('#moves li')].map(li => ({
  n: (li.querySelector('.n') || {}).textContent || '',
  top: li.getBoundingClientRect().top, height: li.getBoundingClientRect().height,
  turns: [...li.querySelectorAll('.turn')].map(t => ({
    who: (t.querySelector('.who') || {}).textContent || '', left: t.getBoundingClientRect().left,
    plies: [...t.querySelectorAll('a[data-ply]')].map(a => +a.dataset.ply),
  })),
}))"""


def fanorona_game(turns: int = 9) -> list[str]:
    """A Fanorona game of ``turns`` turns from the start, each seat playing its first legal
    action until its turn ends: some turns are capture chains of several entries."""
    state = abstracta.load_game("fanorona").new_initial_state()
    moves: list[str] = []
    played = 0
    while played < turns:
        mover = state.current_player()
        action = state.legal_actions()[0]
        moves.append(state.action_to_string(action))
        state.apply_action(action)
        if state.is_terminal() or state.current_player() != mover:
            played += 1
    return moves


@pytest.mark.parametrize("width", [390, 1100])
def test_two_players_a_round_a_row_in_two_columns(browser, live_server, shots, width):
    record = {"format": "abstracta-record", "version": 1, "game": "fanorona", "options": {},
              "start": None, "moves": fanorona_game()}
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record, "seats": ["human", "human"]})
    turns = view["move_list"]
    assert len(turns) == 9 and [t["seat"] for t in turns] == [0, 1] * 4 + [0]
    phone = width < 500
    context = browser.new_context(viewport={"width": width, "height": 844 if phone else 900}, is_mobile=phone, has_touch=phone)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        page.wait_for_function("() => window.abstractaView && document.querySelectorAll('#moves a[data-ply]').length > 0")
        rows = page.evaluate(ROWS)
        # "1. W …  B …", "2. W …  B …" … "5. W …": numbered by round, White's turn then Black's
        assert [r["n"] for r in rows] == ["1.", "2.", "3.", "4.", "5."]
        assert [[t["who"] for t in r["turns"]] for r in rows] == [["W", "B"]] * 4 + [["W"]]
        # every entry of every turn, in order, and each turn's in its own box
        assert [t["plies"] for r in rows for t in r["turns"]] == [turn["plies"] for turn in turns]
        # straight columns: White's turns start at one edge, Black's at another, whatever
        # their length (the list wrapped turn after turn wherever the width ran out)
        assert len({round(r["turns"][0]["left"]) for r in rows}) == 1
        assert len({round(r["turns"][1]["left"]) for r in rows[:4]}) == 1
        assert rows[0]["turns"][1]["left"] > rows[0]["turns"][0]["left"] + 60
        page.locator("#moves").screenshot(path=str(shots / f"move-list-pairs-{width}.png"))
        # an entry of Black's turn in round 2 is a step of the replay there
        ply = turns[3]["plies"][0]
        page.locator(f"#moves a[data-ply='{ply}']").click()
        page.wait_for_function("p => window.abstractaView && document.getElementById('step-at').dataset.ply === String(p)", arg=ply)
        assert page.locator("#status").inner_text().startswith("Replay: round 2 of 5, after ")
        assert page.locator("#moves li.current .n").inner_text() == "2."
        assert page.locator("#moves .turn.current a[data-ply]").first.get_attribute("data-ply") == str(turns[3]["plies"][0])
    finally:
        context.close()


def test_the_round_in_finnish(browser, live_server):
    record = {"format": "abstracta-record", "version": 1, "game": "fanorona", "options": {},
              "start": None, "moves": fanorona_game(3)}
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record, "seats": ["human", "human"]})
    context = browser.new_context(locale="fi-FI")
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        page.wait_for_function("() => window.abstractaView && document.querySelectorAll('#moves a[data-ply]').length > 0")
        page.locator("#moves a[data-ply]").first.click()
        page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Kertaus: kierros 1/2, ')")
        assert page.locator("#moves .turn").first.get_attribute("title") == "Valkoinen, vuoro 1"
    finally:
        context.close()


def test_three_players_a_line_per_turn(browser, live_server, shots):
    # the list put as many turns on a line as the width allowed: "1. G … 2. B …" then "3. R …"
    # read as rounds that were none
    view = post_json(f"{live_server.url}/api/matches/import", {"record": THREE, "seats": ["human", "level:1", "level:1"]})
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        page.wait_for_function("() => window.abstractaView && document.querySelectorAll('#moves a[data-ply]').length > 0")
        page.evaluate("document.getElementById('moves').scrollTop = 0")
        rows = page.evaluate(ROWS)
        assert len(rows) == len(view["move_list"]) == 108
        assert [r["n"] for r in rows[:3]] == ["1.", "2.", "3."] and all(len(r["turns"]) == 1 for r in rows)
        tops = [r["top"] for r in rows]
        assert all(b - a >= 0.9 * rows[0]["height"] for a, b in zip(tops, tops[1:]))  # a line each
        assert len({round(r["turns"][0]["left"]) for r in rows}) == 1  # the turns in one column
        page.locator("#moves").screenshot(path=str(shots / "move-list-three-1100.png"))
    finally:
        context.close()


def test_the_replay_counts_the_lists_turns_and_steps_through_a_chain(browser, live_server, shots):
    # the replay said "move 2 of 111" (engine actions: a capture chain is several) beside a list
    # of far fewer turns; now the status and the stepper count rounds as the list numbers them,
    # ◀ ▶ and the arrow keys still step one action at a time, and inside a chain the status says
    # which step of the turn it shows
    moves = fanorona_game(10)
    record = {"format": "abstracta-record", "version": 1, "game": "fanorona", "options": {},
              "start": None, "moves": moves}
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record, "seats": ["human", "human"]})
    turns = view["move_list"]
    assert len(turns) == 10 and view["ply"] == len(moves) > 10  # White opens, the turns alternate: 5 rounds
    k, chain = next((k, x) for k, x in enumerate(turns) if x["to"] - x["from"] >= 2 and x["to"] < view["ply"])
    n, round_ = chain["to"] - chain["from"], k // 2 + 1
    for width in (1280, 390):
        context = browser.new_context(viewport={"width": width, "height": 844})
        try:
            page = context.new_page()
            page.goto(f"{live_server.url}/#/match/{view['id']}")
            page.wait_for_function("() => window.abstractaView && document.querySelectorAll('#moves a[data-ply]').length > 0")

            def shows(ply: int, status: str, at: str) -> None:
                page.wait_for_function("p => document.getElementById('step-at').dataset.ply === String(p)", arg=ply)
                assert page.locator("#status").inner_text() == status
                assert page.locator("#step-at").text_content() == at

            # the chain's first capture: round and step in words, the stepper the list's round
            page.locator(f"#moves a[data-ply='{chain['from'] + 1}']").click()
            shows(chain["from"] + 1, f"Replay: round {round_} of 5, after {chain['moves'][0]} — step 1 of {n} of this turn",
                  f"{round_} / 5")
            page.locator("body").click(position={"x": 2, "y": 2})  # the keys away from the board
            for step in range(2, n):  # on through the chain, by the key
                page.keyboard.press("ArrowRight")
                shows(chain["from"] + step,
                      f"Replay: round {round_} of 5, after {chain['moves'][step - 1]} — step {step} of {n} of this turn",
                      f"{round_} / 5")
            page.click("#step-fwd")  # the chain's end: the turn whole, no step told
            shows(chain["to"], f"Replay: round {round_} of 5, after {chain['moves'][-1]}", f"{round_} / 5")
            if width == 390:
                assert page.locator("#step-at").is_visible()  # the floating stepper shows it
            page.screenshot(path=str(shots / f"replay-chain-{width}.png"), full_page=width == 1280)
            page.keyboard.press("ArrowLeft")
            shows(chain["to"] - 1,
                  f"Replay: round {round_} of 5, after {chain['moves'][-2]} — step {n - 1} of {n} of this turn",
                  f"{round_} / 5")
            page.keyboard.press("Home")
            shows(0, "Replay: the start, before round 1 of 5", "0 / 5")
            page.click("#step-fwd")
            first = turns[0]
            shows(1, f"Replay: round 1 of 5, after {first['moves'][0]}" + (
                f" — step 1 of {first['to']} of this turn" if first["to"] > 1 else ""), "1 / 5")
            page.keyboard.press("End")
            page.wait_for_function("p => document.getElementById('step-at').dataset.ply === String(p)", arg=view["ply"])
            assert page.locator("#step-at").text_content() == "5 / 5"
            assert not page.locator("#status").inner_text().startswith("Replay")
        finally:
            context.close()
