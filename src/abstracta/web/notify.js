// "Your move", wherever you are (issue 43 §1): the tab's title and icon say it ("● Your move —"
// and the game's title); a short sound if the player chose one (off unless chosen: kept in localStorage); a
// browser notification when the turn comes while the tab is hidden (permission asked only
// after a tap on "Notify me"); in a correspondence game (a day or more per move) the same tap
// also subscribes this device to the server's Web Push notices (sw.js shows them with the page
// closed). And how many games wait for this person's move, for the home page and Your games.
import { api, myMatches } from "./api.js";
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";

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
    const supported = "Notification" in window;
    const permission = supported ? Notification.permission : "denied";
    ask.hidden = !supported || permission === "denied" || (permission === "granted" && !correspondence());
    ask.textContent = correspondence() ? t("notice.notify_push") : t("notice.notify_me");
    if (!supported) said.textContent = t("notice.unsupported");
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
    },
    stop() { setIcon(NO_ICON); },
  };
}

// The games waiting for this browser's move, among Your games' rows (GET /api/matches): in play,
// every seat taken, a person seat held here to move.
export function waitingCount(rows) {
  return rows.filter((r) => r.status === "playing" && r.to_move !== null && r.to_move !== undefined &&
    (r.my_seats || []).includes(r.to_move) && (r.players || [])[r.to_move] === "human" &&
    !(r.claimed || []).some((c, i) => !c && r.players[i] === "human")).length;
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

// "2 games wait for your move" (a link to Your games), hidden while none does. `rows`: Your
// games' rows when the page has them (it reads them again when one is due), else they are
// asked for here, and again when one is due.
export function waitingLine(rows = null) {
  const line = h("p", { class: "waiting", id: "waiting-count", hidden: true });
  const fill = (list) => {
    const n = waitingCount(list);
    line.replaceChildren(h("a", { href: "#/matches" }, t("notice.waiting", { n })));
    line.hidden = n === 0;
  };
  const read = () => myMatches().then((list) => { fill(list); whenDue(list, line, read); }).catch(() => { /* a convenience */ });
  if (rows) fill(rows);
  else read();
  return line;
}
