"""Fibonacci card game diagrams as SVG (Spec: fibonacci-cards.md §1 values, §3 plays, §6 table).

Drawn from the structured view (:meth:`.view.FibonacciCardsView.board_struct`) as one seat sees
it: the three piles (a cut-down card lies crosswise, §3.3) with their table values, the stock
face down with its size, the viewer's hand face up and the other hand face down (§8: a hidden
card is never drawn). An arrow goes from the card played to its pile, or from the stock to the
hand for a ``draw``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ...core.diagrams import ARROW, BEFORE, Arrow, Canvas

if TYPE_CHECKING:  # pragma: no cover
    from .rules import FibonacciCardsState

W, H, GAP = 40.0, 56.0, 8.0
SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def diagram(state: "FibonacciCardsState", arrows: Sequence[Arrow] = (), marks: Sequence[str] = (),
            viewer: int | None = None, title: str = "") -> str:
    """``state`` as ``viewer`` sees it (``None``: a spectator, who sees no hand), with the
    ``arrows`` of plays and draws and ringed ``marks`` (card or pile ids)."""
    board = state.board_struct(viewer)
    palette = state.game.description.board
    hands = board["hands"]
    # the viewer's hand at the foot; a spectator (a finished game shows both hands) sees seat 0 there
    mine = next((h for h in hands if h["seat"] == (viewer if viewer is not None else 0)), None)
    other = next((h for h in hands if h is not mine), hands[0])
    widest = max(len(h["cards"]) if h["cards"] is not None else h["size"] for h in hands)
    width = max(5 * (W + GAP) + 3 * GAP, widest * (W + GAP) + 2 * GAP + 24)
    rows = (GAP, GAP + H + 30, GAP + 2 * H + 60)
    canvas = Canvas(width, rows[2] + H + GAP)
    canvas.add("rect", x=0, y=0, width=canvas.width, height=canvas.height, rx=8, fill=palette.get("table", "#2f6b45"))
    spots: dict[str, tuple[float, float]] = {}
    _hand(canvas, other, rows[0], palette, spots)
    for i, pile in enumerate(board["piles"]):
        x = 2 * GAP + i * (W + 2 * GAP)
        canvas.text(x + W / 2, rows[1] - 12, pile["id"], 12, "#fff", "700")
        under = [c for c in pile["cards"][:-1]]
        if pile["cut"] and under:
            _card(canvas, x, rows[1], under[-1], palette)
            _card(canvas, x - (H - W) / 2, rows[1] + (H - W) / 2, pile["cards"][-1], palette, crosswise=True)
        elif pile["cards"]:
            _card(canvas, x, rows[1], pile["cards"][-1], palette)
        # the table value (§1) in a badge on the pile's corner, clear of the arrows below it
        canvas.add("circle", cx=x + W, cy=rows[1], r=10, fill="#fff", stroke="#222")
        canvas.text(x + W, rows[1], str(pile["value"]), 11, "#222", "700")
        spots[pile["id"]] = (x + W / 2, rows[1] + H / 2)
    stock_x = 2 * GAP + 3 * (W + 2 * GAP) + GAP
    if board["stock"]["size"]:
        _back(canvas, stock_x, rows[1])
        canvas.text(stock_x + W / 2, rows[1] + H / 2, str(board["stock"]["size"]), 14, "#fff", "700")
    spots["stock"] = (stock_x + W / 2, rows[1] + H / 2)
    if mine is not None:
        _hand(canvas, mine, rows[2], palette, spots)
    for ident in marks:
        if ident in spots:
            canvas.ring(*spots[ident], W * 0.7)
    # from the card played (or the stock drawn from) to its pile (or the hand), edge to edge
    for arrow in sorted(arrows, key=lambda a: not a.faded):
        ends = [spots[c] for c in (*arrow.removed, *arrow.path) if c in spots]
        if len(ends) >= 2:
            (x1, y1), (x2, y2) = ends[0], ends[-1]
            dy = H / 2 + 3 if y2 < y1 else -(H / 2 + 3)
            canvas.arrow([(x1, y1 - dy), (x2, y2 + dy)], BEFORE if arrow.faded else ARROW, 4, dashed=arrow.faded)
    return canvas.svg(title)


def _hand(canvas: Canvas, hand: dict, y: float, palette: dict, spots: dict) -> None:
    """A hand in a row: its cards face up where this viewer sees them, else backs; its seat
    number at the left."""
    canvas.text(10, y + H / 2, str(hand["seat"] + 1), 14, "#fff", "700")
    cards = hand["cards"]
    for k in range(len(cards) if cards is not None else hand["size"]):
        x = 24 + GAP + k * (W + GAP)
        if cards is None:
            _back(canvas, x, y)
        else:
            _card(canvas, x, y, cards[k], palette)
            spots[cards[k]["card"]] = (x + W / 2, y + H / 2)
    spots[hand["id"]] = (24 + GAP + W / 2, y + H / 2)


def _card(canvas: Canvas, x: float, y: float, card: dict, palette: dict, crosswise: bool = False) -> None:
    """A face-up card: rank and suit (a crosswise card lies on its side)."""
    w, h = (H, W) if crosswise else (W, H)
    ink = palette.get(card["colour"], "#222")
    canvas.add("rect", x=x, y=y, width=w, height=h, rx=4, fill=palette.get("card", "#fffdf7"), stroke="#333")
    rank = "10" if card["rank"] == "T" else card["rank"]
    canvas.text(x + w / 2, y + h / 2 - (0 if crosswise else 8), rank + (" " + SUITS[card["suit"]] if crosswise else ""),
                16, ink, "700")
    if not crosswise:
        canvas.text(x + w / 2, y + h / 2 + 12, SUITS[card["suit"]], 16, ink)


def _back(canvas: Canvas, x: float, y: float) -> None:
    """A card face down."""
    canvas.add("rect", x=x, y=y, width=W, height=H, rx=4, fill="#3b4f8a", stroke="#fff", stroke_width=1.5)
    canvas.add("rect", x=x + 5, y=y + 5, width=W - 10, height=H - 10, rx=2, fill="none", stroke="#8ea2d8")
