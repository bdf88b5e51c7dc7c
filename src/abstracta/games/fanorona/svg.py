"""Fanorona diagrams as SVG (Spec: fanorona.md §1 board and lines, §3 captures).

Drawn from the structured view (:meth:`.view.FanoronaView.board_struct`): its points, lines and
stones, with the diagram's arrows (what each action moves and captures, from the engine's
``action_effects``) and ringed points. The palette is the description's, as in the browser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ...core.diagrams import Arrow, Canvas, draw_arrows

if TYPE_CHECKING:  # pragma: no cover
    from .rules import FanoronaState

UNIT = 48.0
MARGIN = 38.0


def diagram(state: "FanoronaState", arrows: Sequence[Arrow] = (), marks: Sequence[str] = (),
            viewer: int | None = None, title: str = "") -> str:
    """``state`` as an SVG diagram: lines, strong points, stones (White light, Black dark),
    file letters under the board and rank numbers beside it, then ``arrows`` and ``marks``.
    Perfect information: ``viewer`` changes nothing."""
    board = state.board_struct(None)
    desc = state.game.description
    palette = desc.board
    seats = desc.seats
    width, height = board["width"], board["height"]
    canvas = Canvas(2 * MARGIN + (width - 1) * UNIT, 2 * MARGIN + (height - 1) * UNIT)
    pos = {p["id"]: (MARGIN + p["x"] * UNIT, MARGIN + (height - 1 - p["y"]) * UNIT) for p in board["points"]}
    canvas.add("rect", x=0, y=0, width=canvas.width, height=canvas.height, rx=8,
               fill=palette.get("background", "#e9d8b0"))
    for a, b in board["lines"]:
        (x1, y1), (x2, y2) = pos[a], pos[b]
        canvas.add("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=palette.get("lines", "#7a6440"), stroke_width=2)
    for i, letter in enumerate(board["files"]):
        canvas.text(MARGIN + i * UNIT, canvas.height - MARGIN * 0.38, letter, 13, "#5a4a2e")
    for y in range(height):
        canvas.text(MARGIN * 0.38, MARGIN + (height - 1 - y) * UNIT, str(y + 1), 13, "#5a4a2e")
    for p in board["points"]:
        x, y = pos[p["id"]]
        if p["stone"] is None:
            canvas.add("circle", cx=x, cy=y, r=3.5 if p["strong"] else 2.5, fill=palette.get("lines", "#7a6440"))
            continue
        seat = seats[p["stone"]]
        canvas.add("circle", cx=x, cy=y, r=UNIT * 0.34, fill=seat.colour, stroke="#222", stroke_width=1.5)
    for cell in marks:
        canvas.ring(*pos[cell], UNIT * 0.44)
    draw_arrows(canvas, arrows, pos.__getitem__, UNIT)
    return canvas.svg(title)
