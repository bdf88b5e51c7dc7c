// The home page (the games, the games in play, a record's import) and a game's rules page.
import { api } from "./api.js";
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { lessonOffer } from "./lesson.js";
import { liveLink } from "./live.js";
import { joinNodes, personName, personNode, tNodes } from "./names.js";
import { readGames, waitingGames, waitingLine, whileShown } from "./notify.js";
import { games, inSight, notFound, showError } from "./shell.js";
import { gameTitle, matchTitle } from "./words.js";

export async function homePage(app) {
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
  const titles = Object.fromEntries(list.map((g) => [g.name, gameTitle(g)]));
  // the games in play, live (notify.js reads them again at each move in them): against whom,
  // and whose move it is
  whileShown(recent, (rows) => {
    const yours = new Set(waitingGames(rows).map((r) => r.id));
    rows = rows.filter((r) => r.status === "playing").slice(0, 4);
    recent.hidden = !rows.length;
    recent.replaceChildren(h("h2", {}, t("home.continue")),
      h("ul", { class: "matches", id: "continue-list" }, ...rows.map((r) => {
        const others = opponents(r);
        const game = h("a", { href: `#/match/${r.id}` }, matchTitle(titles[r.game] || r.game, r.variant));
        // the game and its opponents in one message, ordered as the language orders them, and
        // a name never inflected ("<game>, vastustajana anna": not "annaa vastaan")
        const against = others.length ? tNodes("home.game_against", { game, n: others.length,
          who: h("span", { class: "opponents" }, joinNodes(others, ", ")) }) : [game];
        return h("li", { "data-id": r.id, class: yours.has(r.id) ? "your-move" : null },
          against, " — ",
          h("span", { class: "whose" }, yours.has(r.id) ? h("b", {}, t("notice.your_move")) : toMove(r)),
          ` · ${t("count.moves", { n: r.turns })}, ${new Date(r.updated).toLocaleString(lang)}`);
      })));
  });
  readGames(3000);
  app.append(importBox());
}

// The others at a match played here: their names (an account's a link to its profile), a
// computer's level ("anna", "computer, level 4"); none when none is known (a friend invited by a
// link, pass and play).
function opponents(r) {
  const mine = r.my_seats || [];
  return (r.players || []).map((p, i) => {
    if (mine.includes(i)) return null;
    if (p.startsWith("level:")) return t("seat.computer_level", { level: p.slice(6) });
    return personNode(r, i);
  }).filter(Boolean);
}

// Who is to move in a game in play that waits for someone else ("anna to move", "waiting").
function toMove(r) {
  if (r.to_move === null || r.to_move === undefined) return t("home.waiting_other");
  const p = r.players[r.to_move] || "";
  const who = p.startsWith("level:") ? t("seat.computer_level", { level: p.slice(6) }) : personName(r, r.to_move);
  return who ? t("home.to_move", { who }) : t("home.waiting_other"); // the name is a link once in the row: "against anna"
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

export async function rulesPage(app, name) {
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
