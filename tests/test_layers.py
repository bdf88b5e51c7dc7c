"""The package's layers, read from its source with ``ast``: no import cycle anywhere in
``src/abstracta``, counting every import that runs (module level, inside functions and classes,
``from . import x``); a game package without a cycle even in its annotations, its modules
reaching :mod:`abstracta.ai` only through its entry module; and function-local imports of the
package's own modules kept few, each with its reason written beside it (DESIGN.md "Layout").

Imports under ``if TYPE_CHECKING:`` never run: they name types for annotations (PEP 563
strings) and cannot make an import cycle at run time, so the package-wide graph leaves them out.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import abstracta

SRC = Path(abstracta.__file__).parent
#: At most this many function-local imports of the package's own modules outside the CLI.
MAX_LOCAL_IMPORTS = 15


@dataclass(frozen=True)
class Import:
    source: str        # the importing module, dotted
    target: str        # the imported module of the package, dotted
    line: int
    local: bool        # inside a function (runs when it is called)
    typing_only: bool  # under ``if TYPE_CHECKING:``


def _modules() -> dict[str, tuple[Path, bool]]:
    """``{dotted name: (path, is a package's __init__)}`` of every module of the package."""
    out = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts.pop()
        out[".".join(parts)] = (path, package)
    return out


MODULES = _modules()


def _owner(name: str) -> str | None:
    """The module of the package that ``name`` (a module or a name in one) lives in."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _marked(tree: ast.AST, kinds: tuple[type, ...], test=None) -> set[int]:
    """ids of the import nodes inside nodes of ``kinds`` (and passing ``test``)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, kinds) and (test is None or test(node)):
            out.update(id(sub) for sub in ast.walk(node) if isinstance(sub, (ast.Import, ast.ImportFrom)))
    return out


def _imports() -> list[Import]:
    found = []
    for module, (path, package) in MODULES.items():
        tree = ast.parse(path.read_text(), str(path))
        here = module if package else module.rpartition(".")[0]
        local = _marked(tree, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        typing_only = _marked(tree, (ast.If,), lambda node: "TYPE_CHECKING" in ast.unparse(node.test))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [_owner(alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")
                    base = base[:len(base) - node.level + 1]
                    base_name = ".".join(base + ([node.module] if node.module else []))
                else:
                    base_name = node.module or ""
                # ``from . import x`` imports the module x where there is one
                targets = [f"{base_name}.{alias.name}" if f"{base_name}.{alias.name}" in MODULES
                           else _owner(base_name) for alias in node.names]
            else:
                continue
            for target in dict.fromkeys(targets):
                if target is not None and target != module:
                    found.append(Import(module, target, node.lineno, id(node) in local, id(node) in typing_only))
    return found


IMPORTS = _imports()


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph ``edges`` as ``[a, b, …, a]``, or ``None``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def _graph(imports) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for imp in imports:
        edges.setdefault(imp.source, set()).add(imp.target)
    return edges


def _where(cycle: list[str], imports) -> str:
    lines = []
    for a, b in zip(cycle, cycle[1:]):
        at = next(i for i in imports if i.source == a and i.target == b)
        lines.append(f"  {a} -> {b}  ({MODULES[a][0].relative_to(SRC.parent)}:{at.line}"
                     f"{', function-local' if at.local else ''}{', TYPE_CHECKING' if at.typing_only else ''})")
    return "\n".join(lines)


def test_the_reader_sees_every_kind_of_import():
    """The graph is only as good as its reader: a module-level import, a function-local one, a
    ``from . import x`` of a module and one of a name of ``__init__`` are all edges."""
    by = {(i.source, i.target): i for i in IMPORTS}
    assert not by[("abstracta.games.nibble", "abstracta.games.nibble.description")].local  # from . import description
    assert ("abstracta.games.nibble.rules", "abstracta.core.game") in by  # from ...core.game import Game
    assert by[("abstracta.server", "abstracta.server.app")].local  # serve(): from .app import create_app
    assert ("abstracta.games.fanorona", "abstracta.ai.alphabeta") in by  # the composing module
    assert len(MODULES) > 200 and len(IMPORTS) > 800


def test_no_import_cycle_anywhere():
    running = [i for i in IMPORTS if not i.typing_only]
    cycle = _cycle(_graph(running))
    assert cycle is None, "an import cycle:\n" + _where(cycle, running)


def test_a_game_package_has_no_cycle_even_in_its_annotations():
    """Inside a game package the rules import nothing above them, not even a type: notation,
    render, tensors, view and description import the rules, and the entry module composes them."""
    games = [i for i in IMPORTS if i.source.startswith("abstracta.games.") and i.target.startswith("abstracta.games.")]
    cycle = _cycle(_graph(games))
    assert cycle is None, "an import cycle in a game package:\n" + _where(cycle, games)


def test_only_a_games_entry_module_reaches_up_into_ai():
    """``ai`` is above the games (its bots know a game through the spine and its description):
    a game's module that needs a search gets it from the package's entry module (compose). No
    game module imports the layers above that (server, CLI, play session, lobby, interop)."""
    def entry(module: str) -> bool:
        return MODULES[module][1] and module.count(".") == 2  # abstracta.games.<name>

    up = [f"{i.source}:{i.line} imports {i.target}" for i in IMPORTS if i.source.startswith("abstracta.games.")
          and (i.target.startswith(("abstracta.server", "abstracta.cli", "abstracta.play", "abstracta.lobby",
                                    "abstracta.people", "abstracta.interop"))
               or i.target.startswith("abstracta.ai") and not entry(i.source))]
    assert not up, "\n".join(up)


def _has_reason(path: Path, line: int) -> bool:
    """A comment on the import's line, or on the line above it or above the run of imports it
    stands in (one comment may give the reason of a block of imports)."""
    lines = path.read_text().splitlines()
    i = line - 1
    if "#" in lines[i]:
        return True
    while i > 0:
        above = lines[i - 1].strip()
        if above.startswith("#"):
            return True
        if not above.startswith(("from ", "import ")):
            return False
        i -= 1
    return False


def test_function_local_imports_are_few_and_say_why():
    local = [i for i in IMPORTS if i.local and not i.typing_only and not i.source.startswith("abstracta.cli")]
    statements = {(i.source, i.line) for i in local}
    listing = "\n".join(f"  {MODULES[s][0].relative_to(SRC.parent)}:{n}" for s, n in sorted(statements))
    assert len(statements) <= MAX_LOCAL_IMPORTS, f"{len(statements)} function-local imports:\n{listing}"
    silent = [f"  {MODULES[s][0].relative_to(SRC.parent)}:{n}" for s, n in sorted(statements)
              if not _has_reason(MODULES[s][0], n)]
    assert not silent, "function-local imports without their reason in a comment beside them:\n" + "\n".join(silent)
