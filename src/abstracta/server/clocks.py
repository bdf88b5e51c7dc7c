"""The clocks' timers and their figures (issue 13 §3, docs: playing/distance.md "Clocks"; a first
move's deadline, issue 42 §4).

The rule of a clock — when it runs, what a turn adds, what a fallen flag does — is the play
session's (:meth:`abstracta.play.Session.flag`), fed the time. This concern only makes the time
pass: after every stored change it arms one timer per match for the moment the running clock's
flag falls (:meth:`Clocks.react`); when it fires, the kernel loads the match, which applies the
flag (:meth:`~abstracta.server.matches.Kernel.current`) and announces it as any change.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..play import Event
from ..play.opening import next_due
from .errors import Conflict, NotFound, StorageFailed
from .matches import Kernel, Match, MatchDeleted


class Clocks:
    """The clock timers of every match of one process."""

    def __init__(self, kernel: Kernel):
        self.kernel = kernel

    def react(self, match: Match, events: Sequence[Event]) -> None:
        """A timer for the moment time alone changes the match (``play.opening.next_due``): the
        running clock's flag falls, or a first move's deadline passes (issue 42 §4). None: no
        clock runs and no first move is awaited, or the match was deleted."""
        live = match.live
        if any(isinstance(e, MatchDeleted) for e in events):
            self.kernel.hub.set_timer(match.id, None, self.flag_due)
            return
        if live.clock is None and live.start_within is None:
            return  # a match that never has a timer
        wait = next_due(match, self.kernel.now())
        self.kernel.hub.set_timer(match.id, None if wait is None else wait + 0.02, self.flag_due)

    def flag_due(self, match_id: str) -> None:
        """A timer fired: apply the fallen flag or the expired first move (if the match still
        has it)."""
        if self.kernel.closed:
            return
        try:
            self.kernel.current(match_id)
        except (NotFound, Conflict):
            pass
        except StorageFailed:  # the flag falls once the database takes it
            self.kernel.hub.set_timer(match_id, self.kernel.retry_seconds(), self.flag_due)

    def view(self, match: Match) -> dict[str, Any] | None:
        """The clock for a client (None: no clock): the time control, seconds left per seat at
        ``now`` (server Unix time), the seat whose time runs (None: none), seats out."""
        live = match.live
        if live.clock is None:
            return None
        now = self.kernel.now()
        return {"control": dict(live.clock),
                "left": [max(0.0, round(live.left(i, now) or 0.0, 3)) for i in range(len(match.players))],
                "running": None if match.over else live.running,
                "now": round(now, 3),
                "out": list(live.out)}


__all__ = ["Clocks"]
