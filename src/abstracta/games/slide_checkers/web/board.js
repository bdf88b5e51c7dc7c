// Slide Checkers board (spec: slide-checkers.md §1–§5). Draws the structured view of
// games/slide_checkers/view.py (ctx.struct) and sends action strings; it computes no rule:
// square colours, transit squares, targets, jumped pieces and every step's path come from the
// struct.
//
// What it shows: the squares in their colour classes (no letters; a small corner mark in the
// owner's colour on a seat's own squares, and a legend of the classes), pieces with a white
// and a dark ring so that they stand out on squares of their own colour, and every step of the
// other seats' turns since the viewer last moved (struct.recent): an arrow along each step's
// path in that seat's colour, its squares outlined, taken pieces as dashed ghosts, exchanged
// pieces with a dashed inner ring, and the turns in words under the board. Live positions
// animate from the previous one (pieces slide along their paths, taken pieces fade out), unless
// the person asked for reduced motion; a click or key during an animation ends it at once.
//
// Keyboard (ctx.onKey): the arrow keys move a cursor over the squares, Enter or Space acts like
// a click on the cursor's square, Escape cancels, the digits pick a remove/exchange choice, N
// goes to the next piece that can move (or the next landing square once one is selected).
//
// Phone: the whole board is in sight at first, as wide as the board box (squares of 27 CSS px at
// 390 px, 25 at 360; as lichess shows a small phone the whole board): squares of 42 px had hidden
// four of the twelve files with nothing to say so. "Larger squares" (under the board) gives squares
// of 42 px; then the board area pans sideways by itself (the page does not), a line under it says
// so, the cursor and the selected piece are scrolled into view, and "Whole board" goes back.
import { el, svgRoot, button } from "/svg.js";
import { fmt, t } from "/i18n.js";

export const keyHelp = () => t("slide-checkers.board.key_help");
const isYou = (name) => name === t("seat.you");
const said = (s) => fmt(s.message, s.text) || s.action;

export const css = `
.sc-scroll { overflow-x: auto; overflow-y: hidden; width: 0; min-width: 100%; max-width: 100%; -webkit-overflow-scrolling: touch; overscroll-behavior-x: contain; }
.sc-scroll.sc-large svg.sc-board { min-width: 540px; max-height: none; }
.sc-zoomline { display: none; }
@media (max-width: 600px) {
  .sc-zoomline { display: flex; flex-wrap: wrap; gap: .2rem .6rem; align-items: center; justify-content: center; margin: .3rem 0 0;
    font-size: 13px; color: #5f594c; }
  .sc-zoomline button { min-height: 40px; font-size: 13px; padding: .2rem .7rem; }
}
.boardbox.fit .sc-zoomline { display: none; }
.sc-board .sc-sq { stroke: #fff; stroke-width: 1; }
.sc-board .sc-mark { stroke: none; }
.sc-board .sc-recent { fill: none; stroke-width: 3.5; }
.sc-board .sc-transit { fill: none; stroke: #6b5a2e; stroke-width: 2; stroke-dasharray: 4 3; }
.sc-board .sc-gone { fill: none; stroke-width: 2.5; stroke-dasharray: 5 4; }
.sc-board .sc-gone-x { stroke-width: 2.5; stroke-linecap: round; }
.sc-board .sc-dest { fill: #f2b134; stroke: #5c430b; stroke-width: 1.5; }
.sc-board .sc-dest.jump { fill: #d6342c; stroke: #fff; }
.sc-board .sc-pending { fill: none; stroke: #d6342c; stroke-width: 4; }
.sc-board .sc-over { fill: none; stroke: #d6342c; stroke-width: 3.5; }
.sc-board .sc-conv { fill: none; stroke: #fff; stroke-width: 2; stroke-dasharray: 3 3; }
.sc-board .sc-piece { stroke: #fff; stroke-width: 3; }
.sc-board .sc-ring { fill: none; stroke: #1f1a12; stroke-width: 1.6; }
.sc-board .sc-piece.sel { stroke: #f2b134; stroke-width: 5; }
.sc-board .sc-piece.chain { stroke: #f2b134; stroke-width: 5; stroke-dasharray: 6 3; }
.sc-board .sc-hide { opacity: 0; }
.sc-board .sc-arrows { pointer-events: none; }
.sc-board .sc-arrow-case { fill: none; stroke: #fff; stroke-width: 7; stroke-linecap: round; stroke-linejoin: round; opacity: .85; }
.sc-board .sc-arrow { fill: none; stroke-width: 3.5; stroke-linecap: round; stroke-linejoin: round; }
.sc-board .sc-anim { pointer-events: none; }
.sc-board .sc-cursor { fill: none; stroke: #111; stroke-width: 3.5; visibility: hidden; pointer-events: none; }
.sc-board .sc-cursor-in { fill: none; stroke: #fff; stroke-width: 1.5; stroke-dasharray: 4 3; visibility: hidden; pointer-events: none; }
.boardbox:focus-visible .sc-cursor, .boardbox:focus-visible .sc-cursor-in { visibility: visible; }
.sc-board .clickable:hover .sc-sq { filter: brightness(1.07); }
.sc-legend { display: flex; flex-wrap: wrap; gap: .25rem .9rem; justify-content: center; font-size: 13px; color: #5f594c; margin: .35rem 0 0; }
.sc-legend .sc-out { color: #736d61; text-decoration: line-through; }
.sc-legend .sc-out .sc-dot, .sc-legend .sc-out .sc-chip { opacity: .6; }
.sc-chip { display: inline-block; width: .9em; height: .9em; border-radius: 2px; vertical-align: -.1em; margin-right: .15em; border: 1px solid #0003; }
.sc-dot { display: inline-block; width: .8em; height: .8em; border-radius: 50%; vertical-align: -.08em; margin-right: .3em; border: 1px solid #0006; box-shadow: 0 0 0 1px #fff inset; }
.sc-last { list-style: none; margin: .35rem 0 0; padding: 0; font-size: 13px; color: #3b362c; text-align: center; }
.sc-last li { margin: .1rem 0; }
.sc-last li::before { content: ""; display: inline-block; width: 1.4em; height: .3em; border-radius: 2px; background: var(--sc-seat, #888); vertical-align: .2em; margin-right: .4em; }
.controls button.sc-choice { min-height: 44px; }
`;

