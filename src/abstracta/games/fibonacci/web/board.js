// Fibonacci board (spec: fibonacci.md §1, §2, §7, §9). Position: "<rows k→a> <R|G> <left> <t> [piles…]" or "<rows> R P<k>" (Go placement).
import { el, svgRoot, button, hexPoints } from "/svg.js";

const ROWS = "abcdefghijk";
let ui = { key: null, sel: null };

export function seatName(i) { return i === 0 ? "Red" : "Green"; }
export function seatColour(i) { return i === 0 ? { background: "#c8322b", color: "#fff" } : { background: "#2f8a3e", color: "#fff" }; }

export function parse(text) {
  const parts = text.trim().split(/\s+/);
  const rowStrs = parts[0].split("/");
  const board = {};
  const cells = [];
  rowStrs.forEach((row, i) => {
    const r = 11 - i;
    let c = Math.max(1, r - 5);
    const re = /(\d+)|([CASPcas.])/g;
    let m;
    while ((m = re.exec(row))) {
      if (m[1]) { for (let k = 0; k < Number(m[1]); k++) { cells.push(ROWS[r - 1] + c); board[ROWS[r - 1] + c] = "."; c++; } }
      else { cells.push(ROWS[r - 1] + c); board[ROWS[r - 1] + c] = m[2]; c++; }
    }
  });
  const side = parts[1];
  const placing = parts[2] && parts[2].startsWith("P") ? Number(parts[2].slice(1)) : null;
  const left = placing === null ? Number(parts[2]) : null;
  const turn = placing === null ? Number(parts[3]) : null;
  const piles = placing === null && parts.length > 4 ? [parts[4], parts[5]] : null;
  return { board, cells, side, placing, left, turn, piles };
}

const rc = (name) => [ROWS.indexOf(name[0]) + 1, Number(name.slice(1))];
const NB = [[0, 1], [1, 1], [1, 0], [0, -1], [-1, -1], [-1, 0]];

function group(board, start) {
  const piece = board[start];
  const seen = new Set([start]);
  const todo = [start];
  while (todo.length) {
    const [r, c] = rc(todo.pop());
    for (const [dr, dc] of NB) {
      const n = (ROWS[r + dr - 1] || "?") + (c + dc);
      if (board[n] === piece && !seen.has(n)) { seen.add(n); todo.push(n); }
    }
  }
  return seen;
}

