// The abstracta browser client: home page, rules pages, new-game form and the game page.
// Plain ES modules, hash routing (#/, #/rules/<game>, #/new/<game>, #/match/<id>, #/matches).
import { api, forgetTokens, tokensOf } from "./api.js";

const app = document.getElementById("app");
let catalog = null;
let stopPage = () => {};

async function games() {
  if (!catalog) catalog = await api("/api/games");
  return catalog;
}

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// Names of seats in games without colours: "You", "Computer (level N)", or "Player N" when
// several people share the device.
export function defaultSeatName(i, players) {
  if (!players || !players[i]) return `Player ${i + 1}`;
  if (players[i].startsWith("level:")) return `Computer (level ${players[i].slice(6)})`;
  const humans = players.filter((p) => p === "human").length;
  return humans === 1 ? "You" : `Player ${i + 1}`;
}

// Seat names from the game's description (seats: [{name, colour, ink}]): the game's own name for
// a seat (White, Red) when it has one, else You / Computer / Player N.
function seatNamer(seats, players) {
  return (i) => (seats && seats[i] && seats[i].name ? seats[i].name : defaultSeatName(i, players));
}
const coloured = (seats) => !!(seats && seats.some((s) => s && s.name));

function resultLine(result, termination, name) {
  if (!result) return "";
  const wins = (n) => (n === "You" ? "You win" : `${n} wins`);
  const winners = result.map((v, i) => (v > 0 ? name(i) : null)).filter((x) => x !== null);
  const losers = result.map((v, i) => (v < 0 ? name(i) : null)).filter((x) => x !== null);
  if (termination === "resignation") {
    const loser = name(result.indexOf(-1));
    return `${loser} resigned` + (winners.length ? ` — ${winners.length === 1 ? wins(winners[0]) : winners.join(", ") + " win"}` : "");
  }
  if (winners.length) return winners.length === 1 ? wins(winners[0]) : `${winners.join(", ")} win`;
  // nobody won: a draw for all, or some seats lost and the others share the game (3–4 players)
  if (!losers.length) return "Draw";
  return losers.map((n) => (n === "You" ? "You lose" : `${n} loses`)).join(", ");
}

function showError(where, err) {
  where.textContent = err ? (err.message || String(err)) : "";
  where.hidden = !err;
}

