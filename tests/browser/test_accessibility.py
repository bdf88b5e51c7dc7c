"""Accessibility check of every page (issue 16 §3, §5): axe-core (through axe-playwright-python,
which ships axe-core, so nothing is fetched at run time) finds no "serious" or "critical"
violation on the home page, a rules page, the new-game form, and for every registered game the
page of a game against the computer (at the start and after the computer's answer) and the page
of a finished game."""

from __future__ import annotations

import json
import random

import pytest
from axe_playwright_python.sync_playwright import Axe
from httputil import post_json

import abstracta
from abstracta import Record

GAMES = ["fanorona", "nibble", "fibonacci", "fibonacci-cards", "slide-checkers"]
SEVERE = ("serious", "critical")

#: page -> (axe rule, target selector, reason): a known violation whose fix is in a file this
#: change could not touch. The page's check is xfail(strict=True) and fails only with
#: KnownViolation, so a new violation on the page still fails the test, and the fixed page
#: XPASSes, which fails the test until the mark is removed.
KNOWN: dict[str, tuple[str, str, str]] = {}


class KnownViolation(Exception):
    """Only the page's known violation (KNOWN) is left."""


WAIT_TURN = """() => { const v = window.abstractaView; if (!v) return false;
  const ho = document.getElementById('handover'); if (ho && !ho.hidden) return true;
  return v.status === 'over' || (v.human_to_move && !v.thinking); }"""


def test_games_registered_are_the_ones_checked():
    # every game installed through the entry point is checked (tests register toy games besides)
    from importlib.metadata import entry_points

    installed = {ep.name for ep in entry_points(group="abstracta.games")}
    assert installed == set(GAMES) and set(GAMES) <= set(abstracta.registered_games())


def severe_violations(page) -> list[dict]:
    results = Axe().run(page)
    return [v for v in results.response["violations"] if v.get("impact") in SEVERE]


def report(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({v['helpUrl']})")
        for node in v["nodes"][:8]:
            lines.append(f"    {json.dumps(node['target'])}: {node.get('failureSummary', '').strip()}")
            lines.append(f"      {node['html'][:200]}")
        if len(v["nodes"]) > 8:
            lines.append(f"    … and {len(v['nodes']) - 8} more")
    return "\n".join(lines)


def known(where: str, violation: dict) -> bool:
    if where not in KNOWN:
        return False
    rule, target, _ = KNOWN[where]
    return violation["id"] == rule and all(n["target"] == [target] for n in violation["nodes"])


def check(page, where: str, errors: list[str]) -> None:
    found = severe_violations(page)
    assert not errors, errors
    new = [v for v in found if not known(where, v)]
    assert not new, f"axe found serious or critical violations on {where}:\n" + report(new)
    if found:
        raise KnownViolation(report(found))


def params(pages):
    return [pytest.param(p, marks=pytest.mark.xfail(strict=True, raises=KnownViolation, reason=KNOWN[p][2]))
            if p in KNOWN else p for p in pages]


def watch(page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


@pytest.mark.parametrize("where", params(["home", "rules", "new-game", "lesson"]))
def test_shell_pages(page, live_server, where):
    errors = watch(page)
    route = {"home": "#/", "rules": "#/rules/fanorona", "new-game": "#/new/fanorona",
             "lesson": "#/lesson/slide-checkers/2"}[where]
    page.goto(f"{live_server.url}/{route}")
    selector = {"home": "[data-game=fanorona]", "rules": ".rules figure.diagram svg", "new-game": "#start",
                "lesson": "#lesson-task"}[where]
    page.wait_for_selector(selector)
    page.wait_for_load_state("networkidle")
    check(page, where, errors)


@pytest.mark.parametrize("game", params(GAMES))
def test_game_page_against_the_computer(page, live_server, game):
    errors = watch(page)
    view = post_json(f"{live_server.url}/api/matches", {"game": game, "options": {}, "seats": ["human", "level:1"]})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function(WAIT_TURN, timeout=60000)
    if page.locator("#handover-ok").is_visible():
        page.click("#handover-ok")
    page.wait_for_selector("#board svg, #board .hand, #board *")
    check(page, game, errors)
    # again once a move is made and the computer has answered (the last turn marked, the move
    # list filled): the move typed in the notation box, the first legal one
    # (a turn of several actions — Nibble's discs of one colour, a Fanorona chain — typed on)
    for _ in range(20):
        view = page.evaluate("window.abstractaView")
        if view["status"] == "over" or 1 in (view["movers"] or []):
            break
        page.fill("#move-input", view["legal"][0])
        page.press("#move-input", "Enter")
        page.wait_for_function("p => window.abstractaView.ply > p", arg=view["ply"], timeout=20000)
        page.wait_for_function(WAIT_TURN, timeout=60000)
        if page.locator("#handover-ok").is_visible():
            page.click("#handover-ok")
    assert view["status"] == "over" or 1 in view["movers"], "the computer did not answer"
    check(page, game, errors)


def finished_record(name: str, seed: int = 5) -> dict:
    """A whole game of random moves, as a record of two (or more) people."""
    options = {"seed": seed} if any(o.name == "seed" for o in abstracta.game_class(name).option_specs) else {}
    for attempt in range(20):
        game = abstracta.load_game(name, **options)
        initial = game.new_initial_state()
        state = initial.clone()
        rng = random.Random(seed * 100 + attempt)
        actions = []
        while not state.is_terminal() and len(actions) < 4000:
            a = rng.choice(state.legal_actions())
            state.apply_action(a)
            actions.append(a)
        if state.is_terminal():
            record = Record.from_play(game, initial, actions, players=["human"] * game.num_players)
            return json.loads(record.to_json(indent=None))
    raise AssertionError(f"{name}: no finished random game")


@pytest.mark.parametrize("game", params(GAMES))
def test_finished_game_page(page, live_server, game):
    """The page of a game that is over: the result banner, the whole move list, the board as it
    ended (and, in the card game, every hand shown)."""
    errors = watch(page)
    view = post_json(f"{live_server.url}/api/matches/import", {"record": finished_record(game), "seats": None})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.status === 'over'")
    page.locator("#result").wait_for(state="visible")
    check(page, game, errors)
