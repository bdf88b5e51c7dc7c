"""Terminal picture of a Fibonacci position (Spec: fibonacci.md §1 geometry, §2 letters).

Rows k (top) … a (bottom), each shifted half a cell per row as on the hex board (x = c − r/2);
each row is labelled with its first and last cell name. Red ``C A S``, Green ``c a s``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from .geometry import BIT, COL_OF, NAME, ROW_CELLS, ROW_OF, ROWS
from .notation import LETTERS

if TYPE_CHECKING:
    from .rules import FibonacciState

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
        out.append(f" — turn {state.turn}, {who} to move, {state.left} move{'s' if state.left != 1 else ''} left\n")
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
    out.append("Red (seat 0): ", style="bold red")
    out.append("C core, A attacker, S support\n")  # both on one line are 90 columns
    out.append("Green (seat 1): ", style="bold green")
    out.append("c core, a attacker, s support\n")
    return out


def render_board() -> Text:
    """The empty 91-cell board with every cell's name, rows offset as on the hexagon (§1)."""
    out = Text()
    out.append("Fibonacci board: rows a (bottom) … k (top); columns run parallel to the lower-left edge\n",
               style="bold")
    for r in range(11, 0, -1):
        cells = ROW_CELLS[r]
        indent = 6 * (cells[0] % 12) - 3 * r + 16
        out.append(" " * indent)
        out.append("".join(f"{NAME[b]:^6}" for b in cells), style="cyan")
        out.append("\n")
    return out


def board_svg(cell: float = 36.0, position: "FibonacciState | None" = None) -> str:
    """An SVG drawing of the board (cell centre x = c − r/2, y = r·√3/2, §1), with the pieces of
    ``position`` if given."""
    import math

    rad = cell / math.sqrt(3)
    pts = []
    for b in BIT:
        r, c = ROW_OF[b], COL_OF[b]
        x = (c - r / 2 + 3) * cell
        y = (12 - r) * cell * math.sqrt(3) / 2
        pts.append((b, x, y))
    width = max(p[1] for p in pts) + cell
    height = max(p[2] for p in pts) + cell
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
             f'font-family="sans-serif" font-size="{cell / 4:.0f}">']
    fills = {1: "#c62828", 2: "#e53935", 3: "#ef9a9a", 4: "#2e7d32", 5: "#43a047", 6: "#a5d6a7"}
    for b, x, y in pts:
        corners = " ".join(f"{x + rad * math.cos(math.radians(30 + 60 * k)):.1f},"
                           f"{y + rad * math.sin(math.radians(30 + 60 * k)):.1f}" for k in range(6))
        parts.append(f'<polygon points="{corners}" fill="#f5f0e1" stroke="#555"/>')
        code = position.board[b] if position is not None else 0
        if code:
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{cell * 0.36:.1f}" fill="{fills[code]}"/>')
            parts.append(f'<text x="{x:.1f}" y="{y + cell / 10:.1f}" text-anchor="middle" fill="#fff">'
                         f'{LETTERS[code]}</text>')
        else:
            parts.append(f'<text x="{x:.1f}" y="{y + cell / 10:.1f}" text-anchor="middle" fill="#888">'
                         f'{NAME[b]}</text>')
    parts.append("</svg>")
    return "\n".join(parts)
