"""Fibonacci diagrams as SVG (Spec: fibonacci.md §1 board, §2 pieces, §4 groups, §5 cores).

Drawn from the structured view (:meth:`.view.FibonacciView.board_struct`), as the browser draws
it: attackers are triangles, supports discs, a core a disc with a light centre; pieces of one
group are joined by a band (§4), enemy attackers on a core's ring are outlined in gold (§3),
empty cells carry their names. The card variant's turned-up card is drawn top left (§9.2).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

from ...core.diagrams import Arrow, Canvas, draw_arrows, hex_points

if TYPE_CHECKING:  # pragma: no cover
    from .rules import FibonacciState

STEP = 40.0  # distance between neighbouring cell centres
R = STEP / math.sqrt(3)  # a cell's circumradius


def diagram(state: "FibonacciState", arrows: Sequence[Arrow] = (), marks: Sequence[str] = (),
            viewer: int | None = None, title: str = "") -> str:
    """``state`` as an SVG diagram as ``viewer`` may see it (the card variant's piles are hidden
    from everyone, §10: only the turned-up card shows), with ``arrows`` and ringed ``marks``."""
    board = state.board_struct(viewer)
    desc = state.game.description
    palette, seats = desc.board, desc.seats
    xs = [c["x"] for c in board["cells"]]
    ys = [c["y"] for c in board["cells"]]
    margin = R + 6
    x0, y1 = min(xs), max(ys)
    canvas = Canvas((max(xs) - x0) * STEP + 2 * margin, (y1 - min(ys)) * STEP + 2 * margin)
    pos = {c["id"]: ((c["x"] - x0) * STEP + margin, (y1 - c["y"]) * STEP + margin) for c in board["cells"]}
    threatened = {cell for core in board["cores"] for cell in core["attackers"]}
    winning = set(board["win"]["cells"]) if board.get("win") else set()
    for c in board["cells"]:
        x, y = pos[c["id"]]
        canvas.add("polygon", points=hex_points(x, y, R * 0.98), fill=palette.get("cell", "#efe6d2"),
                   stroke=palette.get("edge", "#b9a987"))
        if c["piece"] is None:
            canvas.text(x, y, c["id"], 9, "#9a8b6a")
    # a group's band under its pieces (§4: same owner and type, connected)
    for group in board["groups"]:
        colour = seats[group["seat"]].colour
        for a, b in group["links"]:
            (xa, ya), (xb, yb) = pos[a], pos[b]
            canvas.add("line", x1=xa, y1=ya, x2=xb, y2=yb, stroke=colour, stroke_opacity=0.35,
                       stroke_width=9 if group["kind"] == "attack" else 6, stroke_linecap="round")
    for cell in sorted(threatened | winning):
        canvas.add("polygon", points=hex_points(*pos[cell], R * 0.86), fill="none",
                   stroke=palette.get("core_ring", "#d9b80f"), stroke_width=3)
    for c in board["cells"]:
        if c["piece"] is not None:
            _piece(canvas, *pos[c["id"]], c["piece"], seats[c["piece"]["seat"]].colour)
    cards = board.get("cards")
    if cards and cards.get("card") is not None:
        canvas.add("rect", x=8, y=8, width=30, height=42, rx=4, fill="#fffdf7", stroke="#555")
        canvas.text(23, 29, str(cards["card"]), 20, "#222", "700")
    for cell in marks:
        canvas.ring(*pos[cell], R * 0.8)
    draw_arrows(canvas, arrows, pos.__getitem__, STEP)
    return canvas.svg(title)


def _piece(canvas: Canvas, x: float, y: float, piece: dict, colour: str) -> None:
    """One piece: an attacker a triangle, a support a disc, a core a disc with a light centre;
    its letter (C, A, S) on it."""
    kind = piece["kind"]
    if kind == "attack":
        canvas.add("polygon", points=f"{x:.1f},{y - R * 0.62:.1f} {x + R * 0.6:.1f},{y + R * 0.42:.1f} "
                                     f"{x - R * 0.6:.1f},{y + R * 0.42:.1f}", fill=colour, stroke="#222", stroke_width=1.5)
    elif kind == "support":
        canvas.add("circle", cx=x, cy=y, r=R * 0.45, fill=colour, fill_opacity=0.75, stroke="#222", stroke_width=1.5)
    else:
        canvas.add("circle", cx=x, cy=y, r=R * 0.66, fill=colour, stroke="#222", stroke_width=2)
        canvas.add("circle", cx=x, cy=y, r=R * 0.34, fill="#fff", stroke="#222", stroke_width=1.5)
    canvas.text(x, y + (1 if kind == "attack" else 0), piece["letter"].upper(), 10, "#222" if kind == "core" else "#fff", "700")
