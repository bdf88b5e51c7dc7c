"""Takebacks and draw offers: what one seat asks of the others (docs: playing/distance.md, takebacks and draw
offers"; issue 37).

Each act takes a session and the seats ``held`` by whoever acts, and returns a
:class:`~abstracta.play.events.Progress` or raises a :class:`~abstracta.play.errors.PlayError`;
:class:`~abstracta.play.session.Session` offers them as its methods.

* **Undo and takebacks.** A takeback goes back to the start of the asker's latest turn. It
  happens at once when the asker holds every person seat (against the computer, people at one
  device); otherwise it is asked for, and happens once every other person accepted; a no drops
  it, the asker may withdraw it, any move cancels it. Never back past an action that revealed
  something (a card, a chance outcome: ``State.reveals``): it would be shown twice.
* **Draw offers.** None in a game whose rules have no draws (its description's ``draws``).
  Elsewhere a draw needs every seat still in (those out by the rules or on time keep
  their loss); the computer never agrees to one, so none is offered where it would have to. A
  move by a seat that had still to answer declines the offer (it lapses); a seat whose offer
  was declined, withdrawn or lapsed offers again after
  :data:`~abstracta.play.base.DRAW_AGAIN_TURNS` turns of its own.
"""

from __future__ import annotations

from typing import Any, Iterable, TypeVar

from ..core.description import english
from ..core.errors import AbstractaError
from ..core.game import agreed_draw_returns
from ..core.records import DECIDED, DRAW_OFFERED_TAG
from ..core.view import message
from .base import SessionBase
from .errors import NotNow, NotYours, PlayError
from .events import (DrawAccepted, DrawOffered, Event, GameEnded, Progress, RequestEnded, TakebackAccepted,
                     TakebackAsked, TakenBack)
from .live import ended, ended_by_answer

S = TypeVar("S", bound=SessionBase)


# --- takebacks -------------------------------------------------------------------------------
def _check_undoable(session: SessionBase) -> None:
    if session.termination in DECIDED:
        how = {"resignation": "resigned", "time": "lost on time", "agreement": "drawn by agreement"}[session.termination]
        raise NotNow(f"the game was {how}; it cannot be taken back")
    if not session.persons:
        raise NotNow("no seat is played by a person here")
    if session.over:
        raise NotNow("the game is over; moves of a finished game cannot be taken back")


def _revealing(session: SessionBase, start: int) -> list[tuple[int, str]]:
    """``(ply, notation)`` of each action from ply ``start`` on that revealed something
    (``State.reveals``): no undo may cross one."""
    out = []
    state = session.state_at(start)
    for i in range(start, session.ply):
        action = session.actions[i]
        try:
            shown = bool(state.reveals(action))
        except (AbstractaError, NotImplementedError):  # a game that cannot tell: never cross it
            shown = True
        if shown:
            out.append((i + 1, session.strings[i]))
        state.apply_action(action)
    return out


def undo_target(session: SessionBase, seats: set[int]) -> int:
    """The ply to go back to: the start of the latest turn of one of ``seats`` (a turn in
    progress included). NotNow if there is none, or if an action since then revealed hidden
    information or a chance outcome (undo would show it twice)."""
    movers = session.played_by()
    target = None
    for p in range(session.ply - 1, -1, -1):
        if movers[p] in seats and (p == 0 or movers[p - 1] != movers[p]):
            target = p
            break
    if target is None:
        raise NotNow("there is no earlier turn of yours to take back to", message("error.no_takeback"))
    barrier = _revealing(session, target)
    if barrier:
        ply, text = barrier[-1]
        said = message("error.undo_barrier", ply=ply, move=text)
        raise NotNow(english(said), said)
    return target


def take_back(session: S, target: int, now: float, note: dict[str, Any] | None = None) -> Progress:
    """Go back to ply ``target``: the clock restarted for the seat to move (time used stays
    used), a pending request cleared (``note``: the ``takeback_ended`` of one the others
    accepted), a wait before a draw offer counted from the position gone back to."""
    trial = session.copy()
    trial.live.stop(now, increment=False)
    movers = trial.played_by()
    trial.actions = trial.actions[:target]
    trial.strings = trial.strings[:target]
    trial.movers = movers[:target]
    trial.own_turns = trial.own_turns[:target] if trial.own_turns is not None else None
    trial.state = session.state_at(target)
    trial.result = None
    trial.termination = None
    trial.live.takeback = None
    trial.live.draw = None  # offered for a position that is gone
    trial.live.draw_ended, trial.live.takeback_ended = None, note
    # a wait counts from a ply that is gone: from the position gone back to
    trial.live.draw_again = {k: min(v, target) for k, v in trial.live.draw_again.items()}
    # the seat to move now begins its turn again; one back before its first move waits for it afresh
    trial.live.turn_since, trial.live.start_since = now, None
    events: list[Event] = [TakenBack(target, session.ply)]
    if note is not None:
        events.append(RequestEnded("takeback", note))
    trial._finish_if_over(events)
    trial.start_clock(now)
    return Progress(session, trial, tuple(events))


