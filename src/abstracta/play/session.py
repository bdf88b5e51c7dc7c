"""The play session: one game being played by its seats, every rule of play written once
(issue 37; docs: playing/distance.md).

A :class:`Session` is a game in play (its data and what can be read from it:
:class:`~abstracta.play.base.SessionBase`). Its acts — :meth:`Session.play`, the computer's
:meth:`Session.play_computer`, :meth:`Session.take_seat`, :meth:`Session.flag`,
:meth:`Session.resign`, :meth:`Session.count_hint`, and the requests of
:mod:`abstracta.play.requests` (undo, takebacks, draw offers) — never change it: each returns a
:class:`~abstracta.play.events.Progress` (the session before, a new session after, the events
between them) or raises a :class:`~abstracta.play.errors.PlayError` naming why not. No I/O: the
time is an argument (``now``, Unix seconds), nothing is read or written, nothing runs by itself.
The terminal (``abstracta play``) and the server both drive it; neither implements a rule of
its own.

Seats act through the set of seats they hold (``held``): a person's browser holds the seats of
its tokens, a terminal all the people at it. ``players[seat]`` is ``"human"`` for a person and a
seat spec (``level:3``) for the computer.
"""

from __future__ import annotations

from typing import Sequence, TypeVar

from ..core.game import resignation_returns
from ..core.records import HINTS_TAG, OUT_OF_TIME_TAG, RESIGNED_TAG
from ..core.view import message
from . import leaving, opening, rematch, requests
from .base import DRAW_AGAIN_TURNS, SessionBase
from .errors import IllegalMove, Invalid, NotNow, NotYourTurn, NotYours, PlayError, StaleMove, clip
from .events import ActionsPlayed, Event, GameEnded, HintCounted, Progress, RequestEnded, SeatOut, SeatTaken
from .live import ended
from .notation import Reader, read_action

S = TypeVar("S", bound="Session")


