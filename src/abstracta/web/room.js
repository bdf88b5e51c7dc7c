// A match's room (issue 43): one WebSocket per match page bringing its chat lines and how many
// watch it (the server's /api/matches/<id>/room). The chat (chat.js) and the watcher count
// (live.js) listen to it; it reopens by itself after a lost connection (and after a player's
// session ended elsewhere, as the browser is then; without the browser's tokens of the match
// after the server refused them for good), and asks again for everything then (the first frame of
// a socket is the whole room).
//
//   const room = openRoom(id, tokens);
//   room.on("room", (r) => …);      // {open, rooms, write, you, lines, watchers}: at each (re)connection
//   room.on("lines", (lines) => …); // new lines
//   room.on("watchers", (n) => …);
//   room.reopen();                  // who this page is changed (a guest signed in)
//   room.close();
import { SESSION_ENDED, sessionEnded } from "./people.js";

// The refusals of the tokens a socket gave (one too long, none of this match's, too many): the
// same tokens are refused again however often they are sent.
const TOKENS_REFUSED = new Set([4400, 4403, 4422]);

export function openRoom(id, tokens) {
  const listeners = { room: [], lines: [], watchers: [] };
  let socket = null;
  let stopped = false;
  let retry = null;
  let wait = 1000;
  // the browser's tokens of this match the server refused (JSON; see TOKENS_REFUSED): while it
  // holds just these, the room opens without them, as anyone's
  let refused = null;

  function emit(kind, value) { for (const fn of listeners[kind]) fn(value); }

  function open() {
    if (stopped || !("WebSocket" in window)) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    try {
      socket = new WebSocket(`${proto}://${location.host}/api/matches/${encodeURIComponent(id)}/room`);
    } catch { socket = null; return; }
    const mine = socket;
    const openedAt = performance.now(); // (see sessionEnded)
    let held = "[]", sent = []; // the browser's tokens when it opened (JSON), those it gave
    mine.onopen = () => {
      const given = tokens();
      held = JSON.stringify(given);
      sent = held === refused ? [] : given;
      mine.send(JSON.stringify({ tokens: sent }));
    };
    mine.onmessage = (ev) => {
      let frame;
      try { frame = JSON.parse(ev.data); } catch { return; }
      if (!frame || frame.error) return;
      wait = 1000;
      if (frame.type === "room") { emit("room", frame); emit("watchers", frame.watchers); }
      else if (frame.type === "lines") emit("lines", frame.lines);
      else if (frame.type === "watchers") emit("watchers", frame.watchers);
    };
    mine.onclose = (ev) => {
      if (socket === mine) socket = null;
      if (stopped) return;
      if (TOKENS_REFUSED.has(ev.code) && sent.length) { // opened again at once without them
        refused = held;
        clearTimeout(retry);
        retry = setTimeout(open, 0);
        return;
      }
      // refused for good (no such match: 4404; the tokens, none given; the first message): no retry
      if (ev.code === 4404 || TOKENS_REFUSED.has(ev.code) || ev.code === 1008) return;
      // a player's session ended (signed out elsewhere): said if nobody is signed in now; the
      // room reopened is the browser's as it is now
      if (ev.code === SESSION_ENDED) sessionEnded(openedAt);
      clearTimeout(retry);
      retry = setTimeout(open, wait);
      wait = Math.min(wait * 2, 30000);
    };
  }

  open();
  return {
    on(kind, fn) { listeners[kind].push(fn); },
    reopen() { const old = socket; socket = null; if (old) { old.onclose = null; old.close(); } clearTimeout(retry); open(); },
    close() { stopped = true; clearTimeout(retry); if (socket) socket.close(); },
  };
}
