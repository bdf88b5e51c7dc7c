// What issue 42 adds to the match page (app.js's matchPage calls these through small hooks):
// the first moves' deadline and Abort; a gone opponent — their connection dropped or back, then
// "Claim victory" or "Call it a draw" once they have been gone long enough on their own turn;
// the rematch (offer, accept, decline; both players are taken to the new game, spectators follow);
// and the end words of an aborted game and of one a player left. A person the lobby seated
// holds their seats by their session (the server reads it with every request): no token.
import { api } from "./api.js";
import { h, keepFocus } from "./dom.js";
import { t } from "./i18n.js";

// The result line of an aborted game, or of one a player left (null: another ending). `own`:
// the one person seat the page plays (its words say "you", as its name does without people).
export function endText(view, seatName, own = null) {
  const you = t("seat.you");
  const isYou = (i) => i === own || seatName(i) === you;
  if (view.termination === "aborted") {
    const a = view.aborted;
    if (!a) return t("end.aborted");
    const name = seatName(a.seat);
    if (a.why === "no_start") return isYou(a.seat) ? t("end.no_start_you") : t("end.no_start", { who: name });
    return isYou(a.seat) ? t("end.aborted_you") : t("end.aborted_by", { who: name });
  }
  if (view.termination === "left" && view.result && view.left !== null && view.left !== undefined) {
    const gone = seatName(view.left);
    const drawn = view.result.every((r) => r === 0);
    const left = isYou(view.left) ? t("end.you_left") : t("end.left", { who: gone });
    if (drawn) return `${left} — ${t("result.draw")}`;
    const winner = view.result.findIndex((r) => r > 0);
    return `${left} — ${isYou(winner) ? t("result.you_win") : t("result.wins", { name: seatName(winner) })}`;
  }
  return null;
}

