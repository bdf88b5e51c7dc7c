"""People in a real browser (issue 41): sign up, recovery codes, sign out and in, the header's
menu, a profile with its rating graph, a leaderboard, and the cookie's defences against pages
of other origins (two origins on this machine: ``localhost`` is another site than
``127.0.0.1``; ``127.0.0.1`` on another port is the same site, whose requests carry the
``SameSite=Lax`` cookie, and which the Origin check refuses)."""

from __future__ import annotations

import http.server
import itertools
import threading
import uuid

import pytest

from httputil import get_json, no_sideways_scroll

from abstracta import load_game
from abstracta.people.credentials import digest

PW = "correct horse"
_names = itertools.count()


def fresh(prefix: str) -> str:
    return f"{prefix}{next(_names)}{uuid.uuid4().hex[:4]}"


def sign_up_in_page(page, url: str, name: str) -> list[str]:
    page.goto(url + "/#/signup")
    page.fill("#signup-username", name)
    page.fill("#signup-password", PW)
    page.click("#signup-submit")
    page.wait_for_selector("#recovery-codes li")
    return [c.strip() for c in page.locator("#recovery-codes code").all_text_contents()]


def test_sign_up_codes_sign_out_and_in_on_a_phone(browser, live_server):
    context = browser.new_context_without_tokens(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    name = fresh("anna")
    page.goto(live_server.url + "/#/")
    page.wait_for_selector("#me-signin")
    page.click("#me-signin")
    page.wait_for_selector("#signin")
    page.click("a[href='#/signup']")
    page.fill("#signup-username", name)
    page.fill("#signup-password", "short")
    page.click("#signup-submit")
    page.wait_for_selector("#signup-error:not([hidden])")
    assert "8" in page.text_content("#signup-error")
    page.fill("#signup-password", PW)
    page.click("#signup-submit")
    page.wait_for_selector("#recovery-codes li")
    codes = page.locator("#recovery-codes code").all_text_contents()
    assert len(codes) == 8
    # the server keeps them hashed: the page shows what only this answer carried
    people = live_server.app.state.people
    with people.db.engine.connect() as c:
        from sqlalchemy import text

        stored = {r[0] for r in c.execute(text("SELECT code_hash FROM recovery_codes"))}
        hashes = {r[0] for r in c.execute(text("SELECT password_hash FROM people WHERE name = :n"), {"n": name})}
    assert {digest(code) for code in codes} <= stored
    assert len(hashes) == 1 and next(iter(hashes)).startswith("$argon2id$")
    assert no_sideways_scroll(page)
    # the cookie is HttpOnly: the page's script cannot read it
    assert page.evaluate("document.cookie") == ""
    cookie = next(c for c in context.cookies() if c["name"] == "abstracta")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax" and not cookie["secure"]
    # on to the page the sign-up began from (the home page here), not the account's settings
    page.click("#codes-done")
    page.wait_for_function("() => location.hash === '#/' && document.querySelector('#continue-list, .cards')")
    page.goto(live_server.url + "/#/account")
    page.wait_for_selector("#session-list li")
    assert page.text_content("#me-button").startswith(name)
    assert no_sideways_scroll(page)
    # the menu: opened by its button, closed by Escape, and signs out
    page.click("#me-button")
    assert page.get_attribute("#me-button", "aria-expanded") == "true"
    page.keyboard.press("Escape")
    assert page.get_attribute("#me-button", "aria-expanded") == "false"
    page.click("#me-button")
    page.click("#sign-out")
    page.wait_for_selector("#me-signin")
    # signing in returns to the page the reader was on
    page.goto(live_server.url + "/#/leaderboards")
    page.wait_for_selector("ul.pools")
    page.click("#me-signin")
    page.fill("#signin-username", name.upper())
    page.fill("#signin-password", "wrong horse")
    page.click("#signin-submit")
    page.wait_for_selector("#signin-error:not([hidden])")
    assert page.text_content("#signin-error") == "wrong username or password"
    page.fill("#signin-password", PW)
    page.click("#signin-submit")
    page.wait_for_function("() => location.hash === '#/leaderboards'")
    page.wait_for_selector("#me-button")
    context.close()


def test_a_recovery_code_signs_in_with_a_new_password(browser, live_server):
    context = browser.new_context_without_tokens(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    name = fresh("lost")
    codes = sign_up_in_page(page, live_server.url, name)
    other = browser.new_context_without_tokens(viewport={"width": 1100, "height": 900}).new_page()
    other.goto(live_server.url + "/#/recover")
    other.fill("#recover-username", name)
    other.fill("#recover-code", codes[2].upper())
    other.fill("#recover-password", "a new password")
    other.click("#recover-submit")
    other.wait_for_selector("#session-list li")
    assert other.text_content("#codes-left") == "7 recovery codes left."
    other.context.close()
    context.close()


def test_profile_graph_and_leaderboard_in_finnish(browser, live_server):
    people = live_server.app.state.people
    a, b = fresh("aino"), fresh("bertta")
    ids = [people.accounts.add(n, PW)[0].id for n in (a, b)]
    game = load_game("nibble", variant="square13")
    for i in range(12):
        people.standings.record_game(f"{a}-{i}", game, {"initial": 600, "increment": 5},
                                     [1, -1] if i % 3 else [-1, 1], {0: ids[0], 1: ids[1]}, rated=True)
    context = browser.new_context_without_tokens(viewport={"width": 390, "height": 844}, locale="fi-FI")
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(live_server.url + f"/#/players/{a}")
    page.wait_for_selector("#ratings-table")
    row = page.locator("#ratings-table tbody tr").first
    assert row.get_attribute("data-pool") == "nibble.square13.rapid"
    assert "Neliö 13×13" in row.inner_text() and "Pikapeli" in row.inner_text()
    label = page.get_attribute("#rating-graph svg", "aria-label")
    assert label.startswith("Vahvuusluvun historia") and "12 pisteytettyä peliä" in label
    assert page.locator("#rating-graph circle").count() == 12
    assert page.locator("#recent-games li").count() == 12
    assert no_sideways_scroll(page)
    page.goto(live_server.url + "/#/leaderboards/nibble.square13.rapid")
    page.wait_for_selector("#leaderboard")
    names = page.locator("#leaderboard tbody td:nth-child(2)").all_text_contents()
    assert names == [a, b]
    page.wait_for_selector("#level-ratings li")
    assert page.locator("#level-ratings li").first.text_content() == "Taso 1 ≈ 800"
    assert no_sideways_scroll(page)
    page.goto(live_server.url + "/#/players/nobody-here")
    page.wait_for_selector("#not-found")
    assert "nobody-here" in page.text_content("#not-found")
    context.close()


class _Attacker(http.server.BaseHTTPRequestHandler):
    """Another origin's page that tries to act with the visitor's cookie."""

    target = ""

    def do_GET(self):  # noqa: N802 - http.server's name
        body = f"""<!doctype html><meta charset="utf-8"><title>prize</title>
<form id="f" method="post" enctype="text/plain" action="{self.target}/api/me/tokens">
<input name='{{"description": "stolen", "scopes": ["read"], "x": "' value='"}}'></form>
<form id="g" method="post" enctype="text/plain" action="{self.target}/api/session">
<input name='{{"username": "mallory", "password": "mallory pw!", "x": "' value='"}}'></form>
<script>
window.results = {{}};
const t = "{self.target}";
async function go() {{
  for (const [name, init] of [
    ["json", {{ method: "POST", credentials: "include", headers: {{ "Content-Type": "application/json" }},
               body: JSON.stringify({{ description: "stolen", scopes: ["read"] }}) }}],
    ["plain", {{ method: "POST", credentials: "include", mode: "no-cors", headers: {{ "Content-Type": "text/plain" }},
                body: JSON.stringify({{ description: "stolen", scopes: ["read"] }}) }}],
    ["delete", {{ method: "DELETE", credentials: "include", mode: "no-cors" }}],
  ]) {{
    try {{
      const r = await fetch(t + (name === "delete" ? "/api/session" : "/api/me/tokens"), init);
      window.results[name] = r.type === "opaque" ? "opaque" : r.status;
    }} catch (e) {{ window.results[name] = "blocked"; }}
  }}
  try {{ const r = await fetch(t + "/api/me", {{ credentials: "include" }}); window.results.read = await r.text(); }}
  catch (e) {{ window.results.read = "blocked"; }}
  window.done = true;
}}
go();
</script>"""
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.mark.parametrize("attacker_host", ["localhost", "127.0.0.1"])
def test_a_page_of_another_origin_cannot_act_with_the_cookie(browser, live_server, attacker_host):
    name = fresh("victim")
    context = browser.new_context_without_tokens(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    sign_up_in_page(page, live_server.url, name)
    people = live_server.app.state.people
    me = people.accounts._account(name)
    sessions_before = len(people.sessions.sessions_of(_principal(people, me)))

    handler = type("Attacker", (_Attacker,), {"target": live_server.url})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        statuses = {}
        page.on("response", lambda r: statuses.setdefault(f"{r.request.method} {r.url.split(live_server.url)[-1]}", r.status)
                if r.url.startswith(live_server.url + "/api/") else None)
        evil = f"http://{attacker_host}:{server.server_address[1]}/"
        page.goto(evil)
        page.wait_for_function("() => window.done === true")
        results = page.evaluate("window.results")
        # JSON across origins needs a preflight the server never grants; the reply is unreadable
        assert results["json"] == "blocked" and results["read"] == "blocked"
        # a DELETE (sign-out) needs a preflight too; a text/plain POST goes out, unreadable
        assert results["delete"] == "blocked" and "DELETE /api/session" not in statuses
        assert results["plain"] == "opaque"
        if attacker_host == "127.0.0.1":
            # the same site on another port: the cookie rides along, and the Origin check refuses
            assert statuses.get("POST /api/me/tokens") == 403
        # a form post (text/plain, body shaped as JSON), the way a page without scripts would try
        page.goto(evil)
        page.wait_for_function("() => window.done === true")
        with page.expect_navigation():
            page.evaluate("document.getElementById('f').submit()")
        assert page.locator("body").inner_text().startswith("{")
        assert "stolen" not in page.content()
        page.goto(evil)
        page.wait_for_function("() => window.done === true")
        with page.expect_navigation():
            page.evaluate("document.getElementById('g').submit()")
    finally:
        server.shutdown()
        thread.join(timeout=5)
    # nothing was done: no token, the session alive and still the victim's
    principal = _principal(people, me)
    assert people.sessions.tokens_of(principal) == []
    assert len(people.sessions.sessions_of(principal)) == sessions_before
    page.goto(live_server.url + "/#/account")
    page.wait_for_selector("#session-list li")
    assert page.text_content("#me-button").startswith(name)
    context.close()


def _principal(people, row):
    from abstracta.people.database import person_of
    from abstracta.people.values import Principal

    return Principal(person_of(row), session_id="-")


def test_the_people_pages_have_no_serious_accessibility_violation(browser, live_server):
    from test_accessibility import report, severe_violations

    people = live_server.app.state.people
    a, b = fresh("axe"), fresh("axb")
    ids = [people.accounts.add(n, PW)[0].id for n in (a, b)]
    people.standings.record_game(f"{a}-0", load_game("fanorona", size="dimy"), None, [1, -1], {0: ids[0], 1: ids[1]},
                                 rated=True)
    context = browser.new_context_without_tokens(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    found = {}
    for hash_, ready in (("#/signup", "#signup"), ("#/signin", "#signin"), ("#/recover", "#recover"),
                         (f"#/players/{a}", "#ratings-table"), ("#/leaderboards", "ul.pools"),
                         ("#/leaderboards/fanorona.dimy.correspondence", "#level-ratings")):
        page.goto(live_server.url + "/" + hash_)
        page.wait_for_selector(ready)
        found[hash_] = severe_violations(page)
    sign_up_in_page(page, live_server.url, fresh("axc"))
    found["codes"] = severe_violations(page)
    page.click("#codes-done")
    page.wait_for_function("() => !document.querySelector('#codes-done')")
    page.goto(live_server.url + "/#/account")
    page.wait_for_selector("#session-list li")
    page.wait_for_selector("#token-list li")
    found["#/account"] = severe_violations(page)
    page.click("#me-button")
    found["menu"] = severe_violations(page)
    context.close()
    assert not any(found.values()), "\n".join(f"{k}:\n{report(v)}" for k, v in found.items() if v)


def test_a_guest_names_itself_and_keeps_its_person_when_signing_up(browser, live_server):
    context = browser.new_context_without_tokens(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(live_server.url + "/#/account")
    page.click("#play-as-guest")
    page.wait_for_selector("#rename")
    generated = page.text_content("#me-button").replace("▾", "").strip()
    assert generated.startswith("Guest")
    assert page.get_attribute("#me-button", "aria-label") == f"{generated} (guest): menu"
    name = fresh("Kalle")
    page.fill("#rename-name", "x")
    page.click("#rename-submit")
    page.wait_for_selector("#rename-error:not([hidden])")
    page.fill("#rename-name", name)
    page.click("#rename-submit")
    page.wait_for_function("(n) => document.querySelector('#me-button').textContent.startsWith(n)", arg=name)
    people = live_server.app.state.people
    from sqlalchemy import text

    with people.db.engine.connect() as c:
        guest_id = c.execute(text("SELECT id FROM people WHERE name = :n"), {"n": name}).scalar()
    people.standings.take_seat(f"{name}-seat", 0, guest_id)
    page.click("#me-button")
    page.click("#me-menu a[href='#/signup']")
    page.wait_for_selector("#signup")
    assert name in page.text_content("main p.lead")
    page.fill("#signup-username", name)
    page.fill("#signup-password", PW)
    page.click("#signup-submit")
    page.wait_for_selector("#recovery-codes li")
    with people.db.engine.connect() as c:
        kind, pid = c.execute(text("SELECT kind, id FROM people WHERE name = :n"), {"n": name}).one()
    assert (kind, pid) == ("account", guest_id)
    assert people.standings.seats_of(guest_id) == {f"{name}-seat": {0}}
    assert no_sideways_scroll(page)
    context.close()


def test_the_leaderboards_lead_with_the_pools_people_are_rated_in(browser, live_server, shots):
    # some seventy pools (every variant × speed): the ones people are rated in come first, most
    # players first; the rest, empty, stay listed below in a quieter colour
    from datetime import datetime, timezone

    from sqlalchemy import text

    from abstracta.people.tables import RatingRow

    people = live_server.app.state.people
    names = [fresh("rated") for _ in range(2)]
    for n in names:
        people.accounts.add(n, PW)
    with people.db.engine.begin() as c:
        ids = [c.execute(text("SELECT id FROM people WHERE name = :n"), {"n": n}).scalar_one() for n in names]
        now = datetime.now(timezone.utc)
        for pid in ids:
            c.execute(RatingRow.__table__.insert().values(person_id=pid, pool="nibble.square9.blitz", rating=1500.0,
                                                          deviation=200.0, volatility=0.06, games=3, rated_at=now))
    pools = get_json(f"{live_server.url}/api/leaderboards")
    played = sorted((p for p in pools if p["players"]), key=lambda p: -p["players"])
    assert any(p["pool"] == "nibble.square9.blitz" and p["players"] >= 2 for p in played)
    for width in (1280, 390):
        context = browser.new_context_without_tokens(viewport={"width": width, "height": 900})
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/#/leaderboards")
            page.wait_for_selector("#pools-played li")
            links = page.locator("#pools-played li a.pool")
            assert [a.split("/")[-1] for a in links.evaluate_all("(xs) => xs.map((x) => x.getAttribute('href'))")] == \
                [p["pool"] for p in played][:links.count()] and links.count() == len(played)
            row = page.locator("#pools-played li", has=page.locator("a[href='#/leaderboards/nibble.square9.blitz']"))
            n = next(p["players"] for p in played if p["pool"] == "nibble.square9.blitz")
            assert row.inner_text().endswith(f"{n} rated players"), row.inner_text()
            # every pool is still listed below; the empty ones marked so
            assert page.locator("ul.pools a.pool").count() == len(pools) + len(played)
            assert page.locator("ul.pools a.pool.empty").count() == len(pools) - len(played)
            assert no_sideways_scroll(page)
            page.screenshot(path=str(shots / f"leaderboards-{width}.png"), full_page=width > 500)
        finally:
            context.close()
