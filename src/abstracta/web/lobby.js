// The lobby (issue 42), #/lobby: people who never exchanged a link find each other. "Play now"
// (quick pairing by rating, the computer offered after 30 s alone), open seeks to take or to
// post, challenges to a named player, and the players one blocks. Live over the lobby's
// WebSocket (GET /api/lobby's snapshot each time it changes); a game the lobby starts for this
// person takes them there at once. Also the clock picker of every form that makes a game.
import { api } from "./api.js";
import { h, keepFocus } from "./dom.js";
import { lang, refusal, t } from "./i18n.js";
import { personLink, tNodes } from "./names.js";
import { SESSION_ENDED, becomeGuest, sessionEnded, whoAmI } from "./people.js";

// "Play now" clocks, as the game sites offer them: minutes + seconds per turn, and a day per move
const QUICK_CLOCKS = [[3, 2], [5, 3], [10, 5], [15, 10], [30, 0], ["day", 1]];

// A time control in words: "5 + 3" (minutes + seconds per turn), "1 day per move", "no clock".
export function clockWords(clock) {
  if (!clock) return t("clock.none_lower");
  if (clock.per_turn !== undefined) return t("clock.days_per_move", { n: Math.round(clock.per_turn / 86400) });
  const m = clock.initial / 60;
  const minutes = Number.isInteger(m) ? String(m) : m.toLocaleString(lang, { maximumFractionDigits: 2 });
  return `${minutes} + ${clock.increment || 0}`;
}

// A clock picker: none, a live clock (¼–180 minutes + 0–180 s per turn) or correspondence
// (1–14 days per move), the ranges people choose in (the server checks them too). `read()`
// returns the clock object, or throws an Error saying what is out of range.
export function clockPicker(prefix, start = { initial: 300, increment: 3 }) {
  const kind = h("select", { id: `${prefix}-kind` },
    h("option", { value: "none" }, t("clock.none")),
    h("option", { value: "live" }, t("clock.live")),
    h("option", { value: "days" }, t("clock.correspondence")));
  const minutes = h("input", { id: `${prefix}-minutes`, type: "number", min: "0.25", max: "180", step: "0.25", inputmode: "decimal" });
  const increment = h("input", { id: `${prefix}-increment`, type: "number", min: "0", max: "180", step: "1", inputmode: "numeric" });
  const days = h("input", { id: `${prefix}-days`, type: "number", min: "1", max: "14", step: "1", inputmode: "numeric" });
  const liveBox = h("span", { class: "clock-fields" },
    h("label", { for: minutes.id }, h("span", {}, t("lobby.clock.minutes")), minutes),
    h("label", { for: increment.id }, h("span", {}, t("lobby.clock.increment")), increment));
  const daysBox = h("span", { class: "clock-fields" }, h("label", { for: days.id }, h("span", {}, t("lobby.clock.days")), days));
  const show = () => { liveBox.hidden = kind.value !== "live"; daysBox.hidden = kind.value !== "days"; };
  function set(clock) {
    kind.value = !clock ? "none" : clock.per_turn !== undefined ? "days" : "live";
    minutes.value = clock && clock.initial !== undefined ? String(clock.initial / 60) : "5";
    increment.value = clock && clock.initial !== undefined ? String(clock.increment || 0) : "3";
    days.value = clock && clock.per_turn !== undefined ? String(Math.round(clock.per_turn / 86400)) : "1";
    show();
  }
  kind.addEventListener("change", show);
  set(start);
  const node = h("fieldset", { class: "clock-picker", id: prefix },
    h("legend", {}, t("clock.label")),
    h("label", { for: kind.id }, h("span", {}, t("lobby.clock.kind")), kind), liveBox, daysBox,
    h("small", { class: "muted" }, t("clock.help")));
  function read() {
    if (kind.value === "none") return null;
    if (kind.value === "days") {
      const d = Number(days.value);
      if (!Number.isInteger(d) || d < 1 || d > 14) throw new Error(t("lobby.clock.days_range"));
      return { per_turn: d * 86400 };
    }
    const m = Number(minutes.value), inc = Number(increment.value);
    if (!(m >= 0.25 && m <= 180)) throw new Error(t("lobby.clock.minutes_range"));
    if (!(Number.isInteger(inc) && inc >= 0 && inc <= 180)) throw new Error(t("lobby.clock.increment_range"));
    return { initial: Math.round(m * 60), increment: inc };
  }
  return { node, read, set };
}

