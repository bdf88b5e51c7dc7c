"""Analyses a test leaves running do not refuse the next test's. The server allows two running
analyses per client, and every test browser is the same client (127.0.0.1): a test that ended
while the server still searched for it (the whole-budget evaluation and graph of an analysis
panel, on a loaded CI machine) refused the next test's analysis ("2 analyses of yours are
running"), a failure that came and went with the machine's load. The two tests below run in
this order (pytest keeps a file's order, ``--dist loadfile`` one file on one worker): the first
ends with two analyses held back, as a loaded machine holds them; the second asks at once."""

from __future__ import annotations

import threading
import time
import urllib.parse

from httputil import post_json
from test_browser_analysis import SCALE, resigned_record

import abstracta

#: how long the first test's analyses stay unanswered (s): longer than the next test takes to ask
HOLD = 6.0


def hold_answers(service, seconds: float) -> None:
    """Every analysis answer found in the next ``seconds`` is handed to its request only then,
    as if its search had taken that long; after that the service is as it was."""
    original = service.analysis.answered
    held: list[tuple] = []
    lock = threading.Lock()
    holding = True

    def hold(job, text, note):
        with lock:
            if holding:
                held.append((job, text, note))
                return
        original(job, text, note)

    def release():
        nonlocal holding
        with lock:
            holding = False
            del service.analysis.answered  # the class's method again
        for answer in held:
            original(*answer)

    service.analysis.answered = hold
    timer = threading.Timer(seconds, release)
    timer.daemon = True
    timer.start()


def test_a_test_ends_while_its_analyses_run(live_server, page) -> None:
    view = post_json(f"{live_server.url}/api/matches/import", {"record": resigned_record("fanorona", {"size": "dimy"})})
    service = live_server.app.state.service
    page.add_init_script(SCALE)
    page.goto(f"{live_server.url}/#/match/{view['id']}")
    page.wait_for_selector("#analyse")
    hold_answers(service, HOLD)
    page.click("#analyse")  # the shown position's evaluation and the graph: two analyses
    deadline = time.monotonic() + HOLD / 2
    while service.analyses_running() < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert service.analyses_running() == 2
    # the test ends here: its page is closed, the server's two analyses for it run on


def test_the_next_tests_analysis_is_answered(live_server, page) -> None:
    position = abstracta.load_game("fanorona", size="dimy").new_initial_state().to_text()
    page.add_init_script(SCALE)
    page.goto(f"{live_server.url}/#/analysis/fanorona?" + urllib.parse.urlencode({"size": "dimy", "position": position}))
    page.wait_for_selector("#an-number, #an-error:not([hidden])", state="attached", timeout=60000)
    refused = page.locator("#an-error:not([hidden])")
    assert refused.count() == 0, refused.inner_text()
    assert page.locator("#an-number").count() == 1


def test_the_test_pages_ask_for_a_small_budget_unless_told(live_server, browser) -> None:
    # a test that forgot SCALE asked for the whole budget (test_keyboard_focus's hint and
    # graph): its searches outlived it on a loaded machine; the test browser's pages ask for a
    # share by default, and a test that wants the whole budget still gets it
    position = abstracta.load_game("fanorona", size="telo").new_initial_state().to_text()
    url = f"{live_server.url}/#/analysis/fanorona?" + urllib.parse.urlencode({"size": "telo", "position": position})
    for script, scale in ((None, 0.05), ("window.abstractaAnalysisScale = 1;", 1)):
        context = browser.new_context()
        try:
            page = context.new_page()
            if script:
                page.add_init_script(script)
            with page.expect_request(lambda r: r.url.endswith("/api/analysis")) as asked:
                page.goto(url)
            assert asked.value.post_data_json["scale"] == scale
            page.wait_for_selector("#an-number", state="attached", timeout=60000)
        finally:
            context.close()
