// Fibonacci card game table: draws the structured view (view.py: piles, stock, hands as this
// viewer may see them; choices grouped by card) and sends the picked action string. No rule
// here: which card fits where, table values and colours all come from ctx.struct.
// Spec: fibonacci-cards.md §1 (values), §3 (plays), §4 (turn), §6 (what is shown).
//
// What happened: every step of the opponents' turns since the viewer last moved is marked (the
// piles they played on, the card played, the stock and hand of a draw) and, in the live
// position, the newest card moves fly (a draw from the stock to a hand, a play from the hand to
// its pile), ~280 ms a step, none with prefers-reduced-motion; a click or a key finishes them.
// Keyboard: a cursor over the table (piles 1–3, stock) and the viewer's hand; arrows move it,
// Enter or Space picks (a card, then a pile), Escape cancels, 1–3 play the picked card on that
// pile, D draws, P passes. A click on a card of the hand the view lists no play for says why, by
// the table (ctx.note: "Qd fits no pile."), as does one on a pile before a card is picked ("Pick
// a card of your hand first.") or one the picked card does not go on. Phone: the four piles share the width evenly in one
// row and the hands wrap, so nothing scrolls sideways at 360 px and every card to tap is at least
// 44×62 px.
import { button } from "/svg.js";
import { fmt, t } from "/i18n.js";

const SUIT_GLYPH = { c: "♣", d: "♦", h: "♥", s: "♠" };

const RANK_LABEL = { T: "10" };

const STEP_MS = 280; // one card flight
const MAX_TOTAL_MS = 1400; // a whole turn's flights

export const keyHelp = () => t("fibonacci-cards.board.key_help");

// UI state of one struct (the picked card); the keyboard cursor and the last struct drawn
// (to know what to animate) live across structs.
let ui = { struct: null, card: null };
const cursor = { row: "hand", index: 0, key: null }; // row "hand" (the viewer's cards) or "table" (piles, stock)
let kbd = false; // the keyboard was used: show the cursor
let last = null; // {sig, progress, struct, rects} of the last live struct drawn
let anim = null; // {sig, start, plan, n} of the flights in progress
let running = []; // Animation objects of the flights on screen

