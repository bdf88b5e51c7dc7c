// "Your move", wherever you are (issue 43 §1): the tab's title and icon say it ("● Your move —"
// and the game's title); a short sound if the player chose one (off unless chosen: kept in localStorage); a
// browser notification when the turn comes while the tab is hidden (permission asked only
// after a tap on "Notify me"); in a correspondence game (a day or more per move) the same tap
// also subscribes this device to the server's Web Push notices (sw.js shows them with the page
// closed). And, on every page, the header's notices (startNotices): how many games wait for this
// person's move, live, in the header, the tab's title and the home page; a challenge to them,
// with Accept and Decline.
import { allTokens, api, myMatches } from "./api.js";
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { challengeWords } from "./lobby.js";
import { SESSION_ENDED, onMe, sessionEnded, whoAmI } from "./people.js";
import { games } from "./shell.js";

const SOUND_KEY = "abstracta.notices.sound";
// the tab's icon while it is your move: a dot (the page's own icon is none)
const DOT = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#c0392b"/></svg>');
const NO_ICON = "data:,";
const CORRESPONDENCE = 86400; // seconds per move from which a game is correspondence (people.pools)

function soundChosen() {
  try { return localStorage.getItem(SOUND_KEY) === "on"; } catch { return false; }
}

function setIcon(href) {
  let link = document.querySelector("link[rel~='icon']");
  if (!link) { link = h("link", { rel: "icon" }); document.head.append(link); }
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
}

// A short two-tone chime (Web Audio: no file to fetch); the context is made at the tap that chose
// the sound, as browsers let a page start one only after a gesture.
let audio = null;
function chime() {
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume();
    const at = audio.currentTime;
    for (const [k, freq] of [[0, 660], [1, 880]]) {
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, at + k * 0.14);
      gain.gain.exponentialRampToValueAtTime(0.2, at + k * 0.14 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + k * 0.14 + 0.13);
      osc.connect(gain).connect(audio.destination);
      osc.start(at + k * 0.14);
      osc.stop(at + k * 0.14 + 0.14);
    }
  } catch { /* no audio here: the title still says it */ }
}

const b64bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - text.length % 4) % 4)), (c) => c.charCodeAt(0));

// Subscribe this device to the server's Web Push notices for the seats it holds in match `id`.
async function subscribePush(id) {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) throw new Error("no push");
  const reg = await navigator.serviceWorker.register("/sw.js");
  await navigator.serviceWorker.ready;
  const { key } = await api("/api/push/key");
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: b64bytes(key) });
  await api(`/api/matches/${encodeURIComponent(id)}/push`, { method: "POST", body: { subscription: sub.toJSON(), lang } });
}

