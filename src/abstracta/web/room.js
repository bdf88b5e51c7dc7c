// A match's room (issue 43): one WebSocket per match page bringing its chat lines and how many
// watch it (the server's /api/matches/<id>/room). The chat (chat.js) and the watcher count
// (live.js) listen to it; it reopens by itself after a lost connection (and after a player's
// session ended elsewhere, as the browser is then), and asks again for everything then (the
// first frame of a socket is the whole room).
//
//   const room = openRoom(id, tokens);
//   room.on("room", (r) => …);      // {open, rooms, write, you, lines, watchers}: at each (re)connection
//   room.on("lines", (lines) => …); // new lines
//   room.on("watchers", (n) => …);
//   room.reopen();                  // who this page is changed (a guest signed in)
//   room.close();
import { SESSION_ENDED, sessionEnded } from "./people.js";

export function openRoom(id, tokens) {
  const listeners = { room: [], lines: [], watchers: [] };
  let socket = null;
  let stopped = false;
  let retry = null;
  let wait = 1000;

  function emit(kind, value) { for (const fn of listeners[kind]) fn(value); }

  function open() {
    if (stopped || !("WebSocket" in window)) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    try {
      socket = new WebSocket(`${proto}://${location.host}/api/matches/${encodeURIComponent(id)}/room`);
    } catch { socket = null; return; }
    const mine = socket;
    const openedAt = performance.now(); // (see sessionEnded)
    mine.onopen = () => mine.send(JSON.stringify({ tokens: tokens() }));
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
      // refused for good (no such match: 4404; a token of another match: 4403): no retry
      if (stopped || ev.code === 4404 || ev.code === 4403 || ev.code === 1008) return;
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
