// Messages in the reader's language (issue 16 §4). The server merges the catalogs (the shell's
// web/i18n/<lang>.json, each game's description and its package's i18n/<lang>.json) and serves
// them at /api/i18n/<lang>; this module picks the language, keeps the choice, and formats.
//
//   t("match.moves", { n: 3 })       -> "3 moves" / "3 siirtoa"   (plural forms by Intl.PluralRules)
//   t(game.title_key, {}, game.title) -> the fallback when no catalog has the key (a plug-in)
//   fmt({ key, params })            -> a structured view's message; a parameter that is itself
//                                      {key, params} is translated first, a list is joined by
//                                      Intl.ListFormat ("a, b and c" / "a, b ja c")
//
// Board modules import { t, fmt } from "/i18n.js" (the same module instance as the shell's).
const STORE_KEY = "abstracta.lang";
const BASE = "en";

export let lang = BASE;
let messages = {}; // the chosen language
let base = {}; // English: every key, the fallback of any other language
const loaded = {};
const listeners = [];

async function load(code) {
  if (!loaded[code]) {
    const res = await fetch(`/api/i18n/${encodeURIComponent(code)}`);
    if (!res.ok) throw new Error(`no catalog for ${code}`);
    loaded[code] = await res.json();
  }
  return loaded[code];
}

// The languages the client has, and the one to use: the remembered choice, else the first of
// the browser's preferences (navigator.languages) that is one of them, else English.
export const LANGUAGES = ["en", "fi"];
export function preferred() {
  let kept = null;
  try { kept = localStorage.getItem(STORE_KEY); } catch { /* private mode */ }
  if (LANGUAGES.includes(kept)) return kept;
  const prefs = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || BASE]);
  for (const p of prefs) {
    const code = String(p).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(code)) return code;
  }
  return BASE;
}

// Load `code` (and English beneath it) and make it the page's language; `remember`: keep the
// choice in localStorage (the header switch), so that it outlives a reload.
export async function setLanguage(code, remember = false) {
  if (!LANGUAGES.includes(code)) code = BASE;
  base = await load(BASE);
  messages = code === BASE ? base : await load(code);
  lang = code;
  document.documentElement.lang = code;
  if (remember) { try { localStorage.setItem(STORE_KEY, code); } catch { /* private mode */ } }
  for (const fn of listeners) fn(code);
}

// fn(code) after every change of language (the shell re-renders the page).
export function onLanguage(fn) { listeners.push(fn); }

export function has(key) {
  return !!key && (key in messages || key in base);
}

function pick(message, params) {
  if (message === null || typeof message !== "object") return message;
  const n = Number(params.n ?? params.count ?? 0);
  const form = new Intl.PluralRules(lang).select(n);
  return message[form] ?? message.other ?? Object.values(message)[0];
}

// "a, b and c" / "a, b ja c" (English without the serial comma, as the engines write it)
const listLocale = () => (lang === "en" ? "en-GB" : lang);
export function andList(items) {
  return new Intl.ListFormat(listLocale(), { type: "conjunction" }).format(items.map(String));
}
// "a or b" / "a tai b"
export function orList(items) {
  return new Intl.ListFormat(listLocale(), { type: "disjunction" }).format(items.map(String));
}

function param(value) {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return andList(value.map(param));
  if (typeof value === "object" && value.key) return fmt(value);
  return String(value);
}

// The message `key` with {name} parameters filled in; `fallback` (English) when no catalog has
// the key, else the key itself (a missing translation shows, rather than an empty string).
export function t(key, params = {}, fallback) {
  let message = key in messages ? messages[key] : key in base ? base[key] : fallback;
  if (message === undefined || message === null) return key;
  message = pick(message, params);
  return String(message).replace(/\{(\w+)\}/g, (all, name) => (name in params ? param(params[name]) : all));
}

// Every element under `root` marked data-i18n="key" gets that message as its text (the page's
// fixed words: the header's links).
export function translateMarked(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
}

// A message from the server ({key, params}: a structured view, an error); `fallback`: its
// English text, for a server message the catalogs do not know.
export function fmt(message, fallback) {
  if (Array.isArray(message)) { // parts said one after the other
    return message.every((m) => m && has(m.key)) ? message.map((m) => fmt(m)).join("") : fallback ?? "";
  }
  if (!message || !message.key) return fallback ?? "";
  if (!has(message.key) && fallback !== undefined) return fallback;
  return t(message.key, message.params || {}, fallback);
}

// The words of a refused request (api.js's error: `data` is the server's body): in the reader's
// language where the server sent the refusal as a message (`i18n`: an illegal move, not your
// turn, too many requests), else the server's English; in English always the server's own words,
// which may say more (the engine's reason).
export function refusal(err) {
  if (!err) return "";
  const keyed = lang !== BASE && err.data && err.data.i18n;
  return keyed ? fmt(err.data.i18n, err.message) : err.message || String(err);
}
