"""Every game's pages in Finnish with no English left (issue 16 §4, §5), checked against the
catalogs: the visible text, the screen-reader text, aria labels, titles and placeholders of the
new-game form, the rules page, a match with a few moves played and a finished match may contain
no English message of the catalog that the Finnish one changes. And the language switch: a
Finnish browser gets Finnish, the header's EN/FI choice re-renders the page and outlives a reload.

One page load per game: the pages are reached by their hash routes; the matches are made
through the API (imported records)."""

from __future__ import annotations

import json
import random
import re

import pytest
from httputil import get_json, post_json

import abstracta
from abstracta import Record

GAMES = ["fanorona", "nibble", "fibonacci", "fibonacci-cards", "slide-checkers"]
#: Notation the pages show in every language (action words of the games: legal-move buttons,
#: the move list, the notation help).
NOTATION = {"end", "pass", "draw"}
#: Everything a person may read or hear on the page: the rendered text (the screen-reader
#: regions included; a closed <details> is not rendered), the words in attributes and SVG titles.
PAGE_WORDS = """() => {
  const out = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    for (const a of ['aria-label', 'title', 'placeholder', 'alt']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  }
  for (const t of document.querySelectorAll('svg title, svg text')) out.push(t.textContent);
  for (const o of document.querySelectorAll('option, optgroup')) out.push(o.label || o.textContent);
  return out.join('\\n');
}"""


def english_probes(base: str) -> list[tuple[str, re.Pattern]]:
    """(key, pattern) for every English message the Finnish catalog says differently: the
    message's literal pieces between its parameters, as whole words (at least three letters,
    not notation)."""
    en, fi = get_json(f"{base}/api/i18n/en"), get_json(f"{base}/api/i18n/fi")
    probes = []
    for key, message in en.items():
        if key not in fi or fi[key] == message:
            continue
        texts = message.values() if isinstance(message, dict) else [message]
        finnish = " ".join(fi[key].values() if isinstance(fi[key], dict) else [fi[key]])
        for text in texts:
            for piece in re.split(r"\{\w+\}", text):
                piece = piece.strip(" \t\n.,:;·—–()[]!?/+|◀▶'’\"“”")
                if sum(ch.isalpha() for ch in piece) < 3 or piece.lower() in NOTATION or piece in finnish:
                    continue
                probes.append((key, re.compile(r"(?<![\w])" + re.escape(piece) + r"(?![\w])")))
    assert len(probes) > 300
    return probes


def leftovers(page, probes, where: str) -> list[str]:
    words = page.evaluate(PAGE_WORDS)
    found = []
    for key, pattern in probes:
        m = pattern.search(words)
        if m:
            line = next((ln for ln in words.split("\n") if pattern.search(ln)), "")
            found.append(f"{where}: {m.group(0)!r} ({key}) in {line.strip()[:160]!r}")
    return found


def record(name: str, seed: int, plies: int | None) -> dict:
    """A record of random moves: ``plies`` of them, or (``None``) a whole game."""
    options = {"seed": seed} if any(o.name == "seed" for o in abstracta.game_class(name).option_specs) else {}
    if name == "fanorona":
        options["size"] = "dimy"  # a finished game quickly
    for attempt in range(20):
        game = abstracta.load_game(name, **options)
        initial = game.new_initial_state()
        state = initial.clone()
        rng = random.Random(seed * 100 + attempt)
        actions = []
        while not state.is_terminal() and len(actions) < (plies if plies is not None else 4000):
            a = rng.choice(state.legal_actions())
            state.apply_action(a)
            actions.append(a)
        if plies is not None or state.is_terminal():
            rec = Record.from_play(game, initial, actions, players=["human"] * game.num_players)
            return json.loads(rec.to_json(indent=None))
    raise AssertionError(f"{name}: no finished random game")


@pytest.fixture
def finnish(browser):
    """A page of a browser whose preferred language is Finnish."""
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="fi-FI")
    pg = context.new_page()
    pg.set_default_timeout(15000)
    yield pg
    context.close()


