// Fanorona board (spec: fanorona.md §1, §3, §5). Position text: "<rows top→bottom> <W|B> [chain=P:D:visited] …".
import { el, svgRoot, button } from "/svg.js";

const FILES = "abcdefghi";
let ui = { key: null, sel: null, pending: null };

export function seatName(i) { return i === 0 ? "White" : "Black"; }

export function parse(text) {
  const parts = text.trim().split(/\s+/);
  const rows = parts[0].split("/");
  const H = rows.length, W = rows[0].length;
  const board = {};
  rows.forEach((row, r) => [...row].forEach((ch, x) => { board[FILES[x] + (H - r)] = ch; }));
  let chain = null;
  for (const p of parts.slice(2)) if (p.startsWith("chain=")) chain = p.slice(6).split(":")[0];
  return { W, H, board, side: parts[1], chain };
}

const xy = (name) => [FILES.indexOf(name[0]), parseInt(name.slice(1), 10) - 1];
const nm = (x, y) => FILES[x] + (y + 1);

function captured(pos, from, to, kind) {
  const [fx, fy] = xy(from), [tx, ty] = xy(to);
  const dx = tx - fx, dy = ty - fy;
  const enemy = pos.side === "W" ? "B" : "W";
  let x, y, sx, sy;
  if (kind === "A") { x = tx + dx; y = ty + dy; sx = dx; sy = dy; } else { x = fx - dx; y = fy - dy; sx = -dx; sy = -dy; }
  const out = [];
  while (x >= 0 && y >= 0 && x < pos.W && y < pos.H && pos.board[nm(x, y)] === enemy) { out.push(nm(x, y)); x += sx; y += sy; }
  return out;
}

