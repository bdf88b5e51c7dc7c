// Thin JSON client of the abstracta API. Every call resolves to the parsed body or throws an
// Error whose message is the server's {"error": "..."} text.
//
// Seat tokens (README "Playing at a distance (API)"): every answer that hands out tokens
// (creating or importing a match, claiming an invitation) is kept in localStorage under
// "abstracta.tokens" as {matchId: {seat: token}}; a request about a match sends that match's
// tokens as "Authorization: Bearer <t1>,<t2>", and the list of matches sends all of them.
export const TOKENS_KEY = "abstracta.tokens";

export function allTokens() {
  try { return JSON.parse(localStorage.getItem(TOKENS_KEY)) || {}; } catch { return {}; }
}

function saveTokens(all) {
  try { localStorage.setItem(TOKENS_KEY, JSON.stringify(all)); } catch { /* private mode: this page only */ }
}

// The tokens this browser holds for match `id` (a list, possibly empty: a spectator).
export function tokensOf(id) {
  return Object.values(allTokens()[id] || {});
}

export function keepTokens(answer) {
  if (!answer || !answer.id || !Array.isArray(answer.tokens) || !answer.tokens.length) return;
  const all = allTokens();
  const mine = all[answer.id] || {};
  for (const t of answer.tokens) mine[t.seat] = t.token;
  all[answer.id] = mine;
  saveTokens(all);
}

export function forgetTokens(id) {
  const all = allTokens();
  delete all[id];
  saveTokens(all);
  const codes = allInvites();
  delete codes[id];
  try { localStorage.setItem(INVITES_KEY, JSON.stringify(codes)); } catch { /* private mode */ }
}

// Invitation codes the creator received (shown once by the server, like tokens): kept under
// "abstracta.invites" as {matchId: {seat: code}} so the match page can show the links again
// after a reload. `replace`: the answer to "new links", which voids the earlier codes.
const INVITES_KEY = "abstracta.invites";

function allInvites() {
  try { return JSON.parse(localStorage.getItem(INVITES_KEY)) || {}; } catch { return {}; }
}

export function invitesOf(id) {
  return allInvites()[id] || {};
}

export function keepInvites(id, invites, replace = false) {
  if (!id || !Array.isArray(invites) || (!invites.length && !replace)) return;
  const all = allInvites();
  const mine = replace ? {} : all[id] || {};
  for (const i of invites) mine[i.seat] = i.code;
  all[id] = mine;
  try { localStorage.setItem(INVITES_KEY, JSON.stringify(all)); } catch { /* private mode: this page only */ }
}

function tokensFor(path, method = "GET") {
  const p = path.split("?")[0];
  // the list: every token; a new match (POST): none, it holds no seat yet
  if (p === "/api/matches") return method === "GET" ? Object.values(allTokens()).flatMap((seats) => Object.values(seats)) : [];
  const m = /^\/api\/matches\/([^/]+)/.exec(p);
  return m && m[1] !== "import" ? tokensOf(decodeURIComponent(m[1])) : [];
}

// `raw`: a body already in JSON text, sent as it is (see the record import in home.js)
// `tokens`: the tokens to send instead of those kept for `path` (see myMatches)
export async function api(path, { method = "GET", body, raw, tokens: given } = {}) {
  const init = { method, headers: {} };
  if (body !== undefined || raw !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = raw !== undefined ? raw : JSON.stringify(body);
  }
  const tokens = given || tokensFor(path, method);
  if (tokens.length) init.headers["Authorization"] = `Bearer ${tokens.join(",")}`;
  const res = await fetch(path, init);
  let data = null;
  const text = await res.text();
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!res.ok) {
    const err = new Error((data && data.error) || `HTTP ${res.status}`);
    err.status = res.status;
    err.data = data;
    throw err;
  }
  keepTokens(data);
  if (data && data.id) keepInvites(data.id, data.invites); // a creation or import answer
  return data;
}

// Most tokens the server reads from one request (matches.TOKEN_LIMIT; more are refused with 422);
// a browser that holds more (50 games of four people on one device) asks in several requests.
const TOKEN_LIMIT = 200;
// The server's largest list (GET /api/matches?limit=): more than one request's tokens can hold
// (a token is one seat of one match), so each request's answer is whole and no paging is needed.
const LIST_LIMIT = 500;

// Every match this browser holds a seat of (its tokens', and the person's signed in here: the
// cookie goes with every request), most recently played first (the rows of GET /api/matches):
// all of them, however many, or the newest `limit`.
export async function myMatches(limit = Infinity) {
  const tokens = Object.values(allTokens()).flatMap((seats) => Object.values(seats));
  const chunks = [];
  for (let i = 0; i < tokens.length; i += TOKEN_LIMIT) chunks.push(tokens.slice(i, i + TOKEN_LIMIT));
  // no token here: the person signed in (the session cookie) may hold seats all the same
  if (!chunks.length) chunks.push([]);
  const answers = await Promise.all(chunks.map((c) => api(`/api/matches?limit=${Math.min(limit, LIST_LIMIT)}`, { tokens: c })));
  const byId = new Map();
  for (const row of answers.flat()) {
    // one match's seats may be held by tokens of two chunks
    const seen = byId.get(row.id);
    if (seen) seen.my_seats = [...new Set([...seen.my_seats, ...row.my_seats])].sort((a, b) => a - b);
    else byId.set(row.id, row);
  }
  return [...byId.values()].sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0)).slice(0, limit);
}

// Games this browser watched (opened by their link, holding no seat), so that "Your games" can
// list them again: kept under "abstracta.watched" as {matchId: {game, at}} (at: ms since the
// epoch, last opened), at most WATCHED_LIMIT, the oldest dropped first. Nothing goes to the server.
const WATCHED_KEY = "abstracta.watched";
const WATCHED_LIMIT = 30;

// The watched games, most recently opened first: [{id, game, at}].
export function watchedGames() {
  let all = {};
  try { all = JSON.parse(localStorage.getItem(WATCHED_KEY)) || {}; } catch { /* none */ }
  return Object.entries(all).map(([id, w]) => ({ id, game: w.game, at: w.at })).sort((a, b) => b.at - a.at);
}

function saveWatched(list) {
  const all = Object.fromEntries(list.slice(0, WATCHED_LIMIT).map((w) => [w.id, { game: w.game, at: w.at }]));
  try { localStorage.setItem(WATCHED_KEY, JSON.stringify(all)); } catch { /* private mode */ }
}

export function keepWatched(id, game) {
  saveWatched([{ id, game, at: Date.now() }, ...watchedGames().filter((w) => w.id !== id)]);
}

export function forgetWatched(id) {
  saveWatched(watchedGames().filter((w) => w.id !== id));
}
