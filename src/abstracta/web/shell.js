// What every page of the browser client shares: the games' catalog, a game's board module, the
// refusal line under a control, and the page for an address that names nothing.
import { api } from "./api.js";
import { h } from "./dom.js";
import { refusal, t } from "./i18n.js";

let catalog = null;

export async function games() {
  if (!catalog) catalog = await api("/api/games");
  return catalog;
}

// The game's board module, served from the game's own package (null: show the position text).
// A module's own styles (export const css) are added to the page once, as a constructed
// style sheet: the Content-Security-Policy (style-src 'self') refuses <style> elements.
const moduleSheets = new Set();
export async function boardModule(url) {
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

// A page for an address that names nothing (a link cut short, a game deleted): a heading, the
// reason in the reader's words and the ways back.
export function notFound(app, heading, reason) {
  document.title = `${heading} — abstracta`;
  app.append(h("h1", {}, heading), h("p", { class: "error", id: "not-found" }, reason), backToGames());
}

export function backToGames() {
  return h("p", { class: "row" }, h("a", { href: "#/", class: "button" }, t("rules.see_games")),
    h("a", { href: "#/matches", class: "button" }, t("nav.matches")));
}

// A refusal written under the button that was pressed: on a phone that button is often at the
// bottom edge of the screen, and the words under it out of sight, as if the tap did nothing.
export function inSight(node) {
  if (!node.hidden) node.scrollIntoView({ block: "nearest" });
}

// `err` in the reader's words in `where`, or nothing (hidden) when `err` is null.
export function showError(where, err) {
  where.textContent = refusal(err);
  where.hidden = !err;
}