// The two-player games of the catalogue, each declared variant of two players one entry:
// [{value, game, options, label}] (the value is what a <select> holds).
function twoPlayerGames(list) {
  const out = [];
  for (const g of list) {
    const title = t(g.title_key, {}, g.title);
    const variants = (g.variants || []).filter((v) => v.num_players === 2);
    if (!variants.length && g.num_players === 2) out.push({ game: g.name, options: {}, label: title });
    for (const v of variants) {
      const label = (g.variants.length > 1 || Object.keys(v.options).length) ? t("game.with_variant", { game: title, variant: t(v.label_key, {}, v.label) }) : title;
      out.push({ game: g.name, options: v.options, label });
    }
  }
  return out.map((x, i) => ({ ...x, value: String(i) }));
}

// A challenge to this person in words ("anna (1500?) challenges you: <game>, 5 + 3, casual."),
// as the lobby lists it, the challenger's name a link to their profile (an account's): its
// pieces; `list`: the games (shell.js) for the game's name.
export function challengeWords(c, list) {
  const found = twoPlayerGames(list).find((x) => JSON.stringify([x.game, x.options]) === JSON.stringify([c.game, c.options || {}]));
  const what = [found ? found.label : c.game, clockWords(c.clock), c.rated ? t("lobby.rated_lower") : t("lobby.casual")].join(", ");
  return tNodes("lobby.challenge.from", { who: personLink(c.from || "", c.from_kind), rating: rating(c), what });
}

// `params`: the page's parameters; challenge=<name> (a profile's Challenge) opens the form for a
// challenge to that player alone and brings it into sight, its first choice focused (not again
// when the page is drawn anew in another language: `switched`, the reader's place is kept).
export async function lobbyPage(app, { games, params = new URLSearchParams(), switched = false }) {
  document.title = `${t("lobby.title")} — abstracta`;
  const list = twoPlayerGames(await games());
  const me = await whoAmI(true);
  if (!app.isConnected) return;
  const gameName = (game, options) => {
    const key = JSON.stringify([game, options || {}]);
    const found = list.find((x) => JSON.stringify([x.game, x.options]) === key);
    return found ? found.label : game;
  };
  app.append(h("h1", {}, t("lobby.title")), h("p", { class: "lead" }, t("lobby.lead")));
  if (!me.kind) app.append(...guestOffer());
  const say = h("p", { class: "sr-only", id: "lobby-say", "aria-live": "polite" });
  const error = h("p", { class: "error", id: "lobby-error", role: "alert", hidden: true });
  const fail = (e) => { error.textContent = e ? refusal(e) : ""; error.hidden = !e; if (e) error.scrollIntoView({ block: "nearest" }); };
  // what the lobby's parts share: the games, who this is, the settings in words, an act (its
  // refusal said under Play now, the lobby asked again after it), the way to a game started here
  const lobby = {
    list, me, account: me.kind === "account", known: null, // known: the games started before this page was opened: not gone to again
    settings: (x) => [gameName(x.game, x.options), clockWords(x.clock), x.rated ? t("lobby.rated_lower") : t("lobby.casual")].join(", "),
    act: async (fn) => { fail(null); try { await fn(); await refresh(); } catch (e) { fail(e); } },
    go: (m) => { lobby.known.add(m.id); location.hash = `#/match/${m.id}`; },
    gameSelect: (id) => h("select", { id }, ...list.map((x) => h("option", { value: x.value }, x.label))),
    refresh: () => refresh(),
  };
  const quick = quickPart(lobby);
  app.append(quick.node, error, say);
  const seeksBox = h("ul", { class: "seeks", id: "seeks", "aria-label": t("lobby.seeks.heading") });
  app.append(h("section", { class: "lobby-part", id: "seeks-part" }, h("h2", {}, t("lobby.seeks.heading")), seeksBox));
  const challengesBox = h("div", { id: "challenges" });
  app.append(h("section", { class: "lobby-part", id: "challenges-part", hidden: !me.kind }, h("h2", {}, t("lobby.challenges.heading")), challengesBox));
  const blocks = blocksPart(lobby);
  const challengeTo = (params.get("challenge") || "").trim();
  const newPart = me.kind ? newSeekPart(lobby, challengeTo) : null;
  if (me.kind) app.append(newPart.node, blocks.node);

  function draw(snapshot) {
    if (lobby.known === null) lobby.known = new Set((snapshot.started || []).map((g) => g.id));
    const fresh = (snapshot.started || []).find((g) => !lobby.known.has(g.id));
    if (fresh) { lobby.known.add(fresh.id); say.textContent = t("lobby.started"); location.hash = `#/match/${fresh.id}`; return; }
    quick.draw(snapshot);
    drawSeeks(seeksBox, snapshot.seeks, lobby);
    drawChallenges(challengesBox, snapshot.challenges, lobby);
    if (newPart) newPart.draw(snapshot.challenges.out);
  }
  async function refresh() {
    const snapshot = await api("/api/lobby");
    if (app.isConnected) draw(snapshot);
  }
  await refresh();
  await blocks.draw().catch(() => {});
  const live = lobbySocket(app, draw, refresh);
  // after the router has scrolled the new page to its top and placed the focus (app.js)
  if (newPart && challengeTo && !switched) {
    setTimeout(() => {
      if (!app.isConnected) return;
      newPart.node.scrollIntoView({ block: "start" });
      newPart.node.querySelector("#new-game-choice").focus({ preventScroll: true });
    }, 0);
  }
  return () => { quick.stop(); live.stop(); };
}

