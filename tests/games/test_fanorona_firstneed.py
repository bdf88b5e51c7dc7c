"""Tables on every install (issue 46 §1): the first time levels 5-6 need Fanorona's tables they
are built in a background process, once per directory, and read when they are there."""

from __future__ import annotations

import os
import time

from abstracta import load_game
from abstracta.games.fanorona import firstneed, solve


def test_the_first_need_builds_the_tables_once_in_the_background(tmp_path, monkeypatch):
    monkeypatch.setenv("ABSTRACTA_EGTB_DIR", str(tmp_path))
    monkeypatch.setenv(firstneed.ENV, "1")
    monkeypatch.setattr(firstneed, "STONES", 3)  # the child builds what it is told: 3 stones, a second
    monkeypatch.setattr(firstneed, "_STARTED", set())
    monkeypatch.setattr(solve, "RECHECK_SECONDS", 0.0)
    game = load_game("fanorona")
    probe = game.description.levels[6].evaluator.__self__
    lock = tmp_path / "fanorona-tsivy.building"
    assert probe.reads is None and not lock.exists()  # describing a level only looks
    assert probe.oracle(game.new_initial_state()) is None  # the first need: it searches, and the build starts
    assert lock.exists() or (tmp_path / "fanorona-tsivy-1v2.u8").exists()
    assert not firstneed.start("tsivy", tmp_path) or not lock.exists()  # a second build waits for the first
    deadline = time.monotonic() + 120
    while lock.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not lock.exists(), (tmp_path / "fanorona-tsivy.build.log").read_text()
    assert sorted(p.name for p in tmp_path.glob("*.u8")) == [
        "fanorona-tsivy-1v1.u8", "fanorona-tsivy-1v2.u8", "fanorona-tsivy-2v1.u8"]
    assert probe.reads == "tables of 2-3 stones"  # looked for again, and found


def test_turned_off_or_taken_it_does_not_start(tmp_path, monkeypatch):
    monkeypatch.setenv(firstneed.ENV, "0")
    assert not firstneed.start("tsivy", tmp_path)
    monkeypatch.setenv(firstneed.ENV, "1")
    lock = tmp_path / "fanorona-tsivy.building"
    lock.write_text(f"{os.getpid()}\n")  # a live builder holds it
    assert not firstneed.start("tsivy", tmp_path)
    assert not firstneed.start("telo", tmp_path)  # Telo is solved in memory: nothing to build
    monkeypatch.setattr(firstneed, "_STARTED", set())
    lock.write_text("999999999\n")  # a builder that is gone: taken over
    os.utime(lock, (time.time() - firstneed.STALE_SECONDS - 10,) * 2)
    monkeypatch.setattr(firstneed, "STONES", 2)
    assert firstneed.start("tsivy", tmp_path)
    deadline = time.monotonic() + 60
    while lock.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert (tmp_path / "fanorona-tsivy-1v1.u8").exists()
    assert not firstneed.start("tsivy", tmp_path)  # once per process: a failed build does not loop
