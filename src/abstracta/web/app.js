// The abstracta browser client: home page, rules pages, new-game form and the game page.
// Plain ES modules, hash routing (#/, #/rules/<game>, #/new/<game>, #/match/<id>, #/matches,
// #/join/<code>: an invitation to a seat; people's pages: see people.js).
import { api, allTokens, forgetTokens, forgetWatched, invitesOf, keepInvites, keepWatched, myMatches, tokensOf, watchedGames } from "./api.js";
import { h, keepFocus } from "./dom.js";
import { analysisLink, analysisPage, analysisPanel } from "./analysis.js";
import { lessonOffer, lessonPage, markKnown } from "./lesson.js";
import { fmt, lang, onLanguage, preferred, refusal, setLanguage, t, translateMarked } from "./i18n.js";
import { PAGES as PEOPLE_PAGES, drawMe, peoplePage, whoAmI } from "./people.js";
import { chatPanel } from "./chat.js";
import { liveLink, livePage, watcherCount } from "./live.js";
import { waitingLine, yourMove } from "./notify.js";
import { openRoom } from "./room.js";
import { clockPicker, lobbyPage } from "./lobby.js";
import { endText, matchExtras } from "./match-extras.js";
import { drawRatingChanges, ensurePerson, hasPeople, levelRatings, namedSeats, personName, ratedChoice, ratedMark, seatLabel } from "./names.js";

// the <main> element; each page draws into its own box in it (see route)
const root = document.getElementById("app");
let catalog = null;
let stopPage = () => {};
// The state of the page on screen that a language switch keeps (a page that has some sets it):
// the switch draws the page again for its words, and the reader's place on it must not change
let keepPage = () => null;
// plies per answer of GET …/positions (the server's matches.REPLAY_PAGE)
const REPLAY_PAGE = 100;

async function games() {
  if (!catalog) catalog = await api("/api/games");
  return catalog;
}

// Names of seats in games without colours: "You", "Computer (level N)", or "Player N" when
// several people share the device. `mine` (the seats this browser holds, when known): with
// people at a distance, the one seat held here is "You" and the others are "Player N".
export function defaultSeatName(i, players, mine) {
  const player = t("seat.player", { n: i + 1 });
  if (!players || !players[i]) return player;
  if (players[i].startsWith("level:")) {
    const level = players[i].slice(6);
    // two computers of one level would read the same ("Computer (level 1) wins"): numbered by seat
    return players.filter((p) => p === players[i]).length > 1 ? t("seat.computer_level_n", { n: i + 1, level })
      : t("seat.computer_level", { level });
  }
  const humans = players.filter((p) => p === "human").length;
  if (mine && humans > 1) return mine.length === 1 && mine[0] === i ? t("seat.you") : player;
  return humans === 1 && (!mine || mine.includes(i)) ? t("seat.you") : player;
}

// Seat names from the game's description (seats: [{name, colour, ink}]): the game's own name for
// a seat (White, Red) when it has one, else You / Computer / Player N.
function seatNamer(seats, players, mine) {
  return (i) => (seats && seats[i] && seats[i].name ? seatWord(seats[i]) : defaultSeatName(i, players, mine));
}
// A seat's name in the game (White) in the reader's language.
const seatWord = (seat) => t(seat.name_key, {}, seat.name);
// A game's words from its description: the catalog's, else the English the API sent.
const gameTitle = (g) => (g ? t(g.title_key, {}, g.title) : "");
// A match's name: the game's, with the declared variant its options make where it has one
// ("Game — Variant"; the server names it: view.variant, null at the game's defaults).
const matchTitle = (title, variant) => (variant ? t("game.with_variant", { game: title, variant: t(variant.label_key, {}, variant.label) }) : title);
const coloured = (seats) => !!(seats && seats.some((s) => s && s.name));

// The result line of a match (a view, or a row of the list): `resigned` and `out_of_time` name the
// seats the server recorded; in a 3–4 player game the seats the rules put out lost as well, so the
// losers alone do not tell who resigned. `outTurn` (seat -> turn, the match page's: outTurns): when
// the rules put each seat of a 3–4 player game out, said first in the order they went ("Green was
// knocked out on turn 41 — Blue and Red draw"); a row of the list does not know it and says such a
// seat lost. `said`: the seat whose own outcome the page said before the line (ownOutcome), whose
// fate the line leaves out; the end's winners or drawers are named in full all the same.
function resultLine(m, name, outTurn = new Map(), said = null) {
  const { result, termination } = m;
  if (!result) return "";
  const you = t("seat.you");
  const many = result.length > 2;
  const seats = (test) => result.map((v, i) => (test(v) ? i : null)).filter((i) => i !== null);
  const wins = (n) => (n === you ? t("result.you_win") : t("result.wins", { name: n }));
  const winMany = (names) => (names.length === 1 ? wins(names[0]) : t("result.win_many", { names }));
  const winners = seats((v) => v > 0).map(name);
  const losers = seats((v) => v < 0);
  // three or four players, nobody won: the seats still in share a draw
  const drawn = seats((v) => v === 0).map(name);
  const draw = () => (drawn.length > 1 ? t("result.draw_many", { names: drawn })
    : drawn[0] === you ? t("result.you_draw") : t("result.draws", { name: drawn[0] }));
  const mine = (i) => many && i === said; // said before the line, in the reader's own words
  // the seats the rules put out before the end, in the order they went
  const knocked = many ? losers.filter((i) => outTurn.has(i)).sort((a, b) => outTurn.get(a) - outTurn.get(b) || a - b) : [];
  const line = (...parts) => [...knocked.filter((i) => !mine(i)).map((i) => knockedOut(name(i), outTurn.get(i))), ...parts]
    .filter(Boolean).join(" — ");
  if (termination === "time") {
    const flagged = (m.out_of_time && m.out_of_time.length ? m.out_of_time : losers.filter((i) => !knocked.includes(i)))
      .filter((i) => !mine(i)).map(name);
    const ran = !flagged.length ? null : flagged.length === 1 && flagged[0] === you ? t("result.you_out_of_time") : t("result.out_of_time", { who: flagged });
    if (winners.length) return line(ran, winMany(winners));
    // two players: the other could not have won; three or four: the seats the rules drew share it
    if (!many || !drawn.length) return line(ran, t("result.draw_time"));
    return line(ran, draw());
  }
  if (termination === "agreement") {
    // three or four players: the seats out before lost all the same (named as the rules' draw names them)
    const agreed = t("result.agreement");
    return many && losers.length ? line(agreed, draw()) : agreed;
  }
  if (termination === "resignation") {
    // the server names the seat, inferring it for a match stored before it kept it (null when
    // the record does not tell)
    const seat = m.resigned;
    const resigned = seat == null ? t("result.resignation") : mine(seat) ? null
      : name(seat) === you ? t("result.you_resigned") : t("result.resigned", { name: name(seat) });
    if (winners.length) return line(resigned, winMany(winners));
    return line(resigned, many && drawn.length ? draw() : null);
  }
  if (winners.length) return line(winMany(winners));
  // nobody won: a draw for all, or some seats lost and the others share the game (3–4 players)
  if (!losers.length) return t("result.draw");
  const lost = losers.filter((i) => !knocked.includes(i) && !mine(i))
    .map((i) => (name(i) === you ? t("result.you_lose") : t("result.loses", { name: name(i) })));
  return line(...lost, drawn.length ? draw() : null);
}

