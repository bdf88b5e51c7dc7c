// Slide Checkers board (spec: slide-checkers.md §1, §2, §4, §6).
// Position: "<pieces> <M|P:n0/n1…> <to-move colour> [J:<square>] [nj=…] [passes=…]".
import { el, svgRoot, button } from "/svg.js";

const FILES = "abcdefghijkl";
const SQUARE = { R: "#f3b0a8", O: "#f8cc95", Y: "#f6e79a", G: "#b5dfa6", B: "#a9c8ef", z: "#ddd", p: "#e4dcd0", q: "#d9d2e6", s: "#d4e4e2", t: "#e8d7e2" };
const PIECE = { R: "#c8322b", O: "#e07b12", Y: "#d9b80f", G: "#2f8a3e", B: "#2f64c8" };
const NAMES = { R: "Red", O: "Orange", Y: "Yellow", G: "Green", B: "Blue" };
const DEFAULT = ["G", "B", "R", "Y"];
let ui = { key: null, sel: null, pending: null };
const cache = {};

/** Square classes of board (a, b): a map "x,y" → class letter (spec §2.1). */
export function colouring(a = 1, b = 1) {
  const k = `${a},${b}`;
  if (cache[k]) return cache[k];
  const cls = {};
  const classes = [];
  for (let p = 0; p < 12; p++) for (let q = 0; q < 12; q++) {
    if (cls[`${p},${q}`] !== undefined) continue;
    const members = [];
    let x = p, y = q;
    while (cls[`${x},${y}`] === undefined) {
      cls[`${x},${y}`] = classes.length;
      members.push([x, y]);
      [x, y] = [y, (a * y + b * x) % 12];
    }
    classes.push(members); // (p, q) visited in lexicographic order, so it is the smallest pair
  }
  const majors = "ROYGB", minors = "zpqst";
  let mi = 0, ni = 0;
  const letter = classes.map((m) => (m.length === 24 ? majors[mi++] : minors[ni++]));
  const out = {};
  for (const [key, i] of Object.entries(cls)) out[key] = letter[i];
  cache[k] = out;
  return out;
}

function seatColours(options) {
  const n = Number(options?.players ?? 2);
  let c = options?.colours;
  if (Array.isArray(c)) c = c.join("");
  return c ? [...c] : DEFAULT.slice(0, n);
}

// badge colours of a seat in the move list: its square colour, text that reads on it
export function seatColour(i, options) {
  const c = seatColours(options)[i];
  return PIECE[c] ? { background: PIECE[c], color: c === "Y" ? "#222" : "#fff" } : null;
}

export function seatName(i, options) {
  const c = seatColours(options)[i];
  return c ? NAMES[c] || c : `Seat ${i}`;
}

export function parse(text) {
  const parts = text.trim().split(/\s+/);
  const pieces = {};
  if (parts[0] !== "-") for (const t of parts[0].split(",")) pieces[t.slice(1)] = t[0];
  const phase = parts[1];
  let jump = null;
  for (const p of parts.slice(3)) if (p.startsWith("J:")) jump = p.slice(2);
  return { pieces, placing: phase.startsWith("P"), toPlace: phase.startsWith("P") ? phase.slice(2).split("/").map(Number) : null, mover: parts[2], jump };
}