@pytest.mark.parametrize("game", GAMES)
def test_game_pages_in_finnish_have_no_english_left(finnish, live_server, game):
    page, base = finnish, live_server.url
    probes = english_probes(base)
    playing = post_json(f"{base}/api/matches/import", {"record": record(game, 3, 7), "seats": None, "take": "all"})
    over = post_json(f"{base}/api/matches/import", {"record": record(game, 5, None), "seats": None, "take": "all"})
    found: list[str] = []

    page.goto(f"{base}/#/new/{game}")
    page.wait_for_selector("#new-game select")
    assert page.evaluate("document.documentElement.lang") == "fi"
    assert page.locator("header [data-lang='fi']").get_attribute("aria-pressed") == "true"
    found += leftovers(page, probes, "new game")

    page.evaluate("h => { location.hash = h; }", f"#/rules/{game}")
    page.wait_for_selector(".rules h3")
    found += leftovers(page, probes, "rules")

    page.evaluate("h => { location.hash = h; }", f"#/match/{playing['id']}")
    page.wait_for_function("id => window.abstractaView && window.abstractaView.id === id", arg=playing["id"])
    page.wait_for_selector("#board svg, #board .cardtable, #handover-ok")
    if page.locator("#handover-ok").is_visible():  # two people on one device, hidden cards
        found += leftovers(page, probes, "hand-over")
        page.click("#handover-ok")
    page.wait_for_selector("#board svg, #board .cardtable")
    page.wait_for_function("() => document.getElementById('board-text').textContent.length > 0")
    found += leftovers(page, probes, "match")

    page.evaluate("h => { location.hash = h; }", f"#/match/{over['id']}")
    page.wait_for_function("id => window.abstractaView && window.abstractaView.id === id && window.abstractaView.status === 'over'",
                           arg=over["id"])
    page.locator("#result").wait_for(state="visible")
    banner = page.locator("#result").inner_text()
    found += leftovers(page, probes, "finished")
    assert not found, "English left on the Finnish pages:\n" + "\n".join(found)
    # the banner says the result and why in Finnish (the engine's words, from its message)
    assert re.search(r"voittaa|Tasapeli|häviää|Voitit|Hävisit", banner), banner


def test_the_language_switch_rerenders_and_is_remembered(finnish, live_server):
    page, base = finnish, live_server.url
    page.goto(f"{base}/#/")
    page.wait_for_selector(".cards .card")
    assert page.locator("h1").inner_text() == "Viisi abstraktia peliä"
    assert page.locator("header nav a[href='#/matches']").inner_text() == "Omat pelit"
    assert page.locator("[data-game='slide-checkers'] h2").inner_text() == "Liukutammi"
    probes = english_probes(base)
    # (games other tests register have no catalogs: their English is right, and left out here)
    page.evaluate("games => document.querySelectorAll('.card').forEach((c) => { if (!games.includes(c.dataset.game)) c.remove(); })", GAMES)
    found = leftovers(page, probes, "home")
    # "Your games": a finished and a running match of this browser, their results and seats
    ids = [post_json(f"{base}/api/matches/import", {"record": record("slide-checkers", 5, None), "seats": None, "take": "all"})["id"],
           post_json(f"{base}/api/matches/import", {"record": record("nibble", 3, 4), "seats": None, "take": "all"})["id"]]
    page.goto(f"{base}/#/matches")
    page.wait_for_selector("#match-list tbody tr")
    page.evaluate("ids => document.querySelectorAll('#match-list tbody tr').forEach((r) => { if (!ids.includes(r.dataset.id)) r.remove(); })", ids)
    found += leftovers(page, probes, "your games")
    assert not found, "\n".join(found)
    page.goto(f"{base}/#/")
    page.wait_for_selector(".cards .card")
    # to English: everything shown again in English, <html lang> too, and kept over a reload
    page.click("header [data-lang='en']")
    page.wait_for_function("() => document.querySelector('h1').textContent === 'Five abstract games'")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("header nav a[href='#/matches']").inner_text() == "Your games"
    assert page.locator("[data-game='slide-checkers'] h2").inner_text() == "Slide Checkers"
    assert page.locator("header [data-lang='en']").get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_selector(".cards .card")
    assert page.locator("h1").inner_text() == "Five abstract games"
    assert page.evaluate("localStorage.getItem('abstracta.lang')") == "en"
    # and back to Finnish, on a game page: the open page is drawn again in Finnish
    page.evaluate("() => { location.hash = '#/new/nibble'; }")
    page.wait_for_selector("#new-game select")
    assert page.locator("#start").inner_text() == "Start"
    page.click("header [data-lang='fi']")
    page.wait_for_function("() => document.getElementById('start') && document.getElementById('start').textContent === 'Aloita'")
    assert page.locator("label[for='opt-variant'] span").inner_text() == "Lauta"
    page.reload()
    page.wait_for_selector("#start")
    assert page.locator("#start").inner_text() == "Aloita"


def test_an_english_browser_gets_english(page, live_server):
    page.goto(f"{live_server.url}/#/")
    page.wait_for_selector(".cards .card")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("h1").inner_text() == "Five abstract games"


