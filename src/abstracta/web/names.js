// The people at a match's seats (issue 41): their names where the match page, "Your games" and
// the invitation page said a colour or "person"; the rating change at the end of a rated game;
// a guest's session made when a seat is taken at a distance; the computer levels' approximate
// ratings on the new-game form. The pages call these from small hooks (match-seats.js,
// match-rating.js, matches.js, join.js, newgame.js); the server sends the names (a view's or a
// list row's `people`: per seat {name, kind} or null).
import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { becomeGuest, personLink, profileHref, whoAmI } from "./people.js";

// The name of the person at seat `i` of a view or a list row, or null (a computer, an open seat,
// a seat held by its token alone). A deleted account reads "deleted player".
export function personName(m, i) {
  const p = m && m.people ? m.people[i] : null;
  if (!p) return null;
  return p.kind === "deleted" || !p.name ? t("seat.deleted_player") : p.name;
}

// ------------------------------------------------------------------------------ links to profiles
// Where a person is named (a match's players, the lobby, Your games, the live games, chat), an
// account's name leads to its profile, as on lichess; a guest has no profile (the server's
// GET /api/players/{name} knows accounts only), so a guest's name stays text, never a dead link.
// personLink is made beside the profile page it leads to (people.js, which names.js reads: the
// pages take it from here).
export { personLink, profileHref };

// The person at seat `i` of a view or list row as shown (personName's words, the name a link
// for an account), or null.
export function personNode(m, i) {
  const name = personName(m, i);
  if (!name) return null;
  return personLink(name, m.people[i].kind);
}

// The message `key` with parameters that may be nodes (a person's link): its pieces in order,
// for h() to append (t's words and plurals; a node stands where its {param} is).
export function tNodes(key, params = {}) {
  const marks = [], plain = {};
  for (const [k, v] of Object.entries(params)) {
    if (v instanceof Node) { plain[k] = `\u0000${marks.length}\u0000`; marks.push(v); } else plain[k] = v;
  }
  if (!marks.length) return [t(key, params)];
  return t(key, plain).split("\u0000").map((piece, k) => (k % 2 ? marks[Number(piece)] : piece)).filter((x) => x !== "");
}

// Pieces (text or nodes) one after another with `sep` between them ("anna vs ben").
export function joinNodes(parts, sep) {
  return parts.flatMap((p, k) => (k ? [sep, p] : [p]));
}

// Whether anyone at the match is known by name (else every word is as before accounts).
export const hasPeople = (m) => !!(m && m.people && m.people.some(Boolean));

// The one person seat `mine` holds, or null (a spectator; people sharing a device).
function ownSeat(m, mine) {
  const own = (mine || []).filter((i) => m.players[i] === "human");
  return own.length === 1 ? own[0] : null;
}

// Seat names with the people's: `base(i)` is the shell's name (the game's colour, or You /
// Computer / Player N). Where the match has people, another person's seat reads their name
// ("anna wins", "ben to move"), a computer's "Computer (level 4)"; the seats played here keep
// the shell's name (the end says "You win" first for the one played here: the view's seat of
// the viewer). A match without people (a guest without a session, a game from before
// accounts) reads as it did.
export function namedSeats(m, base, mine) {
  if (!hasPeople(m)) return base;
  return (i) => {
    if ((mine || []).includes(i)) return base(i);
    const person = personName(m, i);
    if (person) return person;
    const spec = m.players[i] || "";
    if (spec.startsWith("level:")) {
      const level = spec.slice(6);
      return m.players.filter((p) => p === spec).length > 1 ? t("seat.computer_level_n", { n: i + 1, level }) : t("seat.computer_level", { level });
    }
    return base(i);
  };
}

// A seat's name where every seat is counted alike ("Stones: White (anna) 22, Black (ben) 20"):
// namedSeats says "White" for the reader's seat and "ben" for the other, which mixed colours and
// names in one line. In a game with colours (`colour(i)`: the seat's name in the game, null
// without) and people, the colour with the person (a computer's level) beside it, the reader's
// seat included; else `named(i)`, namedSeats' name (colours alone, or names alone).
export function seatWithPerson(m, i, colour, named) {
  const c = colour(i);
  if (!c || !hasPeople(m)) return named(i);
  const spec = m.players[i] || "";
  const who = personName(m, i) || (spec.startsWith("level:") ? t("seat.tag.computer_level", { level: spec.slice(6) }) : null);
  return who ? `${c} (${who})` : c;
}

