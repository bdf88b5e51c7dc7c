// The match page's rematch (issue 42): offer, accept, decline or withdraw at the end of a game
// between people; once agreed both players are taken to the new game (their session, or the
// answer's tokens, holds their seats there), and so are the spectators.
import { api } from "./api.js";
import { h, keepFocus } from "./dom.js";
import { t } from "./i18n.js";

// Returns the nodes to lay out with the end's actions (match-actions.js): the rematch box and
// its refusal line.
export function rematchBox(ctx) {
  const box = h("div", { class: "rematch", id: "rematch", "aria-live": "polite", hidden: true });
  const err = h("p", { class: "error", id: "extras-error", role: "alert", hidden: true });
  let followed = false; // the rematch's game was gone to
  let following = false; // … or is being asked for
  const fail = (e) => { err.textContent = e ? (e.message || String(e)) : ""; err.hidden = !e; };

  async function rematch(accept = true) {
    fail(null);
    try {
      const answer = await api(`/api/matches/${ctx.id}/rematch`, { method: "POST", body: { accept } });
      if (answer.id && answer.status === "started") { follow(answer.id); return; }
      await ctx.refresh();
    } catch (e) { fail(e); }
  }

  function follow(next) {
    if (followed || ctx.stopped) return;
    followed = true;
    location.hash = `#/match/${next}`;
  }

  let drawn = null; // what the box says: drawn again only when that changes
  ctx.on("draw", () => {
    const v = ctx.view, me = v.my_seats || [], { seatName } = ctx.seats;
    const over = v.status === "over";
    const r = v.rematch;
    if (over && r && r.next && !following) { following = true; if (me.length) rematch(true); else follow(r.next); }
    // the box is a live region: the same words put back at every redraw (a clock's, a chat
    // line's) would be read out again
    const key = JSON.stringify([over, r, me, v.termination, seatName(r ? r.by ?? r.seat ?? 0 : 0)]);
    if (key === drawn) return;
    drawn = key;
    const focus = keepFocus(box);
    box.replaceChildren();
    if (over && r && r.next) {
      box.append(h("p", {}, t("rematch.started")));
    } else if (over && me.length && v.termination !== "aborted") {
      const pending = r && !r.how ? r : null;
      if (pending && me.includes(pending.by)) {
        box.append(h("span", { id: "rematch-text" }, t("rematch.offered")), " ",
          h("button", { type: "button", id: "rematch-withdraw", onclick: () => rematch(false) }, t("rematch.withdraw")));
      } else if (pending) {
        // the answer's two buttons together: on a phone they go under the words as one line
        box.append(h("span", { id: "rematch-text" }, t("rematch.offers", { who: seatName(pending.by) })), " ",
          h("span", { class: "rematch-answer" },
            h("button", { type: "button", class: "primary", id: "rematch-accept", onclick: () => rematch(true) }, t("rematch.accept")), " ",
            h("button", { type: "button", id: "rematch-decline", onclick: () => rematch(false) }, t("rematch.decline"))));
      } else {
        if (r && r.how === "declined" && !me.includes(r.seat)) box.append(h("span", { id: "rematch-text" }, t("rematch.declined", { who: seatName(r.seat) })), " ");
        box.append(h("button", { type: "button", class: "primary", id: "rematch-offer", onclick: () => rematch(true) }, t("rematch.offer")));
      }
    }
    box.hidden = !box.childNodes.length;
    focus();
  });
  return [box, err];
}