export const css = `
.cardtable { display: grid; gap: .6rem; padding: .3rem; position: relative; }
.cardtable .handrow { display: grid; gap: .25rem; }
.cardtable .handlabel { font-size: 14px; color: #6b6558; }
.cardtable .handlabel.tomove { color: #222; font-weight: 600; }
.cardtable .handlabel .res { font-weight: 700; color: #2f6f4f; }
.cardtable .handlabel .res.lost { color: #a8322d; }
.cardtable .hand { display: flex; gap: .35rem; flex-wrap: wrap; min-height: 44px; align-items: flex-end; }
.cardtable .hand:has(.drawn) { padding-bottom: 14px; }
.cardtable .hand.recent { width: fit-content; padding: 3px; border-radius: 7px; background: rgba(143, 184, 232, .45); }
.cardtable .felt { border-radius: 10px; padding: .7rem .5rem .5rem; display: grid; gap: .4rem; }
.cardtable .piles { display: grid; grid-template-columns: repeat(4, minmax(0, 92px)); gap: .5rem; justify-content: center; background: none; padding: 0; }
.cardtable .pile { display: flex; flex-direction: column; align-items: center; gap: .25rem; min-width: 0; position: relative;
  border-radius: 8px; padding: .3rem .1rem; border: 3px solid transparent; box-sizing: border-box; }
.cardtable .pile.target { border-color: #f2b134; cursor: pointer; background: rgba(242, 177, 52, .15); }
.cardtable .pile.recent { background: rgba(143, 184, 232, .22); border-color: rgba(143, 184, 232, .9); }
.cardtable .pile.recent.target { background: rgba(242, 177, 52, .15); border-color: #f2b134; }
.cardtable .pile .badge { position: absolute; top: -9px; right: -4px; background: #8fb8e8; color: #13294b; font: 700 10px system-ui, sans-serif;
  border-radius: 8px; padding: 1px 5px; z-index: 4; }
.cardtable .stack { position: relative; width: 84px; max-width: 100%; height: 84px; display: flex; align-items: center; justify-content: center; }
.cardtable .stack.deep .pcard:last-child { box-shadow: 2px 2px 0 #ddd, 4px 4px 0 #bbb, 0 1px 3px rgba(0,0,0,.4); }
.cardtable .stack .pcard.under { position: absolute; }
.cardtable .stack .pcard.cut { position: absolute; transform: rotate(90deg); box-shadow: 0 2px 6px rgba(0,0,0,.45); }
.cardtable .pileinfo { color: #fff; font-size: 12px; text-align: center; line-height: 1.25; }
.cardtable .pileinfo b { font-size: 15px; }
.cardtable .pilehint { color: #fff4d1; font-weight: 700; font-size: 12px; text-align: center; }
.cardtable .recentline { color: #fff; font-size: 13px; text-align: center; min-height: 1em; }
.cardtable .pcard { width: 56px; height: 80px; border-radius: 7px; border: 1px solid #777; position: relative;
  display: flex; flex-direction: column; align-items: center; justify-content: center; box-sizing: border-box;
  padding-top: 10px; font: 700 20px system-ui, sans-serif; box-shadow: 0 1px 2px rgba(0,0,0,.3); user-select: none; transform: none; margin: 0; outline: none; }
.cardtable .pcard .suit { font-size: 24px; line-height: 1; }
.cardtable .pcard .corner { position: absolute; top: 2px; left: 4px; font: 700 11px/1.05 system-ui, sans-serif; text-align: center; }
.cardtable .pcard .val { position: absolute; top: 2px; right: 4px; font: 600 10px system-ui, sans-serif; color: #666; }
.cardtable .pcard.back { background: repeating-linear-gradient(45deg, #3b5f8a, #3b5f8a 6px, #2c4a6e 6px, #2c4a6e 12px) !important; }
.cardtable .pcard.small { width: 30px; height: 44px; }
.cardtable .pcard.fresh, .cardtable .stack.deep .pcard.fresh:last-child { box-shadow: 0 0 0 3px #8fb8e8, 0 1px 3px rgba(0,0,0,.4); }
.cardtable .pcard.playable { cursor: pointer; outline: 3px dashed #4a90d9; outline-offset: 1px; }
.cardtable .pcard.picked { outline: 4px solid #f2b134; transform: translateY(-6px); }
.cardtable .pcard.drawn::after { content: "drawn"; position: absolute; bottom: -16px; font: 600 10px system-ui, sans-serif; color: #2f6f4f; }
.cardtable .stock .stack:empty::before { content: ""; width: 52px; height: 76px; border: 2px dashed rgba(255,255,255,.45); border-radius: 7px; }
.cardtable .stock .pcard.back { cursor: default; }
.cardtable .stock.target .pcard.back { cursor: pointer; }
.cardtable.kbd .kcur::before, .boardbox:focus-visible .cardtable .kcur::before { content: ""; position: absolute; inset: -6px; border: 3px solid #1a5fb4;
  border-radius: 10px; pointer-events: none; z-index: 3; box-shadow: 0 0 0 2px #fff; }
.cardtable .pile.kcur::before { inset: -5px; }
.cardtable .flyers { position: absolute; inset: 0; pointer-events: none; z-index: 5; }
.cardtable .flyers .pcard { position: absolute; margin: 0; box-shadow: 0 6px 14px rgba(0,0,0,.45); }
.cardhint { color: #6b6558; font-size: 13px; margin: .3rem 0 0; }
.controls button.cardbtn { min-height: 44px; min-width: 44px; }
@media (max-width: 480px) {
  .cardtable { padding: .2rem; }
  .cardtable .felt { padding: .5rem .25rem .4rem; }
  .cardtable .piles { grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 4px; }
  .cardtable .pile { padding: .25rem 0; }
  .cardtable .stack { width: 100%; height: 66px; }
  .cardtable .pcard { width: 44px; height: 62px; font-size: 17px; }
  .cardtable .pcard .suit { font-size: 19px; }
  .cardtable .pcard.small { width: 24px; height: 36px; }
  .cardtable .stock .stack:empty::before { width: 40px; height: 58px; }
  .cardtable .pcard .corner { font-size: 10px; }
  .cardtable .pileinfo { font-size: 11px; }
  .cardtable .hand { gap: 6px; }
}
`;

function cardEl(c, palette, cls = "") {
  const d = document.createElement("div");
  d.className = "pcard " + cls;
  d.style.background = palette.card || "#fffdf7";
  d.style.color = palette[c.colour] || "#222";
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = RANK_LABEL[c.rank] || c.rank;
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.textContent = SUIT_GLYPH[c.suit] || c.suit;
  // a corner index as on real cards: it stays visible under a crosswise card
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.append(rank.textContent, document.createElement("br"), suit.textContent);
  d.append(corner, rank, suit);
  d.dataset.card = c.card;
  d.title = c.card;
  return d;
}

function backEl(cls = "") {
  const d = document.createElement("div");
  d.className = "pcard back " + cls;
  return d;
}

function div(cls, text) {
  const d = document.createElement("div");
  d.className = cls;
  if (text !== undefined) d.textContent = text;
  return d;
}

const cardCount = (n) => t("fibonacci-cards.board.cards", { n });
const rankName = (r) => ("AJQK".includes(r) ? t(`fibonacci-cards.rank.${r}`) : r === "T" ? "10" : r);
const cardName = (text) => t("fibonacci-cards.board.card_name", { rank: rankName(text[0]), suit: "cdhs".includes(text[1]) ? t(`fibonacci-cards.suit.${text[1]}`) : text[1] });
const pileWords = (plays) => plays.map((p) => t(p.kind === "cut" ? "fibonacci-cards.board.pile_cut" : "fibonacci-cards.board.pile_sum", { pile: p.pile })).join(", ");
const isYou = (name) => name === t("seat.you");
const reducedMotion = () => !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