// UI state (selected piece, landing square waiting for a choice), kept for one struct only
let ui = { key: null, sel: null, pending: null };
// the keyboard cursor (square indices x, y), kept across renders
let cursor = null;
// the last live board drawn (cell -> seat), the steps this module last sent, the running animation
let prevLive = null;
let played = null;
let anim = null;
// phone: how far the board area is panned (kept across renders), and "larger squares" mode
let panX = null;
let large = false;

const S = 44, M = 28, T = 6; // square side, label margin (left, bottom), other margins (SVG user units)
const FALLBACK = "#ddd";
const STEP_MS = 260, TOTAL_MS = 1400;

function structKey(st) {
  const pieces = st.board.cells.map((c) => (c.piece === null ? "." : c.piece)).join("");
  return `${pieces}|${st.to_move}|${st.legal.join(",")}|${st.turn.actions.join(",")}`;
}

const reducedMotion = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

function piecesOf(st) {
  const m = new Map();
  for (const c of st.board.cells) if (c.piece !== null) m.set(c.id, c.piece);
  return m;
}
const piecesKey = (m) => [...m].map(([k, v]) => `${k}:${v}`).sort().join(",");

function seatNamer(ctx) {
  return (i) => (ctx && ctx.seatName ? ctx.seatName(i) : (ctx && ctx.seats && ctx.seats[i] && ctx.seats[i].name) || t("slide-checkers.board.seat_n", { n: i + 1 }));
}

// The steps since the last live board: what this module sent, then the other seats' turns.
function candidateSteps(st) {
  const seq = [...(played || [])];
  for (const turn of st.recent || []) for (const s of turn.steps) {
    seq.push({ action: s.action, seat: turn.seat, path: s.path || [], removed: s.removed || [], converted: s.converted || [] });
  }
  return seq.filter((s) => s.path.length);
}

// Follow the pieces of `start` through `seq` (the effects say where each piece goes); null when
// the steps do not fit the board (then the board is not animated).
function follow(start, seq) {
  const at = new Map(), tokens = [];
  for (const [cell, seat] of start) { const t = { cell0: cell, seat0: seat, seat, events: [] }; tokens.push(t); at.set(cell, t); }
  for (let k = 0; k < seq.length; k++) {
    const s = seq[k], p = s.path;
    if (p.length === 1) {
      if (at.has(p[0])) return null;
      const t = { cell0: p[0], seat0: s.seat, seat: s.seat, born: k, events: [{ k, kind: "place" }] };
      tokens.push(t); at.set(p[0], t);
      continue;
    }
    const t = at.get(p[0]);
    if (!t || t.seat !== s.seat) return null;
    at.delete(p[0]);
    for (const r of s.removed) { const v = at.get(r); if (!v) return null; v.events.push({ k, kind: "gone" }); at.delete(r); }
    for (const c of s.converted) { const v = at.get(c); if (!v) return null; v.events.push({ k, kind: "turn", seat: s.seat }); v.seat = s.seat; }
    const last = p[p.length - 1];
    if (at.has(last)) return null;
    t.events.push({ k, kind: "move", path: p });
    at.set(last, t);
  }
  const end = new Map([...at].map(([cell, t]) => [cell, t.seat]));
  return { tokens, end };
}

