// The match page's move list and the replay's stepper: each turn as the server writes it, a step
// of the replay (ctx.replay, match-replay.js) to its ply; ◀ ▶ and the arrow keys step too, one
// action at a time (a capture chain capture by capture), while the counters count the list's turns.
import { h, keepFocus } from "./dom.js";
import { t } from "./i18n.js";

// The move list's rows. Two players: a row per round, as chess lists moves ("1. b4-c5W, end
// e3-d3A"): a row opens with a turn of the seat that played the first numbered turn and takes the
// other seat's next turn; a turn out of that order (the other seat first, or after a seat moved
// twice) opens a row of its own with its first half empty. Rows are numbered 1, 2, 3… (the
// round; the replay's status says the same number); entries before the rules' first turn
// (placements, number 0) are paired alike, unnumbered. Three or four players: a row per turn,
// numbered as the rules number turns, since a round there is no line's worth and a seat out of
// the game leaves holes in it. Chance entries keep a line each, unnumbered.
// Returns [{number (0: none), turns: [turn | null, …], paired}].
export function moveRows(moveList, players) {
  if (players !== 2) return moveList.map((x) => ({ number: x.number, turns: [x], paired: false }));
  const phase = (x) => (x.number > 0 ? 1 : 0);
  const opener = [0, 1].map((p) => (moveList.find((x) => x.seat >= 0 && phase(x) === p) || {}).seat);
  const rows = [];
  let round = 0, open = null; // the row whose second half may still come
  for (const x of moveList) {
    if (x.seat === null || x.seat < 0) { rows.push({ number: 0, turns: [x], paired: false }); open = null; continue; }
    const p = phase(x);
    if (open && open.phase === p && x.seat !== opener[p]) { open.turns[1] = x; open = null; continue; }
    const first = x.seat === opener[p];
    const row = { number: p ? ++round : 0, turns: first ? [x, null] : [null, x], paired: true, phase: p };
    rows.push(row);
    open = first ? row : null;
  }
  return rows;
}

// The round of ply `ply` (1-based) among `rows` (moveRows) and how many there are: {round, rounds}
// (round 0: a ply outside the numbered rows).
export function roundOfPly(rows, ply) {
  const paired = rows.filter((r) => r.number > 0);
  const row = ply > 0 ? paired.find((r) => r.turns.some((x) => x && ply > x.from && ply <= x.to)) : null;
  return { round: row ? row.number : 0, rounds: paired.length ? paired[paired.length - 1].number : 0 };
}

// Where ply `ply` (0: the start) stands in the move list's own numbers, for the replay's counters
// (the list, not the actions: a capture chain or a card drawn then played is one turn there):
// {number, last}: the list's row number of the turn under way at `ply` (two players the round, three
// or four the turn, both the server's turn_numbers; 0 before the first numbered row) and the last
// one; {step, steps}: the action `ply` ends within its entry of the list, and the entry's actions
// (steps 1 for a turn of one action; 0 at the start).
export function listPlace(view, ply) {
  const numbered = moveRows(view.move_list, view.num_players).filter((r) => r.number > 0);
  let number = 0;
  for (const row of numbered) {
    if (row.turns.find(Boolean).from >= ply) break;
    number = row.number;
  }
  const entry = ply > 0 ? view.move_list.find((x) => ply > x.from && ply <= x.to) : null;
  return { number, last: numbered.length ? numbered[numbered.length - 1].number : 0,
    step: entry ? ply - entry.from : 0, steps: entry ? entry.to - entry.from : 0 };
}

// What a replay's status says was played up to `ply`, as the move list writes it: the list's
// entries that end there (a turn written whole as "b2+i8", whose last action is "end"), else the action (a step
// inside a turn the list writes whole).
export function movedAt(view, ply) {
  const turn = view.move_list.find((x) => ply > x.from && ply <= x.to);
  const ends = turn ? turn.moves.filter((_, k) => turn.plies[k] === ply) : [];
  return ends.length ? ends.join(", ") : view.moves[ply - 1];
}

// Scroll `box` (a scrolling list) so that `item` shows, and nothing else: scrollIntoView would
// scroll the page too, and on a phone, where the move list is under the board, every move
// pulled the board up out of sight.
function scrollWithin(box, item) {
  const b = box.getBoundingClientRect(), r = item.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop -= b.top - r.top;
  else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
}

