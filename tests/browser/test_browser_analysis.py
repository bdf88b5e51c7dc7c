"""Browser tests of the analysis board (issue 16 §1, §5): on each game, a finished match's
analysis shows an evaluation and a best line that the engine accepts, with the evaluation
graph; a hint against the computer is counted; a pasted position is analysed; none of it is
offered in a running game between people. Screenshots at 1280 and 360 px."""

from __future__ import annotations

import json
import random
import urllib.parse

import pytest
from httputil import get_json, give, post_json
from test_accessibility import report, severe_violations

import abstracta
from abstracta import Record

#: a share of the server's analysis budget: the tests check what is shown, not its strength
SCALE = "window.abstractaAnalysisScale = 0.05;"

GAMES = [("fanorona", {"size": "dimy"}), ("fanorona", {}), ("nibble", {"seed": 4}), ("fibonacci", {}),
         ("fibonacci-cards", {"seed": 2}), ("slide-checkers", {}), ("slide-checkers", {"players": 3})]


def ids(config) -> str:
    name, options = config
    return name + "".join(f"-{v}" for v in options.values())


def resigned_record(name: str, options: dict, plies: int = 14, seed: int = 5) -> dict:
    """A finished record: random actions, then the player to move resigns (every game ends
    that way in a few actions, Slide Checkers and Fibonacci too)."""
    game = abstracta.load_game(name, **options)
    state = game.new_initial_state()
    initial = state.clone()
    rng = random.Random(seed)
    actions = []
    for _ in range(plies):
        legal = state.legal_actions()
        nxt = state.clone()
        action = legal[rng.randrange(len(legal))]
        nxt.apply_action(action)
        if nxt.is_terminal():
            break
        state = nxt
        actions.append(action)
    loser = state.current_player()
    result = [1.0 if i != loser else -1.0 for i in range(game.num_players)]
    if game.num_players > 2:
        result = [0.0 if i != loser else -1.0 for i in range(game.num_players)]
    return Record.from_play(game, initial, actions, players=["human"] * game.num_players,
                            result=result, termination="resignation").to_dict()


def record_state(live_server, mid: str, ply: int):
    import urllib.request

    with urllib.request.urlopen(f"{live_server.url}/api/matches/{mid}/record") as r:
        record = Record.from_dict(json.load(r))
    state = record.initial_state()
    _, actions = record.replay()
    for action in actions[:ply]:
        state.apply_action(action)
    return state


def line_on_page(page) -> list[tuple[int, list[str]]]:
    return page.evaluate("""() => [...document.querySelectorAll('#an-line li[data-actions]')]
        .map((li) => [Number(li.dataset.player), JSON.parse(li.dataset.actions)])""")


def check_line_legal(state, line) -> None:
    s = state.clone()
    assert line, "a running position has a best line"
    for player, actions in line:
        for text in actions:
            assert s.current_player() == player, (player, text)
            s.apply_action(s.string_to_action(text))  # the engine refuses an illegal action