// "Green was knocked out on turn 41" (turn 0: before the rules' first turn, not said).
function knockedOut(who, turn) {
  if (who === t("seat.you")) return turn ? t("result.you_knocked_out", { turn }) : t("result.you_knocked_out_plain");
  return turn ? t("result.knocked_out", { name: who, turn }) : t("result.knocked_out_plain", { name: who });
}

// When the rules put each seat out (view.out_at: the ply that did), as seat -> the turn the move
// list numbers (turnOfPly).
function outTurns(view) {
  return new Map((view.out_at || []).map((o) => [o.seat, turnOfPly(view.turn_numbers || [], o.ply).turn]));
}

// The reader's own outcome, said before the line of colours (a colour seat read "White wins" for
// its own win): for `own`, the one person seat the page plays (null: a spectator, or people
// sharing a device), where the line names seats by colour and the seats did not all end alike (a
// draw for all says itself). In a 3–4 player game, how and when the game ended for it.
function ownOutcome(view, seatName, own, outTurn) {
  const result = view.result;
  if (own === null || own === undefined || !result || result.every((v) => v === result[own])) return null;
  const you = t("seat.you");
  if (seatName(own) === you) return null; // the line says "You win" itself
  if (result[own] > 0) return t("result.you_win");
  if (result[own] === 0) return t("result.you_draw");
  if (result.length > 2) {
    if (outTurn.has(own)) return knockedOut(you, outTurn.get(own));
    if ((view.out_of_time || []).includes(own)) return t("result.you_out_of_time");
    if (view.termination === "resignation" && view.resigned === own) return t("result.you_resigned");
  }
  return t("result.you_lose");
}

// The turn holding action `ply` (1-based) and the number of the last turn, as the server numbers
// them (the view's turn_numbers: the rules' own turns, 0 before the first one, e.g. a placement
// phase), so that the list, the replay and the board say one number for one turn.
function turnOfPly(numbers, ply) {
  return { turn: ply > 0 ? numbers[ply - 1] : 0, turns: numbers.length ? numbers[numbers.length - 1] : 0 };
}

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

// A refusal written under the button that was pressed: on a phone that button is often at the
// bottom edge of the screen, and the words under it out of sight, as if the tap did nothing.
function inSight(node) {
  if (!node.hidden) node.scrollIntoView({ block: "nearest" });
}

// Scroll `box` (a scrolling list) so that `item` shows, and nothing else: scrollIntoView would
// scroll the page too, and on a phone, where the move list is under the board, every move
// pulled the board up out of sight.
function scrollWithin(box, item) {
  const b = box.getBoundingClientRect(), r = item.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop -= b.top - r.top;
  else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
}

