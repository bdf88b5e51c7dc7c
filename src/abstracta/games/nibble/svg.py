"""Nibble diagrams as SVG (Spec: nibble.md §1 boards, §2 colours, §4 free discs and takes).

Drawn from the structured view (:meth:`.view.NibbleView.board_struct`): every cell with its
disc, coloured by the description's palette and lettered (A, B, …) so that colours need not be
told apart by sight; a free disc (§4 rule 2) has a white edge, as in the browser. Arrows of a
take are rings on the discs it takes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ...core.diagrams import Arrow, Canvas, draw_arrows, hex_points

if TYPE_CHECKING:  # pragma: no cover
    from .rules import NibbleState

R = 22.0  # half a cell step


def diagram(state: "NibbleState", arrows: Sequence[Arrow] = (), marks: Sequence[str] = (),
            viewer: int | None = None, title: str = "") -> str:
    """``state`` as an SVG diagram: cells, discs with their colour letters, coordinate labels,
    then ``arrows`` (a take rings its discs) and ``marks``. Perfect information: ``viewer``
    changes nothing."""
    board = state.board_struct(None)
    palette = state.game.description.board
    hexagonal = board["shape"] == "hex"
    dx = 2 * R * 0.93 if hexagonal else 2 * R
    dy = dx * 0.866 if hexagonal else 2 * R
    pad = R * 1.07 if hexagonal else R
    spots = [(c["x"], c["y"], pad) for c in board["cells"]] + [(lab["x"], lab["y"], 10) for lab in board["labels"]]
    x0 = min(x * dx - p for x, _, p in spots) - 4
    y0 = min(-y * dy - p for _, y, p in spots) - 4
    width = max(x * dx + p for x, _, p in spots) + 4 - x0
    top = max(-y * dy + p for _, y, p in spots) + 4 - y0
    rows = len(board["collections"])
    chip = min(2 * R, (width - 40) / len(board["colours"]))
    canvas = Canvas(width, top + rows * (chip + 8) + 6)

    def at(x: float, y: float) -> tuple[float, float]:
        return x * dx - x0, -y * dy - y0

    pos = {c["id"]: at(c["x"], c["y"]) for c in board["cells"]}
    inks = {c["colour"]: ("#222" if c["ink"] == "dark" else "#fff") for c in board["colours"]}
    for lab in board["labels"]:
        canvas.text(*at(lab["x"], lab["y"]), lab["text"], 13, "#7a6440")
    for c in board["cells"]:
        x, y = pos[c["id"]]
        if hexagonal:
            canvas.add("polygon", points=hex_points(x, y, R * 1.07), fill="#efe6d2", stroke="#d8ccb0")
        else:
            canvas.add("rect", x=x - R, y=y - R, width=2 * R, height=2 * R, fill="#efe6d2", stroke="#d8ccb0")
        if c["disc"]:
            fill = palette.get(f"disc.{c['disc']}", "#999")
            light = inks.get(c["disc"]) == "#222"
            edge = ("#8a8a8a" if light else "#fff") if c["free"] else "#555"
            canvas.add("circle", cx=x, cy=y, r=R * 0.74, fill=fill, stroke=edge, stroke_width=3 if c["free"] else 1.2)
            canvas.text(x, y, c["disc"], 13, inks.get(c["disc"], "#fff"), "600")
    # what each seat holds (§5), one chip per colour with its count; the seat to move bold
    for row, held in enumerate(board["collections"]):
        y = top + row * (chip + 8) + chip / 2 + 4
        mover = state.current_player() == held["seat"] if not state.is_terminal() else False
        canvas.text(14, y, str(held["seat"] + 1), 14, "#222", "700" if mover else None)
        for k, entry in enumerate(held["colours"]):
            x = 34 + k * chip + chip / 2
            canvas.add("circle", cx=x, cy=y, r=chip * 0.44, fill=palette.get(f"disc.{entry['colour']}", "#999"),
                       stroke="#222" if entry["major"] else "#999", stroke_width=2 if entry["major"] else 1)
            canvas.text(x, y, str(entry["count"]), chip * 0.42, inks.get(entry["colour"], "#fff"), "700")
    for cell in marks:
        canvas.ring(*pos[cell], R * 0.92)
    draw_arrows(canvas, arrows, pos.__getitem__, 2 * R)
    return canvas.svg(title)