def test_the_api_page_keeps_the_readers_language_around_its_english_reference(finnish, live_server):
    # the API page is a developer's reference, in English as its schema is; its header (the
    # app's own links) was English on a Finnish reader's screen too, with nothing to say why
    page = finnish
    page.goto(f"{live_server.url}/api.html")
    page.wait_for_selector("#endpoints")
    page.wait_for_function("() => document.documentElement.lang === 'fi'")
    assert page.locator("header nav a[href='/#/']").inner_text() == "Pelit"
    assert page.locator("header nav a[href='/#/matches']").inner_text() == "Omat pelit"
    assert page.locator("#api").get_attribute("lang") == "en"  # a screen reader reads it as English
    assert page.locator("#api-lang-note").inner_text() == "Rajapinnan kuvaus on englanniksi, kuten sen skeema."
    assert page.locator("#api-lang-note").get_attribute("lang") == "fi"


def test_an_english_reader_of_the_api_page_gets_no_note_on_its_language(page, live_server):
    page.goto(f"{live_server.url}/api.html")
    page.wait_for_selector("#endpoints")
    assert page.locator("header nav a[href='/#/matches']").inner_text() == "Your games"
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("#api-lang-note").count() == 0


def test_a_finnish_game_page_fits_desktop_and_phone(browser, live_server, shots):
    """A Fanorona match in Finnish at 1280 px and 360 px (screenshots in test-screenshots/): the
    longer Finnish words fit, the page does not scroll sideways on the phone."""
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record("fanorona", 3, 5), "seats": None, "take": "all"})
    for width, height, name in ((1280, 900, "i18n-fi-fanorona-1280.png"), (360, 780, "i18n-fi-fanorona-360.png")):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="fi-FI",
                                      is_mobile=width < 500, has_touch=width < 500)
        try:
            page = context.new_page()
            page.goto(f"{live_server.url}/#/match/{view['id']}")
            page.wait_for_selector("#board svg")
            page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Vuorossa')"
                                   " || document.getElementById('status').textContent.startsWith('Sinun')")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(shots / name), full_page=True)
        finally:
            context.close()


def test_refusals_a_finnish_reader_meets_are_in_finnish(browser, server_factory, tmp_path):
    """Too many new games in a minute (the server's rate limit) and an invitation link run
    together with the text after it (longer than any code) are said in Finnish, not in the
    server's English ("too many requests: try again in 60 s", "code: String should have at most
    64 characters")."""
    server = server_factory(tmp_path / "limited.db", limits={"create": ("1/minute", "1/minute")}).start()
    fi = get_json(f"{server.url}/api/i18n/fi")
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="fi-FI")
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        page.goto(f"{server.url}/#/new/nibble")
        page.click("#start")
        page.wait_for_function("() => location.hash.startsWith('#/match/')")
        page.evaluate("() => { location.hash = '#/new/nibble'; }")
        page.wait_for_selector("#start")
        page.click("#start")
        page.locator("#new-error").wait_for(state="visible")
        refused = page.locator("#new-error").inner_text()
        assert re.fullmatch(r"liian monta pyyntöä: yritä uudelleen \d+ sekunnin kuluttua", refused), refused
        page.evaluate("h => { location.hash = h; }", "#/join/" + "Ab3_" * 20)
        page.wait_for_selector("#join-error")
        assert page.locator("#join-error").inner_text() == fi["join.none"]
    finally:
        context.close()
        server.stop()


#: a share of the server's analysis budget: the tests check what is kept, not its strength. The
#: whole budget kept the server's analyses of a test running into the next one, whose analysis
#: was then refused (two analyses of one client at a time; the tests' browsers are one client)
SCALE = "window.abstractaAnalysisScale = 0.05;"
#: how long an analysis answer may take (ms) on a loaded machine
ANSWER_MS = 60000


def switch_to_english(page) -> None:
    """The header's EN, then wait for the match page drawn again in English."""
    page.click("header [data-lang='en']")
    page.wait_for_function("() => [...document.querySelectorAll('.right h2')].some((e) => e.textContent === 'Moves')")