export function render(box, ctx) {
  const pos = parse(ctx.position);
  const key = ctx.position + "|" + ctx.legal.join(",");
  if (ui.key !== key) ui = { key, sel: null };
  const moves = ctx.legal.map((m) => /^([a-k]\d+)-([a-k]\d+)$/.exec(m)).filter(Boolean).map((m) => ({ text: m[0], from: m[1], to: m[2] }));
  const places = new Map(ctx.legal.map((m) => /^([CAS])@([a-k]\d+)$/.exec(m)).filter(Boolean).map((m) => [m[2], m[0]]));
  const sources = new Set(moves.map((m) => m.from));
  const R = 25, DX = R * Math.sqrt(3);
  const px = (n) => { const [r, c] = rc(n); return 30 + (c - r / 2 + 2) * DX + R; };
  const py = (n) => { const [r] = rc(n); return 30 + (11 - r) * DX * 0.866 + R; };
  const W = 60 + 10 * DX + 2 * R + 10, H = 60 + 10 * DX * 0.866 + 2 * R;
  const svg = svgRoot(box, W, H, "Fibonacci board", 640);
  const dests = new Map(moves.filter((m) => m.from === ui.sel).map((m) => [m.to, m.text]));
  const grp = ui.sel ? group(pos.board, ui.sel) : new Set();
  const lm = ctx.lastMove && /^([a-k]\d+)-([a-k]\d+)$/.exec(ctx.lastMove);
  const lastCells = lm ? [lm[1], lm[2]] : (ctx.lastMove && ctx.lastMove.includes("@") ? [ctx.lastMove.split("@")[1]] : []);
  for (const n of pos.cells) {
    const x = px(n), y = py(n);
    const g = el("g", { "data-cell": n }, svg);
    const isDest = dests.has(n) || places.has(n);
    el("polygon", { points: hexPoints(x, y, R), fill: isDest ? "#f6d27a" : (grp.has(n) ? "#cfe3f7" : "#efe6d2"),
      stroke: lastCells.includes(n) ? "#4a90d9" : "#c9bb98", "stroke-width": lastCells.includes(n) ? 3 : 1.2 }, g);
    el("text", { x, y: y + R * 0.78, "text-anchor": "middle", "font-size": 8, fill: "#9a8a66", "font-family": "sans-serif", text: n }, g);
    const p = pos.board[n];
    if (p !== ".") {
      const red = p === p.toUpperCase();
      const fill = red ? "#c8322b" : "#2f8a3e";
      const kind = p.toUpperCase();
      const selected = ui.sel === n;
      const stroke = selected ? "#f2b134" : "#222";
      const sw = selected ? 4 : 1.5;
      if (kind === "A") el("polygon", { points: `${x},${y - R * 0.62} ${x + R * 0.6},${y + R * 0.42} ${x - R * 0.6},${y + R * 0.42}`, fill, stroke, "stroke-width": sw }, g);
      else if (kind === "S") el("circle", { cx: x, cy: y - 2, r: R * 0.45, fill, stroke, "stroke-width": sw, "fill-opacity": 0.75 }, g);
      else {
        // the core: a coloured disc with a dark-ringed light centre carrying a dark "C"
        el("circle", { cx: x, cy: y - 2, r: R * 0.66, fill, stroke, "stroke-width": sw + 0.5 }, g);
        el("circle", { cx: x, cy: y - 2, r: R * 0.34, fill: "#fff", stroke: "#222", "stroke-width": 1.5 }, g);
      }
      el("text", { x, y: kind === "C" ? y + 1.5 : y + 2, "text-anchor": "middle", "font-size": 10, "font-weight": 700,
        fill: kind === "C" ? "#222" : "#fff", "font-family": "sans-serif", "data-piece": kind, text: kind }, g);
      if (dests.has(n)) el("text", { x: x + R * 0.55, y: y - R * 0.4, "font-size": 13, "font-weight": 700, fill: "#7a3b00", text: "⇄" }, g);
    } else if (dests.has(n)) {
      el("circle", { cx: x, cy: y - 2, r: R * 0.22, class: "dest" }, g);
    }
    if (ctx.interactive && (sources.has(n) || dests.has(n) || places.has(n))) {
      g.setAttribute("class", "clickable");
      g.addEventListener("click", () => click(n));
    }
  }
  const redraw = () => { box.replaceChildren(); ctx.controls.replaceChildren(); render(box, ctx); };
  function click(n) {
    if (places.has(n)) { ctx.play(places.get(n)); return; }
    if (dests.has(n)) { ctx.play(dests.get(n)); return; }
    if (sources.has(n)) { ui.sel = ui.sel === n ? null : n; redraw(); }
  }
  const info = document.createElement("span");
  info.className = "info";
  const mover = ctx.seatName(pos.side === "R" ? 0 : 1);
  if (ctx.over) {
    info.textContent = pos.turn ? `Ended in turn ${pos.turn}.` : "";
  } else if (pos.placing !== null) {
    const kinds = ["support", "attacker", "core"];
    const k = pos.placing < 12 ? 0 : pos.placing < 24 ? 1 : 2;
    info.textContent = `Placement ${pos.placing + 1} of 26: ${mover} places a ${kinds[k]} on any empty cell.`;
  } else {
    info.textContent = `Turn ${pos.turn}: ${mover} has ${pos.left} move${pos.left === 1 ? "" : "s"} left` +
      (pos.piles ? ` · cards left: Red ${pos.piles[0] === "?" ? "?" : pos.piles[0] === "-" ? 0 : pos.piles[0].length}, Green ${pos.piles[1] === "?" ? "?" : pos.piles[1] === "-" ? 0 : pos.piles[1].length}` : "") +
      (ctx.interactive ? (ui.sel ? ` · ${ui.sel}'s group can go to the gold cells (⇄ = swap)` : " · click a piece") : "");
  }
  ctx.controls.append(info);
  if (ctx.interactive && ctx.legal.includes("pass")) button(ctx.controls, "Pass (end turn)", () => ctx.play("pass")).id = "pass";
}
