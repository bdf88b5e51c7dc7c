// Fibonacci board: draws the structured view (fibonacci/view.py docstring: board, choices,
// turn.left) and sends the picked action string. Spec: fibonacci.md §1 (cells, x = c − r/2,
// y = r·√3/2), §4 (groups, destinations, swaps), §9.2 (cards), §9.3 (Go placement).
// No rule is computed here: groups, destinations, swaps, core rings and piles come from the struct.
import { el, svgRoot, button, hexPoints } from "/svg.js";

export const css = `
.fib-cell polygon.hex { transition: fill .12s; }
.fib-cell.fib-src:hover polygon.hex, .fib-cell.fib-place:hover polygon.hex { fill: #f3dfa6; }
.fib-cell.fib-dest polygon.hex { fill: #f6d27a; }
.fib-cell.fib-dest:hover polygon.hex { fill: #f2b134; }
.fib-cell.fib-group polygon.hex { fill: #cfe3f7; }
.fib-cell.fib-win polygon.hex { fill: #ffe08a; }
.fib-recent { stroke: #4a90d9; stroke-width: 3; fill: none; pointer-events: none; }
.fib-arrow { stroke: #4a90d9; stroke-width: 3; stroke-linecap: round; opacity: .8; pointer-events: none; }
.fib-ring { fill: none; stroke-width: 3.5; pointer-events: none; }
.fib-link { stroke-linecap: round; opacity: .35; pointer-events: none; }
.fib-ghost { opacity: 0; transition: opacity .12s; }
.fib-place:hover .fib-ghost { opacity: .5; }
.fib-label { font: 8px sans-serif; fill: #9a8a66; pointer-events: none; }
.fib-info { align-self: center; }
.fib-info b { font-weight: 600; }
@media (max-width: 480px) {
  .fib-info { font-size: 14px; flex-basis: 100%; }
  .fib-label { display: none; } /* unreadable at phone scale: the notation is in the move list */
}
`;

const R = 25; // hexagon radius (centre to corner) in SVG units
const DX = R * Math.sqrt(3); // one unit of the spec's x (neighbours in a row)
const M = 14; // margin
const KIND_WORD = { core: "core", attack: "attacker", support: "support" };

// UI state: the selected piece, kept while the same struct is shown (a redraw after a click)
let ui = { struct: null, sel: null };

function seatStyle(ctx, seat) {
  const s = (ctx.seats || [])[seat] || {};
  return { colour: s.colour || (seat === 0 ? "#c8322b" : "#2f8a3e"), ink: s.ink || "#fff" };
}

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

