// "#/join/<code>": what the invitation is for, and a button that claims the seat. The code only
// travels in the fragment and in request bodies (never in a URL the server logs).
import { api } from "./api.js";
import { h } from "./dom.js";
import { refusal, t } from "./i18n.js";
import { ensurePerson, personName } from "./names.js";
import { whoAmI } from "./people.js";
import { showError } from "./shell.js";
import { controlWords, matchTitle, seatWord } from "./words.js";

export async function joinPage(app, code) {
  document.title = `${t("join.title")} — abstracta`;
  let info;
  try {
    info = await api("/api/invites/lookup", { method: "POST", body: { code } });
  } catch (e) {
    app.append(h("h1", {}, t("join.title")),
      // 422: a code longer than any invitation's (a link run together with the words after it)
      h("p", { class: "error", id: "join-error" }, e.status === 404 || e.status === 422 ? t("join.none") : refusal(e)),
      h("p", {}, h("a", { href: "#/", class: "button" }, t("rules.see_games"))));
    return;
  }
  // the match as a spectator sees it: who is there, how far the game is, its clock
  let view = null;
  try { view = await api(`/api/matches/${info.match}`); } catch { /* the invitation alone is enough */ }
  const mine = view ? view.my_seats : [];
  const name = (i) => (info.seats[i] && info.seats[i].name ? seatWord(info.seats[i]) : t("seat.player", { n: i + 1 }));
  const title = matchTitle(t(info.title_key, {}, info.title), info.variant); // as the match is headed
  app.append(h("h1", {}, t("join.heading", { game: title })));
  const people = h("ul", { class: "whois", id: "join-seats" }, ...info.players.map((p, i) => h("li", { class: i === info.seat ? "invited" : null },
    h("b", {}, name(i)), " — ",
    p !== "human" ? t("join.who.computer", { level: p.slice(6) })
      : i === info.seat ? (info.claimed ? (mine.includes(i) ? t("join.who.you") : personName(info, i) || t("join.who.taken")) : t("join.who.this"))
      : mine.includes(i) ? t("join.who.you")
      : personName(info, i) || (view && !view.claimed[i] ? t("join.who.invited") : t("join.who.person")))));
  const facts = [];
  if (view) {
    // the server counts it, as "Your games" lists it: a count of the page's own could drift from it
    const played = view.turns_played;
    facts.push(["join-played", view.status === "over" ? t("match.over_note") : played ? t("join.played", { n: played }) : t("join.none_played")]);
    if (view.clock) facts.push(["join-clock", t("join.clock", { control: controlWords(view.clock.control) })]);
  }
  const err = h("p", { class: "error", id: "join-error", hidden: true });
  if (info.claimed && mine.includes(info.seat)) {
    // the friend who took the seat, back from the message the link came in: not "used already"
    app.append(h("p", { class: "lead", id: "join-mine" }, t("join.mine", { seat: name(info.seat) })),
      people, h("p", { class: "row" }, h("a", { href: `#/match/${info.match}`, class: "button primary", id: "play-on" }, t("join.play_on"))));
    return;
  }
  if (info.claimed) {
    app.append(h("p", { class: "error", id: "join-error" }, t("join.used", { seat: name(info.seat) })),
      people, h("p", { class: "row" }, h("a", { href: `#/match/${info.match}`, class: "button", id: "watch" }, t("join.watch"))));
    return;
  }
  // a rated game: its seat is an account's (the server refuses anyone else); say so first
  const me = await whoAmI();
  const ratedNote = info.rated ? h("p", { class: "rated-note", id: "join-rated" }, t("join.rated"),
    me && me.kind === "account" ? null : [" ", t("join.rated_account"), " ",
      h("a", { href: "#/signin", id: "join-signin" }, t("people.sign_in")), " · ",
      h("a", { href: "#/signup", id: "join-signup" }, t("people.make_account"))]) : null;
  const take = h("button", { type: "button", class: "primary", id: "take-seat", disabled: !!info.rated && !(me && me.kind === "account"), onclick: async () => {
    take.disabled = true;
    showError(err, null);
    try {
      if (!info.rated) await ensurePerson(); // the others read a name (a guest's), not "person"
      const m = await api("/api/invites/claim", { method: "POST", body: { code } }); // api.js keeps the token
      location.replace(`#/match/${m.id}`); // Back should not return to a used invitation
    } catch (e) {
      showError(err, e.status === 410 ? new Error(t("join.taken_now")) : e);
    }
  } }, t("join.take"));
  app.append(h("p", { class: "lead", id: "join-what" }, t("join.what", { game: title, seat: name(info.seat) })),
    ...(ratedNote ? [ratedNote] : []), people, ...facts.map(([id, f]) => h("p", { class: "muted", id }, f)),
    h("p", { class: "row" }, take, h("a", { href: `#/match/${info.match}`, class: "button" }, t("join.just_watch"))), err,
    h("p", { class: "muted" }, t(me && me.kind === "account" ? "join.keeps_account" : "join.keeps")));
}
