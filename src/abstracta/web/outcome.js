// A match's end in words: who won, drew, lost, resigned, ran out of time or was knocked out
// ("Green was knocked out on turn 41 — Blue and Red draw"), aborted or left (issue 42), for the
// match page and the lists.
import { fmt, t } from "./i18n.js";

// The result line of an aborted game, or of one a player left (null: another ending). `own`:
// the one person seat the page plays (its words say "you", as its name does without people).
export function endText(view, seatName, own = null) {
  const you = t("seat.you");
  const isYou = (i) => i === own || seatName(i) === you;
  if (view.termination === "aborted") {
    const a = view.aborted;
    if (!a) return t("end.aborted");
    const name = seatName(a.seat);
    if (a.why === "no_start") return isYou(a.seat) ? t("end.no_start_you") : t("end.no_start", { who: name });
    return isYou(a.seat) ? t("end.aborted_you") : t("end.aborted_by", { who: name });
  }
  if (view.termination === "left" && view.result && view.left !== null && view.left !== undefined) {
    const gone = seatName(view.left);
    const drawn = view.result.every((r) => r === 0);
    const left = isYou(view.left) ? t("end.you_left") : t("end.left", { who: gone });
    if (drawn) return `${left} — ${t("result.draw")}`;
    const winner = view.result.findIndex((r) => r > 0);
    return `${left} — ${isYou(winner) ? t("result.you_win") : t("result.wins", { name: seatName(winner) })}`;
  }
  return null;
}

// The result line of a match (a view, or a row of the list): `resigned` and `out_of_time` name the
// seats the server recorded; in a 3–4 player game the seats the rules put out lost as well, so the
// losers alone do not tell who resigned. `outTurn` (seat -> turn, the match page's: outTurns): when
// the rules put each seat of a 3–4 player game out, said first in the order they went ("Green was
// knocked out on turn 41 — Blue and Red draw"); a row of the list does not know it and says such a
// seat lost. `said`: the seat whose own outcome the page said before the line (ownOutcome), whose
// fate the line leaves out; the end's winners or drawers are named in full all the same.
export function resultLine(m, name, outTurn = new Map(), said = null) {
  const { result, termination } = m;
  if (!result) return "";
  const you = t("seat.you");
  const many = result.length > 2;
  const seats = (test) => result.map((v, i) => (test(v) ? i : null)).filter((i) => i !== null);
  const wins = (n) => (n === you ? t("result.you_win") : t("result.wins", { name: n }));
  const winMany = (names) => (names.length === 1 ? wins(names[0]) : t("result.win_many", { names }));
  const winners = seats((v) => v > 0).map(name);
  const losers = seats((v) => v < 0);
  // three or four players, nobody won: the seats still in share a draw
  const drawn = seats((v) => v === 0).map(name);
  const draw = () => (drawn.length > 1 ? t("result.draw_many", { names: drawn })
    : drawn[0] === you ? t("result.you_draw") : t("result.draws", { name: drawn[0] }));
  const mine = (i) => many && i === said; // said before the line, in the reader's own words
  // the seats the rules put out before the end, in the order they went
  const knocked = many ? losers.filter((i) => outTurn.has(i)).sort((a, b) => outTurn.get(a) - outTurn.get(b) || a - b) : [];
  const line = (...parts) => [...knocked.filter((i) => !mine(i)).map((i) => knockedOut(name(i), outTurn.get(i))), ...parts]
    .filter(Boolean).join(" — ");
  if (termination === "time") {
    const flagged = (m.out_of_time && m.out_of_time.length ? m.out_of_time : losers.filter((i) => !knocked.includes(i)))
      .filter((i) => !mine(i)).map(name);
    const ran = !flagged.length ? null : flagged.length === 1 && flagged[0] === you ? t("result.you_out_of_time") : t("result.out_of_time", { who: flagged });
    if (winners.length) return line(ran, winMany(winners));
    // two players: the other could not have won; three or four: the seats the rules drew share it
    if (!many || !drawn.length) return line(ran, t("result.draw_time"));
    return line(ran, draw());
  }
  if (termination === "agreement") {
    // three or four players: the seats out before lost all the same (named as the rules' draw names them)
    const agreed = t("result.agreement");
    return many && losers.length ? line(agreed, draw()) : agreed;
  }
  if (termination === "resignation") {
    // the server names the seat, inferring it for a match stored before it kept it (null when
    // the record does not tell)
    const seat = m.resigned;
    const resigned = seat == null ? t("result.resignation") : mine(seat) ? null
      : name(seat) === you ? t("result.you_resigned") : t("result.resigned", { name: name(seat) });
    if (winners.length) return line(resigned, winMany(winners));
    return line(resigned, many && drawn.length ? draw() : null);
  }
  if (winners.length) return line(winMany(winners));
  // nobody won: a draw for all, or some seats lost and the others share the game (3–4 players)
  if (!losers.length) return t("result.draw");
  const lost = losers.filter((i) => !knocked.includes(i) && !mine(i))
    .map((i) => (name(i) === you ? t("result.you_lose") : t("result.loses", { name: name(i) })));
  return line(...lost, drawn.length ? draw() : null);
}

