// The match page's seats: who plays where and which seats this browser holds (seatsOf, the
// context's ctx.seats), the line of players with their clocks, the hand-over screen between people
// sharing a device in a game of hidden hands, and the invitations to the open seats.
import { api, invitesOf, keepInvites } from "./api.js";
import { h, keepFocus } from "./dom.js";
import { t } from "./i18n.js";
import { hasPeople, namedSeats, seatLabelNodes, seatWithPerson } from "./names.js";
import { coloured, seatNamer } from "./words.js";

// Who's who at the match, from the view on screen when made (`view()`: the view on screen; the
// seats and the players do not change while the page is shown). The seats this browser holds
// may: a session that ended elsewhere leaves the page nobody's, and the context makes these
// anew then (ctx.seats, match-context.js accept): its concerns read ctx.seats as they draw.
export function seatsOf(view) {
  const first = view();
  const named = coloured(first.seats); // seats named by colour (else You / Computer / Player N)
  const mySeats = first.my_seats || []; // the seats this browser's tokens hold (none: a spectator)
  // a spectator has nothing to take back, resign or type (the server would refuse it)
  const spectator = !mySeats.length;
  // the seat's name in the game (its colour, or You / Computer / Player N)
  const baseName = seatNamer(first.seats, first.players, mySeats);
  // with the people's names where the server knows them, as the view on screen says them (names.js)
  const seatName = (i) => namedSeats(view(), baseName, mySeats)(i);
  // the seat's colour, in a game whose seats are colours (null: You / Player N …)
  const colour = (j) => (named ? baseName(j) : null);
  // every seat alike, for a board's per-seat counts ("White (anna) 22, Black (ben) 20")
  const seatLabel = (i) => seatWithPerson(view(), i, colour, seatName);
  const humans = first.players.map((p, i) => (p === "human" ? i : -1)).filter((i) => i >= 0);
  const myPeople = humans.filter((i) => mySeats.includes(i)); // the person seats played here
  // the one person seat played here, whose outcome the end says first (null: none, or several sharing the device)
  const own = myPeople.length === 1 ? myPeople[0] : null;
  // people at a distance: this browser plays some person seats, someone elsewhere the others;
  // then undo needs their consent (a takeback request)
  const distance = myPeople.length > 0 && humans.some((i) => !mySeats.includes(i));
  const who = (i) => {
    const v = view();
    // "White (anna)", the name a link to anna's profile (an account's)
    const person = seatLabelNodes(v, i, mySeats, colour);
    if (person) return person;
    return named ? `${baseName(i)} (${v.players[i] !== "human" ? t("seat.tag.computer_level", { level: v.players[i].slice(6) })
      : (distance || myPeople.length === 1) && mySeats.includes(i) ? t("seat.tag.you") : v.claimed && !v.claimed[i] ? t("seat.tag.invited") : t("seat.tag.person")})` : seatName(i);
  };
  // "Black (computer) is thinking"; with people's names the seat says "Computer (level 3)" itself
  const compTag = () => (named && !hasPeople(view()) ? ` (${t("seat.tag.computer")})` : "");
  // the move list's badge: the name's first letter, or P1, P2 where seats share one (two computers)
  const abbrev = (i) => {
    const n = baseName(i); // the seat's colour, never a person's initial
    const clash = !named && first.players.some((_, j) => j !== i && baseName(j)[0] === n[0]);
    return clash || n === t("seat.player", { n: i + 1 }) ? t("seat.player_short", { n: i + 1 }) : n[0];
  };
  // some seats in words ("Black", "Blue, Red"), else "the others"
  const seatsWord = (seats) => {
    const names = seats.map(seatName);
    return names.length ? t("takeback.names", { names }) : t("takeback.others");
  };
  return {
    named, mySeats, spectator, seatName, seatLabel, humans, myPeople, own, distance, who, compTag, abbrev, seatsWord,
    you: t("seat.you"),
    hotSeatHidden: first.hidden_information && myPeople.length > 1, // hands may differ: ask for no seat
    // the other people at the match, in words ("Black", "Player 2", "the others")
    othersWord: (except) => seatsWord(humans.filter((i) => i !== except && !mySeats.includes(i))),
  };
}