// Nobody signed in: play as a guest (a session with a generated name) or sign in. Returns the nodes.
function guestOffer() {
  const err = h("p", { class: "error", id: "lobby-guest-error", role: "alert", hidden: true });
  return [h("p", { class: "row", id: "lobby-signed-out" },
    h("button", { type: "button", class: "primary", id: "lobby-guest", onclick: async () => {
      try { await becomeGuest(); window.dispatchEvent(new HashChangeEvent("hashchange", { oldURL: location.href, newURL: location.href })); } catch (e) { err.textContent = refusal(e); err.hidden = false; }
    } }, t("lobby.play_as_guest")), h("a", { href: "#/signin", class: "button" }, t("people.sign_in"))), err];
}

const rating = (x) => `${x.rating}${x.provisional ? "?" : ""}`;

// "Play now": a game and a clock pressed, then the wait for a partner (the computer offered after
// 30 s alone). Returns {node, draw(snapshot), stop()}.
function quickPart(lobby) {
  const { list, me, act, settings } = lobby;
  const quickGame = lobby.gameSelect("quick-game");
  const quickRated = h("input", { type: "checkbox", id: "quick-rated", disabled: !lobby.account });
  const quickState = h("div", { class: "quick-state", id: "quick-state", "aria-live": "polite" });
  const quickButtons = h("div", { class: "row quick-clocks", id: "quick-clocks", role: "group", "aria-label": t("lobby.quick.clocks") },
    ...QUICK_CLOCKS.map(([a, b]) => {
      const clock = a === "day" ? { per_turn: 86400 * b } : { initial: a * 60, increment: b };
      const words = clockWords(clock);
      return h("button", { type: "button", class: "quick", "data-clock": JSON.stringify(clock), disabled: !me.kind,
        "aria-label": t("lobby.quick.play_now", { clock: words }),
        onclick: () => act(() => {
          const pick = list[Number(quickGame.value)];
          return api("/api/quick", { method: "POST", body: { game: pick.game, options: pick.options, clock, rated: quickRated.checked } });
        }) }, words);
    }));
  const node = h("section", { class: "lobby-part", id: "quick" }, h("h2", {}, t("lobby.quick.heading")),
    h("p", { class: "muted" }, t("lobby.quick.help")),
    h("div", { class: "row" }, h("label", { for: "quick-game" }, h("span", {}, t("lobby.game")), quickGame),
      h("label", { for: "quick-rated", class: "check" }, quickRated, h("span", {}, t("lobby.rated")))),
    quickButtons, quickState);
  let quickTimer = null;
  function draw(data) {
    const q = data && data.quick && !data.quick.match ? data.quick : null;
    clearInterval(quickTimer);
    const focus = keepFocus(quickState);
    quickState.replaceChildren();
    for (const b of quickButtons.querySelectorAll("button")) b.disabled = !me.kind || !!q;
    quickGame.disabled = !!q;
    if (!q) {
      quickState.append(h("p", { class: "muted" }, t("lobby.quick.waiting_count", { n: data ? data.waiting : 0 })));
      focus();
      return;
    }
    const since = Date.parse(q.since);
    const elapsed = h("span", { id: "quick-elapsed" });
    const tick = () => { elapsed.textContent = t("lobby.quick.waited", { n: Math.max(0, Math.floor((Date.now() - since) / 1000)) }); };
    tick();
    quickTimer = setInterval(tick, 1000);
    quickState.append(h("p", { id: "quick-waiting" }, t("lobby.quick.looking", { what: settings(q) }), " ", elapsed, " ",
      h("button", { type: "button", id: "quick-cancel", onclick: () => act(() => api("/api/quick", { method: "DELETE" })) }, t("lobby.quick.cancel"))));
    if (q.computer) {
      quickState.append(h("p", { id: "quick-computer" }, t("lobby.quick.computer", { level: q.computer.level }), " ",
        h("button", { type: "button", class: "primary", id: "quick-computer-play", onclick: () => act(async () => {
          lobby.go(await api("/api/quick/computer", { method: "POST" }));
        }) }, t("lobby.quick.play_computer", { level: q.computer.level }))));
    }
    focus();
  }
  return { node, draw, stop: () => clearInterval(quickTimer) };
}

