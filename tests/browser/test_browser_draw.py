"""A draw offered in one browser and answered in another (README "Draw offers"), in English and
Finnish, at 1280 and 390 px; none is offered against the computer."""

from __future__ import annotations

import urllib.request

from httputil import get_json, no_sideways_scroll, post_json, seat_page, text_is


def test_a_draw_offered_in_one_browser_is_answered_in_the_other(browser, live_server, shots):
    view = post_json(f"{live_server.url}/api/matches",
                     {"game": "fanorona", "options": {"size": "telo"}, "seats": ["human", "human"], "take": [0]})
    mid = view["id"]
    joined = post_json(f"{live_server.url}/api/invites/claim", {"code": view["invites"][0]["code"]})
    contexts, pages = [], []
    try:
        # White reads English, Black Finnish
        for seat, token, locale in ((0, view["tokens"][0]["token"], "en-GB"), (1, joined["tokens"][0]["token"], "fi-FI")):
            context, page = seat_page(browser, live_server.url, mid, {seat: token}, locale=locale)
            contexts.append(context)
            pages.append(page)
        a, b = pages
        offer = a.locator("#offer-draw")
        assert offer.inner_text() == "Offer draw" and b.locator("#offer-draw").inner_text() == "Tarjoa tasapeliä"
        # it asks first, as Resign does: dismissed, nothing is offered
        asked = []
        a.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        offer.click()
        a.wait_for_timeout(300)
        assert asked == ["Offer a draw?"] and get_json(f"{live_server.url}/api/matches/{mid}")["draw_offer"] is None

        a.once("dialog", lambda d: d.accept())
        offer.click()
        b.wait_for_selector("#drawoffer-accept")
        assert b.locator("#drawoffer-text").inner_text().endswith("tarjoaa tasapeliä")
        assert b.locator("#drawoffer-accept").inner_text() == "Hyväksy tasapeli"
        text_is(a, "drawoffer-text", "You offered a draw — waiting for Black…")
        assert a.locator("#offer-draw").is_disabled() and a.locator("#drawoffer-withdraw").is_visible()
        # declined: the offerer is told, and waits three turns of its own to offer again
        b.click("#drawoffer-decline")
        text_is(a, "drawoffer-text", "Black declined your draw offer. You may offer a draw again after 3 more turns of yours.")
        assert a.locator("#offer-draw").is_disabled()
        assert a.locator("#offer-draw").get_attribute("title") == "You may offer a draw again after 3 more turns of yours."
        assert get_json(f"{live_server.url}/api/matches/{mid}")["status"] == "playing"

        # Black offers; White answers on a phone
        b.once("dialog", lambda d: d.accept())
        b.click("#offer-draw")
        a.set_viewport_size({"width": 390, "height": 844})
        a.wait_for_selector("#drawoffer-accept")
        assert a.locator("#drawoffer-text").inner_text() == "Black offers a draw"
        assert no_sideways_scroll(a)
        box = a.locator("#drawoffer-accept").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        a.screenshot(path=str(shots / "distance-draw-offer-390.png"), full_page=True)
        b.screenshot(path=str(shots / "distance-draw-offer-fi-1280.png"), full_page=True)
        a.click("#drawoffer-accept")
        for page in pages:
            page.wait_for_function("() => window.abstractaView.status === 'over'")
            assert page.locator("#drawoffer").is_hidden() and page.locator("#offer-draw").count() == 0
        text_is(a, "result", "Drawn by agreement")
        text_is(b, "result", "Tasapeli sopimuksesta")
        a.screenshot(path=str(shots / "distance-draw-agreed-390.png"), full_page=True)
        stored = get_json(f"{live_server.url}/api/matches/{mid}")
        assert stored["result"] == [0.0, 0.0] and stored["termination"] == "agreement"
        assert get_json(f"{live_server.url}/api/matches/{mid}/record")["tags"]["DrawOffered"] == "1"
    finally:
        for context in contexts:
            context.close()


