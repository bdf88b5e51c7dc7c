// The match page's words on the game: the status line (whose move, a computer thinking, the
// connection lost, the ply a replay shows), the note to a spectator, the result banner (a seat
// of this page knocked out, the end), and a computer's move that failed on the server.
import { h, keepFocus } from "./dom.js";
import { fmt, t } from "./i18n.js";
import { resultText, turnOfPly } from "./outcome.js";
import { listPlace, movedAt, moveRows, roundOfPly } from "./match-moves.js";

// Returns {watching, status, banner}: the nodes to lay out, in that order.
export function statusLines(ctx) {
  const status = h("div", { class: "status", id: "status", "aria-live": "polite" });
  const banner = h("div", { class: "result", id: "result", hidden: true });
  const watching = h("p", { class: "watching", id: "watching", hidden: !ctx.seats.spectator },
    t("match.watching"));
  ctx.on("draw", (frame) => {
    const { over, live, out } = frame;
    status.textContent = live ? liveWords(ctx, frame) : replayWords(ctx.view, frame.shownPly);
    // a spectator of a finished game waits for no move: the note says where the moves are
    watching.textContent = over ? t("match.watching_over") : t("match.watching");
    watching.hidden = !ctx.seats.spectator; // a seat's session that ended leaves the page watching
    status.classList.toggle("thinking", !!ctx.view.thinking && live && !ctx.connLost);
    status.classList.toggle("lost", ctx.connLost && !over);
    // a person knocked out of a 3-4 player game is told (frame.out: why)
    const { myPeople, seatName, own, you } = ctx.seats;
    banner.hidden = !over && !myPeople.some((i) => out.has(i));
    banner.classList.toggle("out", !over && !banner.hidden);
    banner.textContent = over ? resultText(ctx.view, seatName, own)
      : myPeople.filter((i) => out.has(i)).map((i) => (seatName(i) === you ? t("out.you", { why: out.get(i) }) : t("out.seat", { who: seatName(i), why: out.get(i) }))).join(" ");
  });
  return { watching, status, banner };
}

// The status line on the live position: the end, the connection, whose move it is.
function liveWords(ctx, { over, stuck, waiting, myTurn }) {
  const view = ctx.view, { seatName, compTag, seatsWord, distance, myPeople, you } = ctx.seats;
  if (over) return t("status.over");
  if (ctx.connLost) return t("status.lost");
  if (view.thinking) return t("status.thinking", { who: `${seatName(view.to_move)}${compTag()}` });
  if (stuck) return t("status.stuck", { who: `${seatName(view.to_move)}${compTag()}` });
  if (waiting.length) return t("status.waiting_seat", { who: seatsWord(waiting) });
  if (view.to_move !== null && myTurn && (distance || myPeople.length === 1)) return seatName(view.to_move) === you ? t("status.your_move") : t("status.your_move_as", { who: seatName(view.to_move) });
  if (view.to_move !== null) return seatName(view.to_move) === you ? t("status.your_move") : t("status.to_move", { who: seatName(view.to_move) + (view.human_to_move ? "" : compTag()) });
  return "";
}

// The status line of a replay at `ply`: turns numbered as the move list numbers them, so that
// "turn 21" is the list's "21." (two players: "round 11" is the list's row "11."), never the
// actions (a capture chain is one turn of several); a step inside a turn of several actions says
// which of them it shows
function replayWords(view, ply) {
  const { turn, turns } = turnOfPly(view.turn_numbers, ply);
  const move = movedAt(view, ply);
  const rows = view.num_players === 2 ? moveRows(view.move_list, 2) : null;
  const { round, rounds } = rows ? roundOfPly(rows, ply) : { round: 0, rounds: 0 };
  if (ply === 0) {
    return rounds ? t("status.replay_start_round", { rounds }) : turns ? t("status.replay_start", { turns })
      : t("status.replay_start_unnumbered");
  }
  const words = !turn ? t("status.replay_before_turns", { move })
    : round ? t("status.replay_round", { round, rounds, move }) : t("status.replay", { turn, turns, move });
  const { step, steps } = listPlace(view, ply);
  return step < steps ? t("status.replay_step", { words, step, steps }) : words;
}

// A computer that could not move (view.bot_error, README "Computer players"), or whose move a
// quick search played: said as a refused move is, in the reader's language where the server
// sent it as a message too. While it cannot move, what this page can do about it: an undo
// (between people, a takeback) starts its search again once the person plays on; with no move
// of this page's to take back, a new game. Returns the box, to lay out under the status line.
export function botErrorBox(ctx) {
  const botError = h("div", { class: "bot-error", id: "bot-error", role: "status", hidden: true });
  let botErrorKey = null;
  ctx.on("draw", ({ stuck, humansOut, hide }) => {
    const view = ctx.view, { spectator, myPeople, distance } = ctx.seats;
    const said = view.bot_error;
    let next = null;
    if (said && stuck && !spectator) {
      const played = (view.movers || []).some((seat) => myPeople.includes(seat));
      next = !played || humansOut ? "new_game" : distance ? "takeback" : "undo";
    }
    const key = JSON.stringify([said, view.bot_error_i18n, next, !!view.takeback, hide]);
    if (key === botErrorKey) return;
    botErrorKey = key;
    const focus = keepFocus(botError);
    botError.replaceChildren();
    botError.hidden = !said;
    botError.classList.toggle("moved", !!said && !stuck); // it did move: a note, not a stop
    if (!said) return;
    // the catalogue's words for a player in every language; the server's own English (which
    // seat spec, which exception) stays in the API and in the text's tooltip
    botError.append(h("p", { class: stuck ? "error" : null, id: "bot-error-text", title: said },
      fmt(view.bot_error_i18n, said)));
    if (next === "undo") {
      botError.append(h("p", { id: "bot-error-next" }, t("bot_error.undo"), " ",
        h("button", { type: "button", id: "bot-error-undo", onclick: () => ctx.post("undo"), disabled: hide }, t("match.undo"))));
    } else if (next === "takeback") {
      botError.append(h("p", { id: "bot-error-next" }, t("bot_error.takeback"), " ",
        h("button", { type: "button", id: "bot-error-takeback", onclick: () => ctx.post("takeback"), disabled: hide || !!view.takeback,
          title: view.takeback ? t("takeback.pending") : null }, t("takeback.ask"))));
    } else if (next === "new_game") {
      botError.append(h("p", { id: "bot-error-next" }, t("bot_error.new_game"), " ",
        h("a", { class: "button", href: `#/new/${view.game}`, id: "bot-error-new" }, t("home.new_game"))));
    }
    focus();
  });
  ctx.screen(botError);
  return botError;
}
