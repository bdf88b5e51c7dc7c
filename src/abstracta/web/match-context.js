// The match page's shared context: what its concerns (match-*.js, composed by match.js) know of
// each other. It holds the view on screen, takes every state the server sends (accept), draws the
// page (draw: an event every concern draws its part on), and acts: a move (send), a request
// (post), a fresh look (refresh). See docs/architecture.md "The browser".
//
// Events (ctx.on(name, fn), in the order the concerns subscribed):
//   "fresh" (fresh)   a state at or past the revision on screen arrived (the clocks sync to it)
//   "draw" (frame)    draw your part of the page for `frame` (see frameOf)
//   "drawn" (frame)   everything is drawn: measure the layout (the board's fit)
//   "step"            the replay's step waits for its page: redraw the stepper alone
//   "played"          a move of this page's was taken (the typed move is cleared)
//   "settled"         a request of this page's was answered (the polling goes on)
//   "presence" (p)    who is connected, from the match's socket (match-presence.js)
//   "reseated"        the seats this page holds changed (ctx.seats is new; match-live.js checks
//                     its socket still holds the same)
//   "rejoin"          the page's sockets were opened as the browser was, not as it is now: they
//                     open again (the match's: match-live.js; the room's: match-company.js)
//   "gone"            the match is no more (deleted while shown: its socket's 4404, a 404 to a
//                     look at it): match.js says so in the page's stead
//   "stop"            the page is left: timers, sockets and listeners go
import { api } from "./api.js";
import { h } from "./dom.js";
import { fmt, t } from "./i18n.js";
import { showError } from "./shell.js";
import { replayOf } from "./match-replay.js";
import { seatsOf } from "./match-seats.js";

