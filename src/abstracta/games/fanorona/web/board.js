// Fanorona board: draws the structured view (view.py; spec fanorona.md §1, §3) and sends the
// action strings it lists. Points, lines, stones, the chain, the legal steps, the stones each
// capture would take and every step's words all come from ctx.struct: nothing here knows a rule.
//
// UX: click a stone (outlined when it may move), then a destination (gold dot). When one step
// both approaches and withdraws, the two lines to take are marked A and W: click a stone of
// one of them, a button under the board, or press A / W. During a chain the capturing stone
// stays selected, its way so far and the stones it has taken are marked, and "End turn" (or E)
// stops it. The opponents' turns since the viewer last moved (struct.recent) are drawn as
// numbered blue arrows, the stones they took as dashed red rings, and the newest turn is
// animated step by step (not with prefers-reduced-motion; a click or key finishes it at once).
//
// Keyboard: the board box has the focus; the arrow keys move a cursor from point to point (in
// the direction seen on screen), Enter or Space acts like a click there, A / W pick the capture
// line, E ends a chain, Escape cancels. Phones: a 9×5 board that would give less than 44 px
// per point is drawn turned a quarter clockwise (5 points across, 9 down; White on the left),
// so the whole board stays in view with finger-sized points and the page never scrolls sideways.
import { el, svgRoot, button } from "/svg.js";
import { andList, fmt, orList, t } from "/i18n.js";

export const css = `
svg.fan-board .fan-hit { fill: transparent; }
svg.fan-board .fan-deco { pointer-events: none; }
svg.fan-board .fan-stone { stroke: #3a3128; stroke-width: 2; }
svg.fan-board .fan-stone.fan-sel { stroke: #f2b134; stroke-width: 6; }
svg.fan-board .fan-stone.fan-capt { stroke: #d6342c; stroke-width: 5; }
svg.fan-board .fan-movable { fill: none; stroke: #3d7cc9; stroke-width: 2.5; stroke-dasharray: 5 4; }
svg.fan-board .fan-dest { fill: #f2b134; opacity: .85; }
svg.fan-board .fan-hit.clickable { cursor: pointer; }
svg.fan-board .fan-hit.clickable:hover { fill: rgba(242, 177, 52, .22); }
svg.fan-board .fan-recent { stroke: #3d7cc9; stroke-width: 7; stroke-linecap: round; opacity: .55; }
svg.fan-board .fan-recent-from { fill: #3d7cc9; opacity: .45; }
svg.fan-board .fan-moved { fill: none; stroke: #3d7cc9; stroke-width: 4; opacity: .8; }
svg.fan-board .fan-stepno { font: 700 13px sans-serif; fill: #fff; text-anchor: middle; }
svg.fan-board .fan-stepno-bg { fill: #3d7cc9; }
svg.fan-board .fan-gone { fill: rgba(214, 52, 44, .08); stroke: #d6342c; stroke-width: 2.5; stroke-dasharray: 5 4; }
svg.fan-board .fan-taken { fill: rgba(224, 134, 28, .12); stroke: #e0861c; stroke-width: 3; stroke-dasharray: 4 4; }
svg.fan-board .fan-trail { fill: none; stroke: #e0861c; stroke-width: 5; stroke-dasharray: 9 6; stroke-linecap: round; opacity: .8; }
svg.fan-board .fan-visited { fill: #f6e6c4; stroke: #e0861c; stroke-width: 3; }
svg.fan-board .fan-tag { font: 700 17px sans-serif; fill: #d6342c; text-anchor: middle; }
svg.fan-board .fan-cursor { fill: none; stroke: #1d5fd1; stroke-width: 4; display: none; }
:focus-visible > svg.fan-board .fan-cursor, :focus > svg.fan-board.fan-kbd .fan-cursor { display: inline; }
.fan-note { align-self: center; font-size: .95rem; }
button.fan-btn { min-height: 44px; min-width: 44px; }
`;

const S = 64; // distance between points (viewBox units)
const M = 40; // margin around the outer points (top, right)
const L = 50, B = 64; // left and bottom margins: room for the rank and file labels
const MIN_PX = 44; // narrowest point spacing (CSS px) before a 9×5 board turns to portrait
const PORTRAIT_PX = 56; // point spacing of the portrait board

