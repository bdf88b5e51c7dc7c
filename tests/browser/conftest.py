"""Fixtures for the browser tests: a live server on a port it binds itself, with a temp database, and
Debian's Chromium driven by Playwright (skipped when Chromium is missing, outside CI)."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from playwright import sync_api

from abstracta.server import bind

CHROMIUM = os.environ.get("ABSTRACTA_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]

#: the pages ask for a share of the server's analysis budgets unless a test sets its own
#: ``window.abstractaAnalysisScale`` (1: the whole budget): the tests check what is shown, not its
#: strength, and a whole-budget search outlives its test on a loaded machine (the next test
#: then waits for it, see LiveServer.wait_for_no_analysis)
ANALYSIS_SCALE = "if (typeof window.abstractaAnalysisScale !== 'number') window.abstractaAnalysisScale = 0.05;"


class LiveServer:
    def __init__(self, db_path: Path, port: int = 0, limits: dict[str, tuple[str, str]] | None = None):
        import uvicorn

        from abstracta.server.app import create_app
        from abstracta.server.security import Security

        self.db_url = f"sqlite:///{db_path}"
        # a loopback test server: the browser tests create matches faster than a person (rate
        # limits only where a test asks for some, to see how a refusal reads)
        settings = Security(limits=limits) if limits else Security(rate_limits=False)
        self.app = create_app(self.db_url, bot_workers=1, security_settings=settings)
        # bound here and kept: a port looked up free and bound later may be taken in between
        self.socket = bind("127.0.0.1", port)
        self.port = self.socket.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)

    def start(self) -> "LiveServer":
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def wait_for_no_analysis(self) -> None:
        """Until no analysis runs here. The server runs at most two analyses per browser and
        eight per address, and every test browser is at one address (127.0.0.1): analyses
        earlier tests left running refused the next test's. A closed page's searches stop once the server reads the
        disconnect (a few milliseconds later); answers a test holds back still count."""
        from abstracta.server.analysis import ANALYSIS_TIMEOUT

        service = self.app.state.service
        # the server gives up on an analysis after ANALYSIS_TIMEOUT; the margin is its way back
        deadline = time.monotonic() + ANALYSIS_TIMEOUT + 10
        while service.analyses_running():
            if time.monotonic() > deadline:
                raise RuntimeError(f"{service.analyses_running()} analyses still running after "
                                   f"{ANALYSIS_TIMEOUT:g} s")
            time.sleep(0.05)


@pytest.fixture(scope="session")
def server_factory():
    """The LiveServer class (a test may start its own servers on one database file)."""
    return LiveServer


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory):
    server = LiveServer(tmp_path_factory.mktemp("db") / "web.db").start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def no_analysis_left_running(request):
    """Before each test of the shared live server: no analysis of an earlier test running."""
    if "live_server" in request.fixturenames:
        request.getfixturevalue("live_server").wait_for_no_analysis()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        if os.environ.get("CI"):  # CI installs Chromium (.ci/run): a skip there would hide a broken setup
            pytest.fail("Chromium is not installed although CI is set; .ci/run should have installed it")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        # every page of every context holds the seat tokens of the matches the tests created
        # through httputil (see the page fixture); a test of several people at a distance
        # makes its contexts with browser.new_context_without_tokens
        unset = b.new_context

        def plain(*args, **kwargs):
            # English pages unless a test asks for another language (the page follows
            # navigator.languages; the existing tests assert English words)
            kwargs.setdefault("locale", "en-US")
            context = unset(*args, **kwargs)
            context.add_init_script(ANALYSIS_SCALE)
            return context

        def new_context(*args, **kwargs):
            context = plain(*args, **kwargs)
            new_page = context.new_page

            def page_with_tokens(*a, **kw):
                return with_tokens(new_page(*a, **kw))

            context.new_page = page_with_tokens
            return context

        b.new_context_without_tokens = plain
        b.new_context = new_context
        yield b
        b.close()


@pytest.fixture(scope="module", autouse=True)
def tokens_of_this_file():
    """Pages hold the seat tokens of the matches their own test file created (``with_tokens``),
    not those of the files run before it in this worker: the server is one for the session, and
    a page holding other files' games that wait for a move shows "Your move" in its header and
    title, reads them in Your games, and lays out around the badge. Which files ran before
    depends on how the suite is split among workers, so such a test passed or failed by order."""
    from httputil import TOKENS

    TOKENS.clear()
    yield


def with_tokens(pg):
    """``pg`` whose ``goto`` first gives it the tokens of every match the tests created."""
    from httputil import remember_all

    goto = pg.goto

    def goto_with_tokens(url, **kw):
        remember_all(pg)
        return goto(url, **kw)

    pg.goto = goto_with_tokens
    return pg


@pytest.fixture
def page(browser):
    """A page of a fresh browser context that holds the seat tokens of every match the tests
    created through ``httputil`` (given to the page at each ``goto``), like the browser that
    created them."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(15000)
    yield pg
    context.close()


#: Where the browser tests leave their screenshots (every game page at 1280 and 390 px among
#: them): ``test-screenshots/`` in the checkout, or ``$ABSTRACTA_SCREENSHOTS``.
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-screenshots"


@pytest.fixture(scope="session")
def shots() -> Path:
    folder = Path(os.environ.get("ABSTRACTA_SCREENSHOTS") or SCREENSHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
