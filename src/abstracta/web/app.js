// The abstracta browser client: hash routing (#/, #/rules/<game>, #/new/<game>, #/match/<id>,
// #/matches, #/join/<code>: an invitation to a seat; people's pages: see people.js), the header's
// language switch and the match page. The other pages are modules of their own: home.js (the
// games, a rules page), newgame.js, matches.js (Your games), join.js, analysis.js, lesson.js,
// people.js; the words they share are in words.js and outcome.js.
import { api, invitesOf, keepInvites, keepWatched, tokensOf } from "./api.js";
import { h, keepFocus } from "./dom.js";
import { analysisPage, analysisPanel } from "./analysis.js";
import { homePage, rulesPage } from "./home.js";
import { joinPage } from "./join.js";
import { lessonPage } from "./lesson.js";
import { matchesPage } from "./matches.js";
import { newGamePage } from "./newgame.js";
import { fmt, lang, onLanguage, preferred, setLanguage, t, translateMarked } from "./i18n.js";
import { outTurns, resultLine, resultText, turnOfPly } from "./outcome.js";
import { PAGES as PEOPLE_PAGES, drawMe, peoplePage, whoAmI } from "./people.js";
import { backToGames, boardModule, games, notFound, showError } from "./shell.js";
import { clockText, coloured, matchTitle, seatNamer } from "./words.js";

// the <main> element; each page draws into its own box in it (see route)
const root = document.getElementById("app");
let stopPage = () => {};
// The state of the page on screen that a language switch keeps (a page that has some sets it):
// the switch draws the page again for its words, and the reader's place on it must not change
let keepPage = () => null;
// plies per answer of GET …/positions (the server's matches.REPLAY_PAGE)
const REPLAY_PAGE = 100;

// The move list's rows. Two players: a row per round, as chess lists moves ("1. b4-c5W, end
// e3-d3A"): a row opens with a turn of the seat that played the first numbered turn and takes the
// other seat's next turn; a turn out of that order (the other seat first, or after a seat moved
// twice) opens a row of its own with its first half empty. Rows are numbered 1, 2, 3… (the
// round; the replay's status says the same number); entries before the rules' first turn
// (placements, number 0) are paired alike, unnumbered. Three or four players: a row per turn,
// numbered as the rules number turns, since a round there is no line's worth and a seat out of
// the game leaves holes in it. Chance entries keep a line each, unnumbered.
// Returns [{number (0: none), turns: [turn | null, …], paired}].
function moveRows(moveList, players) {
  if (players !== 2) return moveList.map((x) => ({ number: x.number, turns: [x], paired: false }));
  const phase = (x) => (x.number > 0 ? 1 : 0);
  const opener = [0, 1].map((p) => (moveList.find((x) => x.seat >= 0 && phase(x) === p) || {}).seat);
  const rows = [];
  let round = 0, open = null; // the row whose second half may still come
  for (const x of moveList) {
    if (x.seat === null || x.seat < 0) { rows.push({ number: 0, turns: [x], paired: false }); open = null; continue; }
    const p = phase(x);
    if (open && open.phase === p && x.seat !== opener[p]) { open.turns[1] = x; open = null; continue; }
    const first = x.seat === opener[p];
    const row = { number: p ? ++round : 0, turns: first ? [x, null] : [null, x], paired: true, phase: p };
    rows.push(row);
    open = first ? row : null;
  }
  return rows;
}

// The round of ply `ply` (1-based) among `rows` (moveRows) and how many there are: {round, rounds}
// (round 0: a ply outside the numbered rows).
function roundOfPly(rows, ply) {
  const paired = rows.filter((r) => r.number > 0);
  const row = ply > 0 ? paired.find((r) => r.turns.some((x) => x && ply > x.from && ply <= x.to)) : null;
  return { round: row ? row.number : 0, rounds: paired.length ? paired[paired.length - 1].number : 0 };
}

// What a replay's status says was played up to `ply`, as the move list writes it: the list's
// entries that end there (a turn written whole as "b2+i8", whose last action is "end"), else the action (a step
// inside a turn the list writes whole).
function movedAt(view, ply) {
  const turn = view.move_list.find((x) => ply > x.from && ply <= x.to);
  const ends = turn ? turn.moves.filter((_, k) => turn.plies[k] === ply) : [];
  return ends.length ? ends.join(", ") : view.moves[ply - 1];
}

// Scroll `box` (a scrolling list) so that `item` shows, and nothing else: scrollIntoView would
// scroll the page too, and on a phone, where the move list is under the board, every move
// pulled the board up out of sight.
function scrollWithin(box, item) {
  const b = box.getBoundingClientRect(), r = item.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop -= b.top - r.top;
  else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
}