// The seats, each with its clock (people only: computer seats have none; `clock(i)`: seat i's
// clock, match-clocks.js).
export function seatLine(ctx, clock) {
  const players = h("p", { class: "players", id: "players" });
  ctx.on("draw", () => {
    const view = ctx.view, { named, who } = ctx.seats;
    const focus = keepFocus(players); // a name's link pressed with a key stays focused over a move
    players.replaceChildren(...view.players.flatMap((p, i) => [i ? ` ${t("match.vs")} ` : "",
      h("span", { class: "seat", "data-player": i }, who(i),
        !named && p === "human" && !view.claimed[i] ? ` (${t("seat.tag.invited")})` : null,
        view.clock && p === "human" ? [" ", clock(i)] : null)]));
    focus();
  });
  return players;
}

// The hand-over screen, up while the view on screen has eyes that have not said they hold the
// device (ctx.needsHandover). It stands between the seats: nothing behind it (ctx.screened) acts
// for either of them (the board, a takeback's answer, a hint…; Resign and Undo are disabled), by
// pointer or keyboard; the rules, a new game, the position text's disclosure stay. `board()`:
// the board's box, which takes the focus the button had (it goes with the screen): the next
// person plays there.
export function handoverScreen(ctx, board) {
  const handover = h("div", { class: "handover", id: "handover", hidden: true });
  ctx.on("draw", ({ hide }) => {
    const handingOver = hide && handover.hidden;
    handover.hidden = !hide;
    handover.replaceChildren();
    for (const box of ctx.screened) box.inert = hide;
    if (!hide) return;
    const { seatName } = ctx.seats;
    const ok = h("button", { type: "button", class: "primary", id: "handover-ok",
      onclick: () => { ctx.shownSeat = ctx.view.viewer; ctx.draw(); board().focus(); } },
    t("handover.ok", { who: seatName(ctx.view.viewer) }));
    handover.append(h("p", {}, t("handover.pass", { who: seatName(ctx.view.viewer) })), ok);
    if (handingOver) ok.focus(); // the keyboard's focus was behind the screen
  });
  return handover;
}

// The invitations: the links of the open person seats, for a browser that plays here.
export function invitations(ctx) {
  const { id } = ctx;
  const invitesBox = h("section", { class: "invites", id: "invites", hidden: true });
  let invitesKey = null;
  function drawInvites() {
    const view = ctx.view, { humans, mySeats, seatName } = ctx.seats;
    const open = humans.filter((i) => !view.claimed[i]);
    const codes = invitesOf(id);
    const show = mySeats.length > 0 && open.length > 0 && view.status === "playing";
    const key = JSON.stringify([show, open, open.map((i) => codes[i] || null)]);
    if (key === invitesKey) return;
    invitesKey = key;
    invitesBox.hidden = !show;
    invitesBox.replaceChildren();
    if (!show) return;
    const note = h("p", { class: "muted", id: "invites-note", "aria-live": "polite" });
    invitesBox.append(h("h2", {}, t("invite.heading", { n: open.length })),
      h("p", {}, t("invite.help") + (view.clock ? " " + t("invite.clocks") : "")));
    for (const i of open) {
      const code = codes[i];
      const row = h("div", { class: "invite", "data-invite": i }, h("label", { for: `invite-link-${i}` }, `${seatName(i)}:`));
      if (code) {
        const url = `${location.origin}/#/join/${code}`;
        const input = h("input", { id: `invite-link-${i}`, value: url, readonly: true, onfocus: (ev) => ev.target.select() });
        row.append(input, h("button", { type: "button", id: `copy-${i}`, onclick: async () => {
          try {
            await navigator.clipboard.writeText(url);
          } catch {
            input.select(); // no clipboard permission (plain http): the old way
            document.execCommand("copy");
          }
          note.textContent = t("invite.copied", { seat: seatName(i) });
        } }, t("invite.copy")));
      } else {
        row.append(h("span", { class: "muted" }, t("invite.elsewhere")));
      }
      invitesBox.append(row);
    }
    invitesBox.append(h("div", { class: "row" }, h("button", { type: "button", id: "reinvite", onclick: async () => {
      try {
        const r = await api(`/api/matches/${id}/invites`, { method: "POST" });
        keepInvites(id, r.invites, true);
        drawInvites();
        invitesBox.querySelector("#invites-note").textContent = t("invite.renewed");
      } catch (e) { ctx.fail(e); }
    } }, t("invite.new_links")), note));
  }
  ctx.on("draw", drawInvites);
  ctx.screen(invitesBox);
  return invitesBox;
}
