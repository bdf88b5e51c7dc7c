// Nibble board (spec: nibble.md §1, §2, §6). Position: "<rows> <to-move> <coll0> <coll1> [take=X]".
import { el, svgRoot, button, hexPoints } from "/svg.js";

export const COLOURS = ["#d7312b", "#f08c1e", "#f2d22e", "#9bd13b", "#2e9e48", "#1fa3a0", "#2f64c8", "#7b45b5",
  "#e86fb0", "#8a5a2b", "#8c8c8c", "#f4f4f4", "#222222"];
const NAMES = ["red", "orange", "yellow", "lime", "green", "teal", "blue", "purple", "pink", "brown", "grey", "white", "black"];
const LETTERS = "ABCDEFGHIJKLM";
const FILES = "abcdefghijklmnopqrstuvwxyz";
let ui = { key: null, picked: [] };

// no seatName: seats have no colour, the app names them "You", "Computer (level N)", "Player N"

export function parse(text) {
  const parts = text.trim().split(/\s+/);
  const rows = parts[0].split("/");
  const cells = []; // {name, letter, x, y} in drawing units
  let hex = false;
  if (rows.length === 15 && rows[0].length === 8 && rows[7].length === 15) {
    hex = true;
    rows.forEach((row, i) => {
      const r = 15 - i; // 1..15
      const c0 = Math.max(1, r - 7);
      [...row].forEach((ch, j) => {
        const c = c0 + j;
        cells.push({ name: FILES[r - 1] + c, letter: ch, x: c - r / 2, y: r });
      });
    });
  } else {
    const n = rows.length;
    rows.forEach((row, i) => [...row].forEach((ch, x) => cells.push({ name: FILES[x] + (n - i), letter: ch, x, y: n - i })));
  }
  const colls = [parts[2], parts[3]].map((c) => c.split("-").map(Number));
  let take = null;
  for (const p of parts.slice(4)) if (p.startsWith("take=")) take = p.slice(5);
  return { hex, cells, toMove: Number(parts[1]), colls, take, k: colls[0].length };
}

