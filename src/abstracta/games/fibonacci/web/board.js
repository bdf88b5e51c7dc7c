// Fibonacci board: draws the structured view (fibonacci/view.py docstring: board, choices,
// turn.left) and sends the picked action string. Spec: fibonacci.md §1 (cells, x = c − r/2,
// y = r·√3/2), §4 (groups, destinations, swaps), §9.2 (cards), §9.3 (Go placement).
// No rule is computed here: groups, destinations, swaps, core rings and piles come from the struct.
//
// What happened: the opponents' turns since the viewer moved (struct.recent) are outlined and
// drawn as numbered arrows (1, 2, 3… in the order played); the pieces of the newest moves slide
// from where they were (about a quarter second a step, none with prefers-reduced-motion; a
// click or key finishes it at once). Keyboard: a cursor (see keyHelp). Phone: the whole board is
// in sight at first, as wide as the board box (cells of about 30 CSS px at 390 px, 28 at 360): a
// frame panning sideways had hidden d1 and h11 behind its edges. Where the cells come out smaller
// than SMALL_CELL_PX, "Larger cells" under the board draws them at LARGE_CELL_PX in a frame that
// pans sideways (starting centred, a line under it saying so); "Whole board" goes back.
import { el, svgRoot, button, hexPoints } from "/svg.js";
import { fmt, t } from "/i18n.js";

export const css = `
.fib-cell polygon.hex { transition: fill .12s; }
.fib-cell.fib-src:hover polygon.hex, .fib-cell.fib-place:hover polygon.hex { fill: #f3dfa6; }
.fib-cell.fib-dest polygon.hex { fill: #f6d27a; }
.fib-cell.fib-dest:hover polygon.hex { fill: #f2b134; }
.fib-cell.fib-group polygon.hex { fill: #cfe3f7; }
.fib-cell.fib-win polygon.hex { fill: #ffe08a; }
.fib-recent { stroke: #2f6fb8; stroke-width: 3; fill: #dbe8f7; fill-opacity: .55; pointer-events: none; }
.fib-arrow { stroke: #2f6fb8; stroke-width: 3.5; stroke-linecap: round; opacity: .9; pointer-events: none; }
.fib-num circle { fill: #2f6fb8; stroke: #fff; stroke-width: 1.5; }
.fib-num text { fill: #fff; font: 700 11px sans-serif; }
.fib-num { pointer-events: none; }
.fib-ring { fill: none; stroke-width: 3.5; pointer-events: none; }
.fib-link { stroke-linecap: round; opacity: .35; pointer-events: none; }
.fib-ghost { opacity: 0; transition: opacity .12s; }
.fib-place:hover .fib-ghost { opacity: .5; }
.fib-label { font: 8px sans-serif; fill: #9a8a66; pointer-events: none; }
.fib-cursor { fill: none; stroke: #1b1b1b; stroke-width: 3; stroke-dasharray: 5 3; pointer-events: none; visibility: hidden; }
.boardbox:focus-visible .fib-cursor, .boardbox:focus .fib-kbd .fib-cursor { visibility: visible; }
.fib-scroll.fib-large { overflow-x: auto; overflow-y: hidden; contain: inline-size; overscroll-behavior-x: contain; }
.fib-scroll.fib-large svg.board { max-height: none; }
.fib-zoomline { display: flex; flex-wrap: wrap; gap: .2rem .6rem; align-items: center; justify-content: center; margin: .3rem 0 0;
  font-size: 13px; color: #6b5f45; }
.fib-zoomline button { min-height: 40px; font-size: 13px; padding: .2rem .7rem; }
.boardbox.fit .fib-zoomline { display: none; }
.fib-info { align-self: center; }
.fib-info b { font-weight: 600; }
.fib-btn { min-height: 44px; min-width: 44px; }
@media (max-width: 480px) {
  .fib-info { font-size: 14px; flex-basis: 100%; }
}
.fib-strip { display: none; flex-wrap: wrap; justify-content: center; gap: .35rem .9rem; margin: .1rem 0 .35rem;
  font: 12px/1.25 sans-serif; color: #555; }
.fib-chip { display: inline-flex; align-items: center; gap: .35rem; }
.fib-chip-line { display: block; }
.fib-mini { display: inline-flex; align-items: center; justify-content: center; width: 26px; height: 35px;
  border: 2px solid; border-radius: 4px; font: 700 15px sans-serif; }
@media (max-width: 540px) { .fib-strip { display: flex; } .fib-corners { display: none; } }
`;

export const keyHelp = () => t("fibonacci.board.key_help");

