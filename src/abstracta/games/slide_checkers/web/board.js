// Slide Checkers board (spec: slide-checkers.md §1–§5). Draws the structured view of
// games/slide_checkers/view.py (ctx.struct) and sends action strings; it computes no rule:
// square colours, transit squares, targets and jumped pieces all come from the struct.
import { el, svgRoot, button } from "/svg.js";

export const css = `
.sc-board .sc-sq { stroke: #fff; stroke-width: 1; }
.sc-board .sc-recent { fill: none; stroke: #2a6fd1; stroke-width: 3; }
.sc-board .sc-transit { fill: none; stroke: #6b5a2e; stroke-width: 2; stroke-dasharray: 4 3; }
.sc-board .sc-gone { fill: none; stroke: #c8322b; stroke-width: 2.5; stroke-dasharray: 5 4; }
.sc-board .sc-dest { fill: #f2b134; stroke: #7a5a10; stroke-width: 1; }
.sc-board .sc-dest.jump { fill: #d6342c; stroke: #fff; }
.sc-board .sc-pending { fill: none; stroke: #d6342c; stroke-width: 4; }
.sc-board .sc-over { fill: none; stroke: #d6342c; stroke-width: 3.5; }
.sc-board .sc-own { stroke: #fff; stroke-width: 2.5; paint-order: stroke; }
.sc-board .sc-conv { fill: none; stroke: #fff; stroke-width: 2; stroke-dasharray: 3 3; }
.sc-board .sc-piece { stroke: #fff; stroke-width: 2.5; }
.sc-board .sc-piece.sel { stroke: #f2b134; stroke-width: 5; }
.sc-board .sc-piece.chain { stroke: #f2b134; stroke-width: 5; stroke-dasharray: 6 3; }
.sc-board .clickable:hover .sc-sq { filter: brightness(1.07); }
.sc-legend { display: flex; flex-wrap: wrap; gap: .25rem .9rem; justify-content: center; font-size: 13px; color: #6b6558; margin: .35rem 0 0; }
.sc-legend .sc-out { opacity: .55; text-decoration: line-through; }
.sc-legend .sc-chip { display: inline-block; width: .9em; height: .9em; border-radius: 2px; vertical-align: -.1em; margin-right: .3em; border: 1px solid #0003; }
.sc-legend .sc-dot { display: inline-block; width: .8em; height: .8em; border-radius: 50%; vertical-align: -.08em; margin-right: .3em; border: 1px solid #0003; }
`;

// UI state (selected piece, landing square waiting for a choice), kept for one struct only
let ui = { key: null, sel: null, pending: null };

const S = 44, M = 28, T = 6; // square side, label margin (left, bottom), other margins (SVG user units)
const FALLBACK = "#ddd";

function structKey(st) {
  const pieces = st.board.cells.map((c) => (c.piece === null ? "." : c.piece)).join("");
  return `${pieces}|${st.to_move}|${st.legal.join(",")}|${st.turn.actions.join(",")}`;
}

