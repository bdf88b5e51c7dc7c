"""Terminal picture of a Fibonacci position (Spec: fibonacci.md §1 geometry, §2 letters).

Rows k (top) … a (bottom), each shifted half a cell per row as on the hex board (x = c − r/2);
each row is labelled with its first and last cell name. Red ``C A S``, Green ``c a s``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from .board import NAME, ROW_CELLS, ROWS
from .notation import LETTERS

if TYPE_CHECKING:
    from .state import FibonacciState

_STYLE = {0: "dim", 1: "bold white on red", 2: "bold red", 3: "red",
          4: "bold black on green", 5: "bold green", 6: "green"}


def render(state: "FibonacciState", player: int | None = None) -> Text:
    """A ``rich.text.Text`` of ``state`` as ``player`` may see it (piles are never shown: their
    order is hidden from everyone, §10; only their sizes and the revealed card)."""
    out = Text()
    variant = state.game.variant
    out.append(f"Fibonacci ({variant})", style="bold")
    if state.is_terminal():
        r = state.returns()
        status = "draw" if r[0] == 0 else ("Red wins" if r[0] > 0 else "Green wins")
        out.append(f" — game over: {status}\n")
    elif state.placed < 26:
        kind = "CAS"[0 if state.placed >= 24 else 1 if state.placed >= 12 else 2]
        out.append(f" — placement {state.placed + 1}/26: {'Red' if state.side == 0 else 'Green'} places {kind}\n")
    else:
        who = "Red" if state.side == 0 else "Green"
        out.append(f" — turn {state.t}, {who} to move, {state.left} move{'s' if state.left != 1 else ''} left\n")
    if variant == "cards":
        card = state.card if state.card is not None else "?"
        p0, p1 = state.piles
        out.append(f"revealed card: {card}   piles: Red {len(p0)} cards, Green {len(p1)} cards\n")
    for r in range(11, 0, -1):
        cells = ROW_CELLS[r]
        first_col = cells[0] % 12
        indent = 4 * first_col - 2 * r + 10
        out.append(f"{ROWS[r - 1]} {NAME[cells[0]]:>3} ", style="cyan")
        out.append(" " * indent)
        for i, b in enumerate(cells):
            code = state.board[b]
            out.append(LETTERS[code] if code else "·", style=_STYLE[code])
            if i + 1 < len(cells):
                out.append("   ")
        out.append(f"  {NAME[cells[-1]]}", style="cyan")
        out.append("\n")
    return out
