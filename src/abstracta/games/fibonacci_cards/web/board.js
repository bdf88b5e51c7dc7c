// Fibonacci card game table: draws the structured view (view.py: piles, stock, hands as this
// viewer may see them; choices grouped by card) and sends the picked action string. No rule
// here: which card fits where, table values and colours all come from ctx.struct.
// Spec: fibonacci-cards.md §1 (values), §3 (plays), §4 (turn), §6 (what is shown).
import { button } from "/svg.js";

const SUIT_GLYPH = { c: "♣", d: "♦", h: "♥", s: "♠" };
const RANK_LABEL = { T: "10" };

// UI state (the card picked in the hand) belongs to one struct: a new struct resets it.
let ui = { struct: null, card: null };

export const css = `
.cardtable { display: grid; gap: .6rem; padding: .3rem; }
.cardtable .handrow { display: grid; gap: .25rem; }
.cardtable .handlabel { font-size: 14px; color: #6b6558; }
.cardtable .handlabel.tomove { color: #222; font-weight: 600; }
.cardtable .hand { display: flex; gap: .35rem; flex-wrap: wrap; min-height: 44px; align-items: flex-end; }
.cardtable .hand:has(.drawn) { padding-bottom: 14px; }
.cardtable .hand.recent { width: fit-content; padding: 3px; border-radius: 7px; background: rgba(143, 184, 232, .45); }
.cardtable .felt { border-radius: 10px; padding: .7rem .5rem .5rem; display: grid; gap: .4rem; }
.cardtable .piles { display: flex; gap: .5rem; flex-wrap: nowrap; justify-content: center; background: none; padding: 0; }
.cardtable .pile { display: flex; flex-direction: column; align-items: center; gap: .25rem; width: 92px;
  border-radius: 8px; padding: .3rem .1rem; border: 3px solid transparent; box-sizing: border-box; }
.cardtable .pile.target { border-color: #f2b134; cursor: pointer; background: rgba(242, 177, 52, .22); }
.cardtable .pile.recent { background: rgba(143, 184, 232, .28); }
.cardtable .pile.recent.target { background: rgba(242, 177, 52, .22); }
.cardtable .stack { position: relative; width: 84px; height: 84px; display: flex; align-items: center; justify-content: center; }
.cardtable .stack.deep .pcard:last-child { box-shadow: 2px 2px 0 #ddd, 4px 4px 0 #bbb, 0 1px 3px rgba(0,0,0,.4); }
.cardtable .stack .pcard.cut { position: absolute; transform: rotate(90deg); box-shadow: 0 2px 6px rgba(0,0,0,.45); }
.cardtable .pileinfo { color: #fff; font-size: 12px; text-align: center; line-height: 1.25; }
.cardtable .pileinfo b { font-size: 15px; }
.cardtable .pilehint { color: #ffd36b; font-weight: 700; font-size: 12px; text-align: center; }
.cardtable .recentline { color: #fff; font-size: 13px; text-align: center; min-height: 1em; }
.cardtable .pcard { width: 56px; height: 80px; border-radius: 7px; border: 1px solid #777; position: relative;
  display: flex; flex-direction: column; align-items: center; justify-content: center; box-sizing: border-box;
  padding-top: 10px; font: 700 20px system-ui, sans-serif; box-shadow: 0 1px 2px rgba(0,0,0,.3); user-select: none; transform: none; margin: 0; outline: none; }
.cardtable .pcard .suit { font-size: 24px; line-height: 1; }
.cardtable .pcard .corner { position: absolute; top: 2px; left: 4px; font: 700 11px/1.05 system-ui, sans-serif; text-align: center; }
.cardtable .pcard .val { position: absolute; top: 2px; right: 4px; font: 600 10px system-ui, sans-serif; color: #888; }
.cardtable .pcard.back { background: repeating-linear-gradient(45deg, #3b5f8a, #3b5f8a 6px, #2c4a6e 6px, #2c4a6e 12px) !important; }
.cardtable .pcard.small { width: 30px; height: 44px; }
.cardtable .pcard.fresh, .cardtable .stack.deep .pcard.fresh:last-child { box-shadow: 0 0 0 3px #8fb8e8, 0 1px 3px rgba(0,0,0,.4); }
.cardtable .pcard.playable { cursor: pointer; outline: 3px dashed #4a90d9; outline-offset: 1px; }
.cardtable .pcard.picked { outline: 4px solid #f2b134; transform: translateY(-6px); }
.cardtable .pcard.drawn::after { content: "drawn"; position: absolute; bottom: -16px; font: 600 10px system-ui, sans-serif; color: #2f6f4f; }
.cardtable .stock .pcard.back { cursor: default; }
.cardtable .stock.target .pcard.back { cursor: pointer; }
.cardhint { color: #6b6558; font-size: 13px; margin: .3rem 0 0; }
@media (max-width: 480px) {
  .cardtable .pile { width: 76px; }
  .cardtable .stack { width: 70px; height: 70px; }
  .cardtable .pcard { width: 46px; height: 66px; font-size: 17px; }
  .cardtable .pcard .suit { font-size: 20px; }
  .cardtable .pcard.small { width: 24px; height: 36px; }
  .cardtable .pcard .corner { font-size: 10px; }
  .cardtable .piles { gap: .2rem; }
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

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function render(box, ctx) {
  const struct = ctx.struct;
  const { board } = struct;
  const palette = ctx.palette || {};
  if (ui.struct !== struct) ui = { struct, card: null };
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

  // what the opponents did since the viewer last moved (every step's touched and removed)
  const recent = struct.recent || [];
  const touched = new Set(recent.flatMap((t) => t.steps.flatMap((s) => s.touched)));
  const removed = new Set(recent.flatMap((t) => t.steps.flatMap((s) => s.removed)));

  // the viewer's seat at the bottom; a spectator sees the person's seat ("You") there, else seat 0
  const named = [0, 1].find((i) => ctx.seatName(i) === "You");
  const me = struct.viewer ?? named ?? 0;
  const wrap = div("cardtable");

  const handRow = (seat, mine) => {
    const h = board.hands[seat];
    const row = div("handrow");
    row.dataset.seat = String(seat);
    const name = ctx.seatName(seat);
    let label = `${name}${seat === struct.viewer && name !== "You" ? " (your hand)" : ""}: ${plural(h.size, "card")}`;
    if (seat === struct.to_move) label += board.must_play_drawn ? " · to move, must play the drawn card" : " · to move";
    const lab = div("handlabel" + (seat === struct.to_move ? " tomove" : ""), label);
    const cards = div("hand" + (touched.has(h.id) ? " recent" : ""));
    cards.dataset.hand = h.id;
    if (h.cards) {
      for (const c of h.cards) {
        const ok = mine && byCard.has(c.card);
        const e = cardEl(c, palette, (ok ? "playable" : "") + (ui.card === c.card ? " picked" : "") + (c.drawn ? " drawn" : ""));
        if (["J", "Q", "K", "A"].includes(c.rank)) e.append(Object.assign(div("val", String(c.value)), { title: "value in hand" }));
        if (ok) e.addEventListener("click", () => { ui.card = ui.card === c.card ? null : c.card; redraw(); });
        cards.append(e);
      }
    } else {
      for (let i = 0; i < h.size; i++) cards.append(backEl("small"));
    }
    row.append(lab, cards);
    return row;
  };

  wrap.append(handRow(1 - me, false));

  const felt = div("felt");
  felt.style.background = palette.table || "#2f6b45";
  const mid = div("piles");
  for (const pile of board.piles) {
    const slot = div("pile" + (targets.has(pile.id) ? " target" : "") + (touched.has(pile.id) ? " recent" : ""));
    slot.dataset.pile = pile.id;
    const stack = div("stack" + (pile.cards.length > 1 ? " deep" : ""));
    const top = pile.cards[pile.cards.length - 1];
    if (top.cut && pile.cards.length > 1) {
      // a cut-down card lies crosswise on the card it cut (§3.3)
      stack.append(cardEl(pile.cards[pile.cards.length - 2], palette));
    }
    stack.append(cardEl(top, palette, (top.cut ? "cut" : "") + (removed.has(top.card) && touched.has(pile.id) ? " fresh" : "")));
    slot.append(stack);
    const info = div("pileinfo");
    info.innerHTML = `pile ${pile.id}<br>value <b>${pile.value}</b>${pile.cut ? " (cut)" : ""}<br>${plural(pile.cards.length, "card")}`;
    slot.append(info);
    const here = targets.get(pile.id);
    if (here) {
      slot.append(div("pilehint", here.map((p) => (p.kind === "cut" ? "cut down to 1" : "play here (sum)")).join(" / ")));
      slot.addEventListener("click", () => {
        if (here.length === 1) { ctx.play(here[0].action); return; }
        // never happens by §3 (sum and cut never both fit one card on one pile), but stay safe
        ctx.controls.querySelectorAll("[data-choice]").forEach((b) => b.remove());
        for (const p of here) button(ctx.controls, p.kind === "cut" ? "Cut down" : "Sum", () => ctx.play(p.action)).dataset.choice = p.action;
      });
    }
    mid.append(slot);
  }
  const stock = div("pile stock" + (choices.draw ? " target" : "") + (touched.has(board.stock.id) ? " recent" : ""));
  stock.dataset.pile = board.stock.id;
  const sstack = div("stack" + (board.stock.size > 1 ? " deep" : ""));
  if (board.stock.size) sstack.append(backEl());
  const sinfo = div("pileinfo");
  sinfo.innerHTML = `stock<br>${plural(board.stock.size, "card")}`;
  stock.append(sstack, sinfo);
  if (choices.draw) {
    stock.append(div("pilehint", "draw"));
    stock.addEventListener("click", () => ctx.play(choices.draw.action));
  }
  mid.append(stock);
  felt.append(mid);
  const line = div("recentline");
  line.id = "recent-turns";
  line.textContent = recent.map((t) => `${ctx.seatName(t.seat)}: ${t.steps.map((s) => s.text || s.action).join(", ")}`).join(" · ");
  felt.append(line);
  wrap.append(felt);
  wrap.append(handRow(me, true));
  box.append(wrap);

  const hint = document.createElement("p");
  hint.className = "cardhint";
  hint.id = "card-hint";
  hint.textContent = "Cards count 2–10, J 11, Q 12, K 13; an ace counts 14 in your hand and 1 on the table.";
  box.append(hint);

  if (interactive) {
    const info = document.createElement("span");
    info.className = "info";
    if (board.must_play_drawn) info.textContent = "You drew a card that fits: play it.";
    else if (byCard.size) info.textContent = ui.card ? `Now click a highlighted pile for ${ui.card}.` : "Click a card of your hand, then a pile.";
    else info.textContent = "No card fits.";
    ctx.controls.append(info);
    if (choices.draw) button(ctx.controls, "Draw a card", () => ctx.play(choices.draw.action), "primary").id = "draw";
    if (choices.pass) button(ctx.controls, "Pass", () => ctx.play(choices.pass.action), "primary").id = "pass";
  }
}