function showError(where, err) {
  where.textContent = refusal(err);
  where.hidden = !err;
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
    else if (parts[0] === "live") await livePage(app, { games, boardModule });
    else if (parts[0] === "join" && parts[1]) await joinPage(app, parts[1]);
    else if (parts[0] === "lobby") stopPage = (await lobbyPage(app, { games })) || stopPage;
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

// A page for an address that names nothing (a link cut short, a game deleted): a heading, the
// reason in the reader's words and the ways back.
function notFound(app, heading, reason) {
  document.title = `${heading} — abstracta`;
  app.append(h("h1", {}, heading), h("p", { class: "error", id: "not-found" }, reason), backToGames());
}

function backToGames() {
  return h("p", { class: "row" }, h("a", { href: "#/", class: "button" }, t("rules.see_games")),
    h("a", { href: "#/matches", class: "button" }, t("nav.matches")));
}

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

// ------------------------------------------------------------------------------ home
async function homePage(app) {
  document.title = "abstracta";
  const list = await games();
  app.append(h("h1", {}, t("home.title")));
  app.append(h("p", { class: "lead" }, t("home.lead")), waitingLine(), liveLink()); // issue 43: notify.js, live.js
  app.append(h("p", { class: "row" }, h("a", { href: "#/lobby", class: "button primary", id: "home-lobby" }, t("home.lobby"))));
  const grid = h("div", { class: "cards" });
  for (const g of list) {
    const blurb = t(g.summary_key, {}, g.summary);
    grid.append(h("section", { class: "card", "data-game": g.name },
      h("h2", {}, gameTitle(g)),
      h("p", {}, blurb),
      h("p", { class: "links" },
        h("a", { href: `#/new/${g.name}`, class: "button primary" }, t("home.new_game")),
        " ",
        h("a", { href: `#/rules/${g.name}`, class: "button" }, t("home.rules")))));
  }
  const recent = h("section", { class: "recent", hidden: true });
  app.append(recent, grid);
  myMatches(8).then((rows) => {
    rows = rows.filter((r) => r.status === "playing").slice(0, 4);
    if (!rows.length) return;
    const titles = Object.fromEntries(list.map((g) => [g.name, gameTitle(g)]));
    recent.append(h("h2", {}, t("home.continue")),
      h("ul", { class: "matches" }, ...rows.map((r) => h("li", {},
        h("a", { href: `#/match/${r.id}` }, matchTitle(titles[r.game] || r.game, r.variant)), ` — ${t("count.moves", { n: r.turns })}, ${new Date(r.updated).toLocaleString(lang)}`))));
    recent.hidden = false;
  }).catch(() => { /* the list is a convenience */ });
  app.append(importBox());
}

function importBox() {
  const err = h("p", { class: "error", id: "import-error", role: "alert", hidden: true });
  const refuse = (e) => { showError(err, e); inSight(err); };
  const area = h("textarea", { rows: 4, placeholder: t("import.placeholder"), id: "import-text", "aria-label": t("import.title") });
  const file = h("input", { type: "file", accept: ".json,application/json", id: "import-file", "aria-label": t("import.file") });
  file.addEventListener("change", async () => { if (file.files[0]) area.value = await file.files[0].text(); });
  const go = async () => {
    showError(err, null);
    const text = area.value.trim();
    let parsed;
    try { parsed = JSON.parse(text); } catch (e) { refuse(new Error(t("import.bad_json", { problem: e.message }))); return; }
    // a list or a bare string got the server's schema words ("record: Input should be a valid dictionary")
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) { refuse(new Error(t("import.not_record"))); return; }
    try {
      // the record goes as the text read, not parsed and written again: JavaScript reads a
      // seed above 2**53 (seeds go up to 2**64) as a nearby number, and that seed deals
      // another layout, so a downloaded record came back as another game, or was refused
      const m = await api("/api/matches/import", { method: "POST", raw: `{"record": ${text}, "take": "all"}` });
      location.hash = `#/match/${m.id}`;
    } catch (e) { refuse(e); }
  };
  return h("section", { class: "import" }, h("h2", {}, t("import.title")), area,
    h("div", { class: "row" }, file, h("button", { type: "button", onclick: go, id: "import-go" }, t("import.go"))), err);
}

// Rows of "Your games" drawn at first and at each "Show more".
const MATCHES_SHOWN = 50;

async function matchesPage(app) {
  document.title = `${t("nav.matches")} — abstracta`;
  const [rows, list] = await Promise.all([myMatches(), games()]);
  const titles = Object.fromEntries(list.map((g) => [g.name, gameTitle(g)]));
  app.append(h("h1", {}, t("nav.matches")), waitingLine(rows));
  const empty = h("p", { id: "no-games", hidden: rows.length > 0 }, t("matches.none"));
  // nothing listed (none yet, or the last one deleted): the way to a game, not a dead end
  const emptyGo = h("p", { id: "no-games-go", hidden: rows.length > 0 }, h("a", { href: "#/", class: "button primary" }, t("rules.see_games")));
  const err = h("p", { class: "error", hidden: true });
  app.append(empty, emptyGo, err);
  // with many games, one game or the games still in play are found by narrowing the list
  const byGame = h("select", { id: "filter-game", "aria-label": t("matches.filter_game") });
  // the games offered are those listed: redrawn after a delete, so a game no longer held is
  // not offered (nor kept chosen, which showed "no game matches" over the games left)
  function gameChoices() {
    const played = [...new Set(kept.map((r) => r.game))].sort((a, b) => (titles[a] || a).localeCompare(titles[b] || b, lang));
    const chosen = played.includes(byGame.value) ? byGame.value : "";
    byGame.replaceChildren(h("option", { value: "" }, t("matches.all_games")), ...played.map((g) => h("option", { value: g }, titles[g] || g)));
    byGame.value = chosen;
  }
  const byStatus = h("select", { id: "filter-status", "aria-label": t("matches.filter_status") },
    h("option", { value: "" }, t("matches.any_status")), h("option", { value: "playing" }, t("matches.in_play")),
    h("option", { value: "over" }, t("matches.finished")));
  const count = h("span", { id: "games-count", class: "muted", "aria-live": "polite" });
  const filters = h("p", { class: "row filters", hidden: !rows.length }, byGame, byStatus, count);
  const noMatch = h("p", { id: "no-match", hidden: true }, t("matches.none_match"));
  const table = h("table", { class: "matchlist", id: "match-list", hidden: !rows.length },
    h("thead", {}, h("tr", {}, ...["game", "players", "options", "you_play", "result", "moves", "last", null].map((k) => h("th", {}, k ? t(`matches.col.${k}`) : "")))));
  const body = h("tbody");
  table.append(body);
  const more = h("p", { class: "row" });
  let kept = rows.slice(), shown = MATCHES_SHOWN;

  function rowOf(r) {
    const mine = r.my_seats || [];
    const base = seatNamer(r.seats, r.players, mine);
    const name = namedSeats(r, base, mine); // the people's names where the server knows them (names.js)
    const named = coloured(r.seats);
    // the seats held here, by their game name (White) or number: "You" would say nothing
    const yours = mine.filter((i) => r.players[i] === "human")
      .map((i) => (r.seats && r.seats[i] && r.seats[i].name ? seatWord(r.seats[i]) : t("seat.player", { n: i + 1 }))).join(", ");
    const apart = mine.length > 0 && r.players.some((p, i) => p === "human" && !mine.includes(i)); // people at a distance
    // "you" where this browser plays one person seat (against the computer too), "person" in pass and play
    const alone = mine.filter((i) => r.players[i] === "human").length === 1;
    const who = r.players.map((p, i) => seatLabel(r, i, mine, (j) => (named ? base(j) : null)) || base(i) + (named ? ` (${p !== "human" ? t("seat.tag.computer_level", { level: p.slice(6) }) : (apart || alone) && mine.includes(i) ? t("seat.tag.you") : t("seat.tag.person")})` : "")).join(` ${t("match.vs")} `);
    const opts = optionWords(list.find((x) => x.name === r.game), r.options);
    const own = alone ? mine.find((i) => r.players[i] === "human") : null;
    const result = r.status === "over" ? endText(r, name, own) || resultLine(r, name) || t("matches.finished") : playingWords(r, mine, name);
    const moves = movesWords(r.turns, r.ply);
    // data-label: a phone shows each row as a card, each cell under its column's name (style.css)
    const label = (k) => ({ "data-label": t(`matches.col.${k}`) });
    const row = h("tr", { "data-id": r.id },
      h("td", { class: "game" }, h("a", { href: `#/match/${r.id}` }, matchTitle(titles[r.game] || r.game, r.variant))),
      h("td", label("players"), who), h("td", { class: "muted", ...label("options") }, opts || "—"),
      h("td", { class: "yours", ...label("you_play") }, yours || t("matches.watching")), h("td", label("result"), result), h("td", label("moves"), moves),
      h("td", { class: "muted", ...label("last") }, new Date(r.updated).toLocaleString(lang)),
      h("td", { class: "del" }, h("button", { type: "button", class: "delete", title: t("matches.delete_title"), onclick: async () => {
        // the server deletes it for every seat: a friend's list loses it too, so say so
        const ask = apart ? "matches.delete_confirm_shared" : "matches.delete_confirm";
        if (!confirm(t(ask, { game: titles[r.game] || r.game }))) return;
        try {
          await api(`/api/matches/${r.id}`, { method: "DELETE" });
          forgetTokens(r.id);
          kept = kept.filter((x) => x.id !== r.id);
          draw();
        } catch (e) { showError(err, e); }
      } }, t("matches.delete"))));
    return row;
  }

  function draw() {
    gameChoices();
    const chosen = kept.filter((r) => (!byGame.value || r.game === byGame.value) && (!byStatus.value || r.status === byStatus.value));
    body.replaceChildren(...chosen.slice(0, shown).map(rowOf));
    const narrowed = byGame.value || byStatus.value;
    count.textContent = narrowed ? t("matches.count_of", { n: chosen.length, all: kept.length }) : t("matches.count", { n: kept.length });
    empty.hidden = emptyGo.hidden = kept.length > 0;
    filters.hidden = table.hidden = !kept.length;
    noMatch.hidden = !kept.length || chosen.length > 0;
    const left = chosen.length - shown;
    more.replaceChildren(...(left > 0 ? [h("button", { type: "button", id: "more-games", onclick: () => { shown += MATCHES_SHOWN; draw(); } },
      t("matches.more", { n: Math.min(left, MATCHES_SHOWN), left }))] : []));
  }
  for (const select of [byGame, byStatus]) select.addEventListener("change", () => { shown = MATCHES_SHOWN; draw(); });
  draw();
  app.append(filters, noMatch, h("div", { class: "tablewrap" }, table), more); // a phone scrolls the table, not the page
  await watchedSection(app, titles, list);
}

