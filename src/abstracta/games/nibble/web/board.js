// Nibble board: draws the structured view (view.py; spec nibble.md §1, §2, §4, §5) and sends
// action strings. Everything drawn comes from ctx.struct: cells and their coordinates, discs,
// which discs are free, which may be taken (choices) and which sets of them one turn may take
// together, the collections with their majorities. No rule is worked out here.
import { el, svgRoot, button, hexPoints } from "/svg.js";

export const css = `
.nibble-board .nb-cell.clickable:hover .nb-disc { filter: brightness(1.12); }
.nibble-board .nb-cell.blocked { cursor: not-allowed; }
.collect-tables { display: grid; gap: .4rem; margin-top: .4rem; }
.collect-tables .ctable .chead { font-size: 13px; color: var(--muted, #6b6558); }
.collect-tables .ctable.tomove .chead { color: var(--ink, #222); font-weight: 600; }
.collect-tables .ccells { display: flex; flex-wrap: wrap; gap: 3px; }
.collect-tables .ccell { font: 12px ui-monospace, monospace; padding: 2px 5px; border-radius: 4px;
  border: 2px solid transparent; min-width: 2.6em; text-align: center; box-sizing: border-box; }
.collect-tables .ccell.major { border-color: #000; font-weight: 700; }
@media (max-width: 480px) {
  .collect-tables .ccell { min-width: 2.3em; padding: 1px 3px; font-size: 11px; }
  .collect-tables .ctable .chead { font-size: 12px; }
}
`;

const INK = { dark: "#333", light: "#fff" };

// UI state (the discs picked for a whole turn) belongs to one position: reset when it changes.
let ui = { key: null, picked: [] };

function keyOf(struct) {
  return [struct.game, struct.to_move, struct.turn.actions.join(","), struct.legal.join(","),
    struct.board.cells.map((c) => c.disc || ".").join("")].join("|");
}

