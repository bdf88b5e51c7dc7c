// The match page's live connection: a WebSocket that pushes every new state of the match when it
// works, polling otherwise (and while the socket is down, which notices the server coming back),
// the socket reopened after it closed (as the browser is then, after the person's session ended
// elsewhere too; waiting longer after each close in a row), and at once when the page learns the
// browser holds other seats than the socket does (rejoinIfStale). Refusals that would come again
// are not asked again: the match gone (4404) ends the page (ctx "gone"); tokens the server will
// never take (4400, 4403, 4422) are left out of the next socket, a spectator's; a first message
// refused (1008) leaves the page to its polling. A move of this page's goes over the socket while
// it is open and holds a seat (ctx.socketMove; docs: api/guide.md "Moves over the socket"), else
// as POST …/actions.
import { TOKENS_KEY, tokensOf } from "./api.js";
import { SESSION_ENDED, sessionEnded } from "./people.js";

// Seconds a move waits for its answer on the socket before the page calls the connection lost.
const MOVE_SECONDS = 20;
// Seconds an acknowledged move waits for the push of its view (which the ack may come before) so
// that the page draws the new position, not the old one again for a moment.
const PUSH_SECONDS = 2;
// The wait before the socket opens again after a close, doubled at each close in a row up to the
// longest (a server down for a while is not asked twice a second by every page; the polling,
// while a game is in play, keeps the page up to date meanwhile), in ms.
const REOPEN_FIRST = 2000, REOPEN_LONGEST = 30000;
// The server's refusals of the tokens a socket gave (one too long, none of this match's, too
// many: api/guide.md "Live updates"): the same tokens are refused again however often they are sent.
const TOKENS_REFUSED = new Set([4400, 4403, 4422]);
const GONE = 4404; // no such match (deleted while the page showed it)
const FIRST_REFUSED = 1008; // the first message refused, or not there within 10 s

