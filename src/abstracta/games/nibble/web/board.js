// Nibble board: draws the structured view (view.py; spec nibble.md §1, §2, §4, §5) and sends
// action strings. Everything drawn comes from ctx.struct: cells and their coordinates, discs,
// which discs are free, which may be taken (choices), which sets of them one turn may take
// together and whether a take ends the turn by itself, the collections with their majorities.
// No rule is worked out here.
//
// A turn as people take it: one click (tap, Enter) on a disc takes it and ends the turn
// (["a1", "end"], or "a1" when that take ends the turn by itself). "Add more of this colour"
// switches to picking several discs of one colour, confirmed with "Take a1+a9" (a whole-turn
// string). A click on a cell the view lists no take for says why, by the board (ctx.note, as
// Enter says it). Keyboard: a cursor moved with the arrow keys (keyHelp). What the opponent took
// since the viewer moved is ringed and numbered; discs taken since the last position shown fade
// out where they stood (not with prefers-reduced-motion, not while replaying). On a phone the whole
// board is in sight, as wide as the board box lets it (9×9: cells of 37 CSS px at 390 px, 34 at
// 360): cells of 41 px had made the 9×9 board wider than the screen, and its i-file, corner discs
// that may be taken among them, was hidden behind the edge. Where that makes cells smaller than
// SMALL_CELL_PX (13×13 and the hexagon on a phone), "Larger cells" under the board draws them at
// LARGE_CELL_PX; then the board area scrolls sideways (the page does not) from its left edge, a
// line under it says so, and "Whole board" goes back. Pinch zoom still enlarges too.
import { el, svgRoot, button, hexPoints } from "/svg.js";
import { fmt, t } from "/i18n.js";

// a disc colour's name ("red", from the view) in the reader's language
const colourWord = (name) => (name ? t(`nibble.colour.${name}`, {}, name) : "");
const isYou = (name) => name === t("seat.you");

