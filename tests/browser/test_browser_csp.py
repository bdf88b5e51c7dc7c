"""The pages under the server's Content-Security-Policy (issue 14 §4): every page of the shell,
a match of every game with its board module, and the API page run without a single CSP
violation (the console and the ``securitypolicyviolation`` event both stay silent), and the
board modules' own styles still apply."""

from __future__ import annotations

import urllib.request

from httputil import post_json

from abstracta.core.registry import load_game

WAIT_VIEW = "() => { const v = window.abstractaView; return v && !v.thinking; }"
LISTEN = ("window.__csp = []; document.addEventListener('securitypolicyviolation', "
          "e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")

GAMES = ["fanorona", "nibble", "fibonacci", "fibonacci-cards", "slide-checkers"]


def watch(page) -> list[str]:
    """Console messages about the CSP (Chromium logs each refusal there)."""
    seen: list[str] = []
    page.on("console", lambda m: seen.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: seen.append(str(e)))
    page.add_init_script(LISTEN)
    return seen


def test_pages_send_the_policy(live_server):
    with urllib.request.urlopen(f"{live_server.url}/") as r:
        policy = r.headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy
    assert f"ws://127.0.0.1:{live_server.port}" in policy


def test_every_game_page_runs_without_a_csp_violation(page, live_server):
    seen = watch(page)
    for name in GAMES:
        seats = ["human"] * load_game(name).description.num_players
        view = post_json(f"{live_server.url}/api/matches", {"game": name, "seats": seats})
        page.goto(f"{live_server.url}/#/match/{view['id']}")
        page.wait_for_function(WAIT_VIEW)
        page.wait_for_function("() => document.querySelector('#board') && document.querySelector('#board').children.length")
        assert page.evaluate("window.__csp") == [], name
        # the module's CSS is a constructed sheet now (a <style> element would be refused)
        assert page.evaluate("document.adoptedStyleSheets.length") >= 1, name
    for path in ("/#/", "/#/matches", "/#/rules/fanorona", "/api.html"):
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state("networkidle")
        assert page.evaluate("window.__csp") == [], path
    assert seen == []


def test_a_board_module_style_applies_under_the_policy(page, live_server):
    """Nibble's module CSS (``export const css``) still styles its board."""
    seen = watch(page)
    view = post_json(f"{live_server.url}/api/matches", {"game": "nibble", "seats": ["human", "human"]})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function(WAIT_VIEW)
    page.locator("svg.board").first.wait_for(state="visible")
    rules = page.evaluate("[...document.adoptedStyleSheets].flatMap(s => [...s.cssRules].map(r => r.cssText)).join('\\n')")
    assert ".nb-" in rules
    assert seen == []


def test_stepping_through_the_move_list_breaks_no_policy(page, live_server):
    """A move of the move list is a link that steps the replay: it had ``href="javascript:void
    0"``, a javascript: URL the policy refuses, so every click logged a violation (and "open in
    a new tab" gave a blank page)."""
    seen = watch(page)
    record = {"format": "abstracta-record", "version": 1, "game": "fanorona", "options": {},
              "seed": None, "players": [], "moves": ["f2-e3A", "d5-d4A"]}
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record, "seats": ["human", "human"]})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_function(WAIT_VIEW)
    page.locator("ol.moves a[data-ply='1']").click()
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Replay')")
    assert page.locator("ol.moves a.at").get_attribute("data-ply") == "1"
    assert page.evaluate("window.__csp") == []
    assert seen == []
    assert not page.locator("ol.moves a[href^='javascript:']").count()
