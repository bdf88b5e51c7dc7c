"""The computer's turn (issue 7 §3, issue 14 §3): a concern of the server reacting to the
kernel's announcements, as lila's fishnet is asked to play when a move leaves the AI to move.

After every stored change (:meth:`Computer.react`) the computer's search is brought in line
with the match: a search for moves that are gone (an undo, a takeback, a flag, the game over)
is cancelled, and a computer seat to move gets one, as a job of
:class:`~abstracta.server.botjobs.BotJobs` carrying the acting seat's information state only.
The answer comes back on a lane thread and is played by one applier thread, in order, through
the session's rule (:meth:`abstracta.play.Session.play_computer`), stored by the kernel and
announced like any other change. A failure is told in the view's ``bot_error``; the search
then waits for a change (an undo) to start again.

The job queue also carries the analysis board's searches (fair with the computer's): their
answers go to whoever asked (:meth:`Computer.on_analysis_answer`).
"""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import logging
import random
import threading
from typing import Any, Callable, Sequence

from ..core.errors import AbstractaError
from ..play import Event, TakenBack
from . import bots
from .botjobs import FALLBACK_SPEC, BotJob, InfoStateError, make_job, run_job
from .lanes import BotJobs
from .errors import CorruptMatch, MatchError, StaleRevision, StorageFailed
from .matches import Kernel, Match, MatchDeleted, message

log = logging.getLogger("abstracta.server.bots")

#: ``(revision, actions)``: the match a search or a failure was for.
At = tuple[int, tuple[int, ...]]


def same_moves(at: At | None, match: Match) -> bool:
    """Whether ``at`` (a revision and its actions) is ``match`` as it is, or an earlier
    revision of it that changed no move (a seat claimed, a takeback asked for): nothing that
    would start a search again."""
    return at is not None and (at[0] == match.revision or at[1] == tuple(match.actions))