@pytest.mark.parametrize("config", GAMES, ids=ids)
def test_finished_match_analysis_on_each_game(live_server, page, shots, config) -> None:
    name, options = config
    view = post_json(f"{live_server.url}/api/matches/import", {"record": resigned_record(name, options)})
    mid = view["id"]
    assert view["status"] == "over"
    page.add_init_script(SCALE)
    page.goto(f"{live_server.url}/#/match/{mid}")
    page.click("#analyse")
    page.wait_for_selector("#an-number")
    number = page.text_content("#an-number")
    assert number and (number[0] in "+-#0"), number
    value = float(page.get_attribute(".an-result", "data-value"))
    assert -1 <= value <= 1
    # a learned value the levels play (issue 47) is shown beside the search's; none elsewhere
    learned = abstracta.load_game(name, **options).description.learned
    if learned is not None and learned.kept:
        assert "Learned value for" in page.text_content("#an-learned")
        assert -1 <= float(page.get_attribute("#an-learned", "data-value")) <= 1
    else:
        assert page.locator("#an-learned").count() == 0
    # the last position: the game ended by resignation, so there is still a best line there
    check_line_legal(record_state(live_server, mid, view["ply"]), line_on_page(page))
    # the graph: one point per turn start, and a click on it goes to that position
    page.wait_for_selector("#an-graph circle")
    points = page.locator("#an-graph circle:not(.ended)").count()
    # a resigned game: its last point is ringed as where the game ended
    assert page.locator("#an-graph circle.ended").get_attribute("data-ply") == str(view["ply"])
    movers = view["movers"]
    starts = [0] + [i for i in range(1, len(movers)) if movers[i] != movers[i - 1]] + [view["ply"]]
    assert points == len(starts)
    box = page.locator("#an-graph").bounding_box()
    page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)  # the far left: the start
    page.wait_for_function("() => document.querySelector('.an-result') && document.querySelector('.an-result').dataset.ply === '0'")
    assert "Replay" in page.text_content("#status")
    start_line = line_on_page(page)
    check_line_legal(record_state(live_server, mid, 0), start_line)
    # the line is drawn on the board (marks over the cells its actions touch)
    assert page.locator("#board .an-mark, #board .an-target").count() >= 1
    # stepping quickly: the analysis follows to where the replay stops, without an error
    for _ in range(3):
        page.click("#step-fwd")
    page.wait_for_function("() => document.querySelector('.an-result') && document.querySelector('.an-result').dataset.ply === '3'")
    assert page.locator("#analysis .error").count() == 0
    check_line_legal(record_state(live_server, mid, 3), line_on_page(page))
    box = page.locator("#an-graph").bounding_box()  # stepping may have scrolled the page
    page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)  # back to the start for the screenshots
    page.wait_for_function("() => document.querySelector('.an-result').dataset.ply === '0'")
    tag = ids(config)
    page.screenshot(path=str(shots / f"analysis-{tag}-1280.png"), full_page=True)
    if config in (("fanorona", {"size": "dimy"}), ("fibonacci-cards", {"seed": 2})):
        found = severe_violations(page)
        assert not found, "axe on the analysis view:\n" + report(found)
    if config in (("fanorona", {"size": "dimy"}), ("fibonacci-cards", {"seed": 2}), ("nibble", {"seed": 4})):
        page.set_viewport_size({"width": 360, "height": 800})
        page.wait_for_timeout(200)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 362, f"the page is {width} px wide at 360 px"
        page.screenshot(path=str(shots / f"analysis-{tag}-360.png"), full_page=True)


def test_hint_against_the_computer(live_server, page, shots) -> None:
    view = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "options": {"size": "dimy"},
                                                        "seats": ["human", "level:2"]})
    mid = view["id"]
    page.add_init_script(SCALE)
    page.goto(f"{live_server.url}/#/match/{mid}")
    page.wait_for_selector("#hints-toggle")
    assert page.locator("#hint").count() == 0  # off by default
    page.check("#hints-toggle")
    page.click("#hint")
    page.wait_for_selector("#an-number")
    line = line_on_page(page)
    assert line[0][0] == 0 and line[0][1][0] in view["legal"]
    check_line_legal(abstracta.load_game("fanorona", size="dimy").new_initial_state(), line)
    page.wait_for_selector("#hints-used")
    assert "1" in page.text_content("#hints-used")
    assert get_json(f"{live_server.url}/api/matches/{mid}")["hints"] == [1, 0]
    assert page.locator("#board .an-mark").count() >= 1
    # what the number means is on the page, not only in the bar's tooltip (no hover on a phone)
    assert page.locator("#an-scale").is_visible()
    assert page.locator("#an-scale").inner_text() == ("Evaluation: +1 is a won game, −1 a lost one, 0 even; "
                                                     "#3 a win 3 actions from here, counting both sides' actions (a turn may be several), "
                                                     "#-3 a loss 3 actions from here.")
    page.screenshot(path=str(shots / "analysis-hint-1280.png"), full_page=True)
    # the toggle is remembered for this match
    page.reload()
    page.wait_for_selector("#hint")
    # once the game is over the page still says how many hints each seat used
    post_json(f"{live_server.url}/api/matches/{mid}/resign", {"seat": 0})
    page.reload()
    page.wait_for_selector("#analyse")
    assert page.text_content("#hints-used") == "Hints used: White 1"