def undo(session: S, held: set[int], now: float) -> Progress:
    """Take back at once to the start of the latest turn of a seat ``held``, when the seats held
    are every person seat (against the computer, people at one device); with other people at
    the game it is NotNow: ask them (:func:`ask_takeback`). Never past an action that revealed
    something (NotNow)."""
    _check_undoable(session)
    others = [p for p in session.persons if p not in held]
    if others:
        raise NotNow(f"seat{'s' if len(others) > 1 else ''} {', '.join(map(str, others))} "
                     "also played by people: ask for a takeback")
    return take_back(session, undo_target(session, held & set(session.persons)), now)


def ask_takeback(session: S, held: set[int], now: float) -> Progress:
    """Ask the other people to take back to the start of the asker's latest turn (done at once
    when nobody else needs to agree). NotNow if one is pending, or the takeback is impossible
    (see :func:`undo`). Any move cancels the request."""
    _check_undoable(session)
    mine = held & set(session.persons)
    target = undo_target(session, mine)
    if all(p in held for p in session.persons):
        return take_back(session, target, now)
    if session.live.takeback is not None:
        raise NotNow(f"seat {session.live.takeback['by']} already asked for a takeback")
    trial = session.copy()
    by = min(mine)
    trial.live.takeback = {"by": by, "to_ply": target, "at_ply": session.ply, "accepted": []}
    trial.live.takeback_ended = None
    return Progress(session, trial, (TakebackAsked(by, target),))


def _answer(pending: dict[str, Any], held: set[int], accept: bool, needed: Iterable[int],
            refused: PlayError) -> list[int] | None:
    """The seats that have accepted the request ``pending`` (a takeback or a draw offer,
    ``{"by", "accepted", …}``) once the seats ``held`` answered ``accept``: each of them
    whose answer is ``needed`` agrees; None when the request is dropped (declined, or
    withdrawn by the seat that made it). Raises ``refused`` for seats with nothing to
    answer (the asker accepting its own request, a seat whose answer is not asked)."""
    answering = {p for p in held if p in set(needed)}
    if not answering and not (pending["by"] in held and not accept):
        raise refused
    if not accept:
        return None
    return sorted(set(pending["accepted"]) | answering)


def answer_takeback(session: S, held: set[int], accept: bool, now: float) -> Progress:
    """Accept or decline the pending takeback for the seats ``held``; it happens once every
    other person seat accepted, any decline drops it, and the asking seat may withdraw it
    (decline). NotNow when none is pending, NotYours for the asker accepting."""
    pending = session.live.takeback
    if pending is None or session.over:
        raise NotNow("no takeback request is pending")
    needed = [p for p in session.persons if p != pending["by"]]
    # a seat out of time (the computer's) is told so, not that it asked
    refused = (NotYours("the other players answer a takeback request, not the seat that asked",
                        message("error.takeback_not_yours")) if pending["by"] in held
               else NotYours("a seat the computer plays (one out of time) does not answer a takeback request",
                             message("error.takeback_out")))
    accepted = _answer(pending, held, accept, needed, refused)
    if accepted is None:
        trial = session.copy()
        trial.live.takeback = None
        trial.live.takeback_ended = ended_by_answer(pending, held, needed, session.ply)
        return Progress(session, trial, (RequestEnded("takeback", trial.live.takeback_ended),))
    if all(p in accepted for p in needed):
        target = undo_target(session, {pending["by"]})
        last = min(p for p in held if p in needed)
        note = ended({**pending, "accepted": accepted}, "accepted", last, target)
        return take_back(session, target, now, note)
    trial = session.copy()
    trial.live.takeback = {**pending, "accepted": accepted}
    return Progress(session, trial, (TakebackAccepted(tuple(sorted(set(held) & set(needed)))),))


# --- draw offers -------------------------------------------------------------------------------
def _no_draws(session: SessionBase) -> NotNow | None:
    """The refusal of any draw in a game whose rules always decide a winner
    (:attr:`~abstracta.core.description.GameDescription.draws`): agreed, it would be a result
    the rules never give."""
    if session.game.description.draws:
        return None
    said = message("error.draw_none")
    return NotNow(english(said), said)


