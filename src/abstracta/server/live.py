"""The games in play to watch (issue 43 §3): a page of the games people play at a distance now,
most watched first, each with how many watch it and what a small board needs to draw it.

Which games: those in play (every seat taken, not over) between people at a distance
(:mod:`.company`) — never a game against the computer alone or one on a single device, which
their players did not open to anyone. The watchers are the spectators of this process
(``hub.watchers``). The list is computed at most once every :data:`FRESH_SECONDS` for every
reader, from the most recently played games in play and the games watched now.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from sqlalchemy import select

from .company import Company
from .errors import CorruptMatch, MatchError
from .matches import Kernel
from .storage import MatchRow
from .views import JsonView

#: most games listed
LIVE_LIMIT = 30
#: the most recently played games in play looked at (besides the ones watched now)
CANDIDATES = 60
#: seconds a list is served again before it is computed anew
FRESH_SECONDS = 2.0
#: what of a spectator's view a row of the list carries (a small board, the players, the clock)
VIEW_FIELDS = ("game", "title", "title_key", "variant", "players", "num_players", "seats", "board", "board_module",
               "struct", "ply", "revision", "to_move", "turns_played", "clock", "options")


class LiveGames:
    """The live list of one process."""

    def __init__(self, kernel: Kernel, views: JsonView, company: Company):
        self.kernel, self.views, self.company = kernel, views, company
        self._lock = threading.Lock()
        self._kept: tuple[float, int, list[dict[str, Any]]] | None = None

    def list(self, limit: int = LIVE_LIMIT) -> list[dict[str, Any]]:
        """The games in play, most watched first (then the most recently played): per game the
        spectator's view's fields :data:`VIEW_FIELDS`, its ``id``, ``names`` (per seat
        ``{name, person, name_key}``) and ``watchers``."""
        with self._lock:
            kept = self._kept
            if kept is not None and kept[1] >= limit and time.monotonic() - kept[0] < FRESH_SECONDS:
                return kept[2][:limit]
        rows = self._compute(limit)
        with self._lock:
            self._kept = (time.monotonic(), limit, rows)
        return rows

    def _compute(self, limit: int) -> list[dict[str, Any]]:
        hub = self.kernel.hub
        watched = hub.watched()
        with self.kernel.store.reading() as s:
            recent = list(s.scalars(select(MatchRow.id).where(MatchRow.status == "playing")
                                    .order_by(MatchRow.updated_at.desc()).limit(CANDIDATES)))
        order = list(dict.fromkeys(recent + sorted(watched, key=lambda mid: -watched[mid])))
        apart = self.company.apart_ids(order)
        out = []
        for rank, mid in enumerate(order):
            if mid not in apart:
                continue
            try:
                match = self.kernel.current(mid)
                if match.over or match.waiting_for or len(match.persons) < 2:
                    continue
                with self.kernel.locked(mid):
                    view = self.views.view(match, frozenset())
            except (MatchError, CorruptMatch):  # deleted meanwhile, the database busy, or a match that does not replay
                continue
            row = {k: view.get(k) for k in VIEW_FIELDS}
            row.update(id=mid, names=self.company.names(match), watchers=hub.watchers(mid), rank=rank)
            out.append(row)
        out.sort(key=lambda r: (-r["watchers"], r["rank"]))
        for row in out:
            del row["rank"]
        return out[:limit]


__all__ = ["FRESH_SECONDS", "LIVE_LIMIT", "LiveGames"]
