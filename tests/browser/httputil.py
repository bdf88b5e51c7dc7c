"""JSON over HTTP for the browser tests (the server runs in a thread, the tests talk to it directly),
and the pages of seats at a distance (a browser of its own per seat, holding its tokens).

Like the shell, these helpers create matches for pass and play (``take: "all"``), keep the seat
tokens of every answer and send a match's tokens with each request about it; :func:`remember`
gives a page the tokens of a match, as the browser that created it would hold them."""

from __future__ import annotations

import json
import re
import urllib.request

#: match id -> {seat: token}, from every answer that handed out tokens
TOKENS: dict[str, dict[int, str]] = {}


def _auth(url: str) -> dict[str, str]:
    m = re.search(r"/api/matches/([0-9a-f]+)", url)
    tokens = list(TOKENS.get(m.group(1), {}).values()) if m else []
    return {"Authorization": "Bearer " + ",".join(tokens)} if tokens else {}


def _keep(data):
    if isinstance(data, dict) and data.get("id") and data.get("tokens"):
        TOKENS.setdefault(data["id"], {}).update({t["seat"]: t["token"] for t in data["tokens"]})
    return data


def get_json(url: str):
    with urllib.request.urlopen(urllib.request.Request(url, headers=_auth(url))) as r:
        return json.load(r)


def post_json(url: str, body):
    if re.search(r"/api/matches(/import)?$", url) and isinstance(body, dict) and "take" not in body:
        body = {**body, "take": "all"}
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", **_auth(url)})
    with urllib.request.urlopen(req) as r:
        return _keep(json.load(r))


def delete_json(url: str) -> int:
    """DELETE ``url`` with the match's tokens; the HTTP status."""
    req = urllib.request.Request(url, method="DELETE", headers=_auth(url))
    with urllib.request.urlopen(req) as r:
        return r.status


def remember(page, view) -> None:
    """Put the tokens of the match ``view`` into the page's localStorage: now, if the page is
    open, and before its scripts run on every later navigation."""
    _give(page, {view["id"]: TOKENS.get(view["id"], {})})


def remember_all(page) -> None:
    """:func:`remember` for every match these helpers created or joined so far."""
    _give(page, dict(TOKENS))


def _give(page, tokens: dict[str, dict[int, str]]) -> None:
    wanted = {mid: {str(seat): t for seat, t in seats.items()} for mid, seats in tokens.items()}
    script = ("(() => { const k = 'abstracta.tokens'; let all = {};"
              " try { all = JSON.parse(localStorage.getItem(k)) || {}; } catch (e) {}"
              f" const add = {json.dumps(wanted)};"
              " for (const [id, seats] of Object.entries(add)) all[id] = Object.assign(all[id] || {}, seats);"
              " localStorage.setItem(k, JSON.stringify(all)); })()")
    page.add_init_script(script)
    if page.url.startswith("http"):  # a page already open there: a hash change does not reload it
        page.evaluate(script)


def give(context, mid: str, tokens: dict[int, str]) -> None:
    """The context's browser holds exactly these tokens of match ``mid``."""
    context.add_init_script(
        f"localStorage.setItem('abstracta.tokens', JSON.stringify({{{json.dumps(mid)}: {json.dumps(tokens)}}}))")


def seat_page(browser, url: str, mid: str, tokens: dict[int, str], width: int = 1280, locale: str | None = None,
              accept_dialogs: bool = False):
    """A browser of its own holding ``tokens`` of match ``mid``, its match page open and drawn:
    (context, page). ``accept_dialogs``: every confirm (Offer draw, Resign) is answered yes."""
    options = {"viewport": {"width": width, "height": 900}}
    if locale:
        options["locale"] = locale
    context = browser.new_context_without_tokens(**options)
    give(context, mid, tokens)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{url}/#/match/{mid}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.viewer !== undefined")
    if accept_dialogs:
        page.on("dialog", lambda d: d.accept())
    return context, page


def text_is(page, node_id: str, text: str) -> None:
    """Wait until the element ``node_id``, in sight (not inside a hidden box), reads exactly
    ``text``; an AssertionError naming what it read otherwise."""
    try:
        page.wait_for_function("([id, text]) => { const n = document.getElementById(id); return n && !n.closest('[hidden]') && n.textContent === text; }",
                               arg=[node_id, text], timeout=8000)
    except Exception:
        node = page.locator(f"#{node_id}")
        raise AssertionError(f"#{node_id}: {node.text_content() if node.count() else None!r} != {text!r}") from None


def no_sideways_scroll(page) -> bool:
    """Whether the page fits its width (nothing to scroll sideways, as on a phone)."""
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def first_moves(url: str, mid: str, seats: int = 2) -> dict:
    """Each of ``seats`` people makes a first move (the first legal action, until each has
    played and seat 0 is to move again), with the tokens these helpers hold: a clock starts
    only after them (issue 42 §4). The view after them."""
    while True:
        state = get_json(f"{url}/api/matches/{mid}")
        if set(range(seats)) <= set(state["movers"]) and state["to_move"] == 0:
            return state
        post_json(f"{url}/api/matches/{mid}/actions", {"action": state["legal"][0], "ply": state["ply"]})