const R = 25; // hexagon radius (centre to corner) in SVG units
const DX = R * Math.sqrt(3); // one unit of the spec's x (neighbours in a row)
const M = 14; // margin
const SMALL_CELL_PX = 32; // a board drawn to the box's width with cells narrower than this may be enlarged
const LARGE_CELL_PX = 42; // the cells of an enlarged board (tap targets of at least 40 CSS px)
const kindWord = (kind) => t(`fibonacci.kind.${kind}`);
const STEP_MS = 260, MAX_ANIM_MS = 1400;

// UI state, kept across re-renders: the selected piece (for the struct it belongs to), the
// keyboard cursor, the last live board drawn (to animate from), the move this module just sent,
// the running animations, "Larger cells" and the enlarged frame's sideways scroll.
let ui = { struct: null, sel: null };
let cursor = null;
let stickyX = null;
let lastBoard = null;
let pending = null;
let running = [];
let large = false;
let scrollLeft = null;
let kbd = false; // the keyboard was used last (the cursor shows), not the pointer
let lastBox = null; // the page's board box: a new one is a new match page (start afresh)

function seatStyle(ctx, seat) {
  const s = (ctx.seats || [])[seat] || {};
  return { colour: s.colour || (seat === 0 ? "#c8322b" : "#2f8a3e"), ink: s.ink || "#fff" };
}

const seatWord = (ctx, seat) => (ctx && ctx.seatName ? ctx.seatName(seat) : t(`fibonacci.seat.${seat}`));
const pieceWords = (ctx, p) => t("fibonacci.board.piece", { seat: seatWord(ctx, p.seat), kind: kindWord(p.kind) });
const placeWords = (who, left) => t(`fibonacci.board.placement.${left.kind}`, { n: left.placement, of: left.of, who });
const pieceKey = (p) => (p ? `${p.seat}${p.kind}` : "");
const reducedMotion = () => !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

function finishAnimations() {
  for (const a of running) { try { a.finish(); } catch { /* already gone */ } }
  running = [];
}

// The newest steps that lead from the board drawn last to this one: a suffix of the recent
// turns' steps, possibly after the move this module sent itself (checked by replaying the
// steps' touched cells: a move swaps the two cells' contents, a placement fills its cell).
function stepsSince(prev, now, st) {
  const same = (a, b) => { for (const [id, k] of b) if (a.get(id) !== k) return false; return true; };
  if (same(prev, now)) return [];
  const steps = (st.recent || []).flatMap((t) => t.steps.map((s) => ({ ...s, seat: t.seat })))
    .filter((s) => s.touched && s.touched.length);
  const replay = (seq) => {
    const b = new Map(prev);
    for (const s of seq) {
      if (s.touched.length === 2) {
        const [a, c] = s.touched, x = b.get(a);
        b.set(a, b.get(c)); b.set(c, x);
      } else b.set(s.touched[0], now.get(s.touched[0]));
    }
    return same(b, now);
  };
  const heads = pending ? [[], [pending]] : [[]];
  for (const head of heads) {
    for (let k = head.length ? 0 : 1; k <= steps.length; k++) {
      const seq = [...head, ...steps.slice(steps.length - k)];
      if (seq.length && seq.length <= 12 && replay(seq)) return seq;
    }
  }
  return null; // an undo, a jump: nothing to animate
}

