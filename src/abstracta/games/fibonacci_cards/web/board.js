// Fibonacci card game table (spec: fibonacci-cards.md §1, §3, §6).
// Position: "<pile1> <pile2> <pile3> | <hand0> | <hand1> | <stock> | <to-move> [D]"; hidden parts as "?N".
import { button } from "/svg.js";

const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const VALUES = { A: 1, T: 10, J: 11, Q: 12, K: 13 };
let ui = { key: null, card: null };

// no seatName: seats have no colour, the app names them "You", "Computer (level N)", "Player N"

export function parse(text) {
  const [table, h0, h1, stock, tail] = text.split("|").map((s) => s.trim());
  const piles = table.split(/\s+/).map((p) => p.split(","));
  const hand = (s) => (s.startsWith("?") ? { hidden: Number(s.slice(1)) } : { cards: s === "-" ? [] : s.split(",") });
  const st = stock.startsWith("?") ? Number(stock.slice(1)) : (stock === "-" ? 0 : stock.split(",").length);
  const [toMove, flag] = tail.split(/\s+/);
  return { piles, hands: [hand(h0), hand(h1)], stock: st, toMove: Number(toMove), drawn: flag === "D" };
}

export function tableValue(pile) {
  const top = pile[pile.length - 1];
  if (top.endsWith("*")) return 1;
  const r = top[0];
  return VALUES[r] ?? Number(r);
}

function cardEl(text, { back = false, cls = "" } = {}) {
  const d = document.createElement("div");
  d.className = "pcard " + cls + (back ? " back" : "");
  if (!back) {
    const rank = text[0] === "T" ? "10" : text[0];
    const suit = text[1];
    d.classList.toggle("red", suit === "d" || suit === "h");
    d.innerHTML = `<span class="rank">${rank}</span><span class="suit">${SUITS[suit] || "?"}</span>`;
    d.dataset.card = text.replace("*", "");
  }
  return d;
}

export function render(box, ctx) {
  const pos = parse(ctx.position);
  const key = ctx.position + "|" + ctx.legal.join(",");
  if (ui.key !== key) ui = { key, card: null };
  const plays = ctx.legal.map((m) => /^([2-9TJQKA][cdhs])([>/])([123])$/.exec(m)).filter(Boolean)
    .map((m) => ({ text: m[0], card: m[1], kind: m[2], pile: Number(m[3]) }));
  const playable = new Set(plays.map((p) => p.card));
  if (ui.card && !playable.has(ui.card)) ui.card = null;
  if (!ui.card && playable.size === 1 && pos.drawn) ui.card = [...playable][0];
  const targets = new Map(plays.filter((p) => p.card === ui.card).map((p) => [p.pile, p]));
  const wrap = document.createElement("div");
  wrap.className = "cardtable";
  const me = ctx.viewer ?? pos.toMove;
  const other = 1 - me;
  const redraw = () => { box.replaceChildren(); ctx.controls.replaceChildren(); render(box, ctx); };

  const handRow = (seat, mine) => {
    const row = document.createElement("div");
    row.className = "handrow";
    const h = pos.hands[seat];
    const label = document.createElement("div");
    label.className = "handlabel";
    const count = h.cards ? h.cards.length : h.hidden;
    label.textContent = `${ctx.seatName(seat)}${mine && ctx.seatName(seat) !== "You" ? " (your hand)" : ""}: ${count} card${count === 1 ? "" : "s"}` + (seat === pos.toMove ? " · to move" : "");
    row.append(label);
    const cards = document.createElement("div");
    cards.className = "hand";
    if (h.cards) {
      for (const c of h.cards) {
        const ok = mine && ctx.interactive && playable.has(c);
        const e = cardEl(c, { cls: (ok ? "playable" : "") + (ui.card === c ? " picked" : "") });
        if (ok) e.addEventListener("click", () => { ui.card = ui.card === c ? null : c; redraw(); });
        cards.append(e);
      }
    } else {
      for (let i = 0; i < h.hidden; i++) cards.append(cardEl("", { back: true, cls: "small" }));
    }
    row.append(cards);
    return row;
  };

  wrap.append(handRow(other, false));
  const mid = document.createElement("div");
  mid.className = "piles";
  pos.piles.forEach((pile, i) => {
    const n = i + 1;
    const slot = document.createElement("div");
    slot.className = "pile" + (targets.has(n) ? " target" : "");
    slot.dataset.pile = String(n);
    const top = pile[pile.length - 1];
    const c = cardEl(top, { cls: top.endsWith("*") ? "cut" : "" });
    slot.append(c);
    const info = document.createElement("div");
    info.className = "pileinfo";
    info.textContent = `pile ${n} · value ${tableValue(pile)} · ${pile.length} card${pile.length === 1 ? "" : "s"}`;
    slot.append(info);
    if (targets.has(n)) {
      const t = targets.get(n);
      const hint = document.createElement("div");
      hint.className = "pilehint";
      hint.textContent = t.kind === "/" ? "cut down to 1" : "play here (sum)";
      slot.append(hint);
      slot.addEventListener("click", () => ctx.play(t.text));
    }
    mid.append(slot);
  });
  const stock = document.createElement("div");
  stock.className = "pile stock";
  stock.append(cardEl("", { back: true }));
  const si = document.createElement("div");
  si.className = "pileinfo";
  si.textContent = `stock · ${pos.stock} card${pos.stock === 1 ? "" : "s"}`;
  stock.append(si);
  mid.append(stock);
  wrap.append(mid);
  wrap.append(handRow(me, true));
  box.append(wrap);
  const aceHint = document.createElement("p");
  aceHint.className = "cardhint";
  aceHint.id = "card-hint";
  aceHint.textContent = "Cards count 2–10, J 11, Q 12, K 13; an ace counts 14 in your hand and 1 on the table.";
  box.append(aceHint);

  if (ctx.interactive) {
    const info = document.createElement("span");
    info.className = "info";
    if (pos.drawn) info.textContent = "You drew a card that fits: play it.";
    else if (plays.length) info.textContent = ui.card ? `Now click a highlighted pile for ${ui.card}.` : "Click a card of your hand, then a pile.";
    else info.textContent = "No card fits.";
    ctx.controls.append(info);
    if (ctx.legal.includes("draw")) button(ctx.controls, "Draw a card", () => ctx.play("draw"), "primary").id = "draw";
    if (ctx.legal.includes("pass")) button(ctx.controls, "Pass", () => ctx.play("pass"), "primary").id = "pass";
  }
}