// `view`: the match as GET /api/matches/{id} answers; `mod`: the game's board module (or null);
// `was`: what the router kept of this page over a language switch (keepPage in match.js)
export function matchContext({ id, view, mod, was }) {
  const listeners = new Map();
  const kept = was && was.id === id ? was : null;
  let sending = false, connLost = false; // connLost: the server did not answer ("connection lost, retrying…")
  const ctx = {
    id, mod, view, kept,
    // a language switch keeps the ply on screen: its pages are still good for the same position
    // and eyes (else the replay steps there again once the first drawing is done)
    same: !!kept && kept.revision === view.revision && kept.viewer === view.viewer,
    // hand-over screen: seat whose private view is on screen (a language switch keeps the
    // confirmation: the same person still holds the device)
    shownSeat: kept ? kept.shownSeat : null,
    stopped: false,
    frame: null, // the frame drawn last
    get sending() { return sending; },
    get connLost() { return connLost; },
    // refusals and failures of this page's actions, under the board
    errorLine: h("p", { class: "error", id: "error", hidden: true }),
    // what the hand-over screen stands in front of (see match-seats.js)
    screened: [],
    screen(...nodes) { ctx.screened.push(...nodes); },
    on(name, fn) {
      if (!listeners.has(name)) listeners.set(name, []);
      listeners.get(name).push(fn);
    },
    emit(name, ...args) { for (const fn of listeners.get(name) || []) fn(...args); },
    showError(e) { showError(ctx.errorLine, e); },
    // the hand-over screen for two people sharing a device in a hidden-information game: up until
    // the person whose eyes the view has says they hold the device
    needsHandover: () => ctx.seats.hotSeatHidden && ctx.view.private_views && ctx.view.status !== "over" &&
      ctx.view.viewer !== null && ctx.view.viewer !== ctx.shownSeat,
    accept, draw, refresh, send, post, fail, connected,
    // a move over the match's open socket (match-live.js sets it): a promise of its ack, or null
    // when the socket cannot carry it
    socketMove: () => null,
  };
  ctx.seats = seatsOf(() => ctx.view);
  if (ctx.same) {
    // the struct drawn before, not its copy just fetched: a board module keeps what was picked
    // (a card, a piece) for the struct it belongs to (docs/board-modules.md), and a fresh copy
    // read as a new position and dropped the pick
    ctx.view.struct = kept.struct;
  }
  ctx.replay = replayOf(ctx);
  ctx.on("stop", () => { ctx.stopped = true; });

  // Every state the page receives (answers to moves, undo and resign, WebSocket pushes, polls)
  // comes through here: anything older than the revision on screen is ignored, since a live
  // push of the computer's reply can overtake the HTTP answer to the person's own move.
  function accept(fresh) {
    const view = ctx.view;
    if (!fresh || typeof fresh.revision !== "number") return false;
    if (fresh.revision >= view.revision) ctx.emit("fresh", fresh);
    // other seats held here (a session ended elsewhere: the socket reopened holds none) are news
    // at the same revision too: the page is drawn again for whoever it is now
    const reseated = Array.isArray(fresh.my_seats) && JSON.stringify(fresh.my_seats) !== JSON.stringify(ctx.seats.mySeats);
    const newer = fresh.revision > view.revision ||
      (fresh.revision === view.revision && (fresh.thinking !== view.thinking || fresh.viewer !== view.viewer || reseated));
    if (!newer) return false;
    if (fresh.revision > view.revision) ctx.showError(null); // a new position: an old refusal is stale
    const eyes = view.viewer;
    // a new revision may show earlier plies otherwise (a takeback, cards revealed at the end),
    // other eyes other hands; a computer starting or stopping to think (the same revision)
    // changes no ply: refetching then cost a spectator of two computers two pages a move
    if (fresh.revision !== view.revision || fresh.viewer !== eyes) ctx.replay.forget();
    ctx.view = fresh;
    if (reseated) {
      ctx.seats = seatsOf(() => ctx.view);
      ctx.emit("reseated");
    }
    if (ctx.replay.follow(eyes)) return true; // the replay steps on (drawn when its page is here)
    if (!sending) draw();
    return true;
  }

  // network failures (fetch rejects without a status) show as "connection lost" until the next
  // successful request, which clears them
  function connected(ok) {
    if (connLost === !ok) return;
    connLost = !ok;
    if (!sending) draw();
  }
  // a lost connection is said once, in the status line; other errors under the board until the
  // next action or the next position
  function fail(e) {
    if (!e || e.status === undefined) { connected(false); return; }
    ctx.showError(e);
  }

  async function refresh() {
    try {
      const fresh = await api(`/api/matches/${id}`);
      connected(true);
      accept(fresh);
    } catch (e) {
      if (e.status === 404 && !ctx.stopped) ctx.emit("gone");
      else fail(e);
    }
  }

  // one action string, or a list the seat plays in a row within its turn (applied all or none);
  // typed text at the start of a turn of a game with a whole-turn notation (the server lists
  // view.turns then) goes as a whole turn, which the server reads as the terminal does: "a1"
  // takes a1 and ends the turn, where the engine action "a1" could leave it open
  async function send(text, typed = false) {
    if (sending) return;
    sending = true;
    ctx.showError(null);
    const view = ctx.view;
    const body = Array.isArray(text) ? { actions: text, ply: view.ply }
      : typed && view.turns ? { turn: text, ply: view.ply } : { action: text, ply: view.ply };
    const before = view.revision;
    try {
      // over the socket when it is open: its answer is an ack, the new view comes as its push
      // (to this page as to every other), so the server builds it once
      const acked = ctx.socketMove(body);
      if (acked) await acked; // settled once the push of the new view is accepted too
      else {
        const mine = await api(`/api/matches/${id}/actions`, { method: "POST", body });
        if (ctx.view.revision > before && mine.revision > before && mine.revision < ctx.view.revision) {
          // the computer's reply came (live update) before the answer to my move: show my move
          // first, so the board animates mine and then the reply, not both as one turn
          const reply = ctx.view;
          ctx.view = mine;
          draw();
          ctx.view = reply;
        } else accept(mine);
      }
      ctx.replay.showLive();
      ctx.emit("played");
      connected(true);
    } catch (e) {
      fail(e);
      // a stale move: the position it missed; no such match: a look says whether it is gone
      if (e.status === 409 || e.status === 404) await refresh();
    } finally {
      sending = false;
      draw();
      ctx.emit("settled");
    }
  }

  // a request of this page's (undo, resign, a takeback or a draw offer and their answers)
  async function post(path, body) {
    ctx.showError(null);
    try {
      accept(await api(`/api/matches/${id}/${path}`, { method: "POST", body }));
      ctx.replay.showLive();
      connected(true);
      draw();
      ctx.emit("settled");
    } catch (e) { fail(e); }
  }

  function draw() {
    window.abstractaView = ctx.view; // read by the browser tests
    ctx.frame = frameOf(ctx);
    ctx.emit("draw", ctx.frame);
    ctx.emit("drawn", ctx.frame);
  }
  return ctx;
}

// What a drawing of the page shows, worked out once for every concern:
// {over, hide (the hand-over screen is up), live, shownPly, waiting (seats not yet taken), myTurn,
//  stuck (a computer that cannot move), out (seat -> why it is out, in words), humansOut, interactive
//  (this page may move on the board now), position (text), struct}.
function frameOf(ctx) {
  const view = ctx.view, { mySeats, myPeople } = ctx.seats;
  const over = view.status === "over";
  const hide = ctx.needsHandover();
  const { live, shownPly, position, struct } = ctx.replay.shown(hide);
  // no move is played before every seat is taken (the server refuses it): none offered either
  const waiting = view.waiting_for || [];
  const myTurn = view.human_to_move && mySeats.includes(view.to_move) && !waiting.length;
  // a computer seat to move that does not think: its search or its move failed (bot_error)
  const stuck = !over && !!view.bot_error && view.to_move !== null && !view.human_to_move && !view.thinking;
  // a person knocked out of a 3-4 player game is told, and loses the controls of a player
  const out = new Map(((view.struct || {}).eliminated || []).map((e) => [e.seat, fmt(e.message, e.text)]));
  for (const i of (view.clock && view.clock.out) || []) if (!out.has(i)) out.set(i, t("clock.out"));
  const humansOut = myPeople.length > 0 && myPeople.every((i) => out.has(i));
  const interactive = live && !over && myTurn && !view.thinking && !hide && !ctx.connLost;
  return { over, hide, live, shownPly, waiting, myTurn, stuck, out, humansOut, interactive, position, struct };
}
