"""The start of a game between people (issue 42 §4; lichess's rules of a game's start).

* **The clock** starts once every seat is taken and each seat has made its first move: a first
  move costs no time (:meth:`~abstracta.play.base.SessionBase.start_clock`).
* **A deadline for first moves**: in a game between people at a distance
  (:attr:`~abstracta.play.live.Live.start_within`, set when the match is made), the seat to make
  its first move has :func:`first_move_seconds` from the moment its wait began (every seat
  taken, or the one before it moved); past that the game is **aborted** (:func:`expire`): not
  lost, not drawn, and never rated.
* **Abort**: a person seat that has not made its first move may abort the game (:func:`abort`),
  whichever the other seats have done.

An aborted game has termination ``aborted`` and no result; the record's ``Aborted`` tag names the
seat that aborted it, ``NoStart`` the seat that did not make its first move in time. It
announces :class:`~abstracta.play.events.GameAborted`, never
:class:`~abstracta.play.events.GameEnded`: whatever reacts to a game's end (its rating) never
hears of it.

The time a game waits is its pace's: a live clock (and a per-turn clock under a day) gives
:data:`FIRST_MOVE_SECONDS` for a first move and :data:`GONE_SECONDS` for the rule of a gone
opponent (:mod:`abstracta.play.leaving`); correspondence — a day or more per turn, or no clock,
as the rating pools count it — gives a day for each (:data:`CORRESPONDENCE_SECONDS`).
"""

from __future__ import annotations

from typing import Any, Mapping, TypeVar

from ..core.records import ABORTED_TAG, NO_START_TAG
from ..core.view import message
from .base import SessionBase
from .errors import NotNow, NotYours
from .events import GameAborted, Progress, RequestEnded
from .live import ended

S = TypeVar("S", bound=SessionBase)

#: Seconds a seat of a live game has for its first move (lichess gives about as long).
FIRST_MOVE_SECONDS = 30.0
#: Seconds an opponent of a live game must be gone on their own turn before the other may claim.
GONE_SECONDS = 60.0
#: Both waits in correspondence: a day.
CORRESPONDENCE_SECONDS = 86_400.0
#: A per-turn clock of this many seconds or more is correspondence (as ``people.pools`` counts it).
CORRESPONDENCE_TURN = 86_400.0


def correspondence(clock: Mapping[str, Any] | None) -> bool:
    """Whether ``clock`` (a time control, or None) is correspondence: a day or more per turn, or
    no clock at all."""
    return not clock or ("per_turn" in clock and float(clock["per_turn"]) >= CORRESPONDENCE_TURN)


def first_move_seconds(clock: Mapping[str, Any] | None) -> float:
    """Seconds a seat has for its first move in a game with ``clock`` (30 s; a day in
    correspondence)."""
    return CORRESPONDENCE_SECONDS if correspondence(clock) else FIRST_MOVE_SECONDS


def gone_seconds(clock: Mapping[str, Any] | None) -> float:
    """Seconds an opponent must be gone on their own turn before the other may claim (60 s; a
    day in correspondence)."""
    return CORRESPONDENCE_SECONDS if correspondence(clock) else GONE_SECONDS


def start_deadline(session: SessionBase) -> dict[str, Any] | None:
    """``{"seat", "at"}``: the seat that must make its first move by ``at`` (Unix seconds) or the
    game is aborted; None when no such wait runs."""
    live = session.live
    if session.over or live.start_since is None or live.start_within is None:
        return None
    seat = session.to_move()
    if seat is None:
        return None
    return {"seat": seat, "at": live.start_since + live.start_within}


def _aborted(session: S, seat: int, why: str, now: float) -> Progress:
    trial = session.copy()
    live = trial.live
    live.stop(now, increment=False)
    events: list[Any] = []
    for kind in ("draw", "takeback"):  # nothing pending outlives the game
        pending = getattr(live, kind)
        if pending is not None:
            events.append(RequestEnded(kind, ended(pending, "void", None, session.ply)))
            setattr(live, kind, None)
    live.start_since = None
    trial.result = None
    trial.termination = "aborted"
    trial.tags[ABORTED_TAG if why == "abort" else NO_START_TAG] = str(seat)
    events.append(GameAborted(seat, why))
    return Progress(session, trial, tuple(events))


def abort(session: S, held: set[int], now: float) -> Progress:
    """Abort the game for the seats ``held``: one of them, a person's seat, has not made its
    first move. NotNow when the game is over or each of them has moved (resign instead);
    NotYours when they hold no person's seat."""
    session._check_open()
    mine = sorted(i for i in held if i in session.persons)
    if not mine:
        raise NotYours("only a person's seat may abort a game", message("error.abort_not_yours"))
    unmoved = [i for i in mine if i in session.unmoved]
    if not unmoved:
        raise NotNow("you have made your first move: the game can no longer be aborted (resign instead)",
                     message("error.abort_moved"))
    return _aborted(session, unmoved[0], "abort", now)


def expire(session: S, now: float) -> Progress | None:
    """The game aborted because the seat to make its first move did not make it in time
    (:func:`start_deadline`), or None: no deadline runs, or it has not passed at ``now``."""
    due = start_deadline(session)
    if due is None or now < due["at"]:
        return None
    return _aborted(session, due["seat"], "no_start", now)


def next_due(session: SessionBase, now: float) -> float | None:
    """Seconds from ``now`` until time alone changes the game — the running clock's flag falls,
    or a first move's deadline passes — or None: nothing would."""
    if session.over:
        return None
    times = []
    live = session.live
    if live.clock is not None and live.running is not None:
        times.append(live.left(live.running, now) or 0.0)
    due = start_deadline(session)
    if due is not None:
        times.append(due["at"] - now)
    return max(0.0, min(times)) if times else None


__all__ = ["CORRESPONDENCE_SECONDS", "CORRESPONDENCE_TURN", "FIRST_MOVE_SECONDS", "GONE_SECONDS", "abort",
           "correspondence", "expire", "first_move_seconds", "gone_seconds", "next_due", "start_deadline"]
