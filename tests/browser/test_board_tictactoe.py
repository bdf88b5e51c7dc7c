"""A game written outside abstracta plays in the browser: the example plug-in, pip-installed,
gets its board module served from its own package and is played by clicks on the board drawn
from its structured view."""

from __future__ import annotations

import pytest
from httputil import post_json, remember

from abstracta.core import registry


@pytest.fixture
def plugin_server(plugin_dir, server_factory, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(plugin_dir))
    registry.rescan()
    server = server_factory(tmp_path / "ttt.db").start()
    yield server
    server.stop()
    monkeypatch.undo()
    registry.rescan()


def test_tictactoe_is_played_by_clicks(page, plugin_server, shots):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(plugin_server.url + "/#/")
    page.wait_for_selector("[data-game=tictactoe]")
    view = post_json(f"{plugin_server.url}/api/matches", {"game": "tictactoe", "seats": ["human", "human"]})
    remember(page, view)
    page.goto(f"{plugin_server.url}/#/match/{view['id']}")
    for cell, ply in (("b2", 1), ("a1", 2), ("c3", 3), ("a3", 4), ("a2", 5), ("c1", 6), ("b1", 7), ("b3", 8)):
        page.click(f"[data-cell='{cell}']")
        page.wait_for_function(f"() => window.abstractaView && window.abstractaView.ply === {ply}")
    final = page.evaluate("window.abstractaView")
    assert final["position"] == "OOX/XX./OXO X" and final["status"] == "playing"
    assert final["struct"]["board"]["cells"][4] == {"id": "b2", "x": 1, "y": 1, "mark": 0}
    page.click("[data-cell='c2']")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.status === 'over'")
    assert page.evaluate("window.abstractaView.result") == [1.0, -1.0]  # a2 b2 c2
    assert page.evaluate("window.abstractaView.struct.board.line") == ["a2", "b2", "c2"]
    assert page.locator("#result").inner_text().strip() == "X wins. X has three in a row."
    page.screenshot(path=str(shots / "tictactoe.png"))
    assert not errors


def test_tictactoe_by_keyboard_and_screen_reader_text(page, plugin_server):
    view = post_json(f"{plugin_server.url}/api/matches", {"game": "tictactoe", "seats": ["human", "human"]})
    page.goto(f"{plugin_server.url}/#/match/{view['id']}")
    page.wait_for_function("() => window.abstractaView && window.abstractaView.human_to_move")
    page.focus("#board")
    page.keyboard.press("Enter")  # the cursor starts on b2
    page.wait_for_function("() => window.abstractaView.ply === 1")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # a1
    page.wait_for_function("() => window.abstractaView.ply === 2")
    assert page.evaluate("window.abstractaView.moves") == ["b2", "a1"]
    text = page.locator("#board-text").inner_text()
    assert "O marked a1." in text and "X to move." in text
