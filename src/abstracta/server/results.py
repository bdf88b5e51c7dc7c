"""The end of a game in the people's standings (issue 41 §4–5): results, ratings, profiles.

When a game ends — by the rules, a resignation, a fallen flag or a draw agreed — the session
announces :class:`~abstracta.play.GameEnded`; this concern reacts to it by recording the game
once (:meth:`abstracta.people.standings.Standings.record_game`): a result for each person
seated in it, and in a rated game (:func:`~abstracta.server.owners.is_rated`) each account's
Glicko-2 rating in the game's pool changed at once. It runs before the pushes, so the view
that tells the watchers the game has ended already holds the rating change
(:meth:`Results.changes`), shown to both players and to spectators.

A database that refuses the record is asked again :data:`~abstracta.server.matches.STORE_RETRY_SECONDS`
later (and whenever the match is announced again); the standings record a game once
whoever asks, so a second report of the same end changes nothing.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from typing import Any, Sequence

from ..people import PeopleError
from ..people.standings import RatingChange, Standings
from ..play import Event, GameEnded
from .errors import MatchError
from .matches import Kernel, Match, MatchDeleted, MatchResumed
from .owners import is_rated

log = logging.getLogger("abstracta.server")

#: finished matches whose rating changes are kept in memory
KEPT = 2000


class Results:
    """The results of the games of one process, recorded in ``standings``."""

    def __init__(self, kernel: Kernel, standings: Standings):
        self.kernel, self.standings = kernel, standings
        #: match id -> {person id: change} of the games recorded or read (most recent last)
        self._changes: OrderedDict[str, dict[int, RatingChange]] = OrderedDict()
        self._guard = threading.Lock()
        self._waiting: set[str] = set()  # matches whose record is to be tried again

    def react(self, match: Match, events: Sequence[Event]) -> None:
        """A game that ended is recorded (and one announced again while its record waits)."""
        if any(isinstance(e, MatchDeleted) for e in events):
            return
        if match.over and (any(isinstance(e, GameEnded) for e in events)
                           or (any(isinstance(e, MatchResumed) for e in events) and match.id not in self._changes)):
            self.record(match)

    def record(self, match: Match) -> None:
        """Record the finished ``match`` in the standings (once; lock held): ``returns`` its
        result, the people of its seats, its computer seats' levels, rated as it was made."""
        if match.id in self._changes:
            return
        if not match.people or match.result is None:
            self._keep(match.id, {})  # nobody known at any seat: nothing to record
            return
        levels = {i: int(p.split(":", 1)[1]) for i, p in enumerate(match.players) if p.startswith("level:")}
        try:
            changes = self.standings.record_game(match.id, match.game, match.live.clock, match.result,
                                                 dict(match.people), rated=is_rated(match), levels=levels)
        except PeopleError:
            # the database refused: asked again later (the game's end stands; its record waits)
            log.warning("match %s: its result could not be recorded yet; tried again in %g s", match.id,
                        self.kernel.retry_seconds())
            with self._guard:
                again = match.id not in self._waiting and not self.kernel.closed
                self._waiting.add(match.id)
            if again:
                self.kernel.later(self._again, match.id)
            return
        self._keep(match.id, changes)

    def _again(self, match_id: str) -> None:
        with self._guard:
            self._waiting.discard(match_id)
        if self.kernel.closed:
            return
        try:
            with self.kernel.locked(match_id):
                match = self.kernel.load(match_id)
                if match.over:
                    self.record(match)
        except MatchError:  # deleted meanwhile, or the store busy: recorded when next announced
            return

    def _keep(self, match_id: str, changes: dict[int, RatingChange]) -> None:
        with self._guard:
            self._changes[match_id] = changes
            self._changes.move_to_end(match_id)
            while len(self._changes) > KEPT:
                self._changes.popitem(last=False)

    def changes(self, match: Match) -> tuple[Any, ...] | None:
        """Per seat, the rating change a finished rated game made (``RatingChange.to_json``:
        ``{pool, before, after, change, rd, provisional}``; None for a seat without one), or
        None (the game goes on, is not rated, or its record waits). Lock held: a game
        recorded before this process started is read (``record_game`` answers a second
        report with the first's changes)."""
        if not match.over or not is_rated(match) or not match.people:
            return None
        if match.id not in self._changes:  # recorded before this process started, or its record waits
            self.record(match)
        with self._guard:
            changes = self._changes.get(match.id)
        if not changes:
            return None
        return tuple(changes[person].to_json() if person in changes else None
                     for person in (match.people.get(i) for i in range(len(match.players))))


__all__ = ["Results"]