// A seat's label in the line of players ("White (anna)", or "anna" in a game without colours),
// or null where the shell's own label says it (the seat played here, a computer, nobody known).
// `colour(i)`: the seat's name in the game, null in a game without colours.
export function seatLabel(m, i, mine, colour) {
  if ((mine || []).includes(i)) return null;
  const person = personName(m, i);
  if (!person) return null;
  const c = colour(i);
  return c ? `${c} (${person})` : person;
}

// seatLabel's words with the person's name a link to their profile (an account's): its pieces.
export function seatLabelNodes(m, i, mine, colour) {
  if (!seatLabel(m, i, mine, colour)) return null;
  const person = personNode(m, i);
  const c = colour(i);
  return c ? [c, " (", person, ")"] : [person];
}

// ------------------------------------------------------------------------------ ratings
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");
const rating = (n, provisional) => `${n}${provisional ? "?" : ""}`;

// What a rated game's end did to each rating ("Your rating: 1500 → 1662? (+162)", "ben: 1500 →
// 1338? (−162)"), under the result; hidden while the game runs, for an unrated game, and while
// its record waits (the next view has it).
export function drawRatingChanges(box, view, seatName, mine) {
  const changes = view.status === "over" ? view.rating_changes : null;
  const own = ownSeat(view, mine);
  // the reader's own first, then the others' in seat order
  const order = (changes || []).map((_, i) => i).sort((x, y) => (y === own) - (x === own) || x - y);
  const lines = order.map((i) => [changes[i], i]).map(([c, i]) => (c ? (i === own
    ? t("rating.yours", { before: c.before, after: rating(c.after, c.provisional), change: signed(c.change) })
    : t("rating.theirs", { name: seatName(i), before: c.before, after: rating(c.after, c.provisional), change: signed(c.change) })) : null))
    .filter(Boolean);
  const text = lines.join(" · ");
  if (box.textContent !== text) box.textContent = text;
  box.hidden = !text;
}

// "Rated" beside a rated match's heading (and said to screen readers with it).
export function ratedMark(view) {
  return view.rated ? h("span", { class: "rated-mark", id: "rated-mark" }, t("match.rated")) : null;
}

// ------------------------------------------------------------------------------ guests
// Before a seat is taken at a distance (a friend invited, an invitation claimed): a person for
// this browser, so that the others read a name, not "person". Nobody signed in becomes a guest
// with a generated name (POST /api/guests); if the server says no (too many guests from this
// address, the database busy), the seat is taken by its token alone, as before.
export async function ensurePerson() {
  const me = await whoAmI();
  if (me && me.kind) return me;
  try {
    return await becomeGuest();
  } catch { return me; }
}

// ------------------------------------------------------------------------------ the new-game form
// Each computer level's approximate rating for the options chosen ({level: rating}), from the
// level ladder and people's results (GET /api/levels/{game}); {} when the options make no
// declared variant or the server does not say.
const levelCache = new Map();
export async function levelRatings(game, options) {
  const q = new URLSearchParams(options).toString();
  const key = `${game}?${q}`;
  if (!levelCache.has(key)) {
    levelCache.set(key, api(`/api/levels/${encodeURIComponent(game)}${q ? "?" + q : ""}`)
      .then((r) => Object.fromEntries((r.levels || []).map((l) => [l.level, l.rating])))
      .catch(() => { levelCache.delete(key); return {}; }));
  }
  return levelCache.get(key);
}

// The "Rated game" choice of the new-game form: a checkbox for an account, else why not (with
// the way to sign in). `value()` says whether it is ticked; `fits(choice)`: a rated game is one
// seat "me" and every other "friend" (people at a distance), so the box is off otherwise.
export function ratedChoice() {
  const box = h("input", { type: "checkbox", id: "rated", name: "rated", disabled: true, "aria-describedby": "rated-help" });
  const help = h("small", { id: "rated-help" }, t("new.rated_help"));
  const node = h("label", { for: "rated", class: "rated-choice" }, h("span", {}, t("new.rated")), box, help);
  let account = false, known = false, choice = [];
  const fits = () => choice.filter((v) => v === "human").length === 1 && choice.every((v) => v === "human" || v === "friend");
  const draw = () => {
    box.disabled = !account || !fits();
    if (!known) return; // who this is comes first
    if (box.disabled) box.checked = false;
    if (!account) help.replaceChildren(t("new.rated_account"), " ", h("a", { href: "#/signin" }, t("people.sign_in")));
    else help.textContent = fits() ? t("new.rated_help") : t("new.rated_fits");
  };
  whoAmI().then((me) => { account = !!me && me.kind === "account"; known = true; draw(); });
  return {
    node,
    value: () => account && box.checked && !box.disabled,
    // the seats chosen ("human", "friend", "level:N" each)
    fits(seats) { choice = seats; draw(); },
  };
}