def test_not_offered_in_a_running_game_between_people(live_server, page) -> None:
    view = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "options": {"size": "dimy"},
                                                        "seats": ["human", "human"]})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_selector("#board svg")
    assert page.locator("#analysis").is_hidden()
    assert page.locator("#analyse, #hint, #hints-toggle").count() == 0


@pytest.mark.parametrize("config", [("fanorona", {"size": "dimy"}), ("fibonacci", {})], ids=ids)
def test_pasted_position(live_server, page, shots, config) -> None:
    name, options = config
    game = abstracta.load_game(name, **options)
    state = game.new_initial_state()
    for text in state.legal_action_strings()[:1]:
        state.apply_action(state.string_to_action(text))
    page.add_init_script(SCALE)
    page.goto(f"{live_server.url}/#/new/{name}")
    for key, value in options.items():
        page.select_option(f"#opt-{key}", value)
    page.click("#paste-box summary")
    page.fill("#paste-position", state.to_text())
    page.click("#paste-go")
    page.wait_for_selector("#an-number")
    assert page.url.split("#", 1)[1].startswith(f"/analysis/{name}?")
    check_line_legal(state, line_on_page(page))
    # the board module loads after the analysis numbers: on a loaded machine it lagged behind
    page.wait_for_selector("#board svg", state="attached")
    page.wait_for_selector("#board .an-mark", state="attached")
    assert page.locator("#board svg").count() == 1
    assert page.locator("#board .an-mark").count() >= 1
    page.screenshot(path=str(shots / f"analysis-pasted-{ids(config)}-1280.png"), full_page=True)
    found = severe_violations(page)
    assert not found, "axe on the pasted-position page:\n" + report(found)
    page.set_viewport_size({"width": 360, "height": 800})
    page.wait_for_timeout(200)
    page.screenshot(path=str(shots / f"analysis-pasted-{ids(config)}-360.png"), full_page=True)
    # a bad position text: a clear error, no board
    bad = urllib.parse.urlencode({**options, "position": "not a position"})
    page.goto(f"{live_server.url}/#/analysis/{name}?{bad}")
    page.wait_for_selector("#an-error:not([hidden])")
    assert name in page.text_content("#an-error")


def test_nothing_pasted_shows_the_box_to_paste_into(live_server, page) -> None:
    # "Analyse" with an empty box (or the address alone): no empty board frame beside an empty
    # analysis frame, but the box to paste into, with the focus, under the lead that says what to paste
    page.add_init_script(SCALE)
    page.goto(f"{live_server.url}/#/new/nibble")
    page.click("#paste-box summary")
    page.click("#paste-go")
    page.wait_for_selector("#an-position")
    assert page.url.split("#", 1)[1] == "/analysis/nibble?variant=square9"
    assert page.locator("#board, #analysis").count() == 0
    assert page.evaluate("document.activeElement.id") == "an-position"
    assert "Position text" in page.locator("main .lead").inner_text()
    position = abstracta.load_game("fanorona", size="telo").new_initial_state().to_text()
    page.goto(f"{live_server.url}/#/analysis/fanorona?size=telo")
    page.fill("#an-position", position)
    page.click("#an-go")
    page.wait_for_selector("#an-number")
    page.wait_for_selector("#board svg", state="attached")


@pytest.mark.parametrize("name, options, words", [
    ("fanorona", {"size": "telo"}, r"alpha-beta search, [\d,]+ positions"),
    ("fibonacci-cards", {"seed": 2}, r"Monte Carlo tree search \(hidden cards guessed\), [\d,]+ playouts"),
])
def test_the_search_is_said_in_words(live_server, page, name, options, words) -> None:
    # "alphabeta:n60000, 60160 searched" was jargon: said in words, the exact text in the tooltip
    import re

    position = abstracta.load_game(name, **options).new_initial_state().to_text()
    page.add_init_script(SCALE)
    page.goto(f"{live_server.url}/#/analysis/{name}?" + urllib.parse.urlencode({**options, "position": position}))
    line = page.locator("#an-search")
    line.wait_for()
    text, exact = line.inner_text(), line.get_attribute("title")
    assert re.fullmatch(words, text), text
    kind = "alphabeta:n" if name == "fanorona" else "ismcts:i"
    assert re.fullmatch(kind + r"\d+, \d+ searched", exact), exact
    # the count on the page is the count searched, in the reader's digits
    assert text.split(", ")[-1].split(" ")[0].replace(",", "") == exact.split(", ")[1].split(" ")[0]
    page.evaluate("localStorage.setItem('abstracta.lang', 'fi')")
    page.reload()
    line.wait_for()
    assert line.inner_text().startswith("alfa-beeta-haku, " if name == "fanorona" else "Monte Carlo -puuhaku (piilokortit arvattu), ")