export function render(box, ctx) {
  const st = ctx.struct;
  if (!st || !st.board || !st.board.cells) { box.textContent = "No board to show."; return; }
  if (ui.struct !== st) ui = { struct: st, sel: null };
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

  // what a click can do
  const moves = new Map((choices.moves || []).map((m) => [m.from, m.to]));
  const places = new Map(((choices.place && choices.place.cells) || []).map((p) => [p.cell, p.action]));
  if (ui.sel && !moves.has(ui.sel)) ui.sel = null;
  const dests = new Map((ui.sel ? moves.get(ui.sel) : []).map((d) => [d.cell, d]));
  const selPiece = ui.sel ? at.get(ui.sel).piece : null;
  const group = new Set(selPiece && selPiece.group !== null ? board.groups[selPiece.group].cells : []);
  const win = new Set(board.win ? [...board.win.cells, board.win.core] : []);
  // the opponents' turns since the viewer moved: every step's touched (and removed) cells
  const recentSteps = (st.recent || []).flatMap((t) => t.steps);
  const recent = new Set(recentSteps.flatMap((s) => [...s.touched, ...(s.removed || [])]));

  const svg = svgRoot(box, W, H, "Fibonacci board", 640);
  el("defs", {}, svg).innerHTML =
    '<marker id="fib-head" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse">' +
    '<path d="M0,0 L10,5 L0,10 z" fill="#4a90d9"/></marker>';
  const cellLayer = el("g", {}, svg);
  const linkLayer = el("g", {}, svg);
  const markLayer = el("g", {}, svg);
  const pieceLayer = el("g", {}, svg);

  const redraw = () => { box.replaceChildren(); ctx.controls.replaceChildren(); render(box, ctx); };
  const click = (id) => {
    if (places.has(id)) { ctx.play(places.get(id)); return; }
    if (dests.has(id)) { ctx.play(dests.get(id).action); return; }
    if (moves.has(id)) { ui.sel = ui.sel === id ? null : id; redraw(); }
  };

  for (const c of board.cells) {
    const x = px(c), y = py(c);
    const cls = ["fib-cell"];
    if (dests.has(c.id)) cls.push("fib-dest");
    else if (group.has(c.id)) cls.push("fib-group");
    else if (win.has(c.id)) cls.push("fib-win");
    if (moves.has(c.id)) cls.push("fib-src");
    if (places.has(c.id)) cls.push("fib-place");
    const g = el("g", { "data-cell": c.id, class: cls.join(" ") }, cellLayer);
    el("polygon", { class: "hex", points: hexPoints(x, y, R), fill: palette.cell || "#efe6d2",
      stroke: palette.edge || "#c9bb98", "stroke-width": 1.2 }, g);
    el("text", { class: "fib-label", x, y: y + R * 0.8, "text-anchor": "middle", text: c.id }, g);
    if (recent.has(c.id)) el("polygon", { class: "fib-recent", points: hexPoints(x, y, R - 2.5) }, g);
    if (places.has(c.id)) {
      // a faint piece of the placer's colour appears under the pointer (css .fib-ghost)
      const ghost = { id: c.id, piece: { seat: st.to_move, kind: choices.place.kind, letter: choices.place.letter } };
      drawPiece(g, ctx, ghost, x, y, false, true).classList.add("fib-ghost");
    }
    if (moves.has(c.id) || dests.has(c.id) || places.has(c.id)) {
      g.classList.add("clickable");
      g.addEventListener("click", () => click(c.id));
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
  // the opponents' moves as arrows (a swap's occupant went the other way)
  for (const s of recentSteps) {
    if (s.touched.length !== 2) continue;
    const p = at.get(s.touched[0]), q = at.get(s.touched[1]);
    const x1 = px(p), y1 = py(p), x2 = px(q), y2 = py(q);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1, k = (R * 0.55) / len;
    el("line", { class: "fib-arrow", x1: x1 + (x2 - x1) * k, y1: y1 + (y2 - y1) * k, x2: x2 - (x2 - x1) * k, y2: y2 - (y2 - y1) * k,
      "marker-end": "url(#fib-head)" }, markLayer);
  }

  for (const c of board.cells) {
    const x = px(c), y = py(c);
    if (c.piece) drawPiece(pieceLayer, ctx, c, x, y, ui.sel === c.id);
    const d = dests.get(c.id);
    if (d && d.swap) el("text", { x: x + R * 0.55, y: y - R * 0.38, "font-size": 13, "font-weight": 700, fill: "#7a3b00",
      "pointer-events": "none", text: "⇄" }, pieceLayer);
    else if (d) el("circle", { cx: x, cy: y - 2, r: R * 0.22, class: "dest", "pointer-events": "none" }, pieceLayer);
  }

  if (board.cards) drawCards(svg, ctx, board.cards, W, H);
  controlsFor(ctx, st, () => { ui.sel = null; redraw(); });
}

function drawPiece(layer, ctx, c, x, y, selected, ghost = false) {
  const { colour } = seatStyle(ctx, c.piece.seat);
  const stroke = selected ? "#f2b134" : "#222";
  const sw = selected ? 4 : 1.5;
  const kind = c.piece.kind;
  const g = el("g", { "pointer-events": "none" }, layer);
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
  el("text", { x, y: kind === "core" ? y + 1.5 : y + 2, "text-anchor": "middle", "font-size": 10, "font-weight": 700,
    fill: kind === "core" ? "#222" : "#fff", "font-family": "sans-serif", "data-piece": ghost ? null : letter,
    "data-seat": ghost ? null : c.piece.seat, text: letter }, g);
  return g;
}

// Cards variant (§9.2): the card that set this turn's moves, top left; each pile's size
// beside its owner's home edge (Red bottom left, Green top right). Pile order is hidden.
function drawCards(svg, ctx, cards, W, H) {
  const card = (x, y, seat, face, label, attrs) => {
    const { colour } = seatStyle(ctx, seat);
    const g = el("g", attrs, svg);
    el("rect", { x, y, width: 34, height: 46, rx: 5, fill: face === null ? colour : "#fff", stroke: colour, "stroke-width": 2.5 }, g);
    el("text", { x: x + 17, y: y + 30, "text-anchor": "middle", "font-size": face === null ? 13 : 22, "font-weight": 700,
      "font-family": "sans-serif", fill: face === null ? "#fff" : colour, text: face === null ? label : String(face) }, g);
    return g;
  };
  const mover = ctx.struct.to_move;
  if (cards.card !== null && mover !== null) {
    card(M, M, mover, cards.card, "", { "data-card": "current" });
    el("text", { x: M + 40, y: M + 20, "font-size": 11, "font-family": "sans-serif", fill: "#555",
      text: `${ctx.seatName(mover)}'s card` }, svg);
    el("text", { x: M + 40, y: M + 34, "font-size": 11, "font-family": "sans-serif", fill: "#555",
      text: plural(cards.card, "move") }, svg);
  }
  const pile = (seat, x, y, anchorRight) => {
    card(x, y, seat, null, String(cards.piles[seat]), { "data-pile": seat });
    el("text", { x: anchorRight ? x - 6 : x + 40, y: y + 28, "text-anchor": anchorRight ? "end" : "start", "font-size": 11,
      "font-family": "sans-serif", fill: "#555", text: `${ctx.seatName(seat)}'s pile` }, svg);
  };
  pile(0, M, H - M - 46, false);
  pile(1, W - M - 34, M, true);
}

function controlsFor(ctx, st, cancel) {
  const info = document.createElement("span");
  info.className = "info fib-info";
  const left = st.turn && st.turn.left;
  const mover = st.to_move;
  if (st.over || mover === null) {
    info.textContent = st.board.t ? `Ended in turn ${st.board.t}.` : "";
  } else if (left && left.phase === "placement") {
    info.textContent = `Placement ${left.placement} of ${left.of}: ${ctx.seatName(mover)} places ${left.kind === "attack" ? "an" : "a"} ` +
      `${KIND_WORD[left.kind]} on any empty cell.`;
  } else if (left) {
    let text = `Turn ${left.t}: ${ctx.seatName(mover)} has ${plural(left.moves, "move")} left`;
    const core = (st.board.cores || []).find((c) => c.seat === mover);
    if (left.base !== null && core && core.attackers.length) {
      text += ` · ${plural(core.attackers.length, "enemy attacker")} at the core (gold rings)`;
    }
    if (ctx.interactive) {
      text += ui.sel ? ` · ${ui.sel}'s group can go to the gold cells (⇄ = swap)` : " · click a piece";
    }
    info.textContent = text;
  }
  ctx.controls.append(info);
  const choices = st.choices || {};
  if (ctx.interactive && choices.pass) {
    button(ctx.controls, "Pass (end turn)", () => ctx.play(choices.pass.action)).id = "pass";
  }
  if (ctx.interactive && ui.sel) {
    button(ctx.controls, "Cancel", cancel).id = "fib-cancel";
  }
}
