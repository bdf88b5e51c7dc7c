// Fanorona board: draws the structured view (view.py; spec fanorona.md §1, §3) and sends the
// action strings it lists. Points, lines, stones, the chain, the legal steps and the stones each
// capture would take all come from ctx.struct: nothing here knows a rule.
//
// UX: click a stone (outlined when it may move), then a destination (gold dot). When one step
// both approaches and withdraws, the two lines to take are marked A and W: click a stone of
// one of them or a button under the board. During a chain the capturing stone stays selected
// and "End turn" stops it. The opponents' last turns (struct.recent) are drawn as blue arrows,
// the stones they took as dashed red rings.
import { el, svgRoot, button } from "/svg.js";

export const css = `
svg.fan-board .fan-hit { fill: transparent; }
svg.fan-board .fan-deco { pointer-events: none; }
svg.fan-board .fan-stone { stroke: #3a3128; stroke-width: 2; }
svg.fan-board .fan-stone.fan-sel { stroke: #f2b134; stroke-width: 6; }
svg.fan-board .fan-stone.fan-capt { stroke: #d6342c; stroke-width: 5; }
svg.fan-board .fan-movable { fill: none; stroke: #3d7cc9; stroke-width: 2.5; stroke-dasharray: 5 4; }
svg.fan-board .fan-dest { fill: #f2b134; opacity: .85; }
svg.fan-board .fan-hit.clickable:hover { fill: rgba(242, 177, 52, .22); }
svg.fan-board .fan-recent { stroke: #3d7cc9; stroke-width: 7; stroke-linecap: round; opacity: .55; }
svg.fan-board .fan-recent-from { fill: #3d7cc9; opacity: .45; }
svg.fan-board .fan-gone { fill: rgba(214, 52, 44, .08); stroke: #d6342c; stroke-width: 2.5; stroke-dasharray: 5 4; }
svg.fan-board .fan-trail { fill: none; stroke: #e0861c; stroke-width: 5; stroke-dasharray: 9 6; stroke-linecap: round; opacity: .8; }
svg.fan-board .fan-visited { fill: #f6e6c4; stroke: #e0861c; stroke-width: 3; }
svg.fan-board .fan-tag { font: 700 17px sans-serif; fill: #d6342c; text-anchor: middle; }
.fan-note { align-self: center; font-size: .95rem; }
`;

const S = 64; // distance between points (viewBox units)
const M = 40; // margin around the outer points (top, right)
const L = 50, B = 64; // left and bottom margins: room for the rank and file labels

// UI state of the position on screen; reset when another position arrives (see keyOf).
let ui = { key: null, sel: null, pending: null };

// A content key: the shell may hand over a fresh but equal struct (polling, redraws).
function keyOf(struct) {
  return JSON.stringify([struct.board.points.map((p) => p.stone), struct.legal, struct.turn.actions]);
}