// The seat drawn at the bottom: the viewer; a spectator sees the person's seat ("You"), else seat 0.
function mySeat(struct, ctx) {
  const named = [0, 1].find((i) => isYou(ctx.seatName(i)));
  return struct.viewer ?? named ?? 0;
}

// Cards moved so far: every play adds a pile card, every draw takes a stock card.
const progress = (board) => board.piles.reduce((n, p) => n + p.cards.length, 0) - board.stock.size;
const boardSig = (struct) => JSON.stringify([struct.board, struct.to_move, struct.turn && struct.turn.actions]);

// The card-moving steps the struct knows, oldest first: the recent turns, then the turn in progress.
function knownSteps(struct) {
  const out = [];
  for (const t of struct.recent || []) for (const s of t.steps) out.push({ seat: t.seat, action: s.action, removed: s.removed || [] });
  const turn = struct.turn || {};
  for (const a of turn.actions || []) out.push({ seat: turn.seat, action: a, removed: [] });
  return out.filter((s) => s.action !== "pass");
}

// The flights from the last live struct to this one: [{face: card|null, from, to, hide}], where
// from/to are {sel} (an element of the new table) or {rect} (a place recorded on the old one).
function planFlights(prev, struct, me) {
  const n = progress(struct.board) - prev.progress;
  if (n <= 0 || n > 6) return [];
  const known = knownSteps(struct);
  const tail = known.slice(Math.max(0, known.length - n));
  const plan = [];
  // what came before the known steps: the viewer's own finished turn (cards gone from the hand
  // that are now on a pile; a drawn card that stayed)
  const missing = n - tail.length;
  if (missing > 0) {
    const before = prev.struct.board;
    const mineBefore = (before.hands[me].cards || []).map((c) => c.card);
    const mineNow = new Set((struct.board.hands[me].cards || []).map((c) => c.card));
    const tailPlayed = new Set(tail.flatMap((s) => s.removed));
    for (const pile of struct.board.piles) {
      const old = before.piles.find((p) => p.id === pile.id);
      for (const c of pile.cards.slice(old ? old.cards.length : 0)) {
        if (tailPlayed.has(c.card) || !mineBefore.includes(c.card)) continue;
        const top = pile.cards[pile.cards.length - 1].card === c.card;
        plan.push({ face: c.card, from: prev.rects[c.card] ? { rect: prev.rects[c.card] } : { sel: `[data-hand='hand${me}']` },
          to: { sel: `[data-pile='${pile.id}'] .stack` + (top ? " .pcard:last-child" : "") }, hide: top ? `[data-pile='${pile.id}'] .stack .pcard:last-child` : null });
      }
    }
    for (const c of struct.board.hands[me].cards || []) {
      if (!mineBefore.includes(c.card) && mineNow.has(c.card) && c.card) {
        const sel = `[data-hand='hand${me}'] [data-card='${c.card}']`;
        plan.push({ face: null, from: { sel: "[data-pile='stock'] .stack" }, to: { sel }, hide: sel });
      }
    }
    plan.splice(Math.min(plan.length, missing));
  }
  // the known steps, in order; a card drawn and played in the same turn flies twice
  tail.forEach((s, k) => {
    const hand = `[data-hand='hand${s.seat}']`;
    if (s.action === "draw") {
      const playedNext = tail[k + 1] && tail[k + 1].seat === s.seat && tail[k + 1].action !== "draw";
      const h = struct.board.hands[s.seat];
      const lastSel = `${hand} .pcard:last-child`;
      plan.push({ face: null, small: !h.cards, from: { sel: "[data-pile='stock'] .stack" }, to: { sel: playedNext || !h.size ? hand : lastSel },
        hide: playedNext || !h.size ? null : lastSel });
      return;
    }
    const m = /^(..)[>/](\d)$/.exec(s.action);
    if (!m) return;
    const pile = struct.board.piles.find((p) => p.id === m[2]);
    const top = pile && pile.cards[pile.cards.length - 1].card === m[1];
    const topSel = `[data-pile='${m[2]}'] .stack .pcard:last-child`;
    const from = s.seat === me && prev.rects[m[1]] ? { rect: prev.rects[m[1]] } : { sel: hand };
    plan.push({ face: m[1], from, to: { sel: top ? topSel : `[data-pile='${m[2]}'] .stack` }, hide: top ? topSel : null });
  });
  return plan;
}

function rectIn(el, table) {
  const r = el.getBoundingClientRect();
  const t = table.getBoundingClientRect();
  return { x: r.left - t.left, y: r.top - t.top, w: r.width, h: r.height };
}