export function render(box, ctx) {
  finishAnimations();
  if (box !== lastBox) {
    lastBox = box;
    cursor = stickyX = lastBoard = pending = scrollLeft = null;
  }
  const st = ctx.struct;
  if (!st || !st.board || !st.board.cells) { box.textContent = t("fibonacci.board.none"); return; }
  const fresh = ui.struct !== st;
  if (fresh) ui = { struct: st, sel: null };
  const board = st.board;
  const choices = (ctx.interactive && st.choices) || {};
  const palette = ctx.palette || {};

  // geometry from the struct's coordinates (y grows upward: row a at the bottom)
  let minX = Infinity, maxX = -Infinity, maxY = -Infinity, minY = Infinity;
  for (const c of board.cells) {
    minX = Math.min(minX, c.x); maxX = Math.max(maxX, c.x);
    minY = Math.min(minY, c.y); maxY = Math.max(maxY, c.y);
  }
  const W = (maxX - minX) * DX + DX + 2 * M, H = (maxY - minY) * DX + 2 * R + 2 * M;
  const at = new Map(board.cells.map((c) => [c.id, c]));
  const px = (c) => M + DX / 2 + (c.x - minX) * DX;
  const py = (c) => M + R + (maxY - c.y) * DX;
  const byRowCol = new Map(board.cells.map((c) => [`${c.row},${c.col}`, c]));

  // what a click can do
  const moves = new Map((choices.moves || []).map((m) => [m.from, m.to]));
  const places = new Map(((choices.place && choices.place.cells) || []).map((p) => [p.cell, p.action]));
  if (ui.sel && !moves.has(ui.sel)) ui.sel = null;
  const dests = new Map((ui.sel ? moves.get(ui.sel) : []).map((d) => [d.cell, d]));
  const selPiece = ui.sel ? at.get(ui.sel).piece : null;
  const group = new Set(selPiece && selPiece.group !== null ? board.groups[selPiece.group].cells : []);
  const win = new Set(board.win ? [...board.win.cells, board.win.core] : []);
  // the opponents' turns since the viewer moved: every step's touched cells, numbered per turn
  const recentSteps = (st.recent || []).flatMap((t) => t.steps.map((s, i) => ({ ...s, seat: t.seat, n: i + 1 })));
  const recent = new Set(recentSteps.flatMap((s) => [...s.touched, ...(s.removed || [])]));

  // what to animate: the steps from the last live board drawn to this one
  const now = new Map(board.cells.map((c) => [c.id, pieceKey(c.piece)]));
  let anim = null;
  if (ctx.live && lastBoard && !reducedMotion()) anim = stepsSince(lastBoard, now, st);
  lastBoard = ctx.live ? now : null;
  if (fresh) pending = null;

  if (!cursor || !at.has(cursor)) {
    const last = recentSteps.length ? recentSteps[recentSteps.length - 1].touched : [];
    cursor = ui.sel || last[last.length - 1] || (choices.moves && choices.moves[0].from) ||
      (choices.place && choices.place.cells[0].cell) || "f6";
    if (!at.has(cursor)) cursor = board.cells[Math.floor(board.cells.length / 2)].id;
  }

  // the board as wide as the box lets it; cells too small to tap well may be enlarged
  const cs = getComputedStyle(box);
  const room = box.clientWidth - parseFloat(cs.paddingLeft || 0) - parseFloat(cs.paddingRight || 0);
  const enlargeable = room > 0 && (Math.min(room, 640) * DX) / W < SMALL_CELL_PX;
  const frame = document.createElement("div");
  frame.className = enlargeable && large ? "fib-scroll fib-large" : "fib-scroll";
  box.append(frame);
  const svg = svgRoot(frame, W, H, t("fibonacci.board.label"), 640);
  if (enlargeable && large) {
    const minW = Math.ceil((W * LARGE_CELL_PX) / DX);
    svg.style.minWidth = `${minW}px`;
    svg.style.minHeight = `${Math.ceil((minW * H) / W)}px`;
  }
  el("defs", {}, svg).innerHTML =
    '<marker id="fib-head" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="3.4" markerHeight="3.4" orient="auto-start-reverse">' +
    '<path d="M0,0 L10,5 L0,10 z" fill="#2f6fb8"/></marker>';
  const cellLayer = el("g", {}, svg);
  const linkLayer = el("g", {}, svg);
  const markLayer = el("g", {}, svg);
  const pieceLayer = el("g", {}, svg);
  const topLayer = el("g", {}, svg);

  const redraw = () => {
    scrollLeft = frame.scrollLeft;
    box.replaceChildren(); ctx.controls.replaceChildren(); render(box, ctx);
  };
  const send = (action, step) => { pending = step; ctx.play(action); };
  const nothingHere = (id) => t("fibonacci.board.nothing_here", { cell: id, hint: ui.sel ? t("fibonacci.board.pick_dest", { cell: ui.sel }) : t("fibonacci.board.pick_piece") });
  const click = (id) => {
    finishAnimations();
    cursor = id;
    if (places.has(id)) { send(places.get(id), { touched: [id] }); return true; }
    if (dests.has(id)) { send(dests.get(id).action, { touched: [ui.sel, id] }); return true; }
    if (moves.has(id)) {
      if (ui.sel === id) { ui.sel = null; ctx.say && ctx.say(t("fibonacci.board.deselected", { cell: id })); }
      else { ui.sel = id; ctx.say && ctx.say(selectionWords(st, ctx, id)); }
      redraw();
      return true;
    }
    return false;
  };

  const cellGroups = new Map();
  for (const c of board.cells) {
    const x = px(c), y = py(c);
    const cls = ["fib-cell"];
    if (dests.has(c.id)) cls.push("fib-dest");
    else if (group.has(c.id)) cls.push("fib-group");
    else if (win.has(c.id)) cls.push("fib-win");
    if (moves.has(c.id)) cls.push("fib-src");
    if (places.has(c.id)) cls.push("fib-place");
    const g = el("g", { "data-cell": c.id, class: cls.join(" ") }, cellLayer);
    cellGroups.set(c.id, g);
    el("polygon", { class: "hex", points: hexPoints(x, y, R), fill: palette.cell || "#efe6d2",
      stroke: palette.edge || "#c9bb98", "stroke-width": 1.2 }, g);
    if (recent.has(c.id)) el("polygon", { class: "fib-recent", points: hexPoints(x, y, R - 2.5) }, g);
    el("text", { class: "fib-label", x, y: y + R * 0.8, "text-anchor": "middle", text: c.id }, g);
    if (places.has(c.id)) {
      // a faint piece of the placer's colour appears under the pointer (css .fib-ghost)
      const ghost = { id: c.id, piece: { seat: st.to_move, kind: choices.place.kind, letter: choices.place.letter } };
      drawPiece(g, ctx, ghost, x, y, false, true).classList.add("fib-ghost");
    }
    if (moves.has(c.id) || dests.has(c.id) || places.has(c.id)) {
      g.classList.add("clickable");
      g.addEventListener("click", () => click(c.id));
    } else if (ctx.interactive) {
      // a cell the view lists no action for: why nothing happens, at the board where the player
      // looks (ctx.note; a shell without it: said only), as Enter says it
      g.addEventListener("click", () => { cursor = c.id; (ctx.note || ctx.say)(nothingHere(c.id)); });
    }
  }

  // the groups as snakes: a band between neighbouring pieces of one group (§4)
  for (const grp of board.groups || []) {
    const { colour } = seatStyle(ctx, grp.seat);
    for (const [a, b] of grp.links || []) {
      const p = at.get(a), q = at.get(b);
      el("line", { class: "fib-link", x1: px(p), y1: py(p), x2: px(q), y2: py(q), stroke: colour,
        "stroke-width": grp.kind === "attack" ? 9 : 6 }, linkLayer);
    }
  }

  // enemy attackers on a core's ring: they cut its owner's moves (§3) and threaten it (§5)
  for (const core of board.cores || []) {
    for (const id of core.attackers) {
      const c = at.get(id);
      el("polygon", { class: "fib-ring", points: hexPoints(px(c), py(c), R - 2.5), stroke: palette.core_ring || "#d9b80f",
        "data-threat": core.cell }, markLayer);
    }
  }

  const pieceEls = new Map();
  for (const c of board.cells) {
    const x = px(c), y = py(c);
    if (c.piece) pieceEls.set(c.id, drawPiece(pieceLayer, ctx, c, x, y, ui.sel === c.id));
    const d = dests.get(c.id);
    if (d && d.swap) el("text", { x: x + R * 0.55, y: y - R * 0.38, "font-size": 13, "font-weight": 700, fill: "#7a3b00",
      "pointer-events": "none", text: "⇄" }, pieceLayer);
    else if (d) el("circle", { cx: x, cy: y - 2, r: R * 0.22, class: "dest", "pointer-events": "none" }, pieceLayer);
  }

  // the opponents' moves as numbered arrows, drawn over the pieces (a swap's occupant went back)
  const arrows = [];
  for (const s of recentSteps) {
    if (s.touched.length === 1) {
      const c = at.get(s.touched[0]);
      arrows.push({ s, g: numberBadge(topLayer, px(c) - R * 0.62, py(c) - R * 0.55, s.n, fmt(s.message, s.text), seatStyle(ctx, s.seat).colour) });
      continue;
    }
    if (s.touched.length !== 2) continue;
    const p = at.get(s.touched[0]), q = at.get(s.touched[1]);
    const x1 = px(p), y1 = py(p), x2 = px(q), y2 = py(q);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1, k = (R * 0.5) / len;
    const g = el("g", { class: "fib-step", "data-step": s.n, "data-from": s.touched[0], "data-to": s.touched[1] }, topLayer);
    el("line", { class: "fib-arrow", x1: x1 + (x2 - x1) * k, y1: y1 + (y2 - y1) * k, x2: x2 - (x2 - x1) * k, y2: y2 - (y2 - y1) * k,
      "marker-end": "url(#fib-head)" }, g);
    // the number sits at the arrow's tail (where the piece came from), beside the line
    const tx = x1 + (x2 - x1) * k, ty = y1 + (y2 - y1) * k, nx = -(y2 - y1) / len, ny = (x2 - x1) / len;
    numberBadge(g, tx + nx * 9, ty + ny * 9, s.n, fmt(s.message, s.text), seatStyle(ctx, s.seat).colour); // the mover's colour
    arrows.push({ s, g });
  }

  // the keyboard cursor (shown while the board has the focus)
  const cursorEl = el("polygon", { class: "fib-cursor", points: hexPoints(px(at.get(cursor)), py(at.get(cursor)), R - 1) }, topLayer);
  cursorEl.dataset.at = cursor;

  if (board.cards) {
    const strip = document.createElement("div");
    strip.className = "fib-strip";
    box.insertBefore(strip, frame);
    drawCards(svg, ctx, board.cards, W, H, strip);
  }
  controlsFor(ctx, st, () => { ui.sel = null; ctx.say && ctx.say(t("fibonacci.board.selection_cancelled")); redraw(); });

  if (enlargeable) {
    // in a paragraph: a thumbnail of the board (.live-board p) shows none of it
    const line = document.createElement("p");
    line.className = "fib-zoomline";
    if (large) {
      const hint = document.createElement("span");
      hint.textContent = t("fibonacci.board.swipe");
      line.append(hint);
      // keep the frame's sideways scroll across redraws; first time: centred
      requestAnimationFrame(() => {
        if (frame.scrollWidth <= frame.clientWidth) return;
        frame.scrollLeft = scrollLeft !== null ? scrollLeft : (frame.scrollWidth - frame.clientWidth) / 2;
      });
      frame.addEventListener("scroll", () => { scrollLeft = frame.scrollLeft; }, { passive: true });
    }
    const zoom = button(line, large ? t("fibonacci.board.whole") : t("fibonacci.board.larger"), () => {
      large = !large;
      redraw();
      scrollLeft = null; // the other size's scroll means nothing: centred again
    });
    zoom.dataset.zoom = "";
    zoom.setAttribute("aria-pressed", String(large));
    zoom.title = large ? t("fibonacci.board.whole_title") : t("fibonacci.board.larger_title");
    box.append(line);
  }

  if (anim && anim.length) animate(svg, anim, at, px, py, pieceEls, arrows);
  svg.dataset.animSteps = String(anim ? anim.length : 0);
  svg.addEventListener("pointerdown", () => { finishAnimations(); kbd = false; svg.classList.remove("fib-kbd"); }, { capture: true });
  if (kbd) svg.classList.add("fib-kbd");

  // keyboard: cursor, Enter/Space = click, Escape = cancel
  const moveCursor = (id) => {
    cursor = id;
    const c = at.get(id);
    cursorEl.setAttribute("points", hexPoints(px(c), py(c), R - 1));
    cursorEl.dataset.at = id;
    try { cursorEl.scrollIntoView({ block: "nearest", inline: "nearest" }); } catch { /* old engines */ }
    if (ctx.say) ctx.say(cellWords(ctx, c, { moves, dests, places, sel: ui.sel }));
  };
  const step = (dr, dc) => byRowCol.get(`${at.get(cursor).row + dr},${at.get(cursor).col + dc}`);
  const vertical = (dr) => {
    // up: NW (r+1, c) or NE (r+1, c+1); down: SW (r−1, c−1) or SE (r−1, c): the one nearer the column kept
    const c0 = at.get(cursor);
    if (stickyX === null) stickyX = c0.x;
    const cands = (dr > 0 ? [step(1, 0), step(1, 1)] : [step(-1, -1), step(-1, 0)]).filter(Boolean);
    if (!cands.length) return null;
    cands.sort((a, b) => Math.abs(a.x - stickyX) - Math.abs(b.x - stickyX) || a.x - b.x);
    return cands[0];
  };
  if (ctx.onKey) ctx.onKey((ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return false;
    finishAnimations();
    if (ev.key !== "Tab" && ev.key !== "Shift") { kbd = true; svg.classList.add("fib-kbd"); }
    const k = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    const dirs = { ArrowLeft: [0, -1], ArrowRight: [0, 1], a: [0, -1], d: [0, 1], w: [1, 0], e: [1, 1], z: [-1, -1], x: [-1, 0] };
    if (k === "ArrowUp" || k === "ArrowDown") {
      const c = vertical(k === "ArrowUp" ? 1 : -1);
      if (c) moveCursor(c.id);
      return true;
    }
    if (dirs[k]) {
      const c = step(...dirs[k]);
      stickyX = null;
      if (c) moveCursor(c.id);
      return true;
    }
    if (k === "Enter" || k === " ") {
      if (!ctx.interactive) { ctx.say && ctx.say(st.over ? t("board.over") : t("board.not_your_move")); return true; }
      if (!click(cursor)) {
        ctx.say && ctx.say(nothingHere(cursor));
      }
      return true;
    }
    if (k === "Escape") {
      if (ui.sel) { ui.sel = null; ctx.say && ctx.say(t("fibonacci.board.selection_cancelled")); redraw(); return true; }
      return false;
    }
    return false;
  });
}