// The shortest tail of the candidate steps that leads from `from` to the board now.
function stepsFrom(from, st, now) {
  const seq = candidateSteps(st), key = piecesKey(now);
  for (let i = seq.length; i >= 0; i--) {
    const tail = seq.slice(i), f = follow(from, tail);
    if (f && piecesKey(f.end) === key) return tail;
  }
  return null;
}

function stopAnim() {
  if (!anim) return;
  clearTimeout(anim.timer);
  for (const a of anim.running) a.cancel();
  if (anim.overlay) anim.overlay.remove();
  for (const e of anim.hidden) e.classList.remove("sc-hide");
  anim.done = true;
}
function finishAnim() { if (anim && !anim.done) { stopAnim(); anim = null; } }

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
  const colour = (i) => seat(i).colour || "#555";
  const name = seatNamer(ctx);
  const interactive = !!ctx.interactive;
  const byId = new Map(board.cells.map((c) => [c.id, c]));
  const outSeats = new Set((st.eliminated || []).map((e) => e.seat));

  // what to animate: from the previous live board (or the start of a running animation)
  const now = piecesOf(st);
  const nowKey = piecesKey(now);
  let plan = null;
  if (ctx.live && !reducedMotion()) {
    if (anim && !anim.done && anim.key === nowKey) plan = { from: anim.from, seq: anim.seq, start: anim.start };
    else {
      const running = anim && !anim.done;
      const from = running ? anim.from : prevLive;
      const seq = from ? stepsFrom(from, st, now) : null;
      if (seq && seq.length) {
        const keep = running && seq.length >= anim.seq.length && anim.seq.every((s, i) => s.action === seq[i].action);
        plan = { from, seq, start: keep ? anim.start : performance.now() };
      }
    }
  }
  stopAnim();
  anim = null;
  if (ctx.live) prevLive = now;

  // what the viewer may pick
  const placeAt = new Map(choices.kind === "place" ? choices.cells.map((c) => [c.cell, c.action]) : []);
  const pieces = new Map((choices.pieces || []).map((p) => [p.from, p]));
  const selected = ui.sel ? pieces.get(ui.sel) : null;
  const targets = new Map(selected && !ui.pending ? selected.targets.map((t) => [t.to, t]) : []);
  const transit = new Set(selected ? selected.transit : []);
  const pendingOver = new Set(ui.pending ? ui.pending.options.map((o) => o.over).filter(Boolean) : []);

  // what the other seats did since the viewer last moved (every step of their turns), by seat
  const touchedBy = new Map(), removedBy = new Map(), converted = new Set();
  for (const turn of st.recent || []) for (const s of turn.steps) {
    s.touched.forEach((c) => touchedBy.set(c, turn.seat));
    s.removed.forEach((c) => removedBy.set(c, turn.seat));
    (s.converted || []).forEach((c) => converted.add(c));
  }

  const width = M + board.files.length * S + T, height = T + board.ranks * S + M;
  const scroll = document.createElement("div");
  scroll.className = large ? "sc-scroll sc-large" : "sc-scroll";
  box.append(scroll);
  const svg = svgRoot(scroll, width, height, t("slide-checkers.board.label"), 640);
  svg.classList.add("sc-board");
  const px = (x) => M + x * S, py = (y) => T + (board.ranks - 1 - y) * S;
  const centre = (id) => { const c = byId.get(id); return [px(c.x) + S / 2, py(c.y) + S / 2]; };
  const labels = el("g", { fill: "#6b5a3a", "font-size": 16, "text-anchor": "middle", "font-family": "sans-serif", "aria-hidden": "true" }, svg);
  for (let x = 0; x < board.files.length; x++) el("text", { x: px(x) + S / 2, y: height - 8, text: board.files[x] }, labels);
  for (let y = 0; y < board.ranks; y++) el("text", { x: M / 2, y: py(y) + S / 2 + 6, text: String(y + 1) }, labels);

  for (const c of board.cells) {
    const x0 = px(c.x), y0 = py(c.y), cx = x0 + S / 2, cy = y0 + S / 2;
    const g = el("g", { "data-square": c.id, "data-cell": c.id, "data-colour": c.colour }, svg);
    el("rect", { x: x0, y: y0, width: S, height: S, class: "sc-sq", fill: ctx.palette[`square.${c.colour}`] || FALLBACK }, g);
    // a seat's own squares: a small corner mark in that seat's colour (the legend explains it)
    if (c.friend !== null) el("path", { d: `M${x0 + 1} ${y0 + 1}h10l-10 10z`, class: "sc-mark", fill: colour(c.friend),
      opacity: outSeats.has(c.friend) ? 0.3 : 0.9 }, g); // faint once that seat is out
    if (touchedBy.has(c.id)) el("rect", { x: x0 + 2, y: y0 + 2, width: S - 4, height: S - 4, class: "sc-recent", stroke: colour(touchedBy.get(c.id)) }, g);
    if (transit.has(c.id)) el("rect", { x: x0 + 6, y: y0 + 6, width: S - 12, height: S - 12, rx: 3, class: "sc-transit" }, g);
    if (c.piece !== null) {
      const cls = ["sc-piece", ui.sel === c.id ? (choices.kind === "continue" ? "chain" : "sel") : ""].join(" ").trim();
      el("circle", { cx, cy, r: S * 0.36 + 2.6, class: "sc-ring" }, g); // dark outer ring: stands out on any square
      el("circle", { cx, cy, r: S * 0.36, fill: colour(c.piece), class: cls, "data-piece": c.piece }, g);
      if (converted.has(c.id)) el("circle", { cx, cy, r: S * 0.2, class: "sc-conv" }, g); // exchanged (§4.3 e)
      if (pendingOver.has(c.id)) el("circle", { cx, cy, r: S * 0.46, class: "sc-over" }, g);
    } else if (removedBy.has(c.id)) {
      const k = colour(removedBy.get(c.id)), d = S * 0.14;
      el("circle", { cx, cy, r: S * 0.32, class: "sc-gone", stroke: k }, g);
      el("path", { d: `M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}`, class: "sc-gone-x", stroke: k }, g);
    }
    if (ui.pending && ui.pending.to === c.id) el("rect", { x: x0 + 3, y: y0 + 3, width: S - 6, height: S - 6, class: "sc-pending" }, g);
    const t = targets.get(c.id);
    if (interactive && (t || placeAt.has(c.id))) { // only the person who may pick sees the picks
      const jump = !!(t && t.options[0].capture);
      el("circle", { cx, cy, r: S * (jump ? 0.18 : 0.15), class: jump ? "sc-dest jump" : "sc-dest" }, g);
    }
    if (interactive && (t || placeAt.has(c.id) || (pieces.has(c.id) && choices.kind !== "continue"))) {
      g.classList.add("clickable");
      g.addEventListener("click", () => { cursor = { x: c.x, y: c.y }; placeCursor(); pick(c.id); });
    } else if (interactive) {
      g.addEventListener("click", () => pick(c.id)); // says why nothing happens (pick)
    }
  }

  // arrows along every step of the recent turns, in the mover's colour
  const arrows = el("g", { class: "sc-arrows", "aria-hidden": "true" }, svg);
  for (const turn of st.recent || []) for (const s of turn.steps) {
    const path = s.path || [];
    if (path.length < 2) continue;
    const pts = path.map(centre);
    // stop short of the landing square's centre so the arrowhead meets the piece's edge
    const [ax, ay] = pts[pts.length - 2], [bx, by] = pts[pts.length - 1];
    const len = Math.hypot(bx - ax, by - ay) || 1, ux = (bx - ax) / len, uy = (by - ay) / len;
    const tip = [bx - ux * S * 0.3, by - uy * S * 0.3];
    const line = [...pts.slice(0, -1), tip].map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
    el("polyline", { points: line, class: "sc-arrow-case" }, arrows);
    el("polyline", { points: line, class: "sc-arrow", stroke: colour(turn.seat), "data-step": s.action }, arrows);
    const h = 9, w = 6, [tx, ty] = tip;
    el("polygon", { points: `${tx + ux * 2},${ty + uy * 2} ${tx - ux * h - uy * w},${ty - uy * h + ux * w} ${tx - ux * h + uy * w},${ty - uy * h - ux * w}`,
      fill: colour(turn.seat), stroke: "#fff", "stroke-width": 1.2 }, arrows);
    el("circle", { cx: pts[0][0], cy: pts[0][1], r: 4.5, fill: colour(turn.seat), stroke: "#fff", "stroke-width": 1.2 }, arrows);
  }

  // the keyboard cursor
  if (!cursor) {
    const first = ui.sel || (choices.pieces && choices.pieces[0] && choices.pieces[0].from) || (choices.cells && choices.cells[0] && choices.cells[0].cell);
    const c = first ? byId.get(first) : null;
    cursor = c ? { x: c.x, y: c.y } : { x: 5, y: 5 };
  }
  const cur = el("rect", { width: S - 2, height: S - 2, class: "sc-cursor" }, svg);
  const curIn = el("rect", { width: S - 8, height: S - 8, class: "sc-cursor-in" }, svg);
  function placeCursor() {
    cursor.x = Math.max(0, Math.min(board.files.length - 1, cursor.x));
    cursor.y = Math.max(0, Math.min(board.ranks - 1, cursor.y));
    const x0 = px(cursor.x), y0 = py(cursor.y);
    cur.setAttribute("x", x0 + 1); cur.setAttribute("y", y0 + 1);
    curIn.setAttribute("x", x0 + 4); curIn.setAttribute("y", y0 + 4);
    svg.dataset.cursor = cellAt(cursor.x, cursor.y);
  }
  const cellAt = (x, y) => board.files[x] + (y + 1);
  placeCursor();
  // a board wider than the screen pans inside its area: keep the person's panning across
  // renders; at first show the cursor (a piece that can move) in the middle
  // right under the board (a phone's only: wider screens show the whole board with large squares),
  // in a paragraph (a thumbnail of the board, .live-board p, shows none of it)
  const line = document.createElement("p");
  line.className = "sc-zoomline";
  scroll.after(line);
  if (scroll.scrollWidth > scroll.clientWidth + 1) {
    const hint = document.createElement("span");
    hint.textContent = t("slide-checkers.board.swipe");
    line.append(hint);
    if (panX === null) panX = Math.max(0, (px(cursor.x) + S / 2) * (scroll.scrollWidth / width) - scroll.clientWidth / 2);
    scroll.scrollLeft = panX;
  }
  scroll.addEventListener("scroll", () => { panX = scroll.scrollLeft; }, { passive: true });
  const zoom = button(line, large ? t("slide-checkers.board.whole") : t("slide-checkers.board.larger"), () => { large = !large; panX = null; redraw(); });
  zoom.title = large ? t("slide-checkers.board.whole_title") : t("slide-checkers.board.larger_title");
  zoom.setAttribute("aria-pressed", String(large));
  zoom.dataset.zoom = "";

  function pick(id) {
    finishAnim();
    if (!interactive) { ctx.say(ctx.live ? (st.over ? t("board.over") : t("slide-checkers.board.not_your_turn")) : t("slide-checkers.board.past")); return; }
    if (placeAt.has(id)) { played = [{ action: placeAt.get(id), seat: st.to_move, path: [id], removed: [], converted: [] }]; return ctx.play(placeAt.get(id)); }
    const tg = targets.get(id); // a launched jump may land back on the selected piece's square
    if (tg) {
      if (tg.options.length === 1) return send(tg.options[0]);
      ui.pending = tg;
      redraw();
      ctx.say(t("slide-checkers.board.landing", { square: tg.to, options: tg.options.map((o, i) => `${i + 1}: ${optionWords(o)}`).join(". ") }));
      return;
    }
    if (pieces.has(id) && choices.kind !== "continue") {
      ui.sel = ui.sel === id ? null : id;
      ui.pending = null;
      redraw();
      ctx.say(ui.sel ? t("slide-checkers.board.selected", { square: id, moves: pieceWords(pieces.get(id)) }) : t("slide-checkers.board.deselected", { square: id }));
      return;
    }
    // why nothing happens, at the board where the player looks (ctx.note; a shell without it: said only)
    (ctx.note || ctx.say)(selected ? t("slide-checkers.board.unreachable", { square: id }) : t("slide-checkers.board.no_move_from", { square: id }));
  }

  function send(o) {
    const from = selected ? selected.from : null;
    const path = o.via ? [from, o.via, targetOf(o)] : [from, targetOf(o)];
    played = [{ action: o.action, seat: st.to_move, path, removed: o.capture === "remove" ? [o.over] : [], converted: o.capture === "exchange" ? [o.over] : [] }];
    return ctx.play(o.action);
  }
  function targetOf(o) {
    for (const t of selected ? selected.targets : []) if (t.options.includes(o)) return t.to;
    return null;
  }

  // keys (the board box has the focus)
  ctx.onKey((ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return false;
    const moves = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (moves[ev.key]) {
      finishAnim();
      cursor.x += moves[ev.key][0]; cursor.y += moves[ev.key][1];
      placeCursor();
      cur.scrollIntoView({ block: "nearest", inline: "nearest" });
      ctx.say(squareWords(byId.get(cellAt(cursor.x, cursor.y))));
      return true;
    }
    if (ev.key === "Enter" || ev.key === " ") { pick(cellAt(cursor.x, cursor.y)); return true; }
    if (ev.key === "Escape") {
      finishAnim();
      if (ui.pending) { ui.pending = null; redraw(); ctx.say(t("slide-checkers.board.choice_cancelled")); return true; }
      if (ui.sel && choices.kind !== "continue") { const was = ui.sel; ui.sel = null; redraw(); ctx.say(t("slide-checkers.board.deselected", { square: was })); return true; }
      return false;
    }
    if (/^[1-9]$/.test(ev.key) && ui.pending && interactive) {
      const o = ui.pending.options[Number(ev.key) - 1];
      if (o) { send(o); return true; }
      return false;
    }
    if ((ev.key === "n" || ev.key === "N") && interactive) {
      // the next piece that can move, or the next landing / placing square
      const list = targets.size ? [...targets.keys()] : placeAt.size ? [...placeAt.keys()] : [...pieces.keys()];
      if (!list.length) return false;
      const here = cellAt(cursor.x, cursor.y), i = list.indexOf(here);
      const next = byId.get(list[(i + (ev.shiftKey ? list.length - 1 : 1)) % list.length]);
      cursor = { x: next.x, y: next.y };
      placeCursor();
      cur.scrollIntoView({ block: "nearest", inline: "nearest" });
      ctx.say(squareWords(next));
      return true;
    }
    return false;
  });

  function squareWords(c) {
    const parts = [c.id];
    parts.push(c.friend !== null ? t("slide-checkers.board.square_of", { who: name(c.friend) }) : t("slide-checkers.board.nobodys_square"));
    if (c.piece !== null) parts.push(t("slide-checkers.board.piece_of", { who: name(c.piece) }));
    else parts.push(t("slide-checkers.board.empty"));
    if (touchedBy.has(c.id)) parts.push(t("slide-checkers.board.moved_here", { who: name(touchedBy.get(c.id)) }));
    if (removedBy.has(c.id)) parts.push(t("slide-checkers.board.taken_by", { who: name(removedBy.get(c.id)) }));
    if (interactive) {
      if (placeAt.has(c.id)) parts.push(t("slide-checkers.board.may_place"));
      const tg = targets.get(c.id);
      if (tg) parts.push(tg.options[0].capture ? t("slide-checkers.board.jump_here", { square: tg.options[0].over }) : t("slide-checkers.board.move_here"));
      else if (pieces.has(c.id) && !selected) parts.push(t("slide-checkers.board.can_move"));
      if (transit.has(c.id)) parts.push(t("slide-checkers.board.slide_square"));
    }
    return parts.join(", ");
  }

  if (plan) startAnim(svg, plan, centre, colour, nowKey);
  svg.addEventListener("pointerdown", finishAnim, { capture: true });

  if (ctx.thumbnail) return; // the board alone: the legend and the turns in words would be cut off
  legend(box, ctx, st, name);
  recentList(box, ctx, st, name);
  controls(ctx, st, choices, name, selected, redraw, send);
}