function finishFlights() {
  for (const a of running) { try { a.finish(); } catch { /* gone */ } }
  running = [];
  if (anim) anim.done = true;
}

// Start (or, after a redraw of the same struct, resume) the flights of `anim` on `table`.
function fly(table, palette, struct) {
  running = [];
  if (!anim || anim.done) return;
  const elapsed = performance.now() - anim.start;
  const per = Math.min(STEP_MS, MAX_TOTAL_MS / Math.max(1, anim.plan.length));
  if (elapsed >= per * anim.plan.length) { anim.done = true; return; }
  const layer = div("flyers");
  table.append(layer);
  const cardOf = (text) => {
    for (const p of struct.board.piles) for (const c of p.cards) if (c.card === text) return c;
    return { card: text, rank: text[0], suit: text[1], colour: "h d".includes(text[1]) ? "red_suit" : "black_suit" };
  };
  const place = (spec, ref) => {
    if (spec.rect) return spec.rect;
    const el = table.querySelector(spec.sel);
    if (!el) return null;
    const r = rectIn(el, table);
    if (!ref) return r;
    // a whole hand or stack: the end of the hand, the middle of the stack
    const isHand = el.classList.contains("hand");
    return { x: isHand ? r.x + Math.max(0, r.w - ref.w) : r.x + (r.w - ref.w) / 2, y: r.y + (r.h - ref.h) / 2, w: ref.w, h: ref.h };
  };
  anim.plan.forEach((f, k) => {
    if (elapsed >= (k + 1) * per) return; // landed already (a redraw resumes the flights)
    const ghost = f.face ? cardEl(cardOf(f.face), palette) : backEl(f.small ? "small" : "");
    ghost.removeAttribute("data-card");
    ghost.removeAttribute("title");
    layer.append(ghost);
    const size = { w: ghost.offsetWidth, h: ghost.offsetHeight };
    const to = place(f.to, size.w ? size : null);
    const from = place(f.from, size);
    if (!to || !from) { ghost.remove(); return; }
    const dest = { x: to.x + (to.w - size.w) / 2, y: to.y + (to.h - size.h) / 2 };
    const src = { x: from.x + (from.w - size.w) / 2, y: from.y + (from.h - size.h) / 2 };
    ghost.style.left = `${dest.x}px`;
    ghost.style.top = `${dest.y}px`;
    const hidden = f.hide ? table.querySelector(f.hide) : null;
    if (hidden && hidden.classList.contains("cut")) ghost.style.transform = "rotate(90deg)";
    const delay = k * per;
    const a = ghost.animate([
      { translate: `${src.x - dest.x}px ${src.y - dest.y}px`, opacity: 0 },
      { translate: `${src.x - dest.x}px ${src.y - dest.y}px`, opacity: 1, offset: 0.05 },
      { translate: "0px 0px", opacity: 1 }],
    { duration: per, delay, easing: "ease-out", fill: "both" });
    a.onfinish = () => ghost.remove();
    running.push(a);
    if (hidden) {
      // the real card waits, invisible, until its ghost lands
      const b = hidden.animate([{ opacity: 0 }, { opacity: 0 }], { duration: delay + per, fill: "none" });
      running.push(b);
    }
  });
  for (const a of running) a.currentTime = elapsed;
  table.dataset.animated = String(anim.plan.length);
}

