// Tic-tac-toe board: draws the structured view (view.py) and sends the picked cell.
import { el, svgRoot } from "/svg.js";

export const keyHelp = "Arrow keys move the cursor, Enter marks the cell.";
let cursor = { x: 1, y: 1 }; // kept across redraws

// The text alternative for screen readers: whose turn, the last move, the result.
export function describe(struct, ctx) {
  const name = (i) => ctx.seatName(i);
  const parts = [];
  for (const turn of struct.recent) parts.push(`${name(turn.seat)} marked ${turn.actions.join(", ")}.`);
  if (struct.over) parts.push(struct.end ? struct.end.text + "." : "Game over.");
  else if (struct.to_move !== null) parts.push(`${name(struct.to_move)} to move.`);
  const free = (struct.choices && struct.choices.cells) ? struct.choices.cells.map((c) => c.cell) : [];
  if (ctx.interactive && free.length) parts.push(`Empty cells: ${free.join(", ")}.`);
  return parts.join(" ");
}

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
    if (cell.x === cursor.x && cell.y === cursor.y) {
      el("rect", { x: cx - S / 2 + 2, y: cy - S / 2 + 2, width: S - 4, height: S - 4, rx: 8, fill: "none",
        stroke: "#f2b134", "stroke-width": 4, "stroke-dasharray": "8 5", class: "cursor" }, g);
    }
  }
  const at = () => board.cells.find((c) => c.x === cursor.x && c.y === cursor.y);
  ctx.onKey((ev) => {
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (moves[ev.key]) {
      const [dx, dy] = moves[ev.key];
      cursor = { x: Math.min(2, Math.max(0, cursor.x + dx)), y: Math.min(2, Math.max(0, cursor.y + dy)) };
      box.replaceChildren();
      render(box, ctx);
      ctx.say(at().id + (at().mark === null ? ", empty" : `, ${ctx.seats[at().mark].name || "XO"[at().mark]}`));
      return true;
    }
    if ((ev.key === "Enter" || ev.key === " ") && ctx.interactive) {
      if (pick.has(at().id)) ctx.play(pick.get(at().id));
      else ctx.say(`${at().id} is taken`);
      return true;
    }
    return false;
  });
}
