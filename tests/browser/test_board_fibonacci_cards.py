"""The Fibonacci card game's board module draws the structured view: Chromium plays a cut-down,
a forced draw with the drawn card played, and a sum, all by clicking cards, piles and the
stock, with the hand-over screen between two people on one device; the opponents' last turn
is marked; and the table fits a 390 px phone. Screenshots go into the ``shots`` folder."""

from __future__ import annotations

from httputil import get_json, post_json

from abstracta import load_game

# piles 2c 5d Jh (T = 2, 5, 11; fibonacci-cards.md §7 example 1); seat 1 can play nothing after
# 5s/2 and draws the 3h, which fits (2 + 1) and must be played (§4)
START = "2c 5d Jh | 7h,Kd,5s,Qd,3c | 4c,6d,Jc | 3h,9h | 0"
MOVES = ["5s/2", "draw", "3h>1", "Qd>3"]

WAIT_HUMAN = """() => { const v = window.abstractaView; if (!v) return false;
  const ho = document.getElementById('handover'); if (ho && !ho.hidden) return true;
  return v.status === 'over' || (v.human_to_move && !v.thinking); }"""


def test_the_moves_are_legal_in_the_engine():
    state = load_game("fibonacci-cards").state_from_text(START)
    expected = [["5s/2", "7h>1", "7h>2", "Kd>1", "Kd>3"], ["draw"], ["3h>1", "3h>2"], ["Qd>2", "Qd>3"]]
    for move, legal in zip(MOVES, expected):
        assert state.legal_action_strings() == legal
        state.apply_action(state.string_to_action(move))


def import_match(server, moves=()) -> str:
    record = {"format": "abstracta-record", "version": 1, "game": "fibonacci-cards", "options": {},
              "seed": None, "start": START, "players": [], "moves": list(moves)}
    return post_json(f"{server.url}/api/matches/import", {"record": record, "seats": ["human", "human"]})["id"]


def ready(page, ply: int) -> dict:
    """Wait for ply ``ply`` and a person to move; pass the hand-over screen."""
    page.wait_for_function(f"() => window.abstractaView && window.abstractaView.ply === {ply}")
    page.wait_for_function(WAIT_HUMAN)
    if page.locator("#handover-ok").is_visible():
        assert page.locator(".hand .pcard").count() == 0  # nothing of a hand behind the hand-over screen
        page.click("#handover-ok")
    page.wait_for_selector("#board .cardtable")
    return page.evaluate("window.abstractaView")


def test_play_cut_draw_and_sum_by_clicking(page, live_server, shots):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    mid = import_match(live_server)
    page.goto(f"{live_server.url}/#/match/{mid}")

    # seat 0: pick the 5s, then the pile it cuts down
    view = ready(page, 0)
    assert view["viewer"] == 0
    hand = page.locator("[data-hand='hand0'] .pcard")
    assert hand.evaluate_all("cs => cs.map(c => c.dataset.card)") == ["7h", "Kd", "5s", "Qd", "3c"]
    assert page.locator("[data-hand='hand1'] .pcard.back").count() == 3
    assert page.locator(".hand .pcard.playable").evaluate_all("cs => cs.map(c => c.dataset.card)") == ["7h", "Kd", "5s"]
    assert page.locator(".pile.target").count() == 0
    page.click(".hand [data-card='5s']")
    assert page.locator(".hand [data-card='5s']").get_attribute("class").split().count("picked") == 1
    assert page.locator(".pile.target").evaluate_all("ps => ps.map(p => p.dataset.pile)") == ["2"]
    assert page.locator("[data-pile='2'] .pilehint").inner_text() == "cut down to 1"
    page.click("[data-pile='2']")

    # seat 1: nothing fits; the stock is the only choice, and the drawn 3h must be played
    view = ready(page, 1)
    assert view["viewer"] == 1 and view["struct"]["choices"]["draw"] == {"action": "draw"}
    assert page.locator("[data-pile='2'] .pcard.cut[data-card='5s']").count() == 1
    assert "value 1" in page.locator("[data-pile='2'] .pileinfo").inner_text()
    assert page.locator("[data-pile='2'].recent").count() == 1  # seat 0's cut is marked
    assert page.locator(".hand .pcard.playable").count() == 0 and page.locator("#draw").is_visible()
    page.click("[data-pile='stock']")  # clicking the stock draws
    page.wait_for_function("() => window.abstractaView.ply === 2")
    page.wait_for_selector(".hand [data-card='3h'].drawn.picked")  # the only card allowed: already picked
    page.screenshot(path=str(shots / "cards-board-drawn.png"), full_page=True)
    assert page.locator(".pile.target").evaluate_all("ps => ps.map(p => p.dataset.pile)") == ["1", "2"]
    page.click("[data-pile='1']")

    # seat 0 sees what seat 1 did (a draw and the 3h) and plays the Qd as a sum
    view = ready(page, 3)
    assert view["viewer"] == 0
    assert [t["actions"] for t in view["struct"]["recent"]] == [["draw", "3h>1"]]
    assert page.locator("[data-pile='1'].recent .pcard.fresh[data-card='3h']").count() == 1
    assert page.locator("[data-pile='stock'].recent").count() == 1
    assert page.locator("#recent-turns").inner_text().endswith("drew a card, played 3h on pile 1 (sum)")
    page.click(".hand [data-card='Qd']")
    assert page.locator(".pile.target").evaluate_all("ps => ps.map(p => p.dataset.pile)") == ["2", "3"]
    page.screenshot(path=str(shots / "cards-board-desktop.png"), full_page=True)
    page.click("[data-pile='3']")
    view = ready(page, 4)
    assert get_json(f"{live_server.url}/api/matches/{mid}")["moves"] == MOVES
    assert page.locator("[data-pile='3'] .pcard").last.get_attribute("data-card") == "Qd"

    # replaying: the board draws the struct of the earlier ply, and nothing can be picked
    page.click("#step-back")
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Replay')")
    assert page.locator("[data-pile='3'] .pcard").last.get_attribute("data-card") == "Jh"
    assert page.locator(".pcard.playable, .pile.target").count() == 0
    assert not errors, errors


def test_the_table_fits_a_phone(browser, live_server, shots):
    mid = import_match(live_server, MOVES[:3])  # seat 0 to move after a cut, a draw and a play
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/match/{mid}")
        ready(page, 3)
        page.click(".hand [data-card='Qd']")
        assert page.locator(".pile.target").count() == 2
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        for pile in ("1", "2", "3", "stock"):  # all four piles side by side, inside the screen
            box = page.locator(f"[data-pile='{pile}']").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (pile, box)
        page.screenshot(path=str(shots / "cards-board-phone.png"), full_page=True)
        page.click("[data-pile='2']")
        page.wait_for_function("() => window.abstractaView.ply === 4")
    finally:
        context.close()
