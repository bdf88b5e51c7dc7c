"""The match service: the server's matches in play, composed of a kernel and its concerns
(issue 37; lila's round module is the model).

============  ==========================================================================
module         concern
============  ==========================================================================
matches        the kernel: load, lock, commit, announce (:class:`~.matches.Kernel`)
seats          creating and importing matches, tokens, invitations, listing, deleting
owners         the people the seats belong to, their names, rated games (issue 41)
acts           what people do: a move, an undo, takebacks, draw offers, resignation, a flag
results        a game's end in the people's standings: results, ratings (reacts to every change)
computer       the computer's turn (reacts to every change; its job queue)
clocks         the clocks' timers (reacts to every change) and figures
pushes         the pushes to a match's watchers (reacts to every change)
views          what each seat or a spectator sees (lila's JsonView), replay pages
analysis       the analysis board and hints
============  ==========================================================================

Every rule of play is the play session's (:mod:`abstracta.play`); the modules above only load,
authorize, store and react. None of them calls another's helpers: the acts return the
session's events, the kernel stores the change and announces the events, and the results, the
pushes, the clocks, the computer and the seats' owners react to them (in that order: a game's
end recorded, so that the view pushed holds its rating change; a push, the timer, the
computer's reply; a deleted match's seats given up). :class:`MatchService` wires them and is what the routes (``app.py``) call; every method
raises a :class:`~abstracta.server.errors.MatchError` for a refused request.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

from ..people import People
from .acts import Acts
from .analysis import Analysis
from .lanes import BotJobs
from .clocks import Clocks
from .computer import Computer
from .errors import CorruptMatch, MatchError, NotFound
from .matches import Kernel, Match, MatchResumed
from .owners import Owners
from .push import Hub
from .pushes import Pushes
from .results import Results
from .seats import Seats
from .storage import Store
from .views import JsonView

log = logging.getLogger("abstracta.server.bots")


class MatchService:
    """All matches of one server process (see the module's docstring). Thread-safe: one lock
    per match. ``people``: the people's service on the same database (made on the store's
    engine when not given)."""

    def __init__(self, store: Store, bot_workers: int | str = 2, hub: Hub | None = None,
                 analysis_scale: float = 1.0, people: People | None = None):
        self.people = people if people is not None else People(store.engine)
        self.owners = Owners(self.people)
        self.kernel = Kernel(store, hub, owners=self.owners.seats_of_match)
        self.results = Results(self.kernel, self.people.standings)
        self.computer = Computer(self.kernel, bot_workers)
        self.clocks = Clocks(self.kernel)
        self.views = JsonView(self.kernel, self.computer, self.clocks, self.owners, self.results)
        self.pushes = Pushes(self.kernel, self.computer, self.views)
        self.seats = Seats(self.kernel, self.owners)
        self.acts = Acts(self.kernel)
        self.analysis = Analysis(self.kernel, self.computer, analysis_scale)
        self.computer.on_analysis_answer(lambda job, text, note: self.analysis.answered(job, text, note))
        # what follows every stored change, in order: a game's end recorded (its rating change
        # in the view the watchers are sent), the watchers told, the clock's timer armed, the
        # computer's search brought in line, then a deleted match's seats given up
        self.kernel.react("results", lambda match, events: self.results.react(match, events))
        self.kernel.react("pushes", lambda match, events: self.pushes.react(match, events))
        self.kernel.react("clocks", lambda match, events: self.clocks.react(match, events))
        self.kernel.react("computer", lambda match, events: self.computer.react(match, events))
        self.kernel.react("owners", lambda match, events: self.owners.react(match, events))
        # what the routes call, each answered by its concern
        seats, acts, views, kernel = self.seats, self.acts, self.views, self.kernel
        self.create, self.import_record, self.delete = seats.create, seats.import_record, seats.delete
        self.invitation, self.claim, self.reinvite, self.mine = seats.invitation, seats.claim, seats.reinvite, seats.mine
        self.play, self.undo, self.resign, self.claim_flag = acts.play, acts.undo, acts.resign, acts.claim_flag
        self.request_takeback, self.answer_takeback = acts.request_takeback, acts.answer_takeback
        self.offer_draw, self.answer_draw = acts.offer_draw, acts.answer_draw
        self.analyse, self.analyses_running = self.analysis.analyse, self.analysis.analyses_running
        self.view, self.view_json, self.act_view, self.snapshot = views.view, views.view_json, views.act_view, views.snapshot
        self.positions_page, self.record_of, self.seats_of = views.positions_page, views.record_of, views.seats_of
        self.push_view = self.pushes.view
        self.load, self.current, self.evict = kernel.load, kernel.current, kernel.evict
        self.locked, self.lock_for = kernel.locked, kernel.lock_for
        self.changed_elsewhere, self.forget_all = kernel.changed_elsewhere, kernel.forget_all

    @property
    def store(self) -> Store:
        return self.kernel.store

    @property
    def hub(self) -> Hub:
        return self.kernel.hub

    @property
    def cache(self) -> OrderedDict[str, Match]:
        return self.kernel.cache

    @property
    def jobs(self) -> BotJobs:
        """The bot job queue (started on first use)."""
        return self.computer.jobs

    @property
    def thinking(self) -> dict[str, Any]:
        """Match id -> ``(revision, actions)`` the computer is finding a move for."""
        return self.computer.thinking

    @property
    def closed(self) -> bool:
        return self.kernel.closed

    def resume_bots(self) -> None:
        """After a start: start the bot workers, then let what runs by itself run again in every
        unfinished match (a computer to move searches, a clock's timer is armed)."""
        self.jobs  # the lanes and workers start now, not with the first computer move
        for mid in list(self.store.unfinished_ids()):
            try:
                with self.kernel.locked(mid):
                    match = self.kernel.load(mid)
                    self.kernel.announce(match, (MatchResumed(),), "when the match was resumed")
            except NotFound:  # deleted meanwhile
                continue
            except (MatchError, CorruptMatch) as exc:
                # most often passing (the database busy, a connection dropped): the match resumes
                # when it is next read, which is when a player or a spectator asks for it; its
                # view says the computer thinks, and it will
                log.warning("match %s could not be read at start-up (%s); it resumes when it is next read",
                            mid, type(exc).__name__)
                self.kernel.resume_later(mid)

    def close(self) -> None:
        """Stop everything this service started: queued bot moves are dropped, worker processes
        (possibly in the middle of a search) are stopped, then killed if they do not stop within
        a second."""
        self.kernel.closed = True
        self.computer.close()
        self.hub.detach()
        self.store.dispose()


__all__ = ["MatchService"]