export function render(box, ctx) {
  const pos = parse(ctx.position);
  const key = ctx.position + "|" + ctx.legal.join(",");
  if (ui.key !== key) ui = { key, sel: pos.chain, pending: null };
  const moves = ctx.legal.map((m) => /^([a-i]\d)-([a-i]\d)([AW]?)$/.exec(m)).filter(Boolean)
    .map((m) => ({ text: m[0], from: m[1], to: m[2], kind: m[3] }));
  const sources = new Set(moves.map((m) => m.from));
  if (ui.sel && !sources.has(ui.sel)) ui.sel = null;
  if (!ui.sel && sources.size === 1 && pos.chain) ui.sel = [...sources][0];
  const S = 64, M = 46;
  const px = (x) => M + x * S, py = (y) => M + (pos.H - 1 - y) * S;
  const svg = svgRoot(box, 2 * M + (pos.W - 1) * S, 2 * M + (pos.H - 1) * S, "Fanorona board", 120 * pos.W + 80);
  el("rect", { x: 4, y: 4, width: 2 * M + (pos.W - 1) * S - 8, height: 2 * M + (pos.H - 1) * S - 8, rx: 12, fill: "#e9d8b0" }, svg);
  const lines = el("g", { stroke: "#7a6440", "stroke-width": 2.5, "stroke-linecap": "round" }, svg);
  for (let x = 0; x < pos.W; x++) for (let y = 0; y < pos.H; y++) {
    const nbrs = [[1, 0], [0, 1]];
    if ((x + y) % 2 === 0) nbrs.push([1, 1], [1, -1]);
    for (const [dx, dy] of nbrs) {
      const X = x + dx, Y = y + dy;
      if (X < pos.W && Y >= 0 && Y < pos.H) el("line", { x1: px(x), y1: py(y), x2: px(X), y2: py(Y) }, lines);
    }
  }
  const labels = el("g", { fill: "#7a6440", "font-size": 14, "text-anchor": "middle", "font-family": "sans-serif" }, svg);
  for (let x = 0; x < pos.W; x++) el("text", { x: px(x), y: py(0) + S * 0.3 + 18, text: FILES[x] }, labels);
  for (let y = 0; y < pos.H; y++) el("text", { x: px(0) - S * 0.3 - 12, y: py(y) + 5, text: String(y + 1) }, labels);
  if (ctx.lastMove) {
    const m = /^([a-i]\d)-([a-i]\d)/.exec(ctx.lastMove);
    if (m) { const [a, b] = [xy(m[1]), xy(m[2])]; el("line", { x1: px(a[0]), y1: py(a[1]), x2: px(b[0]), y2: py(b[1]), class: "lastmove", "stroke-width": 6, opacity: .6 }, svg); }
  }
  const capSets = {};
  if (ui.pending) for (const m of ui.pending) for (const c of captured(pos, m.from, m.to, m.kind)) capSets[c] = m.kind;
  const dests = new Map();
  if (ui.sel && !ui.pending) for (const m of moves.filter((m) => m.from === ui.sel)) {
    if (!dests.has(m.to)) dests.set(m.to, []);
    dests.get(m.to).push(m);
  }
  for (let x = 0; x < pos.W; x++) for (let y = 0; y < pos.H; y++) {
    const p = nm(x, y), ch = pos.board[p];
    if (ch === "W" || ch === "B") {
      el("circle", { cx: px(x), cy: py(y), r: S * 0.3, fill: ch === "W" ? "#fbf8f0" : "#2a2622", stroke: ch === "W" ? "#555" : "#000", "stroke-width": 2,
        class: (ui.sel === p ? "sel" : "") + (capSets[p] ? " capt" : "") }, svg);
      if (capSets[p]) el("text", { x: px(x), y: py(y) + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: "#d6342c", text: capSets[p] }, svg);
    }
    if (dests.has(p)) el("circle", { cx: px(x), cy: py(y), r: S * 0.17, class: "dest" }, svg);
    if (ctx.interactive && sources.has(p) && ui.sel !== p) el("circle", { cx: px(x), cy: py(y), r: S * 0.34, fill: "none", stroke: "#4a90d9", "stroke-width": 2, "stroke-dasharray": "4 3" }, svg);
  }
  // transparent hit targets, one per point
  for (let x = 0; x < pos.W; x++) for (let y = 0; y < pos.H; y++) {
    const p = nm(x, y);
    const hit = el("circle", { cx: px(x), cy: py(y), r: S * 0.45, fill: "transparent", "data-point": p, class: ctx.interactive ? "clickable" : "" }, svg);
    if (ctx.interactive) hit.addEventListener("click", () => click(p));
  }
  const redraw = () => { box.replaceChildren(); ctx.controls.replaceChildren(); render(box, ctx); };
  function click(p) {
    if (ui.pending) {
      const pick = ui.pending.find((m) => captured(pos, m.from, m.to, m.kind).includes(p));
      if (pick) { ctx.play(pick.text); return; }
      ui.pending = null; redraw(); return;
    }
    if (dests.has(p)) {
      const opts = dests.get(p);
      if (opts.length === 1) ctx.play(opts[0].text);
      else { ui.pending = opts; redraw(); }
      return;
    }
    if (sources.has(p) && !pos.chain) { ui.sel = ui.sel === p ? null : p; redraw(); }
  }
  // controls
  if (ctx.interactive) {
    if (ui.pending) {
      const info = document.createElement("span");
      info.className = "info";
      info.textContent = "Capture which way?";
      ctx.controls.append(info);
      for (const m of ui.pending) {
        const n = captured(pos, m.from, m.to, m.kind).length;
        const b = button(ctx.controls, `${m.kind === "A" ? "Approach" : "Withdrawal"} (takes ${n})`, () => ctx.play(m.text), "primary");
        b.dataset.choice = m.kind;
      }
      button(ctx.controls, "Cancel", () => { ui.pending = null; redraw(); });
    }
    if (ctx.legal.includes("end")) {
      const b = button(ctx.controls, "End turn", () => ctx.play("end"));
      b.id = "end-turn";
    }
    if (pos.chain && !ui.pending) {
      const info = document.createElement("span");
      info.className = "info";
      info.textContent = `Capture again with the stone on ${pos.chain}, or end the turn.`;
      ctx.controls.append(info);
    }
  }
}