// Returns {start()}: opens the socket and starts polling where it must.
export function liveConnection(ctx) {
  const { id } = ctx;
  const root = document.getElementById("app"); // its data-live is read by the browser tests
  let socket = null;
  let timer = null;
  let reopenTimer = null;
  let reopenWait = REOPEN_FIRST;
  // the browser's tokens of this match the server refused (JSON; see TOKENS_REFUSED): while the
  // browser holds just these, the socket opens without them, as GET shows the game: a spectator's
  let refusedTokens = null;
  // the moves sent on the socket waiting for their answer: id -> {resolve, reject, timer}
  const pending = new Map();
  let nextId = 1;
  let openedWith = null; // the browser's tokens when the socket opened (JSON; those it sent unless refused)
  let viewPly = -1; // the ply of the socket's last view
  let socketSeats = null; // the seats of the socket's last view (JSON; null: none yet)
  // its last view holds a seat: its moves are not a spectator's
  const seated = () => socketSeats !== null && socketSeats !== "[]";
  let rejoined = null; // what the last rejoin found stale (see rejoinIfStale)
  let rejoinLater = false; // a rejoin waits for the moves sent on the socket to be answered

  // no answer (the socket closed, or it stayed silent): as a request the network lost, no status
  function lost() { return new Error("connection lost"); }

  function settle(moveId, frame, error) {
    const waiting = pending.get(moveId);
    if (!waiting) return;
    pending.delete(moveId);
    clearTimeout(waiting.timer);
    if (error) waiting.reject(error);
    else waiting.resolve(frame);
    if (rejoinLater && !pending.size) { rejoinLater = false; setTimeout(rejoinIfStale, 0); }
  }

  // The socket's seats are the browser's when it opened (its cookie, its tokens): the server
  // keeps them. The browser's may change under it: the person signed in again in another tab
  // after their session ended here, a guest claimed a seat in another tab (its token is this
  // page's too). Then the page's HTTP views (a spectator's look at a fallen flag, a replay's
  // page, a refresh after a refusal) and the socket's pushes disagree, and the page flipped
  // between seated and watching at each. So when the page's seats change (ctx "reseated") to
  // others than the socket's, or its tokens are not those the socket was opened with, the
  // socket opens again at once (and the room's: "rejoin"), as the browser is now: both agree
  // then. A rejoin that found the same disagreement once is not tried again, nor is one for
  // seats the socket's own view brought, so rejoining cannot loop; a socket closed by itself
  // (reopened a while later) starts afresh.
  function rejoinIfStale() {
    if (ctx.stopped || !socket || socket.readyState !== 1 || socketSeats === null) return; // opening: it is the browser's now
    const wanted = JSON.stringify(ctx.seats.mySeats);
    const tokens = JSON.stringify(tokensOf(id));
    if (socketSeats === wanted && tokens === openedWith) return;
    const stale = `${openedWith}|${socketSeats}|${tokens}|${wanted}`;
    if (stale === rejoined) return; // rejoined for just this: the server says so
    if (pending.size) { rejoinLater = true; return; } // after the moves' answers
    rejoined = stale;
    const old = socket;
    socket = null;
    socketSeats = null;
    old.onclose = null;
    old.onmessage = null;
    old.close();
    clearTimeout(reopenTimer);
    ctx.emit("rejoin");
    openSocket();
  }

  // A move over the socket: a promise of its ack ({ack, ply}; a refusal rejects as api() does,
  // with the POST's status and body), or null when the socket cannot carry it (not open, its
  // view holds no seat, or this page holds other tokens now than it was opened with): then the
  // page POSTs it.
  function socketMove(body) {
    if (!socket || socket.readyState !== 1 || !seated() || JSON.stringify(tokensOf(id)) !== openedWith) return null;
    const moveId = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(moveId, { resolve, reject, timer: setTimeout(() => settle(moveId, null, lost()), MOVE_SECONDS * 1000) });
      try { socket.send(JSON.stringify({ move: body, id: moveId })); } catch { settle(moveId, null, lost()); }
    });
  }
  ctx.socketMove = socketMove;

  function openSocket() {
    if (!("WebSocket" in window)) return;
    try {
      const proto = location.protocol === "https:" ? "wss" : "ws";
      socket = new WebSocket(`${proto}://${location.host}/api/matches/${id}/ws`);
    } catch { socket = null; return; }
    const openedAt = performance.now(); // (see sessionEnded)
    let sent = []; // the tokens its first message gave
    socket.onopen = () => {
      // the first message authenticates, and asks for who is connected (match-presence.js)
      const tokens = tokensOf(id);
      openedWith = JSON.stringify(tokens);
      sent = openedWith === refusedTokens ? [] : tokens;
      socketSeats = null;
      viewPly = -1;
      socket.send(JSON.stringify({ tokens: sent, presence: true }));
      root.dataset.live = "socket";
    };
    socket.onmessage = (ev) => {
      let fresh;
      try { fresh = JSON.parse(ev.data); } catch { return; }
      if (!fresh) return;
      if (typeof fresh.ack === "number") { // a move played: done once its view is here too
        ctx.connected(true);
        const waiting = pending.get(fresh.ack);
        if (!waiting) return;
        if (viewPly >= fresh.ply) { settle(fresh.ack, fresh); return; }
        waiting.acked = fresh;
        clearTimeout(waiting.timer);
        waiting.timer = setTimeout(() => settle(fresh.ack, fresh), PUSH_SECONDS * 1000);
        return;
      }
      if (fresh.error && typeof fresh.id === "number") { // a move refused: as api() throws it
        const err = new Error(fresh.error);
        err.status = fresh.status;
        err.data = fresh;
        settle(fresh.id, null, err);
        return;
      }
      if (fresh.presence) { ctx.emit("presence", fresh.presence); return; } // who is connected
      if (!fresh.error) {
        socketSeats = Array.isArray(fresh.my_seats) ? JSON.stringify(fresh.my_seats) : null;
        reopenWait = REOPEN_FIRST; // it worked: a close now is news, not one of a row
        ctx.connected(true);
        ctx.accept(fresh);
        if (typeof fresh.ply === "number") viewPly = fresh.ply;
        for (const [moveId, waiting] of [...pending]) if (waiting.acked && viewPly >= waiting.acked.ply) settle(moveId, waiting.acked);
      }
    };
    socket.onclose = (ev) => {
      socket = null;
      socketSeats = null;
      rejoined = null;
      for (const moveId of [...pending.keys()]) settle(moveId, null, lost());
      root.dataset.live = "polling";
      if (ctx.stopped) return;
      // the match is no more: nothing to poll or reopen, the page says so (match.js)
      if (ev.code === GONE) { ctx.emit("gone"); return; }
      schedule(); // poll meanwhile (it notices the server coming back), and reopen the socket
      // the same first message would be refused again: the polling alone keeps the page up to date
      if (ev.code === FIRST_REFUSED) return;
      let wait = reopenWait;
      if (TOKENS_REFUSED.has(ev.code)) {
        if (!sent.length) return; // not the tokens then: nothing left out would help
        refusedTokens = openedWith; // left out from now on, until the browser holds others
        wait = 0;
      } else reopenWait = Math.min(reopenWait * 2, REOPEN_LONGEST);
      // the person's session ended: the page says so if nobody is signed in now; the socket
      // reopened shows the game as this browser may see it now (its seat tokens, no session's)
      if (ev.code === SESSION_ENDED) sessionEnded(openedAt);
      clearTimeout(reopenTimer);
      reopenTimer = setTimeout(() => { if (!ctx.stopped && !socket) openSocket(); }, wait);
    };
  }

  function schedule() {
    clearTimeout(timer);
    if (ctx.stopped || ctx.view.status !== "playing") return;
    if (socket && socket.readyState <= 1) return; // connecting or open: the socket pushes changes
    const busy = (ctx.view.thinking || !ctx.view.human_to_move) && !ctx.connLost;
    timer = setTimeout(async () => { await ctx.refresh(); schedule(); }, busy ? 400 : 1500);
  }

  ctx.on("settled", schedule);
  ctx.on("reseated", rejoinIfStale);
  // another tab claimed or dropped a seat of this match (its tokens are this page's too)
  const tokensChanged = (ev) => { if (ev.key === TOKENS_KEY || ev.key === null) rejoinIfStale(); };
  window.addEventListener("storage", tokensChanged);
  ctx.on("stop", () => {
    clearTimeout(timer);
    clearTimeout(reopenTimer);
    window.removeEventListener("storage", tokensChanged);
    if (socket) socket.close();
  });
  return { start() { openSocket(); schedule(); } };
}