// A new seek or challenge: the game's settings, then who (anyone in a rating range, or a named
// player). Opened for one challenge (`challengeTo`, a profile's Challenge), the seek's own parts
// (the opponent's rating, Post a seek, the name) wait behind "Post a public seek instead": on a
// phone Post a seek stood on screen above a Challenge out of sight. A challenge sent is said under
// its button, where the eye is, and followed there until answered. Returns {node, draw(out)}, out
// the snapshot's challenges of this person.
function newSeekPart(lobby, challengeTo = "") {
  const { list } = lobby;
  const formGame = lobby.gameSelect("new-game-choice");
  const picker = clockPicker("new-clock");
  const rated = h("input", { type: "checkbox", id: "new-rated", disabled: !lobby.account });
  const seat = h("select", { id: "new-seat" }, h("option", { value: "" }, t("lobby.seat.either")),
    h("option", { value: "0" }, t("lobby.seat.first")), h("option", { value: "1" }, t("lobby.seat.second")));
  const low = h("input", { id: "new-low", type: "number", min: "0", max: "4000", step: "50", inputmode: "numeric" });
  const high = h("input", { id: "new-high", type: "number", min: "0", max: "4000", step: "50", inputmode: "numeric" });
  const opponent = h("input", { id: "new-opponent", autocomplete: "off", autocapitalize: "off", spellcheck: "false", value: challengeTo || null });
  // come from a profile's Challenge: whom, and what is left to choose, said first (and read out
  // with the game's choice, which takes the focus)
  const prefilled = challengeTo ? h("p", { class: "note", id: "challenge-note" }, t("lobby.challenge.prefilled", { name: challengeTo })) : null;
  const formError = h("p", { class: "error", id: "new-seek-error", role: "alert", hidden: true });
  // said under the button: the seek itself is listed further up, out of sight on a phone
  const formNote = h("p", { class: "note", id: "new-seek-note", role: "status", hidden: true });
  // the challenge sent from this form, said under its button and drawn again at each snapshot
  const sentBox = h("div", { class: "note", id: "challenge-sent", role: "status", hidden: true });
  let sent = null;
  const body = () => {
    const pick = list[Number(formGame.value)];
    return { game: pick.game, options: pick.options, clock: picker.read(), rated: rated.checked, seat: seat.value === "" ? null : Number(seat.value) };
  };
  const send = async (fn, done = null) => {
    formError.hidden = true;
    formNote.hidden = true;
    try {
      await fn();
      if (done) { formNote.textContent = done; formNote.hidden = false; formNote.scrollIntoView({ block: "nearest" }); }
      await lobby.refresh();
    } catch (e) {
      formError.textContent = refusal(e);
      formError.hidden = false;
      formError.scrollIntoView({ block: "nearest" });
    }
  };
  const range = () => {
    const [a, b] = [low.value, high.value].map((v) => (v === "" ? null : Number(v)));
    return a === null && b === null ? null : [a, b];
  };
  if (prefilled) formGame.setAttribute("aria-describedby", prefilled.id);
  const challenge = h("button", { type: "button", id: "send-challenge", class: prefilled ? "primary" : null, onclick: () => send(async () => {
    const to = opponent.value.trim();
    if (!to) throw new Error(t("lobby.challenge.need_name"));
    sent = await api("/api/challenges", { method: "POST", body: { ...body(), to } });
    if (prefilled) prefilled.hidden = true; // done as it says
    draw([]);
    sentBox.scrollIntoView({ block: "nearest" });
  }) });
  // the button names whom it challenges
  const named = () => { const to = opponent.value.trim(); challenge.textContent = to ? t("lobby.challenge.send_named", { name: to }) : t("lobby.challenge.send"); };
  named();
  opponent.addEventListener("input", named);
  const rangeBox = h("fieldset", { class: "range" }, h("legend", {}, t("lobby.range.label")),
    h("label", { for: low.id }, h("span", {}, t("lobby.range.low")), low), h("label", { for: high.id }, h("span", {}, t("lobby.range.high")), high));
  const seekRow = h("p", { class: "row" }, h("button", { type: "submit", class: "primary", id: "post-seek" }, t("lobby.seek.post")));
  const opponentLabel = h("label", { for: opponent.id }, h("span", {}, t("lobby.challenge.name")), opponent);
  const seekParts = [rangeBox, seekRow, opponentLabel];
  let oneChallenge = !!prefilled;
  const seekInstead = prefilled ? h("button", { type: "button", class: "link", id: "seek-instead", onclick: () => {
    oneChallenge = false;
    for (const n of seekParts) n.hidden = false;
    seekInstead.hidden = true;
    prefilled.hidden = true;
    challenge.classList.remove("primary");
    const post = seekRow.querySelector("button");
    post.focus({ preventScroll: true });
    post.scrollIntoView({ block: "nearest" });
  } }, t("lobby.challenge.seek_instead")) : null;
  if (oneChallenge) for (const n of seekParts) n.hidden = true;
  const form = h("form", { class: "lobby-form", id: "new-seek", novalidate: true }, prefilled,
    h("label", { for: formGame.id }, h("span", {}, t("lobby.game")), formGame), picker.node,
    h("label", { for: rated.id, class: "check" }, rated, h("span", {}, t("lobby.rated"))),
    !lobby.account ? h("small", { class: "muted" }, t("lobby.rated_accounts")) : null,
    h("label", { for: seat.id }, h("span", {}, t("lobby.seat.label")), seat),
    rangeBox, seekRow, formNote, opponentLabel,
    h("p", { class: "row" }, challenge, seekInstead),
    sentBox, formError);
  form.addEventListener("submit", (ev) => { ev.preventDefault(); send(() => api("/api/seeks", { method: "POST", body: { ...body(), rating_range: range() } }), t("lobby.seek.posted")); });
  // Enter in a field sends the form's first button, the seek: in the opponent's name, or anywhere
  // in a form opened to challenge someone, a person means the challenge
  form.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter" || ev.target.tagName !== "INPUT" || ev.target.type === "checkbox") return;
    if (ev.target !== opponent && !(oneChallenge && opponent.value.trim())) return;
    ev.preventDefault();
    challenge.click();
  });
  // the challenge sent, as the last snapshot has it (answered: what became of it; gone from
  // the snapshots two minutes after its answer: as last seen)
  function draw(out) {
    if (!sent) return;
    sent = out.find((c) => c.id === sent.id) || sent;
    const c = sent, who = personLink(c.to || "", c.to_kind);
    const focus = keepFocus(sentBox, challenge);
    sentBox.replaceChildren(...(c.status === "open"
      ? [h("span", {}, ...tNodes("lobby.challenge.sent", { who }), " ", h("span", { class: "muted" }, `(${lobby.settings(c)})`)),
        h("button", { type: "button", "aria-label": t("lobby.challenge.withdraw_named", { who: c.to || "" }),
          onclick: () => send(() => api(`/api/challenges/${c.id}`, { method: "DELETE" })) }, t("lobby.challenge.withdraw"))]
      : [h("span", {}, ...tNodes(`lobby.challenge.out_${c.status}`, { who, what: lobby.settings(c) }))]));
    sentBox.hidden = false;
    focus();
  }
  return { node: h("section", { class: "lobby-part", id: "new-part" }, h("h2", {}, t("lobby.new.heading")), form), draw };
}

