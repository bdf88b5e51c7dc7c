"""The browser's code stays in functions a reader can hold (issue 40 §4): none of the shell's
modules (``web/*.js``) has a function over 200 lines, and they import one another without a
cycle. Lines are measured by tests/js_functions.py, a scanner that knows JavaScript's strings,
templates, regexes and comments (checked here on the cases that would fool a plain brace count)."""

from __future__ import annotations

import re
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

from js_functions import Function, ScanError, functions

WEB = Path(__file__).resolve().parents[1] / "src" / "abstracta" / "web"
LIMIT = 200


def test_no_function_of_the_shell_is_over_200_lines():
    sources = sorted(WEB.glob("*.js"))
    assert len(sources) >= 10
    measured, over = 0, []
    for src in sources:
        for f in functions(src.read_text("utf-8")):
            measured += 1
            if f.lines > LIMIT:
                over.append(f"{src.name}:{f.first} {f.name}: {f.lines} lines")
    assert measured > 300  # every module was read, not one skipped
    assert not over, "functions over 200 lines: " + "; ".join(over)


def spans(src: str) -> list[tuple[str, int, int]]:
    return [(f.name, f.first, f.last) for f in functions(src)]


def test_declarations_methods_and_arrows_are_found_with_their_lines():
    src = """\
export async function page(app) {
  const x = { draw() {
      return 1;
    },
    get word() { return "w"; } };
  const f = async (a, b) => {
    return a;
  };
  const g = (y) => y +
    1;
  list.map(z => z * 2);
  if (x) { f(); }
  for (const k of [1]) { g(k); }
  try { f(); } catch (e) { g(e); }
  return function* () { yield 1; };
}
class C { constructor(n) { this.n = n; } }
"""
    assert spans(src) == [("page", 1, 16), ("draw", 2, 4), ("word", 5, 5), ("f", 6, 8), ("g", 9, 10),
                          ("(arrow)", 11, 11), ("(function)", 15, 15), ("constructor", 17, 17)]
    assert Function("page", 1, 16).lines == 16


def test_braces_in_strings_templates_regexes_and_comments_are_not_counted():
    src = """\
function a() {
  const s = "}}}" + '{' + `${"}"} and ${ { b: `${1 + {c: 2}.c}` }.b } }`;
  const r = /[}/]{2}\\}/g.test(s), q = x / 2 / 3;
  // a comment with }
  /* and {{ here
  */
  return s;
}
function b() { return 1; }
"""
    assert spans(src) == [("a", 1, 8), ("b", 9, 9)]


def test_an_unbalanced_source_is_an_error_not_a_guess():
    with pytest.raises(ScanError):
        functions("function a() { return 1;")
    with pytest.raises(ScanError):
        functions("const s = 'no end;\n")
    with pytest.raises(ScanError):
        functions("function a() { return (1; }")


# a module's static imports: `import … from "./x.js"` (or "/x.js", as the board modules and the API
# page say it), at the start of a line, as every module of the shell writes them
IMPORT = re.compile(r'^(?:import|export)\b[^;]*?\bfrom\s+"\.?/([\w.-]+\.js)"', re.M | re.S)


def test_the_shells_modules_import_one_another_without_a_cycle():
    graph = {src.name: set(IMPORT.findall(src.read_text("utf-8"))) for src in WEB.glob("*.js")}
    assert {"match-context.js", "match-seats.js"} <= graph["match.js"]  # the pattern reads them
    order = TopologicalSorter(graph)
    try:
        order.prepare()  # raises CycleError with the modules of a cycle
    except CycleError as e:
        pytest.fail(f"import cycle among web/*.js: {' -> '.join(e.args[1])}")
    unknown = {m for deps in graph.values() for m in deps} - set(graph)
    assert not unknown, f"imports of modules that are not there: {unknown}"