function numberBadge(parent, x, y, n, title, colour) {
  const g = el("g", { class: "fib-num" }, parent);
  el("circle", { cx: x, cy: y, r: 7.5, style: colour ? `fill: ${colour}` : null }, g);
  el("text", { x, y: y + 3.8, "text-anchor": "middle", text: String(n) }, g);
  if (title) el("title", { text: title }, g);
  return g;
}

// Slide the pieces of the steps `seq` (oldest first) from where they stood, step by step; a
// placed piece fades in at its step; each step's arrow appears as its step begins.
function animate(svg, seq, at, px, py, pieceEls, arrows) {
  const n = seq.length;
  const dur = Math.min(STEP_MS * n, MAX_ANIM_MS);
  // follow every piece through the steps, backwards from the board now
  const cells = [...at.keys()];
  const token = new Map(cells.map((id) => [id, id])); // cell -> the final cell of the piece standing there
  const track = new Map(cells.map((id) => [id, []])); // final cell -> its cell after each step (newest first)
  const born = new Map(); // final cell -> step at which it was placed
  for (const id of cells) track.get(id).push(id);
  for (let i = n - 1; i >= 0; i--) {
    const s = seq[i];
    if (s.touched.length === 2) {
      const [a, b] = s.touched, x = token.get(a);
      token.set(a, token.get(b)); token.set(b, x);
    } else if (s.touched.length === 1) {
      born.set(token.get(s.touched[0]), i);
      token.set(s.touched[0], null);
    }
    for (const [cell, t] of token) if (t !== null) track.get(t).push(cell);
  }
  for (const [id, g] of pieceEls) {
    const path = track.get(id).slice().reverse(); // its cell before step 0 … after step n−1
    const b = born.has(id) ? born.get(id) : -1;
    const moved = path.some((c) => c !== id);
    if (!moved && b < 0) continue;
    const end = at.get(id);
    const frames = [];
    for (let k = 0; k <= n; k++) {
      const c = at.get(path[Math.max(0, path.length - 1 - (n - k))] || id);
      frames.push({ offset: k / n, transform: `translate(${px(c) - px(end)}px, ${py(c) - py(end)}px)`,
        opacity: b >= 0 && k <= b ? 0 : 1, easing: "ease-in-out" });
    }
    running.push(g.animate(frames, { duration: dur }));
  }
  const count = seq.filter((s) => s.action !== undefined).length; // the recent steps among them
  const newest = count ? arrows.slice(-count) : [];
  newest.forEach((a, i) => {
    const k = Math.max(0, n - newest.length + i);
    running.push(a.g.animate([{ opacity: 0, offset: 0 }, { opacity: 0, offset: k / n }, { opacity: 1, offset: Math.min(1, (k + 0.5) / n) }, { opacity: 1, offset: 1 }],
      { duration: dur }));
  });
  for (const a of running) a.addEventListener("finish", () => { running = running.filter((x) => x !== a); });
}