export function render(box, ctx) {
  const { board, choices } = ctx.struct;
  const key = keyOf(ctx.struct);
  if (ui.key !== key) ui = { key, picked: [] };

  // disc colours: the description's palette under the struct's keys (disc.A …)
  const colours = Object.fromEntries(board.colours.map((c) => [c.colour,
    { ...c, fill: (ctx.palette && ctx.palette[c.key]) || "#999", ink: INK[c.ink] || "#fff" }]));
  const groups = ctx.interactive && choices && choices.colours ? choices.colours : [];
  const discAction = new Map(); // cell -> action string of taking that disc now
  const groupOf = new Map(); // cell -> its colour group in choices
  for (const g of groups) for (const d of g.discs) { discAction.set(d.cell, d.action); groupOf.set(d.cell, g); }
  const midTurn = !!(choices && choices.take);

  // --- picking a set of discs for one turn (turn boundary only) -----------------------------
  const nextPick = (cell) => {
    if (ui.picked.includes(cell)) return ui.picked.filter((c) => c !== cell);
    if (ui.picked.length && groupOf.get(ui.picked[0]) !== groupOf.get(cell)) return [cell]; // another colour: start again
    return [...ui.picked, cell];
  };
  // the set of the struct's "together" list that is exactly these cells, or that holds them all
  const setFor = (cells, exact) => {
    if (!cells.length) return null;
    const g = groupOf.get(cells[0]);
    return (g ? g.together : []).find((t) => (!exact || t.cells.length === cells.length) && cells.every((c) => t.cells.includes(c))) || null;
  };
  const fits = (cells) => cells.length <= 1 || !!setFor(cells, false);
  const turnString = () => (ui.picked.length === 1 ? discAction.get(ui.picked[0]) : (setFor(ui.picked, true) || {}).turn);

  // --- geometry: drawing units from the struct's coordinates ---------------------------------
  const hex = board.shape === "hex";
  const R = 26; // half a cell step in SVG units
  const dx = hex ? 2 * R * 0.93 : 2 * R, dy = hex ? dx * 0.866 : 2 * R;
  const cellPad = hex ? R * 1.07 : R, labelPad = 10;
  const ux = (p) => p.x * dx, uy = (p) => -p.y * dy;
  const boxOf = (items, pad) => items.map((p) => [ux(p) - pad, uy(p) - pad, ux(p) + pad, uy(p) + pad]);
  const boxes = [...boxOf(board.cells, cellPad), ...boxOf(board.labels, labelPad)];
  const x0 = Math.min(...boxes.map((b) => b[0])) - 4, y0 = Math.min(...boxes.map((b) => b[1])) - 4;
  const W = Math.max(...boxes.map((b) => b[2])) + 4 - x0, H = Math.max(...boxes.map((b) => b[3])) + 4 - y0;
  const px = (p) => ux(p) - x0, py = (p) => uy(p) - y0;

  const svg = svgRoot(box, W, H, "Nibble board", hex ? 760 : 640);
  svg.classList.add("nibble-board");
  const labels = el("g", { fill: "#7a6440", "font-size": 14, "text-anchor": "middle", "font-family": "sans-serif" }, svg);
  for (const l of board.labels) el("text", { x: px(l), y: py(l) + 4.5, text: l.text }, labels);

  // the opponents' turns since the viewer moved, and the discs taken so far in this turn
  const recent = new Set();
  for (const t of ctx.struct.recent || []) for (const s of t.steps) for (const c of [...s.touched, ...s.removed]) recent.add(c);
  const thisTurn = new Set(ctx.struct.turn.actions);
  let anyBlocked = false, canAdd = false;

  for (const c of board.cells) {
    const cx = px(c), cy = py(c);
    const takeable = discAction.has(c.id);
    const picked = ui.picked.includes(c.id);
    const blocked = takeable && !midTurn && !picked && !fits(nextPick(c.id)); // free, but not with the picked discs
    anyBlocked = anyBlocked || blocked;
    if (takeable && !picked && !blocked && ui.picked.length && groupOf.get(c.id) === groupOf.get(ui.picked[0])) canAdd = true;
    const cls = ["nb-cell"];
    if (takeable && !blocked) cls.push("clickable");
    if (blocked) cls.push("blocked");
    if (picked) cls.push("picked");
    if (c.free) cls.push("free");
    const g = el("g", { "data-cell": c.id, class: cls.join(" ") }, svg);
    if (c.disc) g.dataset.disc = c.disc;
    if (hex) el("polygon", { points: hexPoints(cx, cy, R * 1.07), fill: "#efe6d2", stroke: "#d8ccb0" }, g);
    else el("rect", { x: cx - R, y: cy - R, width: 2 * R, height: 2 * R, fill: "#efe6d2", stroke: "#d8ccb0" }, g);
    if (!c.disc && (recent.has(c.id) || thisTurn.has(c.id))) {
      // where a disc was just taken: a ring (blue for the opponents' turns, dark for this turn)
      g.classList.add("taken");
      el("circle", { cx, cy, r: R * 0.66, fill: "none", stroke: thisTurn.has(c.id) ? "#6b5a3a" : "#3d7fd0",
        "stroke-width": 3, "stroke-dasharray": "4 3" }, g);
    }
    if (c.disc) {
      const col = colours[c.disc] || { fill: "#999", ink: "#fff", name: c.disc };
      // the disc's own edge: white when free (grey on a light disc, where white would vanish)
      const edge = c.free ? (col.ink === INK.dark ? "#8a8a8a" : "#fff") : "#555";
      el("circle", { class: "nb-disc", cx, cy, r: R * 0.74, fill: col.fill, stroke: edge, "stroke-width": c.free ? 2.5 : 1.2,
        opacity: blocked ? 0.35 : null }, g);
      // around it: picked (solid black), may be taken (dashed dark), on the cell's light ground
      if (picked || takeable) {
        el("circle", { class: "nb-ring", cx, cy, r: R * 0.88, fill: "none", stroke: picked ? "#000" : blocked ? "#9a8f78" : "#3b3224",
          "stroke-width": picked ? 4.5 : 2.5, "stroke-dasharray": picked ? null : "5 3.5" }, g);
      }
      el("text", { x: cx, y: cy + 4.5, "text-anchor": "middle", "font-size": 14, "font-family": "sans-serif",
        "font-weight": 600, fill: col.ink, text: c.disc, "pointer-events": "none", opacity: blocked ? 0.5 : null }, g);
      const why = blocked ? ` — cannot be taken together with ${ui.picked.join("+")}` : takeable ? " — may be taken" : c.free ? " — free" : "";
      el("title", { text: `${c.id}: ${col.name} (${c.disc})${why}` }, g);
    }
    if (takeable && !blocked) g.addEventListener("click", () => click(c.id));
  }

  const redraw = () => { box.replaceChildren(); ctx.controls.replaceChildren(); render(box, ctx); };
  function click(cell) {
    if (midTurn) { ctx.play(discAction.get(cell)); return; } // a turn is open: each click takes one more disc
    const next = nextPick(cell);
    if (!fits(next)) return;
    ui.picked = next;
    redraw();
  }

  // --- the two collections (§5: counts, majorities, progress to the instant wins) ------------
  const T = board.targets;
  const tables = document.createElement("div");
  tables.className = "collect-tables";
  for (const coll of board.collections) {
    const row = document.createElement("div");
    row.className = "ctable" + (coll.seat === ctx.struct.to_move ? " tomove" : "");
    row.dataset.seat = coll.seat;
    const head = document.createElement("div");
    head.className = "chead";
    const run = coll.best_run ? ` · best three in a row ${coll.best_run.least}/${T.triple} (${coll.best_run.colours})` : "";
    head.textContent = `${ctx.seatName(coll.seat)}: ${coll.total} ${coll.total === 1 ? "disc" : "discs"} · ` +
      `majorities ${coll.majorities}/${T.majorities}${run} · most of one colour ${coll.most.count}/${T.all}`;
    row.append(head);
    const cells = document.createElement("div");
    cells.className = "ccells";
    for (const x of coll.colours) {
      const col = colours[x.colour];
      const span = document.createElement("span");
      span.className = "ccell" + (x.major ? " major" : "");
      span.dataset.colour = x.colour;
      span.style.background = col.fill;
      span.style.color = col.ink;
      span.title = `${x.colour} (${col.name}): ${x.count} of ${T.all}` + (x.major ? " — a majority" : "");
      span.textContent = `${x.colour} ${x.count}`;
      cells.append(span);
    }
    row.append(cells);
    tables.append(row);
  }
  box.append(tables);

  // --- controls ------------------------------------------------------------------------------
  if (!ctx.interactive || !choices || !choices.colours) return;
  const info = document.createElement("span");
  info.className = "info";
  if (!midTurn) {
    const text = turnString();
    const b = button(ctx.controls, ui.picked.length ? `Take ${text}` : "Take", () => { if (text) ctx.play(text); }, "primary");
    b.id = "take";
    b.disabled = !ui.picked.length || !text;
    info.textContent = !ui.picked.length
      ? "Discs with a dashed ring may be taken: pick one or more of one colour, then take."
      : (canAdd ? "Pick more discs of this colour, or take." : "Take, or pick another disc.") +
        (anyBlocked ? " Faded discs would split the board if taken with these." : "");
  } else {
    const col = colours[choices.take];
    info.textContent = `Taking ${choices.take} (${col ? col.name : ""}): click another ${choices.take} disc or end the turn.`;
  }
  if (choices.end) button(ctx.controls, "End turn", () => ctx.play(choices.end.action)).id = "end-turn";
  ctx.controls.append(info);
}
