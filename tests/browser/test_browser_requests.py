"""Draw offers and takeback requests among three players (README "Draw offers", "Undo and
takebacks"): a seat that accepted is told whom it still waits for, one still to answer who
accepted; a decline is told to every seat that had accepted; a takeback that happened is said
to every seat and spectator until the next move; on a phone the answer's buttons share a line."""

from __future__ import annotations

import json
import urllib.request

from httputil import get_json, seat_page, text_is


def send(url: str, token: str, body) -> None:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    urllib.request.urlopen(req).close()


def test_three_players_are_told_who_accepted_who_declined_and_a_takeback_done(browser, live_server):
    record = {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "options": {"players": 3},
              "players": ["human", "human", "human"], "start": "Ga1,Bl12,Rf6 M G", "moves": []}
    url = live_server.url
    req = urllib.request.Request(f"{url}/api/matches/import", data=json.dumps({"record": record, "take": "all"}).encode(),
                                 method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        view = json.load(r)
    mid = view["id"]
    tokens = {t["seat"]: t["token"] for t in view["tokens"]}
    contexts, pages = [], []
    try:
        # Green and Blue read English, Red Finnish on a phone, a spectator English
        for seat, locale, width in ((0, "en-GB", 1100), (1, "en-GB", 1100), (2, "fi-FI", 390), (None, "en-GB", 1100)):
            context, page = seat_page(browser, url, mid, {} if seat is None else {seat: tokens[seat]}, width, locale,
                                      accept_dialogs=True)
            contexts.append(context)
            pages.append(page)
        green, blue, red, watcher = pages

        blue.click("#offer-draw")
        text_is(green, "drawoffer-text", "Blue offers a draw")
        green.click("#drawoffer-accept")
        # Green is told it accepted and whom it waits for, not "waiting for the answer"
        text_is(green, "drawoffer-text", "You accepted the draw Blue offered — waiting for Red…")
        text_is(red, "drawoffer-text", "Sininen tarjoaa tasapeliä; hyväksyneet: Vihreä")
        text_is(blue, "drawoffer-text", "You offered a draw — waiting for Red…")
        text_is(watcher, "drawoffer-text", "Blue offers a draw; Green accepted, waiting for Red.")
        # on a phone Accept and Decline share one line, each a finger's target
        acc, dec = (red.locator(f"#drawoffer-{b}").bounding_box() for b in ("accept", "decline"))
        assert acc and dec and abs(acc["y"] - dec["y"]) < 1, (acc, dec)
        assert min(acc["height"], dec["height"]) >= 44 and dec["x"] + dec["width"] <= 390
        red.click("#drawoffer-decline")
        text_is(blue, "drawoffer-text",
                "Red declined your draw offer. You may offer a draw again after 3 more turns of yours.")
        text_is(green, "drawoffer-text", "Red declined the draw Blue offered.")
        assert red.locator("#drawoffer").is_hidden()

        for ply, (seat, move) in enumerate([(0, "a1-a2"), (1, "l12-k12"), (2, "f6-f7")]):
            send(f"{url}/api/matches/{mid}/actions", tokens[seat], {"action": move, "ply": ply})
        red.wait_for_function("() => window.abstractaView.ply === 3")
        red.click("#undo")
        green.click("#takeback-accept")
        text_is(green, "takeback-text", "You accepted the takeback Red asked for — waiting for Blue…")
        text_is(blue, "takeback-text", "Red asks to take back their last turn; Green accepted")
        blue.click("#takeback-accept")
        # the move that vanishes from the list is said, to every seat and the spectator
        for page in (green, blue, watcher):
            text_is(page, "takeback-text", "Red's takeback was accepted: their last turn is taken back.")
        text_is(red, "takeback-text", "Perumispyyntösi hyväksyttiin: viime vuorosi on peruttu.")
        assert get_json(f"{url}/api/matches/{mid}")["ply"] == 2
        send(f"{url}/api/matches/{mid}/actions", tokens[2], {"action": "f6-f7", "ply": 2})
        for page in pages:  # said until the next move
            page.wait_for_function("() => window.abstractaView.ply === 3")
            assert page.locator("#takeback").is_hidden()
    finally:
        for context in contexts:
            context.close()