export function render(box, ctx) {
  const struct = ctx.struct;
  const { board } = struct;
  const palette = ctx.palette || {};
  const fresh = ui.struct !== struct;
  if (fresh) ui = { struct, card: null };
  const interactive = !!ctx.interactive;
  const choices = interactive ? struct.choices || {} : {};
  const byCard = new Map((choices.cards || []).map((c) => [c.card, c.plays]));
  if (ui.card && !byCard.has(ui.card)) ui.card = null;
  // the drawn card that fits is the only card that may be played (§4): pick it already
  if (!ui.card && board.must_play_drawn && byCard.size === 1) ui.card = [...byCard.keys()][0];
  const targets = new Map();
  for (const p of byCard.get(ui.card) || []) {
    if (!targets.has(p.pile)) targets.set(p.pile, []);
    targets.get(p.pile).push(p);
  }
  const redraw = () => { box.replaceChildren(); ctx.controls.replaceChildren(); render(box, ctx); };
  const me = mySeat(struct, ctx);
  const over = !!struct.over;

  // what the opponents did since the viewer last moved (every step's touched and removed); an
  // opponent's turn in progress (a draw of a card that fits) is marked too
  const recent = struct.recent || [];
  const touched = new Set(recent.flatMap((t) => t.steps.flatMap((s) => s.touched)));
  const removed = new Set(recent.flatMap((t) => t.steps.flatMap((s) => s.removed)));
  const turn = struct.turn || {};
  if (turn.seat !== null && turn.seat !== undefined && turn.seat !== struct.viewer && (turn.actions || []).includes("draw")) {
    touched.add(board.stock.id);
    touched.add(`hand${turn.seat}`);
  }

  const wrap = div("cardtable" + (kbd ? " kbd" : ""));
  // the keyboard cursor's cells: the viewer's hand, then the table (piles 1–3, stock)
  const myCards = board.hands[me].cards || [];
  const tableIds = [...board.piles.map((p) => p.id), board.stock.id];
  if (fresh && interactive) {
    // a new position to play: the drawn card that must be played → its first pile; else, while
    // the cursor is not in use, the first card that fits, or the stock to draw from
    const first = (byCard.get(ui.card) || [])[0];
    const fits = myCards.findIndex((c) => byCard.has(c.card));
    if (first) Object.assign(cursor, { row: "table", index: tableIds.indexOf(first.pile), key: null });
    else if (!kbd && fits >= 0) Object.assign(cursor, { row: "hand", index: fits, key: null });
    else if (!kbd && (choices.draw || choices.pass)) Object.assign(cursor, { row: "table", index: tableIds.length - 1, key: null });
  }
  if (!myCards.length) cursor.row = "table";
  const rowLen = (row) => (row === "hand" ? myCards.length : tableIds.length);
  if (cursor.row === "hand" && cursor.key) {
    const i = myCards.findIndex((c) => c.card === cursor.key);
    if (i >= 0) cursor.index = i;
  }
  cursor.index = Math.max(0, Math.min(cursor.index, rowLen(cursor.row) - 1));
  cursor.key = cursor.row === "hand" ? (myCards[cursor.index] || {}).card || null : tableIds[cursor.index];

  const resultTag = (seat) => {
    if (!over || !struct.end) return null;
    const winners = struct.end.winners || [];
    const tag = div("res" + (winners.length && !winners.includes(seat) ? " lost" : ""),
      !winners.length ? t("fibonacci-cards.board.tag_draw") : winners.includes(seat) ? t("fibonacci-cards.board.tag_wins") : t("fibonacci-cards.board.tag_loses"));
    tag.style.display = "inline";
    return tag;
  };

  const handRow = (seat, mine) => {
    const h = board.hands[seat];
    const row = div("handrow");
    row.dataset.seat = String(seat);
    const name = ctx.seatName(seat);
    let label = `${name}${seat === struct.viewer && !isYou(name) ? t("fibonacci-cards.board.your_hand_tag") : ""}: ${cardCount(h.size)}`;
    if (!over && seat === struct.to_move) label += board.must_play_drawn ? t("fibonacci-cards.board.to_move_drawn") : t("fibonacci-cards.board.to_move_tag");
    const lab = div("handlabel" + (!over && seat === struct.to_move ? " tomove" : ""), label);
    const tag = resultTag(seat);
    if (tag) lab.append(" · ", tag);
    const cards = div("hand" + (touched.has(h.id) ? " recent" : ""));
    cards.dataset.hand = cards.dataset.cell = h.id;
    if (h.cards) {
      h.cards.forEach((c, i) => {
        const ok = mine && byCard.has(c.card);
        const cur = mine && cursor.row === "hand" && cursor.index === i;
        const e = cardEl(c, palette, (ok ? "playable" : "") + (ui.card === c.card ? " picked" : "") + (c.drawn ? " drawn" : "") + (cur ? " kcur" : ""));
        if (["J", "Q", "K", "A"].includes(c.rank)) e.append(Object.assign(div("val", String(c.value)), { title: t("fibonacci-cards.board.value_in_hand") }));
        if (ok) e.addEventListener("click", () => { cursor.row = "hand"; cursor.index = i; pick(c.card); });
        else if (mine && interactive) {
          // a card the view lists no play for: why nothing happens, at the table where the player
          // looks (ctx.note; a shell without it: said only), as Enter says it
          e.addEventListener("click", () => { Object.assign(cursor, { row: "hand", index: i, key: c.card }); (ctx.note || ctx.say)(t("fibonacci-cards.board.fits_no_pile", { card: c.card })); });
        }
        cards.append(e);
      });
    } else {
      for (let i = 0; i < h.size; i++) cards.append(backEl("small"));
    }
    row.append(lab, cards);
    return row;
  };

  // picking a card of the hand (a click, Enter): select it, or put it back
  function pick(card) {
    ui.card = ui.card === card ? null : card;
    if (ui.card) {
      const plays = byCard.get(card) || [];
      ctx.say(t("fibonacci-cards.board.picked", { card, piles: pileWords(plays) }));
      if (kbd && plays.length) { cursor.row = "table"; cursor.index = tableIds.indexOf(plays[0].pile); }
    } else ctx.say(t("fibonacci-cards.board.put_back", { card }));
    redraw();
  }
  function playOn(pileId) {
    const here = targets.get(pileId);
    if (!here) return false;
    if (here.length === 1) { ctx.play(here[0].action); return true; }
    // never happens by §3 (sum and cut never both fit one card on one pile), but stay safe
    ctx.controls.querySelectorAll("[data-choice]").forEach((b) => b.remove());
    for (const p of here) {
      const b = button(ctx.controls, p.kind === "cut" ? t("fibonacci-cards.board.cut_button") : t("fibonacci-cards.board.sum_button"), () => ctx.play(p.action), "cardbtn");
      b.dataset.choice = p.action;
    }
    return true;
  }

  // a thumbnail (the live games' cards) is the piles alone: the hands and the words fill more
  // than a card's height, cut off there
  const small = !!ctx.thumbnail;
  if (!small) wrap.append(handRow(1 - me, false));

  const felt = div("felt");
  felt.style.background = palette.table || "#2f6b45";
  const mid = div("piles");
  board.piles.forEach((pile, i) => {
    const cur = cursor.row === "table" && cursor.index === i;
    const slot = div("pile" + (targets.has(pile.id) ? " target" : "") + (touched.has(pile.id) ? " recent" : "") + (cur ? " kcur" : ""));
    slot.dataset.pile = slot.dataset.cell = pile.id;
    const stack = div("stack" + (pile.cards.length > 1 ? " deep" : ""));
    const top = pile.cards[pile.cards.length - 1];
    if (pile.cards.length > 1) {
      // a cut-down card lies crosswise on the card it cut (§3.3); an upright card hides the one
      // below (drawn anyway: it shows while the new card is still in flight)
      const under = pile.cards[pile.cards.length - 2];
      const fr = removed.has(under.card) && touched.has(pile.id) && top.cut ? " fresh" : "";
      stack.append(cardEl(under, palette, (top.cut ? "" : "under") + fr));
    }
    const fresh = removed.has(top.card) && touched.has(pile.id);
    stack.append(cardEl(top, palette, (top.cut ? "cut" : "") + (fresh ? " fresh" : "")));
    if (fresh) slot.append(div("badge", "new"));
    slot.append(stack);
    if (small) { mid.append(slot); return; }
    const info = div("pileinfo");
    info.replaceChildren(t("fibonacci-cards.board.pile_n", { pile: pile.id }), document.createElement("br"),
      t("fibonacci-cards.board.value") + " ", Object.assign(document.createElement("b"), { textContent: String(pile.value) }),
      pile.cut ? t("fibonacci-cards.board.cut_tag") : "", document.createElement("br"), cardCount(pile.cards.length));
    slot.append(info);
    const here = targets.get(pile.id);
    if (here) {
      slot.append(div("pilehint", here.map((p) => (p.kind === "cut" ? t("fibonacci-cards.board.hint_cut") : t("fibonacci-cards.board.hint_sum"))).join(" / ")));
      slot.addEventListener("click", () => playOn(pile.id));
    } else if (interactive && byCard.size) {
      // a click here plays nothing: say what to do where the player looks (ctx.note; a shell
      // without it: said only), as Enter on the pile says it
      slot.addEventListener("click", () => {
        Object.assign(cursor, { row: "table", index: i, key: null });
        (ctx.note || ctx.say)(ui.card ? t("fibonacci-cards.board.not_on_pile", { card: ui.card, pile: pile.id }) : t("fibonacci-cards.board.pick_first"));
      });
    }
    mid.append(slot);
  });
  const stockCur = cursor.row === "table" && cursor.index === 3;
  const stock = div("pile stock" + (choices.draw ? " target" : "") + (touched.has(board.stock.id) ? " recent" : "") + (stockCur ? " kcur" : ""));
  stock.dataset.pile = stock.dataset.cell = board.stock.id;
  const sstack = div("stack" + (board.stock.size > 1 ? " deep" : ""));
  if (board.stock.size) sstack.append(backEl());
  const sinfo = div("pileinfo");
  sinfo.hidden = small;
  sinfo.replaceChildren(t("fibonacci-cards.board.stock"), document.createElement("br"), cardCount(board.stock.size));
  // a finished game's replay knows the stock's order (view.py: stock.cards, top first): the next few in words
  if (board.stock.cards && board.stock.cards.length) {
    const shown = board.stock.cards.slice(0, 4).join(" ") + (board.stock.cards.length > 4 ? " …" : "");
    const next = div("stocknext", t("fibonacci-cards.board.stock_next", { cards: shown }));
    next.dataset.stockNext = board.stock.cards[0];
    sinfo.append(next);
  }
  stock.append(sstack, sinfo);
  if (choices.draw) {
    stock.append(div("pilehint", t("fibonacci-cards.board.hint_draw")));
    stock.addEventListener("click", () => ctx.play(choices.draw.action));
  }
  mid.append(stock);
  felt.append(mid);
  wrap.append(felt);
  box.append(wrap);
  if (small) return;
  const line = div("recentline");
  line.id = "recent-turns";
  line.textContent = recentWords(struct, ctx);
  felt.append(line);
  wrap.append(handRow(me, true));

  const hint = document.createElement("p");
  hint.className = "cardhint";
  hint.id = "card-hint";
  hint.textContent = t("fibonacci-cards.board.values_hint");
  box.append(hint);

  if (interactive) {
    const info = document.createElement("span");
    info.className = "info";
    if (board.must_play_drawn) info.textContent = t("fibonacci-cards.board.drew_fits");
    else if (byCard.size) info.textContent = ui.card ? t("fibonacci-cards.board.now_pile", { card: ui.card }) : t("fibonacci-cards.board.click_card");
    else info.textContent = t("fibonacci-cards.board.none_fits");
    ctx.controls.append(info);
    if (choices.draw) button(ctx.controls, t("fibonacci-cards.board.draw"), () => ctx.play(choices.draw.action), "primary cardbtn").id = "draw";
    if (choices.pass) button(ctx.controls, t("fibonacci-cards.board.pass"), () => ctx.play(choices.pass.action), "primary cardbtn").id = "pass";
  }

  // flights: from the last live struct drawn to this one (never while replaying)
  const sig = boardSig(struct);
  if (!ctx.live) {
    finishFlights();
    anim = null;
  } else {
    if (last && last.box !== box) last = null; // another match page
    if (last && last.sig !== sig) {
      finishFlights();
      const plan = reducedMotion() ? [] : planFlights(last, struct, me);
      anim = plan.length ? { sig, start: performance.now(), plan, done: false } : null;
      if (plan.length) box.dataset.flights = String((Number(box.dataset.flights) || 0) + plan.length); // flights so far (tests)
    }
    if (anim && anim.sig === sig) fly(wrap, palette, struct);
    const rects = {};
    for (const c of wrap.querySelectorAll(`[data-hand='hand${me}'] .pcard[data-card]`)) rects[c.dataset.card] = rectIn(c, wrap);
    last = { box, sig, progress: progress(board), struct, rects };
  }
  // a click anywhere on the table ends the flights at once (never wait for them)
  // (and the keyboard cursor hides until a key is used again)
  wrap.addEventListener("pointerdown", () => { finishFlights(); kbd = false; wrap.classList.remove("kbd"); }, true);

  ctx.onKey((ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return false;
    const key = ev.key;
    const move = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[key];
    finishFlights();
    if (move) {
      kbd = true;
      const rows = myCards.length ? ["table", "hand"] : ["table"];
      let r = rows.indexOf(cursor.row);
      if (move[0]) {
        const nr = Math.max(0, Math.min(rows.length - 1, r + move[0]));
        if (nr !== r) {
          // keep the column roughly: pile k over the k-th quarter of the hand
          const frac = (cursor.index + 0.5) / rowLen(cursor.row);
          r = nr;
          cursor.row = rows[r];
          cursor.index = Math.floor(frac * rowLen(cursor.row));
        }
      } else {
        cursor.index = Math.max(0, Math.min(rowLen(cursor.row) - 1, cursor.index + move[1]));
      }
      cursor.key = null;
      redraw();
      ctx.say(cellWords(struct, ctx, cursor, byCard, targets));
      return true;
    }
    if (key === "Enter" || key === " ") {
      kbd = true;
      if (cursor.row === "hand") {
        const c = myCards[cursor.index];
        if (!c) return true;
        if (byCard.has(c.card)) pick(c.card);
        else ctx.say(interactive ? t("fibonacci-cards.board.fits_no_pile", { card: c.card }) : t("board.not_your_move"));
        return true;
      }
      const id = tableIds[cursor.index];
      if (id === board.stock.id) {
        if (choices.draw) ctx.play(choices.draw.action);
        else if (choices.pass) ctx.play(choices.pass.action);
        else ctx.say(byCard.size ? t("fibonacci-cards.board.nothing_to_draw") : t("fibonacci-cards.board.stock_count", { n: board.stock.size }));
        return true;
      }
      if (!playOn(id)) ctx.say(ui.card ? t("fibonacci-cards.board.not_on_pile", { card: ui.card, pile: id }) : interactive && byCard.size ? t("fibonacci-cards.board.pick_first") : cellWords(struct, ctx, cursor, byCard, targets));
      return true;
    }
    if (key === "Escape") {
      if (!ui.card) return false;
      const c = ui.card;
      ui.card = null;
      const i = myCards.findIndex((x) => x.card === c);
      if (i >= 0) { cursor.row = "hand"; cursor.index = i; }
      ctx.say(t("fibonacci-cards.board.cancelled", { card: c }));
      redraw();
      return true;
    }
    if (/^[1-3]$/.test(key) && ui.card) {
      if (!playOn(key)) ctx.say(t("fibonacci-cards.board.not_on_pile", { card: ui.card, pile: key }));
      return true;
    }
    if ((key === "d" || key === "D") && choices.draw) { ctx.play(choices.draw.action); return true; }
    if ((key === "p" || key === "P") && choices.pass) { ctx.play(choices.pass.action); return true; }
    return false;
  });
}