// Games this browser watched without a seat (kept in localStorage by the match page, api.js),
// each as the server shows it to a spectator now; one the server forgot is dropped.
async function watchedSection(app, titles, list) {
  const held = allTokens();
  const kept = watchedGames().filter((w) => !held[w.id]);
  if (!kept.length) return;
  const views = await Promise.all(kept.map((w) => api(`/api/matches/${w.id}`).catch((e) => (e.status === 404 ? null : undefined))));
  const body = h("tbody");
  const section = h("section", { id: "watched" }, h("h2", {}, t("matches.watched")),
    h("div", { class: "tablewrap" }, h("table", { class: "matchlist", id: "watched-list" },
      h("thead", {}, h("tr", {}, ...["game", "players", "options", "result", "moves", "watched", null].map((k) => h("th", {}, k ? t(`matches.col.${k}`) : "")))), body)));
  kept.forEach((w, k) => {
    const v = views[k];
    if (v === null) { forgetWatched(w.id); return; } // deleted on the server
    if (!v) return; // not reachable now: kept for later
    const base = seatNamer(v.seats, v.players, []);
    const name = namedSeats(v, base, []);
    const named = coloured(v.seats);
    const who = v.players.map((p, i) => seatLabel(v, i, [], (j) => (named ? base(j) : null)) || base(i) + (named ? ` (${p !== "human" ? t("seat.tag.computer_level", { level: p.slice(6) }) : t("seat.tag.person")})` : "")).join(` ${t("match.vs")} `);
    const result = v.status === "over" ? resultLine(v, name) || t("matches.finished") : playingWords(v, [], name);
    const label = (c) => ({ "data-label": t(`matches.col.${c}`) });
    const row = h("tr", { "data-id": w.id },
      h("td", { class: "game" }, h("a", { href: `#/match/${w.id}` }, matchTitle(titles[v.game] || v.game, v.variant))),
      h("td", label("players"), who), h("td", { class: "muted", ...label("options") }, optionWords(list.find((x) => x.name === v.game), v.options) || "—"),
      h("td", label("result"), result), h("td", label("moves"), movesWords(v.turns_played, v.ply)),
      h("td", { class: "muted", ...label("watched") }, new Date(w.at).toLocaleString(lang)),
      h("td", { class: "del" }, h("button", { type: "button", class: "delete", title: t("matches.forget_title"), onclick: () => {
        forgetWatched(w.id);
        row.remove();
        if (!body.children.length) section.remove();
      } }, t("matches.forget"))));
    body.append(row);
  });
  if (body.children.length) app.append(section);
}