def test_a_hint_on_a_phone_brings_the_board_into_sight(live_server, browser) -> None:
    # on a phone the Hint button is under the board: its marks were drawn on a board scrolled out
    # of sight; once the hint answers the board is brought back into view (no animation when
    # the reader asks for reduced motion), and a desktop, whose board is in sight, does not scroll
    in_sight = """() => { const r = document.querySelector('#board').getBoundingClientRect();
        return r.top >= -1 && r.top < innerHeight / 3; }"""
    for phone in (True, False):
        view = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "options": {"size": "dimy"},
                                                            "seats": ["human", "level:1"]})
        kw = ({"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "reduced_motion": "reduce"}
              if phone else {"viewport": {"width": 1280, "height": 800}})
        # this game's tokens only: the fixture's contexts hold every test match's, whose games
        # waiting for a move put a badge in the header and move the page under the test
        context = browser.new_context_without_tokens(**kw)
        give(context, view["id"], {str(t["seat"]): t["token"] for t in view["tokens"]})
        try:
            page = context.new_page()
            page.add_init_script(SCALE)
            page.goto(f"{live_server.url}/#/match/{view['id']}")
            page.wait_for_selector("#hints-toggle")
            page.check("#hints-toggle")
            page.locator("#hint").scroll_into_view_if_needed()
            before = page.evaluate("scrollY")
            assert not page.evaluate(in_sight) if phone else before == 0
            page.locator("#hint").tap() if phone else page.click("#hint")
            page.wait_for_selector("#an-number", state="attached")
            page.wait_for_selector("#board .an-mark", state="attached")
            page.wait_for_function(in_sight, timeout=3000)
            if not phone:
                assert page.evaluate("scrollY") == 0
        finally:
            context.close()


def test_a_finished_position_names_no_search(live_server, page) -> None:
    # nothing is searched at the end of a game: no ", 0 searched" line under the result
    end = "9c 5d 4h | 2c,Qd | 6h | - | 0"  # fibonacci-cards.md §7 example 5: nobody can play
    page.add_init_script(SCALE)
    page.goto(f"{live_server.url}/#/analysis/fibonacci-cards?" + urllib.parse.urlencode({"position": end}))
    page.wait_for_selector("#an-number")
    assert page.locator(".an-result").count() == 1 and page.locator("#an-search").count() == 0


def test_a_refused_analysis_is_told_once_not_asked_again_in_a_loop(live_server, page, monkeypatch) -> None:
    # a refusal redrew the panel, and the redraw asked again: hundreds of requests a second
    from abstracta.server.errors import InvalidRequest

    view = post_json(f"{live_server.url}/api/matches/import", {"record": resigned_record("nibble", {})})
    service = live_server.app.state.service
    real = service.analyse

    def refused(**kwargs):
        if not kwargs.get("graph"):
            raise InvalidRequest("this position cannot be analysed")
        return real(**kwargs)

    monkeypatch.setattr(service, "analyse", refused)
    asked = []
    page.on("request", lambda r: asked.append(r.post_data) if r.url.endswith("/api/analysis") else None)
    page.add_init_script(SCALE)
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.click("#analyse")
    page.wait_for_selector("#analysis .error")
    assert "this position cannot be analysed" in page.inner_text("#analysis .error")
    page.wait_for_timeout(1500)
    assert len(asked) == 1, asked
    page.click("#analyse")  # hide, and Analyse again: the reader asks again
    page.click("#analyse")
    page.wait_for_timeout(500)
    assert len(asked) == 2, asked