// Slide the moving pieces along their paths, fade out the taken ones, recolour the exchanged
// ones; the real pieces they stand for are hidden meanwhile. Times: STEP_MS a step, at most
// TOTAL_MS in all.
function startAnim(svg, plan, centre, colour, key) {
  const f = follow(plan.from, plan.seq);
  if (!f || typeof Element.prototype.animate !== "function") return;
  const n = plan.seq.length, step = Math.min(STEP_MS, TOTAL_MS / n), total = step * n;
  const elapsed = Math.max(0, performance.now() - plan.start);
  if (elapsed >= total) return;
  const overlay = el("g", { class: "sc-anim", "aria-hidden": "true" }, svg);
  const running = [], hidden = [];
  const r = S * 0.36;
  for (const t of f.tokens) {
    if (!t.events.length) continue;
    let [x, y] = centre(t.cell0), seatNow = t.seat0, op = t.born === undefined ? 1 : 0;
    const frames = [];
    const add = (offset) => frames.push({ offset: Math.min(1, offset), transform: `translate(${x}px, ${y}px)`, opacity: op, fill: colour(seatNow) });
    add(0);
    let cell = t.cell0;
    for (const ev of t.events) {
      const t0 = (ev.k * step) / total, t1 = ((ev.k + 1) * step) / total;
      add(t0);
      if (ev.kind === "move") {
        const pts = ev.path.map(centre);
        for (let i = 1; i < pts.length; i++) { [x, y] = pts[i]; add(t0 + ((t1 - t0) * i) / (pts.length - 1)); }
        cell = ev.path[ev.path.length - 1];
      } else if (ev.kind === "gone") {
        add(t0 + (t1 - t0) * 0.55); op = 0; add(t1); cell = null;
      } else if (ev.kind === "turn") {
        add(t0 + (t1 - t0) * 0.55); seatNow = ev.seat; add(t1);
      } else if (ev.kind === "place") {
        op = 1; add(t1);
      }
    }
    add(1);
    const g = el("g", { class: "sc-token" }, overlay);
    el("circle", { cx: 0, cy: 0, r: r + 2.6, class: "sc-ring" }, g);
    el("circle", { cx: 0, cy: 0, r, class: "sc-piece" }, g);
    const a = g.animate(frames, { duration: total, fill: "both", easing: "linear" });
    a.currentTime = elapsed;
    running.push(a);
    if (cell) {
      const real = svg.querySelector(`[data-square="${cell}"] .sc-piece`);
      const ring = svg.querySelector(`[data-square="${cell}"] .sc-ring`);
      for (const e of [real, ring]) if (e) { e.classList.add("sc-hide"); hidden.push(e); }
    }
  }
  const arrows = svg.querySelector(".sc-arrows");
  if (arrows) {
    const a = arrows.animate([{ opacity: 0 }, { opacity: 0, offset: 0.85 }, { opacity: 1 }], { duration: total, fill: "both" });
    a.currentTime = elapsed;
    running.push(a);
  }
  anim = { key, from: plan.from, seq: plan.seq, start: plan.start, overlay, running, hidden, done: false };
  const mine = anim;
  anim.timer = setTimeout(() => { if (anim === mine) finishAnim(); }, total - elapsed + 30);
}

