"""The lobby's challenge form as a tester used it: pressing Challenge said nothing where the eye
was (the challenge was listed only further up, off screen), and a profile's "Challenge to a
game" opened the whole seek form, Post a seek on a phone's screen and Challenge below it. Now a
challenge sent is said under its button, with Withdraw, and followed there until answered; a
refusal is said at the same place; the form opened from a profile is for that challenge alone,
its button in the first screen at 390×844, the seek behind "Post a public seek instead". Rated
and casual read alike in the settings. Screenshots ``challenge-form-*.png``."""

from __future__ import annotations

from test_browser_lobby import closing, name_of, person
from test_browser_names import signed_in
from test_browser_people import PW, fresh


def on_screen(page, selector: str) -> bool:
    """Whether all of ``selector`` is inside the viewport, as the page is scrolled now."""
    return page.evaluate("""(sel) => {
      const r = document.querySelector(sel).getBoundingClientRect();
      return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
    }""", selector)


def test_a_challenge_sent_is_said_under_its_button_and_a_refusal_there_too(browser, live_server, shots):
    url = live_server.url
    (ca, a), (cb, b) = person(browser, url, width=1280), person(browser, url)
    with closing(ca, cb):
        ben = name_of(b)
        a.select_option("#new-game-choice", label="Nibble — Square 9×9")
        a.fill("#new-opponent", ben)
        a.click("#send-challenge")
        sent = a.locator("#challenge-sent")
        sent.wait_for()
        assert sent.inner_text().startswith(f"Challenge sent to {ben} — waiting for their answer. "
                                            "(Nibble — Square 9×9, 5 + 3, casual)")
        assert on_screen(a, "#challenge-sent") and sent.locator("button").inner_text() == "Withdraw"
        assert a.locator("#send-challenge").inner_text() == f"Challenge {ben}"  # whom it challenges
        a.screenshot(path=str(shots / "challenge-form-sent-1280.png"))
        # the same challenge again: refused, said beside it
        a.click("#send-challenge")
        error = a.locator("#new-seek-error")
        error.wait_for()
        assert error.inner_text() == f"you have challenged {ben} already"
        assert on_screen(a, "#new-seek-error") and sent.is_visible()
        # withdrawn from there: the line says so, and so does the list of challenges
        sent.locator("button").click()
        a.wait_for_selector("#challenges-out li[data-status='cancelled']")
        a.wait_for_function("() => document.getElementById('challenge-sent').textContent.startsWith('Your challenge to')")
        assert sent.inner_text() == f"Your challenge to {ben} was withdrawn: Nibble — Square 9×9, 5 + 3, casual."
        assert sent.locator("button").count() == 0 and error.is_hidden()
        # sent again, declined: the answer reaches the line under the button
        a.click("#send-challenge")
        a.wait_for_selector("#challenge-sent button")
        b.locator("#challenges-in li button:not(.primary)").click()
        a.wait_for_function("() => document.getElementById('challenge-sent').textContent.includes('declined')")
        assert sent.inner_text() == f"{ben} declined your challenge: Nibble — Square 9×9, 5 + 3, casual."


def test_a_profiles_challenge_opens_a_form_for_that_challenge_in_one_phone_screen(browser, live_server, shots):
    url = live_server.url
    anna, ben = fresh("anna"), fresh("ben")
    for n in (anna, ben):
        live_server.app.state.people.accounts.add(n, PW)
    (ca, a), (cb, b) = signed_in(browser, url, anna, width=390), signed_in(browser, url, ben, locale="fi-FI")
    with closing(ca, cb):
        assert a.viewport_size == {"width": 390, "height": 844}
        a.goto(f"{url}/#/players/{ben}")
        a.locator("#challenge-player").click()
        a.wait_for_function("() => document.activeElement && document.activeElement.id === 'new-game-choice'")
        # the seek's parts wait behind a link; one button, naming him, in the first screen
        for seek_only in ("#post-seek", "#new-low", "#new-high", "#new-opponent"):
            assert a.locator(seek_only).is_hidden(), seek_only
        button = a.locator("#send-challenge")
        assert button.inner_text() == f"Challenge {ben}" and "primary" in button.get_attribute("class")
        assert on_screen(a, "#send-challenge") and on_screen(a, "#seek-instead")
        a.screenshot(path=str(shots / "challenge-form-profile-390.png"))
        a.check("#new-rated")
        button.click()
        sent = a.locator("#challenge-sent")
        sent.wait_for()
        assert f"Challenge sent to {ben} — waiting for their answer. (Fanorona — Tsivy 9×5, 5 + 3, rated)" in sent.inner_text()
        assert on_screen(a, "#challenge-sent") and on_screen(a, "#send-challenge")
        assert a.locator("#challenge-note").is_hidden()  # "…then press Challenge": done
        a.screenshot(path=str(shots / "challenge-form-profile-sent-390.png"))
        from test_accessibility import report, severe_violations
        found = severe_violations(a)
        assert not found, report(found)
        # rated in lower case, as casual, in the list and in Finnish
        assert ", 5 + 3, rated. Waiting" in a.locator("#challenges-out li[data-status='open']").inner_text()
        b.goto(f"{url}/#/lobby")
        incoming = b.locator("#challenges-in li")
        incoming.wait_for()
        assert "Fanorona — Tsivy 9×5, 5 + 3, pisteytetty." in incoming.inner_text()
        # a public seek instead: its parts shown, Post a seek the first button again
        a.click("#seek-instead")
        for seek_part in ("#post-seek", "#new-low", "#new-opponent"):
            assert a.locator(seek_part).is_visible(), seek_part
        assert a.locator("#seek-instead").is_hidden() and "primary" not in (button.get_attribute("class") or "")
        a.wait_for_function("() => document.activeElement && document.activeElement.id === 'post-seek'")
        a.uncheck("#new-rated")
        a.press("#new-clock-minutes", "Enter")
        a.wait_for_selector("#seeks li.mine")
        assert a.locator("#new-seek-note").inner_text().startswith("Seek posted")
