"""The registry read by several threads at once (the server's, at its start)."""

from __future__ import annotations

import threading

from abstracta.core import registry


def test_a_thread_asking_while_another_reads_the_entry_points_sees_every_game(monkeypatch):
    """While one thread reads the entry points, another asking for the games got none (the
    dict was published empty, then filled), and the English catalog of messages, cached from
    that answer, had no game's words."""
    everything = registry.registered_games()
    assert "fanorona" in everything
    real = registry.entry_points
    reading, asked = threading.Event(), threading.Event()
    calls = []

    def slow(**kw):
        calls.append(threading.current_thread().name)
        found = real(**kw)
        if len(calls) == 1:  # the first reader is caught in the middle of its reading
            reading.set()
            asked.wait(10)
        return found

    monkeypatch.setattr(registry, "entry_points", slow)
    monkeypatch.setattr(registry, "_found", None)
    first = threading.Thread(target=registry.registered_games, name="first")
    first.start()
    assert reading.wait(10)
    meanwhile = registry.registered_games()
    asked.set()
    first.join(10)
    assert meanwhile == everything
    assert registry.registered_games() == everything