export function render(box, ctx) {
  const struct = ctx.struct;
  const { board, choices } = struct;
  const key = keyOf(struct);
  const moves = ctx.interactive && choices && choices.moves ? choices.moves : [];
  const chainStone = ctx.interactive && choices ? choices.stone : null;
  if (ui.key !== key) ui = { key, sel: chainStone, pending: null };
  const byFrom = new Map(moves.map((m) => [m.from, m.to]));
  if (ui.sel && !byFrom.has(ui.sel)) ui.sel = null;

  const W = board.width, H = board.height;
  const width = L + M + (W - 1) * S, height = M + B + (H - 1) * S;
  const at = new Map(board.points.map((p) => [p.id, [L + p.x * S, M + (H - 1 - p.y) * S]]));
  const svg = svgRoot(box, width, height, "Fanorona board", 110 * W + 80);
  svg.classList.add("fan-board");
  el("rect", { x: 3, y: 3, width: width - 6, height: height - 6, rx: 14, fill: ctx.palette.background || "#e9d8b0" }, svg);
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id: "fan-arrow", viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 3.2, markerHeight: 3.2,
    orient: "auto-start-reverse" }, defs);
  el("path", { d: "M0,0 L10,5 L0,10 z", fill: "#3d7cc9" }, marker);

  // the lines of §1, as the view lists them
  const ink = ctx.palette.lines || "#7a6440";
  const lines = el("g", { stroke: ink, "stroke-width": 2.5, "stroke-linecap": "round", class: "fan-deco" }, svg);
  for (const [a, b] of board.lines) {
    const [x1, y1] = at.get(a), [x2, y2] = at.get(b);
    el("line", { x1, y1, x2, y2 }, lines);
  }
  const labels = el("g", { fill: ink, "font-size": 19, "font-weight": 600, "font-family": "sans-serif", "text-anchor": "middle", class: "fan-deco" }, svg);
  for (let x = 0; x < W; x++) el("text", { x: L + x * S, y: height - 17, text: board.files[x] }, labels);
  for (let y = 0; y < H; y++) el("text", { x: 17, y: M + (H - 1 - y) * S + 7, text: String(y + 1) }, labels);

  // what the opponents did since the viewer last moved: every step's move and captures
  const deco = el("g", { class: "fan-deco" }, svg);
  const gone = new Set();
  for (const turn of struct.recent || []) {
    for (const step of turn.steps) {
      if (step.touched.length === 2) {
        const [x1, y1] = at.get(step.touched[0]), [x2, y2] = at.get(step.touched[1]);
        const f = 0.3 * S / Math.hypot(x2 - x1, y2 - y1); // start outside the from point's ring
        el("circle", { cx: x1, cy: y1, r: S * 0.12, class: "fan-recent-from" }, deco);
        el("line", { x1: x1 + (x2 - x1) * f, y1: y1 + (y2 - y1) * f, x2: x2 - (x2 - x1) * f, y2: y2 - (y2 - y1) * f,
          class: "fan-recent", "marker-end": "url(#fan-arrow)" }, deco);
      }
      for (const p of step.removed) gone.add(p);
    }
  }
  // the chain in progress: the way the capturing stone came (it may not return to those points)
  if (board.chain) {
    const pts = board.chain.visited.map((p) => at.get(p).join(",")).join(" ");
    el("polyline", { points: pts, class: "fan-trail" }, deco);
    for (const p of board.chain.visited.slice(0, -1)) {
      const [cx, cy] = at.get(p);
      el("circle", { cx, cy, r: S * 0.13, class: "fan-visited" }, deco);
    }
  }

  // stones
  const stoneEl = new Map();
  for (const p of board.points) {
    const [cx, cy] = at.get(p.id);
    if (p.stone === null) {
      if (gone.has(p.id)) el("circle", { cx, cy, r: S * 0.3, class: "fan-gone fan-deco", "data-gone": p.id }, svg);
      continue;
    }
    const seat = ctx.seats[p.stone] || {};
    const c = el("circle", { cx, cy, r: S * 0.31, fill: seat.colour || (p.stone ? "#2a2622" : "#fbf8f0"),
      class: "fan-stone fan-deco", "data-stone": p.id, "data-seat": p.stone }, svg);
    if (ui.sel === p.id) c.classList.add("fan-sel");
    stoneEl.set(p.id, c);
  }

  // the stones the pending options would take, tagged A / W
  const takes = new Map(); // point -> option
  if (ui.pending) {
    for (const o of ui.pending) {
      for (const p of o.removes) {
        takes.set(p, o);
        const [cx, cy] = at.get(p);
        if (stoneEl.has(p)) stoneEl.get(p).classList.add("fan-capt");
        el("text", { x: cx, y: cy + 6, class: "fan-tag fan-deco", text: tag(o) }, svg);
      }
    }
  }
  // movable stones and the selected stone's destinations
  const dests = new Map(ui.sel && !ui.pending ? byFrom.get(ui.sel).map((t) => [t.to, t.options]) : []);
  for (const from of byFrom.keys()) {
    if (from === ui.sel || ui.pending) continue;
    const [cx, cy] = at.get(from);
    el("circle", { cx, cy, r: S * 0.39, class: "fan-movable fan-deco" }, svg);
  }
  for (const to of dests.keys()) {
    const [cx, cy] = at.get(to);
    el("circle", { cx, cy, r: S * 0.16, class: "fan-dest fan-deco", "data-dest": to }, svg);
  }

  // hit targets, one per point, on top
  const mark = (options, on) => {
    for (const o of options) for (const p of o.removes) if (stoneEl.has(p)) stoneEl.get(p).classList.toggle("fan-capt", on);
  };
  for (const p of board.points) {
    const [cx, cy] = at.get(p.id);
    const hit = el("circle", { cx, cy, r: S * 0.48, class: "fan-hit", "data-point": p.id }, svg);
    if (!ctx.interactive) continue;
    // a click elsewhere cancels a selection or a pending choice
    const listens = byFrom.has(p.id) || dests.has(p.id) || takes.has(p.id) || ui.sel || ui.pending;
    if (byFrom.has(p.id) || dests.has(p.id) || takes.has(p.id)) hit.classList.add("clickable");
    if (dests.has(p.id)) { // preview what the step would take
      hit.addEventListener("mouseenter", () => mark(dests.get(p.id), true));
      hit.addEventListener("mouseleave", () => mark(dests.get(p.id), false));
    }
    if (listens) hit.addEventListener("click", () => click(p.id));
  }

  const redraw = () => { box.replaceChildren(); ctx.controls.replaceChildren(); render(box, ctx); };
  function click(p) {
    if (ui.pending) {
      if (takes.has(p)) { ctx.play(takes.get(p).action); return; }
      ui.pending = null;
      redraw();
      return;
    }
    if (dests.has(p)) {
      const options = dests.get(p);
      if (options.length === 1) ctx.play(options[0].action);
      else { ui.pending = options; redraw(); }
      return;
    }
    if (chainStone) return; // the capturing stone must go on (or the turn ends)
    ui.sel = byFrom.has(p) && ui.sel !== p ? p : null;
    redraw();
  }

  // controls under the board: notes for everyone, buttons for the player to move
  const note = (text) => { const s = document.createElement("span"); s.className = "info fan-note"; s.textContent = text; ctx.controls.append(s); };
  if (board.vela_phase) note(`Vela: ${ctx.seatName(1)} may not capture yet; ${ctx.seatName(0)} takes one stone per capture.`);
  if (!struct.over && board.no_progress >= board.no_progress_limit - 20) {
    note(`${board.no_progress} turns without a capture (a draw at ${board.no_progress_limit}).`);
  }
  if (!ctx.interactive) return;
  if (ui.pending) {
    note("Capture which way?");
    for (const o of ui.pending) {
      const n = o.removes.length;
      const b = button(ctx.controls, `${o.kind === "approach" ? "Approach" : "Withdrawal"}: takes ${n} (${o.removes.join(" ")})`,
        () => ctx.play(o.action), "primary");
      b.dataset.choice = tag(o);
    }
    button(ctx.controls, "Cancel", () => { ui.pending = null; redraw(); });
  }
  if (choices.end) {
    const b = button(ctx.controls, "End turn", () => ctx.play(choices.end.action));
    b.id = "end-turn";
  }
  if (chainStone && !ui.pending) note(`Capture again with the stone on ${chainStone}, or end the turn.`);
  else if (!ui.pending && !ui.sel && choices.phase === "capture") note("Capturing is compulsory: pick a stone that can capture.");
}

function tag(option) {
  return option.kind === "approach" ? "A" : option.kind === "withdrawal" ? "W" : "";
}
