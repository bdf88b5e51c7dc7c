"""Pushes to the watchers of a match (issue 14 §2): after every stored change the match's
subscribers (:class:`~abstracta.server.push.Hub`: its WebSockets) are told, and each fetches the
view for its seats (:meth:`Pushes.view`). A computer's turn of several actions is pushed once,
whole, when it ends."""

from __future__ import annotations

from typing import Sequence

from ..play import Event
from .computer import Computer
from .matches import Kernel, Match, MatchDeleted
from .views import JsonView


class Pushes:
    """The pushes of every match of one process."""

    def __init__(self, kernel: Kernel, computer: Computer, views: JsonView):
        self.kernel, self.computer, self.views = kernel, computer, views

    def react(self, match: Match, events: Sequence[Event]) -> None:
        """Tell the subscribers of ``match`` just stored (lock held), unless a computer is in
        the middle of its turn (a deleted match is told whatever it was in)."""
        if any(isinstance(e, MatchDeleted) for e in events) or not self.computer.mid_turn(match):
            self.kernel.hub.publish(match.id)

    def view(self, match_id: str, held: set[int]) -> tuple[tuple[int, bool] | None, bytes]:
        """For a subscriber: ``(key, view as JSON)``, the key changing exactly when the view
        does (revision, a computer thinking); key None in the middle of a computer's turn (a
        subscriber that has a view already waits for the whole turn). NotFound once the match
        is deleted."""
        def look() -> tuple[tuple[int, bool] | None, bytes]:
            # one hold of the lock: the match as it is (a fallen flag applied), then its view
            match = self.kernel.tick(self.kernel.load(match_id))
            concern = self.views.concern(match)
            key = None if self.computer.mid_turn(match) else (match.revision, concern[0])
            return key, self.views.view_json(match, held, concern=concern)

        return self.kernel.change(match_id, look)


__all__ = ["Pushes"]