def test_the_language_switch_keeps_the_confirmed_hand_over(finnish, live_server):
    # two people on one device, hidden hands: the one who confirmed holding the device keeps
    # seeing their hand; the switch redraws the words, it does not pass the device again
    page, base = finnish, live_server.url
    playing = post_json(f"{base}/api/matches/import", {"record": record("fibonacci-cards", 3, 7), "seats": None, "take": "all"})
    page.goto(f"{base}/#/match/{playing['id']}")
    page.wait_for_selector("#handover-ok")
    page.click("#handover-ok")
    page.wait_for_selector("#board .cardtable")
    assert page.locator("#handover").is_hidden()
    switch_to_english(page)
    page.wait_for_selector("#board .cardtable")
    assert page.locator("#handover").is_hidden()
    assert page.locator("#handover-ok").count() == 0
    assert page.locator("#board .hidden-note").count() == 0
    # the switch itself keeps the focus (the header is not drawn again)
    assert page.evaluate("document.activeElement.dataset.lang") == "en"


def test_the_language_switch_keeps_the_analysis_and_the_replay(finnish, live_server):
    page, base = finnish, live_server.url
    over = post_json(f"{base}/api/matches/import", {"record": record("slide-checkers", 5, None), "seats": None, "take": "all"})
    page.add_init_script(SCALE)
    page.goto(f"{base}/#/match/{over['id']}")
    page.wait_for_function("id => window.abstractaView && window.abstractaView.id === id && window.abstractaView.status === 'over'",
                           arg=over["id"])
    plies = page.evaluate("window.abstractaView.ply")
    for back in (1, 2):  # one step at a time: the first fetches the replay's page
        page.click("#step-back")
        page.wait_for_function("want => document.getElementById('step-at').dataset.ply === want", arg=f"{plies - back}")
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Kertaus')")
    page.click("#analyse")
    page.wait_for_selector("#analyse[aria-expanded='true']")
    switch_to_english(page)
    assert page.locator("#analyse").get_attribute("aria-expanded") == "true"
    assert page.locator("#analyse").inner_text() == "Hide analysis"
    # the replay position shown before the switch, said in English
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Replay')")
    assert page.locator("#step-at").get_attribute("data-ply") == f"{plies - 2}"


#: piles 2c 5d Jh; seat 0 holds 7h Kd 5s Qd 3c (5s cuts pile 2 down: the one pile it goes on)
CARDS_START = "2c 5d Jh | 7h,Kd,5s,Qd,3c | 4c,6d,Jc | 3h,9h | 0"


def test_the_language_switch_keeps_a_card_picked(finnish, live_server):
    # the card game: a card of the hand picked, its pile not yet chosen; the switch keeps the
    # pick (and the pile it goes on), and the pile played next plays that card
    page, base = finnish, live_server.url
    rec = {"format": "abstracta-record", "version": 1, "game": "fibonacci-cards", "options": {},
           "seed": None, "start": CARDS_START, "players": [], "moves": []}
    mid = post_json(f"{base}/api/matches/import", {"record": rec, "seats": ["human", "human"]})["id"]
    page.goto(f"{base}/#/match/{mid}")
    page.click("#handover-ok")
    page.click(".hand [data-card='5s']")
    page.wait_for_selector(".hand [data-card='5s'].picked")
    switch_to_english(page)
    page.wait_for_selector("#board .cardtable")
    assert page.locator(".hand .pcard.picked").evaluate_all("cs => cs.map(c => c.dataset.card)") == ["5s"]
    assert page.locator(".pile.target").evaluate_all("ps => ps.map(p => p.dataset.pile)") == ["2"]
    assert page.locator("[data-pile='2'] .pilehint").inner_text() == "cut down to 1"
    assert "5s picked" in page.locator("#board-text").text_content()
    page.click("[data-pile='2']")
    page.wait_for_function("() => window.abstractaView.ply === 1")
    assert get_json(f"{base}/api/matches/{mid}")["moves"] == ["5s/2"]


