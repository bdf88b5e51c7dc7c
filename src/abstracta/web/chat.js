// A match's chat (issue 43 §2): the players' chat, and the spectators' chat apart — a player sees
// the spectators' only after opening it. Lines come through the match's room (room.js) and are
// only ever inserted as text. A new line is announced politely (the lists are logs), never
// taking the focus; the box to write in keeps it after a line is sent. Each reader may mute a
// player or a spectator (kept in this browser) and report a line to the server's operator.
// On a phone the chat lies under the board, the moves and the buttons: while it is out of sight a
// "Chat" marker at the top of the page says so, with a count of the lines come meanwhile that
// this reader can read (not its own), and takes the reader to the box to write in.
import { api } from "./api.js";
import { h } from "./dom.js";
import { refusal, t } from "./i18n.js";
import { personLink } from "./names.js";
import { becomeGuest } from "./people.js";

const LIMIT = 140; // characters (code points), as the server counts them
const MUTED_KEY = "abstracta.chat.muted";
const SHOW_KEY = "abstracta.chat.spectators"; // a player chose to see the spectators' chat

function stored(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; }
}
function store(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: this page only */ }
}

// The chat panel of match `id`: `room` its room (room.js), `seatName(i)` the page's names of
// seats, `toBoard()` brings the board back into sight. The panel is hidden in a game without
// chat (against the computer, on one device). Returns {node, marker, stop}: the panel, the marker
// to lay out near the top of the page, and what ends its observers with the page.
export function chatPanel({ id, room, seatName, toBoard }) {
  let state = null; // the room's first frame: {open, rooms, write, you, lines}
  const seen = new Set(); // line ids drawn
  const lines = []; // every line received, to draw again after a mute
  // a seat's lines are muted in this game; a spectator's (a person) in every game
  const muteKey = (line) => (line.author.startsWith("p") ? line.author : `${id}:${line.author}`);
  let muted = new Map(stored(MUTED_KEY, [])); // key -> name
  // a deleted account's lines have no name (name_key: "deleted player")
  const nameOf = (line) => (line.person ? line.name || t(line.name_key || "seat.deleted_player") : seatName(line.seat));

  const title = h("h2", { id: "chat-title" }, t("chat.title"));
  // the way back up from the chat, where the chat lies under the board (style.css: a phone)
  const back = h("button", { type: "button", class: "linkish", id: "chat-to-board", "aria-label": t("chat.to_board_label"),
    onclick: () => toBoard() }, t("chat.to_board"));
  const players = h("ol", { class: "chat-lines", id: "chat-players", role: "log", "aria-label": t("chat.players") });
  const spectators = h("ol", { class: "chat-lines", id: "chat-spectators", role: "log", "aria-label": t("chat.spectators") });
  const spectatorsCount = h("span", { class: "muted", id: "chat-spectators-count" });
  // a player's view of the spectators' chat: closed unless chosen (and remembered)
  const spectatorsBox = h("details", { id: "chat-spectators-box", open: stored(SHOW_KEY, false) },
    h("summary", {}, t("chat.show_spectators"), " ", spectatorsCount), spectators);
  spectatorsBox.addEventListener("toggle", () => store(SHOW_KEY, spectatorsBox.open));
  const input = h("input", { id: "chat-input", autocomplete: "off", enterkeyhint: "send", "aria-describedby": "chat-count" });
  const count = h("span", { class: "muted chat-count", id: "chat-count" });
  const send = h("button", { type: "submit", id: "chat-send" }, t("chat.send"));
  const error = h("p", { class: "error", id: "chat-error", role: "alert", hidden: true });
  const form = h("form", { class: "chat-form", id: "chat-form" }, h("label", { for: "chat-input", class: "sr-only", id: "chat-input-label" }), input, count, send);
  const signIn = h("p", { id: "chat-signin", hidden: true }, t("chat.sign_in"), " ",
    h("button", { type: "button", id: "chat-guest", onclick: asGuest }, t("people.play_as_guest")), " ",
    h("a", { href: "#/signin" }, t("people.sign_in")));
  const mutedLine = h("p", { class: "muted", id: "chat-muted", hidden: true });
  // said once when lines start to wait unread (the logs say each line as it comes)
  const unreadNote = h("span", { class: "sr-only", role: "status", id: "chat-unread-note" });
  const node = h("section", { class: "chat", id: "chat", "aria-labelledby": "chat-title", hidden: true },
    h("div", { class: "chat-head" }, title, back), players, form, error, signIn, spectatorsBox, mutedLine, unreadNote);

  const away = chatMarker(node, { form, signIn, input, unreadNote });
  // lines come while the chat is out of sight: those this reader can read, from someone else
  function arrived(fresh) {
    // writing in the box: the lines are read as they come
    if (away.inSight() || !state || document.activeElement === input) return;
    const plays = state.rooms.includes("players");
    away.came(fresh.filter((line) => !state.you.includes(line.author) && !muted.has(muteKey(line))
      && (line.room === "players" ? plays : !plays || spectatorsBox.open)).length);
  }

  function counted() {
    const n = [...input.value.trim()].length;
    count.textContent = t("chat.count", { n, limit: LIMIT });
    count.classList.toggle("over", n > LIMIT);
    send.disabled = n === 0 || n > LIMIT;
  }
  input.addEventListener("input", counted);

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text || [...text].length > LIMIT) return;
    error.hidden = true;
    send.disabled = true;
    try {
      const line = await api(`/api/matches/${encodeURIComponent(id)}/chat`, { method: "POST", body: { text } });
      input.value = "";
      add([line]);
      // the line drawn above it pushed the box down: on a phone, out of the screen's foot
      input.scrollIntoView({ block: "nearest" });
    } catch (e) {
      error.textContent = refusal(e);
      error.hidden = false;
    } finally { counted(); }
  });

  async function asGuest() {
    try {
      await becomeGuest();
      room.reopen(); // the room asks again who this page is
    } catch (e) { error.textContent = refusal(e); error.hidden = false; }
  }

  function lineNode(line) {
    const mine = state && state.you.includes(line.author);
    const who = nameOf(line);
    const item = h("li", { "data-line": line.id, "data-author": line.author, class: mine ? "mine" : null },
      // an account's name leads to its profile (the server says which names are accounts' now)
      h("span", { class: "who" }, line.person && line.account ? personLink(line.name, "account") : who), ": ", h("span", { class: "text" }, line.text));
    if (!mine) {
      const report = h("button", { type: "button", class: "linkish", "aria-label": t("chat.report_label", { name: who }) }, t("chat.report"));
      report.addEventListener("click", async () => {
        try {
          await api(`/api/matches/${encodeURIComponent(id)}/chat/${line.id}/report`, { method: "POST" });
          report.replaceWith(h("span", { class: "muted", role: "status" }, t("chat.reported")));
        } catch (e) { error.textContent = refusal(e); error.hidden = false; }
      });
      item.append(" ", h("span", { class: "line-tools" },
        h("button", { type: "button", class: "linkish", "aria-label": t("chat.mute_label", { name: who }),
          onclick: () => mute(line, who) }, t("chat.mute")), " ", report));
    }
    return item;
  }

  function mute(line, who) {
    muted.set(muteKey(line), who);
    store(MUTED_KEY, [...muted]);
    redraw();
  }

  function drawMuted() {
    mutedLine.replaceChildren();
    mutedLine.hidden = muted.size === 0;
    if (!muted.size) return;
    mutedLine.append(t("chat.muted"), " ");
    for (const [key, who] of muted) {
      mutedLine.append(h("button", { type: "button", class: "linkish", "aria-label": t("chat.unmute_label", { name: who }),
        onclick: () => { muted.delete(key); store(MUTED_KEY, [...muted]); redraw(); } }, `${who} ×`), " ");
    }
  }

  // `lines` new to this page, in order; each goes to its room's list unless its author is muted
  function add(fresh) {
    for (const line of fresh) {
      if (seen.has(line.id)) continue;
      seen.add(line.id);
      lines.push(line);
      if (muted.has(muteKey(line))) continue;
      (line.room === "players" ? players : spectators).append(lineNode(line));
    }
    spectatorsCount.textContent = `(${lines.filter((l) => l.room === "spectators").length})`;
  }

  // everything again, without announcing it (a first frame, a mute): the logs are quiet meanwhile
  function redraw() {
    for (const list of [players, spectators]) { list.setAttribute("aria-live", "off"); list.replaceChildren(); }
    const all = lines.splice(0);
    seen.clear();
    add(all);
    drawMuted();
    setTimeout(() => { for (const list of [players, spectators]) list.removeAttribute("aria-live"); }, 0);
  }

  room.on("room", (r) => {
    state = r;
    node.hidden = !r.open;
    away.draw();
    if (!r.open) return;
    const plays = r.rooms.includes("players");
    players.hidden = !plays;
    // a player opens the spectators' chat if it chooses; a spectator has only that one
    spectatorsBox.open = plays ? spectatorsBox.open : true;
    spectatorsBox.querySelector("summary").hidden = !plays;
    spectatorsBox.classList.toggle("plain", !plays);
    // the box to write in under the room it writes to: the players' list for a player (the
    // spectators' chat below), the spectators' list for a spectator
    if (plays) form.parentNode.insertBefore(spectatorsBox, mutedLine);
    else form.parentNode.insertBefore(spectatorsBox, form);
    title.textContent = plays ? t("chat.title") : t("chat.spectators");
    form.hidden = !r.write;
    signIn.hidden = !!r.write;
    form.querySelector("#chat-input-label").textContent = r.write === "players" ? t("chat.write_players") : t("chat.write_spectators");
    input.placeholder = r.write === "players" ? t("chat.write_players") : t("chat.write_spectators");
    lines.splice(0, lines.length, ...r.lines);
    redraw();
    counted();
  });
  room.on("lines", (fresh) => {
    const unseen = fresh.filter((line) => !seen.has(line.id));
    add(fresh);
    arrived(unseen);
  });

  return { node, marker: away.marker, stop: away.stop };
}