export function render(box, ctx) {
  const st = ctx.struct;
  const { board } = st;
  const choices = st.choices || {};
  const key = structKey(st);
  if (ui.key !== key) {
    // a chain that must go on has one piece: select it; otherwise the person picks
    const only = choices.kind === "continue" ? choices.pieces[0].from : null;
    ui = { key, sel: only, pending: null };
  }
  const redraw = () => { box.replaceChildren(); ctx.controls.replaceChildren(); render(box, ctx); };
  const seat = (i) => ctx.seats[i] || {};
  const name = (i) => (ctx.seatName ? ctx.seatName(i) : seat(i).name || `Seat ${i}`);
  const interactive = !!ctx.interactive;

  // what the viewer may pick
  const placeAt = new Map(choices.kind === "place" ? choices.cells.map((c) => [c.cell, c.action]) : []);
  const pieces = new Map((choices.pieces || []).map((p) => [p.from, p]));
  const selected = ui.sel ? pieces.get(ui.sel) : null;
  const targets = new Map(selected && !ui.pending ? selected.targets.map((t) => [t.to, t]) : []);
  const transit = new Set(selected ? selected.transit : []);
  const pendingOver = new Set(ui.pending ? ui.pending.options.map((o) => o.over).filter(Boolean) : []);

  // what the other seats did since the viewer last moved (every step of their turns)
  const touched = new Set(), removed = new Set(), converted = new Set();
  for (const turn of st.recent || []) for (const s of turn.steps) {
    s.touched.forEach((c) => touched.add(c));
    s.removed.forEach((c) => removed.add(c));
    (s.converted || []).forEach((c) => converted.add(c));
  }

  const width = M + board.files.length * S + T, height = T + board.ranks * S + M;
  const svg = svgRoot(box, width, height, "Slide Checkers board", 640);
  svg.classList.add("sc-board");
  const px = (x) => M + x * S, py = (y) => T + (board.ranks - 1 - y) * S;
  const labels = el("g", { fill: "#7a6440", "font-size": 16, "text-anchor": "middle", "font-family": "sans-serif" }, svg);
  for (let x = 0; x < board.files.length; x++) el("text", { x: px(x) + S / 2, y: height - 8, text: board.files[x] }, labels);
  for (let y = 0; y < board.ranks; y++) el("text", { x: M / 2, y: py(y) + S / 2 + 6, text: String(y + 1) }, labels);

  for (const c of board.cells) {
    const x0 = px(c.x), y0 = py(c.y), cx = x0 + S / 2, cy = y0 + S / 2;
    const g = el("g", { "data-square": c.id, "data-colour": c.colour }, svg);
    el("rect", { x: x0, y: y0, width: S, height: S, class: "sc-sq", fill: ctx.palette[`square.${c.colour}`] || FALLBACK }, g);
    // class letter; a seat's own squares show it in that seat's colour
    el("text", { x: x0 + 4, y: y0 + 12, "font-size": 10, "font-family": "sans-serif", "font-weight": c.friend === null ? 400 : 700,
      fill: c.friend === null ? "#0007" : seat(c.friend).colour || "#000", class: c.friend === null ? null : "sc-own", text: c.colour }, g);
    if (touched.has(c.id)) el("rect", { x: x0 + 2, y: y0 + 2, width: S - 4, height: S - 4, class: "sc-recent" }, g);
    if (transit.has(c.id)) el("rect", { x: x0 + 5, y: y0 + 5, width: S - 10, height: S - 10, rx: 3, class: "sc-transit" }, g);
    if (c.piece !== null) {
      const cls = ["sc-piece", ui.sel === c.id ? (choices.kind === "continue" ? "chain" : "sel") : ""].join(" ").trim();
      el("circle", { cx, cy, r: S * 0.36, fill: seat(c.piece).colour || "#555", class: cls, "data-piece": c.piece }, g);
      if (converted.has(c.id)) el("circle", { cx, cy, r: S * 0.22, class: "sc-conv" }, g); // exchanged (§4.3 e)
      if (pendingOver.has(c.id)) el("circle", { cx, cy, r: S * 0.44, class: "sc-over" }, g);
    } else if (removed.has(c.id)) {
      el("circle", { cx, cy, r: S * 0.32, class: "sc-gone" }, g);
    }
    if (ui.pending && ui.pending.to === c.id) el("rect", { x: x0 + 3, y: y0 + 3, width: S - 6, height: S - 6, class: "sc-pending" }, g);
    const t = targets.get(c.id);
    if (interactive && (t || placeAt.has(c.id))) { // only the person who may pick sees the picks
      const jump = !!(t && t.options[0].capture);
      el("circle", { cx, cy, r: S * (jump ? 0.18 : 0.15), class: jump ? "sc-dest jump" : "sc-dest" }, g);
    }
    if (interactive && (t || placeAt.has(c.id) || (pieces.has(c.id) && choices.kind !== "continue"))) {
      g.classList.add("clickable");
      g.addEventListener("click", () => pick(c.id));
    }
  }

  function pick(id) {
    if (placeAt.has(id)) return ctx.play(placeAt.get(id));
    const t = targets.get(id); // a launched jump may land back on the selected piece's square
    if (t) {
      if (t.options.length === 1) return ctx.play(t.options[0].action);
      ui.pending = t;
      return redraw();
    }
    if (pieces.has(id)) {
      ui.sel = ui.sel === id ? null : id;
      ui.pending = null;
      redraw();
    }
  }

  legend(box, ctx, st, name);
  controls(ctx, st, choices, name, selected, redraw);
}

// Whose squares are which colour, and the counts of §5.
function legend(box, ctx, st, name) {
  const board = st.board;
  const out = new Set((st.eliminated || []).map((e) => e.seat));
  const div = document.createElement("div");
  div.className = "sc-legend";
  for (const cls of board.classes) {
    if (cls.seat === null) continue;
    const item = document.createElement("span");
    const chip = document.createElement("span");
    chip.className = "sc-chip";
    chip.style.background = ctx.palette[`square.${cls.colour}`] || FALLBACK;
    const dot = document.createElement("span");
    dot.className = "sc-dot";
    dot.style.background = (ctx.seats[cls.seat] || {}).colour || "#555";
    const left = board.phase === "placement" ? ` + ${board.to_place[cls.seat]} to place` : "";
    item.append(dot, chip, `${name(cls.seat)}: ${out.has(cls.seat) ? "out" : board.pieces[cls.seat] + left}`);
    if (out.has(cls.seat)) item.className = "sc-out";
    div.append(item);
  }
  if (board.phase === "movement" && board.no_jump > 0) {
    const item = document.createElement("span");
    item.textContent = `${board.no_jump} of ${board.no_jump_limit} turns without a jump`;
    div.append(item);
  }
  box.append(div);
}

function controls(ctx, st, choices, name, selected, redraw) {
  const info = document.createElement("span");
  info.className = "info";
  const mover = st.to_move;
  const pickable = ctx.interactive;
  let text = "";
  if (st.over || mover === null) text = "";
  else if (pickable && ui.pending) text = "Remove the jumped piece, or exchange it for one of yours:";
  else if (st.board.phase === "placement") text = `${name(mover)} places a piece on one of their squares.`;
  else if (st.board.jump_from) text = `${name(mover)} must jump on with the piece on ${st.board.jump_from}.`;
  else if (!pickable) text = `${name(mover)} to move.`;
  else if (choices.kind === "jump") text = selected ? "Red: jump (dashed: squares to launch from)." : "A jump is compulsory: pick a piece that can jump.";
  else if (choices.kind === "move") text = selected ? "Gold: step or slide (dashed: slide squares)." : "Pick a piece.";
  else if (choices.kind === "pass") text = "No piece can move.";
  info.textContent = text;
  ctx.controls.append(info);
  if (!ctx.interactive) return;
  if (ui.pending) {
    for (const o of ui.pending.options) {
      const via = o.via ? ` (from ${o.via})` : "";
      const what = o.capture === "remove" ? "Remove" : "Exchange";
      const b = button(ctx.controls, `${what} the piece on ${o.over}${via}`, () => ctx.play(o.action), "primary");
      b.dataset.choice = o.action;
    }
    button(ctx.controls, "Cancel", () => { ui.pending = null; redraw(); });
  }
  if (choices.kind === "pass") button(ctx.controls, "Pass", () => ctx.play(choices.action), "primary").id = "pass";
}
