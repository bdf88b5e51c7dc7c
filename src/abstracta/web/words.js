// Words the pages share for what a match is: its title, its seats' names, its options, how far it
// is and its clock ("White", "Player 2", "Board: Dimy (5×5)", "5 + 3", "4:07").
import { h } from "./dom.js";
import { t } from "./i18n.js";

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
export function seatNamer(seats, players, mine) {
  return (i) => (seats && seats[i] && seats[i].name ? seatWord(seats[i]) : defaultSeatName(i, players, mine));
}
// A seat's name in the game (White) in the reader's language.
export const seatWord = (seat) => t(seat.name_key, {}, seat.name);
// A game's words from its description: the catalog's, else the English the API sent.
export const gameTitle = (g) => (g ? t(g.title_key, {}, g.title) : "");
// A match's name: the game's, with the declared variant its options make where it has one
// ("Game — Variant"; the server names it: view.variant, null at the game's defaults).
export const matchTitle = (title, variant) => (variant ? t("game.with_variant", { game: title, variant: t(variant.label_key, {}, variant.label) }) : title);
export const coloured = (seats) => !!(seats && seats.some((s) => s && s.name));

// A game in play in a list (a row of Your games, or a watched game's view): whom it waits for —
// a friend invited who has not come, this browser ("your move", marked), else the side to move;
// "in play" when no seat is to move (a chance outcome next) or the server did not say.
export function playingWords(m, mine, name) {
  const invited = (m.players || []).map((p, i) => (p === "human" && m.claimed && m.claimed[i] === false ? i : -1)).filter((i) => i >= 0);
  if (invited.length) return t("matches.waiting_join", { who: invited.map(name), n: invited.length });
  const mover = m.to_move;
  if (mover === null || mover === undefined) return t("matches.in_play");
  if (mine.includes(mover) && m.players[mover] === "human") return h("span", { class: "yourmove" }, t("matches.your_move"));
  return t("status.to_move", { who: name(mover) });
}

// A game's length in Your games, for a game played and one watched alike: the turns, and the
// actions where a turn may hold several ("2 turns (3 actions)").
export const movesWords = (turns, ply) => (turns === ply ? `${ply}` : t("matches.turns_actions", { n: turns, actions: ply }));

// The options that differ from the game's defaults, in the game's words ("Board: Dimy (5×5)").
export function optionWords(game, options) {
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

// A time control in words: "5 + 3" (minutes + seconds per turn), "1 day per move".
export function controlWords(control) {
  if (!control) return t("clock.none_lower");
  if (control.per_turn !== undefined) {
    const d = control.per_turn / 86400;
    if (Number.isInteger(d)) return t("clock.days_per_move", { n: d });
    return t("clock.per_move", { time: clockText(control.per_turn, true) });
  }
  const m = control.initial / 60;
  return Number.isInteger(m) ? `${m} + ${control.increment || 0}` : `${control.initial} s + ${control.increment || 0} s`;
}

// A span of seconds in words, as a deadline reads: "1 day", "1 d 3 h", "23 h 59 min",
// "4 min 5 s", "27 s" (the largest two units, rounded down; whole seconds).
export function durationWords(sec) {
  const s = Math.max(0, Math.ceil(sec));
  const d = Math.floor(s / 86400), hh = Math.floor((s % 86400) / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  if (d) return hh ? t("clock.days_hours", { d, h: hh }) : t("time.days", { n: d });
  if (hh) return t("clock.hours_minutes", { h: hh, m: mm });
  if (mm) return ss ? t("time.minutes_seconds", { m: mm, s: ss }) : t("time.minutes", { n: mm });
  return t("time.seconds", { n: ss });
}

// Seconds left as a clock shows them: m:ss (h:mm:ss past an hour, tenths under 10 s); a
// correspondence clock (`long`) in days and hours.
export function clockText(sec, long = false) {
  sec = Math.max(0, sec);
  if (long && sec >= 86400) return t("clock.days_hours", { d: Math.floor(sec / 86400), h: Math.floor((sec % 86400) / 3600) });
  if (long && sec >= 3600) return t("clock.hours_minutes", { h: Math.floor(sec / 3600), m: Math.floor((sec % 3600) / 60) });
  if (sec < 10) return `0:0${(Math.floor(sec * 10) / 10).toFixed(1)}`;
  const s = Math.floor(sec);
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}