def draw_refusal(session: SessionBase, held: set[int]) -> tuple[set[int], PlayError | None]:
    """``(seats, why not)``: the seats still in that ``held`` would offer a draw for, and the
    refusal of an offer by them now (None: they may offer). The computer never agrees to a
    draw (as lichess's computer opponents do not), so no draw is offered where one still in
    would have to."""
    if session.over:
        return set(), NotNow("the game is over", message("error.game_over"))
    refused = _no_draws(session)
    if refused is not None:
        return set(), refused
    seats = session.draw_seats()
    mine = {i for i in held if i in seats and session.players[i] == "human"}
    if not mine:
        return mine, NotYours("only a person's seat still in the game offers or answers a draw",
                              message("error.draw_out"))
    computer = [i for i in seats if i not in mine and session.players[i] != "human"]
    if computer:
        return mine, NotNow(f"seat {computer[0]} is played by the computer, which does not agree to draws",
                            message("error.draw_computer", seat=computer[0]))
    wait = session.draw_again_in(min(mine))
    if wait:
        said = message("error.draw_again", n=wait)
        return mine, NotNow(english(said), said)
    return mine, None


def offer_draw(session: S, held: set[int], now: float) -> Progress:
    """Offer the other seats still in a draw, for the seats ``held``; drawn at once when nobody
    else must agree (they hold every such seat), and an offer made while another seat's offer
    waits for these seats' answer accepts it. NotNow when the game is over, an offer is
    pending, the computer would have to agree, or these seats' last offer ended fewer than
    :data:`DRAW_AGAIN_TURNS` turns of their own ago (``error.draw_again``); NotYours for seats
    that hold no person's seat still in."""
    pending = session.live.draw
    if pending is not None and not session.over and set(session.draw_waiting(pending)) & held:
        return _answer_draw(session, held, True, now)
    mine, refused = draw_refusal(session, held)
    if refused is not None:
        raise refused
    if pending is not None:
        raise NotNow(f"seat {pending['by']} offered a draw already", message("error.draw_pending", seat=pending["by"]))
    by = min(mine)
    offer = {"by": by, "at_ply": session.ply, "accepted": sorted(mine - {by})}
    if not session.draw_waiting(offer):
        return _draw(session, by, now)
    trial = session.copy()
    trial.live.draw = offer
    trial.live.draw_ended = None
    return Progress(session, trial, (DrawOffered(by, tuple(offer["accepted"])),))


def answer_draw(session: S, held: set[int], accept: bool, now: float) -> Progress:
    """Accept or decline the pending draw offer for the seats ``held``; drawn once every other
    seat still in accepted, any decline drops it, and the offering seat may withdraw it
    (decline). NotNow when none is pending or the game is over; NotYours for the offerer
    accepting or a seat whose answer is not asked."""
    if session.over:
        raise NotNow("the game is over", message("error.game_over"))
    if session.live.draw is None:
        raise NotNow("no draw offer is pending", message("error.no_draw_offer"))
    return _answer_draw(session, held, accept, now)


def _answer_draw(session: S, held: set[int], accept: bool, now: float) -> Progress:
    offer = session.live.draw
    assert offer is not None
    needed = [i for i in session.draw_seats() if i != offer["by"]]
    # as for a takeback's asker accepting its own request: no later state of the game lets
    # these seats answer (NotNow says "not now"); the words say which seat is refused
    refused = (NotYours("the other players answer a draw offer, not the seat that offered it",
                        message("error.draw_not_yours")) if offer["by"] in held
               else NotYours("only a person's seat still in the game offers or answers a draw",
                             message("error.draw_out")))
    accepted = _answer(offer, held, accept, needed, refused)
    # an offer stored before its game declared it has no draws may be declined, not agreed
    if accepted is not None and (never := _no_draws(session)) is not None:
        raise never
    if accepted is None:
        trial = session.copy()
        trial.live.draw = None
        trial.live.draw_ended = ended_by_answer(offer, held, needed, session.ply)
        trial.live.draw_again[str(offer["by"])] = session.ply
        return Progress(session, trial, (RequestEnded("draw", trial.live.draw_ended),))
    if all(i in accepted for i in needed):
        return _draw(session, offer["by"], now)
    trial = session.copy()
    trial.live.draw = {**offer, "accepted": accepted}
    return Progress(session, trial, (DrawAccepted(tuple(sorted(set(held) & set(needed)))),))


def _draw(session: S, by: int, now: float) -> Progress:
    """End the game drawn by agreement: 0 for each seat still in, the seats out keep their loss;
    the record's termination ``agreement`` and ``DrawOffered`` naming the seat that offered it."""
    trial = session.copy()
    trial.live.stop(now, increment=False)
    trial.result = agreed_draw_returns(len(session.players), session.out_seats)
    trial.termination = "agreement"
    trial.tags[DRAW_OFFERED_TAG] = str(by)
    trial.live.draw = None
    trial.live.takeback = None
    return Progress(session, trial, (GameEnded(tuple(trial.result), "agreement"),))


__all__ = ["answer_draw", "answer_takeback", "ask_takeback", "draw_refusal", "offer_draw", "take_back", "undo",
           "undo_target"]