function drawPiece(layer, ctx, c, x, y, selected, ghost = false) {
  const { colour } = seatStyle(ctx, c.piece.seat);
  const stroke = selected ? "#f2b134" : "#222";
  const sw = selected ? 4 : 1.5;
  const kind = c.piece.kind;
  const g = el("g", { "pointer-events": "none", class: "fib-piece" }, layer);
  if (kind === "attack") {
    el("polygon", { points: `${x},${y - R * 0.62} ${x + R * 0.6},${y + R * 0.42} ${x - R * 0.6},${y + R * 0.42}`,
      fill: colour, stroke, "stroke-width": sw }, g);
  } else if (kind === "support") {
    el("circle", { cx: x, cy: y - 2, r: R * 0.45, fill: colour, stroke, "stroke-width": sw, "fill-opacity": 0.75 }, g);
  } else {
    // the core: a coloured disc with a dark-ringed light centre carrying a dark "C"
    el("circle", { cx: x, cy: y - 2, r: R * 0.66, fill: colour, stroke, "stroke-width": sw + 0.5 }, g);
    el("circle", { cx: x, cy: y - 2, r: R * 0.34, fill: "#fff", stroke: "#222", "stroke-width": 1.5 }, g);
  }
  const letter = c.piece.letter.toUpperCase();
  el("text", { x, y: kind === "core" ? y + 2 : y + 3, "text-anchor": "middle", "font-size": kind === "core" ? 11 : 12, "font-weight": 700,
    fill: kind === "core" ? "#222" : "#fff", "font-family": "sans-serif", "data-piece": ghost ? null : letter,
    "data-seat": ghost ? null : c.piece.seat, text: letter }, g);
  return g;
}