export const css = `
.nb-wrap { max-width: 100%; }
.nb-wrap.nb-large { contain: inline-size; overflow-x: auto; overflow-y: hidden; -webkit-overflow-scrolling: touch; overscroll-behavior-x: contain; }
.nb-zoomline { display: flex; flex-wrap: wrap; gap: .2rem .6rem; align-items: center; justify-content: center; margin: .3rem 0 0;
  font-size: 13px; color: var(--muted, #6b6558); }
.nb-zoomline button { min-height: 40px; font-size: 13px; padding: .2rem .7rem; }
.boardbox.fit .nb-zoomline { display: none; }
.nibble-board .nb-cell.clickable:hover .nb-disc { filter: brightness(1.12); }
.nibble-board .nb-cell.blocked { cursor: not-allowed; }
.nibble-board .nb-ghost { pointer-events: none; transform-box: fill-box; transform-origin: center;
  animation-name: nb-fade; animation-timing-function: ease-in; animation-fill-mode: both; }
@keyframes nb-fade { from { opacity: 1; transform: scale(1); } to { opacity: 0; transform: scale(.55); } }
@media (prefers-reduced-motion: reduce) { .nibble-board .nb-ghost { display: none; } }
.nibble-board .nb-cursor { display: none; pointer-events: none; }
:focus-visible > .nb-wrap .nb-cursor, :focus > .nb-wrap.kbd .nb-cursor { display: inline; }
.nb-btn { min-height: 40px; min-width: 40px; }
.nb-btn.toggle[aria-pressed="true"] { background: #fff4d6; border-color: #b8860b; box-shadow: inset 0 0 0 2px #f2b134; font-weight: 600; }
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

export const keyHelp = () => t("nibble.board.key_help");

const INK = { dark: "#1a1a1a", light: "#fff" };

// The letters on a disc: white or near-black, whichever stands out more from the disc's colour
// (WCAG contrast; white on orange, green, teal, pink or grey fell below 4.5:1).
function luminance(hex) {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex || "");
  if (!m) return null;
  const h = m[1].length === 3 ? [...m[1]].map((x) => x + x).join("") : m[1];
  const lin = (i) => { const c = parseInt(h.slice(i, i + 2), 16) / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(0) + 0.7152 * lin(2) + 0.0722 * lin(4);
}
function readableInk(fill, fallback) {
  const l = luminance(fill);
  if (l === null) return fallback;
  const dark = luminance(INK.dark);
  return (1.05 / (l + 0.05)) >= ((l + 0.05) / (dark + 0.05)) ? INK.light : INK.dark;
}
const SMALL_CELL_PX = 30; // a board drawn to the box's width with cells narrower than this may be enlarged
const LARGE_CELL_PX = 41; // the cells of an enlarged board (tap targets of at least 40 CSS px)
const STEP_MS = 260, TOTAL_MS = 1300; // fading out taken discs: per step, at most in all

// UI state of one position (the discs picked, "add more" mode): reset when the position changes.
let ui = { key: null, picked: [], adding: false };
// kept across positions: the keyboard cursor, the last live position shown (to know what to
// animate) and the animation running
let cursor = null, sticky = null, keyboard = false;
let large = false; // "Larger cells" chosen; kept across positions and variants
let scrollPos = null; // {variant, left}: an enlarged board area's scroll
let prev = null; // {variant, discs: Map cell -> colour letter}
let anim = null; // {variant, ghosts: [{cell, disc, delay}], dur, start, until}
let animTimer = null;

function keyOf(struct) {
  return [struct.game, struct.to_move, struct.turn.actions.join(","), struct.legal.join(","),
    struct.board.cells.map((c) => c.disc || ".").join("")].join("|");
}

const reducedMotion = () => !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

function finishAnimation() {
  anim = null;
  clearTimeout(animTimer);
  document.querySelectorAll(".nibble-board .nb-ghost").forEach((g) => g.remove());
}

// the cells of the turns since the viewer moved, oldest first, each with its take's number
function recentTakes(struct) {
  const out = [];
  for (const t of struct.recent || []) for (const s of t.steps) for (const c of s.removed) out.push({ cell: c, seat: t.seat });
  return out;
}

// start fading out the discs that left the board since the last live position drawn
function noteChange(struct, live) {
  const board = struct.board;
  const discs = new Map(board.cells.map((c) => [c.id, c.disc]));
  const before = prev;
  prev = live ? { variant: board.variant, discs } : null;
  if (!live || !before || before.variant !== board.variant) return;
  const gone = [], added = [];
  for (const [cell, disc] of discs) {
    const old = before.discs.get(cell);
    if (old && !disc) gone.push(cell);
    else if (disc && !old) added.push(cell);
  }
  if (!gone.length || added.length || reducedMotion()) return; // an undo or a new game: no animation
  // in the order they were taken: the turns since the viewer moved, then this turn, then the rest
  const order = [...recentTakes(struct).map((t) => t.cell), ...struct.turn.actions];
  const ghosts = [];
  const per = Math.min(STEP_MS, TOTAL_MS / gone.length);
  const rank = (c) => { const i = order.lastIndexOf(c); return i < 0 ? order.length : i; };
  gone.sort((a, b) => rank(a) - rank(b));
  gone.forEach((cell, i) => ghosts.push({ cell, disc: before.discs.get(cell), delay: i * per }));
  clearTimeout(animTimer);
  const start = performance.now();
  anim = { variant: board.variant, ghosts, dur: Math.max(120, per), start, until: start + gone.length * per + 40 };
  animTimer = setTimeout(finishAnimation, anim.until - start);
}

export function render(box, ctx) {
  const struct = ctx.struct;
  const { board, choices } = struct;
  const key = keyOf(struct);
  if (ui.key !== key) ui = { key, picked: [], adding: false };
  noteChange(struct, !!ctx.live);

  // disc colours: the description's palette under the struct's keys (disc.A …)
  const colours = Object.fromEntries(board.colours.map((c) => [c.colour,
    { ...c, fill: (ctx.palette && ctx.palette[c.key]) || "#999", light: c.ink === "dark" }]).map(([k, c]) =>
    [k, { ...c, ink: readableInk(c.fill, INK[c.ink] || INK.light) }]));
  const groups = ctx.interactive && choices && choices.colours ? choices.colours : [];
  const discOf = new Map(); // cell -> {cell, action, ends} of taking that disc now
  const groupOf = new Map(); // cell -> its colour group in choices
  for (const g of groups) for (const d of g.discs) { discOf.set(d.cell, d); groupOf.set(d.cell, g); }
  const midTurn = !!(choices && choices.take);
  const byId = new Map(board.cells.map((c) => [c.id, c]));
  if (!cursor || !byId.has(cursor)) {
    const first = groups.length ? groups[0].discs[0].cell : null;
    cursor = first || board.cells[Math.floor(board.cells.length / 2)].id;
    sticky = null;
  }

  // --- picking a set of discs for one turn ("add more of this colour") --------------------------
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
  const fits = (cells) => midTurn ? cells.length <= 1 : cells.length <= 1 || !!setFor(cells, false);
  // what one click sends for one disc: the take and "end", or the take alone when it ends the turn
  const oneDisc = (d) => (d.ends ? d.action : [d.action, "end"]);
  const pickPlay = () => {
    if (ui.picked.length === 1) return oneDisc(discOf.get(ui.picked[0]));
    const t = setFor(ui.picked, true);
    return t ? t.turn : null;
  };
  const pickText = () => (ui.picked.length === 1 ? ui.picked[0] : (setFor(ui.picked, true) || {}).turn);

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

  // the board as wide as the box lets it; cells too small to tap well may be enlarged
  const maxW = hex ? 760 : 640;
  const cs = getComputedStyle(box);
  const room = box.clientWidth - parseFloat(cs.paddingLeft || 0) - parseFloat(cs.paddingRight || 0);
  const enlargeable = room > 0 && Math.min(room, maxW) * dx / W < SMALL_CELL_PX;
  const wrap = document.createElement("div");
  wrap.className = "nb-wrap" + (keyboard ? " kbd" : "") + (enlargeable && large ? " nb-large" : "");
  box.append(wrap);
  const svg = svgRoot(wrap, W, H, t("nibble.board.label"), maxW);
  if (enlargeable && large) {
    const minW = Math.ceil(LARGE_CELL_PX * W / dx);
    svg.style.minWidth = `${minW}px`;
    svg.style.maxHeight = `max(75vh, ${Math.ceil(minW * H / W)}px)`;
    wrap.addEventListener("scroll", () => { scrollPos = { variant: board.variant, left: wrap.scrollLeft }; });
  }
  svg.classList.add("nibble-board");
  wrap.addEventListener("pointerdown", () => {
    if (anim) finishAnimation(); // a click during the animation finishes it at once
    if (keyboard) { keyboard = false; wrap.classList.remove("kbd"); } // the mouse again: no cursor
  }, { capture: true });

  const labels = el("g", { fill: "#7a6440", "font-size": 14, "text-anchor": "middle", "font-family": "sans-serif" }, svg);
  for (const l of board.labels) el("text", { x: px(l), y: py(l) + 4.5, text: l.text }, labels);

  // the opponents' turns since the viewer moved (numbered in order), and this turn's takes
  const recent = new Map();
  const takes = recentTakes(struct);
  takes.forEach((t, i) => recent.set(t.cell, { n: i + 1, seat: t.seat }));
  for (const t of struct.recent || []) for (const s of t.steps) for (const c of s.touched) if (!recent.has(c)) recent.set(c, { n: 0, seat: t.seat });
  const thisTurn = new Set(struct.turn.actions);
  const ghostAt = new Map();
  if (anim && anim.variant === board.variant) {
    const elapsed = performance.now() - anim.start;
    for (const g of anim.ghosts) ghostAt.set(g.cell, { ...g, delay: g.delay - elapsed });
  }
  let anyBlocked = false, canAdd = false;
  const picking = ui.adding || ui.picked.length > 0;

  for (const c of board.cells) {
    const cx = px(c), cy = py(c);
    const takeable = discOf.has(c.id);
    const picked = ui.picked.includes(c.id);
    const blocked = takeable && picking && !picked && !fits(nextPick(c.id)); // free, but not with the picked discs
    anyBlocked = anyBlocked || blocked;
    if (takeable && !picked && !blocked && ui.picked.length && groupOf.get(c.id) === groupOf.get(ui.picked[0])) canAdd = true;
    const cls = ["nb-cell"];
    if (takeable && !blocked) cls.push("clickable");
    if (blocked) cls.push("blocked");
    if (picked) cls.push("picked");
    if (c.free) cls.push("free");
    const rec = recent.get(c.id);
    const g = el("g", { "data-cell": c.id, class: cls.join(" ") }, svg);
    if (c.disc) g.dataset.disc = c.disc;
    const ground = rec && !c.disc ? "#dbe8f6" : thisTurn.has(c.id) && !c.disc ? "#e6dcc4" : "#efe6d2";
    if (hex) el("polygon", { points: hexPoints(cx, cy, R * 1.07), fill: ground, stroke: "#d8ccb0" }, g);
    else el("rect", { x: cx - R, y: cy - R, width: 2 * R, height: 2 * R, fill: ground, stroke: "#d8ccb0" }, g);
    if (!c.disc && (rec || thisTurn.has(c.id))) {
      // where a disc was just taken: a ring (blue for the opponents' turns, dark for this turn)
      g.classList.add("taken");
      if (rec) g.classList.add("recent");
      el("circle", { cx, cy, r: R * 0.66, fill: "none", stroke: thisTurn.has(c.id) ? "#6b5a3a" : "#2f6db5",
        "stroke-width": 3, "stroke-dasharray": "4 3" }, g);
      if (rec && takes.length > 1 && rec.n) {
        el("text", { class: "nb-order", x: cx, y: cy + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700,
          "font-family": "sans-serif", fill: "#2f6db5", text: String(rec.n) }, g);
      }
      const who = rec ? ctx.seatName(rec.seat) : ctx.seatName(struct.turn.seat);
      el("title", { text: t("nibble.board.taken_by", { cell: c.id, who }) + (rec && rec.n && takes.length > 1 ? t("nibble.board.take_n", { n: rec.n, of: takes.length }) : "") }, g);
    }
    const ghost = ghostAt.get(c.id);
    if (ghost && !c.disc) {
      // the disc that was here fades out where it stood
      const col = colours[ghost.disc] || { fill: "#999", ink: "#fff" };
      const gg = el("g", { class: "nb-ghost", style: `animation-duration: ${anim.dur}ms; animation-delay: ${Math.round(ghost.delay)}ms` }, g);
      el("circle", { cx, cy, r: R * 0.74, fill: col.fill, stroke: "#555", "stroke-width": 1.2 }, gg);
      el("text", { x: cx, y: cy + 4.5, "text-anchor": "middle", "font-size": 14, "font-family": "sans-serif",
        "font-weight": 600, fill: col.ink, text: ghost.disc }, gg);
    }
    if (c.disc) {
      const col = colours[c.disc] || { fill: "#999", ink: "#fff", name: c.disc };
      // the disc's own edge: white when free (grey on a light disc, where white would vanish)
      const edge = c.free ? (col.light ? "#8a8a8a" : "#fff") : "#555";
      el("circle", { class: "nb-disc", cx, cy, r: R * 0.74, fill: col.fill, stroke: edge, "stroke-width": c.free ? 2.5 : 1.2,
        opacity: blocked ? 0.35 : null }, g);
      // around it: picked (solid black), may be taken (dashed dark), on the cell's light ground
      if (picked || takeable) {
        el("circle", { class: "nb-ring", cx, cy, r: R * 0.88, fill: "none", stroke: picked ? "#000" : blocked ? "#9a8f78" : "#3b3224",
          "stroke-width": picked ? 4.5 : 2.5, "stroke-dasharray": picked ? null : "5 3.5" }, g);
      }
      el("text", { x: cx, y: cy + 4.5, "text-anchor": "middle", "font-size": 14, "font-family": "sans-serif",
        "font-weight": 600, fill: col.ink, text: c.disc, "pointer-events": "none", opacity: blocked ? 0.5 : null }, g);
      el("title", { text: cellWords(c, col) + whyWords(c.id) }, g);
    }
    if (takeable && !blocked) g.addEventListener("click", (ev) => click(c.id, ev.shiftKey));
    else if (ctx.interactive) {
      // a cell the view lists no take for (or a disc that would not go with the picked ones): why
      // nothing happens, at the board where the player looks (ctx.note; a shell without it: said
      // only), as Enter says it
      g.addEventListener("click", () => (ctx.note || ctx.say)(nothingThere(c.id)));
    }
  }
  // the keyboard cursor: drawn over its cell, shown while the board has the keyboard focus
  const cursorShape = el("g", { class: "nb-cursor", "aria-hidden": "true" }, svg);
  const placeCursor = () => {
    const c = byId.get(cursor);
    cursorShape.replaceChildren();
    svg.querySelectorAll("[data-cursor]").forEach((n) => n.removeAttribute("data-cursor"));
    const cellNode = svg.querySelector(`[data-cell="${cursor}"]`);
    if (cellNode) cellNode.setAttribute("data-cursor", "");
    for (const [stroke, w] of [["#222", 6], ["#f2b134", 3]]) {
      if (hex) el("polygon", { points: hexPoints(px(c), py(c), R * 0.98), fill: "none", stroke, "stroke-width": w }, cursorShape);
      else el("rect", { x: px(c) - R + 3, y: py(c) - R + 3, width: 2 * R - 6, height: 2 * R - 6, rx: 4, fill: "none", stroke, "stroke-width": w }, cursorShape);
    }
  };
  placeCursor();

  if (enlargeable) {
    // in a paragraph: a thumbnail of the board (.live-board p) shows none of it
    const line = document.createElement("p");
    line.className = "nb-zoomline";
    if (large && wrap.scrollWidth > wrap.clientWidth + 1) {
      // the enlarged board starts at its left edge (the rank labels), or where it was scrolled to
      wrap.scrollLeft = scrollPos && scrollPos.variant === board.variant ? scrollPos.left : 0;
      scrollPos = { variant: board.variant, left: wrap.scrollLeft };
      const hint = document.createElement("span");
      hint.textContent = t("nibble.board.swipe");
      line.append(hint);
    }
    const zoom = button(line, large ? t("nibble.board.whole") : t("nibble.board.larger"), () => {
      large = !large;
      scrollPos = null;
      redraw();
    }, "nb-zoom");
    zoom.dataset.zoom = "";
    zoom.setAttribute("aria-pressed", String(large));
    zoom.title = large ? t("nibble.board.whole_title") : t("nibble.board.larger_title");
    box.append(line);
  }

  function cellWords(c, col) {
    return `${c.id}: ${colourWord(col.name)} (${c.disc})`;
  }
  function whyWords(cell) {
    const c = byId.get(cell);
    if (!c || !c.disc) return "";
    if (ui.picked.includes(cell)) return t("nibble.board.why_picked");
    if (discOf.has(cell)) {
      if (picking && !fits(nextPick(cell))) return t("nibble.board.why_not_together", { cells: ui.picked.join("+") });
      return t("nibble.board.why_may");
    }
    return c.free ? t("nibble.board.why_free") : "";
  }
  function nothingThere(cell) {
    return t("nibble.board.nothing_there", { cell: cellSpeech(cell) });
  }
  function cellSpeech(cell) {
    const c = byId.get(cell);
    if (!c.disc) {
      const rec = recent.get(cell);
      return t("nibble.board.cell_empty", { cell }) + (rec ? t("nibble.board.just_taken", { who: ctx.seatName(rec.seat) }) : "");
    }
    return cellWords(c, colours[c.disc] || { name: c.disc }) + whyWords(cell);
  }

  const redraw = () => {
    // a control that had the focus (Enter on "Add more…") keeps it in the new drawing
    const focused = ctx.controls.contains(document.activeElement) ? document.activeElement.id : null;
    box.replaceChildren();
    ctx.controls.replaceChildren();
    render(box, ctx);
    const again = focused && document.getElementById(focused);
    if (again) again.focus();
  };
  function click(cell, add = false) {
    if (anim) finishAnimation();
    const d = discOf.get(cell);
    if (!d) return;
    if (!ui.adding && !add && !ui.picked.length) { // one click: take it, the turn ends
      ctx.say(t("nibble.board.taking", { what: cell }));
      ctx.play(oneDisc(d));
      return;
    }
    if (midTurn) { ctx.play(d.action); return; } // an open turn: each pick takes one more disc
    const next = nextPick(cell);
    if (!fits(next)) { ctx.say(t("nibble.board.not_together", { cell, cells: ui.picked.join(", ") })); return; }
    ui.picked = next;
    ui.adding = true;
    ctx.say(ui.picked.length ? pickedWords(choices, ui.picked) : t("nibble.board.nothing_picked"));
    redraw();
  }
  function takePick() {
    const what = pickPlay();
    if (!what) return false;
    ctx.say(t("nibble.board.taking", { what: pickText() }));
    ctx.play(what);
    return true;
  }
  function toggleAdding() {
    ui.adding = !ui.adding;
    if (!ui.adding) ui.picked = [];
    ctx.say(ui.adding ? t("nibble.board.adding_on") : t("nibble.board.adding_off"));
    redraw();
  }

  // --- keyboard ------------------------------------------------------------------------------
  const rows = new Map(); // y -> cells of that row by x
  for (const c of board.cells) { if (!rows.has(c.y)) rows.set(c.y, []); rows.get(c.y).push(c); }
  for (const r of rows.values()) r.sort((a, b) => a.x - b.x);
  function moveCursor(dir) {
    const c = byId.get(cursor);
    let to = null;
    if (dir === "left" || dir === "right") {
      const row = rows.get(c.y);
      to = row[row.indexOf(c) + (dir === "left" ? -1 : 1)] || null;
      sticky = null;
    } else {
      const row = rows.get(c.y + (dir === "up" ? 1 : -1));
      if (row) {
        const want = sticky === null ? c.x : sticky;
        // nearest to the column kept while going up or down; a tie (hexagon): up-right, down-left
        to = row.reduce((best, r) => {
          const d = Math.abs(r.x - want), bd = best ? Math.abs(best.x - want) : Infinity;
          if (d < bd - 1e-9) return r;
          if (Math.abs(d - bd) < 1e-9 && (dir === "up" ? r.x > best.x : r.x < best.x)) return r;
          return best;
        }, null);
        sticky = want;
      }
    }
    if (!to) return;
    cursor = to.id;
    placeCursor();
    const node = svg.querySelector(`[data-cell="${cursor}"]`);
    if (node && node.scrollIntoView) node.scrollIntoView({ block: "nearest", inline: "nearest" });
    ctx.say(cellSpeech(cursor));
  }
  const ARROWS = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down" };
  ctx.onKey((ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return false;
    if (anim) finishAnimation();
    const k = ev.key;
    if (ARROWS[k]) {
      if (!keyboard) { keyboard = true; wrap.classList.add("kbd"); }
      moveCursor(ARROWS[k]);
      return true;
    }
    if (k === "Enter" || k === " ") {
      keyboard = true;
      if (discOf.has(cursor) && (!picking || fits(nextPick(cursor)))) click(cursor, ev.shiftKey);
      else ctx.say(ctx.interactive ? nothingThere(cursor) : t("nibble.board.not_your_turn", { cell: cellSpeech(cursor) }));
      return true;
    }
    if (k === "Escape") {
      if (!ui.picked.length && !ui.adding) return false;
      ui.picked = [];
      ui.adding = false;
      ctx.say(t("nibble.board.pick_cancelled"));
      redraw();
      return true;
    }
    if (!ctx.interactive || !choices || !choices.colours) return false;
    if ((k === "a" || k === "A" || k === "+") && !midTurn) { toggleAdding(); return true; }
    if ((k === "t" || k === "T") && ui.picked.length) return takePick() || true;
    if ((k === "e" || k === "E") && choices.end) { ctx.say(t("nibble.board.ending")); ctx.play(choices.end.action); return true; }
    return false;
  });

  // --- the two collections (§5: counts, majorities, progress to the instant wins) ------------
  // (not under a thumbnail: the card's frame cut them off, in words of a page without its game's)
  if (ctx.thumbnail) return;
  const T = board.targets;
  const tables = document.createElement("div");
  tables.className = "collect-tables";
  for (const coll of board.collections) {
    const row = document.createElement("div");
    row.className = "ctable" + (coll.seat === struct.to_move ? " tomove" : "");
    row.dataset.seat = coll.seat;
    const head = document.createElement("div");
    head.className = "chead";
    head.textContent = collectionWords(coll, T, ctx.seatName(coll.seat));
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
      span.title = t("nibble.board.count_title", { colour: x.colour, name: colourWord(col.name), n: x.count, of: T.all }) + (x.major ? t("nibble.board.a_majority") : "");
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
    const add = button(ctx.controls, t("nibble.board.add_more"), toggleAdding, "nb-btn toggle");
    add.id = "add-more";
    add.setAttribute("aria-pressed", ui.adding ? "true" : "false");
    add.title = t("nibble.board.add_more_title");
    if (ui.adding) {
      const text = pickText();
      const b = button(ctx.controls, ui.picked.length ? t("nibble.board.take_these", { what: text || ui.picked.join("+") }) : t("nibble.board.take"), () => { takePick(); }, "primary nb-btn");
      b.id = "take";
      b.disabled = !ui.picked.length || !text;
      info.textContent = !ui.picked.length
        ? t("nibble.board.pick_then_take")
        : (canAdd ? t("nibble.board.pick_more") : t("nibble.board.take_or_other")) +
          (anyBlocked ? t("nibble.board.faded") : "");
    } else {
      info.textContent = t("nibble.board.click_disc");
    }
  } else {
    const col = colours[choices.take];
    info.textContent = t("nibble.board.taking_colour", { colour: choices.take, name: col ? colourWord(col.name) : "" });
  }
  if (choices.end) button(ctx.controls, t("board.end_turn"), () => ctx.play(choices.end.action), "nb-btn").id = "end-turn";
  ctx.controls.append(info);
}

// "Picked a1; may add a9. T takes them." — what may still join the picked discs: the other
// discs of some "together" set (choices) holding them all
function pickedWords(choices, picked) {
  const group = (choices.colours || []).find((g) => g.discs.some((d) => d.cell === picked[0]));
  const more = new Set();
  for (const set of (group ? group.together : [])) {
    if (picked.every((c) => set.cells.includes(c))) for (const c of set.cells) if (!picked.includes(c)) more.add(c);
  }
  return t("nibble.board.picked", { cells: picked.join(", ") }) + (more.size ? t("nibble.board.may_add", { cells: [...more].join(", ") }) : t("nibble.board.nothing_more")) +
    t("nibble.board.t_takes");
}

// "8 majorities (5 needed)": a count and the target in words; "8/5" read aloud as "8 of 5"
const majorityWords = (coll, T) => t("nibble.board.majorities", { n: coll.majorities, of: T.majorities });

function collectionWords(coll, T, name) {
  const run = coll.best_run ? t("nibble.board.best_run", { least: coll.best_run.least, triple: T.triple, colours: coll.best_run.colours }) : "";
  return t("nibble.board.collection", { who: name, n: coll.total, majorities: majorityWords(coll, T), run, most: coll.most.count, all: T.all });
}

// A match that ended off the board (a resignation, a lost clock): its last position has a player
// to move, but nobody moves any more, so the board speaks of the end instead of a turn.
function endedEarly(st, ctx) {
  return !!(ctx && ctx.live !== false && ctx.ended && !st.over);
}

// The board in words for screen readers (the shell keeps it in a polite live region): the
// result or whose turn, the turns since the viewer moved, the discs that may be taken (and the
// picked ones), the collections.
export function describe(struct, ctx) {
  const name = (i) => (ctx && ctx.seatName ? ctx.seatName(i) : t("seat.player", { n: i + 1 }));
  const board = struct.board;
  const colourName = Object.fromEntries(board.colours.map((c) => [c.colour, colourWord(c.name)]));
  const parts = [];
  for (const turn of struct.recent || []) {
    const steps = turn.steps.filter((s) => s.touched.length);
    const words = (steps.length ? steps : turn.steps).map((s) => fmt(s.message, s.text) || s.action);
    if (words.length) parts.push(t("nibble.board.recent", { who: name(turn.seat), words: words.join(", ") }));
  }
  if (struct.over) {
    const end = struct.end || {};
    const winners = (end.winners || []).map(name);
    const who = winners.length ? (isYou(winners[0]) ? t("result.you_win") : t("board.wins", { name: winners.join(", ") })) : t("status.over");
    parts.push(end.text ? t("nibble.board.over", { who, why: fmt(end.message, end.text) }) : `${who}.`);
  } else if (endedEarly(struct, ctx)) {
    parts.push(`${ctx.ended.text}.`);
  } else if (struct.to_move !== null && struct.to_move !== undefined) {
    const who = name(struct.to_move);
    parts.push(isYou(who) ? t("nibble.board.your_turn") : t("board.to_move", { who }));
    const left = struct.turn && struct.turn.left;
    if (left) parts.push(t("nibble.board.mid_turn", { name: colourName[left.colour] || "", colour: left.colour, took: struct.turn.actions.join(", "), more: left.more.join(", ") }));
  }
  const choices = (ctx && ctx.interactive === false ? null : struct.choices) || {};
  if (choices.colours && choices.colours.length) {
    const key = keyOf(struct);
    const picked = ui.key === key ? ui.picked : [];
    if (picked.length) {
      parts.push(pickedWords(choices, picked));
    }
    parts.push(t("nibble.board.may_be_taken", { groups: choices.colours.map((g) =>
      `${g.discs.map((d) => d.cell).join(", ")} (${(g.name ? colourWord(g.name) : colourName[g.colour])} ${g.colour})`).join("; ") }));
  }
  const T = board.targets;
  parts.push(board.collections.map((c) => t(isYou(name(c.seat)) ? "nibble.board.you_hold" : "nibble.board.holds",
    { who: name(c.seat), n: c.total, majorities: majorityWords(c, T) })).join("; ") + ".");
  return parts.join(" ");
}
