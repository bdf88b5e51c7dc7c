// The new-game form (#/new/<game>): the game's options, who sits where, the clock.
import { api } from "./api.js";
import { analysisLink } from "./analysis.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { lessonOffer, markKnown } from "./lesson.js";
import { clockPicker } from "./lobby.js";
import { ensurePerson, levelRatings, ratedChoice } from "./names.js";
import { games, inSight, notFound, showError } from "./shell.js";
import { gameTitle, seatWord } from "./words.js";

export async function newGamePage(app, name) {
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