// UI state of the position on screen; reset when another position arrives (see keyOf).
let ui = { key: null, sel: null, pending: null };
// kept across positions and re-renders: the keyboard cursor (a point id) and whether keys are in use
let cursor = null;
let keyboard = false;
// the position shown last (to animate from) and the animation in progress
let prev = { key: null, stones: null, live: false, box: null };
let anim = null; // {key, start, plan: [{path, removed}], per}
let running = []; // Animation objects and ghost elements of the current render
let lastRedraw = null;
let portraitShown = null;

// A content key: the shell may hand over a fresh but equal struct (polling, redraws).
function keyOf(struct) {
  return JSON.stringify([struct.board.points.map((p) => p.stone), struct.legal, struct.turn.actions, struct.over]);
}

const reducedMotion = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

function portraitFor(box, board) {
  if (board.width <= board.height) return false;
  const cs = getComputedStyle(box);
  const avail = box.clientWidth - parseFloat(cs.paddingLeft || 0) - parseFloat(cs.paddingRight || 0);
  if (!avail) return false;
  const units = L + M + (board.width - 1) * S;
  const px = Math.min(avail, 110 * board.width + 80) / units * S;
  return px < MIN_PX;
}

if (typeof window !== "undefined") {
  window.addEventListener("resize", () => { if (lastRedraw) lastRedraw(true); });
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
  stopRunning();

  const stones = new Map(board.points.map((p) => [p.id, p.stone]));
  // another match page (a new board box): nothing to animate from, the cursor starts afresh
  if (prev.box !== box) { prev = { key: null, stones: null, live: false, box }; cursor = null; anim = null; }
  // what to animate: a new live position after a live one
  if (prev.key !== key) {
    const plan = ctx.live && prev.live && prev.stones && !reducedMotion() ? planFrom(prev.stones, struct) : null;
    anim = plan && plan.length ? { key, start: performance.now(), plan, per: Math.max(120, Math.min(260, 1400 / plan.length)) } : null;
    prev = { key, stones, live: ctx.live, box };
  } else if (!ctx.live) {
    anim = null;
  }
  if (cursor === null || !stones.has(cursor)) cursor = chainStone || (moves[0] && moves[0].from) || centre(board);

  const W = board.width, H = board.height;
  const portrait = portraitFor(box, board);
  portraitShown = portrait;
  // screen grid: landscape (file → column, rank 1 at the bottom) or a quarter turn clockwise
  // (rank → column, rank 1 on the left; file a at the top)
  const cols = portrait ? H : W, rows = portrait ? W : H;
  const grid = (p) => (portrait ? [p.y, p.x] : [p.x, H - 1 - p.y]);
  const width = L + M + (cols - 1) * S, height = M + B + (rows - 1) * S;
  const cell = new Map(board.points.map((p) => [p.id, grid(p)]));
  const at = new Map([...cell].map(([id, [c, r]]) => [id, [L + c * S, M + r * S]]));
  const byCell = new Map([...cell].map(([id, [c, r]]) => [`${c},${r}`, id]));
  const maxWidth = portrait ? width * PORTRAIT_PX / S : 110 * W + 80;
  const svg = svgRoot(box, width, height, t("fanorona.board.label"), maxWidth);
  svg.classList.add("fan-board");
  if (portrait) svg.classList.add("fan-portrait");
  if (keyboard) svg.classList.add("fan-kbd");
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
  const bottom = portrait ? (c) => String(c + 1) : (c) => board.files[c];
  const left = portrait ? (r) => board.files[r] : (r) => String(H - r);
  for (let c = 0; c < cols; c++) el("text", { x: L + c * S, y: height - 17, text: bottom(c) }, labels);
  for (let r = 0; r < rows; r++) el("text", { x: 17, y: M + r * S + 7, text: left(r) }, labels);

  // what the opponents did since the viewer last moved: every step's move and captures, the
  // steps of a turn numbered, the stones that moved ringed
  const deco = el("g", { class: "fan-deco" }, svg);
  const gone = new Set();
  const movedTo = new Set();
  for (const turn of struct.recent || []) {
    const steps = turn.steps.filter((s) => s.touched.length === 2);
    steps.forEach((step, i) => {
      const [x1, y1] = at.get(step.touched[0]), [x2, y2] = at.get(step.touched[1]);
      const f = 0.3 * S / Math.hypot(x2 - x1, y2 - y1); // start outside the from point's ring
      el("circle", { cx: x1, cy: y1, r: S * 0.12, class: "fan-recent-from" }, deco);
      el("line", { x1: x1 + (x2 - x1) * f, y1: y1 + (y2 - y1) * f, x2: x2 - (x2 - x1) * f, y2: y2 - (y2 - y1) * f,
        class: "fan-recent", "marker-end": "url(#fan-arrow)", "data-step": step.action }, deco);
      if (steps.length > 1) { // the step's number beside the arrow (above it, or to its left)
        const len = Math.hypot(x2 - x1, y2 - y1);
        let nx = -(y2 - y1) / len, ny = (x2 - x1) / len;
        if (ny > 0.01 || (Math.abs(ny) <= 0.01 && nx > 0)) { nx = -nx; ny = -ny; }
        const mx = (x1 + x2) / 2 + nx * 17, my = (y1 + y2) / 2 + ny * 17;
        el("circle", { cx: mx, cy: my, r: 9, class: "fan-stepno-bg" }, deco);
        el("text", { x: mx, y: my + 4.5, class: "fan-stepno", text: String(i + 1) }, deco);
      }
      movedTo.delete(step.touched[0]);
      movedTo.add(step.touched[1]);
    });
    for (const step of turn.steps) for (const p of step.removed) gone.add(p);
  }
  // the chain in progress: the way the capturing stone came (it may not return to those points)
  // and the stones it has taken this turn
  const taken = new Set(board.chain && board.chain.taken ? board.chain.taken : []);
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
  const seatColour = (seat) => (ctx.seats[seat] || {}).colour || (seat ? "#2a2622" : "#fbf8f0");
  for (const p of board.points) {
    const [cx, cy] = at.get(p.id);
    if (p.stone === null) {
      if (taken.has(p.id)) el("circle", { cx, cy, r: S * 0.3, class: "fan-taken fan-deco", "data-taken": p.id }, svg);
      else if (gone.has(p.id)) el("circle", { cx, cy, r: S * 0.3, class: "fan-gone fan-deco", "data-gone": p.id }, svg);
      continue;
    }
    const c = el("circle", { cx, cy, r: S * 0.31, fill: seatColour(p.stone),
      class: "fan-stone fan-deco", "data-stone": p.id, "data-seat": p.stone }, svg);
    if (ui.sel === p.id) c.classList.add("fan-sel");
    stoneEl.set(p.id, c);
    if (movedTo.has(p.id)) el("circle", { cx, cy, r: S * 0.37, class: "fan-moved fan-deco", "data-moved": p.id }, svg);
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
  // the keyboard cursor (shown while the board has the keyboard focus)
  {
    const [cx, cy] = at.get(cursor);
    const h = S * 0.46;
    el("rect", { x: cx - h, y: cy - h, width: 2 * h, height: 2 * h, rx: 10, class: "fan-cursor fan-deco", "data-cursor": cursor }, svg);
  }

  // hit targets, one per point, on top
  const mark = (options, on) => {
    for (const o of options) for (const p of o.removes) if (stoneEl.has(p)) stoneEl.get(p).classList.toggle("fan-capt", on);
  };
  for (const p of board.points) {
    const [cx, cy] = at.get(p.id);
    const hit = el("circle", { cx, cy, r: S * 0.48, class: "fan-hit", "data-point": p.id, "data-cell": p.id }, svg);
    if (!ctx.interactive) continue;
    // a click elsewhere cancels a selection or a pending choice; on a stone that cannot move it
    // says so (click)
    const listens = byFrom.has(p.id) || dests.has(p.id) || takes.has(p.id) || ui.sel || ui.pending || stones.get(p.id) !== null;
    if (byFrom.has(p.id) || dests.has(p.id) || takes.has(p.id)) hit.classList.add("clickable");
    if (dests.has(p.id)) { // preview what the step would take
      hit.addEventListener("mouseenter", () => mark(dests.get(p.id), true));
      hit.addEventListener("mouseleave", () => mark(dests.get(p.id), false));
    }
    if (listens) hit.addEventListener("click", () => { keyboard = false; cursor = p.id; click(p.id); });
  }
  // a click or tap during an animation finishes it at once (the click itself still counts)
  svg.addEventListener("pointerdown", finishAnimation, true);

  const redraw = () => { box.replaceChildren(); ctx.controls.replaceChildren(); render(box, ctx); };
  lastRedraw = (resized) => {
    if (!box.isConnected) { lastRedraw = null; return; }
    if (resized && portraitFor(box, board) === portraitShown) return;
    redraw();
  };
  const seatName = (seat) => ctx.seatName(seat);
  function click(p) {
    if (ui.pending) {
      if (takes.has(p)) { ctx.play(takes.get(p).action); return; }
      ui.pending = null;
      ctx.say(t("fanorona.board.capture_cancelled"));
      redraw();
      return;
    }
    if (dests.has(p)) {
      const options = dests.get(p);
      if (options.length === 1) ctx.play(options[0].action);
      else {
        ui.pending = options;
        ctx.say(t("fanorona.board.which_way_say", { options: options.map((o) => t("fanorona.board.option_say",
          { tag: tag(o), kind: t(`fanorona.kind.${o.kind}`), stones: list(o.removes) })).join("; ") }));
        redraw();
      }
      return;
    }
    // why nothing happens, at the board where the player looks (a plug-in shell without
    // ctx.note says it only)
    const refuse = (text) => (ctx.note || ctx.say)(text);
    if (chainStone) { // the capturing stone must go on (or the turn ends)
      if (ctx.interactive) refuse(t("fanorona.board.must_go_on", { point: chainStone }));
      return;
    }
    const was = ui.sel;
    ui.sel = byFrom.has(p) && ui.sel !== p ? p : null;
    if (ui.sel) ctx.say(t("fanorona.board.selected", { point: ui.sel, moves: movesWords(byFrom.get(ui.sel)) }));
    else if (was) ctx.say(t("fanorona.board.selection_cancelled"));
    else if (stones.get(p) !== null && stones.get(p) !== undefined && byFrom.size) {
      // the view's legal moves start elsewhere; while one captures, the view's phase says why
      const why = choices.phase === "capture" ? ` ${t("fanorona.board.compulsory_note")}` : "";
      refuse(t("fanorona.board.cannot_move", { point: p }) + why);
      return; // nothing to draw again: the note stays
    }
    redraw();
  }
  function cancel() {
    if (ui.pending) { ui.pending = null; ctx.say(t("fanorona.board.capture_cancelled")); redraw(); return true; }
    if (ui.sel && ui.sel !== chainStone) { ui.sel = null; ctx.say(t("fanorona.board.selection_cancelled")); redraw(); return true; }
    return false;
  }
  function choose(kind) {
    const o = ui.pending && ui.pending.find((x) => x.kind === kind);
    if (o) { ctx.play(o.action); return true; }
    return false;
  }

  ctx.onKey((ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return false;
    finishAnimation(); // a key, like a click, finishes an animation at once
    const k = ev.key;
    const delta = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[k];
    if (delta) {
      keyboard = true;
      svg.classList.add("fan-kbd");
      const [c, r] = cell.get(cursor);
      const next = byCell.get(`${c + delta[0]},${r + delta[1]}`);
      if (next) {
        cursor = next;
        const rect = svg.querySelector(".fan-cursor");
        const [cx, cy] = at.get(next), h = S * 0.46;
        rect.setAttribute("x", cx - h);
        rect.setAttribute("y", cy - h);
        rect.dataset.cursor = next;
      }
      ctx.say(pointWords(cursor));
      return true;
    }
    if (k === "Enter" || k === " " || k === "Spacebar") {
      keyboard = true;
      if (!ctx.interactive) { ctx.say(struct.over ? t("board.over") : t("board.not_your_move")); return true; }
      click(cursor);
      return true;
    }
    if (k === "Escape") return cancel();
    if (!ctx.interactive) return false;
    const low = k.toLowerCase();
    if (low === "a") return choose("approach");
    if (low === "w") return choose("withdrawal");
    if (low === "e" && choices.end) { ctx.play(choices.end.action); return true; }
    return false;
  });

  function pointWords(p) {
    const seat = stones.get(p);
    let words = seat === null ? t("fanorona.board.point_empty", { point: p }) : t("fanorona.board.point_stone", { point: p, seat: seatName(seat) });
    if (!ctx.interactive) return words;
    if (takes.has(p)) words += t("fanorona.board.point_taken", { by: t(`fanorona.by.${takes.get(p).kind}`) });
    else if (dests.has(p)) words += t("fanorona.board.point_dest", { from: ui.sel, options: orList(dests.get(p).map((o) => optionWords(o))) });
    else if (byFrom.has(p) && p !== ui.sel) words += t("fanorona.board.point_can_move");
    else if (p === ui.sel) words += t("fanorona.board.point_selected");
    return words;
  }

  // animate the newest turn (or catch up with one that a re-render interrupted)
  if (anim && anim.key === key) runAnimation(svg, at, stoneEl, seatColour);

  // controls under the board: notes for everyone, buttons for the player to move
  const note = (text) => { const s = document.createElement("span"); s.className = "info fan-note"; s.textContent = text; ctx.controls.append(s); };
  if (board.vela_phase) note(t("fanorona.board.vela_note", { black: ctx.seatName(1), white: ctx.seatName(0) }));
  if (!struct.over && board.no_progress >= board.no_progress_limit - 20) {
    note(t("fanorona.board.no_progress", { n: board.no_progress, limit: board.no_progress_limit }));
  }
  if (!ctx.interactive) return;
  if (ui.pending) {
    note(t("fanorona.board.which_way"));
    for (const o of ui.pending) {
      const n = o.removes.length;
      const b = button(ctx.controls, t(`fanorona.board.option_button.${o.kind}`, { n, stones: o.removes.join(" ") }),
        () => ctx.play(o.action), "primary fan-btn");
      b.dataset.choice = tag(o);
      b.setAttribute("aria-keyshortcuts", tag(o));
    }
    button(ctx.controls, t("board.cancel"), () => cancel(), "fan-btn").setAttribute("aria-keyshortcuts", "Escape");
  }
  if (choices.end) {
    const b = button(ctx.controls, t("board.end_turn"), () => ctx.play(choices.end.action), "fan-btn");
    b.id = "end-turn";
    b.setAttribute("aria-keyshortcuts", "E");
  }
  if (chainStone && !ui.pending) {
    const n = taken.size;
    note(t("fanorona.board.chain_note", { point: chainStone, taken: n ? t("fanorona.board.taken_so_far", { n }) : "" }));
  } else if (!ui.pending && !ui.sel && choices.phase === "capture") note(t("fanorona.board.compulsory_note"));
}

// --- animation -------------------------------------------------------------------------------

// The steps that lead from the stones shown before (P) to this struct's: the shortest tail of
// the recent turns' steps that turns P into the new stones; else, the plain difference (one
// stone of a seat moved along the chain's visited points or straight, others vanished).
function planFrom(P, struct) {
  const C = new Map(struct.board.points.map((p) => [p.id, p.stone]));
  let same = true;
  for (const [id, s] of C) if (P.get(id) !== s) { same = false; break; }
  if (same) return null;
  const timeline = [];
  for (const turn of struct.recent || []) {
    for (const s of turn.steps) if (s.touched.length === 2) timeline.push({ path: [...s.touched], removed: s.removed });
  }
  for (let i = timeline.length - 1; i >= 0; i--) {
    const tail = timeline.slice(i);
    if (replays(P, tail, C)) return tail.map((s) => ({ ...s, removed: s.removed.map((id) => ({ id, seat: P.get(id) })) }));
  }
  // the difference
  const lost = [[], []], gained = [[], []];
  for (const [id, s] of C) {
    const was = P.get(id);
    if (was === s) continue;
    if (was !== null && was !== undefined) lost[was].push(id);
    if (s !== null) gained[s].push(id);
  }
  const steps = [];
  const removed = [];
  for (const seat of [0, 1]) {
    if (gained[seat].length === 1 && lost[seat].length === 1) {
      const from = lost[seat][0], to = gained[seat][0];
      const chain = struct.board.chain;
      const v = chain ? chain.visited : [];
      const i = v.indexOf(from);
      const path = i >= 0 && v[v.length - 1] === to ? v.slice(i) : [from, to];
      for (let k = 0; k + 1 < path.length; k++) steps.push({ path: [path[k], path[k + 1]], removed: [] });
    } else {
      for (const id of lost[seat]) if (!gained[seat].length) removed.push({ id, seat });
    }
  }
  if (!steps.length && !removed.length) return null;
  if (!steps.length) steps.push({ path: [], removed: [] });
  steps[steps.length - 1].removed = removed;
  return steps;
}

function replays(P, steps, C) {
  const b = new Map(P);
  for (const s of steps) {
    const [from, to] = s.path;
    const seat = b.get(from);
    if (seat === null || seat === undefined || b.get(to) !== null) return false;
    b.set(from, null);
    b.set(to, seat);
    for (const id of s.removed) { if (b.get(id) === null) return false; b.set(id, null); }
  }
  for (const [id, s] of C) if (b.get(id) !== s) return false;
  return true;
}

function runAnimation(svg, at, stoneEl, seatColour) {
  const { plan, per, start } = anim;
  const T = per * plan.length;
  const elapsed = performance.now() - start;
  if (elapsed >= T || typeof svg.animate !== "function") { anim = null; return; }
  svg.dataset.animSteps = String(plan.length);
  svg.dataset.animMs = String(Math.round(T));
  const timing = { duration: T, fill: "none", easing: "linear" };
  // each stone that moved: its moves in order, keyed by where it rests now
  const stoneAt = new Map(); // point -> {moves: [{i, from, to}]}
  plan.forEach((s, i) => {
    if (s.path.length === 2) {
      const [from, to] = s.path;
      const who = stoneAt.get(from) || { moves: [] };
      stoneAt.delete(from);
      who.moves.push({ i, from, to });
      stoneAt.set(to, who);
    }
    for (const r of s.removed) stoneAt.delete(r.id);
  });
  const moving = [...stoneAt.values()].map((x) => x.moves);
  for (const moves of moving) {
    const q = moves[moves.length - 1].to;
    const node = stoneEl.get(q);
    if (!node) continue;
    const [qx, qy] = at.get(q);
    const off = (p) => { const [x, y] = at.get(p); return `translate(${x - qx}px, ${y - qy}px)`; };
    const frames = [{ offset: 0, transform: off(moves[0].from) }];
    for (const m of moves) {
      frames.push({ offset: m.i * per / T, transform: off(m.from) });
      frames.push({ offset: (m.i + 1) * per / T, transform: off(m.to) });
    }
    if (frames[frames.length - 1].offset < 1) frames.push({ offset: 1, transform: "translate(0px, 0px)" });
    const a = node.animate(frames, { ...timing, easing: "ease-in-out" });
    a.currentTime = elapsed;
    running.push(a);
  }
  // the stones taken: ghosts where they stood, fading as the capturing stone arrives
  const layer = el("g", { class: "fan-deco fan-ghosts" }, svg);
  plan.forEach((s, i) => {
    for (const r of s.removed) {
      if (r.seat === null || r.seat === undefined) continue;
      const [cx, cy] = at.get(r.id);
      const g = el("circle", { cx, cy, r: S * 0.31, fill: seatColour(r.seat), class: "fan-stone fan-ghost", "data-ghost": r.id }, layer);
      const a = g.animate([{ offset: 0, opacity: 1 }, { offset: Math.min(1, (i + 0.55) * per / T), opacity: 1 },
        { offset: Math.min(1, (i + 1) * per / T), opacity: 0 }, { offset: 1, opacity: 0 }], { duration: T, fill: "forwards" });
      a.currentTime = elapsed;
      running.push(a);
    }
  });
  running.push(layer);
  const done = () => { if (anim && anim.start === start) anim = null; layer.remove(); };
  const last = running.find((x) => x instanceof Animation);
  if (last) last.finished.then(done, () => {});
  else done();
}

function stopRunning() {
  for (const r of running) {
    if (r instanceof Element) r.remove();
    else r.cancel();
  }
  running = [];
}

function finishAnimation() {
  if (!anim) return;
  anim = null;
  for (const r of running) {
    if (r instanceof Element) r.remove();
    else r.finish();
  }
  running = [];
}

// --- words -----------------------------------------------------------------------------------

function tag(option) {
  return option.kind === "approach" ? "A" : option.kind === "withdrawal" ? "W" : "";
}

function list(items) {
  return andList(items);
}

function optionWords(o) {
  return o.kind === "paika" ? t("fanorona.board.plain_move") : t("fanorona.board.option_words", { kind: t(`fanorona.kind.${o.kind}`), stones: list(o.removes) });
}

function movesWords(targets) {
  return t("fanorona.board.moves", { moves: targets.map((x) => `${x.to} (${orList(x.options.map(optionWords))})`).join(", ") });
}

function centre(board) {
  const cx = (board.width - 1) / 2, cy = (board.height - 1) / 2;
  let best = board.points[0];
  for (const p of board.points) if (Math.hypot(p.x - cx, p.y - cy) < Math.hypot(best.x - cx, best.y - cy)) best = p;
  return best.id;
}

// One sentence on the keys (the shell puts it in the board's accessible name).
export const keyHelp = () => t("fanorona.board.key_help");

// A match that ended off the board (a resignation, a lost clock): its last position has a player
// to move, but nobody moves any more, so the board speaks of the end instead of a turn.
function endedEarly(st, ctx) {
  return !!(ctx && ctx.live !== false && ctx.ended && !st.over);
}

// The board's text alternative: whose turn, the last turns in words, the chain so far, the
// selected stone's moves, the stones left and, when the game is over, the result and why.
export function describe(struct, ctx) {
  const name = (seat) => (ctx && ctx.seatName ? ctx.seatName(seat) : t(`fanorona.seat.${seat}`));
  const { board } = struct;
  const out = [];
  // a player is told the opponent's turn since their own; a spectator the last turn of each
  // seat, named, in one sentence
  const turns = (struct.recent || []).filter((turn) => turn.steps.length)
    .map((turn) => ({ seat: turn.seat, words: turn.steps.map((s) => fmt(s.message, s.text) || s.action).join("; ") }));
  if (turns.length === 1) out.push(t("board.last_turn", { words: turns[0].words }));
  else if (turns.length) out.push(t("board.last_turns", { words: turns.map((x) => t("board.turn_of", { who: name(x.seat), words: x.words })).join(" · ") }));
  if (struct.over && struct.end) {
    const winners = struct.end.winners || [];
    const result = winners.length === 1 ? t("board.wins", { name: name(winners[0]) }) : winners.length ? t("board.win_many", { names: winners.map(name) }) : t("board.a_draw");
    out.push(t("board.game_over", { result, why: fmt(struct.end.message, struct.end.text) }));
  } else if (endedEarly(struct, ctx)) {
    out.push(`${ctx.ended.text}.`);
  } else if (struct.to_move !== null && struct.to_move !== undefined) {
    out.push(t("board.to_move", { who: name(struct.to_move) }));
    const c = struct.choices || {};
    if (board.chain) {
      const taken = board.chain.taken || [];
      out.push(t("fanorona.board.chain_desc", { point: board.chain.stone, path: board.chain.visited.join("→"),
        taken: taken.length ? t("fanorona.board.chain_taken", { stones: list(taken) }) : "" }));
    } else if (c.phase === "capture") {
      out.push(t("fanorona.board.compulsory_desc", { stones: list(c.moves.map((m) => m.from)) }));
    } else if (c.phase === "paika") {
      out.push(t("fanorona.board.paika_desc", { stones: list(c.moves.map((m) => m.from)) }));
    }
    const sel = ui.key === keyOf(struct) ? ui.sel : null;
    const m = sel && c.moves ? c.moves.find((x) => x.from === sel) : null;
    if (m) out.push(t("fanorona.board.selected", { point: sel, moves: movesWords(m.to) }));
  }
  // each side alike, colour and player (the shell's seatLabel), however seatName names them
  const side = (seat) => (ctx && ctx.seatLabel ? ctx.seatLabel(seat) : name(seat));
  out.push(t("fanorona.board.stones", { a: side(0), x: board.stones[0], b: side(1), y: board.stones[1] }));
  if (board.vela_phase) out.push(t("fanorona.board.vela_desc", { black: name(1) }));
  return out.join(" ");
}