export function render(box, ctx) {
  const pos = parse(ctx.position);
  const key = ctx.position + "|" + ctx.legal.join(",");
  if (ui.key !== key) ui = { key, sel: pos.jump, pending: null };
  const board = ctx.options?.board || [1, 1];
  const colours = colouring(Number(board[0]), Number(board[1]));
  // parse legal actions into {text, from, to, jump, kind}
  const acts = [];
  for (const m of ctx.legal) {
    let r;
    if ((r = /^@([a-l]\d+)$/.exec(m))) acts.push({ text: m, from: null, to: r[1], place: true });
    else if ((r = /^([a-l]\d+)-([a-l]\d+)$/.exec(m))) acts.push({ text: m, from: r[1], to: r[2] });
    else if ((r = /^([a-l]\d+)(?:>([a-l]\d+))?\*([a-l]\d+)([re])$/.exec(m))) acts.push({ text: m, from: r[1], launch: r[2] || null, to: r[3], jump: r[4] });
    else if ((r = /^\*([a-l]\d+)([re])$/.exec(m))) acts.push({ text: m, from: pos.jump, to: r[1], jump: r[2] });
  }
  const sources = new Set(acts.filter((a) => a.from).map((a) => a.from));
  const S = 44, M = 26;
  const size = 2 * M + 12 * S;
  const svg = svgRoot(box, size, size, "Slide Checkers board", 640);
  const px = (x) => M + x * S, py = (y) => M + (11 - y) * S;
  const sq = (name) => [FILES.indexOf(name[0]), Number(name.slice(1)) - 1];
  const dests = new Map();
  if (!ui.pending) {
    for (const a of acts) {
      if (a.place || (ui.sel && a.from === ui.sel)) {
        if (!dests.has(a.to)) dests.set(a.to, []);
        dests.get(a.to).push(a);
      }
    }
  }
  const labels = el("g", { fill: "#7a6440", "font-size": 12, "text-anchor": "middle", "font-family": "sans-serif" }, svg);
  for (let x = 0; x < 12; x++) el("text", { x: px(x) + S / 2, y: size - 8, text: FILES[x] }, labels);
  for (let y = 0; y < 12; y++) el("text", { x: 12, y: py(y) + S / 2 + 4, text: String(y + 1) }, labels);
  const lm = ctx.lastMove ? ctx.lastMove.match(/[a-l]\d+/g) || [] : [];
  const jumped = new Set();
  if (ui.pending) for (const a of ui.pending) {
    const [lx, ly] = sq(a.launch || a.from), [tx, ty] = sq(a.to);
    jumped.add(FILES[(lx + tx) / 2] + ((ly + ty) / 2 + 1));
  }
  for (let x = 0; x < 12; x++) for (let y = 0; y < 12; y++) {
    const name = FILES[x] + (y + 1);
    const c = colours[`${x},${y}`];
    const g = el("g", { "data-square": name }, svg);
    el("rect", { x: px(x), y: py(y), width: S, height: S, fill: SQUARE[c], stroke: lm.includes(name) ? "#4a90d9" : "#fff", "stroke-width": lm.includes(name) ? 3 : 1 }, g);
    el("text", { x: px(x) + 4, y: py(y) + 11, "font-size": 9, fill: "#0006", "font-family": "sans-serif", text: c }, g);
    const p = pos.pieces[name];
    if (p) {
      el("circle", { cx: px(x) + S / 2, cy: py(y) + S / 2, r: S * 0.36, fill: PIECE[p] || "#555", stroke: ui.sel === name ? "#f2b134" : "#fff",
        "stroke-width": ui.sel === name ? 5 : 2.5, class: jumped.has(name) ? "capt" : null }, g);
    }
    if (ui.pending && ui.pending.some((a) => a.to === name)) el("rect", { x: px(x) + 3, y: py(y) + 3, width: S - 6, height: S - 6, fill: "none", stroke: "#d6342c", "stroke-width": 4 }, g);
    if (dests.has(name)) {
      const isJump = dests.get(name).some((a) => a.jump);
      el("circle", { cx: px(x) + S / 2, cy: py(y) + S / 2, r: S * 0.17, class: "dest", style: isJump ? "fill: #d6342c" : null }, g);
    }
    if (ctx.interactive && (dests.has(name) || sources.has(name))) {
      g.setAttribute("class", "clickable");
      g.addEventListener("click", () => click(name));
    }
  }
  const redraw = () => { box.replaceChildren(); ctx.controls.replaceChildren(); render(box, ctx); };
  function click(name) {
    if (dests.has(name)) {
      const opts = dests.get(name);
      if (opts.length === 1) ctx.play(opts[0].text);
      else { ui.pending = opts; redraw(); }
      return;
    }
    if (sources.has(name) && !pos.jump) { ui.sel = ui.sel === name ? null : name; redraw(); }
  }
  const info = document.createElement("span");
  info.className = "info";
  const mover = NAMES[pos.mover] || pos.mover;
  if (ctx.over) info.textContent = "";
  else if (pos.placing) info.textContent = `Placement: ${mover} places a piece (left to place: ${pos.toPlace.join(" / ")}).`;
  else if (pos.jump) info.textContent = `${mover} must jump on with the piece on ${pos.jump}.`;
  else info.textContent = `${mover} to move` + (ctx.interactive ? (ui.sel ? ": gold = step or slide, red = jump." : ": click a piece.") : ".");
  ctx.controls.append(info);
  if (ctx.interactive && ui.pending) {
    for (const a of ui.pending) {
      const via = a.launch ? ` via ${a.launch}` : "";
      const b = button(ctx.controls, `${a.jump === "r" ? "Remove" : "Exchange"} the jumped piece${via}`, () => ctx.play(a.text), "primary");
      b.dataset.choice = a.text;
    }
    button(ctx.controls, "Cancel", () => { ui.pending = null; redraw(); });
  }
  if (ctx.interactive && ctx.legal.includes("pass")) button(ctx.controls, "Pass", () => ctx.play("pass"), "primary").id = "pass";
}