class Session(SessionBase):
    """A game being played, and the rules of play as its acts (see the module's docstring)."""

    # --- moves ---------------------------------------------------------------------------------
    def play(self, held: set[int], moves: Sequence[str], ply: int, now: float, *, seat: int | None = None,
             read: Reader = read_action) -> Progress:
        """The person to move, one of the seats ``held``, plays ``moves`` chosen at ``ply``: each
        read by ``read`` (:mod:`abstracta.play.notation`) in the position the ones before it
        left, all within one turn; all are played, or none. ``seat``: the seat that means to
        move (refused if another is to move).

        Raises NotNow (over; a seat not taken yet; nobody to move), StaleMove (``ply`` is not
        the game's), NotYourTurn (the computer's turn, or not ``seat``'s), NotYours (the seat
        to move is not held), IllegalMove and Invalid (a move that does not read or is not
        legal, a turn over before the last move)."""
        self._check_open()
        self._check_seated()
        if ply != self.ply:
            raise StaleMove(f"stale move: it was chosen at ply {ply}, the game is at ply {self.ply}",
                            message("error.stale", ply=ply, now=self.ply), ply=self.ply)
        mover = self.to_move()
        if mover is None:
            raise NotNow("nobody is to move", message("error.nobody_to_move"))
        if self.players[mover] != "human":
            raise NotYourTurn(f"seat {mover} is played by the computer ({self.players[mover]})",
                              message("error.computer_turn", seat=mover, players=self.players[mover]))
        if seat is not None and seat != mover:
            raise NotYourTurn(f"it is seat {mover}'s turn, not seat {seat}'s",
                              message("error.not_your_turn", mover=mover, seat=seat))
        if mover not in held:
            raise NotYours(f"it is seat {mover}'s turn and no token given holds seat {mover}",
                           message("error.not_your_seat", mover=mover))
        trial = self.copy()
        for index, text in enumerate(moves):
            if index and trial.state.current_player() != mover:
                raise Invalid(f"{clip(text)}: the turn was over after {clip(moves[index - 1])}")
            for action in read(trial.state, text.strip()):
                trial.push(action)
        events: list[Event] = [ActionsPlayed(mover, self.ply, tuple(trial.actions[self.ply:]),
                                             tuple(trial.strings[self.ply:]))]
        trial._finish_if_over(events)
        trial._after_actions(self, now, events)
        return Progress(self, trial, tuple(events))

    def play_computer(self, action: int, now: float) -> Progress:
        """The computer's seat to move plays ``action``; once its turn ends, the turn is written
        in the game's canonical order. NotNow (over, a seat not taken, nobody or a person to
        move), IllegalMove (not legal here)."""
        self._check_open()
        self._check_seated()
        mover = self.to_move()
        if mover is None or self.players[mover] == "human":
            raise NotYourTurn("it is not the computer's turn")
        if action not in self.state.legal_actions():
            raise IllegalMove(f"{clip(action)} is not a legal action here")
        trial = self.copy()
        trial.push(action)
        first = trial._canonical_turn()
        first = self.ply if first is None else first
        events: list[Event] = [ActionsPlayed(mover, first, tuple(trial.actions[first:]), tuple(trial.strings[first:]),
                                             computer=True)]
        trial._finish_if_over(events)
        trial._after_actions(self, now, events)
        return Progress(self, trial, tuple(events))

    def _after_actions(self, old: "Session", now: float, events: list[Event]) -> None:
        """Clock, takeback and draw bookkeeping after actions were added to ``old``, giving this
        session: a turn that passed to another seat (or ended the game) stops its clock with
        the increment and starts the next one; any move cancels a pending takeback request; a
        move by a seat that had still to answer a draw offer declines it (as on lichess: the
        offerer's own moves, and those of seats that accepted, leave it standing), as does a
        move that put a seat out (who must agree changed) or ended the game."""
        live = self.live
        mover = old.to_move()
        # the notes of requests ended at the old position are said no more
        live.draw_ended = live.takeback_ended = None
        if live.takeback is not None:  # any move cancels it: the asker's own is a withdrawal
            how = "withdrawn" if mover == live.takeback["by"] else "lapsed"
            live.takeback_ended = ended(live.takeback, how, mover, self.ply)
            events.append(RequestEnded("takeback", live.takeback_ended))
        live.takeback = None
        offer = live.draw
        if offer is not None:
            if mover in old.draw_waiting(offer):
                live.draw_ended = ended(offer, "lapsed", mover, self.ply)
                live.draw_again[str(offer["by"])] = self.ply
                live.draw = None
            elif self.over or self.out_seats != old.out_seats:
                live.draw_ended = ended(offer, "void", None, self.ply)
                live.draw = None
            if live.draw is None:
                events.append(RequestEnded("draw", live.draw_ended))
        if live.running is not None and (self.over or self.to_move() != live.running):
            live.stop(now, increment=True)
        if self.over or self.to_move() != mover:
            live.turn_since = now  # the next seat's turn begins (the gone rule counts from here)
        live.start_since = None  # the seat that waited has moved: the next to move waits afresh
        self.start_clock(now)

    # --- the clock -----------------------------------------------------------------------------
    def take_seat(self, seat: int, now: float) -> Progress:
        """Someone took ``seat`` (an invitation claimed): a clock waiting for everyone starts."""
        trial = self.copy()
        trial.seated = trial.claimed | {seat}
        trial.start_clock(now)
        return Progress(self, trial, (SeatTaken(seat),))

    def flag(self, now: float) -> Progress | None:
        """The running clock's flag, if it has fallen at ``now`` (None: it has not; docs: playing/distance.md
        "Clocks"). Two players: the seat loses and the other wins, or a draw where the other
        could not still win (``State.could_still_win``). Three or four: it is out (result −1
        whatever happens, its moves the computer's at level 1 from now on) and the game goes
        on; the last seat neither out of time nor eliminated by the rules wins."""
        live = self.live
        if live.clock is None or live.running is None or self.over:
            return None
        left = live.left(live.running, now)
        if left is None or left > 0:
            return None
        seat = live.running
        trial = self.copy()
        live = trial.live
        events: list[Event] = []
        if live.remaining is not None:
            live.remaining[seat] = 0.0
        # a seat going out changes who would have to agree, and who answers a takeback (its
        # moves are the computer's): a pending request of either kind is void, no seat's doing
        if live.draw is not None:
            live.draw_ended = ended(live.draw, "void", None, trial.ply)
            events.append(RequestEnded("draw", live.draw_ended))
        if live.takeback is not None:
            live.takeback_ended = ended(live.takeback, "void", None, trial.ply)
            events.append(RequestEnded("takeback", live.takeback_ended))
        live.running, live.since, live.takeback, live.draw = None, None, None, None
        n = len(trial.players)
        if n == 2:
            other = 1 - seat
            wins = trial.state.could_still_win(other)
            trial.result = [0.0, 0.0] if not wins else [-1.0 if i == seat else 1.0 for i in range(2)]
            trial.termination = "time"
            trial.tags[OUT_OF_TIME_TAG] = str(seat)  # a draw on time has no loser to tell it
        else:
            live.out.append(seat)
            trial.tags[OUT_OF_TIME_TAG] = ",".join(map(str, live.out))
            trial.players[seat] = "level:1"
            events.append(SeatOut(seat))
            out = trial.out_seats
            alive = [i for i in range(n) if i not in out]
            if len(alive) == 1:
                trial.result = [1.0 if i == alive[0] else -1.0 for i in range(n)]
                trial.termination = "time"
            else:
                trial.start_clock(now)
        if trial.over:
            assert trial.result is not None
            events.append(GameEnded(tuple(trial.result), "time"))
        return Progress(self, trial, tuple(events))

    def claim_flag(self, now: float) -> Progress | None:
        """A seat claims the running clock's flag: :meth:`flag`, or None when the game was lost
        on time already; NotNow when no flag has fallen (no clock, none running, time left)."""
        progress = self.flag(now)
        if progress is not None or self.termination == "time":
            return progress
        live = self.live
        if live.clock is None:
            raise NotNow("this match has no clock")
        if live.running is None:
            raise NotNow("no clock is running")
        raise NotNow(f"seat {live.running} has {live.left(live.running, now):.1f} s left")

    def due(self, now: float) -> Progress | None:
        """What time alone has done by ``now``: the running clock's flag fallen (:meth:`flag`),
        or the game aborted because a first move was not made in time
        (:func:`~abstracta.play.opening.expire`); None: nothing."""
        return self.flag(now) or opening.expire(self, now)

    # --- the start: abort (opening.py) -------------------------------------------------------
    def abort(self: S, held: set[int], now: float) -> Progress:
        """:func:`~abstracta.play.opening.abort`: a seat ``held`` that has not made its first
        move ends the game unplayed (no result, never rated)."""
        return opening.abort(self, held, now)

    # --- a gone opponent (leaving.py) -----------------------------------------------------------
    def claim_left(self: S, held: set[int], gone_since: float | None, now: float, draw: bool = False) -> Progress:
        """:func:`~abstracta.play.leaving.claim_left`: the game (or a draw) claimed against the
        player to move, gone since ``gone_since``."""
        return leaving.claim_left(self, held, gone_since, now, draw)

    # --- a rematch (rematch.py) -----------------------------------------------------------------
    def offer_rematch(self: S, held: set[int], next_id: str) -> Progress:
        """:func:`~abstracta.play.rematch.offer_rematch`."""
        return rematch.offer_rematch(self, held, next_id)

    def answer_rematch(self: S, held: set[int], accept: bool, next_id: str) -> Progress:
        """:func:`~abstracta.play.rematch.answer_rematch`."""
        return rematch.answer_rematch(self, held, accept, next_id)

    # --- resignation ---------------------------------------------------------------------------
    def resigner(self, held: set[int], seat: int | None) -> int:
        """The seat that resigns when the seats ``held`` resign ``seat`` (None: the held person
        to move, else the one person seat held). NotNow (over; a computer's seat), Invalid (no
        such seat; none named where several are held)."""
        self._check_open()
        if seat is None:
            mine = sorted(held & set(self.persons))
            mover = self.to_move()
            seat = mover if mover in mine else (mine[0] if len(mine) == 1 else None)
            if seat is None:
                raise Invalid("which seat resigns? several person seats are held and none is to move")
        if not 0 <= seat < len(self.players):
            raise Invalid(f"seat {clip(seat)} does not exist in this game")
        if self.players[seat] != "human":
            raise NotNow(f"seat {seat} is played by the computer and cannot resign")
        return seat

    def resign(self, seat: int, now: float) -> Progress:
        """``seat`` resigns (:func:`resignation_returns`): the record says who (``Resigned``).
        Refused as :meth:`resigner` does, and for a seat out of the game already (it has lost)."""
        self.resigner({seat}, seat)
        if seat in self.out_seats:
            # it lost already; its 'resignation' would end the game for the seats still in
            # (Record.replay refuses such a record: the resigner is a seat still in)
            raise NotNow(f"seat {seat} is already out of the game: it has lost and cannot resign",
                         message("error.resign_out"))
        trial = self.copy()
        trial.live.stop(now, increment=False)
        trial.result = resignation_returns(len(self.players), seat, self.out_seats)
        trial.termination = "resignation"
        # the result does not tell: the seats already out lost as well
        trial.tags[RESIGNED_TAG] = str(seat)
        trial.live.takeback = None
        trial.live.draw = None
        trial.live.start_since = None
        return Progress(self, trial, (GameEnded(tuple(trial.result), "resignation"),))

    # --- hints ---------------------------------------------------------------------------------
    def check_assistance(self, held: set[int]) -> None:
        """NotNow unless the seats ``held`` may be helped in the game as it runs (a hint, an
        analysis of a position in it): only against the computer, holding every person seat —
        between people it opens when the game is over."""
        persons = self.persons
        if not any(p != "human" for p in self.players) or any(p not in held for p in persons):
            raise NotNow("hints are for games against the computer; between people, analysis "
                         "opens when the game is over")

    def count_hint(self, seat: int, asked_on: Sequence[int], given: bool) -> Progress | None:
        """One hint for ``seat`` in the record's ``Hints`` tag if ``given`` (an answer that names
        no turn of the seat is no hint given; None then). NotNow when the game is no longer at
        the actions ``asked_on`` the hint was searched for (a move from another tab, an undo)
        or is over: that hint answers a position that is gone, and is neither counted nor given."""
        self._check_open()
        if tuple(self.actions) != tuple(asked_on):
            raise NotNow(f"the position changed while the hint was searched (now at ply {self.ply}): "
                         "it was not counted; ask again", message("error.hint_stale", ply=self.ply), ply=self.ply)
        if not given:
            return None
        counts = self.hint_counts()
        counts[seat] += 1
        trial = self.copy()
        trial.tags[HINTS_TAG] = ",".join(map(str, counts))
        return Progress(self, trial, (HintCounted(seat, tuple(counts)),))

    # --- takebacks and draw offers (requests.py) -----------------------------------------------
    def undo(self: S, held: set[int], now: float) -> Progress:
        """:func:`~abstracta.play.requests.undo`: back at once to the start of the latest turn of
        a seat ``held``, when they hold every person seat."""
        return requests.undo(self, held, now)

    def ask_takeback(self: S, held: set[int], now: float) -> Progress:
        """:func:`~abstracta.play.requests.ask_takeback`."""
        return requests.ask_takeback(self, held, now)

    def answer_takeback(self: S, held: set[int], accept: bool, now: float) -> Progress:
        """:func:`~abstracta.play.requests.answer_takeback`."""
        return requests.answer_takeback(self, held, accept, now)

    def draw_refusal(self, held: set[int]) -> tuple[set[int], PlayError | None]:
        """:func:`~abstracta.play.requests.draw_refusal`: the seats ``held`` would offer a draw
        for, and why they may not now (None: they may)."""
        return requests.draw_refusal(self, held)

    def offer_draw(self: S, held: set[int], now: float) -> Progress:
        """:func:`~abstracta.play.requests.offer_draw`."""
        return requests.offer_draw(self, held, now)

    def answer_draw(self: S, held: set[int], accept: bool, now: float) -> Progress:
        """:func:`~abstracta.play.requests.answer_draw`."""
        return requests.answer_draw(self, held, accept, now)


__all__ = ["DRAW_AGAIN_TURNS", "Session"]