// Cards variant (§9.2): the card that set this turn's moves and each pile's size, drawn in the
// board's corners (the card top left, each pile beside its owner's home edge: Red bottom left,
// Green top right). On a phone the corners' words would be too small to read on the board drawn
// to the screen's width: there the same items stand in a row above the board instead (.fib-strip; the corners are hidden). Pile order is
// hidden while the game runs; a finished game's replay has it (pile_cards, top first): the next
// card face up, the next few in words.
function cardItems(ctx, cards) {
  const items = [];
  const mover = ctx.struct.to_move;
  if (cards.card !== null && mover !== null) {
    items.push({ seat: mover, face: cards.card, back: "", attrs: { "data-card": "current" },
      lines: [t("fibonacci.board.card_of", { who: ctx.seatName(mover) }), t("fibonacci.board.n_moves", { n: cards.card })] });
  }
  const order = cards.pile_cards || null;
  for (const seat of [0, 1]) {
    const next = order && order[seat].length ? order[seat][0] : null;
    const lines = [t("fibonacci.board.pile_of", { who: ctx.seatName(seat) })];
    if (order) {
      const shown = order[seat].slice(0, 3).join(" ") + (order[seat].length > 3 ? " …" : "");
      lines.push(t("fibonacci.board.pile_next", { cards: shown || "–" }));
    }
    items.push({ seat, face: next, back: String(cards.piles[seat]), pile: seat, lines,
      attrs: { "data-pile": seat, "data-next": next === null ? null : next } });
  }
  return items;
}