function optionWords(o) {
  const via = o.via ? t("slide-checkers.board.sliding_first", { square: o.via }) : "";
  return t(o.capture === "remove" ? "slide-checkers.board.remove_on" : "slide-checkers.board.exchange_on", { square: o.over }) + via;
}

function pieceWords(p) {
  const moves = [], jumps = [];
  for (const tg of p.targets) {
    if (tg.options[0].capture) jumps.push(t("slide-checkers.board.to_over", { to: tg.to, over: tg.options[0].over }));
    else moves.push(tg.to);
  }
  const out = [];
  if (jumps.length) out.push(t("slide-checkers.board.jumps_to", { squares: jumps.join(", ") }));
  if (moves.length) out.push(t("slide-checkers.board.n_moves", { n: moves.length, squares: moves.join(", ") }));
  if (p.transit && p.transit.length) out.push(t("slide-checkers.board.slides_through", { squares: p.transit.join(", ") }));
  return out.join(" ");
}

// A match that ended off the board (a resignation, a lost clock): its last position has a player
// to move, but nobody moves any more, so the board speaks of the end instead of a turn.
function endedEarly(st, ctx) {
  return !!(ctx && ctx.live !== false && ctx.ended && !st.over);
}

// The board's text alternative (the shell keeps it in a polite live region tied to the board).
export function describe(st, ctx) {
  const name = seatNamer(ctx);
  const b = st.board;
  const out = [];
  const gone = new Set((st.eliminated || []).map((e) => e.seat));
  if (st.over) {
    const w = (st.end && st.end.winners) || [];
    const who = w.length ? (w.length === 1 && isYou(name(w[0])) ? t("result.you_win") : w.length === 1 ? t("board.wins", { name: name(w[0]) }) : t("board.win_many", { names: w.map(name) })) : t("board.a_draw");
    out.push(t("slide-checkers.board.over", { who }) + (st.end && st.end.text ? ` ${fmt(st.end.message, st.end.text)}.` : ""));
  } else if (endedEarly(st, ctx)) {
    out.push(`${ctx.ended.text}.`);
  }
  for (const turn of st.recent || []) {
    out.push(`${turn.steps.map(said).join(t("slide-checkers.board.then"))}.`);
  }
  if (!st.over && !endedEarly(st, ctx) && st.to_move !== null) {
    const who = name(st.to_move);
    const phase = b.phase === "placement" ? "place" : b.jump_from ? "jump_on" : "move";
    out.push(t(`slide-checkers.board.${isYou(who) ? "your" : "their"}_turn_${phase}`, { who, square: b.jump_from }));
    if (ctx && ctx.interactive && st.choices && st.choices.kind === "jump" && !b.jump_from) out.push(t("slide-checkers.board.jump_compulsory"));
    if (ctx && ctx.interactive && st.choices && st.choices.kind === "pass") out.push(t("slide-checkers.board.must_pass"));
  }
  // the selected piece's moves (this module's own state, when it belongs to this struct)
  if (ui.key === structKey(st) && ui.sel && st.choices && st.choices.pieces) {
    const p = st.choices.pieces.find((x) => x.from === ui.sel);
    if (p) out.push(t("slide-checkers.board.selected_desc", { square: p.from, moves: pieceWords(p) }));
  }
  const seats = b.seat_colours.map((_, i) => i);
  // each seat alike, colour and player (the shell's seatLabel), however seatName names them
  const side = (i) => (ctx && ctx.seatLabel ? ctx.seatLabel(i) : name(i));
  const where = seats.map((i) => {
    if (gone.has(i)) return t("slide-checkers.board.seat_out", { who: side(i) });
    const cells = b.cells.filter((c) => c.piece === i).map((c) => c.id);
    const left = b.phase === "placement" && b.to_place[i] ? t("slide-checkers.board.to_place_comma", { n: b.to_place[i] }) : "";
    return `${side(i)}: ${cells.length ? cells.join(" ") : t("slide-checkers.board.no_pieces")}${left}`;
  });
  out.push(t("slide-checkers.board.pieces", { where: where.join(". ") }));
  return out.join(" ");
}