// The players this person blocks, and a name to block. Returns {node, draw()}.
function blocksPart(lobby) {
  const { act } = lobby;
  const blocksBox = h("ul", { class: "blocks", id: "blocks" });
  const blockName = h("input", { id: "block-name", autocomplete: "off", autocapitalize: "off", spellcheck: "false" });
  const blockForm = h("form", { class: "row", id: "block-form" }, h("label", { for: blockName.id }, h("span", {}, t("lobby.block.name")), blockName),
    h("button", { type: "submit", id: "block" }, t("lobby.block.do")));
  blockForm.addEventListener("submit", (ev) => { ev.preventDefault(); act(() => api("/api/blocks", { method: "POST", body: { name: blockName.value.trim() } }).then(() => { blockName.value = ""; draw(); })); });
  async function draw() {
    if (!lobby.me.kind) return;
    const rows = await api("/api/blocks");
    const focus = keepFocus(blocksBox);
    blocksBox.replaceChildren(...rows.map((b) => h("li", {}, personLink(b.name, b.kind), " ",
      h("button", { type: "button", "aria-label": t("lobby.block.undo_named", { name: b.name }), onclick: () => act(() => api(`/api/blocks/${encodeURIComponent(b.name)}`, { method: "DELETE" }).then(draw)) }, t("lobby.block.undo")))));
    if (!rows.length) blocksBox.append(h("li", { class: "muted" }, t("lobby.block.none")));
    focus();
  }
  const node = h("section", { class: "lobby-part", id: "blocks-part" }, h("h2", {}, t("lobby.block.heading")), h("p", { class: "muted" }, t("lobby.block.help")), blocksBox, blockForm);
  return { node, draw };
}

