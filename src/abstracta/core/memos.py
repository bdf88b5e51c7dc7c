"""The rules' memos, bounded by the process that holds them (issue 44 §5).

A game's move generator may memoise tables keyed by positions (the moves of a set of pieces, of
a start square and its free squares): dictionaries kept at module level and cleared by the game
when they reach the size its searches want (tens or hundreds of thousands of entries, a kB or so
each). A search fills them in seconds and lives on the hits; a web process, which generates the
legal moves of a view now and then, fills them over hours with positions it will not see again
— 0.6-1.1 kB an entry in the games measured, 75 MB up to their bounds, which its
memory grew by for as long as it served (benchmarks/soak.py). So a game registers each memo
here (:func:`memo`) and a process that wants less of them bounds them all (:func:`bound`): a
memo over the bound is cleared, as the game clears a full one. A memo is a cache: clearing it
changes no answer, only the time the next one takes.
"""

from __future__ import annotations

import threading
from typing import Any

_MEMOS: dict[str, dict[Any, Any]] = {}
_guard = threading.Lock()


def memo(name: str) -> dict[Any, Any]:
    """A new empty memo registered as ``name`` ("<game>.<table>"; a name registered again —
    its module imported anew — gets the new dictionary)."""
    table: dict[Any, Any] = {}
    with _guard:
        _MEMOS[name] = table
    return table


def sizes() -> dict[str, int]:
    """Entries held by each memo registered, by name."""
    with _guard:
        return {name: len(table) for name, table in _MEMOS.items()}


def bound(entries: int) -> int:
    """Clear every memo holding more than ``entries`` entries (thread-safe: a generator that
    misses after a clear computes its entry again); the entries dropped, summed."""
    dropped = 0
    with _guard:
        tables = list(_MEMOS.values())
    for table in tables:
        held = len(table)
        if held > entries:
            table.clear()
            dropped += held
    return dropped


__all__ = ["bound", "memo", "sizes"]
