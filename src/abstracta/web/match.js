// The match page (#/match/<id>): a game in play, finished or watched. Composed here of its
// concerns, each a module that draws its part on the context's "draw" event (match-context.js):
// the seats, clocks, hand-over screen and invitations (match-seats.js, match-clocks.js), the
// status line and result (match-status.js), a rated game's mark and rating changes
// (match-rating.js), the first moves' deadline, Abort and a gone opponent (match-presence.js),
// the rematch (match-rematch.js), the board and the moves played on it (match-board.js), the
// move list and replay (match-moves.js, match-replay.js), the requests (match-requests.js), the
// actions, and the end's under the result (match-actions.js), the analysis panel (analysis.js),
// the live connection (match-live.js) and the match's company: watchers, chat, your-move
// notices (match-company.js).
import { api, keepWatched } from "./api.js";
import { analysisPanel } from "./analysis.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { endText, outTurns, resultLine } from "./outcome.js";
import { boardModule, notFound } from "./shell.js";
import { matchTitle } from "./words.js";
import { actionRow } from "./match-actions.js";
import { boardPanel, fitBoard } from "./match-board.js";
import { clocks } from "./match-clocks.js";
import { company } from "./match-company.js";
import { matchContext } from "./match-context.js";
import { liveConnection } from "./match-live.js";
import { movesPanel } from "./match-moves.js";
import { presenceBoxes } from "./match-presence.js";
import { ratingLines } from "./match-rating.js";
import { rematchBox } from "./match-rematch.js";
import { requestBoxes } from "./match-requests.js";
import { handoverScreen, invitations, seatLine } from "./match-seats.js";
import { botErrorBox, statusLines } from "./match-status.js";

