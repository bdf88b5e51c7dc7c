"""Text board of a Fanorona position, as a ``rich.text.Text`` (Spec: fanorona.md §1–§2 diagram).

Stones are the letters ``W`` and ``B`` (readable without colour); lines are drawn as in the
spec's diagram (``-``, ``|``, and ``\\`` / ``/`` for the diagonals through strong points).
During a capture chain the capturing stone is shown in reverse video and the points it has
already visited this turn as ``o``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from .geometry import DIR_NAMES

if TYPE_CHECKING:
    from .rules import FanoronaState

STONE_STYLE = {"W": "bold white", "B": "bold red"}
LINE_STYLE = "dim"


def render(state: "FanoronaState", player: int | None = None) -> Text:
    """The board with rank numbers on the left and file letters below, then a status line.

    ``player`` is accepted for the spine's signature; Fanorona has no hidden information."""
    g = state.game.geometry  # type: ignore[attr-defined]
    white, black = state.bitboards()
    chain = state.chain()
    chain_point = chain[0] if chain else -1
    visited = set(chain[2][:-1]) if chain else set()
    out = Text()
    for y in range(g.height - 1, -1, -1):
        out.append(f"{y + 1}  ", style="bold")
        for x in range(g.width):
            p = g.point(x, y)
            if white >> p & 1:
                style = STONE_STYLE["W"] + (" reverse" if p == chain_point else "")
                out.append("W", style=style)
            elif black >> p & 1:
                style = STONE_STYLE["B"] + (" reverse" if p == chain_point else "")
                out.append("B", style=style)
            elif p in visited:
                out.append("o", style="yellow")
            else:
                out.append(".")
            if x < g.width - 1:
                out.append("-", style=LINE_STYLE)
        out.append("\n")
        if y > 0:
            out.append("   ")
            lower = y - 1
            for x in range(g.width):
                out.append("|", style=LINE_STYLE)
                if x < g.width - 1:
                    out.append("/" if (x + lower) % 2 == 0 else "\\", style=LINE_STYLE)
            out.append("\n")
    out.append("   " + " ".join(chr(ord("a") + x) for x in range(g.width)) + "\n", style="bold")
    out.append(_status(state, white, black, chain))
    return out


def _status(state: "FanoronaState", white: int, black: int, chain) -> str:
    g = state.game.geometry  # type: ignore[attr-defined]
    counts = f"White {white.bit_count()}, Black {black.bit_count()} stones"
    if state.is_terminal():
        r = state.returns()
        verdict = "draw" if r[0] == r[1] else ("White wins" if r[0] > 0 else "Black wins")
        return f"Game over: {verdict} ({counts})"
    mover = "White" if state.side == 0 else "Black"
    line = f"{mover} to move ({counts})"
    if chain:
        point, last, visited = chain
        line += (f"; capture chain of {g.names[point]} (last step {DIR_NAMES[last]}, visited "
                 f"{', '.join(g.names[p] for p in visited)}): continue or end")
    if state.no_progress:
        n = state.no_progress
        line += f"; {n} turn{'s' if n != 1 else ''} without capture"
    return line