// A game's length in Your games, for a game played and one watched alike: the turns, and the
// actions where a turn may hold several ("2 turns (3 actions)").
// A game in play in a list (a row of Your games, or a watched game's view): whom it waits for —
// a friend invited who has not come, this browser ("your move", marked), else the side to move;
// "in play" when no seat is to move (a chance outcome next) or the server did not say.
function playingWords(m, mine, name) {
  const invited = (m.players || []).map((p, i) => (p === "human" && m.claimed && m.claimed[i] === false ? i : -1)).filter((i) => i >= 0);
  if (invited.length) return t("matches.waiting_join", { who: invited.map(name), n: invited.length });
  const mover = m.to_move;
  if (mover === null || mover === undefined) return t("matches.in_play");
  if (mine.includes(mover) && m.players[mover] === "human") return h("span", { class: "yourmove" }, t("matches.your_move"));
  return t("status.to_move", { who: name(mover) });
}
const movesWords = (turns, ply) => (turns === ply ? `${ply}` : t("matches.turns_actions", { n: turns, actions: ply }));

// The options that differ from the game's defaults, in the game's words ("Board: Dimy (5×5)").
function optionWords(game, options) {
  if (!game) return "";
  const out = [];
  for (const o of game.options) {
    if (!options || options[o.name] === undefined || options[o.name] === null) continue;
    const v = Array.isArray(options[o.name]) ? options[o.name].join(",") : String(options[o.name]);
    if (v === o.default) continue;
    const keys = o.keys || {};
    const label = o.label ? t(keys.label, {}, o.label) : o.name;
    const choice = (o.choice_labels || {})[v] ? t((keys.choices || {})[v], {}, o.choice_labels[v]) : null;
    out.push(`${label}: ${choice || (o.kind === "bool" ? (v === "true" ? t("form.yes_lower") : t("form.no_lower")) : v)}`);
  }
  return out.join(", ");
}

// ------------------------------------------------------------------------------ rules
async function rulesPage(app, name) {
  const list = await games();
  const g = list.find((x) => x.name === name);
  if (!g) { notFound(app, t("rules.no_game"), t("rules.no_game_named", { name })); return; }
  document.title = `${t("rules.doc_title", { game: gameTitle(g) })} — abstracta`;
  app.append(h("h1", {}, t("rules.heading", { game: gameTitle(g) })));
  const [detail, page] = await Promise.all([api(`/api/games/${encodeURIComponent(name)}?lang=${lang}`),
    api(`/api/games/${encodeURIComponent(name)}/rules?lang=${lang}`)]);
  const body = h("div", { class: "rules", lang: page.lang || null });
  // the game's own page, shipped in its package, with its diagrams drawn by the game's svg.py
  body.innerHTML = page.html || `<p>${t("rules.none")}</p>`;
  const notation = h("p", { class: "notation" }, h("b", {}, t("rules.notation")), " ", t(detail.notation_help_key, {}, detail.notation_help));
  const offer = lessonOffer(g); // a newcomer to this game: its first lesson (lesson.js)
  if (offer) app.insertBefore(offer, app.querySelector("h1").nextSibling);
  app.append(body, notation, h("p", { class: "row" }, h("a", { href: `#/new/${name}`, class: "button primary" }, t("rules.play")),
    g.lessons && g.lessons.length ? h("a", { href: `#/lesson/${name}/1`, class: "button", id: "lesson-link" }, t("lesson.link")) : null));
}