// "Green was knocked out on turn 41" (turn 0: before the rules' first turn, not said).
export function knockedOut(who, turn) {
  if (who === t("seat.you")) return turn ? t("result.you_knocked_out", { turn }) : t("result.you_knocked_out_plain");
  return turn ? t("result.knocked_out", { name: who, turn }) : t("result.knocked_out_plain", { name: who });
}

// When the rules put each seat out (view.out_at: the ply that did), as seat -> the turn the move
// list numbers (turnOfPly).
export function outTurns(view) {
  return new Map((view.out_at || []).map((o) => [o.seat, turnOfPly(view.turn_numbers || [], o.ply).turn]));
}

// The reader's own outcome, said before the line of colours (a colour seat read "White wins" for
// its own win): for `own`, the one person seat the page plays (null: a spectator, or people
// sharing a device), where the line names seats by colour and the seats did not all end alike (a
// draw for all says itself). In a 3–4 player game, how and when the game ended for it.
export function ownOutcome(view, seatName, own, outTurn) {
  const result = view.result;
  if (own === null || own === undefined || !result || result.every((v) => v === result[own])) return null;
  const you = t("seat.you");
  if (seatName(own) === you) return null; // the line says "You win" itself
  if (result[own] > 0) return t("result.you_win");
  if (result[own] === 0) return t("result.you_draw");
  if (result.length > 2) {
    if (outTurn.has(own)) return knockedOut(you, outTurn.get(own));
    if ((view.out_of_time || []).includes(own)) return t("result.you_out_of_time");
    if (view.termination === "resignation" && view.resigned === own) return t("result.you_resigned");
  }
  return t("result.you_lose");
}

// The turn holding action `ply` (1-based) and the number of the last turn, as the server numbers
// them (the view's turn_numbers: the rules' own turns, 0 before the first one, e.g. a placement
// phase), so that the list, the replay and the board say one number for one turn.
export function turnOfPly(numbers, ply) {
  return { turn: ply > 0 ? numbers[ply - 1] : 0, turns: numbers.length ? numbers[numbers.length - 1] : 0 };
}


// The result and, when the rules ended the game, why (the engine's words from the view): a
// sentence of its own, as its words start one ("Red wins. Only Red pieces are left on the board.").
// `own`: the one person seat the page plays (ownOutcome), whose outcome comes first.
export function resultText(view, seatName, own = null) {
  const ended = endText(view, seatName, own); // aborted, or a player left
  if (ended) return ended;
  const outTurn = outTurns(view);
  const mine = ownOutcome(view, seatName, own, outTurn);
  const line = resultLine(view, seatName, outTurn, mine ? own : null);
  const both = mine && line ? t("result.yours", { yours: mine, line }) : mine || line;
  const end = view.struct && view.struct.end;
  return end && end.text && view.termination !== "resignation" ? t("result.why", { result: both, why: fmt(end.message, end.text) }) : both;
}
