"""A newcomer takes each game's first lesson in the browser (issue 39): the lesson is offered on
the game's page to a browser that has not played it, each step's position is drawn by the game's
own board module and played by clicks, the engine judges the turn, a wrong turn is explained and
tried again, and once the lesson is done the browser no longer offers it."""

from __future__ import annotations

import pytest


def click(page, *selectors: str) -> None:
    for selector in selectors:
        page.click(selector)


def verdict(page, kind: str) -> str:
    """The verdict of the step once the server has judged the turn (``right`` or ``wrong``)."""
    page.wait_for_selector(f"#lesson-feedback.{kind}")
    return page.locator("#lesson-feedback").inner_text()


def next_step(page, n: int, of: int) -> None:
    page.click("#lesson-next")
    page.wait_for_function(f"() => document.querySelector('#lesson-step')?.textContent === 'Step {n} of {of}'")
    assert page.locator("#lesson-feedback").inner_text() == ""


def start(page, server, game: str, steps: int) -> None:
    """A browser new to ``game`` opens its new-game page, is offered the lesson and starts it."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/#/new/{game}")
    offer = page.locator("#lesson-offer")
    offer.wait_for()
    assert f"{steps} short steps" in offer.inner_text()
    page.click("#lesson-go")
    page.wait_for_selector("#lesson-task")
    assert page.locator("#lesson-step").inner_text() == f"Step 1 of {steps}"
    # the board is the game's own module, reachable by keyboard and described to screen readers
    board = page.locator("#board")
    assert board.get_attribute("tabindex") == "0" and board.get_attribute("role") == "application"
    page.wait_for_function("() => document.querySelector('#board-text').textContent.length > 0")
    page.errors = errors  # type: ignore[attr-defined]


def finish(page, server, game: str, shots, name: str) -> None:
    """The last step done: the lesson says so, links to a game, and is offered no more."""
    page.wait_for_selector("#lesson-complete")
    assert page.locator("#lesson-play").get_attribute("href") == f"#/new/{game}"
    page.screenshot(path=str(shots / f"lesson-{name}-done.png"), full_page=True)
    page.goto(f"{server.url}/#/new/{game}")
    page.wait_for_selector("#new-game")
    assert page.locator("#lesson-offer").count() == 0
    page.goto(f"{server.url}/#/rules/{game}")
    page.wait_for_selector(".rules figure.diagram svg")
    assert page.locator("#lesson-offer").count() == 0 and page.locator("#lesson-link").is_visible()
    assert page.errors == []  # type: ignore[attr-defined]


def test_fanorona_lesson(page, live_server, shots):
    start(page, live_server, "fanorona", 5)
    click(page, "[data-point='c3']", "[data-point='d3']")  # the only capture: by approach
    assert "stepped to d3 towards e3" in verdict(page, "right")
    next_step(page, 2, 5)
    # a wrong turn first: the same step towards f3 is an approach, explained as such
    click(page, "[data-point='d3']", "[data-point='e3']", "[data-choice=A]")
    said = verdict(page, "wrong")
    assert "captured f3 by approach" in said and "You played d3-e3A" in said
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(shots / "lesson-fanorona-wrong-390.png"), full_page=True)
    page.set_viewport_size({"width": 1100, "height": 900})
    page.screenshot(path=str(shots / "lesson-fanorona-wrong-1100.png"), full_page=True)
    assert page.evaluate("document.activeElement.id") == "lesson-again"  # the keyboard goes on from there
    page.keyboard.press("Enter")
    page.wait_for_selector("#lesson-feedback:empty", state="attached")
    click(page, "[data-point='d3']", "[data-point='e3']", "[data-choice=W]")
    verdict(page, "right")
    next_step(page, 3, 5)
    click(page, "[data-point='c1']", "[data-point='c2']")  # takes c3, c4 and c5
    verdict(page, "right")
    next_step(page, 4, 5)
    click(page, "[data-point='c3']", "[data-point='d3']")  # a capture; the chain may go on
    page.wait_for_selector("#end-turn")
    click(page, "[data-point='d4']", "[data-choice=W]")
    assert "A chain." in verdict(page, "right")
    next_step(page, 5, 5)
    click(page, "[data-point='c2']", "[data-point='c3']")
    assert "e5-d4 would capture it" in verdict(page, "wrong")
    page.click("#lesson-again")
    click(page, "[data-point='c2']", "[data-point='b2']")
    verdict(page, "right")
    finish(page, live_server, "fanorona", shots, "fanorona")


def test_nibble_lesson(page, live_server, shots):
    start(page, live_server, "nibble", 4)
    page.click("[data-cell='b1']")  # free, and the rest stays in one group
    verdict(page, "right")
    next_step(page, 2, 4)
    page.click("[data-cell='a1']")  # one disc: the turn ends, which is not the task
    assert "That was one disc" in verdict(page, "wrong")
    page.click("#lesson-again")
    click(page, "#add-more", "[data-cell='a1']", "[data-cell='c1']", "#take")
    verdict(page, "right")
    next_step(page, 3, 4)
    page.click("[data-cell='a1']")
    assert "All nine discs" in verdict(page, "right")
    next_step(page, 4, 4)
    page.click("[data-cell='a1']")
    verdict(page, "right")
    finish(page, live_server, "nibble", shots, "nibble")


def test_fibonacci_lesson(page, live_server, shots):
    start(page, live_server, "fibonacci", 3)
    click(page, "[data-cell='d1']", "[data-cell='h5']")  # the far end of the snake, next to the core
    verdict(page, "right")
    next_step(page, 2, 3)
    click(page, "[data-cell='j5']", "[data-cell='k6']")  # the core to j5: still on the edge
    assert "still on the edge" in verdict(page, "wrong")
    page.click("#lesson-again")
    click(page, "[data-cell='i5']", "[data-cell='k6']")
    verdict(page, "right")
    next_step(page, 3, 3)
    click(page, "[data-cell='d5']", "[data-cell='e6']")
    assert "Six attackers around the core" in verdict(page, "right")
    finish(page, live_server, "fibonacci", shots, "fibonacci")


def test_fibonacci_cards_lesson(page, live_server, shots):
    start(page, live_server, "fibonacci-cards", 4)
    click(page, ".hand [data-card='7h']", "[data-pile='1']")
    verdict(page, "right")
    next_step(page, 2, 4)
    click(page, ".hand [data-card='Ah']", "[data-pile='2']")
    verdict(page, "right")
    next_step(page, 3, 4)
    click(page, ".hand [data-card='7h']", "[data-pile='2']")  # a sum, not a cut
    assert "That was a sum play" in verdict(page, "wrong")
    page.click("#lesson-again")
    click(page, ".hand [data-card='Qc']", "[data-pile='1']")
    verdict(page, "right")
    next_step(page, 4, 4)
    page.click("[data-pile='stock']")  # draw: the 7 fits, the turn goes on
    page.wait_for_selector(".hand [data-card='7s']")
    click(page, ".hand [data-card='7s']", "[data-pile='2']")
    verdict(page, "right")
    finish(page, live_server, "fibonacci-cards", shots, "fibonacci-cards")


def test_slide_checkers_lesson(page, live_server, shots):
    start(page, live_server, "slide-checkers", 4)
    click(page, "[data-square='e4']", "[data-square='c6']")
    verdict(page, "right")
    next_step(page, 2, 4)
    click(page, "[data-square='e4']", "[data-square='g6']", "[data-choice='e4*g6e']")
    assert "This time remove it" in verdict(page, "wrong")
    page.click("#lesson-again")
    click(page, "[data-square='e4']", "[data-square='g6']", "[data-choice='e4*g6r']")
    verdict(page, "right")
    next_step(page, 3, 4)
    click(page, "[data-square='e4']", "[data-square='g6']", "[data-choice='e4*g6e']")
    verdict(page, "right")
    next_step(page, 4, 4)
    click(page, "[data-square='c9']", "[data-square='f8']", "[data-choice='c9>d8*f8r']")
    assert "you win" in verdict(page, "right")
    finish(page, live_server, "slide-checkers", shots, "slide-checkers")


@pytest.mark.parametrize("lang", ["fi"])
def test_a_lesson_reads_in_finnish(page, live_server, lang):
    page.add_init_script("localStorage.setItem('abstracta.lang', 'fi')")
    page.goto(f"{live_server.url}/#/lesson/fanorona/2")
    page.wait_for_selector("#lesson-task")
    assert page.locator("#lesson-step").inner_text() == "Vaihe 2/5"
    assert page.locator("#lesson-task").inner_text().startswith("Nappaa vetäytymällä")
    click(page, "[data-point='d3']", "[data-point='e3']", "[data-choice=A]")
    page.wait_for_selector("#lesson-feedback.wrong")
    said = page.locator("#lesson-feedback").inner_text()
    assert said.startswith("Ei aivan.") and "lähestymällä" in said and "Pelasit d3-e3A" in said


def test_a_lesson_step_by_keyboard_only(page, live_server):
    """Tab from the top of the page to the board, the board's own keys to play the step, Enter on the
    verdict's button to go on: the lesson needs no pointer."""
    from test_keyboard_game import ACTIVE, steer, tab_to_board

    page.goto(f"{live_server.url}/#/lesson/fanorona/2")
    page.reload()  # a fresh document: Tab from the top
    page.wait_for_selector("svg.fan-board")
    assert tab_to_board(page) >= 3
    assert page.evaluate(ACTIVE) == "board"
    steer(page, "d3")
    page.keyboard.press("Enter")
    steer(page, "e3")
    page.keyboard.press("Enter")
    page.keyboard.press("w")  # withdrawal, the board module's key for the choice
    assert "stepping away from c3" in verdict(page, "right").lower()
    assert page.evaluate(ACTIVE) == "lesson-next"
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#lesson-step')?.textContent === 'Step 3 of 5'")
