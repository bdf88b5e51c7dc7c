// Live games (issue 43 §3): the page of games people play at a distance now (#/live), most
// watched first, each with how many watch it and a small board drawn by the game's own board
// module; and the count of watchers on a game's page. The list is asked for again every few
// seconds (a socket per game would count this page as watching them all).
import { api } from "./api.js";
import { h, keepFocus } from "./dom.js";
import { t } from "./i18n.js";
import { joinNodes, personLink } from "./names.js";

const REFRESH_MS = 5000;

// The way to the live games from the home page (the header's links fill a phone's line).
export function liveLink() {
  return h("p", { class: "live-link-home" }, h("a", { href: "#/live", id: "live-link" }, t("live.go")));
}

// "3 watching" on a match page, from its room (room.js); hidden while nobody watches.
export function watcherCount(room) {
  const node = h("p", { class: "watchers muted", id: "watchers", hidden: true, "aria-live": "polite" });
  room.on("watchers", (n) => {
    const text = t("live.watching", { n });
    if (node.textContent !== text) node.textContent = text;
    node.hidden = !n;
  });
  return node;
}

// A small board of `row` (a row of GET /api/live) drawn by its game's module into `box`, not
// interactive and hidden from screen readers (the link says what it is).
function drawBoard(box, row, mod, seatName) {
  box.replaceChildren();
  if (!mod || !mod.render) return;
  const ctx = {
    struct: row.struct, interactive: false, play: () => {}, controls: h("div"), live: true, thumbnail: true,
    palette: row.board || {}, seats: row.seats || [], seatName, ended: null,
    onKey: () => {}, say: () => {}, note: () => {}, refresh: () => {},
  };
  try { mod.render(box, ctx); } catch (e) { console.warn(e); box.replaceChildren(); }
}

// The live page: `games()` the catalogue, `boardModule(url)` the shell's loader of board modules.
export async function livePage(app, { games, boardModule }) {
  document.title = `${t("live.title")} — abstracta`;
  const list = await games();
  const titles = Object.fromEntries(list.map((g) => [g.name, t(g.title_key, {}, g.title)]));
  const grid = h("ul", { class: "live-games", id: "live-games" });
  const none = h("p", { id: "live-none", hidden: true }, t("live.none"), " ", h("a", { href: "#/" }, t("rules.see_games")));
  app.append(h("h1", {}, t("live.title")), h("p", { class: "lead" }, t("live.lead")), none, grid);
  const cards = new Map(); // match id -> {node, board, words, revision}
  let timer = null;
  let stopped = false;

  async function refresh() {
    let rows;
    try { rows = await api("/api/live"); } catch { rows = null; }
    if (stopped || !app.isConnected) return;
    if (rows) {
      const order = [];
      for (const row of rows) {
        const name = (i) => {
          const n = row.names[i];
          return n.person ? n.name : n.name_key ? t(n.name_key, {}, n.name) : t("seat.player", { n: i + 1 });
        };
        const title = row.variant ? t("game.with_variant", { game: titles[row.game] || row.game, variant: t(row.variant.label_key, {}, row.variant.label) }) : titles[row.game] || row.game;
        // a person's name a link to their profile (an account's), beside the card's link to the game
        const who = joinNodes(row.names.map((n, i) => (n.person ? personLink(n.name, n.kind) : name(i))), ` ${t("match.vs")} `);
        const watching = t("live.watching", { n: row.watchers });
        let card = cards.get(row.id);
        if (!card) {
          const board = h("div", { class: "live-board", "aria-hidden": "true", inert: true });
          const words = h("span", { class: "live-words" });
          const people = h("span", { class: "live-who" });
          const count = h("span", { class: "muted live-count" });
          // the names outside the game's link: a link holds no other link
          const node = h("li", { class: "live-game", "data-id": row.id },
            h("a", { href: `#/match/${encodeURIComponent(row.id)}`, class: "live-link" }, board, words), people, count);
          card = { node, board, words, people, count, revision: null };
          cards.set(row.id, card);
        }
        card.words.replaceChildren(h("strong", {}, title));
        const focus = keepFocus(card.people);
        card.people.replaceChildren(...who);
        focus();
        card.count.dataset.watchers = row.watchers;
        card.count.textContent = watching;
        if (card.revision !== row.revision) {
          card.revision = row.revision;
          drawBoard(card.board, row, await boardModule(row.board_module), name);
        }
        order.push(card.node);
      }
      for (const [mid, card] of cards) if (!rows.some((r) => r.id === mid)) cards.delete(mid);
      grid.replaceChildren(...order);
      none.hidden = rows.length > 0;
    }
    timer = setTimeout(refresh, REFRESH_MS);
  }
  await refresh();
  return () => { stopped = true; clearTimeout(timer); };
}