// The marker of the chat `node` while it is out of sight (IntersectionObserver): "Chat" with the
// count of the lines come meanwhile (`came(n)`), which takes the reader to the box to write in
// (`form`, or `signIn` when this reader may not write yet) and clears at once, as the chat's
// coming into sight or the focus in it does; `unreadNote` says once that lines wait.
// Returns {marker, draw(), came(n), inSight(), stop()}.
function chatMarker(node, { form, signIn, input, unreadNote }) {
  let unread = 0;
  let inSight = true; // until the observer says otherwise: no marker flashes at first
  const badge = h("span", { class: "chat-badge", id: "chat-unread", hidden: true });
  const marker = h("button", { type: "button", class: "chat-marker away", id: "chat-jump", hidden: true, onclick: jump },
    t("chat.title"), badge);
  // the room the heading keeps for the marker (style.css): its words' width, in this language
  const sized = new ResizeObserver(() => {
    if (marker.parentNode && marker.offsetWidth) marker.parentNode.style.setProperty("--chat-marker-width", `${marker.offsetWidth}px`);
  });
  sized.observe(marker);
  function draw() {
    marker.hidden = node.hidden;
    // kept in its place while the chat is in sight (visibility): the board under it stays put
    marker.classList.toggle("away", inSight);
    badge.hidden = unread === 0;
    badge.textContent = unread ? String(unread) : "";
    marker.setAttribute("aria-label", unread ? t("chat.jump_unread", { n: unread }) : t("chat.jump"));
  }
  function read() {
    unread = 0;
    unreadNote.textContent = "";
    draw();
  }
  // the box to write in (or the way to sign in) in the middle of the screen, the lines above it
  function jump() {
    const target = form.hidden ? signIn : form;
    target.scrollIntoView({ block: "center" });
    (form.hidden ? signIn.querySelector("button") : input).focus({ preventScroll: true });
    read();
  }
  // in sight: half of the chat, or half of the screen filled by it, above the floating steps
  const seeing = new IntersectionObserver(([entry]) => {
    const shown = entry.intersectionRect.height;
    inSight = entry.isIntersecting && (entry.intersectionRatio >= 0.5 || shown >= entry.rootBounds.height / 2);
    if (inSight) read();
    else draw();
  }, { rootMargin: "0px 0px -64px 0px", threshold: [0, 0.25, 0.5, 0.75, 1] });
  seeing.observe(node);
  node.addEventListener("focusin", read); // opened by the keyboard or a tap in it
  function came(n) {
    if (!n) return;
    if (!unread) unreadNote.textContent = t("chat.unread_note", { n });
    unread += n;
    draw();
  }
  return { marker, draw, came, inSight: () => inSight, stop: () => { seeing.disconnect(); sized.disconnect(); } };
}