// ------------------------------------------------------------------------------ new game
async function newGamePage(app, name) {
  const list = await games();
  const g = list.find((x) => x.name === name);
  if (!g) { notFound(app, t("rules.no_game"), t("rules.no_game_named", { name })); return; }
  document.title = `${t("new.doc_title", { game: gameTitle(g) })} — abstracta`;
  app.append(h("h1", {}, t("new.heading", { game: gameTitle(g) })), lessonOffer(g) || "");
  const form = h("form", { class: "newgame", id: "new-game" });
  const values = {};
  // labels, help and choice labels are the game's own words (its description)
  for (const o of g.options) {
    const id = `opt-${o.name}`;
    const keys = o.keys || {};
    const unset = o.unset_label ? t(keys.unset, {}, o.unset_label) : t("form.default");
    let input;
    if (o.choices) {
      input = h("select", { id, name: o.name });
      if (o.default === null) input.append(h("option", { value: "" }, unset));
      for (const c of o.choices) {
        const label = (o.choice_labels || {})[c] ? t((keys.choices || {})[c], {}, o.choice_labels[c]) : c;
        input.append(h("option", { value: c, selected: c === o.default }, label));
      }
    } else if (o.kind === "bool") {
      input = h("select", { id, name: o.name }, h("option", { value: "false", selected: o.default !== "true" }, t("form.no")),
        h("option", { value: "true", selected: o.default === "true" }, t("form.yes")));
    } else {
      input = h("input", { id, name: o.name, value: o.default ?? "", placeholder: o.default === null ? unset : "",
        inputmode: o.kind === "int" ? "numeric" : undefined });
    }
    values[o.name] = input;
    form.append(h("label", { for: id }, h("span", {}, o.label ? t(keys.label, {}, o.label) : o.name), input,
      h("small", {}, keys.help ? t(keys.help, {}, o.help) : o.help)));
  }
  const seatBox = h("fieldset", { class: "seats" }, h("legend", {}, t("new.seats")));
  form.append(seatBox);
  // seat names follow the options (a game whose colours depend on its player count): asked of the server's description;
  // the computer's levels are the ones the game declares for these options (some games declare fewer than six)
  let seatStyles = null, seatKey = null, declared = g.levels || [1, 2, 3, 4, 5, 6];
  let levels = {}; // each computer level's approximate rating for these options ("Level 4 ≈ 1650", names.js)
  const seatNames = (i, opts) => (seatStyles && seatStyles[i] && seatStyles[i].name ? seatWord(seatStyles[i]) : t("seat.player", { n: i + 1 }));
  async function loadSeats() {
    const opts = readOptions();
    const key = JSON.stringify(opts);
    if (key === seatKey) return;
    seatKey = key;
    try {
      const q = new URLSearchParams(opts).toString();
      const detail = await api(`/api/games/${encodeURIComponent(name)}${q ? "?" + q : ""}`);
      seatStyles = detail.seats;
      declared = detail.levels || declared;
    } catch { seatStyles = null; } // options not (yet) valid: plain names until they are
    levels = await levelRatings(name, opts);
  }
  const drawSeats = () => {
    const pOpt = values.players;
    const n = pOpt ? parseInt(pOpt.value, 10) || g.num_players : g.num_players;
    const old = [...seatBox.querySelectorAll("select")].map((s) => s.value);
    seatBox.querySelectorAll("label").forEach((l) => l.remove());
    for (let i = 0; i < n; i++) {
      // "human": a person here (several: pass and play); "friend": a person elsewhere, invited
      const sel = h("select", { id: `seat-${i}`, name: `seat-${i}` },
        h("option", { value: "human" }, t("new.seat.me")),
        h("option", { value: "friend" }, t("new.seat.friend")),
        ...declared.map((l) => h("option", { value: `level:${l}` },
          levels[l] ? t("new.seat.computer_about", { level: l, rating: levels[l] }) : t("new.seat.computer", { level: l }))));
      sel.value = old[i] && [...sel.options].some((o) => o.value === old[i]) ? old[i] : (i === 0 ? "human" : "level:3");
      sel.addEventListener("change", () => rated.fits(seatChoice()));
      seatBox.append(h("label", { for: `seat-${i}` }, h("span", {}, seatNames(i, readOptions())), sel));
    }
    rated.fits(seatChoice());
    const hint = seatBox.querySelector(".hint");
    if (hint) seatBox.append(hint); // the hint stays under the seats
  };
  const seatChoice = () => [...seatBox.querySelectorAll("select")].map((s) => s.value);
  // a rated game: an account at one seat here, friends invited to the others (names.js)
  const rated = ratedChoice();
  const readOptions = () => {
    const out = {};
    for (const [k, input] of Object.entries(values)) if (input.value !== "") out[k] = input.value;
    return out;
  };
  const redraw = async () => { await loadSeats(); drawSeats(); };
  for (const input of Object.values(values)) input.addEventListener("change", redraw);
  await redraw();
  seatBox.append(h("small", { class: "muted hint" },
    t("new.seats_hint")));
  // time controls as on the game sites: live (minutes + seconds added per turn) or a deadline per turn
  const clockSel = h("select", { id: "clock", name: "clock" },
    h("option", { value: "" }, t("clock.none")),
    h("optgroup", { label: t("clock.live") },
      ...[[5, 3], [10, 5], [15, 10]].map(([m, inc]) => h("option", { value: `live:${m * 60}:${inc}` }, `${m} + ${inc}`))),
    h("optgroup", { label: t("clock.correspondence") },
      h("option", { value: `turn:${86400}` }, t("clock.days_per_move", { n: 1 })),
      h("option", { value: `turn:${3 * 86400}` }, t("clock.days_per_move", { n: 3 }))),
    h("option", { value: "custom" }, t("clock.custom")));
  // a clock as the player chooses it: ¼–180 minutes + 0–180 s, or 1–14 days per move (lobby.js)
  const custom = clockPicker("clock-custom");
  custom.node.hidden = true;
  clockSel.addEventListener("change", () => { custom.node.hidden = clockSel.value !== "custom"; });
  form.append(h("label", { for: "clock" }, h("span", {}, t("clock.label")), clockSel,
    h("small", {}, t("clock.help"))), custom.node, rated.node);
  const readClock = () => {
    if (clockSel.value === "custom") return custom.read();
    const [kind, a, b] = clockSel.value.split(":");
    if (kind === "live") return { initial: Number(a), increment: Number(b) };
    if (kind === "turn") return { per_turn: Number(a) };
    return null;
  };
  const err = h("p", { class: "error", id: "new-error", role: "alert", hidden: true });
  form.append(h("button", { type: "submit", class: "primary", id: "start" }, t("new.start")), err);
  const refuse = (e) => { showError(err, e); inSight(err); };
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(err, null);
    const choice = [...seatBox.querySelectorAll("select")].map((s) => s.value);
    const seats = choice.map((v) => (v === "friend" ? "human" : v));
    const take = choice.map((v, i) => (v === "human" ? i : -1)).filter((i) => i >= 0);
    if (!take.length && choice.includes("friend")) {
      // the creator's token is what shows the invitation links again and makes new ones
      refuse(new Error(t("new.need_me")));
      return;
    }
    let clock;
    try { clock = readClock(); } catch (e) { refuse(e); return; } // a custom clock out of range
    const body = { game: name, options: readOptions(), seats, clock };
    if (take.length) body.take = take; // none: a computer-only match (the server gives seat 0's token)
    if (rated.value()) body.rated = true;
    try {
      if (choice.includes("friend")) await ensurePerson(); // the friend reads a name, not "person"
      const m = await api("/api/matches", { method: "POST", body });
      markKnown(name); // no lesson offered for a game this browser has played
      location.hash = `#/match/${m.id}`;
    } catch (e) { refuse(e); }
  });
  app.append(form, h("p", {}, h("a", { href: `#/rules/${name}`, class: "button", id: "rules-link" }, t("new.rules_of", { game: gameTitle(g) }))),
    analysisLink(name, readOptions));
}