class Computer:
    """The computer seats of every match of one process."""

    def __init__(self, kernel: Kernel, workers: int | str = 2):
        self.kernel = kernel
        self.workers = workers  # --bot-workers: N processes, 0 (a thread), ray[:ADDRESS]
        #: match id -> (revision, actions) of the match the computer is finding a move for
        self.thinking: dict[str, At] = {}
        #: match id -> (revision, actions) of the match whose computer's search could not start
        self.unsearchable: dict[str, At] = {}
        #: match id -> (the view's ``bot_error``, the same as a message of the catalogs, the
        #: actions it is about: a computer move played from a fallback, up to that move; a search
        #: that could not start or an answer that could not be played, up to the position it was
        #: for); an undo that removes them drops the error
        self.bot_errors: dict[str, tuple[str, dict[str, Any], tuple[int, ...]]] = {}
        self._jobs: BotJobs | None = None
        self._guard = threading.Lock()
        self._analysis_answer: Callable[[BotJob, str | None, str | None], None] = lambda job, text, note: None
        self.applier = cf.ThreadPoolExecutor(1, thread_name_prefix="bot-apply")
        self.closed = False

    # --- the job queue ---------------------------------------------------------------------------
    @property
    def jobs(self) -> BotJobs:
        """The bot job queue (started on first use)."""
        if self._jobs is None:
            with self._guard:
                if self._jobs is None:
                    if self.closed:
                        raise RuntimeError("the match service is closed")
                    self._jobs = BotJobs(self.workers, on_done=self.answered)
        return self._jobs

    def on_analysis_answer(self, handler: Callable[[BotJob, str | None, str | None], None]) -> None:
        """Send the answers of analysis jobs (``job.analysis``) to ``handler`` (a lane's thread)."""
        self._analysis_answer = handler

    def close(self) -> None:
        """Drop queued searches and stop the workers (see ``BotJobs.close``)."""
        self.closed = True
        jobs, self._jobs = self._jobs, None
        if jobs is not None:
            jobs.close()
        self.applier.shutdown(wait=False, cancel_futures=True)

    # --- reacting to changes ---------------------------------------------------------------------
    def react(self, match: Match, events: Sequence[Event]) -> None:
        """After a change of ``match`` (lock held): a search for moves that are gone, or for a
        game now over, is cancelled; an error about moves taken back is dropped; a computer
        seat to move gets its search (not again where its search could not start at these
        moves: a change of the moves lets it try again)."""
        if any(isinstance(e, MatchDeleted) for e in events):
            self.cancel(match.id)
            self.bot_errors.pop(match.id, None)
            return
        failed = self.unsearchable.get(match.id)
        if failed is not None and not same_moves(failed, match):  # other moves: the search may start again
            self.unsearchable.pop(match.id, None)
        wanted = self.thinking.get(match.id)
        if match.over or (wanted is not None and not same_moves(wanted, match)):
            self.cancel(match.id)
        if any(isinstance(e, TakenBack) for e in events) and self.bot_error(match) is None:
            self.bot_errors.pop(match.id, None)  # the computer's move it was about is taken back
        if match.id not in self.unsearchable:
            self.schedule(match)

    def cancel(self, match_id: str) -> None:
        """The computer's move being found for ``match_id`` is no longer wanted (lock held)."""
        self.thinking.pop(match_id, None)
        self.unsearchable.pop(match_id, None)
        if self._jobs is not None:
            self._jobs.cancel(match_id)

    def schedule(self, match: Match) -> None:
        """If a computer seat is to move (every seat taken), queue its job (lock held). The job
        carries the acting seat's information state only (:func:`~abstracta.server.botjobs.make_job`)."""
        if self.closed or match.over or match.waiting_for:
            return
        mover = match.to_move()
        if mover is None or not bots.is_bot(match.players[mover]):
            return
        if self.thinking_on(match):
            return
        spec = match.players[mover]
        try:
            job = make_job(match, spec)
        except InfoStateError as exc:  # a game bug: the seat cannot know its legal actions
            log.error("match %s: %s", match.id, exc)
            self.tell_error(match, str(exc), message("error.bot_no_state", spec=spec))
            self.unsearchable[match.id] = (match.revision, tuple(match.actions))
            self.kernel.hub.publish(match.id)  # in the middle of its turn, the change was not pushed
            return
        except Exception as exc:  # noqa: BLE001 - a bug: told as a search that cannot start
            self._search_failed(match, spec, exc)
            return
        self.unsearchable.pop(match.id, None)
        self.thinking[match.id] = (match.revision, tuple(match.actions))
        try:
            self.jobs.submit(job)
        except Exception as exc:  # noqa: BLE001 - thinking with no job would be said for ever
            self.thinking.pop(match.id, None)
            if not self.closed:
                self._search_failed(match, spec, exc)
            return
        if not self.mid_turn(match):
            self.kernel.hub.publish(match.id)

    def _search_failed(self, match: Match, spec: str, exc: Exception) -> None:
        """A bug kept the computer's search for ``match`` from being queued (lock held): no job
        runs, so the view must not say it thinks; ``bot_error`` says why, and an undo or a
        takeback lets it try again."""
        self.kernel.log_bug(match.id, exc, "while the computer's search was queued")
        if self._jobs is not None:
            self._jobs.cancel(match.id)  # half queued: its answer would come for nobody
        self.unsearchable[match.id] = (match.revision, tuple(match.actions))
        self.tell_error(match, f"{spec}: its search could not start ({type(exc).__name__})",
                        message("error.bot_search_failed", spec=spec, error=type(exc).__name__))
        self.kernel.hub.publish(match.id)

    # --- what a view says of the computer ----------------------------------------------------------
    def tell_error(self, match: Match, text: str, said: dict[str, Any]) -> None:
        """Show ``text`` as the view's ``bot_error`` of ``match`` (lock held), about its actions
        as they are now, and ``said`` (a message) as its ``bot_error_i18n``: the same in words
        the browser translates, ``text`` being the English that may say more (an exception's
        text, the engine's reason), as a refusal's ``error`` and ``i18n``."""
        self.bot_errors[match.id] = (text, said, tuple(match.actions))

    def _of_this_turn(self, match: Match) -> bool:
        """Whether the ``bot_error`` of ``match`` is about an action of the turn its last action
        belongs to (lock held): a clean answer that goes on with a turn whose earlier action a
        fallback played keeps the note, as a turn is pushed once, when it is over — dropped
        there, nobody would ever see it (a Fanorona capture chain)."""
        entry = self.bot_errors.get(match.id)
        if entry is None or not entry[2] or match.ply == 0:
            return False
        numbers = match.turn_numbers()
        noted = len(entry[2]) - 1
        return noted < match.ply and numbers[noted] == numbers[match.ply - 1]

    def bot_error(self, match: Match) -> tuple[str, dict[str, Any]] | None:
        """The ``bot_error`` of ``match`` as it is, with its message: none once the actions it was
        about are no longer all played (an undo or takeback removed them, here or in another
        process)."""
        entry = self.bot_errors.get(match.id)
        if entry is None:
            return None
        text, said, at = entry
        return (text, said) if len(at) <= match.ply and tuple(match.actions[:len(at)]) == at else None

    def shows_thinking(self, match: Match) -> bool:
        """What a view says of the computer: thinking while its search runs here, and also
        whenever a computer seat is to move in a match that goes on, since a search is queued
        for it under the match's lock right after the change that made it so (the change is
        readable a moment before), or by the process that made it. Not for a seat whose search
        could not start (:class:`InfoStateError`, told in ``bot_error``), while a seat is not
        taken yet, or once the service closes."""
        if self.thinking_on(match):
            return True
        mover = match.to_move()
        # every view and push asks: the seat's kind first, then the seats not taken yet
        return (not self.closed and not match.over and mover is not None and bots.is_bot(match.players[mover])
                and not match.waiting_for and not same_moves(self.unsearchable.get(match.id), match))

    def thinking_on(self, match: Match) -> bool:
        """Whether the computer is finding a move for ``match`` as it is: a search started at
        its revision, or at an earlier one with the same moves (a seat claimed, a takeback
        asked for since: a new revision, the same position)."""
        return same_moves(self.thinking.get(match.id), match)

    def mid_turn(self, match: Match) -> bool:
        """A computer seat played the last action and is to move again (a capture chain, a
        multi-action turn): its turn is pushed once, whole, when it ends. Not when its next
        search could not start: that turn never ends, and the half-played turn is what there
        is to see (with its ``bot_error``)."""
        mover = match.to_move()
        if mover is None or not match.actions or not bots.is_bot(match.players[mover]):
            return False
        return match.played_by()[-1] == mover and not same_moves(self.unsearchable.get(match.id), match)

    # --- answers ---------------------------------------------------------------------------------
    def answered(self, job: BotJob, text: str | None, note: str | None) -> None:
        """A lane's answer (its thread): applied by the one applier thread, in order; an
        analysis's answer goes to the request waiting for it."""
        if job.analysis is not None:
            self._analysis_answer(job, text, note)
            return
        try:
            self.applier.submit(self.apply_answer, job, text, note)
        except RuntimeError:  # shut down
            pass

    def apply_answer(self, job: BotJob, text: str | None, note: str | None) -> None:
        """Play the answer of ``job`` if it is still wanted (not cancelled or superseded) and
        its match still has the moves it was found for: the same revision, or a later one that
        changed no move (a seat claimed, a takeback asked for). An answer for moves that are
        gone (taken back, or played on by another process) is dropped, and so is the thinking.
        An answer that is not legal in the real state (or none: even the fallback failed) is
        replaced by a quick search of the seat's information state; only if that fails too
        (an engine bug) is a random legal action played, counted in ``random_fallbacks``. Any
        other failure (a bug) plays nothing, is logged and told in the view's ``bot_error``: the
        computer no longer thinks there, until a change (an undo) starts its search again; one
        after the move was stored (pushing it) is logged only: the move stands. A store that
        cannot read or write for a moment plays the answer again later."""
        # one hold of the lock for the answer and the report of its failure: let go in between,
        # an undo there took the match back to a person's turn, and the report told a bot_error
        # about that position
        with self.kernel.locked(job.match_id):
            try:
                self._play_answer(job, text, note)
            except Exception as exc:  # noqa: BLE001 - the applier thread would drop it without a word
                self.answer_failed(job, exc)

    def answer_failed(self, job: BotJob, exc: Exception) -> None:
        """A bug while ``job``'s answer was played: logged as a 500 is (its type and place, not
        its message, which may quote hidden cards), nothing played, the search given up."""
        self.kernel.log_bug(job.match_id, exc, "while the computer's move was played")
        match_id = job.match_id
        with self.kernel.locked(match_id):
            wanted = self.thinking.get(match_id)
            if wanted is not None and wanted[0] == job.revision:
                self.thinking.pop(match_id, None)
            try:
                match = self.kernel.load(match_id)
            except Exception:  # noqa: BLE001 - gone or unreadable: nothing to show
                return
            mover = match.to_move()
            if (self.thinking_on(match) or match.over or mover is None
                    or not bots.is_bot(match.players[mover]) or match.ply != job.ply):
                return  # not the position the answer was for: nothing failed there
            self.unsearchable[match_id] = (match.revision, tuple(match.actions))
            self.tell_error(match, f"{job.spec}: its move could not be played ({type(exc).__name__})",
                            message("error.bot_move_failed", spec=job.spec, error=type(exc).__name__))
        self.kernel.hub.publish(match_id)

    def _play_answer(self, job: BotJob, text: str | None, note: str | None) -> None:
        kernel, match_id, revision = self.kernel, job.match_id, job.revision
        with kernel.locked(match_id):
            wanted = self.thinking.get(match_id)
            if self.closed or wanted is None or wanted[0] != revision:
                return
            try:
                match = kernel.load(match_id, fresh=True)
            except StorageFailed:  # the store busy for a moment: the answer is played once it reads
                self._answer_again(job, text, note)
                return
            except (MatchError, CorruptMatch):
                self.thinking.pop(match_id, None)
                return
            self.thinking.pop(match_id, None)
            if match.over or tuple(match.actions) != wanted[1]:
                # changed by another process, which also started whatever search its change
                # needs; subscribers here last heard that this one thinks
                kernel.hub.publish(match_id)
                return
            state = match.state
            action, given_note = None, note  # a retry gets the note as the worker gave it
            # a note comes with a fallback's answer, whose job.spec is the fallback's: the seat's
            # own spec is the one whose search did not answer
            said = message("error.bot_fallback", spec=match.players[job.seat], fallback=FALLBACK_SPEC)
            if text is not None:
                try:
                    action = state.string_to_action(text)
                    if action not in state.legal_actions():
                        raise AbstractaError(f"{text!r} is not legal here")
                except Exception as exc:  # noqa: BLE001 - the answer is refused, see below
                    action, note = None, f"{job.spec} answered a move the real state refuses ({exc})"
                    said = message("error.bot_refused", spec=job.spec, fallback=FALLBACK_SPEC)
            else:
                note = f"{job.spec}: {note}"
            if action is None:
                action = self._quick_action(match, job, note or "")
            progress = match.play_computer(action, kernel.now())
            try:
                match = kernel.commit(progress)
            except StaleRevision:  # another process moved first: its move stands
                kernel.evict(match_id)
                return
            except StorageFailed:
                self.thinking[match_id] = wanted
                self._answer_again(job, text, given_note)
                return
            # the move stands from here: what fails after this is not a move that was not played
            if note is not None:  # about the move just played, from where it was played
                self.tell_error(match, note, said)
            elif not self._of_this_turn(match):
                self.bot_errors.pop(match_id, None)
            kernel.announce(match, progress.events, "after the computer's move was stored (the move stands)")

    def _answer_again(self, job: BotJob, text: str | None, note: str | None) -> None:
        """The store refused to read or write while ``job``'s answer was played (lock held):
        the answer stays wanted (the view says the computer thinks, and it does) and is played
        again later, as the worker gave it, on the match as it is then."""
        log.warning("match %s: the games database did not take the computer's move; it is tried again later",
                    job.match_id)
        self.kernel.later(self.answered, job, text, note)

    def _quick_action(self, match: Match, job: BotJob, why: str) -> int:
        """A level-2 action for the seat to move, searched here on a fresh draw of its
        information state (lock held); a random legal action only if that fails."""
        state = match.state
        try:
            quick = dataclasses.replace(make_job(match, FALLBACK_SPEC), note=why)
            action = state.string_to_action(run_job(quick))
            if action in state.legal_actions():
                self.jobs.count("fallbacks")
                return action
        except Exception:  # noqa: BLE001 - an engine bug: logged, the game goes on
            log.exception("match %s: the quick search failed too", match.id)
        self.jobs.count("random_fallbacks")
        return random.choice(state.legal_actions())


__all__ = ["Computer", "same_moves"]