// The match page's notices: `title` the match's name; `mySeats()` the seats this browser holds
// now (against the computer, or at a distance; several people on one device get none).
// `update(view)` after every view drawn; `node` the settings (sound, "Notify me"); `stop()`
// when the page is left (the tab's title and icon are the next page's).
export function yourMove({ id, title, mySeats }) {
  let mine = null; // whether the view drawn last was this page's move (null: none drawn yet)
  let view = null;
  const said = h("p", { class: "muted", id: "notice-state", "aria-live": "polite" });
  const sound = h("input", { type: "checkbox", id: "move-sound", checked: soundChosen() });
  sound.addEventListener("change", () => {
    try { localStorage.setItem(SOUND_KEY, sound.checked ? "on" : "off"); } catch { /* private mode */ }
    if (sound.checked) chime(); // heard now: the player knows what it sounds like (and audio may start)
  });
  const ask = h("button", { type: "button", id: "notify-me", onclick: () => askPermission() }, t("notice.notify_me"));
  const node = h("details", { class: "notices", id: "notices" },
    h("summary", {}, t("notice.settings")),
    h("p", {}, h("label", { for: "move-sound" }, sound, " ", t("notice.sound"))),
    h("p", {}, ask), said);
  node.hidden = !mySeats().length;

  const correspondence = () => !!(view && view.clock && view.clock.control && view.clock.control.per_turn >= CORRESPONDENCE);
  function drawState() {
    // browsers notify only on HTTPS or localhost; elsewhere (a club server over plain HTTP)
    // Chromium reports "denied", which would read as the player's own setting
    const secure = window.isSecureContext !== false;
    const supported = secure && "Notification" in window;
    const permission = supported ? Notification.permission : "denied";
    ask.hidden = !supported || permission === "denied" || (permission === "granted" && !correspondence());
    ask.textContent = correspondence() ? t("notice.notify_push") : t("notice.notify_me");
    if (!secure) said.textContent = t("notice.insecure");
    else if (!supported) said.textContent = t("notice.unsupported");
    else if (permission === "denied") said.textContent = t("notice.blocked");
    else if (permission === "granted") said.textContent = t("notice.on");
    else said.textContent = t("notice.off");
  }

  async function askPermission() {
    if (!("Notification" in window)) return;
    const answer = await Notification.requestPermission();
    drawState();
    if (answer !== "granted" || !correspondence()) return;
    try {
      await subscribePush(id);
      said.textContent = t("notice.push_on");
      ask.hidden = true;
    } catch {
      said.textContent = t("notice.push_unavailable"); // the tab's notices still work while it is open
    }
  }

  function notify() {
    if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
    try {
      const n = new Notification(t("notice.push_title", { game: title }), {
        body: view.moves.length ? t("notice.push_body", { move: view.moves[view.moves.length - 1] }) : "",
        tag: `abstracta-${id}`, lang });
      n.onclick = () => { window.focus(); n.close(); };
    } catch { /* a browser that shows them from a service worker only: the title says it */ }
  }

  return {
    node,
    update(fresh) {
      view = fresh;
      // several people on one device (pass and play): it is always somebody's move here, said
      // by the status line; the tab's title and the rest are for a person waiting for others
      const held = mySeats();
      const shared = view.players.filter((p, i) => p === "human" && held.includes(i)).length > 1;
      node.hidden = !held.length || shared;
      const my = !shared && view.status === "playing" && view.human_to_move && held.includes(view.to_move) &&
        !(view.waiting_for || []).length;
      document.title = my ? `● ${t("notice.your_move")} — ${title}` : `${title} — abstracta`;
      setIcon(my ? DOT : NO_ICON);
      if (my && mine === false) { // the turn has just come to this page
        if (soundChosen()) chime();
        notify();
      }
      mine = my;
      drawState();
      sawView(view);
    },
    stop() { setIcon(NO_ICON); },
  };
}

// How many games wait for this browser's move, among Your games' rows (GET /api/matches).
export function waitingCount(list) {
  return waitingGames(list).length;
}

// ------------------------------------------------------------------------------ Your games, live
// Your games' rows as last read (GET /api/matches, with this browser's tokens and its session),
// shared by the header, the home page and Your games; read again when the notices' socket says
// whose move it is changed in one of this person's games, and on a return to the tab.
let rows = null;
const gameListeners = new Set();
let reading = null, readAgain = false;
let dueTimer = null; // the reading again when time alone changes a game listed
// The games whose rows are behind what this tab has seen: a game page drew another ply than its
// row's (the player's own move, mostly, which the notices' reading follows up to 1.5 s later).
// Until a reading asked after that comes, a page is not drawn from the rows (the home page
// said "Your move" of the game just moved in) and the header does not count those games.
const behind = new Set();

// A game page drew `view`: its row, if listed with another ply, is behind until read again.
export function sawView(view) {
  const row = rows && view && rows.find((r) => r.id === view.id);
  if (row && row.ply !== view.ply) behind.add(view.id);
}

// `fn(rows)` now (if read already) and after every reading; returns the way to stop.
export function onGames(fn) {
  gameListeners.add(fn);
  if (rows) fn(rows);
  return () => gameListeners.delete(fn);
}