// ------------------------------------------------------------------------------ invitation
// "#/join/<code>": what the invitation is for, and a button that claims the seat. The code only
// travels in the fragment and in request bodies (never in a URL the server logs).
async function joinPage(app, code) {
  document.title = `${t("join.title")} — abstracta`;
  let info;
  try {
    info = await api("/api/invites/lookup", { method: "POST", body: { code } });
  } catch (e) {
    app.append(h("h1", {}, t("join.title")),
      // 422: a code longer than any invitation's (a link run together with the words after it)
      h("p", { class: "error", id: "join-error" }, e.status === 404 || e.status === 422 ? t("join.none") : refusal(e)),
      h("p", {}, h("a", { href: "#/", class: "button" }, t("rules.see_games"))));
    return;
  }
  // the match as a spectator sees it: who is there, how far the game is, its clock
  let view = null;
  try { view = await api(`/api/matches/${info.match}`); } catch { /* the invitation alone is enough */ }
  const mine = view ? view.my_seats : [];
  const name = (i) => (info.seats[i] && info.seats[i].name ? seatWord(info.seats[i]) : t("seat.player", { n: i + 1 }));
  const title = matchTitle(t(info.title_key, {}, info.title), info.variant); // as the match is headed
  app.append(h("h1", {}, t("join.heading", { game: title })));
  const people = h("ul", { class: "whois", id: "join-seats" }, ...info.players.map((p, i) => h("li", { class: i === info.seat ? "invited" : null },
    h("b", {}, name(i)), " — ",
    p !== "human" ? t("join.who.computer", { level: p.slice(6) })
      : i === info.seat ? (info.claimed ? (mine.includes(i) ? t("join.who.you") : personName(info, i) || t("join.who.taken")) : t("join.who.this"))
      : mine.includes(i) ? t("join.who.you")
      : personName(info, i) || (view && !view.claimed[i] ? t("join.who.invited") : t("join.who.person")))));
  const facts = [];
  if (view) {
    // the server counts it, as "Your games" lists it: a count of the page's own could drift from it
    const played = view.turns_played;
    facts.push(["join-played", view.status === "over" ? t("match.over_note") : played ? t("join.played", { n: played }) : t("join.none_played")]);
    if (view.clock) facts.push(["join-clock", t("join.clock", { control: controlWords(view.clock.control) })]);
  }
  const err = h("p", { class: "error", id: "join-error", hidden: true });
  if (info.claimed && mine.includes(info.seat)) {
    // the friend who took the seat, back from the message the link came in: not "used already"
    app.append(h("p", { class: "lead", id: "join-mine" }, t("join.mine", { seat: name(info.seat) })),
      people, h("p", { class: "row" }, h("a", { href: `#/match/${info.match}`, class: "button primary", id: "play-on" }, t("join.play_on"))));
    return;
  }
  if (info.claimed) {
    app.append(h("p", { class: "error", id: "join-error" }, t("join.used", { seat: name(info.seat) })),
      people, h("p", { class: "row" }, h("a", { href: `#/match/${info.match}`, class: "button", id: "watch" }, t("join.watch"))));
    return;
  }
  // a rated game: its seat is an account's (the server refuses anyone else); say so first
  const me = await whoAmI();
  const ratedNote = info.rated ? h("p", { class: "rated-note", id: "join-rated" }, t("join.rated"),
    me && me.kind === "account" ? null : [" ", t("join.rated_account"), " ",
      h("a", { href: "#/signin", id: "join-signin" }, t("people.sign_in")), " · ",
      h("a", { href: "#/signup", id: "join-signup" }, t("people.make_account"))]) : null;
  const take = h("button", { type: "button", class: "primary", id: "take-seat", disabled: !!info.rated && !(me && me.kind === "account"), onclick: async () => {
    take.disabled = true;
    showError(err, null);
    try {
      if (!info.rated) await ensurePerson(); // the others read a name (a guest's), not "person"
      const m = await api("/api/invites/claim", { method: "POST", body: { code } }); // api.js keeps the token
      location.replace(`#/match/${m.id}`); // Back should not return to a used invitation
    } catch (e) {
      showError(err, e.status === 410 ? new Error(t("join.taken_now")) : e);
    }
  } }, t("join.take"));
  app.append(h("p", { class: "lead", id: "join-what" }, t("join.what", { game: title, seat: name(info.seat) })),
    ratedNote, people, ...facts.map(([id, f]) => h("p", { class: "muted", id }, f)),
    h("p", { class: "row" }, take, h("a", { href: `#/match/${info.match}`, class: "button" }, t("join.just_watch"))), err,
    h("p", { class: "muted" }, t(me && me.kind === "account" ? "join.keeps_account" : "join.keeps")));
}

// A time control in words: "5 + 3" (minutes + seconds per turn), "1 day per move".
function controlWords(control) {
  if (!control) return t("clock.none_lower");
  if (control.per_turn !== undefined) {
    const d = control.per_turn / 86400;
    if (Number.isInteger(d)) return t("clock.days_per_move", { n: d });
    return t("clock.per_move", { time: clockText(control.per_turn, true) });
  }
  const m = control.initial / 60;
  return Number.isInteger(m) ? `${m} + ${control.increment || 0}` : `${control.initial} s + ${control.increment || 0} s`;
}