function drawCards(svg, ctx, cards, W, H, strip) {
  const corners = el("g", { class: "fib-corners" }, svg);
  const card = (x, y, item) => {
    const { colour } = seatStyle(ctx, item.seat);
    const g = el("g", item.attrs, corners);
    const up = item.face !== null;
    el("rect", { x, y, width: 34, height: 46, rx: 5, fill: up ? "#fff" : colour, stroke: colour, "stroke-width": 2.5 }, g);
    el("text", { x: x + 17, y: y + 30, "text-anchor": "middle", "font-size": up ? 22 : 13, "font-weight": 700,
      "font-family": "sans-serif", fill: up ? colour : "#fff", text: up ? String(item.face) : item.back }, g);
  };
  const words = (x, y, item, anchorRight) => {
    const at = { x: anchorRight ? x - 6 : x + 40, "text-anchor": anchorRight ? "end" : "start", "font-size": 11,
      "font-family": "sans-serif", fill: "#555" };
    const ys = item.lines.length === 1 ? [y + 28] : [y + 20, y + 34];
    item.lines.forEach((line, k) => el("text", { ...at, y: ys[k], "data-pile-next": item.pile !== undefined && k ? item.pile : null,
      text: line }, corners));
  };
  const spots = [[M, H - M - 46, false], [W - M - 34, M, true]]; // Red's pile, Green's pile
  const items = cardItems(ctx, cards);
  for (const item of items) {
    const [x, y, right] = item.pile === undefined ? [M, M, false] : spots[item.pile];
    card(x, y, item);
    words(x, y, item, right);
  }
  // the phone's row: the same items in HTML (they wrap, never clip)
  for (const item of items) {
    const { colour } = seatStyle(ctx, item.seat);
    const chip = document.createElement("span");
    chip.className = "fib-chip";
    chip.dataset.strip = item.pile === undefined ? "current" : `pile${item.pile}`;
    const mini = document.createElement("span");
    mini.className = "fib-mini";
    const up = item.face !== null;
    mini.textContent = up ? String(item.face) : item.back;
    // CSSOM, not a style attribute (the page's CSP refuses those)
    mini.style.borderColor = colour;
    mini.style.background = up ? "#fff" : colour;
    mini.style.color = up ? colour : "#fff";
    const text = document.createElement("span");
    for (const line of item.lines) {
      const l = document.createElement("span");
      l.className = "fib-chip-line";
      l.textContent = line;
      text.append(l);
    }
    chip.append(mini, text);
    strip.append(chip);
  }
}

function controlsFor(ctx, st, cancel) {
  const info = document.createElement("span");
  info.className = "info fib-info";
  const left = st.turn && st.turn.left;
  const mover = st.to_move;
  if (st.over || mover === null || endedEarly(st, ctx)) {
    const turn = st.over && st.end ? st.end.turn : st.board.t;
    info.textContent = turn ? t("fibonacci.board.ended_in", { turn }) : "";
  } else if (left && left.phase === "placement") {
    info.textContent = placeWords(ctx.seatName(mover), left);
  } else if (left) {
    let text = t("fibonacci.board.turn_left", { turn: left.t, who: ctx.seatName(mover), n: left.moves });
    // cards: the card and the piles in words too (on a phone the board's corners may be panned away)
    const cards = st.board.cards;
    if (cards) {
      if (left.card !== null && left.card !== undefined) text += t("fibonacci.board.card_suffix", { card: left.card });
      // each side alike, colour and player (the shell's seatLabel), however seatName names them
      const side = (seat) => (ctx.seatLabel ? ctx.seatLabel(seat) : ctx.seatName(seat));
      text += t("fibonacci.board.piles_suffix", { a: side(0), x: cards.piles[0], b: side(1), y: cards.piles[1] });
    }
    const core = (st.board.cores || []).find((c) => c.seat === mover);
    if (left.base !== null && core && core.attackers.length) {
      text += t("fibonacci.board.core_suffix", { n: core.attackers.length });
    }
    if (ctx.interactive) {
      text += ui.sel ? t("fibonacci.board.group_suffix", { cell: ui.sel }) : t("fibonacci.board.pick_suffix");
    }
    info.textContent = text;
  }
  ctx.controls.append(info);
  const choices = st.choices || {};
  if (ctx.interactive && choices.pass) {
    const b = button(ctx.controls, t("fibonacci.board.pass"), () => ctx.play(choices.pass.action), "fib-btn");
    b.id = "pass";
  }
  if (ctx.interactive && ui.sel) {
    button(ctx.controls, t("board.cancel"), cancel, "fib-btn").id = "fib-cancel";
  }
}

