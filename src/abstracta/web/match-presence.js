// The match page's watch on the first moves and on the people present (issue 42): the first moves'
// deadline and Abort for a seat of this page's that has not moved; a gone opponent — their
// connection dropped or back — then "Claim victory" or "Call it a draw" once they have been gone
// long enough on their own turn. Presence comes with the match's socket (match-live.js: the
// context's "presence" event), asked for every 10 s while the socket is down. A person the lobby
// seated holds their seats by their session (the server reads it with every request): no token.
import { api } from "./api.js";
import { h, keepFocus } from "./dom.js";
import { t } from "./i18n.js";
import { durationWords } from "./words.js";

// Returns {notes, abort}: the nodes to lay out under the result (the deadline, the gone
// opponent and the claim), and Abort's box, laid out with the page's actions.
export function presenceBoxes(ctx) {
  const startBox = h("p", { class: "start-note", id: "start-note", "aria-live": "polite", hidden: true });
  const goneBox = h("div", { class: "gone", id: "gone", "aria-live": "polite", hidden: true });
  const abortBox = h("p", { class: "row", id: "abort-box", hidden: true });
  let presence = null; // the last {online, gone_since, claim_at, now}
  let offset = 0; // server time − local time, seconds
  let wasOnline = null; // per seat: online at the last presence message
  const backUntil = {}; // seat -> local ms until which "is back" is said
  let lastPresence = 0;
  const now = () => Date.now() / 1000 + offset;
  const mine = () => ctx.view.my_seats || [];
  const people = () => ctx.view.players.map((p, i) => (p === "human" ? i : -1)).filter((i) => i >= 0);
  // the countdowns are said each second between views
  const ticker = setInterval(() => { if (!ctx.stopped) update(); }, 1000);
  // without the socket, presence is asked every 10 s while the game runs between people
  const poller = setInterval(async () => {
    const v = ctx.view;
    if (ctx.stopped || v.status !== "playing" || !mine().length || Date.now() - lastPresence < 10000) return;
    try { receive((await api(`/api/matches/${ctx.id}/presence`)).presence); } catch { /* the next try */ }
  }, 5000);
  ctx.on("stop", () => { clearInterval(ticker); clearInterval(poller); });
  ctx.on("presence", receive);
  ctx.on("draw", update);

  function receive(p) {
    lastPresence = Date.now();
    offset = p.now - Date.now() / 1000;
    if (wasOnline) {
      p.online.forEach((on, i) => { if (on && !wasOnline[i] && !mine().includes(i)) backUntil[i] = Date.now() + 8000; });
    }
    wasOnline = p.online.slice();
    presence = p;
    update();
  }

  function update() {
    const v = ctx.view, { seatName } = ctx.seats;
    const over = v.status === "over";
    // the first moves' deadline: said to everyone; Abort for a seat of mine that has not moved
    const due = !over && v.start_deadline;
    startBox.hidden = !due;
    if (due) {
      const time = durationWords(due.at - now());
      // the seat's own page is spoken to ("Make your first move"); seatName gives its colour
      startBox.textContent = ctx.seats.own === due.seat ? t("start.you_must", { time }) : t("start.must", { who: seatName(due.seat), time });
    }
    const afocus = keepFocus(abortBox);
    abortBox.replaceChildren();
    abortBox.hidden = !(v.abortable && !over);
    if (!abortBox.hidden) {
      abortBox.append(h("button", { type: "button", id: "abort", onclick: () => { if (confirm(t("abort.confirm"))) ctx.post("abort"); } }, t("abort.do")),
        " ", h("small", { class: "muted" }, t("abort.help")));
    }
    afocus();
    drawGone(v, over, mine());
  }

  function drawGone(v, over, me) {
    const { seatName } = ctx.seats;
    const focus = keepFocus(goneBox);
    goneBox.replaceChildren();
    const others = people().filter((i) => !me.includes(i));
    const lines = [];
    // while the first moves' wait runs, its note says what matters (a first move by then, or
    // the game is aborted): an opponent whose page is still opening is not "gone", nor "back";
    // nor is a friend invited who has not taken the seat yet (the status line waits for them)
    const waiting = v.waiting_for || [];
    if (presence && !over && me.length && !v.start_deadline) {
      for (const i of others.filter((j) => !waiting.includes(j))) {
        if (!presence.online[i] && presence.gone_since[i] !== null) lines.push(h("p", { "data-gone": i }, t("gone.left", { who: seatName(i) })));
        else if (backUntil[i] && Date.now() < backUntil[i]) lines.push(h("p", { "data-back": i }, t("gone.back", { who: seatName(i) })));
      }
      const at = presence.claim_at;
      if (at !== null && at !== undefined && !presence.online[v.to_move]) {
        const wait = Math.ceil(at - now());
        if (wait > 0) lines.push(h("p", { id: "claim-wait" }, t("gone.claim_in", { n: wait })));
        else {
          lines.push(h("p", { class: "row", id: "claim" },
            h("button", { type: "button", class: "primary", id: "claim-victory", onclick: () => ctx.post("claim", { draw: false }) }, t("gone.claim")),
            h("button", { type: "button", id: "claim-draw", onclick: () => ctx.post("claim", { draw: true }) }, t("gone.draw"))));
        }
      }
    }
    goneBox.append(...lines);
    goneBox.hidden = !lines.length;
    focus();
  }

  return { notes: [startBox, goneBox], abort: abortBox };
}
