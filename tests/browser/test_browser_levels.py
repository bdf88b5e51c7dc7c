"""The new-game form offers the computer's levels the game declares (issue 46): four for the
Fibonacci card game, six for the others, in English and Finnish, at a phone's width too."""

from __future__ import annotations


def seat_levels(page) -> list[str]:
    return page.eval_on_selector_all("#seat-1 option", "els => els.map(e => e.value)")


def test_the_seat_choice_lists_the_levels_the_game_declares(browser, live_server, shots):
    for width, locale in ((1100, "en-US"), (390, "fi-FI")):
        context = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
        page = context.new_page()
        page.set_default_timeout(15000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{live_server.url}/")
        page.click("[data-game=fibonacci-cards] a.primary")
        page.wait_for_selector("#seat-1 option[value='level:4']", state="attached")
        assert seat_levels(page) == ["human", "friend", "level:1", "level:2", "level:3", "level:4"]
        page.screenshot(path=str(shots / f"new-game-cards-levels-{width}.png"), full_page=True)
        page.goto(f"{live_server.url}/")
        page.click("[data-game=fanorona] a.primary")
        page.wait_for_selector("#seat-1 option[value='level:6']", state="attached")
        assert seat_levels(page)[-6:] == [f"level:{n}" for n in range(1, 7)]
        assert not errors, errors
        context.close()