// Seconds left as a clock shows them: m:ss (h:mm:ss past an hour, tenths under 10 s); a
// correspondence clock (`long`) in days and hours.
function clockText(sec, long = false) {
  sec = Math.max(0, sec);
  if (long && sec >= 86400) return t("clock.days_hours", { d: Math.floor(sec / 86400), h: Math.floor((sec % 86400) / 3600) });
  if (long && sec >= 3600) return t("clock.hours_minutes", { h: Math.floor(sec / 3600), m: Math.floor((sec % 3600) / 60) });
  if (sec < 10) return `0:0${(Math.floor(sec * 10) / 10).toFixed(1)}`;
  const s = Math.floor(sec);
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

// The game's board module, served from the game's own package (null: show the position text).
// A module's own styles (export const css) are added to the page once, as a constructed
// style sheet: the Content-Security-Policy (style-src 'self') refuses <style> elements.
const moduleSheets = new Set();
async function boardModule(url) {
  if (!url) return null;
  let mod;
  try { mod = await import(url); } catch (e) { console.warn(e); return null; }
  if (mod.css && !moduleSheets.has(url)) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(mod.css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    moduleSheets.add(url);
  }
  return mod;
}

// ------------------------------------------------------------------------------ match page
// The result and, when the rules ended the game, why (the engine's words from the view): a
// sentence of its own, as its words start one ("Red wins. Only Red pieces are left on the board.").
// `own`: the one person seat the page plays (ownOutcome), whose outcome comes first.
function resultText(view, seatName, own = null) {
  const ended = endText(view, seatName, own); // aborted, or a player left (match-extras.js)
  if (ended) return ended;
  const outTurn = outTurns(view);
  const mine = ownOutcome(view, seatName, own, outTurn);
  const line = resultLine(view, seatName, outTurn, mine ? own : null);
  const both = mine && line ? t("result.yours", { yours: mine, line }) : mine || line;
  const end = view.struct && view.struct.end;
  return end && end.text && view.termination !== "resignation" ? t("result.why", { result: both, why: fmt(end.message, end.text) }) : both;
}

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
  const baseName = seatNamer(view.seats, view.players, mySeats);
  // the people's names where the server knows them, as the view says them now (names.js)
  const seatName = (i) => namedSeats(view, baseName, mySeats)(i);
  const humans = view.players.map((p, i) => (p === "human" ? i : -1)).filter((i) => i >= 0);
  const myPeople = humans.filter((i) => mySeats.includes(i)); // the person seats played here
  // the one person seat played here, whose outcome the end says first (null: none, or several sharing the device)
  const own = myPeople.length === 1 ? myPeople[0] : null;
  // people at a distance: this browser plays some person seats, someone elsewhere the others;
  // then undo needs their consent (a takeback request)
  const distance = myPeople.length > 0 && humans.some((i) => !mySeats.includes(i));
  const who = (i) => seatLabel(view, i, mySeats, (j) => (named ? baseName(j) : null)) || (named ? `${baseName(i)} (${view.players[i] !== "human" ? t("seat.tag.computer_level", { level: view.players[i].slice(6) })
    : (distance || myPeople.length === 1) && mySeats.includes(i) ? t("seat.tag.you") : view.claimed && !view.claimed[i] ? t("seat.tag.invited") : t("seat.tag.person")})` : seatName(i));
  // "Black (computer) is thinking"; with people's names the seat says "Computer (level 3)" itself
  const compTag = () => (named && !hasPeople(view) ? ` (${t("seat.tag.computer")})` : "");
  const you = t("seat.you");
  // the move list's badge: the name's first letter, or P1, P2 where seats share one (two computers)
  const abbrev = (i) => {
    const n = baseName(i); // the seat's colour, never a person's initial
    const clash = !named && view.players.some((_, j) => j !== i && baseName(j)[0] === n[0]);
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
    window.removeEventListener("resize", refit); extras.stop(); };
  // abort, a gone opponent, the rematch (match-extras.js)
  const extras = matchExtras({ id, getView: () => view, seatName,
    post: (path, body) => post(path, body), refresh: () => refresh() });

  const title = matchTitle(t(view.title_key, {}, view.title), view.variant);
  document.title = `${title} — abstracta`;
  const status = h("div", { class: "status", id: "status", "aria-live": "polite" });
  const banner = h("div", { class: "result", id: "result", hidden: true });
  // what a rated game's end did to the ratings, under the result (names.js)
  const ratingBox = h("p", { class: "rating-change", id: "rating-change", hidden: true, "aria-live": "polite" });
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
    ended: () => (view.status === "over" && ["resignation", "time", "agreement", "left"].includes(view.termination)
      ? endText(view, seatName, own) || resultLine(view, seatName, outTurns(view)) : null),
    shownPly: () => (replayPly === null ? view.ply : replayPly) });

  app.append(h("div", { class: "matchhead" }, h("h1", {}, title, ratedMark(view)), players),
    watching, status, botError, banner, ratingBox, extras.node, handover, takebackBox, drawBox, invitesBox,
    h("div", { class: "play" },
      h("div", { class: "left" }, boardBox, boardNote, boardText, boardSay, controls, err, textBox),
      h("aside", { class: "right" },
        legalWrap, entryForm,
        analysis.node, h("h2", {}, t("match.moves")), stepper, moveList, actions, shareNote)));
  // what a language switch keeps (see keepPage): the hand-over confirmed, the ply on screen,
  // the board's pick (its struct), the analysis answers, the boxes open and a move half typed
  // a match's company (issue 43): its room (chat lines, watchers), the chat, "your move" notices
  const room = openRoom(id, () => tokensOf(id));
  const notices = yourMove({ id, title, mySeats });
  watching.after(watcherCount(room));
  shareNote.after(chatPanel({ id, room, seatName }).node, notices.node);
  const stopPlay = stopPage;
  stopPage = () => { stopPlay(); room.close(); notices.stop(); };
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
      socket.send(JSON.stringify({ tokens: tokensOf(id), presence: true })); // the first message authenticates
      root.dataset.live = "socket"; // read by the browser tests
    };
    socket.onmessage = (ev) => {
      let fresh;
      try { fresh = JSON.parse(ev.data); } catch { return; }
      if (fresh && fresh.presence) { extras.presence(fresh.presence); return; } // who is connected
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
    notices.update(view); // the tab's title and icon, a sound, a notification (notify.js)
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
    else if (view.thinking) s = t("status.thinking", { who: `${seatName(view.to_move)}${compTag()}` });
    else if (stuck) s = t("status.stuck", { who: `${seatName(view.to_move)}${compTag()}` });
    else if (waiting.length) s = t("status.waiting_seat", { who: seatsWord(waiting) });
    else if (view.to_move !== null && myTurn && (distance || myPeople.length === 1)) s = seatName(view.to_move) === you ? t("status.your_move") : t("status.your_move_as", { who: seatName(view.to_move) });
    else if (view.to_move !== null) s = seatName(view.to_move) === you ? t("status.your_move") : t("status.to_move", { who: seatName(view.to_move) + (view.human_to_move ? "" : compTag()) });
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
    drawRatingChanges(ratingBox, view, seatName, mySeats);

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
    extras.update();
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
  // a tall board (one drawn upright) went on under the steps, its last row and labels hidden.
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
