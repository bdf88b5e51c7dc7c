// The match page's rematch (issue 42): offer, accept, decline or withdraw at the end of a game
// between people; once agreed both players are taken to the new game (their session, or the
// answer's tokens, holds their seats there), and so are the spectators.
import { api } from "./api.js";
import { h, keepFocus } from "./dom.js";
import { t } from "./i18n.js";

// Returns the nodes to lay out with the page's actions: the rematch box and its refusal line.
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

  ctx.on("draw", () => {
    const v = ctx.view, me = v.my_seats || [], { seatName } = ctx.seats;
    const over = v.status === "over";
    const focus = keepFocus(box);
    box.replaceChildren();
    const r = v.rematch;
    if (over && r && r.next) {
      if (!following) { following = true; if (me.length) rematch(true); else follow(r.next); }
      box.append(h("p", {}, t("rematch.started")));
    } else if (over && me.length && v.termination !== "aborted") {
      const pending = r && !r.how ? r : null;
      if (pending && me.includes(pending.by)) {
        box.append(h("span", { id: "rematch-text" }, t("rematch.offered")), " ",
          h("button", { type: "button", id: "rematch-withdraw", onclick: () => rematch(false) }, t("rematch.withdraw")));
      } else if (pending) {
        box.append(h("span", { id: "rematch-text" }, t("rematch.offers", { who: seatName(pending.by) })), " ",
          h("button", { type: "button", class: "primary", id: "rematch-accept", onclick: () => rematch(true) }, t("rematch.accept")), " ",
          h("button", { type: "button", id: "rematch-decline", onclick: () => rematch(false) }, t("rematch.decline")));
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
