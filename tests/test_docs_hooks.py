"""The documentation's generated parts (docs/hooks.py, issue 39): measurement pages come from the
benchmarks' JSON and say so when there is none; the games' pages carry the engine's diagrams."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def hooks():
    spec = importlib.util.spec_from_file_location("abstracta_docs_hooks", ROOT / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_measurement_is_generated_from_its_json(hooks, tmp_path, monkeypatch):
    entry = {"benchmark": "fake", "command": "python benchmarks/fake.py --json", "commit": "abc1234",
             "date": "2026-12-05", "seconds": 3.5,
             "machine": {"cores": 2, "python": "3.11", "load_before": [1.5, 1, 1], "load_after": [2.25, 1, 1]},
             "result": {"moves_per_s": 32.25, "rows": [{"game": "nim", "illegal": 0, "longest": 12}]}}
    (tmp_path / "fake.json").write_text(json.dumps(entry))
    monkeypatch.setattr(hooks, "RESULTS", tmp_path)
    monkeypatch.setitem(hooks.MEASURED, "fake", ("python benchmarks/fake.py", None))
    page = hooks._measured("fake")
    assert "commit `abc1234`" in page and "load average 1.5 → 2.25" in page
    assert "| moves_per_s | 32.25 |" in page and "| nim | 0 | 12 |" in page
    (tmp_path / "fake.json").unlink()
    missing = hooks._measured("fake")
    assert "Not yet measured as JSON" in missing and "benchmarks/record.py fake -- python benchmarks/fake.py" in missing


def test_the_ladder_is_the_files_own_table(hooks):
    page = hooks.measure("levels")
    assert "Generated from `benchmarks/levels.json`" in page and "| fanorona:size=tsivy | 1–2 |" in page
    assert '<figure class="plot"' in page and "<svg" in page


def test_markers_are_replaced_and_unknown_ones_refused(hooks):
    class Page:
        class file:
            src_uri = "x.md"

    text = hooks.on_page_markdown("# T\n\n<!-- abstracta:rules nibble fi -->\n", Page, None, None)
    assert text.count("<svg") == 8 and "Vuoro" in text and "<!-- abstracta" not in text
    with pytest.raises(ValueError, match="unknown marker"):
        hooks.on_page_markdown("<!-- abstracta:nope x -->", Page, None, None)
