// The match page's requests the other people answer: a takeback (README "Undo and takebacks")
// and a draw offer (README "Draw offers") share one shape in the view ({by, accepted, …}) and one
// kind of box, which says who asked, who accepted and who is still to answer, with the buttons
// that answer. (Each word a literal key, which tests/test_i18n.py finds in the catalogs.)
import { h } from "./dom.js";
import { t } from "./i18n.js";

// Returns {takeback, draw}: the two boxes, to lay out.
export function requestBoxes(ctx) {
  // the seats as they are when asked (ctx.seats changes when a session ends elsewhere)
  const seats = () => ctx.seats;
  const takeback = requestBox(ctx, { id: "takeback", field: "takeback", ended: "takeback_ended",
    words: { asked: (who) => t("takeback.asked", { who }), asks: (who) => t("takeback.asks", { who }),
      asks_accepted: (who, accepted) => t("takeback.asks_accepted", { who, accepted }),
      you_accepted: (who, waiting) => t("takeback.you_accepted", { who, waiting }),
      waiting: (who) => t("takeback.asks_waiting", { who }),
      waiting_for: (who, accepted, waiting) => t("takeback.asks_waiting_for", { who, accepted, waiting }),
      declined: (who) => t("takeback.declined", { who }), declined_other: (who, by) => t("takeback.declined_other", { who, by }),
      // a takeback that happened (a draw accepted ends the game instead)
      accepted: (by) => t("takeback.accepted_note", { by }), accepted_mine: () => t("takeback.accepted_mine"),
      accept: () => t("takeback.accept"), decline: () => t("takeback.decline"), withdraw: () => t("takeback.withdraw") },
    answering: (tb) => seats().myPeople.some((i) => i !== tb.by && !tb.accepted.includes(i)), others: (tb) => seats().othersWord(tb.by),
    // a takeback waits for every other person seat (the view's request names those that accepted)
    waiting: (tb) => seats().humans.filter((i) => i !== tb.by && !tb.accepted.includes(i)) });
  const draw = requestBox(ctx, { id: "drawoffer", field: "draw_offer", ended: "draw_offer_ended", path: "draw/answer",
    words: { asked: (who) => t("draw.asked", { who }), asks: (who) => t("draw.asks", { who }),
      asks_accepted: (who, accepted) => t("draw.asks_accepted", { who, accepted }),
      you_accepted: (who, waiting) => t("draw.you_accepted", { who, waiting }),
      waiting: (who) => t("draw.asks_waiting", { who }),
      waiting_for: (who, accepted, waiting) => t("draw.asks_waiting_for", { who, accepted, waiting }),
      // said under a finger too (a disabled button's title is not): how long before offering again
      declined: (who) => [t("draw.declined", { who }), ctx.view.draw_again_in > 0 ? t("draw.again_in", { n: ctx.view.draw_again_in }) : ""].join(" ").trim(),
      declined_other: (who, by) => t("draw.declined_other", { who, by }),
      accept: () => t("draw.accept"), decline: () => t("draw.decline"), withdraw: () => t("draw.withdraw") },
    answering: (offer) => offer.waiting.some((i) => seats().mySeats.includes(i)),
    others: (offer) => seats().seatsWord(offer.waiting.filter((i) => !seats().mySeats.includes(i))), waiting: (offer) => offer.waiting });
  return { takeback, draw };
}

// A request the other people answer, pending in the view's `field` ({by, accepted, …}), said
// in `words`; the answer is POSTed to `path` ({accept}); `answering(pending)`: whether this
// page must answer it, `others(pending)`: who the page's own request waits for, `waiting(pending)`:
// the seats still to answer. With 3–4 players a page that accepted is told whom it still
// waits for, and one still to answer who accepted. The view's `ended` field says how the last
// one ended, at this position: the page that made it, and every page that had accepted it,
// is told who declined it — not when it was withdrawn (from another tab of the same seat too),
// lapsed or made void by a flag, which no other player declined; a takeback that happened is
// said to every page, spectators too (a move just vanishing from the list tells nothing).
function requestBox(ctx, { id: boxId, field, ended, words, path = `${field}/answer`, answering, others, waiting }) {
  const box = h("div", { class: "takeback", id: boxId, hidden: true, "aria-live": "polite" });
  let key = null;
  ctx.on("draw", () => {
    const view = ctx.view, { mySeats, seatName, seatsWord } = ctx.seats;
    const req = view.status === "playing" ? view[field] : null;
    const asker = req && mySeats.includes(req.by);
    const answers = req && !asker && answering(req);
    const gone = view.status === "playing" && !req ? view[ended] : null;
    const told = gone && (mySeats.includes(gone.by) || (gone.accepted || []).some((i) => mySeats.includes(i)));
    let note = "";
    if (gone && gone.how === "declined" && told && !mySeats.includes(gone.seat)) {
      note = mySeats.includes(gone.by) ? words.declined(seatName(gone.seat)) : words.declined_other(seatName(gone.seat), seatName(gone.by));
    } else if (gone && gone.how === "accepted") {
      note = mySeats.includes(gone.by) ? words.accepted_mine() : words.accepted(seatName(gone.by));
    }
    const now = JSON.stringify([req, asker, answers, note]);
    if (now === key) return;
    key = now;
    box.replaceChildren();
    box.hidden = !req && !note;
    if (!req) { if (note) box.append(h("span", { id: `${boxId}-text` }, note)); return; }
    const answer = (accept) => ctx.post(path, { accept });
    const accepted = req.accepted.filter((i) => i !== req.by);
    if (asker) {
      box.append(h("span", { id: `${boxId}-text` }, words.asked(others(req))),
        h("button", { type: "button", id: `${boxId}-withdraw`, onclick: () => answer(false) }, words.withdraw()));
    } else if (answers) {
      const said = accepted.some((i) => !mySeats.includes(i))
        ? words.asks_accepted(seatName(req.by), seatsWord(accepted.filter((i) => !mySeats.includes(i))))
        : words.asks(seatName(req.by));
      box.append(h("span", { id: `${boxId}-text` }, said),
        h("span", { class: "request-answer" },
          h("button", { type: "button", class: "primary", id: `${boxId}-accept`, onclick: () => answer(true) }, words.accept()),
          h("button", { type: "button", id: `${boxId}-decline`, onclick: () => answer(false) }, words.decline())));
    } else if (accepted.some((i) => mySeats.includes(i))) {
      box.append(h("span", { id: `${boxId}-text` }, words.you_accepted(seatName(req.by), seatsWord(waiting(req)))));
    } else if (accepted.length) {
      box.append(h("span", { id: `${boxId}-text` }, words.waiting_for(seatName(req.by), seatsWord(accepted), seatsWord(waiting(req)))));
    } else {
      box.append(h("span", { id: `${boxId}-text` }, words.waiting(seatName(req.by))));
    }
  });
  ctx.screen(box);
  return box;
}
