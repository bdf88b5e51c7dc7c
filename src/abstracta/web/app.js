// The abstracta browser client: hash routing (#/, #/rules/<game>, #/new/<game>, #/match/<id>,
// #/matches, #/live, #/lobby (#/lobby?challenge=<name>: the challenge form for that player), #/join/<code>: an invitation to a seat; people's pages: see people.js) and
// the header's language switch. Each page is a module of its own: home.js (the games, a rules
// page), newgame.js, matches.js (Your games), join.js, match.js (a match, composed of its
// concerns' match-*.js), live.js (live games), lobby.js, analysis.js, lesson.js, people.js; the words they
// share are in words.js and outcome.js.
import { h } from "./dom.js";
import { analysisPage } from "./analysis.js";
import { homePage, rulesPage } from "./home.js";
import { joinPage } from "./join.js";
import { lessonPage } from "./lesson.js";
import { livePage } from "./live.js";
import { lobbyPage } from "./lobby.js";
import { matchPage } from "./match.js";
import { matchesPage } from "./matches.js";
import { newGamePage } from "./newgame.js";
import { startNotices } from "./notify.js";
import { lang, onLanguage, preferred, setLanguage, t, translateMarked } from "./i18n.js";
import { PAGES as PEOPLE_PAGES, drawMe, peoplePage, sayEnded, whoAmI } from "./people.js";
import { backToGames, boardModule, games } from "./shell.js";

// the <main> element; each page draws into its own box in it (see route)
const root = document.getElementById("app");
let stopPage = () => {};
// The state of the page on screen that a language switch keeps (a page that has some sets it):
// the switch draws the page again for its words, and the reader's place on it must not change
let keepPage = () => null;
// what a page with timers, sockets or state worth keeping hands the router (the match page)
const hooks = { onStop: (fn) => { stopPage = fn; }, keep: (fn) => { keepPage = fn; } };

// ------------------------------------------------------------------------------ routing
async function route(ev) {
  stopPage();
  stopPage = () => {};
  const switched = ev && ev.type === "language" ? ev : null; // the same page, in other words
  const kept = switched ? switched.kept : null;
  // the note that the session ended stays over a language switch, said in the new words, while
  // nobody is signed in still: asked again (the person may have signed in again in another tab
  // since, and the header is theirs then too)
  const ended = !!switched && !!root.querySelector("#session-ended");
  const asking = ended ? whoAmI(true) : null;
  keepPage = () => null;
  // a page's parameters after "?" (#/lobby?challenge=ben; the analysis page reads its own)
  const [path, query = ""] = location.hash.replace(/^#\/?/, "").split("?");
  const parts = (path || "").split("/").map(decodeURIComponent);
  // A page draws into its own box, after its requests: a page left while it was still loading
  // (a click on "Your games" while a match loads) then finishes in a box no longer shown,
  // instead of in the middle of the next page. A page knows it was left by !app.isConnected.
  const app = h("div", { class: "page" });
  root.replaceChildren(app);
  try {
    if (parts[0] === "rules" && parts[1]) await rulesPage(app, parts[1]);
    else if (parts[0] === "new" && parts[1]) await newGamePage(app, parts[1]);
    else if (parts[0] === "match" && parts[1]) await matchPage(app, parts[1], kept, hooks);
    else if (parts[0] === "matches") await matchesPage(app);
    else if (parts[0] === "live") await livePage(app, { games, boardModule });
    else if (parts[0] === "join" && parts[1]) await joinPage(app, parts[1]);
    else if (parts[0] === "lobby") stopPage = (await lobbyPage(app, { games, params: new URLSearchParams(query), switched: !!switched })) || stopPage;
    else if (parts[0] === "analysis") await analysisPage(app, location.hash, { games, boardModule });
    else if (parts[0] === "lesson" && parts[1]) await lessonPage(app, parts[1], parts[2], { games, boardModule });
    else if (PEOPLE_PAGES.has(parts[0])) await peoplePage(app, parts, { games });
    else await homePage(app);
  } catch (err) {
    // never a dead end: the reason, and the way back to the games
    app.replaceChildren(h("p", { class: "error", id: "page-error" }, err.message || String(err)), backToGames());
  }
  if (!app.isConnected) return;
  if (asking) {
    const now = await asking;
    if (!app.isConnected) return;
    if (!(now && now.kind)) sayEnded(app);
  }
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
// after the router's own hashchange listener: a match page left has put its tab icon back first
const notices = startNotices(header); // "your move" and challenges on every page (notify.js)
function drawHeader() {
  translateMarked(header);
  const group = header.querySelector("#lang");
  group.setAttribute("aria-label", t("nav.language"));
  for (const b of group.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
  drawMe(header.querySelector("#me"));
  notices.redraw();
}
header.querySelector("#lang").addEventListener("click", async (ev) => {
  const b = ev.target.closest("button[data-lang]");
  if (!b || b.dataset.lang === lang) return;
  await setLanguage(b.dataset.lang, true);
});
onLanguage(() => { drawHeader(); route({ type: "language", kept: keepPage(), scrollY: window.scrollY }); });
setLanguage(preferred()).catch(() => { drawHeader(); route(); }); // no catalog: the English of the API
whoAmI(); // the header's name (people.js)