// ------------------------------------------------------------------------------ routing
async function route(ev) {
  stopPage();
  stopPage = () => {};
  const switched = ev && ev.type === "language" ? ev : null; // the same page, in other words
  const kept = switched ? switched.kept : null;
  keepPage = () => null;
  const parts = (location.hash.replace(/^#\/?/, "") || "").split("/").map(decodeURIComponent);
  // A page draws into its own box, after its requests: a page left while it was still loading
  // (a click on "Your games" while a match loads) then finishes in a box no longer shown,
  // instead of in the middle of the next page. A page knows it was left by !app.isConnected.
  const app = h("div", { class: "page" });
  root.replaceChildren(app);
  try {
    if (parts[0] === "rules" && parts[1]) await rulesPage(app, parts[1]);
    else if (parts[0] === "new" && parts[1]) await newGamePage(app, parts[1]);
    else if (parts[0] === "match" && parts[1]) await matchPage(app, parts[1], kept);
    else if (parts[0] === "matches") await matchesPage(app);
    else if (parts[0] === "join" && parts[1]) await joinPage(app, parts[1]);
    else if (parts[0] === "analysis") await analysisPage(app, location.hash, { games, boardModule });
    else if (parts[0] === "lesson" && parts[1]) await lessonPage(app, parts[1], parts[2], { games, boardModule });
    else if (PEOPLE_PAGES.has(parts[0])) await peoplePage(app, parts, { games });
    else await homePage(app);
  } catch (err) {
    // never a dead end: the reason, and the way back to the games
    app.replaceChildren(h("p", { class: "error", id: "page-error" }, err.message || String(err)), backToGames());
  }
  if (!app.isConnected) return;
  window.scrollTo(0, switched ? switched.scrollY : 0);
  // a link or button that changed the page went with the old page: the focus fell to <body>
  // and a screen reader said nothing of the new one. Its heading takes the focus (and is read
  // out); a page that placed the focus itself (the analysis box) keeps it, and the first
  // load starts from the top as usual
  const heading = app.querySelector("h1");
  if (ev && ev.type === "hashchange" && heading && document.activeElement === document.body) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
}
window.addEventListener("hashchange", route);

// ------------------------------------------------------------------------------ language
// The header's switch (EN / FI): the choice is remembered; every page is drawn again in it.
const header = document.querySelector("header.top");
function drawHeader() {
  translateMarked(header);
  const group = header.querySelector("#lang");
  group.setAttribute("aria-label", t("nav.language"));
  for (const b of group.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
  drawMe(header.querySelector("#me"));
}
header.querySelector("#lang").addEventListener("click", async (ev) => {
  const b = ev.target.closest("button[data-lang]");
  if (!b || b.dataset.lang === lang) return;
  await setLanguage(b.dataset.lang, true);
});
onLanguage(() => { drawHeader(); route({ type: "language", kept: keepPage(), scrollY: window.scrollY }); });
setLanguage(preferred()).catch(() => { drawHeader(); route(); }); // no catalog: the English of the API
whoAmI(); // the header's name (people.js)

// ------------------------------------------------------------------------------ match page
// `was`: what the same match page kept over a language switch (see keepPage)
async function matchPage(app, id, was = null) {
  let view;
  try {
    view = await api(`/api/matches/${id}`);
  } catch (e) {
    if (e.status !== 404) throw e;
    notFound(app, t("match.none"), t("match.none_why"));
    return;
  }
  const mod = await boardModule(view.board_module);
  if (!app.isConnected) return; // left while loading: no clock, socket or keys for a page not shown
  const named = coloured(view.seats); // seats named by colour (else You / Computer / Player N)
  const mySeats = view.my_seats || []; // the seats this browser's tokens hold (none: a spectator)
  // a spectator has nothing to take back, resign or type (the server would refuse it)
  const spectator = !mySeats.length;
  if (spectator) keepWatched(id, view.game); // "Your games" lists it under Watched games
  const seatName = seatNamer(view.seats, view.players, mySeats);
  const humans = view.players.map((p, i) => (p === "human" ? i : -1)).filter((i) => i >= 0);
  const myPeople = humans.filter((i) => mySeats.includes(i)); // the person seats played here
  // the one person seat played here, whose outcome the end says first (null: none, or several sharing the device)
  const own = myPeople.length === 1 ? myPeople[0] : null;
  // people at a distance: this browser plays some person seats, someone elsewhere the others;
  // then undo needs their consent (a takeback request)
  const distance = myPeople.length > 0 && humans.some((i) => !mySeats.includes(i));
  const who = (i) => named ? `${seatName(i)} (${view.players[i] !== "human" ? t("seat.tag.computer_level", { level: view.players[i].slice(6) })
    : (distance || myPeople.length === 1) && mySeats.includes(i) ? t("seat.tag.you") : view.claimed && !view.claimed[i] ? t("seat.tag.invited") : t("seat.tag.person")})` : seatName(i);
  const compTag = named ? ` (${t("seat.tag.computer")})` : "";
  const you = t("seat.you");
  // the move list's badge: the name's first letter, or P1, P2 where seats share one (two computers)
  const abbrev = (i) => {
    const n = seatName(i);
    const clash = !named && view.players.some((_, j) => j !== i && seatName(j)[0] === n[0]);
    return clash || n === t("seat.player", { n: i + 1 }) ? t("seat.player_short", { n: i + 1 }) : n[0];
  };
  const hotSeatHidden = view.hidden_information && myPeople.length > 1; // hands may differ: ask for no seat
  const kept = was && was.id === id ? was : null;
  // hand-over screen: seat whose private view is on screen (a language switch keeps the
  // confirmation: the same person still holds the device)
  let shownSeat = kept ? kept.shownSeat : null;
  // the hand-over screen for two people sharing a device in a hidden-information game: up until
  // the person whose eyes the view has says they hold the device
  const needsHandover = () => hotSeatHidden && view.private_views && view.status !== "over" &&
    view.viewer !== null && view.viewer !== shownSeat;
  let replayPly = null; // null: live position
  // the replay's pages fetched so far ([{from, to, texts, structs}]): the server answers at most
  // REPLAY_PAGE plies at a time (a long game's whole replay was tens of MB)
  let positions = null;
  // the ply a step waits for a page of positions for (null: none): the next step counts from
  // there, not from the ply on screen, so that two quick clicks on ◀ while a page loads step
  // twice; stepSeq numbers the steps, and a page that arrives for a step overtaken by a later
  // one is kept but not drawn
  let pendingPly = null;
  let stepSeq = 0;
  // the pages on their way ("revision/viewer/seat/from" -> the request): a step waits for the
  // one already asked for its page rather than asking again
  const loading = new Map();
  // a language switch keeps the ply on screen: its pages are still good for the same position
  // and eyes (else the replay steps there again once the first drawing is done)
  const same = !!kept && kept.revision === view.revision && kept.viewer === view.viewer;
  if (same) {
    positions = kept.positions;
    replayPly = kept.replayPly;
    // the struct drawn before, not its copy just fetched: a board module keeps what was picked
    // (a card, a piece) for the struct it belongs to (docs/board-modules.md), and a fresh copy
    // read as a new position and dropped the pick
    view.struct = kept.struct;
  }
  let sending = false;
  let timer = null;
  let stopped = false;
  let socket = null;
  let reopenTimer = null;
  let connLost = false; // the server did not answer: "connection lost, retrying…"
  let lastRenderKey = null; // what the board shows now (see draw)
  let endHeard = false; // the board's words of the last click were cleared when the game ended
  // the clocks: the server's `left` at the local moment its view arrived, counted down here
  // between views (the server stays the authority: every view re-syncs them)
  let clockBase = null; // {left, running, at (performance.now() ms), revision}
  let flagKey = null; // the (revision, seat) whose fallen flag this page claimed already
  let clockTimer = null;
  const refit = () => fitBoard(); // (the screen turned or the window changed size)
  window.addEventListener("resize", refit);
  stopPage = () => { stopped = true; clearTimeout(timer); clearTimeout(reopenTimer); clearInterval(clockTimer); if (socket) socket.close();
    window.removeEventListener("resize", refit); };

  const title = matchTitle(t(view.title_key, {}, view.title), view.variant);
  document.title = `${title} — abstracta`;
  const status = h("div", { class: "status", id: "status", "aria-live": "polite" });
  const banner = h("div", { class: "result", id: "result", hidden: true });
  // the computer's move that failed on the server, under the status line (drawBotError)
  const botError = h("div", { class: "bot-error", id: "bot-error", role: "status", hidden: true });
  // the board takes the keyboard focus itself: the module's key handler gets the keys there
  const boardBox = h("div", { class: "boardbox", id: "board", tabindex: "0", role: "application",
    "aria-label": t("match.board"), "aria-describedby": "board-text" });
  const boardText = h("div", { class: "sr-only", id: "board-text", "aria-live": "polite" });
  const boardSay = h("div", { class: "sr-only", id: "board-say", "aria-live": "assertive" });
  // a refused click answered at the board (a board module's ctx.note): the notes under the board
  // are often below the fold on a phone; said aloud through board-say, so hidden from readers here
  const boardNote = h("p", { class: "board-note", id: "board-note", hidden: true, "aria-hidden": "true" });
  const note = (text) => { boardNote.textContent = text || ""; boardNote.hidden = !text; };
  let keyHandler = null;
  boardBox.addEventListener("keydown", (ev) => {
    if (keyHandler && keyHandler(ev)) { ev.preventDefault(); ev.stopPropagation(); }
  });
  const controls = h("div", { class: "controls", id: "controls" });
  const err = h("p", { class: "error", id: "error", hidden: true });
  const posText = h("pre", { class: "position small", id: "position-text" });
  const legalBox = h("div", { class: "legal", id: "legal" });
  const entry = h("input", { id: "move-input", placeholder: t("match.type_eg", { move: view.legal[0] || "" }), autocomplete: "off", autocapitalize: "off",
    spellcheck: "false", "aria-label": t("match.type") });
  const entryForm = h("form", { class: "entry", hidden: spectator }, entry, h("button", { type: "submit" }, t("match.play")));
  const textBox = h("details", { open: !!(kept && kept.textOpen) }, h("summary", { class: "muted" }, t("match.position_text")), posText);
  if (kept) entry.value = kept.typed;
  const legalWrap = h("details", { class: "legalwrap", open: kept ? kept.legalOpen : !(mod && mod.render), hidden: spectator },
    h("summary", {}, t("match.legal_moves")), legalBox);
  const moveList = h("ol", { class: "moves", id: "moves" });
  const stepper = h("div", { class: "stepper" });
  const actions = h("div", { class: "actions" });
  const shareNote = h("p", { class: "muted share-note", id: "share-note", "aria-live": "polite" });
  const handover = h("div", { class: "handover", id: "handover", hidden: true });
  const players = h("p", { class: "players", id: "players" });
  const watching = h("p", { class: "watching", id: "watching", hidden: !spectator },
    t("match.watching"));
  const invitesBox = h("section", { class: "invites", id: "invites", hidden: true });
  // requests the other people answer: a takeback (README "Undo and takebacks") and a draw offer
  // (README "Draw offers") share one shape ({by, accepted}) and one kind of box
  // (each word a literal key, which tests/test_i18n.py finds in the catalogs)
  const takeback = requestBox({ id: "takeback", field: "takeback", ended: "takeback_ended",
    words: { asked: (who) => t("takeback.asked", { who }), asks: (who) => t("takeback.asks", { who }),
      asks_accepted: (who, accepted) => t("takeback.asks_accepted", { who, accepted }),
      you_accepted: (who, waiting) => t("takeback.you_accepted", { who, waiting }),
      waiting: (who) => t("takeback.asks_waiting", { who }),
      waiting_for: (who, accepted, waiting) => t("takeback.asks_waiting_for", { who, accepted, waiting }),
      declined: (who) => t("takeback.declined", { who }), declined_other: (who, by) => t("takeback.declined_other", { who, by }),
      // a takeback that happened (a draw accepted ends the game instead)
      accepted: (by) => t("takeback.accepted_note", { by }), accepted_mine: () => t("takeback.accepted_mine"),
      accept: () => t("takeback.accept"), decline: () => t("takeback.decline"), withdraw: () => t("takeback.withdraw") },
    answering: (tb) => myPeople.some((i) => i !== tb.by && !tb.accepted.includes(i)), others: (tb) => othersWord(tb.by),
    // a takeback waits for every other person seat (the view's request names those that accepted)
    waiting: (tb) => humans.filter((i) => i !== tb.by && !tb.accepted.includes(i)) });
  const drawOffer = requestBox({ id: "drawoffer", field: "draw_offer", ended: "draw_offer_ended", path: "draw/answer",
    words: { asked: (who) => t("draw.asked", { who }), asks: (who) => t("draw.asks", { who }),
      asks_accepted: (who, accepted) => t("draw.asks_accepted", { who, accepted }),
      you_accepted: (who, waiting) => t("draw.you_accepted", { who, waiting }),
      waiting: (who) => t("draw.asks_waiting", { who }),
      waiting_for: (who, accepted, waiting) => t("draw.asks_waiting_for", { who, accepted, waiting }),
      // said under a finger too (a disabled button's title is not): how long before offering again
      declined: (who) => [t("draw.declined", { who }), view.draw_again_in > 0 ? t("draw.again_in", { n: view.draw_again_in }) : ""].join(" ").trim(),
      declined_other: (who, by) => t("draw.declined_other", { who, by }),
      accept: () => t("draw.accept"), decline: () => t("draw.decline"), withdraw: () => t("draw.withdraw") },
    answering: (offer) => offer.waiting.some((i) => mySeats.includes(i)),
    others: (offer) => seatsWord(offer.waiting.filter((i) => !mySeats.includes(i))), waiting: (offer) => offer.waiting });
  const takebackBox = takeback.box, drawBox = drawOffer.box;
  // the analysis board (analysis.js): finished games, and hints against the computer
  // the answers it has (a hint, a position's evaluation, the graph) are the same position's
  const analysis = analysisPanel({ id, getView: () => view, open: !!(kept && kept.analysisOpen), kept: same ? kept.analysis : null, boardBox, seatName, stepTo: (ply) => stepTo(ply),
    say: (text) => { boardSay.textContent = text; },
    // the server's termination: a resignation, a flag or a draw agreed ended it, not the rules
    ended: () => (view.status === "over" && ["resignation", "time", "agreement"].includes(view.termination) ? resultLine(view, seatName, outTurns(view)) : null),
    shownPly: () => (replayPly === null ? view.ply : replayPly) });

  app.append(h("div", { class: "matchhead" }, h("h1", {}, title), players),
    watching, status, botError, banner, handover, takebackBox, drawBox, invitesBox,
    h("div", { class: "play" },
      h("div", { class: "left" }, boardBox, boardNote, boardText, boardSay, controls, err, textBox),
      h("aside", { class: "right" },
        legalWrap, entryForm,
        analysis.node, h("h2", {}, t("match.moves")), stepper, moveList, actions, shareNote)));
  // what a language switch keeps (see keepPage): the hand-over confirmed, the ply on screen,
  // the board's pick (its struct), the analysis answers, the boxes open and a move half typed
  keepPage = () => ({ id, shownSeat, replayPly, positions, revision: view.revision, viewer: view.viewer, struct: view.struct,
    analysisOpen: analysis.isOpen(), analysis: analysis.kept(), legalOpen: legalWrap.open, textOpen: textBox.open, typed: entry.value });

  // whose eyes: the server derives them from the tokens sent (api.js), so no ?seat= (a browser
  // without the seat's token, a spectator, would be refused one)
  const seatParam = () => "";

  // Every state the page receives (answers to moves, undo and resign, WebSocket pushes, polls)
  // comes through here: anything older than the revision on screen is ignored, since a live
  // push of the computer's reply can overtake the HTTP answer to the person's own move.
  function accept(fresh) {
    if (!fresh || typeof fresh.revision !== "number") return false;
    if (fresh.revision >= view.revision) syncClock(fresh);
    const newer = fresh.revision > view.revision ||
      (fresh.revision === view.revision && (fresh.thinking !== view.thinking || fresh.viewer !== view.viewer));
    if (!newer) return false;
    if (fresh.revision > view.revision) showError(err, null); // a new position: an old refusal is stale
    const eyes = view.viewer;
    // a new revision may show earlier plies otherwise (a takeback, cards revealed at the end),
    // other eyes other hands; a computer starting or stopping to think (the same revision)
    // changes no ply: refetching then cost a spectator of two computers two pages a move
    if (fresh.revision !== view.revision || fresh.viewer !== eyes) positions = null;
    view = fresh;
    // the same eyes step on in the replay (fetched again, then drawn); other eyes (the hand
    // passed) get the live view at once: the replay on screen is the last seat's
    // (a step still waiting for its page goes on there: it was the last one asked)
    const aim = pendingPly !== null ? pendingPly : replayPly;
    if (aim !== null && aim < view.ply && view.viewer === eyes && !needsHandover()) { stepTo(aim); return true; }
    replayPly = null;
    pendingPly = null;
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

  // ---- clocks
  function syncClock(fresh) {
    clockBase = fresh.clock ? { left: fresh.clock.left.slice(), running: fresh.clock.running,
      at: performance.now(), revision: fresh.revision } : null;
    clearInterval(clockTimer);
    clockTimer = null;
    if (clockBase && clockBase.running !== null && fresh.status === "playing") clockTimer = setInterval(tickClock, 100);
  }
  const secondsLeft = (i) => {
    if (!clockBase) return null;
    const used = clockBase.running === i ? (performance.now() - clockBase.at) / 1000 : 0;
    return Math.max(0, clockBase.left[i] - used);
  };
  // Low on time: under 20 s, or 10 % of the initial time where that is less (a 1-minute game is
  // not red for a third of it), but never later than 10 s (the rule before, and a person's time
  // to see it and move); 20 s at most, or a 15-minute game would be red for a minute and a half
  // and red would stop meaning hurry. A day per move counts from its day: 20 s too.
  const lowBelow = (control) => Math.min(20, Math.max(10, 0.1 * ((control && (control.initial ?? control.per_turn)) || 0)));
  function tickClock() {
    if (stopped || !clockBase) return;
    const long = view.clock && view.clock.control && view.clock.control.per_turn !== undefined;
    const below = lowBelow(view.clock && view.clock.control);
    const out = (view.clock && view.clock.out) || [];
    for (const span of players.querySelectorAll(".clock")) {
      const i = Number(span.dataset.clock);
      const left = secondsLeft(i);
      const text = out.includes(i) ? t("clock.out") : clockText(left, long);
      if (span.textContent !== text) span.textContent = text;
      const running = clockBase.running === i && view.status === "playing";
      const low = left < below && view.status === "playing" && !out.includes(i);
      span.classList.toggle("running", running);
      span.classList.toggle("low", low);
      span.classList.toggle("urgent", low && running); // the time running out now: bold, pulsing
    }
    const r = clockBase.running;
    if (r === null || view.status !== "playing" || secondsLeft(r) > 0) return;
    const key = `${clockBase.revision}:${r}`;
    if (flagKey === key) return;
    flagKey = key; // once per fallen flag: the server applies it by itself too
    claimFlag();
  }
  async function claimFlag() {
    if (spectator) { refresh(); return; } // a spectator's look applies a fallen flag too
    try {
      accept(await api(`/api/matches/${id}/flag`, { method: "POST" }));
      setConnection(true);
    } catch (e) {
      if (e.status === 409) setTimeout(refresh, 700); // not quite fallen here yet, or applied already
      else fail(e);
    }
  }

  // the other people at the match, in words ("Black", "Player 2", "the others")
  function othersWord(except) {
    return seatsWord(humans.filter((i) => i !== except && !mySeats.includes(i)));
  }

  // ---- invitations: the links of the open person seats, for a browser that plays here
  let invitesKey = null;
  function drawInvites() {
    const open = humans.filter((i) => !view.claimed[i]);
    const codes = invitesOf(id);
    const show = mySeats.length > 0 && open.length > 0 && view.status === "playing";
    const key = JSON.stringify([show, open, open.map((i) => codes[i] || null)]);
    if (key === invitesKey) return;
    invitesKey = key;
    invitesBox.hidden = !show;
    invitesBox.replaceChildren();
    if (!show) return;
    const note = h("p", { class: "muted", id: "invites-note", "aria-live": "polite" });
    invitesBox.append(h("h2", {}, t("invite.heading", { n: open.length })),
      h("p", {}, t("invite.help") + (view.clock ? " " + t("invite.clocks") : "")));
    for (const i of open) {
      const code = codes[i];
      const row = h("div", { class: "invite", "data-invite": i }, h("label", { for: `invite-link-${i}` }, `${seatName(i)}:`));
      if (code) {
        const url = `${location.origin}/#/join/${code}`;
        const input = h("input", { id: `invite-link-${i}`, value: url, readonly: true, onfocus: (ev) => ev.target.select() });
        row.append(input, h("button", { type: "button", id: `copy-${i}`, onclick: async () => {
          try {
            await navigator.clipboard.writeText(url);
          } catch {
            input.select(); // no clipboard permission (plain http): the old way
            document.execCommand("copy");
          }
          note.textContent = t("invite.copied", { seat: seatName(i) });
        } }, t("invite.copy")));
      } else {
        row.append(h("span", { class: "muted" }, t("invite.elsewhere")));
      }
      invitesBox.append(row);
    }
    invitesBox.append(h("div", { class: "row" }, h("button", { type: "button", id: "reinvite", onclick: async () => {
      try {
        const r = await api(`/api/matches/${id}/invites`, { method: "POST" });
        keepInvites(id, r.invites, true);
        drawInvites();
        invitesBox.querySelector("#invites-note").textContent = t("invite.renewed");
      } catch (e) { fail(e); }
    } }, t("invite.new_links")), note));
  }

  // some seats in words ("Black", "Blue, Red"), else "the others"
  function seatsWord(seats) {
    const names = seats.map(seatName);
    return names.length ? t("takeback.names", { names }) : t("takeback.others");
  }

  // A request the other people answer, pending in the view's `field` ({by, accepted, …}), said
  // in `words`; the answer is POSTed to `path` ({accept}); `answering(pending)`: whether this
  // page must answer it, `others(pending)`: who the page's own request waits for, `waiting(pending)`:
  // the seats still to answer. With 3–4 players a page that accepted is told whom it still
  // waits for, and one still to answer who accepted. The view's `ended` field says how the last
  // one ended, at this position: the page that made it, and every page that had accepted it,
  // is told who declined it — not when it was withdrawn (from another tab of the same seat too),
  // lapsed or made void by a flag, which no other player declined; a takeback that happened is
  // said to every page, spectators too (a move just vanishing from the list tells nothing).
  function requestBox({ id: boxId, field, ended, words, path = `${field}/answer`, answering, others, waiting }) {
    const box = h("div", { class: "takeback", id: boxId, hidden: true, "aria-live": "polite" });
    let key = null;
    return {
      box,
      draw() {
        const req = view.status === "playing" ? view[field] : null;
        const asker = req && mySeats.includes(req.by);
        const answers = req && !asker && answering(req);
        const gone = view.status === "playing" && !req ? view[ended] : null;
        const told = gone && (mySeats.includes(gone.by) || (gone.accepted || []).some((i) => mySeats.includes(i)));
        let note = "";
        if (gone && gone.how === "declined" && told && !mySeats.includes(gone.seat)) {
          note = mySeats.includes(gone.by) ? words.declined(seatName(gone.seat)) : words.declined_other(seatName(gone.seat), seatName(gone.by));
        } else if (gone && gone.how === "accepted") {
          note = mySeats.includes(gone.by) ? words.accepted_mine() : words.accepted(seatName(gone.by));
        }
        const now = JSON.stringify([req, asker, answers, note]);
        if (now === key) return;
        key = now;
        box.replaceChildren();
        box.hidden = !req && !note;
        if (!req) { if (note) box.append(h("span", { id: `${boxId}-text` }, note)); return; }
        const answer = (accept) => post(path, { accept });
        const accepted = req.accepted.filter((i) => i !== req.by);
        if (asker) {
          box.append(h("span", { id: `${boxId}-text` }, words.asked(others(req))),
            h("button", { type: "button", id: `${boxId}-withdraw`, onclick: () => answer(false) }, words.withdraw()));
        } else if (answers) {
          const said = accepted.some((i) => !mySeats.includes(i))
            ? words.asks_accepted(seatName(req.by), seatsWord(accepted.filter((i) => !mySeats.includes(i))))
            : words.asks(seatName(req.by));
          box.append(h("span", { id: `${boxId}-text` }, said),
            h("span", { class: "request-answer" },
              h("button", { type: "button", class: "primary", id: `${boxId}-accept`, onclick: () => answer(true) }, words.accept()),
              h("button", { type: "button", id: `${boxId}-decline`, onclick: () => answer(false) }, words.decline())));
        } else if (accepted.some((i) => mySeats.includes(i))) {
          box.append(h("span", { id: `${boxId}-text` }, words.you_accepted(seatName(req.by), seatsWord(waiting(req)))));
        } else if (accepted.length) {
          box.append(h("span", { id: `${boxId}-text` }, words.waiting_for(seatName(req.by), seatsWord(accepted), seatsWord(waiting(req)))));
        } else {
          box.append(h("span", { id: `${boxId}-text` }, words.waiting(seatName(req.by))));
        }
      },
    };
  }

  // A draw offer is confirmed first, as a resignation is (a tap near Resign must not offer one)
  function offerDraw() {
    if (!confirm(t("draw.offer_confirm"))) return;
    post("draw");
  }

  // ---- a computer that could not move (view.bot_error, README "Computer players"), or whose
  // move a quick search played: said as a refused move is, in the reader's language where the
  // server sent it as a message too. While it cannot move, what this page can do about it: an
  // undo (between people, a takeback) starts its search again once the person plays on; with no
  // move of this page's to take back, a new game
  let botErrorKey = null;
  function drawBotError(stuck, humansOut, hide) {
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
        h("button", { type: "button", id: "bot-error-undo", onclick: () => post("undo"), disabled: hide }, t("match.undo"))));
    } else if (next === "takeback") {
      botError.append(h("p", { id: "bot-error-next" }, t("bot_error.takeback"), " ",
        h("button", { type: "button", id: "bot-error-takeback", onclick: () => post("takeback"), disabled: hide || !!view.takeback,
          title: view.takeback ? t("takeback.pending") : null }, t("takeback.ask"))));
    } else if (next === "new_game") {
      botError.append(h("p", { id: "bot-error-next" }, t("bot_error.new_game"), " ",
        h("a", { class: "button", href: `#/new/${view.game}`, id: "bot-error-new" }, t("home.new_game"))));
    }
    focus();
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
      root.dataset.live = "socket"; // read by the browser tests
    };
    socket.onmessage = (ev) => {
      let fresh;
      try { fresh = JSON.parse(ev.data); } catch { return; }
      if (fresh && !fresh.error) { setConnection(true); accept(fresh); }
    };
    socket.onclose = () => {
      socket = null;
      root.dataset.live = "polling";
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

  // one action string, or a list the seat plays in a row within its turn (applied all or none);
  // typed text at the start of a turn of a game with a whole-turn notation (the server lists
  // view.turns then) goes as a whole turn, which the server reads as the terminal does: "a1"
  // takes a1 and ends the turn, where the engine action "a1" could leave it open
  async function send(text, typed = false) {
    if (sending) return;
    sending = true;
    showError(err, null);
    const body = Array.isArray(text) ? { actions: text, ply: view.ply }
      : typed && view.turns ? { turn: text, ply: view.ply } : { action: text, ply: view.ply };
    const before = view.revision;
    try {
      const mine = await api(`/api/matches/${id}/actions${seatParam()}`, { method: "POST", body });
      if (view.revision > before && mine.revision > before && mine.revision < view.revision) {
        // the computer's reply came (live update) before the answer to my move: show my move
        // first, so the board animates mine and then the reply, not both as one turn
        const reply = view;
        view = mine;
        draw();
        view = reply;
      } else accept(mine);
      showLive();
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
      showLive();
      setConnection(true);
      draw();
      schedule();
    } catch (e) { fail(e); }
  }

  // The question is modal: the hand may pass while it is open (a move still on its way, another
  // tab of this device), and its answer would resign for the seat whose hand has left the
  // screen. Between people sharing a device with hidden hands the page asks the server again
  // first: a new position (a move, an undo) or other eyes cancel the resignation, say so and
  // bring up the hand-over screen; a new revision that moved nothing (a takeback asked, a hint
  // counted) leaves the same seat resigning, as it confirmed.
  async function resign(seat) {
    if (!confirm(t("match.resign_confirm"))) return;
    if (hotSeatHidden) {
      const asked = { ply: view.ply, viewer: view.viewer };
      await refresh();
      if (view.status === "over") { draw(); return; } // the result line says how it ended
      if (view.ply !== asked.ply || view.viewer !== asked.viewer || needsHandover()) {
        draw();
        showError(err, new Error(t("match.resign_cancelled")));
        return;
      }
    }
    post("resign", seat !== null ? { seat } : {});
  }

  entryForm.addEventListener("submit", (ev) => { ev.preventDefault(); if (!entry.readOnly && entry.value.trim()) send(entry.value.trim(), true); });

  async function stepTo(ply) {
    const step = ++stepSeq;
    pendingPly = null;
    if (ply === null || ply >= view.ply) { replayPly = null; draw(); return; }
    if (needsHandover()) return; // nothing of a seat behind the hand-over screen
    ply = Math.max(0, ply);
    if (!replayPage(ply)) {
      const asked = { revision: view.revision, viewer: view.viewer, shown: shownSeat };
      pendingPly = ply;
      drawStepper(); // ◀ and ▶ go on from the ply asked (▶ too, from the live position)
      let page;
      try {
        page = await fetchPage(ply);
      } catch (e) {
        if (step !== stepSeq) return; // a later step says what went wrong, if anything did
        pendingPly = null;
        fail(e);
        if (replayPly !== null && !replayPage(replayPly)) draw(); // the ply on screen has no page any more
        else drawStepper();
        return;
      }
      // an answer for a view no longer on screen is dropped: in pass and play it shows the
      // other person's hand. A newer position or other eyes arrived meanwhile (that view steps
      // again if it may); or the answer is newer than the page's view: fetch that view first
      if (view.revision !== asked.revision || view.viewer !== asked.viewer || shownSeat !== asked.shown) return;
      if (page.revision !== view.revision || page.viewer !== view.viewer) {
        if (page.revision > view.revision) refresh();
        return;
      }
      if (!(positions || []).some((p) => p.from === page.from)) {
        positions = [...(positions || []), { from: page.from, to: page.to, texts: page.positions, structs: page.structs }];
      }
      if (step !== stepSeq) return; // a later step draws where it goes
      pendingPly = null;
      if (!replayPage(ply)) { drawStepper(); return; }
    }
    replayPly = ply;
    draw();
  }

  // The page of positions holding `ply`, asked once for the view on screen however many steps
  // wait for it. Aligned pages: every viewer of a match asks for the same ones, which the
  // server keeps.
  function fetchPage(ply) {
    const from = Math.floor(ply / REPLAY_PAGE) * REPLAY_PAGE;
    const key = `${view.revision}/${view.viewer}/${shownSeat}/${from}`;
    if (!loading.has(key)) {
      loading.set(key, api(`/api/matches/${id}/positions?from=${from}`).finally(() => loading.delete(key)));
    }
    return loading.get(key);
  }

  // after a move, an undo or a resignation of this page: the live position, and a step still
  // waiting for its page is not drawn when the page comes
  function showLive() {
    replayPly = pendingPly = null;
    stepSeq++;
  }

  // where the next step counts from: the ply a step waits for, else the ply on screen
  function aimedPly() {
    return pendingPly !== null ? pendingPly : replayPly === null ? view.ply : replayPly;
  }

  // the stepper: the ply on screen, and ◀ ▶ counting from the ply the last step asked for
  function drawStepper() {
    const live = replayPly === null;
    const aim = aimedPly();
    const hide = needsHandover();
    const stepFocus = keepFocus(stepper);
    stepper.replaceChildren(
      h("span", { class: "at", id: "step-at", "aria-hidden": "true" }, `${live ? view.ply : replayPly} / ${view.ply}`), // the status line says it in words
      h("button", { type: "button", title: t("step.start"), "aria-label": t("step.start"), onclick: () => stepTo(0), disabled: view.ply === 0 || hide }, "|◀"),
      h("button", { type: "button", title: t("step.back"), "aria-label": t("step.back"), id: "step-back", onclick: () => stepTo(aimedPly() - 1), disabled: view.ply === 0 || aim === 0 || hide }, "◀"),
      h("button", { type: "button", title: t("step.forward"), "aria-label": t("step.forward"), id: "step-fwd", onclick: () => stepTo(aimedPly() + 1), disabled: aim >= view.ply }, "▶"),
      h("button", { type: "button", title: t("step.live"), "aria-label": t("step.live"), onclick: () => stepTo(null), disabled: live && pendingPly === null }, "▶|"));
    stepFocus();
  }

  function replayPage(ply) {
    return (positions || []).find((p) => p.from <= ply && ply <= p.to) || null;
  }

  function draw() {
    window.abstractaView = view; // read by the browser tests
    const over = view.status === "over";
    const needHandover = needsHandover();
    const hide = needHandover;
    if (hide) replayPly = pendingPly = null; // nothing seat-specific while the hand-over screen is up
    // a new position dropped the replay's pages and their fetch is still on its way, or was
    // lost: the live position until a page for the ply is held (stepTo draws it then)
    if (replayPly !== null && !replayPage(replayPly)) replayPly = null;
    const live = replayPly === null;
    // the seats, each with its clock (people only: computer seats have none)
    players.replaceChildren(...view.players.flatMap((p, i) => [i ? ` ${t("match.vs")} ` : "",
      h("span", { class: "seat", "data-player": i }, who(i),
        !named && p === "human" && !view.claimed[i] ? ` (${t("seat.tag.invited")})` : null,
        view.clock && p === "human" ? [" ", h("span", { class: "clock", "data-clock": i })] : null)]));
    tickClock();
    // no move is played before every seat is taken (the server refuses it): none offered either
    const waiting = view.waiting_for || [];
    const myTurn = view.human_to_move && mySeats.includes(view.to_move) && !waiting.length;
    // a computer seat to move that does not think: its search or its move failed (bot_error)
    const stuck = !over && !!view.bot_error && view.to_move !== null && !view.human_to_move && !view.thinking;
    // status line
    let s;
    if (over) s = t("status.over");
    else if (connLost) s = t("status.lost");
    else if (view.thinking) s = t("status.thinking", { who: `${seatName(view.to_move)}${compTag}` });
    else if (stuck) s = t("status.stuck", { who: `${seatName(view.to_move)}${compTag}` });
    else if (waiting.length) s = t("status.waiting_seat", { who: seatsWord(waiting) });
    else if (view.to_move !== null && myTurn && (distance || myPeople.length === 1)) s = seatName(view.to_move) === you ? t("status.your_move") : t("status.your_move_as", { who: seatName(view.to_move) });
    else if (view.to_move !== null) s = seatName(view.to_move) === you ? t("status.your_move") : t("status.to_move", { who: seatName(view.to_move) + (view.human_to_move ? "" : compTag) });
    else s = "";
    // turns numbered as the move list numbers them, so that "turn 21" is the list's "21." (two
    // players: "round 11" is the list's row "11.")
    if (!live) {
      const { turn, turns } = turnOfPly(view.turn_numbers, replayPly);
      const move = movedAt(view, replayPly);
      const rows = view.num_players === 2 ? moveRows(view.move_list, 2) : null;
      const { round, rounds } = rows ? roundOfPly(rows, replayPly) : { round: 0, rounds: 0 };
      if (replayPly === 0) {
        s = rounds ? t("status.replay_start_round", { rounds }) : turns ? t("status.replay_start", { turns, of: view.ply })
          : t("status.replay_start_unnumbered");
      } else if (!turn) s = t("status.replay_before_turns", { move, ply: replayPly, of: view.ply });
      else if (round) s = t("status.replay_round", { round, rounds, move, ply: replayPly, of: view.ply });
      else s = t("status.replay", { turn, turns, move, ply: replayPly, of: view.ply });
    }
    status.textContent = s;
    // a spectator of a finished game waits for no move: the note says where the moves are
    watching.textContent = over ? t("match.watching_over") : t("match.watching");
    status.classList.toggle("thinking", !!view.thinking && live && !connLost);
    status.classList.toggle("lost", connLost && !over);
    // a person knocked out of a 3-4 player game is told, and loses the controls of a player
    const struct0 = view.struct || {};
    const out = new Map((struct0.eliminated || []).map((e) => [e.seat, fmt(e.message, e.text)]));
    for (const i of (view.clock && view.clock.out) || []) if (!out.has(i)) out.set(i, t("clock.out"));
    const humansOut = myPeople.length > 0 && myPeople.every((i) => out.has(i));
    banner.hidden = !over && !myPeople.some((i) => out.has(i));
    banner.classList.toggle("out", !over && !banner.hidden);
    banner.textContent = over ? resultText(view, seatName, own)
      : myPeople.filter((i) => out.has(i)).map((i) => (seatName(i) === you ? t("out.you", { why: out.get(i) }) : t("out.seat", { who: seatName(i), why: out.get(i) }))).join(" ");

    const handingOver = needHandover && handover.hidden;
    handover.hidden = !needHandover;
    handover.replaceChildren();
    // the screen stands between the seats: nothing behind it acts for either of them (the
    // board, a takeback's answer, a hint…; Resign and Undo are disabled below), by pointer or
    // keyboard; the rules, a new game, the position text's disclosure stay
    for (const box of [boardBox, controls, legalWrap, entryForm, analysis.node, moveList, stepper, takebackBox, drawBox, invitesBox, botError]) {
      box.inert = needHandover;
    }
    if (needHandover) {
      // the board takes the focus the button had (it goes with the screen): the next person plays there
      const ok = h("button", { type: "button", class: "primary", id: "handover-ok", onclick: () => { shownSeat = view.viewer; draw(); boardBox.focus(); } },
        t("handover.ok", { who: seatName(view.viewer) }));
      handover.append(h("p", {}, t("handover.pass", { who: seatName(view.viewer) })), ok);
      if (handingOver) ok.focus(); // the keyboard's focus was behind the screen
    }

    // board
    const page = live ? null : replayPage(replayPly);
    const position = live ? view.position : page.texts[replayPly - page.from];
    const struct = live ? view.struct : page.structs[replayPly - page.from];
    const interactive = live && !over && myTurn && !view.thinking && !hide && !connLost;
    // the same picture is not drawn twice (a redraw would restart a module's animation)
    const ended = over ? { result: view.result, termination: view.termination, text: resultText(view, seatName, own) } : null;
    const renderKey = JSON.stringify([hide, struct, interactive, live, ended, connLost]);
    // what the last click said ("e4 selected. 3 moves: …") is no longer true once the game has
    // ended; a board module may still say something of the end as it draws it (below)
    if (over && !endHeard) boardSay.textContent = "";
    endHeard = over;
    if (renderKey !== lastRenderKey) {
      lastRenderKey = renderKey;
      // what was said of the board before ("the stone on b2 must capture again") described a
      // position or a turn that has gone: said afresh, if at all, by the board drawn now
      boardSay.textContent = "";
      note("");
      boardBox.replaceChildren();
      controls.replaceChildren();
      keyHandler = null;
      if (hide) {
        boardBox.append(h("p", { class: "hidden-note" }, t("handover.hidden")));
        // the words of the last seat's board (its hand) and what it last said (a card picked)
        // would stay in the page for the next person to read
        boardText.textContent = t("handover.hidden");
        boardSay.textContent = "";
      } else if (mod && mod.render) {
        try {
          // the board module draws the structured view and sends action strings (docs/board-modules.md)
          const ctx = {
            struct, interactive, play: send, controls, live,
            palette: view.board || {}, seats: view.seats || [], seatName,
            ended, // the end of the match ({result, termination, text}; a resignation too), or null
            onKey: (fn) => { keyHandler = fn; }, // fn(KeyboardEvent) -> true when it used the key
            say: (text) => { boardSay.textContent = text; note(""); }, // spoken at once by screen readers
            // why a click did nothing, in the view's words: shown at the board and spoken
            note: (text) => { boardSay.textContent = text; note(text); },
            refresh: () => { if (mod.describe) boardText.textContent = mod.describe(struct, ctx); },
          };
          mod.render(boardBox, ctx);
          const text = mod.describe ? mod.describe(struct, ctx) : "";
          if (boardText.textContent !== text) boardText.textContent = text;
          // a module's key help: a function (in the reader's language) or a plain sentence
          const keyHelp = typeof mod.keyHelp === "function" ? mod.keyHelp() : mod.keyHelp;
          if (keyHelp) boardBox.setAttribute("aria-label", `${t("match.board")}. ${keyHelp}`);
        } catch (e) {
          console.error(e);
          boardBox.replaceChildren(h("pre", { class: "position" }, position));
          boardText.textContent = ""; // the text board is read as it is; no earlier words stay
        }
      } else {
        boardBox.append(h("pre", { class: "position" }, position));
        boardText.textContent = "";
      }
    }
    posText.textContent = hide ? t("handover.hidden") : position;

    // legal moves as buttons
    const legalFocus = keepFocus(legalBox, legalWrap.querySelector("summary"));
    legalBox.replaceChildren();
    if (interactive) {
      for (const m of view.legal) legalBox.append(h("button", { type: "button", class: "move", "data-move": m, onclick: () => send(m) }, m));
    } else {
      legalBox.append(h("span", { class: "muted" }, over ? t("match.over_note") : connLost ? t("match.waiting_server") : hide ? t("handover.hidden")
        : (live ? t("match.not_your_move") : t("match.replaying"))));
    }
    legalFocus();
    // a spectator and a finished game have no move to pick or type: nothing greyed is shown
    legalWrap.hidden = entryForm.hidden = spectator || over;
    // read-only, not disabled, while it is not this seat's move: a disabled box loses the
    // focus, and whoever typed a move was left on the page's <body> until the next turn
    entry.readOnly = !interactive;
    entry.setAttribute("aria-disabled", String(!interactive));
    entry.placeholder = interactive && view.legal.length ? t("match.type_eg", { move: view.legal[0] }) : t("match.type");

    // move list: each turn written by the server as the terminal's replay writes it
    // (view.move_list: Game.format_turn, a turn written whole as "b2+i8" or "a1"); each entry a step of the
    // replay to the ply the server gives (an entry that writes the whole turn: its end), and
    // marked while the shown ply is one it covers. In rows (moveRows): two players a round a
    // row, chess-like; three or four a turn a row, numbered as the board numbers turns (none
    // before the first: placements)
    const listFocus = keepFocus(moveList);
    moveList.replaceChildren();
    const shownPly = live ? view.ply : replayPly;
    const shows = (turn) => !!turn && shownPly > turn.from && shownPly <= turn.to;
    const colourOf = (seat) => {
      const style = seat !== null && seat >= 0 && view.seats ? view.seats[seat] : null;
      return style && style.colour ? { background: style.colour, color: style.ink || "#fff" } : null; // the seat's own colour
    };
    // one turn's entries after its seat's badge: a row of its own, or a half of a round's row
    const turnBox = (turn, half) => {
      const seat = turn.seat;
      const known = seat !== null && seat >= 0;
      const colour = colourOf(seat);
      // its own number where the row's is the round's ("Green, turn 12")
      const title = !known ? null : half && turn.number > 0 ? t("moves.turn_title", { who: seatName(seat), n: turn.number }) : seatName(seat);
      const box = h("span", { class: `turn seat${seat}` + (shows(turn) ? " current" : ""), title },
        known ? h("span", { class: `who seat${seat}`, "aria-label": seatName(seat),
          style: colour ? `background: ${colour.background}; color: ${colour.color}; border: 0` : null }, abbrev(seat)) : null);
      turn.moves.forEach((text, k) => {
        const ply = turn.plies[k];
        const before = k ? turn.plies[k - 1] : turn.from;
        box.append(k ? ", " : known ? " " : "");
        // a link to this match (a new tab opens the game), a step here: the policy refuses the
        // javascript: URL such a link used to have, logging a violation at every click
        box.append(h("a", { href: `#/match/${encodeURIComponent(id)}`, "data-ply": ply, class: shownPly > before && shownPly <= ply ? "at" : null,
          onclick: (ev) => { ev.preventDefault(); if (!hide) stepTo(ply); } }, text));
      });
      return box;
    };
    for (const row of moveRows(view.move_list, view.num_players)) {
      // a turn's row: the seat's colour at its edge (a round's row: at each half's badge)
      const only = row.paired ? null : row.turns[0];
      const colour = only ? colourOf(only.seat) : null;
      const li = h("li", { class: (row.paired ? "pair" : `seat${only.seat}`) + (row.turns.some(shows) ? " current" : ""),
        style: colour ? `border-left-color: ${colour.background}` : null },
        row.number ? h("span", { class: "n" }, `${row.number}.`) : row.paired ? h("span", { class: "n" }) : null, row.number ? " " : null);
      row.turns.forEach((turn, k) => {
        if (!turn && k) return; // the round's second turn is still to come
        if (k) li.append(" ");
        // a round opened by the second seat: "3. …  B e3-d3A", as chess writes "3... e5"
        li.append(turn ? turnBox(turn, row.paired) : h("span", { class: "turn empty", "aria-hidden": "true" }, "…"));
      });
      moveList.append(li);
    }
    moveList.classList.toggle("paired", view.num_players === 2);
    moveList.hidden = !view.moves.length;
    listFocus();
    stepper.hidden = !view.moves.length;
    const cur = moveList.querySelector("li.current");
    if (cur) scrollWithin(moveList, cur);
    // on a phone the stepper is under the board and its notes, out of sight of the board: while
    // a game is studied (over, or a move back) it floats at the foot of the screen (style.css)
    stepper.classList.toggle("floating", over || !live);
    drawStepper();

    drawInvites();
    takeback.draw();
    drawOffer.draw();
    drawBotError(stuck, humansOut, hide);
    // actions: between people an undo is a request the others answer; against the computer or
    // on one device it is immediate
    const resignSeat = myTurn ? view.to_move : myPeople.length === 1 ? myPeople[0] : null;
    const actionFocus = keepFocus(actions);
    actions.replaceChildren(...[
      spectator ? null : distance
        ? h("button", { type: "button", id: "undo", onclick: () => post("takeback"),
          disabled: over || view.ply === 0 || hide || humansOut || !!view.takeback,
          title: view.takeback ? t("takeback.pending") : null }, t("takeback.ask"))
        : h("button", { type: "button", id: "undo", onclick: () => post("undo"), disabled: !myPeople.length || over || view.ply === 0 || hide || humansOut,
          title: over ? t("match.over_title") : null }, t("match.undo")),
      spectator ? null : h("button", { type: "button", id: "resign", onclick: () => resign(resignSeat), disabled: over || !myPeople.length || humansOut || hide }, t("match.resign")),
      // against the computer there is no draw to offer (it never agrees; the server says when one can be)
      // shown disabled while an offer is pending, or this seat waits after one declined (the server's count)
      !over && (view.draw_offerable || view.draw_offer || view.draw_again_in > 0)
        ? h("button", { type: "button", id: "offer-draw", onclick: offerDraw, disabled: !view.draw_offerable || hide,
          title: view.draw_offer ? t("draw.pending") : view.draw_again_in > 0 ? t("draw.again_in", { n: view.draw_again_in }) : null },
        t("draw.offer"))
        : null,
      h("a", { class: "button", href: `#/new/${view.game}`, id: "new-game-link" }, t("home.new_game")),
      view.hidden_information && !over
        ? h("button", { type: "button", id: "download", disabled: true, "aria-describedby": "download-note" }, t("match.download"))
        : h("a", { class: "button", href: `/api/matches/${id}/record?download=true`, download: `${view.game}-${id}.json`, id: "download" }, t("match.download")),
      h("a", { class: "button", href: `#/rules/${view.game}` }, t("home.rules")),
      h("button", { type: "button", id: "share", onclick: shareLink }, t("match.share")),
      // why the record waits, in words on the page: a tooltip never shows under a finger
      view.hidden_information && !over ? h("small", { class: "muted note", id: "download-note" }, t("match.download_hidden")) : null].filter(Boolean));
    actionFocus();
    analysis.update();
    fitBoard();
  }

  // At the end of a game the whole board is in sight, under the result: on a phone the replay's
  // steps float at the foot of the screen (style.css) and the result stands above the board, and
  // a tall board (Fanorona's, upright) went on under the steps, its last row and labels hidden.
  // Then the board is only as tall as the room between its top and the foot of the screen or
  // the steps (never under 200 px: a very low screen scrolls instead), and no wider than the
  // screen (a phone's boards that pan sideways for a finger's targets show all of it: nothing is
  // played any more). In the middle of a game a step back keeps the board's size: it would
  // shrink and grow back under the finger.
  function fitBoard() {
    const svg = boardBox.querySelector("svg.board");
    const fit = !!svg && view.status === "over";
    boardBox.classList.toggle("fit", fit);
    if (!fit) return;
    const floating = !stepper.hidden && getComputedStyle(stepper).position === "fixed";
    const top = svg.getBoundingClientRect().top + window.scrollY;
    const room = window.innerHeight - (floating ? stepper.getBoundingClientRect().height : 0) - top - 8;
    boardBox.style.setProperty("--board-fit", `${Math.round(Math.max(room, 200))}px`);
  }

  // The match's address, to watch it (a spectator sees what the server shows anyone): a
  // phone's share sheet, else the clipboard, else the link written out to copy by hand
  async function shareLink() {
    const url = `${location.origin}/#/match/${encodeURIComponent(id)}`;
    shareNote.textContent = "";
    try {
      if (navigator.share && matchMedia("(pointer: coarse)").matches) {
        await navigator.share({ title: document.title, url });
        return;
      }
      await navigator.clipboard.writeText(url);
      shareNote.textContent = t("match.share_copied");
    } catch (e) {
      if (e && e.name === "AbortError") return; // the share sheet was closed
      shareNote.textContent = t("match.share_link", { url });
    }
  }

  document.addEventListener("keydown", (ev) => {
    if (stopped || !handover.hidden || ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA") return;
    if (boardBox.contains(ev.target)) return; // the board's own keys (see keyHandler)
    if (ev.key === "ArrowLeft") stepTo(aimedPly() - 1);
    else if (ev.key === "ArrowRight" && aimedPly() < view.ply) stepTo(aimedPly() + 1);
    // the start and the end of the game, as the stepper's |◀ and ▶| (not the page's top and foot)
    else if ((ev.key === "Home" || ev.key === "End") && !ev.ctrlKey && !ev.altKey && !ev.metaKey && view.ply > 0) {
      ev.preventDefault();
      stepTo(ev.key === "Home" ? 0 : null);
    }
  });

  syncClock(view);
  draw();
  if (kept && kept.replayPly !== null && replayPly === null) stepTo(kept.replayPly); // a newer position meanwhile
  openSocket();
  schedule();
}