// The cell under the cursor in words (spoken when the cursor moves).
function cellWords(struct, ctx, cur, byCard, targets) {
  const { board } = struct;
  if (cur.row === "hand") {
    const hand = board.hands[mySeat(struct, ctx)].cards || [];
    const c = hand[cur.index];
    if (!c) return "";
    const plays = byCard.get(c.card);
    return t("fibonacci-cards.board.hand_card", { card: c.card, name: cardName(c.card), value: c.value }) + (c.drawn ? t("fibonacci-cards.board.just_drawn") : "")
      + (plays ? t("fibonacci-cards.board.fits", { piles: pileWords(plays) }) : "") + ".";
  }
  if (cur.index === board.piles.length) return t("fibonacci-cards.board.stock_cell", { n: board.stock.size }) + (struct.choices && struct.choices.draw && ctx.interactive ? t("fibonacci-cards.board.enter_draws") : ".");
  const p = board.piles[cur.index];
  return t("fibonacci-cards.board.pile_cell", { pile: p.id, top: p.top, cut: p.cut ? t("fibonacci-cards.board.crosswise") : "", value: p.value, cards: cardCount(p.cards.length) })
    + (targets.has(p.id) ? t("fibonacci-cards.board.enter_plays", { card: ui.card }) : ".");
}