let readAt = -Infinity; // when the last reading was asked (performance.now())

// Read Your games again (one reading at a time; asked meanwhile: once more after it). `within`:
// not if one was asked that many ms ago or is under way (a page drawn just after the header's
// reading, which the notices keep fresh), unless a row is behind.
export function readGames(within = 0) {
  if (within && !behind.size && (reading || performance.now() - readAt < within)) return reading || Promise.resolve();
  if (reading) { readAgain = true; return reading; }
  readAt = performance.now();
  const asked = [...behind];
  reading = myMatches().then((fresh) => {
    rows = fresh;
    for (const id of asked) behind.delete(id);
    for (const fn of [...gameListeners]) fn(fresh);
    // a game listed aborted for a first move not made in time, or a flag fallen, by time alone:
    // no move tells the notices then, so the list is read again at the moment (due_in)
    clearTimeout(dueTimer);
    const due = fresh.map((r) => r.due_in).filter((d) => typeof d === "number");
    if (due.length) dueTimer = setTimeout(() => readGames(), Math.min(Math.min(...due) * 1000 + 500, 2 ** 31 - 1));
  }).catch(() => { /* a convenience: the next reading may do */ }).finally(() => {
    reading = null;
    if (readAgain) { readAgain = false; readGames(); }
  });
  return reading;
}

// `fn(rows)` while `node` is on the page: it stops once the page that drew the node is left.
// `now`: false when the page drew the node from rows of its own (fresher than the last
// reading's, which would undo them).
export function whileShown(node, fn, now = true) {
  let shown = false;
  gameListeners.add(listener);
  if (rows && now && !behind.size) listener(rows);
  // the node is put on the page just after this (the same task, or the next frame): it counts
  // as shown from then, so a page left before the next reading stops it too
  requestAnimationFrame(() => { if (node.isConnected) shown = true; else if (shown) off(); });
  function listener(list) {
    if (node.isConnected) shown = true;
    else if (shown) { off(); return; }
    fn(list);
  }
  function off() { gameListeners.delete(listener); }
}

// The games waiting for this browser's move, newest first: in play, every seat taken, a person
// seat held here to move; not a game of several people on this device (pass and play: it is
// always one of theirs to move, as its page says without a "Your move" title).
export function waitingGames(list) {
  return list.filter((r) => r.status === "playing" && r.to_move !== null && r.to_move !== undefined &&
    (r.my_seats || []).includes(r.to_move) && (r.players || [])[r.to_move] === "human" &&
    (r.my_seats || []).filter((i) => r.players[i] === "human").length === 1 &&
    !(r.claimed || []).some((c, i) => !c && r.players[i] === "human"));
}

// Call `again` once time alone changes one of Your games' `rows` (its first move due, past
// which it is aborted, or a flag falling: the server's due_in), while `node` is on the page:
// a list left open must not go on saying "your move" of a game that is over.
export function whenDue(rows, node, again) {
  const due = rows.map((r) => r.due_in).filter((d) => typeof d === "number");
  if (!due.length) return;
  const ms = Math.min(Math.min(...due) * 1000 + 500, 2 ** 31 - 1);
  setTimeout(() => { if (node.isConnected) again(); }, ms);
}

// "2 games wait for your move" (a link to Your games), hidden while none does; live. `given`:
// Your games' rows when the page has them, else they are asked for here.
export function waitingLine(given = null) {
  const line = h("p", { class: "waiting", id: "waiting-count", hidden: true });
  const fill = (list) => {
    const n = waitingCount(list);
    line.replaceChildren(h("a", { href: "#/matches" }, t("notice.waiting", { n })));
    line.hidden = n === 0;
  };
  if (given) fill(given);
  whileShown(line, fill, !given);
  if (!given) readGames(3000);
  return line;
}