export function render(box, ctx) {
  const pos = parse(ctx.position);
  const key = ctx.position + "|" + ctx.legal.join(",");
  if (ui.key !== key) ui = { key, picked: [] };
  const legal = new Set(ctx.legal.filter((m) => m !== "end"));
  const letterOf = Object.fromEntries(pos.cells.map((c) => [c.name, c.letter]));
  const R = 26;
  let W, H, px, py;
  if (pos.hex) {
    const dx = 2 * R * 0.93;
    const xs = pos.cells.map((c) => c.x), minX = Math.min(...xs), maxX = Math.max(...xs);
    px = (c) => 30 + (c.x - minX) * dx + R;
    py = (c) => 30 + (15 - c.y) * dx * 0.866 + R;
    W = 60 + (maxX - minX) * dx + 2 * R; H = 60 + 14 * dx * 0.866 + 2 * R;
  } else {
    const n = Math.round(Math.sqrt(pos.cells.length));
    px = (c) => 34 + c.x * 2 * R + R;
    py = (c) => 20 + (n - c.y) * 2 * R + R;
    W = 48 + n * 2 * R; H = 40 + n * 2 * R + 10;
  }
  const svg = svgRoot(box, W, H, "Nibble board", 720);
  const labels = el("g", { fill: "#7a6440", "font-size": 12, "text-anchor": "middle", "font-family": "sans-serif" }, svg);
  if (!pos.hex) {
    const n = Math.round(Math.sqrt(pos.cells.length));
    for (let x = 0; x < n; x++) el("text", { x: 34 + x * 2 * R + R, y: H - 6, text: FILES[x] }, labels);
    for (let y = 1; y <= n; y++) el("text", { x: 16, y: 20 + (n - y) * 2 * R + R + 4, text: String(y) }, labels);
  }
  const pickedColour = ui.picked.length ? letterOf[ui.picked[0]] : (pos.take || null);
  // the legal whole turns (view.turns) decide which discs may join the picked set: two discs can
  // each be free and still not be takeable together (taking both would split the board)
  const turns = !pos.take && ctx.interactive && ctx.view && Array.isArray(ctx.view.turns) ? ctx.view.turns : null;
  const turnSets = turns ? turns.map((t) => ({ text: t, cells: new Set(t.split("+")) })) : null;
  const fits = (set) => !turnSets || turnSets.some((t) => set.every((c) => t.cells.has(c)));
  const nextPick = (name) => {
    if (ui.picked.includes(name)) return ui.picked.filter((x) => x !== name);
    if (pickedColour && letterOf[name] !== pickedColour) return [name];
    return [...ui.picked, name];
  };
  const pickable = (name) => fits(nextPick(name));
  const justTaken = lastTurnCells(ctx);
  for (const c of pos.cells) {
    const cx = px(c), cy = py(c);
    const blocked = legal.has(c.name) && ctx.interactive && !pickable(c.name); // free, but not with the picked discs
    const free = legal.has(c.name) && !blocked;
    const g = el("g", { "data-cell": c.name, class: free && ctx.interactive ? "clickable" : (blocked ? "blocked" : "") }, svg);
    if (pos.hex) el("polygon", { points: hexPoints(cx, cy, R * 1.07), fill: "#efe6d2", stroke: "#d8ccb0" }, g);
    else el("rect", { x: cx - R, y: cy - R, width: 2 * R, height: 2 * R, fill: "#efe6d2", stroke: "#d8ccb0" }, g);
    if (c.letter === "." && justTaken.has(c.name)) { // the discs of the latest turn: a faint ring where they stood
      g.classList.add("taken");
      el("circle", { cx, cy, r: R * 0.72, fill: "none", stroke: "#9a8660", "stroke-width": 2, "stroke-dasharray": "3 3" }, g);
    }
    if (c.letter !== ".") {
      const idx = LETTERS.indexOf(c.letter);
      const picked = ui.picked.includes(c.name);
      el("circle", { cx, cy, r: R * 0.78, fill: COLOURS[idx], stroke: picked ? "#000" : (free ? "#fff" : "#555"),
        "stroke-width": picked ? 5 : (free ? 4 : 1.2), "stroke-dasharray": free && !picked ? "5 3" : null,
        opacity: blocked ? 0.35 : null }, g);
      if (blocked) el("title", { text: `${c.name} cannot be taken together with ${ui.picked.join("+")}` }, g);
      el("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 12, "font-family": "sans-serif",
        fill: idx === 11 || idx === 2 || idx === 3 ? "#333" : "#fff", text: c.letter }, g);
    }
    if (ctx.interactive && free) g.addEventListener("click", () => click(c.name));
  }
  const redraw = () => { box.replaceChildren(); ctx.controls.replaceChildren(); render(box, ctx); };
  function click(name) {
    if (pos.take) { ctx.play(name); return; } // a turn is open: each click takes one more disc
    const next = nextPick(name);
    if (!fits(next)) return; // drawn greyed out; not clickable anyway
    ui.picked = next;
    redraw();
  }
  // colour tables
  const tables = document.createElement("div");
  tables.className = "collect-tables";
  const n = pos.k === 9 ? 9 : 13, need = pos.k === 9 ? 5 : 7, triple = pos.k === 9 ? 7 : 10;
  pos.colls.forEach((coll, seat) => {
    const row = document.createElement("div");
    row.className = "ctable" + (seat === pos.toMove ? " tomove" : "");
    const majorities = coll.filter((v) => v >= need).length;
    let bestRun = 0;
    for (let i = 0; i + 2 < coll.length; i++) bestRun = Math.max(bestRun, Math.min(coll[i], coll[i + 1], coll[i + 2]));
    const head = document.createElement("div");
    head.className = "chead";
    const total = coll.reduce((a, b) => a + b, 0);
    head.textContent = `${ctx.seatName(seat)}: ${total} ${total === 1 ? "disc" : "discs"} · majorities ${majorities}/${need} · best three-in-a-row ${bestRun}/${triple} · most of one colour ${Math.max(...coll)}/${n}`;
    row.append(head);
    const cells = document.createElement("div");
    cells.className = "ccells";
    coll.forEach((v, i) => {
      const c = document.createElement("span");
      c.className = "ccell" + (v >= need ? " major" : "");
      c.style.background = COLOURS[i];
      c.style.color = i === 11 || i === 2 || i === 3 ? "#333" : "#fff";
      c.title = `${LETTERS[i]} (${NAMES[i]}): ${v} of ${n}`;
      c.textContent = `${LETTERS[i]} ${v}`;
      cells.append(c);
    });
    row.append(cells);
    tables.append(row);
  });
  box.append(tables);
  if (ctx.interactive) {
    if (!pos.take) {
      const order = (a) => pos.cells.findIndex((c) => c.name === a);
      const chosen = () => { // the whole-turn string of the picked set
        const match = turnSets && turnSets.find((t) => t.cells.size === ui.picked.length && ui.picked.every((c) => t.cells.has(c)));
        return match ? match.text : [...ui.picked].sort((a, b) => order(a) - order(b)).join("+");
      };
      const b = button(ctx.controls, ui.picked.length ? `Take ${chosen()}` : "Take", () => ctx.play(chosen()), "primary");
      b.id = "take";
      b.disabled = !ui.picked.length;
      const info = document.createElement("span");
      info.className = "info";
      info.textContent = "Free discs are outlined: pick discs of one colour, then take." +
        (ui.picked.length && turnSets ? " Faded discs would split the board if taken with these." : "");
      ctx.controls.append(info);
    } else {
      const info = document.createElement("span");
      info.className = "info";
      info.textContent = `Taking ${pos.take}: click more ${pos.take} discs or end the turn.`;
      ctx.controls.append(info);
    }
    if (ctx.legal.includes("end")) button(ctx.controls, "End turn", () => ctx.play("end")).id = "end-turn";
  }
}

// Cells whose discs the latest turn took (the run of actions by the last mover), for a faint mark.
function lastTurnCells(ctx) {
  const out = new Set();
  const view = ctx.view;
  if (!view || !view.moves) return out;
  const ply = typeof ctx.ply === "number" ? ctx.ply : view.moves.length;
  const movers = view.movers || [];
  const who = movers[ply - 1];
  for (let i = ply - 1; i >= 0 && movers[i] === who; i--) {
    if (view.moves[i] !== "end") for (const c of view.moves[i].split("+")) out.add(c);
  }
  return out;
}
