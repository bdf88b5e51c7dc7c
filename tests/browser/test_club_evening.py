"""Papercuts a club evening found: what Your games says of a game friends play at a distance and
of a game watched."""

from __future__ import annotations

import json

from httputil import TOKENS, post_json


def _context_holding(browser, seats: dict[str, list[int]], locale: str = "en-US"):
    """A browser context whose localStorage holds the tokens of these seats of these matches only
    (the seats one person took), as the shell keeps them."""
    context = browser.new_context_without_tokens(viewport={"width": 390, "height": 844}, locale=locale,
                                                 is_mobile=True, has_touch=True)
    tokens = {mid: {str(s): TOKENS[mid][s] for s in held} for mid, held in seats.items()}
    context.add_init_script(f"localStorage.setItem('abstracta.tokens', {json.dumps(json.dumps(tokens))})")
    return context


def _delete_asks(page, mid: str) -> str:
    """The question Delete asks of the row of ``mid`` (answered No: nothing is deleted)."""
    asked = []

    def answer(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", answer)
    page.locator(f"#match-list tr[data-id='{mid}'] button.delete").click()
    page.wait_for_function("() => true")
    assert len(asked) == 1
    return asked[0]


def test_a_game_a_friend_plays_offers_no_delete_and_an_open_invitation_says_it_stops(browser, live_server):
    # Delete removed a game a friend played from the server: the friend's open page said "This
    # game no longer exists" and their Your games lost it. A game someone else is in is theirs
    # too: no Delete (the server refuses it); one whose invitation nobody claimed yet may go, and
    # the question says the invitation stops working
    url = live_server.url
    fanorona = {"game": "fanorona", "options": {"size": "telo"}}
    apart = post_json(f"{url}/api/matches", {**fanorona, "seats": ["human", "human"], "take": [0]})
    waiting = post_json(f"{url}/api/matches", {**fanorona, "seats": ["human", "human"], "take": [0]})
    alone = post_json(f"{url}/api/matches", {**fanorona, "seats": ["human", "level:1"]})
    together = post_json(f"{url}/api/matches", {**fanorona, "seats": ["human", "human"]})
    # the friend took seat 1 (their token is not in this browser)
    TOKENS[apart["id"]][1] = post_json(f"{url}/api/invites/claim", {"code": apart["invites"][0]["code"]})["tokens"][0]["token"]
    seats = {apart["id"]: [0], waiting["id"]: [0], alone["id"]: [0], together["id"]: [0, 1]}
    for locale, invited, plain in (
            ("en-US", "Delete this game of Fanorona? Its invitation stops working, and anyone watching loses the game too.",
             "Delete this game of Fanorona?"),
            ("fi-FI", "Poistetaanko tämä peli (Fanorona)? Sen kutsu lakkaa toimimasta, ja peli katoaa myös katsojilta.",
             "Poistetaanko tämä peli (Fanorona)?")):
        context = _context_holding(browser, seats, locale)
        try:
            page = context.new_page()
            page.goto(f"{url}/#/matches")
            page.locator(f"#match-list tr[data-id='{apart['id']}']").wait_for()
            assert page.locator(f"#match-list tr[data-id='{apart['id']}'] button.delete").count() == 0
            assert _delete_asks(page, waiting["id"]) == invited
            # against the computer and pass and play nobody else holds a seat
            assert _delete_asks(page, alone["id"]) == plain
            assert _delete_asks(page, together["id"]) == plain
            assert page.locator("#match-list tbody tr").count() == 4  # answered No: all kept
        finally:
            context.close()


def test_a_watched_game_counts_its_moves_as_the_players_list_does(browser, live_server):
    # the same game read "2 turns (3 actions)" in its players' list and "3" under Watched games
    url = live_server.url
    view = post_json(f"{url}/api/matches", {"game": "fanorona", "options": {"size": "dimy"},
                                            "seats": ["human", "human"]})
    mid = view["id"]
    post_json(f"{url}/api/matches/{mid}/actions", {"action": "d2-c3A", "ply": 0})
    # Black's capture chain, one turn of two actions
    after = post_json(f"{url}/api/matches/{mid}/actions", {"actions": ["a4-a5W", "a5-b4A"], "ply": 1})
    assert (after["ply"], after["turns_played"]) == (3, 2)
    for locale, words in (("en-US", "2 turns (3 actions)"), ("fi-FI", "2 vuoroa (3 siirtoa)")):
        context = browser.new_context_without_tokens(viewport={"width": 1280, "height": 800}, locale=locale)
        try:
            page = context.new_page()
            page.goto(f"{url}/#/match/{mid}")
            page.wait_for_function(f"() => window.abstractaView && window.abstractaView.id === '{mid}'")
            page.goto(f"{url}/#/matches")
            row = page.locator(f"#watched-list tr[data-id='{mid}']")
            row.wait_for()
            assert row.locator("td").nth(4).inner_text() == words
        finally:
            context.close()
    players = _context_holding(browser, {mid: [0, 1]})
    try:
        page = players.new_page()
        page.goto(f"{url}/#/matches")
        row = page.locator(f"#match-list tr[data-id='{mid}']")
        row.wait_for()
        assert row.locator("td").nth(5).inner_text() == "2 turns (3 actions)"
    finally:
        players.close()


#: the width the move box's placeholder needs and the width it has (its content box)
PLACEHOLDER_FITS = """() => {
  const box = document.getElementById('move-input'), css = getComputedStyle(box);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = css.font;
  const room = box.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
  return [box.placeholder, Math.ceil(ctx.measureText(box.placeholder).width), Math.floor(room)];
}"""


def test_the_move_boxs_example_move_is_not_cut_off(browser, live_server):
    # at 1280 px the Finnish "kirjoita siirto, esim. d2-c3A" showed "…esim. d2": the example, the
    # part that teaches the notation, was the part cut off
    view = post_json(f"{live_server.url}/api/matches", {"game": "fanorona", "options": {"size": "dimy"},
                                                        "seats": ["human", "human"]})
    for locale in ("en-US", "fi-FI"):
        for width in (1280, 390):
            context = browser.new_context(viewport={"width": width, "height": 900}, locale=locale,
                                          is_mobile=width < 500, has_touch=width < 500)
            try:
                page = context.new_page()
                page.goto(f"{live_server.url}/#/match/{view['id']}")
                page.wait_for_selector("#board svg")
                text, needs, has = page.evaluate(PLACEHOLDER_FITS)
                assert text.endswith(view["legal"][0])
                assert needs <= has, f"{locale} at {width} px: {text!r} needs {needs} px, has {has}"
            finally:
                context.close()


def test_the_friend_who_took_a_seat_reopens_the_invitation_and_is_sent_to_the_game(browser, live_server):
    # a friend back from the chat where the link was sent read "This invitation to play Black was
    # used already. Ask the player who sent it for a new link." about the seat they hold here
    url = live_server.url
    view = post_json(f"{url}/api/matches", {"game": "fanorona", "options": {"size": "dimy"},
                                            "seats": ["human", "human"], "take": [0]})
    link = f"{url}/{view['invites'][0]['path'].lstrip('/')}"
    for locale, said, button in (("en-US", "You took this seat (Black) with this link: play on.", "Play on"),
                                 ("fi-FI", "Otit tämän paikan (Musta) tällä linkillä: jatka peliä.", "Jatka peliä")):
        friend = browser.new_context_without_tokens(viewport={"width": 390, "height": 844}, locale=locale,
                                                    is_mobile=True, has_touch=True)
        stranger = browser.new_context_without_tokens(viewport={"width": 390, "height": 844}, locale=locale,
                                                      is_mobile=True, has_touch=True)
        try:
            page = friend.new_page()
            if locale == "en-US":  # the seat is taken once, in English; the Finnish friend holds its token
                page.goto(link)
                page.click("#take-seat")
                page.wait_for_url(f"**/#/match/{view['id']}")
                token = page.evaluate("localStorage.getItem('abstracta.tokens')")
            else:
                friend.add_init_script(f"localStorage.setItem('abstracta.tokens', {json.dumps(token)})")
            page.goto(link)
            page.locator("#join-seats").wait_for()
            assert page.locator("#join-mine").inner_text() == said
            assert page.locator("#join-error").count() == 0
            go = page.locator("#play-on")
            assert go.inner_text() == button and go.get_attribute("href") == f"#/match/{view['id']}"
            assert page.locator("#join-seats li.invited").inner_text().endswith(
                "you (this browser)" if locale == "en-US" else "sinä (tämä selain)")
            # anyone else who opens it is still told it was used
            other = stranger.new_page()
            other.goto(link)
            other.locator("#join-error").wait_for()
            assert other.locator("#play-on").count() == 0
            assert other.locator("#join-error").inner_text() == (
                "This invitation to play Black was used already. Ask the player who sent it for a new link."
                if locale == "en-US" else "Tämä kutsu (paikka: Musta) on jo käytetty. Pyydä lähettäjältä uusi linkki.")
        finally:
            friend.close()
            stranger.close()
