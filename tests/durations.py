"""Longest test files first: `make test` runs two workers, one file per worker at a time.

``--dist loadfile`` hands whole files to the two workers in collection order, so a two-minute file
collected last leaves one worker idle for most of those two minutes at the end. Collection is
therefore sorted by each file's measured seconds (``tests/durations.json``), longest first, a
longest-processing-time-first schedule; a file not measured yet goes last in its own order.
``make test`` passes ``--no-loadscope-reorder`` so that xdist keeps this order instead of sorting
files by their number of tests.

``ABSTRACTA_TEST_DURATIONS=tests/durations.json make test`` measures again and rewrites the file:
each file's setup, call and teardown seconds, summed as the run reports them.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path

import pytest

DURATIONS = Path(__file__).resolve().parent / "durations.json"
ENV = "ABSTRACTA_TEST_DURATIONS"


def _file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def load(path: Path = DURATIONS) -> dict[str, float]:
    """``{"tests/x.py": seconds}`` from ``path``; empty when it is missing or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: float(v) for k, v in data.items() if isinstance(v, (int, float))}


def order(items: list, seconds: dict[str, float]) -> list:
    """``items`` with whole files longest first; within a file, and among unmeasured files, as collected."""
    first_index: dict[str, int] = {}
    for index, item in enumerate(items):
        first_index.setdefault(_file_of(item.nodeid), index)
    return sorted(
        items,
        key=lambda item: (
            -seconds.get(_file_of(item.nodeid), 0.0),
            first_index[_file_of(item.nodeid)],
        ),
    )


class Recorder:
    """Sums the seconds of every report by file, on the process that sees them all."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report) -> None:
        self.seconds[_file_of(report.nodeid)] += report.duration

    def pytest_sessionfinish(self, session) -> None:
        if self.seconds:
            rounded = {k: round(v, 1) for k, v in sorted(self.seconds.items(), key=lambda kv: -kv[1])}
            self.out.write_text(json.dumps(rounded, indent=1) + "\n", encoding="utf-8")


def configure(config: pytest.Config) -> None:
    out = os.environ.get(ENV)
    # an xdist worker sees only its own files; the controller receives every worker's reports
    if out and not hasattr(config, "workerinput"):
        config.pluginmanager.register(Recorder(Path(out)), "abstracta-durations")


def modify(items: list) -> None:
    items[:] = order(items, load())