function recentWords(struct, ctx) {
  return (struct.recent || []).map((turn) => `${ctx.seatName(turn.seat)}: ${turn.steps.map((s) => fmt(s.message, s.text) || s.action).join(", ")}`).join(" · ");
}

// A match that ended off the board (a resignation, a lost clock): its last position has a player
// to move, but nobody moves any more, so the board speaks of the end instead of a turn.
function endedEarly(st, ctx) {
  return !!(ctx && ctx.live !== false && ctx.ended && !st.over);
}

// The board's text alternative (the shell keeps it in a polite live region): the result or whose
// turn, what happened, the piles, the hands, and the picked card's plays.
export function describe(struct, ctx) {
  const { board } = struct;
  const me = mySeat(struct, ctx);
  const parts = [];
  if (ctx.live === false) parts.push(t("fibonacci-cards.board.replaying"));
  if (struct.over) {
    const end = struct.end || {};
    const winners = end.winners || [];
    const first = winners.length ? ctx.seatName(winners[0]) : null;
    const who = winners.length ? (isYou(first) ? t("result.you_win") : t("board.wins", { name: first })) : t("board.a_draw");
    parts.push(end.text ? t("fibonacci-cards.board.over_why", { who, why: fmt(end.message, end.text) }) : t("fibonacci-cards.board.over", { who }));
  } else if (endedEarly(struct, ctx)) {
    parts.push(`${ctx.ended.text}.`);
  } else if (struct.to_move !== null && struct.to_move !== undefined) {
    const name = ctx.seatName(struct.to_move);
    parts.push(isYou(name) ? t("fibonacci-cards.board.your_turn") : t("board.to_move", { who: name }));
    if (board.must_play_drawn) parts.push(isYou(name) ? t("fibonacci-cards.board.you_drew_fits") : t("fibonacci-cards.board.drawn_fits"));
  }
  const happened = recentWords(struct, ctx);
  if (happened) parts.push(t((struct.recent || []).length > 1 ? "board.last_turns" : "board.last_turn", { words: happened }));
  parts.push(t("fibonacci-cards.board.piles_desc", { piles: board.piles.map((p) => t("fibonacci-cards.board.pile_desc",
    { pile: p.id, top: p.top, cut: p.cut ? t("fibonacci-cards.board.cut_down") : "", value: p.value })).join("; "), n: board.stock.size }));
  for (const seat of [me, 1 - me]) {
    const h = board.hands[seat];
    const name = ctx.seatName(seat);
    const held = h.cards ? (h.cards.length ? h.cards.map((c) => c.card).join(", ") : t("fibonacci-cards.board.no_card")) : cardCount(h.size);
    parts.push(isYou(name) || seat === struct.viewer ? t("fibonacci-cards.board.your_hand", { held }) : t("fibonacci-cards.board.holds", { who: name, held }));
  }
  if (ui.struct === struct && ui.card && struct.choices && struct.choices.cards) {
    const c = struct.choices.cards.find((x) => x.card === ui.card);
    if (c) parts.push(t("fibonacci-cards.board.picked", { card: c.card, piles: pileWords(c.plays) }));
  } else if (ctx.interactive && struct.choices) {
    const ch = struct.choices;
    if (ch.cards && ch.cards.length) parts.push(t("fibonacci-cards.board.cards_fit", { cards: ch.cards.map((c) => c.card).join(", ") }));
    else if (ch.draw) parts.push(t("fibonacci-cards.board.must_draw"));
    else if (ch.pass) parts.push(t("fibonacci-cards.board.must_pass"));
  }
  return parts.join(" ");
}