// The open seeks of a snapshot: each to take (or why not), this person's own to withdraw.
function drawSeeks(seeksBox, seeks, lobby) {
  const { act, settings } = lobby;
  const focus = keepFocus(seeksBox);
  seeksBox.replaceChildren(...seeks.map((s) => h("li", { "data-seek": s.id, class: s.mine ? "mine" : null },
    h("span", { class: "who" }, s.player ? personLink(s.player, s.player_kind) : t("lobby.deleted_player")), " ", h("span", { class: "rating" }, rating(s)),
    s.mine ? h("span", { class: "yours" }, ` (${t("lobby.seek.yours")})`) : null, " — ",
    h("span", { class: "what" }, settings(s)),
    s.seat !== null ? h("span", { class: "muted" }, ` (${t(s.seat === 0 ? "lobby.seat.plays_first" : "lobby.seat.plays_second", { who: s.player || "" })})`) : null,
    s.rating_range ? h("span", { class: "muted" }, ` ${t("lobby.range.shown", { low: s.rating_range[0] ?? "–", high: s.rating_range[1] ?? "–" })}`) : null,
    " ",
    s.mine ? h("button", { type: "button", class: "withdraw", "aria-label": t("lobby.seek.withdraw_named", { what: settings(s) }), onclick: () => act(() => api(`/api/seeks/${s.id}`, { method: "DELETE" })) }, t("lobby.seek.withdraw"))
      : h("button", { type: "button", class: "primary accept", disabled: !s.acceptable, title: s.refusal && s.refusal !== "own" ? t(`lobby.refusal.${s.refusal}`) : null,
        "aria-label": t("lobby.seek.accept_named", { who: s.player || "", what: settings(s) }),
        onclick: () => act(async () => lobby.go(await api(`/api/seeks/${s.id}/accept`, { method: "POST" }))) }, t("lobby.seek.accept")))));
  if (!seeks.length) seeksBox.append(h("li", { class: "muted", id: "no-seeks" }, t("lobby.seeks.none")));
  focus();
}

