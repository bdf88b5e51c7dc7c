"""The test run's order: whole files, longest measured first (tests/durations.py)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import durations


def _items(*nodeids):
    return [SimpleNamespace(nodeid=n) for n in nodeids]


def test_files_go_longest_first_and_keep_their_tests_together_in_order():
    items = _items("tests/a.py::t1", "tests/b.py::t1", "tests/a.py::t2", "tests/c.py::t1", "tests/b.py::t2")
    seconds = {"tests/a.py": 3.0, "tests/b.py": 40.0}
    ordered = [i.nodeid for i in durations.order(items, seconds)]
    assert ordered == ["tests/b.py::t1", "tests/b.py::t2", "tests/a.py::t1", "tests/a.py::t2", "tests/c.py::t1"]


def test_unmeasured_files_keep_their_collection_order_after_the_measured_ones():
    items = _items("tests/z.py::t", "tests/y.py::t", "tests/m.py::t")
    ordered = [i.nodeid for i in durations.order(items, {"tests/m.py": 0.5})]
    assert ordered == ["tests/m.py::t", "tests/z.py::t", "tests/y.py::t"]


def test_load_reads_seconds_and_tolerates_a_missing_or_corrupt_file(tmp_path):
    good = tmp_path / "d.json"
    good.write_text(json.dumps({"tests/a.py": 2, "tests/b.py": "x"}))
    assert durations.load(good) == {"tests/a.py": 2.0}
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert durations.load(bad) == {}
    assert durations.load(tmp_path / "missing.json") == {}


def test_the_recorder_sums_each_files_reports_and_writes_them_longest_first(tmp_path):
    out = tmp_path / "out.json"
    recorder = durations.Recorder(out)
    for nodeid, seconds in [("tests/a.py::t1", 1.25), ("tests/b.py::t", 4.0), ("tests/a.py::t2", 0.5)]:
        recorder.pytest_runtest_logreport(SimpleNamespace(nodeid=nodeid, duration=seconds))
    recorder.pytest_sessionfinish(None)
    assert list(json.loads(out.read_text()).items()) == [("tests/b.py", 4.0), ("tests/a.py", 1.8)]


def test_the_committed_durations_name_only_files_that_exist():
    from pathlib import Path

    root = Path(durations.__file__).resolve().parent.parent
    seconds = durations.load()
    assert len(seconds) > 50
    assert [name for name in seconds if not (root / name).is_file()] == []