// `was`: what the same match page kept over a language switch (see page.keep); `page`: the
// router's hooks ({onStop(fn), keep(fn)}, app.js)
export async function matchPage(app, id, was, page) {
  let view;
  try {
    view = await api(`/api/matches/${id}`);
  } catch (e) {
    if (e.status !== 404) throw e;
    // drawn again in other words after it went while shown: still said so
    if (was && was.id === id && was.gone) notFound(app, t("match.gone"), t("match.gone_why"));
    else notFound(app, t("match.none"), t("match.none_why"));
    return;
  }
  const mod = await boardModule(view.board_module);
  if (!app.isConnected) return; // left while loading: no clock, socket or keys for a page not shown
  const ctx = matchContext({ id, view, mod, was });
  const { kept, seats } = ctx;
  if (seats.spectator) keepWatched(id, view.game); // "Your games" lists it under Watched games
  // a page that lost its seats (the person's session ended elsewhere) watches the game now, as if
  // opened so: kept too, or it was listed only after a reload or a language switch drew it again
  ctx.on("reseated", () => { if (ctx.seats.spectator) keepWatched(id, ctx.view.game); });
  page.onStop(() => ctx.emit("stop"));
  // deleted while shown (by a player, in another tab or browser): a board of no game would offer
  // moves, a chat and a clock to nobody. Everything stops and the page says so in their stead, as
  // its link now shows it, with the ways back; a note that the session ended stays over it.
  ctx.on("gone", () => {
    if (ctx.stopped) return;
    ctx.emit("stop");
    page.keep(() => ({ id, gone: true }));
    for (const node of [...app.children]) if (node.id !== "session-ended") node.remove();
    notFound(app, t("match.gone"), t("match.gone_why"));
    const heading = app.querySelector("h1");
    heading.tabIndex = -1; // a screen reader reads the news out, not the page that is no more
    heading.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  });

  const title = matchTitle(t(view.title_key, {}, view.title), view.variant);
  document.title = `${title} — abstracta`;
  // each concern subscribes to the context's events as it is made: they draw in this order
  const clock = clocks(ctx);
  const players = seatLine(ctx, clock.span);
  const { watching, status, banner } = statusLines(ctx);
  const rating = ratingLines(ctx);
  // the first moves' deadline and a gone opponent over the board; Abort with the actions (issue
  // 42): the keyboard reaches the board first, and the board is not pushed down in play. The
  // rematch stands with the end's actions under the result (actionRow): nothing is played then
  const presence = presenceBoxes(ctx);
  const extras = h("div", { class: "extras", id: "extras" }, ...presence.notes);
  const extraActions = h("div", { class: "extras", id: "extra-actions" }, presence.abort);
  const rematch = rematchBox(ctx);
  const handover = handoverScreen(ctx, () => board.box); // (made next, before the screen is up)
  const board = boardPanel(ctx);
  const moves = movesPanel(ctx);
  const invitesBox = invitations(ctx);
  const requests = requestBoxes(ctx);
  const botError = botErrorBox(ctx);
  const { actions, shareNote, ending } = actionRow(ctx, rematch.nodes);
  // back from the chat: the top of the page, the board whole under the heading, the keys on it
  const others = company(ctx, title, () => { window.scrollTo(0, 0); board.box.focus({ preventScroll: true }); });
  // the analysis board (analysis.js): finished games, and hints against the computer
  // the answers it has (a hint, a position's evaluation, the graph) are the same position's
  const analysis = analysisPanel({ id, getView: () => ctx.view, open: !!(kept && kept.analysisOpen), kept: ctx.same ? kept.analysis : null,
    boardBox: board.box, seatName: (i) => ctx.seats.seatName(i), stepTo: (ply) => ctx.replay.stepTo(ply), say: board.say,
    // the server's termination: a resignation, a flag, a draw agreed or a player gone ended it, not the rules
    ended: () => (ctx.view.status === "over" && ["resignation", "time", "agreement", "left"].includes(ctx.view.termination)
      ? endText(ctx.view, ctx.seats.seatName, ctx.seats.own) || resultLine(ctx.view, ctx.seats.seatName, outTurns(ctx.view)) : null),
    shownPly: () => ctx.replay.at() });
  ctx.on("draw", () => analysis.update());
  ctx.screen(analysis.node);
  // the board fits the screen once everything above and beside it is drawn, when the screen
  // turns or the window changes size, and when anything above it grows or shrinks after it is
  // drawn: the header's "Your move" badge, a challenge under the header, "1 watching" once the
  // socket says who is here
  const fit = () => fitBoard(ctx.view, board.box, moves.stepper);
  ctx.on("drawn", fit);
  window.addEventListener("resize", fit);
  const above = new ResizeObserver(fit);
  ctx.on("stop", () => { window.removeEventListener("resize", fit); above.disconnect(); });

  app.append(h("div", { class: "matchhead" }, h("h1", {}, title, rating.mark), players, others.chatMarker),
    watching, others.watchers, status, botError, banner, rating.box, ending, extras, handover, requests.takeback, requests.draw, invitesBox,
    h("div", { class: "play" },
      h("div", { class: "left" }, ...board.board),
      h("aside", { class: "right" },
        ...board.aside,
        analysis.node, h("h2", {}, t("match.moves")), moves.stepper, moves.list, extraActions, actions, shareNote,
        others.chat, others.notices)),
    rematch.notice);
  for (const node of [document.querySelector("header.top"), document.querySelector("#challenge-notices"), ...app.children]) {
    if (node && node.classList.contains("play")) break;
    if (node) above.observe(node);
  }
  // what a language switch keeps: the hand-over confirmed, the ply on screen, the board's pick
  // (its struct), the analysis answers, the boxes open and a move half typed
  page.keep(() => ({ id, shownSeat: ctx.shownSeat, ...ctx.replay.kept(), revision: ctx.view.revision, viewer: ctx.view.viewer,
    struct: ctx.view.struct, analysisOpen: analysis.isOpen(), analysis: analysis.kept(), ...board.kept() }));

  ctx.emit("fresh", ctx.view); // the clocks start from the first view
  ctx.draw();
  ctx.replay.resume();
  liveConnection(ctx).start();
}