// The challenges of a snapshot: those to this person (accept, decline), and theirs (withdraw).
function drawChallenges(challengesBox, { in: cin, out: cout }, lobby) {
  const { act, settings } = lobby;
  const cfocus = keepFocus(challengesBox);
  challengesBox.replaceChildren(
    h("ul", { class: "challenges", id: "challenges-in", "aria-label": t("lobby.challenges.in") }, ...cin.map((c) => h("li", { "data-challenge": c.id },
      h("span", {}, tNodes("lobby.challenge.from", { who: personLink(c.from || "", c.from_kind), rating: rating(c), what: settings(c) })),
      c.seat !== null ? h("span", { class: "muted" }, ` ${t(c.seat === 0 ? "lobby.challenge.you_second" : "lobby.challenge.you_first")}`) : null, " ",
      h("button", { type: "button", class: "primary", "aria-label": t("lobby.challenge.accept_named", { who: c.from || "" }),
        onclick: () => act(async () => lobby.go(await api(`/api/challenges/${c.id}/accept`, { method: "POST" }))) }, t("lobby.challenge.accept")), " ",
      h("button", { type: "button", "aria-label": t("lobby.challenge.decline_named", { who: c.from || "" }), onclick: () => act(() => api(`/api/challenges/${c.id}/decline`, { method: "POST" })) }, t("lobby.challenge.decline"))))),
    h("ul", { class: "challenges", id: "challenges-out", "aria-label": t("lobby.challenges.out") }, ...cout.map((c) => h("li", { "data-challenge": c.id, "data-status": c.status },
      h("span", {}, tNodes(`lobby.challenge.out_${c.status}`, { who: personLink(c.to || "", c.to_kind), what: settings(c) })), " ",
      c.status === "open" ? h("button", { type: "button", "aria-label": t("lobby.challenge.withdraw_named", { who: c.to || "" }), onclick: () => act(() => api(`/api/challenges/${c.id}`, { method: "DELETE" })) }, t("lobby.challenge.withdraw")) : null))));
  if (!cin.length && !cout.length) challengesBox.append(h("p", { class: "muted", id: "no-challenges" }, t("lobby.challenges.none")));
  cfocus();
}

// Live: the lobby's WebSocket (`draw(snapshot)` at each push), polling (`refresh()`) while it is
// closed, reopened after 2 s; neither once the person's session has ended and nobody is signed in
// (the lobby on screen is theirs: their seeks, challenges and blocks). Returns {stop()}.
function lobbySocket(app, draw, refresh) {
  let socket = null, stopped = false, poll = null, reopen = null;
  function open() {
    try {
      socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/lobby/ws`);
    } catch { socket = null; return; }
    const openedAt = performance.now(); // (see sessionEnded)
    socket.onopen = () => { document.getElementById("app").dataset.lobby = "socket"; clearInterval(poll); poll = null; };
    socket.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg && msg.lobby && app.isConnected) draw(msg.lobby);
    };
    socket.onclose = (ev) => {
      socket = null;
      if (stopped) return;
      if (!poll) poll = setInterval(() => refresh().catch(() => {}), 3000);
      reopen = setTimeout(() => { if (!stopped) open(); }, 2000);
      // signed out elsewhere: no more of this person's lobby (a guest who made an account in
      // another tab is still signed in: reopened, as after any close)
      if (ev.code === SESSION_ENDED) sessionEnded(openedAt).then((gone) => { if (gone) stop(); });
    };
  }
  function stop() { stopped = true; clearInterval(poll); clearTimeout(reopen); if (socket) socket.close(); }
  open();
  return { stop };
}