// ------------------------------------------------------------------------------ routing
async function route() {
  stopPage();
  stopPage = () => {};
  const parts = (location.hash.replace(/^#\/?/, "") || "").split("/").map(decodeURIComponent);
  app.replaceChildren();
  try {
    if (parts[0] === "rules" && parts[1]) await rulesPage(parts[1]);
    else if (parts[0] === "new" && parts[1]) await newGamePage(parts[1]);
    else if (parts[0] === "match" && parts[1]) await matchPage(parts[1]);
    else if (parts[0] === "matches") await matchesPage();
    else await homePage();
  } catch (err) {
    app.replaceChildren(h("p", { class: "error" }, err.message || String(err)));
  }
  window.scrollTo(0, 0);
}
window.addEventListener("hashchange", route);
route();

// ------------------------------------------------------------------------------ home
async function homePage() {
  document.title = "abstracta";
  const list = await games();
  app.append(h("h1", {}, "Five abstract games"));
  app.append(h("p", { class: "lead" }, "Play against the computer (six levels) or against a friend on this device."));
  const grid = h("div", { class: "cards" });
  for (const g of list) {
    const blurb = g.summary;
    grid.append(h("section", { class: "card", "data-game": g.name },
      h("h2", {}, g.title),
      h("p", {}, blurb),
      h("p", { class: "links" },
        h("a", { href: `#/new/${g.name}`, class: "button primary" }, "New game"),
        " ",
        h("a", { href: `#/rules/${g.name}`, class: "button" }, "Rules"))));
  }
  const recent = h("section", { class: "recent", hidden: true });
  app.append(recent, grid);
  api("/api/matches?limit=8").then((rows) => {
    rows = rows.filter((r) => r.status === "playing").slice(0, 4);
    if (!rows.length) return;
    const titles = Object.fromEntries(list.map((g) => [g.name, g.title]));
    recent.append(h("h2", {}, "Continue a game"),
      h("ul", { class: "matches" }, ...rows.map((r) => h("li", {},
        h("a", { href: `#/match/${r.id}` }, titles[r.game] || r.game), ` — ${r.turns} move${r.turns === 1 ? "" : "s"}, ${new Date(r.updated).toLocaleString()}`))));
    recent.hidden = false;
  }).catch(() => { /* the list is a convenience */ });
  app.append(importBox());
}

function importBox() {
  const err = h("p", { class: "error", hidden: true });
  const area = h("textarea", { rows: 4, placeholder: "Paste a record (JSON) here, or choose a file", id: "import-text" });
  const file = h("input", { type: "file", accept: ".json,application/json", id: "import-file" });
  file.addEventListener("change", async () => { if (file.files[0]) area.value = await file.files[0].text(); });
  const go = async () => {
    showError(err, null);
    let record;
    try { record = JSON.parse(area.value); } catch (e) { showError(err, new Error("not valid JSON: " + e.message)); return; }
    try {
      const m = await api("/api/matches/import", { method: "POST", body: { record, take: "all" } });
      location.hash = `#/match/${m.id}`;
    } catch (e) { showError(err, e); }
  };
  return h("section", { class: "import" }, h("h2", {}, "Continue a recorded game"), area,
    h("div", { class: "row" }, file, h("button", { type: "button", onclick: go, id: "import-go" }, "Import")), err);
}

async function matchesPage() {
  document.title = "Your games — abstracta";
  const [rows, list] = await Promise.all([api("/api/matches"), games()]);
  const titles = Object.fromEntries(list.map((g) => [g.name, g.title]));
  app.append(h("h1", {}, "Your games"));
  const empty = h("p", { id: "no-games", hidden: rows.length > 0 }, "No games yet.");
  const err = h("p", { class: "error", hidden: true });
  app.append(empty, err);
  const table = h("table", { class: "matchlist", id: "match-list", hidden: !rows.length },
    h("thead", {}, h("tr", {}, ...["Game", "Players", "Options", "Result", "Moves", "Last played", ""].map((t) => h("th", {}, t)))));
  const body = h("tbody");
  table.append(body);
  for (const r of rows) {
    const name = seatNamer(r.seats, r.players);
    const named = coloured(r.seats);
    const who = r.players.map((p, i) => name(i) + (named ? ` (${p === "human" ? "person" : "computer " + p.slice(6)})` : "")).join(" vs ");
    const opts = optionWords(list.find((x) => x.name === r.game), r.options);
    const result = r.status === "over" ? resultLine(r.result, r.termination, name) || "finished" : "in play";
    const moves = r.turns === r.ply ? `${r.ply}` : `${r.turns} turns (${r.ply} actions)`;
    const row = h("tr", { "data-id": r.id },
      h("td", {}, h("a", { href: `#/match/${r.id}` }, titles[r.game] || r.game)),
      h("td", {}, who), h("td", { class: "muted" }, opts || "—"), h("td", {}, result), h("td", {}, moves),
      h("td", { class: "muted" }, new Date(r.updated).toLocaleString()),
      h("td", {}, h("button", { type: "button", class: "delete", title: "Delete this game", onclick: async () => {
        if (!confirm(`Delete this game of ${titles[r.game] || r.game}?`)) return;
        try {
          await api(`/api/matches/${r.id}`, { method: "DELETE" });
          forgetTokens(r.id);
          row.remove();
          if (!body.children.length) { table.hidden = true; empty.hidden = false; }
        } catch (e) { showError(err, e); }
      } }, "Delete")));
    body.append(row);
  }
  app.append(table);
}

// The options that differ from the game's defaults, in the game's words ("Board: Dimy (5×5)").
function optionWords(game, options) {
  if (!game) return "";
  const out = [];
  for (const o of game.options) {
    if (!options || options[o.name] === undefined || options[o.name] === null) continue;
    const v = Array.isArray(options[o.name]) ? options[o.name].join(",") : String(options[o.name]);
    if (v === o.default) continue;
    out.push(`${o.label || o.name}: ${(o.choice_labels || {})[v] || (o.kind === "bool" ? (v === "true" ? "yes" : "no") : v)}`);
  }
  return out.join(", ");
}

// ------------------------------------------------------------------------------ rules
async function rulesPage(name) {
  const list = await games();
  const g = list.find((x) => x.name === name);
  if (!g) {
    document.title = "No such game — abstracta";
    app.append(h("h1", {}, "No such game"), h("p", { class: "error", id: "not-found" }, `There is no game called “${name}”.`),
      h("p", {}, h("a", { href: "#/", class: "button" }, "See the games")));
    return;
  }
  document.title = `${g ? g.title : name} rules — abstracta`;
  app.append(h("h1", {}, `${g ? g.title : name}: how to play`));
  const detail = await api(`/api/games/${encodeURIComponent(name)}`);
  const body = h("div", { class: "rules" });
  body.innerHTML = detail.rules || "<p>No rules page yet.</p>"; // the game's own page, shipped in its package
  const notation = h("p", { class: "notation" }, h("b", {}, "Notation: "), detail.notation_help);
  app.append(body, notation, h("p", {}, h("a", { href: `#/new/${name}`, class: "button primary" }, "Play it")));
}

// ------------------------------------------------------------------------------ new game
async function newGamePage(name) {
  const list = await games();
  const g = list.find((x) => x.name === name);
  if (!g) throw new Error(`unknown game ${name}`);
  document.title = `New ${g.title} — abstracta`;
  app.append(h("h1", {}, `New game of ${g.title}`));
  const form = h("form", { class: "newgame", id: "new-game" });
  const values = {};
  // labels, help and choice labels are the game's own words (its description)
  for (const o of g.options) {
    const id = `opt-${o.name}`;
    const unset = o.unset_label || "(default)";
    let input;
    if (o.choices) {
      input = h("select", { id, name: o.name });
      if (o.default === null) input.append(h("option", { value: "" }, unset));
      for (const c of o.choices) input.append(h("option", { value: c, selected: c === o.default }, (o.choice_labels || {})[c] || c));
    } else if (o.kind === "bool") {
      input = h("select", { id, name: o.name }, h("option", { value: "false", selected: o.default !== "true" }, "No"),
        h("option", { value: "true", selected: o.default === "true" }, "Yes"));
    } else {
      input = h("input", { id, name: o.name, value: o.default ?? "", placeholder: o.default === null ? unset : "",
        inputmode: o.kind === "int" ? "numeric" : undefined });
    }
    values[o.name] = input;
    form.append(h("label", { for: id }, h("span", {}, o.label || o.name), input, h("small", {}, o.help)));
  }
  const seatBox = h("fieldset", { class: "seats" }, h("legend", {}, "Who plays each seat"));
  form.append(seatBox);
  // seat names follow the options (Slide Checkers' colours): asked of the server's description
  let seatStyles = null, seatKey = null;
  const seatNames = (i, opts) => (seatStyles && seatStyles[i] && seatStyles[i].name) || `Player ${i + 1}`;
  async function loadSeats() {
    const opts = readOptions();
    const key = JSON.stringify(opts);
    if (key === seatKey) return;
    seatKey = key;
    try {
      const q = new URLSearchParams(opts).toString();
      seatStyles = (await api(`/api/games/${encodeURIComponent(name)}${q ? "?" + q : ""}`)).seats;
    } catch { seatStyles = null; } // options not (yet) valid: plain names until they are
  }
  const drawSeats = () => {
    const pOpt = values.players;
    const n = pOpt ? parseInt(pOpt.value, 10) || g.num_players : g.num_players;
    const old = [...seatBox.querySelectorAll("select")].map((s) => s.value);
    seatBox.querySelectorAll("label").forEach((l) => l.remove());
    for (let i = 0; i < n; i++) {
      const sel = h("select", { id: `seat-${i}`, name: `seat-${i}` },
        h("option", { value: "human" }, "Person on this device"),
        ...[1, 2, 3, 4, 5, 6].map((l) => h("option", { value: `level:${l}` }, `Computer, level ${l}`)));
      sel.value = old[i] || (i === 0 ? "human" : "level:3");
      seatBox.append(h("label", { for: `seat-${i}` }, h("span", {}, seatNames(i, readOptions())), sel));
    }
  };
  const readOptions = () => {
    const out = {};
    for (const [k, input] of Object.entries(values)) if (input.value !== "") out[k] = input.value;
    return out;
  };
  const redraw = async () => { await loadSeats(); drawSeats(); };
  for (const input of Object.values(values)) input.addEventListener("change", redraw);
  await redraw();
  const err = h("p", { class: "error", hidden: true });
  form.append(h("button", { type: "submit", class: "primary", id: "start" }, "Start"), err);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(err, null);
    const seats = [...seatBox.querySelectorAll("select")].map((s) => s.value);
    try {
      const m = await api("/api/matches", { method: "POST", body: { game: name, options: readOptions(), seats, take: "all" } });
      location.hash = `#/match/${m.id}`;
    } catch (e) { showError(err, e); }
  });
  app.append(form, h("p", {}, h("a", { href: `#/rules/${name}`, class: "button", id: "rules-link" }, `Rules of ${g.title}`)));
}

