"""Slide Checkers diagrams as SVG (Spec: slide-checkers.md §1 board, §2 colours, §4 moves).

Drawn from the structured view (:meth:`.view.SlideCheckersView.board_struct`): the 12×12 squares
in their colour classes (the description's pale palette, each square lettered with its class so
that colours need not be told apart by sight), the pieces in their seats' colours, then the
arrows of moves and jumps along their path (start, launch, landing) with jumped pieces crossed
out (removed) or ringed (exchanged).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ...core.diagrams import Arrow, Canvas, draw_arrows

if TYPE_CHECKING:  # pragma: no cover
    from .rules import SlideCheckersState

S = 34.0  # a square's side
MARGIN = 22.0


def diagram(state: "SlideCheckersState", arrows: Sequence[Arrow] = (), marks: Sequence[str] = (),
            viewer: int | None = None, title: str = "") -> str:
    """``state`` as an SVG diagram with ``arrows`` and ringed ``marks``. Perfect information:
    ``viewer`` changes nothing."""
    board = state.board_struct(None)
    desc = state.game.description
    palette, seats = desc.board, desc.seats
    files, ranks = board["files"], board["ranks"]
    canvas = Canvas(MARGIN + len(files) * S + 6, ranks * S + MARGIN + 6)
    pos = {c["id"]: (MARGIN + c["x"] * S + S / 2, 6 + (ranks - 1 - c["y"]) * S + S / 2) for c in board["cells"]}
    for c in board["cells"]:
        x, y = pos[c["id"]]
        canvas.add("rect", x=x - S / 2, y=y - S / 2, width=S, height=S, fill=palette.get(f"square.{c['colour']}", "#ddd"),
                   stroke="#fff", stroke_width=1)
        canvas.text(x - S * 0.3, y - S * 0.3, c["colour"], 8, "#555")
    for i, letter in enumerate(files):
        canvas.text(MARGIN + i * S + S / 2, canvas.height - MARGIN / 2 + 2, letter, 11, "#555")
    for r in range(ranks):
        canvas.text(MARGIN / 2, 6 + (ranks - 1 - r) * S + S / 2, str(r + 1), 11, "#555")
    for c in board["cells"]:
        if c["piece"] is not None:
            seat = seats[c["piece"]]
            x, y = pos[c["id"]]
            canvas.add("circle", cx=x, cy=y, r=S * 0.34, fill=seat.colour, stroke="#222", stroke_width=1.5)
            canvas.text(x, y, board["seat_colours"][c["piece"]], 11, seat.ink or "#fff", "700")
    for cell in marks:
        canvas.ring(*pos[cell], S * 0.44)
    draw_arrows(canvas, arrows, pos.__getitem__, S)
    return canvas.svg(title)