// ------------------------------------------------------------------------------ words
function cellWords(ctx, c, { moves, dests, places, sel }) {
  let text = `${c.id}: ${c.piece ? pieceWords(ctx, c.piece) : t("fibonacci.board.empty")}`;
  const d = dests.get(c.id);
  if (d) text += t(d.swap ? "fibonacci.board.dest_swap" : "fibonacci.board.dest", { cell: sel });
  else if (moves.has(c.id)) text += c.id === sel ? t("fibonacci.board.selected_here") : t("fibonacci.board.can_move", { n: moves.get(c.id).length });
  else if (places.has(c.id)) text += t("fibonacci.board.place_here");
  return text;
}

function destWords(ctx, st, dests) {
  const at = new Map(st.board.cells.map((c) => [c.id, c]));
  return dests.map((d) => (d.swap ? t("fibonacci.board.swap_with", { cell: d.cell, piece: pieceWords(ctx, at.get(d.cell).piece) }) : d.cell)).join(", ");
}

function selectionWords(st, ctx, id) {
  const c = st.board.cells.find((x) => x.id === id);
  const m = ((st.choices && st.choices.moves) || []).find((x) => x.from === id);
  if (!c || !c.piece || !m) return t("fibonacci.board.selected", { cell: id });
  return t("fibonacci.board.selection", { piece: pieceWords(ctx, c.piece), cell: id, n: m.to.length, cells: destWords(ctx, st, m.to) });
}

// A match that ended off the board (a resignation, a lost clock): its last position has a player
// to move, but nobody moves any more, so the board speaks of the end instead of a turn.
function endedEarly(st, ctx) {
  return !!(ctx && ctx.live !== false && ctx.ended && !st.over);
}

// The board's text alternative (docs/board-modules.md): whose turn, the last turns in words,
// the selected piece's moves, the result and why.
export function describe(st, ctx) {
  if (!st || !st.board) return "";
  const name = (i) => seatWord(ctx, i);
  const out = [];
  if (st.over) {
    const end = st.end || {};
    const winners = end.winners || [];
    const result = winners.length === 1 ? t("board.wins", { name: name(winners[0]) })
      : winners.length ? t("board.win_many", { names: winners.map(name) }) : t("board.a_draw");
    out.push(end.text ? t("fibonacci.board.over_why", { result, why: fmt(end.message, end.text) }) : t("fibonacci.board.over", { result }));
  } else if (endedEarly(st, ctx)) {
    out.push(`${ctx.ended.text}.`);
  } else {
    const left = st.turn && st.turn.left;
    if (left && left.phase === "placement") {
      out.push(placeWords(name(st.to_move), left));
    } else if (left) {
      let line = t("fibonacci.board.turn_to_move", { turn: left.t, who: name(st.to_move), n: left.moves });
      if (left.card !== null && left.card !== undefined) line += t("fibonacci.board.card_suffix", { card: left.card });
      out.push(line + ".");
      const core = (st.board.cores || []).find((c) => c.seat === st.to_move);
      if (core && core.attackers.length) {
        out.push(t("fibonacci.board.core_touch", { n: core.attackers.length, who: name(st.to_move), cell: core.cell, cells: core.attackers.join(", ") }));
      }
    }
  }
  for (const turn of st.recent || []) {
    const words = turn.steps.map((s, i) => `${turn.steps.length > 1 ? `${i + 1}. ` : ""}${fmt(s.message, s.text) || s.action}`);
    out.push(t("fibonacci.board.last_turn", { who: name(turn.seat), words: words.join("; ") }));
  }
  if (st.turn && st.turn.actions && st.turn.actions.length && !st.over && !endedEarly(st, ctx)) {
    out.push(t("fibonacci.board.so_far", { moves: st.turn.actions.join(", ") }));
  }
  if (ui.struct === st && ui.sel) out.push(selectionWords(st, ctx, ui.sel));
  return out.join(" ");
}