// Returns {list, stepper}: the move list and the stepper, to lay out.
export function movesPanel(ctx) {
  const { id } = ctx;
  const replay = ctx.replay;
  const moveList = h("ol", { class: "moves", id: "moves" });
  const stepper = h("div", { class: "stepper" });

  // the stepper: the ply on screen, and ◀ ▶ counting from the ply the last step asked for
  function drawStepper() {
    const view = ctx.view;
    const live = replay.ply === null;
    const aim = replay.aimed();
    const shown = live ? view.ply : replay.ply;
    const place = listPlace(view, shown);
    const hide = ctx.needsHandover();
    const stepFocus = keepFocus(stepper);
    stepper.replaceChildren(
      // the turn on screen as the move list numbers it, not the actions (the status line says it in
      // words, and the step inside a turn); data-ply: the ply itself
      h("span", { class: "at", id: "step-at", "aria-hidden": "true", "data-ply": String(shown) }, `${place.number} / ${place.last}`),
      h("button", { type: "button", title: t("step.start"), "aria-label": t("step.start"), onclick: () => replay.stepTo(0), disabled: view.ply === 0 || hide }, "|◀"),
      h("button", { type: "button", title: t("step.back"), "aria-label": t("step.back"), id: "step-back", onclick: () => replay.stepTo(replay.aimed() - 1), disabled: view.ply === 0 || aim === 0 || hide }, "◀"),
      h("button", { type: "button", title: t("step.forward"), "aria-label": t("step.forward"), id: "step-fwd", onclick: () => replay.stepTo(replay.aimed() + 1), disabled: aim >= view.ply }, "▶"),
      h("button", { type: "button", title: t("step.live"), "aria-label": t("step.live"), onclick: () => replay.stepTo(null), disabled: live && !replay.pending }, "▶|"));
    stepFocus();
  }

  // move list: each turn written by the server as the terminal's replay writes it
  // (view.move_list: Game.format_turn, a turn written whole as "b2+i8" or "a1"); each entry a step of the
  // replay to the ply the server gives (an entry that writes the whole turn: its end), and
  // marked while the shown ply is one it covers. In rows (moveRows): two players a round a
  // row, chess-like; three or four a turn a row, numbered as the board numbers turns (none
  // before the first: placements)
  function drawList({ hide, shownPly }) {
    const view = ctx.view, { seatName, abbrev } = ctx.seats;
    const listFocus = keepFocus(moveList);
    moveList.replaceChildren();
    const shows = (turn) => !!turn && shownPly > turn.from && shownPly <= turn.to;
    const colourOf = (seat) => {
      const style = seat !== null && seat >= 0 && view.seats ? view.seats[seat] : null;
      return style && style.colour ? { background: style.colour, color: style.ink || "#fff" } : null; // the seat's own colour
    };
    // one turn's entries after its seat's badge: a row of its own, or a half of a round's row
    const turnBox = (turn, half) => {
      const seat = turn.seat;
      const known = seat !== null && seat >= 0;
      const colour = colourOf(seat);
      // its own number where the row's is the round's ("Green, turn 12")
      const title = !known ? null : half && turn.number > 0 ? t("moves.turn_title", { who: seatName(seat), n: turn.number }) : seatName(seat);
      const box = h("span", { class: `turn seat${seat}` + (shows(turn) ? " current" : ""), title },
        known ? h("span", { class: `who seat${seat}`, "aria-label": seatName(seat),
          style: colour ? `background: ${colour.background}; color: ${colour.color}; border: 0` : null }, abbrev(seat)) : null);
      turn.moves.forEach((text, k) => {
        const ply = turn.plies[k];
        const before = k ? turn.plies[k - 1] : turn.from;
        box.append(k ? ", " : known ? " " : "");
        // a link to this match (a new tab opens the game), a step here: the policy refuses the
        // javascript: URL such a link used to have, logging a violation at every click
        box.append(h("a", { href: `#/match/${encodeURIComponent(id)}`, "data-ply": ply, class: shownPly > before && shownPly <= ply ? "at" : null,
          onclick: (ev) => { ev.preventDefault(); if (!hide) replay.stepTo(ply); } }, text));
      });
      return box;
    };
    for (const row of moveRows(view.move_list, view.num_players)) {
      // a turn's row: the seat's colour at its edge (a round's row: at each half's badge)
      const only = row.paired ? null : row.turns[0];
      const colour = only ? colourOf(only.seat) : null;
      const li = h("li", { class: (row.paired ? "pair" : `seat${only.seat}`) + (row.turns.some(shows) ? " current" : ""),
        style: colour ? `border-left-color: ${colour.background}` : null },
        row.number ? h("span", { class: "n" }, `${row.number}.`) : row.paired ? h("span", { class: "n" }) : null, row.number ? " " : null);
      row.turns.forEach((turn, k) => {
        if (!turn && k) return; // the round's second turn is still to come
        if (k) li.append(" ");
        // a round opened by the second seat: "3. …  B e3-d3A", as chess writes "3... e5"
        li.append(turn ? turnBox(turn, row.paired) : h("span", { class: "turn empty", "aria-hidden": "true" }, "…"));
      });
      moveList.append(li);
    }
    moveList.classList.toggle("paired", view.num_players === 2);
    moveList.hidden = !view.moves.length;
    listFocus();
  }

  ctx.on("draw", (frame) => {
    drawList(frame);
    stepper.hidden = !ctx.view.moves.length;
    const cur = moveList.querySelector("li.current");
    if (cur) scrollWithin(moveList, cur);
    // on a phone the stepper is under the board and its notes, out of sight of the board: while
    // a game is studied (over, or a move back) it floats at the foot of the screen (style.css)
    stepper.classList.toggle("floating", frame.over || !frame.live);
    drawStepper();
  });
  ctx.on("step", drawStepper);

  // the arrow keys step as ◀ and ▶ do, away from the board (its own keys) and the boxes to type in
  const keys = (ev) => {
    const view = ctx.view;
    if (ctx.stopped || (ctx.frame && ctx.frame.hide) || ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA") return;
    if (ev.target.closest && ev.target.closest("#board")) return; // the board's own keys (see keyHandler)
    if (ev.key === "ArrowLeft") replay.stepTo(replay.aimed() - 1);
    else if (ev.key === "ArrowRight" && replay.aimed() < view.ply) replay.stepTo(replay.aimed() + 1);
    // the start and the end of the game, as the stepper's |◀ and ▶| (not the page's top and foot)
    else if ((ev.key === "Home" || ev.key === "End") && !ev.ctrlKey && !ev.altKey && !ev.metaKey && view.ply > 0) {
      ev.preventDefault();
      replay.stepTo(ev.key === "Home" ? 0 : null);
    }
  };
  document.addEventListener("keydown", keys);
  ctx.on("stop", () => document.removeEventListener("keydown", keys));
  ctx.screen(moveList, stepper);
  return { list: moveList, stepper };
}