def test_the_language_switch_keeps_a_piece_picked_in_fibonaccis_card_variant(finnish, live_server):
    # Fibonacci's card variant, two people: a piece picked, the cell it goes to not yet
    page, base = finnish, live_server.url
    rec = {"format": "abstracta-record", "version": 1, "game": "fibonacci", "options": {"variant": "cards"},
           "seed": 5, "start": None, "players": [], "moves": []}
    mid = post_json(f"{base}/api/matches/import", {"record": rec, "seats": ["human", "human"]})["id"]
    page.goto(f"{base}/#/match/{mid}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    page.click("[data-cell='b6']")
    page.wait_for_selector("#fib-cancel")
    dests = page.locator("[data-cell].fib-dest").evaluate_all("cs => cs.map(c => c.dataset.cell).sort()")
    assert "c7" in dests
    switch_to_english(page)
    page.wait_for_selector("#board svg")
    assert page.locator("[data-cell].fib-dest").evaluate_all("cs => cs.map(c => c.dataset.cell).sort()") == dests
    assert page.locator("#fib-cancel").is_visible()
    page.click("[data-cell='c7']")
    page.wait_for_function("() => window.abstractaView.ply === 1")
    assert get_json(f"{base}/api/matches/{mid}")["moves"] == ["b6-c7"]


def analysis_asks(page) -> list[str]:
    """The page's requests to the analysis endpoints from now on (a list that grows)."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/analysis" in r.url else None)
    return asked


def test_the_language_switch_keeps_a_hint_shown(finnish, live_server):
    page, base = finnish, live_server.url
    mid = post_json(f"{base}/api/matches", {"game": "fanorona", "options": {"size": "dimy"}, "seats": ["human", "level:1"]})["id"]
    page.add_init_script(SCALE)
    page.goto(f"{base}/#/match/{mid}")
    page.check("#hints-toggle")
    page.click("#hint")
    page.wait_for_selector("#an-number", timeout=ANSWER_MS)
    number = page.locator("#an-number").inner_text()
    line = page.locator("#an-line li[data-actions]").evaluate_all("ls => ls.map(l => [l.dataset.player, l.dataset.actions])")
    asked = analysis_asks(page)
    switch_to_english(page)
    # the same answer, in English, and its line still on the board; not asked for again (a
    # hint asked again would count twice)
    assert page.locator("#an-number").inner_text() == number
    assert page.locator("#an-line li[data-actions]").evaluate_all("ls => ls.map(l => [l.dataset.player, l.dataset.actions])") == line
    assert page.locator("#an-line .who").first.inner_text() == "White"
    assert page.locator("#an-scale").inner_text().startswith("Evaluation: +1 is a won game")
    assert page.locator("#hint").inner_text() == "Hint"
    assert page.locator("#board .an-mark").count() >= 1
    assert asked == []
    assert get_json(f"{base}/api/matches/{mid}")["hints"] == [1, 0]


def test_the_language_switch_keeps_the_analysis_fetched(finnish, live_server):
    page, base = finnish, live_server.url
    over = post_json(f"{base}/api/matches/import", {"record": record("slide-checkers", 5, None), "seats": None, "take": "all"})
    page.add_init_script(SCALE)
    page.goto(f"{base}/#/match/{over['id']}")
    page.click("#analyse")
    page.wait_for_selector("#an-number", timeout=ANSWER_MS)
    page.wait_for_selector("#an-graph", timeout=ANSWER_MS)
    number = page.locator("#an-number").inner_text()
    points = page.locator("#an-graph circle[data-ply]").count()
    asked = analysis_asks(page)
    switch_to_english(page)
    # the evaluation and the graph on screen at once, in English, and nothing asked again
    assert page.locator("#an-wait").count() == 0
    assert page.locator("#an-number").inner_text() == number
    assert page.locator("#an-graph circle[data-ply]").count() == points
    assert page.locator("#an-graph").get_attribute("aria-label").startswith("Evaluation")
    page.wait_for_timeout(300)
    assert asked == []


def test_a_move_refused_in_the_move_box_says_why_in_finnish(finnish, live_server):
    """The engine's refusal of a typed move, its reason included, in Finnish on a Finnish page
    (the server sends it as a message beside its English); an English page keeps the English."""
    page, base = finnish, live_server.url
    mid = post_json(f"{base}/api/matches", {"game": "fibonacci", "seats": ["human", "human"]})["id"]
    page.goto(f"{base}/#/match/{mid}")
    page.wait_for_selector("#move-input")
    page.fill("#move-input", "d1-c1")  # Red to move; d1 holds a Green support
    page.press("#move-input", "Enter")
    page.wait_for_selector("#error:not([hidden])")
    assert page.locator("#error").inner_text() == ("'d1-c1' ei ole sallittu tässä asemassa: ruudussa d1 on vihreän "
                                                   "tukinappula: siirrät vain omia hyökkääjiäsi ja tukinappuloitasi")
    page.fill("#move-input", "zz")
    page.press("#move-input", "Enter")
    page.wait_for_function("() => document.querySelector('#error').textContent.startsWith(\"'zz'\")")
    assert page.locator("#error").inner_text() == "'zz' ei ole Fibonaccin merkintää (e8-f9, pass, S@e5)"
    page.click("header [data-lang='en']")
    page.fill("#move-input", "d1-c1")
    page.press("#move-input", "Enter")
    page.wait_for_function("() => document.querySelector('#error').textContent.startsWith(\"'d1-c1'\")")
    assert page.locator("#error").inner_text() == ("'d1-c1' is not legal here: d1 holds a Green support: "
                                                   "you move your own attackers and supports")
