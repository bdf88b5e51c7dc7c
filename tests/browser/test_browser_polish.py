"""A designer's look at the pages: a variant named in headings and in Your games, the way back
from an empty Your games, the analysis of a resigned game saying the game is over, the
evaluation's words, the screen reader's words of a situation that ended, a refused click
answered where the player looks, a move list's commas beside their moves, a phone's header alike in
every language, the API page on a phone and the Slide Checkers colours box saying what to type."""

from __future__ import annotations

import json
import re

import pytest

from httputil import TOKENS, post_json

FANORONA_EXAMPLE_3 = "...B...../........./..W.BB.../...B...../........B W"  # fanorona.md §6 example 3


def import_start(page, server, game: str, start: str | None = None, options=None, seed=None) -> str:
    """A match of two people on this page from ``start`` (or ``seed``'s deal), shown when a person
    is to move."""
    record = {"format": "abstracta-record", "version": 1, "game": game, "options": options or {},
              "seed": seed, "start": start, "players": [], "moves": []}
    view = post_json(f"{server.url}/api/matches/import", {"record": record, "seats": None})
    page.goto(f"{server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    return view["id"]


def test_a_variant_is_named_in_the_heading_and_in_your_games(browser, live_server):
    # a Fibonacci Go game was headed and listed "Fibonacci", as a standard one
    url = live_server.url
    go = post_json(f"{url}/api/matches", {"game": "fibonacci", "options": {"variant": "go"}, "seats": ["human", "human"]})
    standard = post_json(f"{url}/api/matches", {"game": "fibonacci", "seats": ["human", "human"]})
    context = browser.new_context_without_tokens(viewport={"width": 1280, "height": 800})
    tokens = {i: {str(s): t for s, t in TOKENS[i].items()} for i in (go["id"], standard["id"])}
    context.add_init_script(f"localStorage.setItem('abstracta.tokens', {json.dumps(json.dumps(tokens))})")
    page = context.new_page()
    page.goto(f"{url}/#/match/{go['id']}")
    page.wait_for_selector("svg")
    assert page.locator("h1").inner_text() == "Fibonacci — Go start"
    assert page.title() == "Fibonacci — Go start — abstracta"
    page.goto(f"{url}/#/match/{standard['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.id === " + json.dumps(standard["id"]))
    assert page.locator("h1").inner_text() == "Fibonacci"
    page.goto(f"{url}/#/matches")
    page.locator("#match-list").wait_for()
    assert page.locator(f"tr[data-id='{go['id']}'] td.game").inner_text() == "Fibonacci — Go start"
    assert page.locator(f"tr[data-id='{standard['id']}'] td.game").inner_text() == "Fibonacci"
    # in Finnish, the variant's Finnish name
    page.click("#lang button[data-lang='fi']")
    page.wait_for_function(f"() => document.querySelector(\"tr[data-id='{go['id']}'] td.game\") && "
                           f"document.querySelector(\"tr[data-id='{go['id']}'] td.game\").innerText === 'Fibonacci — Go-aloitus'")
    context.close()


def test_an_empty_your_games_links_back_to_the_games(browser, live_server):
    context = browser.new_context_without_tokens(viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.goto(f"{live_server.url}/#/matches")
    page.locator("#no-games").wait_for(state="visible")
    link = page.locator("#no-games-go a")
    assert link.is_visible() and link.inner_text() == "See the games"
    link.click()
    page.wait_for_selector(".cards .card")
    assert page.evaluate("location.hash") == "#/"
    context.close()


def _analyse_a_resigned_game(page, url: str) -> None:
    """A Dimy 5×5 Fanorona game of one move that Black resigned, its page open on the analysis
    panel."""
    view = post_json(f"{url}/api/matches", {"game": "fanorona", "options": {"size": "dimy"}, "seats": ["human", "human"]})
    post_json(f"{url}/api/matches/{view['id']}/actions", {"action": view["legal"][0], "ply": 0})
    post_json(f"{url}/api/matches/{view['id']}/resign", {"seat": 1})
    page.add_init_script("window.abstractaAnalysisScale = 0.05;")
    page.goto(f"{url}/#/match/{view['id']}")
    page.click("#analyse")


def test_the_analysis_of_a_resigned_game_says_the_game_is_over(page, live_server):
    # the last position of a resigned game showed its evaluation as if play went on; as
    # `abstracta analyse --record` does, the page first says how the game ended
    _analyse_a_resigned_game(page, live_server.url)
    page.wait_for_selector("#an-number")
    assert page.locator("#an-ended").inner_text() == (
        "Game over: Black resigned — White wins. The evaluation below is of this position as the rules "
        "left it, as if play had gone on.")
    # a position before the end: no such words
    page.click("#step-back")
    page.wait_for_function("() => document.querySelector('.an-result') && document.querySelector('.an-result').dataset.ply === '0'")
    assert page.locator("#an-ended").count() == 0


def test_the_evaluations_words_count_actions(page, live_server):
    # "#3 a win in 3 moves": the search counts actions, both sides', a turn may have several
    url = live_server.url
    view = post_json(f"{url}/api/matches", {"game": "fanorona", "options": {"size": "dimy"}, "seats": ["human", "human"]})
    post_json(f"{url}/api/matches/{view['id']}/resign", {"seat": 0})
    page.add_init_script("window.abstractaAnalysisScale = 0.05;")
    page.goto(f"{url}/#/match/{view['id']}")
    page.click("#analyse")
    page.wait_for_selector("#an-scale")
    assert page.locator("#an-scale").inner_text() == (
        "Evaluation: +1 is a won game, −1 a lost one, 0 even; #3 a win 3 actions from here, counting "
        "both sides' actions (a turn may be several), #-3 a loss 3 actions from here.")


def test_the_screen_readers_words_go_when_the_chain_ends(page, live_server):
    import_start(page, live_server, "fanorona", FANORONA_EXAMPLE_3)
    page.click("[data-point='c3']")
    page.click("[data-point='d3']")  # c3-d3A: the chain goes on from d3
    page.wait_for_function("() => window.abstractaView.ply === 1")
    page.click("[data-point='a1']")
    say = page.locator("#board-say")
    assert say.text_content() == "The stone on d3 must capture again, or end the turn (E)."
    page.click("#end-turn")
    page.wait_for_function("() => window.abstractaView.ply === 2")
    assert say.text_content() == ""


def test_a_click_on_a_stone_that_cannot_move_is_answered_by_the_board(page, live_server):
    # the click did nothing and said nothing, and the note under the board is often out of sight
    # on a phone: a short line at the board says why, from the view's legal moves and words
    page.set_viewport_size({"width": 390, "height": 640})
    import_start(page, live_server, "fanorona")
    note = page.locator("#board-note")
    assert not note.is_visible()
    page.click("[data-point='a1']")
    expected = "The stone on a1 cannot move now. Capturing is compulsory: pick a stone that can capture."
    assert note.inner_text() == expected
    assert page.locator("#board-say").text_content() == expected
    box, board = note.bounding_box(), page.locator("#board").bounding_box()
    assert box["y"] + box["height"] <= 640 and box["y"] >= board["y"]  # in sight, by the board
    page.click("[data-point='d2']")  # a stone that can move: the note goes
    assert not note.is_visible()


def test_a_click_on_a_slide_checkers_square_without_a_move_is_answered(page, live_server):
    import_start(page, live_server, "slide-checkers", "Bf4,Bl12,Ge4 M G")
    page.wait_for_selector("svg.sc-board")
    page.click("[data-square='a1']")
    assert page.locator("#board-note").inner_text() == "No move starts on a1."


def test_a_click_on_a_fibonacci_cell_without_a_move_is_answered(page, live_server):
    import_start(page, live_server, "fibonacci")
    page.wait_for_selector("[data-cell='a6']")
    page.click("[data-cell='a6']")  # Red's core: no move of the view starts there
    assert page.locator("#board-note").inner_text() == "a6: nothing to do here. Pick one of your attackers or supports."


def test_a_click_on_a_nibble_disc_that_cannot_be_taken_is_answered(page, live_server):
    # nibble.md §7 example 1: only the corners are free; b1 (red A) is not: the click did nothing
    # and said nothing
    import_start(page, live_server, "nibble", options={"first_player": 0}, seed=1)
    note = page.locator("#board-note")
    page.click("[data-cell='b1']")
    assert note.inner_text() == "b1: red (A): nothing to take there."
    assert page.locator("#board-say").text_content() == "b1: red (A): nothing to take there."
    page.click("[data-cell='a1']")  # a disc that may be taken: taken, and the turn ends
    page.wait_for_function("() => window.abstractaView.ply === 2")
    assert page.evaluate("window.abstractaView.moves") == ["a1", "end"]
    assert not note.is_visible()


def test_a_click_on_a_card_that_fits_no_pile_is_answered(page, live_server):
    # piles 2c 5d Jh: the Qd (12) and the 3c fit no pile; the 5s cuts pile 2 down
    import_start(page, live_server, "fibonacci-cards", "2c 5d Jh | 7h,Kd,5s,Qd,3c | 4c,6d,Jc | 3h,9h | 0")
    if page.locator("#handover-ok").is_visible():
        page.click("#handover-ok")
    page.wait_for_selector(".hand [data-card='Qd']")
    note = page.locator("#board-note")
    page.click(".hand [data-card='Qd']")
    assert note.inner_text() == "Qd fits no pile."
    assert page.locator(".pcard.picked").count() == 0
    page.click(".hand [data-card='5s']")  # a card that fits: picked, and the note goes
    assert not note.is_visible()
    page.click("[data-pile='2']")
    page.wait_for_function("() => window.abstractaView.ply === 1")
    assert page.evaluate("window.abstractaView.moves") == ["5s/2"]


def test_a_click_on_a_pile_before_a_card_is_picked_is_answered(page, live_server):
    # a click on a pile with no card picked (or one the picked card does not go on) did nothing
    # and said nothing; it says what to do, by the table, as Enter on the pile says it
    import_start(page, live_server, "fibonacci-cards", "2c 5d Jh | 7h,Kd,5s,Qd,3c | 4c,6d,Jc | 3h,9h | 0")
    if page.locator("#handover-ok").is_visible():
        page.click("#handover-ok")
    page.wait_for_selector(".hand [data-card='5s']")
    note = page.locator("#board-note")
    page.click("[data-pile='1']")
    assert note.inner_text() == "Pick a card of your hand first."
    page.click(".hand [data-card='5s']")  # cuts pile 2 down, goes on no other pile
    assert not note.is_visible()
    page.click("[data-pile='1']")
    assert note.inner_text() == "5s does not go on pile 1."
    assert page.evaluate("window.abstractaView.ply") == 0
    page.click(".hand [data-card='5s']")  # put back
    page.click("#lang button[data-lang='fi']")
    # the page drawn again in Finnish keeps the confirmed hand-over
    page.wait_for_selector("#lang button[data-lang='fi'][aria-pressed='true']")
    page.wait_for_selector(".hand [data-card='5s']")
    assert not page.locator("#handover-ok").is_visible()
    page.click("[data-pile='3']")
    assert note.inner_text() == "Valitse ensin kortti kädestäsi."
    page.click("#lang button[data-lang='en']")


def test_the_analysis_graph_marks_the_end_of_a_resigned_game(page, live_server):
    # the graph's last point of a resigned game showed an evaluation with no sign that the game
    # ended there; its end is marked (a ringed point) and said under the graph as the panel says
    # it, and the graph's name for a screen reader says it too
    url = live_server.url
    _analyse_a_resigned_game(page, url)
    page.wait_for_selector("#an-graph")
    assert page.locator("#an-graph-end").inner_text() == "The graph ends where the game did: Black resigned — White wins."
    assert page.locator("#an-graph circle.ended").get_attribute("data-ply") == "1"
    assert page.locator("#an-graph").get_attribute("aria-label").endswith(
        " The graph ends where the game did: Black resigned — White wins.")
    page.click("#lang button[data-lang='fi']")
    # the page drawn again in Finnish, the panel kept open
    page.wait_for_function("() => (document.getElementById('an-graph-end') || {}).textContent === "
                           "'Kuvaaja päättyy pelin loppuun: Musta luovutti — Valkoinen voittaa.'")
    page.click("#lang button[data-lang='en']")
    # a game the rules ended: its last point is the result itself, nothing added
    won = {"game": "fanorona", "start": "........./........./..W.B..../........./......... W", "moves": ["c3-d3A"]}
    done = post_json(f"{url}/api/matches/import", {"record": won, "seats": ["human", "human"]})
    page.goto(f"{url}/#/match/{done['id']}")
    page.click("#analyse")
    page.wait_for_selector("#an-graph")
    assert page.locator("#an-graph-end").count() == 0 and page.locator("#an-graph circle.ended").count() == 0


def _comma_gaps(page) -> list[float]:
    """For each comma of the move list, the room between the move before it and the comma, in
    px (the move's text, not its box: the box may reach over the comma for a bigger target)."""
    return page.evaluate("""[...document.querySelectorAll('ol.moves a[data-ply]')].flatMap(a => {
        const next = a.nextSibling;
        if (!next || next.nodeType !== Node.TEXT_NODE || !next.data.startsWith(',')) return [];
        const text = document.createRange(), comma = document.createRange();
        text.selectNodeContents(a);
        comma.setStart(next, 0); comma.setEnd(next, 1);
        return [comma.getBoundingClientRect().left - text.getBoundingClientRect().right];
    })""")


@pytest.mark.parametrize("width,touch", [(1280, False), (390, True)])
def test_a_turns_moves_read_with_their_commas_and_stay_easy_to_hit(browser, live_server, width, touch):
    # "c3-d3A , end": each move's padding stood between it and its comma
    view = post_json(f"{live_server.url}/api/matches/import", {"record": {
        "format": "abstracta-record", "version": 1, "game": "fanorona", "options": {}, "seed": None,
        "start": FANORONA_EXAMPLE_3, "players": [], "moves": ["c3-d3A", "end", "d5-d4A"]}, "seats": None})
    context = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=touch, has_touch=touch)
    page = context.new_page()
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function("() => document.querySelectorAll('ol.moves a[data-ply]').length === 3")
    # a round a row (two players): White's turn, then Black's
    assert page.locator("ol.moves li").first.inner_text() == "1. W c3-d3A, end B d5-d4A"
    gaps = _comma_gaps(page)
    assert len(gaps) == 1 and abs(gaps[0]) < 0.5
    # the move's target reaches past its text on both sides (over the comma), as its padding
    # did, and a finger's is 24 px high
    page.locator("ol.moves a[data-ply='1']").scroll_into_view_if_needed()
    text = page.evaluate("""() => { const r = document.createRange();
        r.selectNodeContents(document.querySelector("ol.moves a[data-ply='1']"));
        const b = r.getBoundingClientRect(); return [b.left, b.right, (b.top + b.bottom) / 2]; }""")
    for x in (text[0] - 2, text[1] + 2):
        assert page.evaluate("([x, y]) => document.elementFromPoint(x, y).dataset.ply", [x, text[2]]) == "1"
    if touch:
        assert page.locator("ol.moves a[data-ply='1']").bounding_box()["height"] >= 24
    context.close()


@pytest.mark.parametrize("locale,placeholder", [("en-US", "Letters such as GB or GBRY"),
                                                ("fi-FI", "Kirjaimia, esim. GB tai GBRY")])
def test_the_slide_checkers_colours_box_shows_what_to_type(browser, live_server, locale, placeholder):
    # "Green, blue, red, yellow" greyed in the box read as an example to type; the box takes a
    # letter per seat (its help says what leaving it empty means)
    context = browser.new_context_without_tokens(viewport={"width": 390, "height": 844}, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server.url}/#/new/slide-checkers")
    page.wait_for_selector("#opt-colours")
    assert page.locator("#opt-colours").get_attribute("placeholder") == placeholder
    context.close()


HEADER = """() => { const box = (e) => e.getBoundingClientRect();
    const header = document.querySelector('header.top'), brand = box(header.querySelector('.brand'));
    const lang = box(document.getElementById('lang'));
    const links = [...header.querySelectorAll('nav a')].map(box);
    return { height: box(header).height, overflow: header.scrollWidth > header.clientWidth,
             brand: [brand.top, brand.bottom], lang: [lang.top, lang.bottom, lang.right],
             links: links.map((r) => [r.top, r.bottom, r.left, r.right]) }; }"""


def _header(browser, url: str, width: int, locale: str, touch: bool) -> dict:
    context = browser.new_context_without_tokens(viewport={"width": width, "height": 800}, locale=locale,
                                                 is_mobile=touch, has_touch=touch)
    page = context.new_page()
    page.goto(f"{url}/#/")
    page.wait_for_selector(".cards .card")
    page.wait_for_function("() => document.documentElement.lang === " + json.dumps(locale[:2]))
    shape = page.evaluate(HEADER)
    context.close()
    return shape


def middle(edges) -> float:
    return (edges[0] + edges[1]) / 2


@pytest.mark.parametrize("width,touch", [(360, True), (390, True), (390, False)])
def test_a_phones_header_is_laid_out_alike_in_english_and_finnish(browser, live_server, width, touch):
    # at 390 px the English links and the EN/FI switch took one line and a half (the switch
    # alone on the second line), the Finnish ones one: the header changed height with the
    # language. On a phone the name and the switch share the first line, the links the second
    shapes = {locale: _header(browser, live_server.url, width, locale, touch) for locale in ("en-US", "fi-FI")}
    assert shapes["en-US"]["height"] == shapes["fi-FI"]["height"]
    for locale, shape in shapes.items():
        assert not shape["overflow"], locale
        assert abs(middle(shape["brand"]) - middle(shape["lang"])) < 2, locale
        assert shape["lang"][2] <= width, locale
        tops = {round(link[0]) for link in shape["links"]}
        assert len(tops) == 1, f"{locale}: links on {len(tops)} lines"
        assert all(link[0] >= max(shape["brand"][1], shape["lang"][1]) - 1 for link in shape["links"]), locale
        assert all(link[3] <= width for link in shape["links"]), locale


def test_a_wide_screens_header_is_one_line(browser, live_server):
    for locale in ("en-US", "fi-FI"):
        shape = _header(browser, live_server.url, 1280, locale, False)
        rows = [middle(shape["brand"]), middle(shape["lang"])] + [middle(link) for link in shape["links"]]
        assert max(rows) - min(rows) < 2, locale
        assert shape["lang"][0] < shape["brand"][1] and all(link[3] < shape["lang"][2] for link in shape["links"])


ENDPOINTS = """() => [...document.querySelectorAll('#endpoints tbody tr')].map((tr) =>
    [...tr.cells].map((td) => { const r = td.getBoundingClientRect(); return [r.left, r.right, r.top, r.height]; }))"""


def test_the_api_page_reads_on_a_phone(browser, live_server):
    # the endpoint table was 669 px wide on a 390 px screen: "What it does" off the right edge,
    # rows as tall as a word a line. On a phone each endpoint is a card: method and path, then
    # what it does, then its parameters
    context = browser.new_context_without_tokens(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/api.html")
    page.wait_for_selector("#endpoints")
    assert page.evaluate("document.documentElement.scrollWidth") == 390
    rows = page.evaluate(ENDPOINTS)
    assert len(rows) > 20
    for method, path, what, params in rows:
        assert all(0 <= cell[0] and cell[1] <= 390 for cell in (method, path, what, params))
        assert abs(method[2] - path[2]) < 4  # "GET /api/games" on one line
        assert what[2] > method[2]  # what it does under it, across the card
        assert what[1] - what[0] > 300
    row = page.locator("#endpoints tbody tr", has=page.locator("code", has_text=re.compile(r"^/api/games/\{name\}$")))
    assert row.locator("td.what").inner_text() == "One game: rules page, notation help, seat names and colours"
    params = row.locator("td.params")
    assert params.inner_text() == "name"
    assert params.evaluate("td => getComputedStyle(td, '::before').content") == '"Parameters: "'
    # no parameters: no empty line
    none = page.locator("#endpoints tbody tr", has=page.locator("code", has_text=re.compile(r"^/api/games$")))
    assert none.locator("td.params").inner_text() == "" and not none.locator("td.params").is_visible()
    context.close()


def test_the_api_page_is_a_table_on_a_wide_screen(browser, live_server):
    context = browser.new_context_without_tokens(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{live_server.url}/api.html")
    page.wait_for_selector("#endpoints")
    assert page.locator("#endpoints thead th").all_inner_texts() == ["Method", "Path", "What it does", "Parameters"]
    assert page.locator("#endpoints thead").is_visible()
    for cells in page.evaluate(ENDPOINTS):
        assert len({round(cell[2]) for cell in cells}) == 1  # four columns side by side
        assert [cell[0] for cell in cells] == sorted(cell[0] for cell in cells)
    context.close()