// Whose squares are which colour, the pieces of each seat, and the counts of §5.
function legend(box, ctx, st, name) {
  const board = st.board;
  const out = new Set((st.eliminated || []).map((e) => e.seat));
  const div = document.createElement("div");
  div.className = "sc-legend";
  const chip = (letter) => {
    const c = document.createElement("span");
    c.className = "sc-chip";
    c.style.background = ctx.palette[`square.${letter}`] || FALLBACK;
    return c;
  };
  for (const cls of [...board.classes].filter((c) => c.seat !== null).sort((a, b) => a.seat - b.seat)) {
    const item = document.createElement("span");
    item.dataset.seat = cls.seat;
    const dot = document.createElement("span");
    dot.className = "sc-dot";
    dot.style.background = (ctx.seats[cls.seat] || {}).colour || "#555";
    const left = board.phase === "placement" ? t("slide-checkers.board.to_place_plus", { n: board.to_place[cls.seat] }) : "";
    const n = board.pieces[cls.seat];
    item.append(dot, `${name(cls.seat)}: ${out.has(cls.seat) ? t("slide-checkers.board.out") : t("slide-checkers.board.n_pieces", { n }) + left}${t("slide-checkers.board.own_squares")}`, chip(cls.colour));
    if (out.has(cls.seat)) item.className = "sc-out";
    div.append(item);
  }
  const nobody = board.classes.filter((c) => c.seat === null);
  if (nobody.length) {
    const item = document.createElement("span");
    item.append(t("slide-checkers.board.nobodys_squares"), ...nobody.map((c) => chip(c.colour)));
    div.append(item);
  }
  if (board.phase === "movement" && board.no_jump > 0) {
    const item = document.createElement("span");
    item.textContent = t("slide-checkers.board.no_jump", { n: board.no_jump, limit: board.no_jump_limit });
    div.append(item);
  }
  box.append(div);
}

