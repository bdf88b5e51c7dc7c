// The match page's row of actions: undo (between people at a distance, a takeback asked),
// resign, offer a draw, a new game, the record, the rules and the match's address to share;
// and, once the game is over, what a player does next (the rematch, a new game) by the result.
import { h, keepFocus } from "./dom.js";
import { t } from "./i18n.js";

// `rematch`: the rematch's nodes (match-rematch.js), shown with the end's actions. Returns
// {actions, shareNote, ending}: the row, the line under it and the end's actions, to lay out.
export function actionRow(ctx, rematch) {
  const { id } = ctx;
  const actions = h("div", { class: "actions" });
  // The end of a game stands between the result and the board, as on lichess: under the board,
  // the scores, the analysis and the moves, a rematch offered was some 1,100 px down a phone's
  // page, and the person offered it saw the result alone
  const endLinks = h("span", { class: "end-links" });
  const ending = h("div", { class: "ending", id: "ending", hidden: true }, ...rematch, endLinks);
  let endDrawn = false;
  const shareNote = h("p", { class: "muted share-note", id: "share-note", "aria-live": "polite" });

  // The question is modal: the hand may pass while it is open (a move still on its way, another
  // tab of this device), and its answer would resign for the seat whose hand has left the
  // screen. Between people sharing a device with hidden hands the page asks the server again
  // first: a new position (a move, an undo) or other eyes cancel the resignation, say so and
  // bring up the hand-over screen; a new revision that moved nothing (a takeback asked, a hint
  // counted) leaves the same seat resigning, as it confirmed.
  async function resign(seat) {
    if (!confirm(t("match.resign_confirm"))) return;
    if (ctx.seats.hotSeatHidden) {
      const asked = { ply: ctx.view.ply, viewer: ctx.view.viewer };
      await ctx.refresh();
      if (ctx.view.status === "over") { ctx.draw(); return; } // the result line says how it ended
      if (ctx.view.ply !== asked.ply || ctx.view.viewer !== asked.viewer || ctx.needsHandover()) {
        ctx.draw();
        ctx.showError(new Error(t("match.resign_cancelled")));
        return;
      }
    }
    ctx.post("resign", seat !== null ? { seat } : {});
  }

  // A draw offer is confirmed first, as a resignation is (a tap near Resign must not offer one)
  function offerDraw() {
    if (!confirm(t("draw.offer_confirm"))) return;
    ctx.post("draw");
  }

  // The match's address, to watch it (a spectator sees what the server shows anyone): a
  // phone's share sheet, else the clipboard, else the link written out to copy by hand
  async function shareLink() {
    const url = `${location.origin}/#/match/${encodeURIComponent(id)}`;
    shareNote.textContent = "";
    try {
      if (navigator.share && matchMedia("(pointer: coarse)").matches) {
        await navigator.share({ title: document.title, url });
        return;
      }
      await navigator.clipboard.writeText(url);
      shareNote.textContent = t("match.share_copied");
    } catch (e) {
      if (e && e.name === "AbortError") return; // the share sheet was closed
      shareNote.textContent = t("match.share_link", { url });
    }
  }

  // between people an undo is a request the others answer; against the computer or on one
  // device it is immediate
  ctx.on("draw", ({ over, hide, myTurn, humansOut }) => {
    const view = ctx.view, { spectator, distance, myPeople } = ctx.seats;
    const resignSeat = myTurn ? view.to_move : myPeople.length === 1 ? myPeople[0] : null;
    // a spectator's New game stays in the row: nothing of the end is theirs to do
    const ended = over && !spectator;
    const newGame = () => h("a", { class: "button", href: `#/new/${view.game}`, id: "new-game-link" }, t("home.new_game"));
    // the buttons of a game in play go once it is over (greyed, they said there was still
    // something to take back or resign); a key that pressed one goes on to what comes next
    const wasInGame = ["undo", "resign", "offer-draw"].includes(document.activeElement && document.activeElement.id);
    if (ended !== endDrawn) { endDrawn = ended; endLinks.replaceChildren(...(ended ? [newGame()] : [])); }
    ending.hidden = !ended && rematch.every((node) => node.hidden); // a spectator: "a rematch started"
    const actionFocus = keepFocus(actions);
    actions.replaceChildren(...[
      spectator || over ? null : distance
        ? h("button", { type: "button", id: "undo", onclick: () => ctx.post("takeback"),
          disabled: view.ply === 0 || hide || humansOut || !!view.takeback,
          title: view.takeback ? t("takeback.pending") : null }, t("takeback.ask"))
        : h("button", { type: "button", id: "undo", onclick: () => ctx.post("undo"), disabled: !myPeople.length || view.ply === 0 || hide || humansOut },
        t("match.undo")),
      spectator || over ? null : h("button", { type: "button", id: "resign", onclick: () => resign(resignSeat), disabled: !myPeople.length || humansOut || hide }, t("match.resign")),
      // against the computer there is no draw to offer (it never agrees; the server says when one can be)
      // shown disabled while an offer is pending, or this seat waits after one declined (the server's count)
      !over && (view.draw_offerable || view.draw_offer || view.draw_again_in > 0)
        ? h("button", { type: "button", id: "offer-draw", onclick: offerDraw, disabled: !view.draw_offerable || hide,
          title: view.draw_offer ? t("draw.pending") : view.draw_again_in > 0 ? t("draw.again_in", { n: view.draw_again_in }) : null },
        t("draw.offer"))
        : null,
      ended ? null : newGame(),
      view.hidden_information && !over
        ? h("button", { type: "button", id: "download", disabled: true, "aria-describedby": "download-note" }, t("match.download"))
        : h("a", { class: "button", href: `/api/matches/${id}/record?download=true`, download: `${view.game}-${id}.json`, id: "download" }, t("match.download")),
      h("a", { class: "button", href: `#/rules/${view.game}` }, t("home.rules")),
      h("button", { type: "button", id: "share", onclick: shareLink }, t("match.share")),
      // why the record waits, in words on the page: a tooltip never shows under a finger
      view.hidden_information && !over ? h("small", { class: "muted note", id: "download-note" }, t("match.download_hidden")) : null].filter(Boolean));
    if (ended && wasInGame && !actions.contains(document.activeElement)) {
      const next = [...ending.querySelectorAll("button, a[href]")].find((el) => !el.closest("[hidden]"));
      if (next) next.focus({ preventScroll: true });
    } else actionFocus();
  });
  return { actions, shareNote, ending };
}
