"""docs/strength.md: its figures are what benchmarks/results gives (issue 46; the brief: "never
hand-copied"). The ladder's block depends on the tables this machine has (a level that reads
them is another player), so only the blocks written from results/*.json are compared here."""

from __future__ import annotations

import re
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import strength_page  # noqa: E402


def test_every_generated_figure_is_the_json_s():
    page = strength_page.PAGE.read_text(encoding="utf-8")
    blocks = dict(re.findall(r"<!-- generated:(\w+) -->\n(.*?)\n<!-- /generated:\1 -->", page, flags=re.S))
    assert set(blocks) == set(strength_page.BLOCKS)
    for name, text in blocks.items():
        if name != "ladder":
            assert text == strength_page.BLOCKS[name](), name


def test_every_block_is_measured():
    assert "Not measured yet" not in strength_page.PAGE.read_text(encoding="utf-8")