// The game's board module, served from the game's own package (null: show the position text).
// A module's own styles (export const css) are added to the page once.
async function boardModule(url) {
  if (!url) return null;
  let mod;
  try { mod = await import(url); } catch (e) { console.warn(e); return null; }
  if (mod.css && !document.querySelector(`style[data-module="${url}"]`)) {
    document.head.append(h("style", { "data-module": url }, mod.css));
  }
  return mod;
}

// ------------------------------------------------------------------------------ match page
// The result and, when the rules ended the game, why (the engine's words from the view).
function resultText(view, seatName) {
  const line = resultLine(view.result, view.termination, seatName);
  const end = view.struct && view.struct.end;
  return end && end.text && view.termination !== "resignation" ? `${line} — ${end.text}` : line;
}

async function matchPage(id) {
  let view = await api(`/api/matches/${id}`);
  const mod = await boardModule(view.board_module);
  const named = coloured(view.seats); // seats named by colour (else You / Computer / Player N)
  const seatName = seatNamer(view.seats, view.players);
  const who = (i) => named ? `${seatName(i)} (${view.players[i] === "human" ? "person" : "computer " + view.players[i].replace("level:", "level ")})` : seatName(i);
  const compTag = named ? " (computer)" : "";
  const abbrev = (i) => { const n = seatName(i); const m = /^Player (\d+)/.exec(n); return m ? `P${m[1]}` : n[0]; };
  const humans = view.players.map((p, i) => (p === "human" ? i : -1)).filter((i) => i >= 0);
  const hotSeatHidden = view.hidden_information && humans.length > 1; // hands may differ: ask for no seat
  let shownSeat = null; // hand-over screen: seat whose private view is on screen
  let replayPly = null; // null: live position
  let positions = null; // {texts, structs} of every ply, fetched when replaying
  let sending = false;
  let timer = null;
  let stopped = false;
  let socket = null;
  let reopenTimer = null;
  let connLost = false; // the server did not answer: "connection lost, retrying…"
  let lastRenderKey = null; // what the board shows now (see draw)
  stopPage = () => { stopped = true; clearTimeout(timer); clearTimeout(reopenTimer); if (socket) socket.close(); };

  document.title = `${view.title} — abstracta`;
  const status = h("div", { class: "status", id: "status", "aria-live": "polite" });
  const banner = h("div", { class: "result", id: "result", hidden: true });
  // the board takes the keyboard focus itself: the module's key handler gets the keys there
  const boardBox = h("div", { class: "boardbox", id: "board", tabindex: "0", role: "application",
    "aria-label": "Board", "aria-describedby": "board-text" });
  const boardText = h("div", { class: "sr-only", id: "board-text", "aria-live": "polite" });
  const boardSay = h("div", { class: "sr-only", id: "board-say", "aria-live": "assertive" });
  let keyHandler = null;
  boardBox.addEventListener("keydown", (ev) => {
    if (keyHandler && keyHandler(ev)) { ev.preventDefault(); ev.stopPropagation(); }
  });
  const controls = h("div", { class: "controls", id: "controls" });
  const err = h("p", { class: "error", id: "error", hidden: true });
  const posText = h("pre", { class: "position small", id: "position-text" });
  const legalBox = h("div", { class: "legal", id: "legal" });
  const entry = h("input", { id: "move-input", placeholder: "type a move, e.g. " + (view.legal[0] || ""), autocomplete: "off", autocapitalize: "off", spellcheck: "false" });
  const entryForm = h("form", { class: "entry" }, entry, h("button", { type: "submit" }, "Play"));
  const moveList = h("ol", { class: "moves", id: "moves" });
  const stepper = h("div", { class: "stepper" });
  const actions = h("div", { class: "actions" });
  const handover = h("div", { class: "handover", id: "handover", hidden: true });
  const players = h("p", { class: "players" });

  app.append(h("div", { class: "matchhead" }, h("h1", {}, view.title), players),
    status, banner, handover,
    h("div", { class: "play" },
      h("div", { class: "left" }, boardBox, boardText, boardSay, controls, err, h("details", {}, h("summary", { class: "muted" }, "Position text"), posText)),
      h("aside", { class: "right" },
        h("details", { class: "legalwrap", open: !(mod && mod.render) }, h("summary", {}, "Legal moves"), legalBox),
        entryForm,
        h("h2", {}, "Moves"), stepper, moveList, actions)));

  // whose eyes: the server derives them from the tokens sent (api.js), so no ?seat= (a browser
  // without the seat's token, a spectator, would be refused one)
  const seatParam = () => "";

  // Every state the page receives (answers to moves, undo and resign, WebSocket pushes, polls)
  // comes through here: anything older than the revision on screen is ignored, since a live
  // push of the computer's reply can overtake the HTTP answer to the person's own move.
  function accept(fresh) {
    if (!fresh || typeof fresh.revision !== "number") return false;
    const newer = fresh.revision > view.revision ||
      (fresh.revision === view.revision && (fresh.thinking !== view.thinking || fresh.viewer !== view.viewer));
    if (!newer) return false;
    if (fresh.revision > view.revision) showError(err, null); // a new position: an old refusal is stale
    view = fresh;
    positions = null;
    if (!sending) draw();
    return true;
  }

  // network failures (fetch rejects without a status) show as "connection lost" until the next
  // successful request, which clears them
  function networkDown(e) { return !e || e.status === undefined; }
  function setConnection(ok) {
    if (connLost === !ok) return;
    connLost = !ok;

    if (!sending) draw();
  }
  // a lost connection is said once, in the status line; other errors under the board until the
  // next action or the next position
  function fail(e) {
    if (networkDown(e)) { setConnection(false); return; }
    showError(err, e);
  }

  async function refresh() {
    try {
      const fresh = await api(`/api/matches/${id}${seatParam()}`);
      setConnection(true);
      accept(fresh);
    } catch (e) { fail(e); }
  }

  // live updates: a WebSocket when it works, polling otherwise
  function openSocket() {
    if (!("WebSocket" in window)) return;
    try {
      const proto = location.protocol === "https:" ? "wss" : "ws";
      socket = new WebSocket(`${proto}://${location.host}/api/matches/${id}/ws`);
    } catch { socket = null; return; }
    socket.onopen = () => {
      socket.send(JSON.stringify({ tokens: tokensOf(id) })); // the first message authenticates
      app.dataset.live = "socket"; // read by the browser tests
    };
    socket.onmessage = (ev) => {
      let fresh;
      try { fresh = JSON.parse(ev.data); } catch { return; }
      if (fresh && !fresh.error) { setConnection(true); accept(fresh); }
    };
    socket.onclose = () => {
      socket = null;
      app.dataset.live = "polling";
      if (stopped) return;
      schedule(); // poll meanwhile (it notices the server coming back), and reopen the socket
      clearTimeout(reopenTimer);
      reopenTimer = setTimeout(() => { if (!stopped && !socket) openSocket(); }, 2000);
    };
  }

  function schedule() {
    clearTimeout(timer);
    if (stopped || view.status !== "playing") return;
    if (socket && socket.readyState <= 1) return; // connecting or open: the socket pushes changes
    const busy = (view.thinking || !view.human_to_move) && !connLost;
    timer = setTimeout(async () => { await refresh(); schedule(); }, busy ? 400 : 1500);
  }

  // one action string, or a list the seat plays in a row within its turn (applied all or none)
  async function send(text) {
    if (sending) return;
    sending = true;
    showError(err, null);
    const body = Array.isArray(text) ? { actions: text, ply: view.ply } : { action: text, ply: view.ply };
    try {
      accept(await api(`/api/matches/${id}/actions${seatParam()}`, { method: "POST", body }));
      replayPly = null;
      entry.value = "";
      setConnection(true);
    } catch (e) {
      fail(e);
      if (e.status === 409) await refresh();
    } finally {
      sending = false;
      draw();
      schedule();
    }
  }

  async function post(path, body) {
    showError(err, null);
    try {
      accept(await api(`/api/matches/${id}/${path}${seatParam()}`, { method: "POST", body }));
      replayPly = null;
      setConnection(true);
      draw();
      schedule();
    } catch (e) { fail(e); }
  }

  entryForm.addEventListener("submit", (ev) => { ev.preventDefault(); if (entry.value.trim()) send(entry.value.trim()); });

  async function stepTo(ply) {
    if (ply === null || ply >= view.ply) { replayPly = null; draw(); return; }
    if (!positions) {
      try {
        const all = await api(`/api/matches/${id}/positions${seatParam()}`);
        positions = { texts: all.positions, structs: all.structs };
      } catch (e) { fail(e); return; }
    }
    replayPly = Math.max(0, ply);
    draw();
  }

  function draw() {
    window.abstractaView = view; // read by the browser tests
    const over = view.status === "over";
    // hand-over screen for two people sharing a device in a hidden-information game
    const needHandover = hotSeatHidden && view.private_views && !over && view.viewer !== null && view.viewer !== shownSeat;
    const hide = needHandover;
    if (hide) replayPly = null; // nothing seat-specific while the hand-over screen is up
    const live = replayPly === null;
    players.textContent = view.players.map((_, i) => who(i)).join(" vs ");
    // status line
    let s;
    if (over) s = "Game over";
    else if (connLost) s = "Connection lost, retrying…";
    else if (view.thinking) s = `${seatName(view.to_move)}${compTag} is thinking…`;
    else if (view.to_move !== null) s = seatName(view.to_move) === "You" ? "Your move" : `${seatName(view.to_move)} to move` + (view.human_to_move ? "" : compTag);
    else s = "";
    if (!live) s = `Replay: position after ply ${replayPly} of ${view.ply}` + (replayPly === 0 ? " (start)" : ` (${view.moves[replayPly - 1]})`);
    status.textContent = s;
    status.classList.toggle("thinking", !!view.thinking && live && !connLost);
    status.classList.toggle("lost", connLost && !over);
    // a person knocked out of a 3-4 player game is told, and loses the controls of a player
    const struct0 = view.struct || {};
    const out = new Map((struct0.eliminated || []).map((e) => [e.seat, e.text]));
    const humansOut = humans.length > 0 && humans.every((i) => out.has(i));
    banner.hidden = !over && !humans.some((i) => out.has(i));
    banner.classList.toggle("out", !over && !banner.hidden);
    banner.textContent = over ? resultText(view, seatName)
      : humans.filter((i) => out.has(i)).map((i) => `${seatName(i) === "You" ? "You are" : seatName(i) + " is"} out: ${out.get(i)}. The game goes on.`).join(" ");

    handover.hidden = !needHandover;
    handover.replaceChildren();
    if (needHandover) {
      handover.append(h("p", {}, `Pass the device to ${seatName(view.viewer)}. The other player should look away.`),
        h("button", { type: "button", class: "primary", id: "handover-ok", onclick: () => { shownSeat = view.viewer; draw(); } },
          `I am ${seatName(view.viewer)}: show my hand`));
    }

    // board
    const position = live ? view.position : positions.texts[replayPly];
    const struct = live ? view.struct : positions.structs[replayPly];
    const interactive = live && !over && view.human_to_move && !view.thinking && !hide && !connLost;
    // the same picture is not drawn twice (a redraw would restart a module's animation)
    const ended = over ? { result: view.result, termination: view.termination, text: resultText(view, seatName) } : null;
    const renderKey = JSON.stringify([hide, struct, interactive, live, ended, connLost]);
    if (renderKey !== lastRenderKey) {
      lastRenderKey = renderKey;
      boardBox.replaceChildren();
      controls.replaceChildren();
      keyHandler = null;
      if (hide) {
        boardBox.append(h("p", { class: "hidden-note" }, "Hidden until the next player is ready."));
      } else if (mod && mod.render) {
        try {
          // the board module draws the structured view and sends action strings (docs/board-modules.md)
          const ctx = {
            struct, interactive, play: send, controls, live,
            palette: view.board || {}, seats: view.seats || [], seatName,
            ended, // the end of the match ({result, termination, text}; a resignation too), or null
            onKey: (fn) => { keyHandler = fn; }, // fn(KeyboardEvent) -> true when it used the key
            say: (text) => { boardSay.textContent = text; }, // spoken at once by screen readers
            refresh: () => { if (mod.describe) boardText.textContent = mod.describe(struct, ctx); },
          };
          mod.render(boardBox, ctx);
          const text = mod.describe ? mod.describe(struct, ctx) : "";
          if (boardText.textContent !== text) boardText.textContent = text;
          if (mod.keyHelp) boardBox.setAttribute("aria-label", `Board. ${mod.keyHelp}`);
        } catch (e) {
          console.error(e);
          boardBox.replaceChildren(h("pre", { class: "position" }, position));
        }
      } else {
        boardBox.append(h("pre", { class: "position" }, position));
      }
    }
    posText.textContent = hide ? "Hidden until the next player is ready." : position;

    // legal moves as buttons
    legalBox.replaceChildren();
    if (interactive) {
      for (const m of view.legal) legalBox.append(h("button", { type: "button", class: "move", "data-move": m, onclick: () => send(m) }, m));
    } else {
      legalBox.append(h("span", { class: "muted" }, over ? "The game is over." : connLost ? "Waiting for the server." : (live ? "Not your move." : "Replaying.")));
    }
    entry.disabled = !interactive;
    entry.placeholder = interactive && view.legal.length ? `type a move, e.g. ${view.legal[0]}` : "type a move";

    // move list: one entry per turn (a seat's actions in a row), each action a step of the replay
    moveList.replaceChildren();
    const shownPly = live ? view.ply : replayPly;
    let turnNo = 0;
    for (let i = 0; i < view.moves.length;) {
      const seat = view.movers ? view.movers[i] : null;
      let j = i + 1;
      while (j < view.moves.length && view.movers && view.movers[j] === seat) j++;
      turnNo += 1;
      const known = seat !== null && seat >= 0;
      const style = known && view.seats ? view.seats[seat] : null;
      const colour = style && style.colour ? { background: style.colour, color: style.ink || "#fff" } : null; // the seat's own colour
      const li = h("li", { class: `seat${seat} ` + (shownPly > i && shownPly <= j ? "current" : ""), title: known ? seatName(seat) : null,
        style: colour ? `border-left-color: ${colour.background}` : null },
        h("span", { class: "n" }, `${turnNo}.`), " ", known ? h("span", { class: `who seat${seat}`, "aria-label": seatName(seat),
          style: colour ? `background: ${colour.background}; color: ${colour.color}; border: 0` : null }, abbrev(seat)) : null);
      for (let k = i; k < j; k++) {
        li.append(k === i ? " " : ", ");
        li.append(h("a", { href: "javascript:void 0", "data-ply": k + 1, class: k + 1 === shownPly ? "at" : null,
          onclick: () => { if (!hide) stepTo(k + 1); } }, view.moves[k]));
      }
      moveList.append(li);
      i = j;
    }
    moveList.hidden = !view.moves.length;
    stepper.hidden = !view.moves.length;
    const cur = moveList.querySelector(".current");
    if (cur) cur.scrollIntoView({ block: "nearest" });
    stepper.replaceChildren(
      h("button", { type: "button", title: "start", onclick: () => stepTo(0), disabled: view.ply === 0 || hide }, "|◀"),
      h("button", { type: "button", title: "back", id: "step-back", onclick: () => stepTo((live ? view.ply : replayPly) - 1), disabled: view.ply === 0 || replayPly === 0 || hide }, "◀"),
      h("button", { type: "button", title: "forward", id: "step-fwd", onclick: () => stepTo(live ? null : replayPly + 1), disabled: live }, "▶"),
      h("button", { type: "button", title: "live position", onclick: () => stepTo(null), disabled: live }, "▶|"));

    // actions
    actions.replaceChildren(
      h("button", { type: "button", id: "undo", onclick: () => post("undo"), disabled: !humans.length || over || view.ply === 0 || hide || humansOut,
        title: over ? "The game is over" : null }, "Undo"),
      h("button", { type: "button", id: "resign", onclick: () => { if (confirm("Resign this game?")) post("resign", view.human_to_move ? { seat: view.to_move } : {}); }, disabled: over || !humans.length || humansOut }, "Resign"),
      h("a", { class: "button", href: `#/new/${view.game}`, id: "new-game-link" }, "New game"),
      view.hidden_information && !over
        ? h("button", { type: "button", id: "download", disabled: true, title: "The record of a game with hidden cards is available when it is over" }, "Download record")
        : h("a", { class: "button", href: `/api/matches/${id}/record?download=true`, download: `${view.game}-${id}.json`, id: "download" }, "Download record"),
      h("a", { class: "button", href: `#/rules/${view.game}` }, "Rules"));
  }

  document.addEventListener("keydown", (ev) => {
    if (stopped || !handover.hidden || ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA") return;
    if (boardBox.contains(ev.target)) return; // the board's own keys (see keyHandler)
    if (ev.key === "ArrowLeft") stepTo((replayPly === null ? view.ply : replayPly) - 1);
    else if (ev.key === "ArrowRight" && replayPly !== null) stepTo(replayPly + 1);
  });

  draw();
  openSocket();
  schedule();
}
