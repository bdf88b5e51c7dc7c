"""Tic-tac-toe in a terminal."""

from __future__ import annotations

from typing import Any


def render(state: Any) -> str:
    rows = []
    for rank in (2, 1, 0):
        cells = ["." if state.board[rank * 3 + f] < 0 else "XO"[state.board[rank * 3 + f]] for f in range(3)]
        rows.append(f"{rank + 1}  " + " ".join(cells))
    rows.append("   a b c")
    if state.is_terminal():
        r = state.returns()
        rows.append("draw" if r[0] == 0 else ("X wins" if r[0] > 0 else "O wins"))
    else:
        rows.append(f"{'XO'[state.to_move]} to move")
    return "\n".join(rows)