// The other seats' turns since the viewer last moved, in words, marked in each seat's colour.
function recentList(box, ctx, st, name) {
  if (!(st.recent || []).length) return;
  const ul = document.createElement("ul");
  ul.className = "sc-last";
  ul.setAttribute("aria-hidden", "true"); // describe() says the same to screen readers
  for (const turn of st.recent) {
    const li = document.createElement("li");
    li.style.setProperty("--sc-seat", (ctx.seats[turn.seat] || {}).colour || "#888");
    li.dataset.seat = turn.seat;
    li.textContent = turn.steps.map(said).join(t("slide-checkers.board.then"));
    ul.append(li);
  }
  box.append(ul);
}

function controls(ctx, st, choices, name, selected, redraw, send) {
  const info = document.createElement("span");
  info.className = "info";
  const mover = st.to_move;
  const pickable = ctx.interactive;
  let text = "";
  if (st.over || mover === null || endedEarly(st, ctx)) text = "";
  else if (pickable && ui.pending) text = t("slide-checkers.board.remove_or_exchange");
  else if (st.board.phase === "placement") text = t("slide-checkers.board.places", { who: name(mover) });
  else if (st.board.jump_from) text = t("slide-checkers.board.must_jump_on", { who: name(mover), square: st.board.jump_from });
  else if (!pickable) text = t("board.to_move", { who: name(mover) });
  else if (choices.kind === "jump") text = selected ? t("slide-checkers.board.red_jump") : t("slide-checkers.board.pick_jumper");
  else if (choices.kind === "move") text = selected ? t("slide-checkers.board.gold_step") : t("slide-checkers.board.pick_piece");
  else if (choices.kind === "pass") text = t("slide-checkers.board.no_piece_moves");
  info.textContent = text;
  ctx.controls.append(info);
  if (!ctx.interactive) return;
  if (ui.pending) {
    ui.pending.options.forEach((o, i) => {
      const via = o.via ? t("slide-checkers.board.from_via", { square: o.via }) : "";
      const b = button(ctx.controls, t(o.capture === "remove" ? "slide-checkers.board.remove_button" : "slide-checkers.board.exchange_button", { square: o.over }) + via, () => send(o), "primary sc-choice");
      b.dataset.choice = o.action;
      b.setAttribute("aria-keyshortcuts", String(i + 1));
    });
    button(ctx.controls, t("board.cancel"), () => { ui.pending = null; redraw(); }, "sc-choice").setAttribute("aria-keyshortcuts", "Escape");
  }
  if (choices.kind === "pass") {
    const b = button(ctx.controls, t("slide-checkers.board.pass"), () => ctx.play(choices.action), "primary sc-choice");
    b.id = "pass";
  }
}
