// The match page's rematch (issue 42): offer, accept, decline or withdraw at the end of a game
// between people; once agreed both players are taken to the new game (their session, or the
// answer's tokens, holds their seats there), and so are the spectators.
import { api } from "./api.js";
import { h, keepFocus } from "./dom.js";
import { t } from "./i18n.js";

// Returns {nodes, notice}: the nodes to lay out with the end's actions (match-actions.js), the
// rematch box and its refusal line; and the note of an offer that came while the box was out of
// sight, to put at the end of the page (it is fixed to the screen's top).
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

  // A player reading the chat (on a phone it lies under the board) or the moves did not see an
  // offer come to the box under the result: while one waits for this page's answer and the box is
  // out of sight, a note at the top of the screen says it, with the same Accept and Decline (and
  // a way to hide it: the offer stays in the box). Not a live region itself: the box is one
  // already, and says the offer once wherever the reader is.
  const noticeText = h("span", { id: "rematch-notice-text" });
  const notice = h("section", { class: "rematch-notice", id: "rematch-notice", "aria-labelledby": "rematch-notice-text", hidden: true },
    noticeText,
    h("span", { class: "rematch-answer" },
      h("button", { type: "button", class: "primary", id: "rematch-notice-accept", onclick: () => rematch(true) }, t("rematch.accept")),
      h("button", { type: "button", id: "rematch-notice-decline", onclick: () => rematch(false) }, t("rematch.decline")),
      h("button", { type: "button", class: "linkish", id: "rematch-notice-hide", "aria-label": t("rematch.hide_label"),
        onclick: () => { hiddenFor = offerKey; paintNotice(); } }, t("rematch.hide"))));
  let offerKey = null; // the offer waiting for this page's answer (JSON), or null
  let hiddenFor = null; // the offer whose note was hidden by the player
  let boxInSight = true; // until the observer says otherwise: no note flashes as the page opens
  function paintNotice() {
    const shown = !!offerKey && !boxInSight && hiddenFor !== offerKey && !ctx.stopped;
    // a key that hid or answered it goes on in the box (the offer's Accept, or Rematch again),
    // not to the page's <body>; the screen stays where the player reads
    if (!shown && !notice.hidden && notice.contains(document.activeElement)) {
      const next = box.querySelector("button");
      if (next) next.focus({ preventScroll: true });
    }
    notice.hidden = !shown;
  }
  const seeing = new IntersectionObserver(([entry]) => {
    boxInSight = entry.isIntersecting && entry.intersectionRatio >= 0.5;
    paintNotice();
  }, { threshold: [0, 0.5, 1] });
  seeing.observe(box);
  ctx.on("stop", () => seeing.disconnect());

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
    offerKey = null;
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
        offerKey = JSON.stringify(pending);
        noticeText.textContent = t("rematch.offers", { who: seatName(pending.by) });
      } else {
        if (r && r.how === "declined" && !me.includes(r.seat)) box.append(h("span", { id: "rematch-text" }, t("rematch.declined", { who: seatName(r.seat) })), " ");
        box.append(h("button", { type: "button", class: "primary", id: "rematch-offer", onclick: () => rematch(true) }, t("rematch.offer")));
      }
    }
    box.hidden = !box.childNodes.length;
    if (!offerKey) hiddenFor = null; // an offer made again is noted again
    paintNotice();
    focus();
  });
  return { nodes: [box, err], notice };
}
