// Tic-tac-toe board: draws the structured view (view.py) and sends the picked cell.
import { el, svgRoot } from "/svg.js";

export function render(box, ctx) {
  const { board, choices } = ctx.struct;
  const S = 90, M = 30;
  const size = 2 * M + 3 * S;
  const svg = svgRoot(box, size, size, "Tic-tac-toe board", 420);
  el("rect", { x: 0, y: 0, width: size, height: size, rx: 10, fill: ctx.palette.background || "#f7f3ea" }, svg);
  const ink = ctx.palette.lines || "#333";
  for (let i = 1; i < 3; i++) {
    el("line", { x1: M + i * S, y1: M, x2: M + i * S, y2: M + 3 * S, stroke: ink, "stroke-width": 4 }, svg);
    el("line", { x1: M, y1: M + i * S, x2: M + 3 * S, y2: M + i * S, stroke: ink, "stroke-width": 4 }, svg);
  }
  const pick = new Map(((choices && choices.cells) || []).map((c) => [c.cell, c.action]));
  const recent = new Set(ctx.struct.recent.flatMap((t) => t.steps.flatMap((s) => s.touched)));
  const win = new Set(board.line || []);
  for (const cell of board.cells) {
    const cx = M + cell.x * S + S / 2, cy = M + (2 - cell.y) * S + S / 2;
    const g = el("g", { "data-cell": cell.id }, svg);
    el("rect", { x: cx - S / 2 + 4, y: cy - S / 2 + 4, width: S - 8, height: S - 8, rx: 8,
      fill: win.has(cell.id) ? "#ffe9a8" : recent.has(cell.id) ? "#e4eefc" : "transparent" }, g);
    if (cell.mark !== null) {
      const seat = ctx.seats[cell.mark] || {};
      el("text", { x: cx, y: cy + 20, "text-anchor": "middle", "font-size": 60, "font-family": "sans-serif",
        "font-weight": 700, fill: seat.colour || ink, text: seat.name || "XO"[cell.mark] }, g);
    }
    if (ctx.interactive && pick.has(cell.id)) {
      g.classList.add("clickable");
      g.addEventListener("click", () => ctx.play(pick.get(cell.id)));
    }
  }
}
