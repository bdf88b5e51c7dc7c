// The match page's live connection: a WebSocket that pushes every new state of the match when it
// works, polling otherwise (and while the socket is down, which notices the server coming back),
// the socket reopened after it closed.
import { tokensOf } from "./api.js";

// Returns {start()}: opens the socket and starts polling where it must.
export function liveConnection(ctx) {
  const { id } = ctx;
  const root = document.getElementById("app"); // its data-live is read by the browser tests
  let socket = null;
  let timer = null;
  let reopenTimer = null;

  function openSocket() {
    if (!("WebSocket" in window)) return;
    try {
      const proto = location.protocol === "https:" ? "wss" : "ws";
      socket = new WebSocket(`${proto}://${location.host}/api/matches/${id}/ws`);
    } catch { socket = null; return; }
    socket.onopen = () => {
      // the first message authenticates, and asks for who is connected (match-presence.js)
      socket.send(JSON.stringify({ tokens: tokensOf(id), presence: true }));
      root.dataset.live = "socket";
    };
    socket.onmessage = (ev) => {
      let fresh;
      try { fresh = JSON.parse(ev.data); } catch { return; }
      if (fresh && fresh.presence) { ctx.emit("presence", fresh.presence); return; } // who is connected
      if (fresh && !fresh.error) { ctx.connected(true); ctx.accept(fresh); }
    };
    socket.onclose = () => {
      socket = null;
      root.dataset.live = "polling";
      if (ctx.stopped) return;
      schedule(); // poll meanwhile (it notices the server coming back), and reopen the socket
      clearTimeout(reopenTimer);
      reopenTimer = setTimeout(() => { if (!ctx.stopped && !socket) openSocket(); }, 2000);
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
  ctx.on("stop", () => {
    clearTimeout(timer);
    clearTimeout(reopenTimer);
    if (socket) socket.close();
  });
  return { start() { openSocket(); schedule(); } };
}
