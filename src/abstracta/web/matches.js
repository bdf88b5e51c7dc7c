// "Your games" (#/matches): the games this browser plays, narrowed by game and status, and the
// games it watched without a seat.
import { api, allTokens, forgetTokens, forgetWatched, myMatches, watchedGames } from "./api.js";
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { joinNodes, namedSeats, seatLabelNodes } from "./names.js";
import { waitingLine, whenDue } from "./notify.js";
import { endText, resultLine } from "./outcome.js";
import { games, showError } from "./shell.js";
import { coloured, gameTitle, matchTitle, movesWords, optionWords, playingWords, seatNamer, seatWord } from "./words.js";

// Rows of "Your games" drawn at first and at each "Show more".
const MATCHES_SHOWN = 50;

export async function matchesPage(app) {
  document.title = `${t("nav.matches")} — abstracta`;
  const [rows, list] = await Promise.all([myMatches(), games()]);
  const titles = Object.fromEntries(list.map((g) => [g.name, gameTitle(g)]));
  let waiting = waitingLine(rows);
  app.append(h("h1", {}, t("nav.matches")), waiting);
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
    // each person's name a link to their profile (an account's)
    const who = joinNodes(r.players.map((p, i) => seatLabelNodes(r, i, mine, (j) => (named ? base(j) : null)) || base(i) + (named ? ` (${p !== "human" ? t("seat.tag.computer_level", { level: p.slice(6) }) : (apart || alone) && mine.includes(i) ? t("seat.tag.you") : t("seat.tag.person")})` : "")), ` ${t("match.vs")} `).flat();
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
      // a game someone else is in is theirs too: the server deletes it for nobody (nor a rated one)
      h("td", { class: "del" }, r.deletable ? h("button", { type: "button", class: "delete", title: t("matches.delete_title"), onclick: async () => {
        // a seat still open: the friend's invitation stops working, so say so
        const ask = apart ? "matches.delete_confirm_invited" : "matches.delete_confirm";
        if (!confirm(t(ask, { game: titles[r.game] || r.game }))) return;
        try {
          await api(`/api/matches/${r.id}`, { method: "DELETE" });
          forgetTokens(r.id);
          kept = kept.filter((x) => x.id !== r.id);
          draw();
        } catch (e) { showError(err, e); }
      } }, t("matches.delete")) : null));
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
  // a game aborted for a first move not made in time, or a flag fallen, while the list is open
  const reread = async () => {
    try {
      const fresh = await myMatches();
      kept = fresh;
      draw();
      const line = waitingLine(fresh);
      waiting.replaceWith(line);
      waiting = line;
      whenDue(fresh, table, reread);
    } catch (e) { /* kept as it was: the next visit reads it */ }
  };
  whenDue(rows, table, reread);
  await watchedSection(app, titles, list, rows);
}

// Games this browser watched without a seat (kept in localStorage by the match page, api.js),
// each as the server shows it to a spectator now; one the server forgot is dropped. One it holds
// a seat of now is listed with its games (`rows`) alone: its tokens', or its person's, watched
// while signed out.
async function watchedSection(app, titles, list, rows) {
  const held = allTokens();
  const mine = new Set(rows.map((r) => r.id));
  const kept = watchedGames().filter((w) => !held[w.id] && !mine.has(w.id));
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
    const who = joinNodes(v.players.map((p, i) => seatLabelNodes(v, i, [], (j) => (named ? base(j) : null)) || base(i) + (named ? ` (${p !== "human" ? t("seat.tag.computer_level", { level: p.slice(6) }) : t("seat.tag.person")})` : "")), ` ${t("match.vs")} `).flat();
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