def test_no_draw_is_offered_to_the_computer(page, live_server):
    view = post_json(f"{live_server.url}/api/matches",
                     {"game": "fanorona", "options": {"size": "telo"}, "seats": ["human", "level:1"]})
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_selector("#resign")
    assert page.locator("#offer-draw").count() == 0


def test_the_declined_note_names_who_declined_and_a_withdrawal_elsewhere_is_no_decline(browser, live_server):
    # three players: Blue declines Green's offer while Red had not answered — Blue declined it,
    # not "Blue and Red"; Red's offer withdrawn from Red's other tab was declined by nobody
    record = {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "options": {"players": 3},
              "players": ["human", "human", "human"], "start": "Ga1,Bl12,Rf6 M G", "moves": []}
    view = post_json(f"{live_server.url}/api/matches/import", {"record": record})
    mid, url = view["id"], live_server.url
    tokens = {t["seat"]: t["token"] for t in view["tokens"]}  # the helper takes every seat
    contexts, pages = [], []
    try:
        for seat in (0, 2, 2):  # Green; Red in two tabs
            context, page = seat_page(browser, url, mid, {seat: tokens[seat]}, 1100, "en-GB", accept_dialogs=True)
            contexts.append(context)
            pages.append(page)
        green, red, red2 = pages
        green.click("#offer-draw")
        text_is(green, "drawoffer-text", "You offered a draw — waiting for Blue and Red…")
        # Blue alone answers (the helpers would send every seat's token)
        req = urllib.request.Request(f"{url}/api/matches/{mid}/draw/answer", data=b'{"accept": false}', method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {tokens[1]}"})
        urllib.request.urlopen(req).close()
        text_is(green, "drawoffer-text",
                "Blue declined your draw offer. You may offer a draw again after 3 more turns of yours.")
        assert green.locator("#offer-draw").is_disabled()
        # Red's tabs were not asked about their own offer: no note for them
        red.wait_for_function("() => window.abstractaView.draw_offer === null")
        assert red.locator("#drawoffer").is_hidden() and not red.locator("#offer-draw").is_disabled()

        red.click("#offer-draw")
        red2.wait_for_selector("#drawoffer-withdraw")
        text_is(green, "drawoffer-text", "Red offers a draw")
        red2.click("#drawoffer-withdraw")
        for page in (red, red2, green):
            page.wait_for_function("() => window.abstractaView.draw_offer === null")
        red.wait_for_timeout(300)
        assert red.locator("#drawoffer").is_hidden() and red2.locator("#drawoffer").is_hidden()
        assert red.locator("#offer-draw").get_attribute("title") == \
            "You may offer a draw again after 3 more turns of yours."
        assert get_json(f"{url}/api/matches/{mid}")["draw_offer_ended"] == \
            {"by": 2, "how": "withdrawn", "seat": 2, "at_ply": 0, "accepted": []}
    finally:
        for context in contexts:
            context.close()


def test_a_game_whose_rules_have_no_draws_shows_no_draw_button(browser, live_server, shots):
    # nibble.md §5 "there are no draws": between two people Nibble's page has Resign and no
    # Offer draw, Fanorona's has both (the server's draw_offerable says which)
    contexts = []
    try:
        for game, options, offered in (("nibble", {"seed": 1}, False), ("fanorona", {"size": "telo"}, True)):
            view = post_json(f"{live_server.url}/api/matches",
                             {"game": game, "options": options, "seats": ["human", "human"], "take": [0]})
            post_json(f"{live_server.url}/api/invites/claim", {"code": view["invites"][0]["code"]})  # both seats taken
            for width in (1280, 390):
                context, page = seat_page(browser, live_server.url, view["id"], {0: view["tokens"][0]["token"]},
                                          width=width)
                contexts.append(context)
                page.wait_for_selector("#resign")
                assert page.locator("#resign").is_enabled()
                assert page.locator("#offer-draw").count() == (1 if offered else 0), (game, width)
                if offered:
                    assert page.locator("#offer-draw").inner_text() == "Offer draw"
                assert page.evaluate("() => window.abstractaView.draw_offerable") is offered
                page.screenshot(path=str(shots / f"no-draw-{game}-{width}.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()