// The page's box of these parts. `getView()`: the view on screen; `seatName(i)`; `post(path,
// body)`: the page's way to act (its answer drawn as any act's); `refresh()`: fetch the view.
export function matchExtras({ id, getView, seatName, post, refresh }) {
  const node = h("div", { class: "extras", id: "extras" });
  const startBox = h("p", { class: "start-note", id: "start-note", "aria-live": "polite", hidden: true });
  const goneBox = h("div", { class: "gone", id: "gone", "aria-live": "polite", hidden: true });
  const rematchBox = h("div", { class: "rematch", id: "rematch", "aria-live": "polite", hidden: true });
  const abortBox = h("p", { class: "row", id: "abort-box", hidden: true });
  const err = h("p", { class: "error", id: "extras-error", role: "alert", hidden: true });
  node.append(startBox, abortBox, goneBox, rematchBox, err);
  let presence = null; // the last {online, gone_since, claim_at, now} and the local time it came
  let offset = 0; // server time − local time, seconds
  let wasOnline = null; // per seat: online at the last presence message
  let backUntil = {}; // seat -> local ms until which "is back" is said
  let followed = false; // the rematch's game was gone to
  let following = false; // … or is being asked for
  let stopped = false;
  let lastPresence = 0;
  const now = () => Date.now() / 1000 + offset;
  const fail = (e) => { err.textContent = e ? (e.message || String(e)) : ""; err.hidden = !e; };
  const mine = () => getView().my_seats || [];
  const people = () => getView().players.map((p, i) => (p === "human" ? i : -1)).filter((i) => i >= 0);
  const ticker = setInterval(() => { if (!stopped) update(); }, 1000);
  // without the socket, presence is asked every 10 s while the game runs between people
  const poller = setInterval(async () => {
    const v = getView();
    if (stopped || v.status !== "playing" || !mine().length || Date.now() - lastPresence < 10000) return;
    try { receive((await api(`/api/matches/${id}/presence`)).presence); } catch { /* the next try */ }
  }, 5000);

  function receive(p) {
    lastPresence = Date.now();
    offset = p.now - Date.now() / 1000;
    const v = getView();
    if (wasOnline) {
      p.online.forEach((on, i) => { if (on && !wasOnline[i] && !mine().includes(i)) backUntil[i] = Date.now() + 8000; });
    }
    wasOnline = p.online.slice();
    presence = p;
    if (v) update();
  }

  async function rematch(accept = true) {
    fail(null);
    try {
      const answer = await api(`/api/matches/${id}/rematch`, { method: "POST", body: { accept } });
      if (answer.id && answer.status === "started") { follow(answer.id); return; }
      await refresh();
    } catch (e) { fail(e); }
  }

  function follow(next) {
    if (followed || stopped) return;
    followed = true;
    location.hash = `#/match/${next}`;
  }

  function update() {
    const v = getView();
    const over = v.status === "over";
    const me = mine();
    // the first moves' deadline: said to everyone; Abort for a seat of mine that has not moved
    const due = !over && v.start_deadline;
    startBox.hidden = !due;
    if (due) {
      const left = Math.max(0, Math.ceil(due.at - now()));
      const who = seatName(due.seat);
      startBox.textContent = who === t("seat.you") ? t("start.you_must", { n: left }) : t("start.must", { who, n: left });
    }
    const afocus = keepFocus(abortBox);
    abortBox.replaceChildren();
    abortBox.hidden = !(v.abortable && !over);
    if (!abortBox.hidden) {
      abortBox.append(h("button", { type: "button", id: "abort", onclick: () => { if (confirm(t("abort.confirm"))) post("abort"); } }, t("abort.do")),
        " ", h("small", { class: "muted" }, t("abort.help")));
    }
    afocus();
    drawGone(v, over, me);
    drawRematch(v, over, me);
  }

  function drawGone(v, over, me) {
    const focus = keepFocus(goneBox);
    goneBox.replaceChildren();
    const others = people().filter((i) => !me.includes(i));
    const lines = [];
    // while the first moves' wait runs, its note says what matters (a first move by then, or
    // the game is aborted): an opponent whose page is still opening is not "gone", nor "back"
    if (presence && !over && me.length && !v.start_deadline) {
      for (const i of others) {
        if (!presence.online[i] && presence.gone_since[i] !== null) lines.push(h("p", { "data-gone": i }, t("gone.left", { who: seatName(i) })));
        else if (backUntil[i] && Date.now() < backUntil[i]) lines.push(h("p", { "data-back": i }, t("gone.back", { who: seatName(i) })));
      }
      const at = presence.claim_at;
      if (at !== null && at !== undefined && !presence.online[v.to_move]) {
        const wait = Math.ceil(at - now());
        if (wait > 0) lines.push(h("p", { id: "claim-wait" }, t("gone.claim_in", { n: wait })));
        else {
          lines.push(h("p", { class: "row", id: "claim" },
            h("button", { type: "button", class: "primary", id: "claim-victory", onclick: () => post("claim", { draw: false }) }, t("gone.claim")),
            h("button", { type: "button", id: "claim-draw", onclick: () => post("claim", { draw: true }) }, t("gone.draw"))));
        }
      }
    }
    goneBox.append(...lines);
    goneBox.hidden = !lines.length;
    focus();
  }

  function drawRematch(v, over, me) {
    const focus = keepFocus(rematchBox);
    rematchBox.replaceChildren();
    const r = v.rematch;
    if (over && r && r.next) {
      // agreed: both players go to the new game (their session, or the answer's tokens, holds their seats there), and so
      // do the spectators
      if (!following) { following = true; if (me.length) rematch(true); else follow(r.next); }
      rematchBox.append(h("p", {}, t("rematch.started")));
    } else if (over && me.length && v.termination !== "aborted") {
      const pending = r && !r.how ? r : null;
      if (pending && me.includes(pending.by)) {
        rematchBox.append(h("span", { id: "rematch-text" }, t("rematch.offered")), " ",
          h("button", { type: "button", id: "rematch-withdraw", onclick: () => rematch(false) }, t("rematch.withdraw")));
      } else if (pending) {
        rematchBox.append(h("span", { id: "rematch-text" }, t("rematch.offers", { who: seatName(pending.by) })), " ",
          h("button", { type: "button", class: "primary", id: "rematch-accept", onclick: () => rematch(true) }, t("rematch.accept")), " ",
          h("button", { type: "button", id: "rematch-decline", onclick: () => rematch(false) }, t("rematch.decline")));
      } else {
        if (r && r.how === "declined" && !me.includes(r.seat)) rematchBox.append(h("span", { id: "rematch-text" }, t("rematch.declined", { who: seatName(r.seat) })), " ");
        rematchBox.append(h("button", { type: "button", class: "primary", id: "rematch-offer", onclick: () => rematch(true) }, t("rematch.offer")));
      }
    }
    rematchBox.hidden = !rematchBox.childNodes.length;
    focus();
  }

  return {
    node,
    update,
    presence: receive,
    stop() { stopped = true; clearInterval(ticker); clearInterval(poller); },
  };
}