// ------------------------------------------------------------------------------ the header's notices
// On every page: a badge in the header while games wait for this person's move ("Your move 2",
// to the game, or to Your games when several do), the tab's title counting them and the
// challenges to them ("(1) abstracta"; a match page's own "● Your move" title is left as it is),
// and a challenge to them under the header with Accept and Decline (not on the lobby page, which
// lists them). Live over GET /api/notices/ws while someone (a guest too) is signed in: it says
// when to read Your games again; a browser holding seat tokens only reads them on every return to
// the tab and page change, and every minute while it is shown.
const QUIET_POLL_MS = 60000;
const hasTokens = () => Object.values(allTokens()).some((seats) => Object.keys(seats || {}).length);

export function startNotices(header) {
  const badge = h("a", { class: "turn-badge", id: "turn-badge", hidden: true });
  header.querySelector("#me").after(badge);
  const box = h("div", { class: "challenge-notices", id: "challenge-notices", hidden: true, "aria-live": "polite" });
  header.after(box);
  let waiting = [], challenges = [], list = [];
  let socket = null, reopen = null, delay = 2000, turns = null, started = "", person = null;

  const onMatchPage = () => /^#\/match\//.test(location.hash);
  const onLobby = () => /^#\/lobby\b/.test(location.hash);
  const count = () => waiting.length + challenges.length;
  const PREFIX = /^\(\d+\) /;

  function drawTitle() {
    const bare = document.title.replace(PREFIX, "");
    const n = count();
    // a match page says its own "● Your move" (notify.js's yourMove)
    const wanted = n && !bare.startsWith("●") ? `(${n}) ${bare}` : bare;
    if (document.title !== wanted) document.title = wanted;
    if (!onMatchPage()) setIcon(n ? DOT : NO_ICON);
  }
  // every page sets its own title: the count is put back in front of it
  new MutationObserver(drawTitle).observe(document.querySelector("title") || document.head, { childList: true, characterData: true, subtree: true });

  // a phone's header has one line for the brand, the name, the badge and the EN/FI switch (the
  // grid of style.css): "Your move 1" pushed the switch onto a line of its own there. Shorter on
  // a phone, the count alone on the narrowest, where the name would have no room left; the
  // aria-label says it whole
  const narrow = matchMedia("(max-width: 480px)"), narrowest = matchMedia("(max-width: 360px)");
  for (const width of [narrow, narrowest]) width.addEventListener("change", () => drawBadge());
  function drawBadge() {
    const n = waiting.length;
    badge.hidden = n === 0;
    badge.href = n === 1 ? `#/match/${waiting[0].id}` : "#/matches";
    badge.textContent = narrowest.matches ? String(n) : t(narrow.matches ? "notice.badge_short" : "notice.badge", { n });
    badge.setAttribute("aria-label", t("notice.waiting", { n }));
  }

  async function answer(c, accept, error) {
    error.hidden = true;
    try {
      const done = await api(`/api/challenges/${c.id}/${accept ? "accept" : "decline"}`, { method: "POST" });
      challenges = challenges.filter((x) => x.id !== c.id);
      drawChallenges();
      if (accept && done && done.id) location.hash = `#/match/${done.id}`;
    } catch (e) { error.textContent = e.message; error.hidden = false; }
  }

  function drawChallenges() {
    box.hidden = !challenges.length || onLobby();
    box.replaceChildren(...challenges.map((c) => {
      const error = h("span", { class: "error", role: "alert", hidden: true });
      return h("p", { class: "challenge-notice", "data-challenge": c.id },
        h("span", {}, challengeWords(c, list)),
        c.seat !== null && c.seat !== undefined ? h("span", { class: "muted" }, ` ${t(c.seat === 0 ? "lobby.challenge.you_second" : "lobby.challenge.you_first")}`) : null, " ",
        h("button", { type: "button", class: "primary", "aria-label": t("lobby.challenge.accept_named", { who: c.from || "" }), onclick: () => answer(c, true, error) }, t("lobby.challenge.accept")), " ",
        h("button", { type: "button", "aria-label": t("lobby.challenge.decline_named", { who: c.from || "" }), onclick: () => answer(c, false, error) }, t("lobby.challenge.decline")), " ",
        h("a", { href: "#/lobby" }, t("notice.to_lobby")), " ", error);
    }));
    drawTitle();
  }

  // the game on screen is left out: its page says whose move it is there
  let all = [];
  const shownMatch = () => (location.hash.match(/^#\/match\/([^/]+)/) || [])[1];
  const sort = () => { waiting = all.filter((r) => r.id !== shownMatch() && !behind.has(r.id)); drawBadge(); drawTitle(); };
  onGames((fresh) => { all = waitingGames(fresh); sort(); });

  function open() {
    clearTimeout(reopen);
    if (socket || !person) return;
    let s;
    try { s = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/notices/ws`); } catch { return; }
    socket = s;
    const openedAt = performance.now();
    s.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      const n = msg && msg.notices;
      if (!n) return;
      // an opening is no success: the server accepts, then may close at once (nobody signed in,
      // over the address's budget, a failure): only its notices end the waiting longer
      delay = 2000;
      const ids = (n.started || []).join();
      // the first message after an opening: what may have changed while closed is read too;
      // moves in a row (a fast game, several games) are read at most every 1.5 s, the last too
      if (turns === null || ids !== started) readGames();
      else if (n.turns !== turns) turnsRead();
      turns = n.turns;
      started = ids;
      challenges = n.challenges || [];
      header.dataset.notices = "socket";
      drawChallenges();
    };
    s.onclose = (ev) => {
      if (socket !== s) return; // closed here (another person, or nobody): onMe does what follows
      socket = null;
      turns = null;
      delete header.dataset.notices;
      if (!person) return;
      const was = person;
      // closed for a session ended, or as nobody's (1000): who is signed in is asked first, and
      // onMe opens it again for whoever it is; the same person still: again, after a wait
      if (ev.code === SESSION_ENDED) sessionEnded(openedAt).finally(() => again(was));
      else if (ev.code === 1000) whoAmI(true).finally(() => again(was));
      else again(was);
    };
  }
  let turnsTimer = null, turnsReadAt = -Infinity;
  function turnsRead() {
    if (turnsTimer) return; // a reading is due: it reads this change too
    const wait = turnsReadAt + 1500 - performance.now();
    const go = () => { turnsTimer = null; turnsReadAt = performance.now(); readGames(); };
    if (wait <= 0) go();
    else turnsTimer = setTimeout(go, wait);
  }
  // open again after a wait doubled at each close in a row (2 s, up to 60 s)
  function again(was) {
    if (person !== was || socket) return;
    clearTimeout(reopen);
    reopen = setTimeout(open, delay);
    delay = Math.min(delay * 2, 60000);
  }
  function close() {
    clearTimeout(reopen);
    if (socket) { const s = socket; socket = null; s.close(); }
    challenges = [];
    drawChallenges();
  }

  onMe((who) => {
    const next = who && who.kind ? `${who.kind}:${who.name}` : null;
    if (next === person) return;
    person = next;
    close();
    delay = 2000;
    readGames(3000);
    if (person) open();
  });
  // without a socket nothing says a game changed: read again on a return to the tab, a page
  // change, and every minute while the tab is shown
  // (a visitor holding no seat token, nobody signed in: nothing to ask)
  const quietRead = () => { if (!socket && !document.hidden && (person || hasTokens())) readGames(); };
  document.addEventListener("visibilitychange", quietRead);
  window.addEventListener("focus", quietRead);
  // a game page left with its row behind (a move made there): read at once, whatever the socket
  window.addEventListener("hashchange", () => { if (behind.size) readGames(); else quietRead(); sort(); drawChallenges(); });
  setInterval(quietRead, QUIET_POLL_MS);
  games().then((fresh) => { list = fresh; drawChallenges(); }).catch(() => {});
  whoAmI();
  readGames();
  return { redraw() { drawBadge(); drawChallenges(); } };
}
