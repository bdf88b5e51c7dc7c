"""What a session has besides its record: the clock and the pending requests (issue 13 §3,
docs: playing/distance.md). Stored by the server as JSON beside the record (``match_live``);
the format only grows (issue 42 added the start's deadline, the turn's start and the rematch):
a database of e426a3e reads as it is, each missing field at its default.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable

import orjson


@dataclass
class Live:
    """What a match has besides its record, stored as JSON beside it (``match_live``).

    Attributes:
        clock: the time control, ``None`` (no clock), ``{"initial": s, "increment": s}`` (a
            live clock: seconds per seat, seconds added after each of its turns) or
            ``{"per_turn": s}`` (correspondence: each turn within ``s`` seconds).
        remaining: seconds left per seat when ``running`` started (live clock), else None.
        running: the seat whose time runs, None while no person's time runs (the clock waits
            for every person seat to be claimed, and does not run for computer seats).
        since: when ``running`` started (Unix seconds, server time).
        takeback: a pending takeback request, ``{"by": seat, "to_ply": ply, "at_ply": ply,
            "accepted": [seats]}``, or None.
        out: seats out of a 3–4 player game on time (their moves are the computer's since).
        draw: a pending draw offer, ``{"by": seat, "at_ply": ply, "accepted": [seats]}``, or None.
        draw_ended, takeback_ended: how the last draw offer or takeback request that did not
            end the game ended, kept until the position changes or another is made (the browser's
            note): ``{"by": the seat that made it, "how", "seat", "at_ply": the ply it ended
            at, "accepted": the seats that had accepted it}``, ``how`` ``declined`` (``seat``
            answered no), ``withdrawn`` (by ``seat``, the one that made it; a takeback's asker
            playing on withdraws it too), ``lapsed`` (``seat`` moved instead: for a draw a seat
            still to answer, for a takeback any other), ``void`` (who must agree changed: a
            flag, a seat put out; ``seat`` None) or, for a takeback only, ``accepted`` (it
            happened, ``seat`` the last to accept, ``at_ply`` the ply gone back to: a move that
            vanishes from the list is said); or None.
        draw_again: per seat (``"0"``), the ply at which its last offer was declined, withdrawn or
            lapsed: it offers again after :data:`~abstracta.play.session.DRAW_AGAIN_TURNS` turns
            of its own since.
        start_within: seconds a seat has to make its first move once every seat is taken (people
            at a distance; issue 42 §4), past which the game is aborted; None: no deadline (one
            device, or against the computer alone).
        start_since: when the seat to move began to wait for its own first move (Unix seconds),
            while the game has a deadline for it; else None.
        turn_since: when the seat to move began its turn (the rule of a gone opponent counts the
            time gone on its own turn from there); None before every seat is taken.
        started: every seat has made its first move, so the clock runs (issue 42 §4; it stays so,
            a takeback to the start included, as on lichess); read as true for a stored match
            whose clock ran before the field existed.
        rematch: a rematch offered once the game is over, ``{"by": seat, "accepted": [seats],
            "next": the new match's id or None}``, or how the last one ended, ``{"by", "how":
            "declined" | "withdrawn", "seat"}``; None.
    """

    clock: dict[str, float] | None = None
    remaining: list[float] | None = None
    running: int | None = None
    since: float | None = None
    takeback: dict[str, Any] | None = None
    out: list[int] = field(default_factory=list)
    draw: dict[str, Any] | None = None
    draw_ended: dict[str, Any] | None = None
    takeback_ended: dict[str, Any] | None = None
    draw_again: dict[str, int] = field(default_factory=dict)
    start_within: float | None = None
    start_since: float | None = None
    turn_since: float | None = None
    started: bool = False
    rematch: dict[str, Any] | None = None

    def _fields(self) -> dict[str, Any]:
        return {"clock": self.clock, "remaining": self.remaining, "running": self.running,
                "since": self.since, "takeback": self.takeback, "out": self.out, "draw": self.draw,
                "draw_ended": self.draw_ended, "takeback_ended": self.takeback_ended,
                "draw_again": self.draw_again, "start_within": self.start_within,
                "start_since": self.start_since, "turn_since": self.turn_since,
                "started": self.started, "rematch": self.rematch}

    def to_json(self) -> str:
        return json.dumps(self._fields())

    @classmethod
    def from_json(cls, text: str | None) -> "Live":
        if not text:
            return cls()
        return cls._from_fields(json.loads(text))

    def copy(self) -> "Live":
        """A copy sharing nothing with this one: what :meth:`to_json` and :meth:`from_json` make
        of it (keys as strings, tuples as lists), through orjson, which does it in C (every act
        copies its session's live state)."""
        return Live._from_fields(orjson.loads(orjson.dumps(self._fields(), option=orjson.OPT_NON_STR_KEYS)))

    @classmethod
    def _from_fields(cls, d: dict[str, Any]) -> "Live":
        return cls(d.get("clock"), d.get("remaining"), d.get("running"), d.get("since"),
                   d.get("takeback"), list(d.get("out") or []), d.get("draw"), d.get("draw_ended"),
                   d.get("takeback_ended"), dict(d.get("draw_again") or {}), d.get("start_within"),
                   d.get("start_since"), d.get("turn_since"),
                   bool(d.get("started", d.get("running") is not None)), d.get("rematch"))

    @classmethod
    def with_clock(cls, clock: dict[str, float] | None, num_players: int, out: Iterable[int] = (),
                   start_within: float | None = None, started: bool = False) -> "Live":
        """A fresh live state for a new session: the time control ``clock`` (full time for each
        of ``num_players`` seats; not running yet), the seats ``out`` on time already,
        ``start_within``: the seconds for a first move (None: no deadline; see
        :func:`abstracta.play.opening.first_move_seconds`), and ``started``: the first moves are
        behind it already (a game continued), so the clock runs from the first turn."""
        return cls(clock=clock, remaining=[clock["initial"]] * num_players if clock and "initial" in clock else None,
                   out=list(out), start_within=start_within, started=started)

    def due(self) -> float | None:
        """When (Unix seconds) time alone next changes a game in play in this state: the
        deadline of the first move awaited, or the moment the running clock's flag falls; None:
        neither runs. (A list reads it without the game; ``opening.next_due`` is the game's.)"""
        times = []
        if self.start_since is not None and self.start_within is not None:
            times.append(self.start_since + self.start_within)
        if self.clock is not None and self.running is not None and self.since is not None:
            times.append(self.since + (self.left(self.running, self.since) or 0.0))
        return min(times) if times else None

    def left(self, seat: int, now: float) -> float | None:
        """Seconds ``seat`` has left at ``now`` (None without a clock)."""
        if self.clock is None:
            return None
        if "per_turn" in self.clock:
            if self.running != seat or self.since is None:
                return float(self.clock["per_turn"])
            return self.clock["per_turn"] - (now - self.since)
        assert self.remaining is not None
        used = now - self.since if self.running == seat and self.since is not None else 0.0
        return self.remaining[seat] - used

    def stop(self, now: float, increment: bool) -> None:
        """Stop the running clock (its time used is gone), adding the increment if asked."""
        if self.clock is None or self.running is None:
            return
        seat = self.running
        if self.remaining is not None:
            left = self.left(seat, now) or 0.0
            self.remaining[seat] = left + (self.clock.get("increment", 0.0) if increment else 0.0)
        self.running, self.since = None, None


def ended(request: dict[str, Any], how: str, seat: int | None, ply: int) -> dict[str, Any]:
    """How a takeback request or draw offer ``request`` ended (``Live.draw_ended``), with the
    seats that had accepted it: a decline is told to them as well as to the seat that made it."""
    return {"by": request["by"], "how": how, "seat": seat, "at_ply": ply, "accepted": list(request["accepted"])}


def ended_by_answer(request: dict[str, Any], held: set[int], needed: Iterable[int], ply: int) -> dict[str, Any]:
    """A no to ``request`` by the seats ``held``: declined by one whose answer was ``needed``,
    else withdrawn by the seat that made it."""
    answering = sorted(set(held) & set(needed))
    if answering:
        return ended(request, "declined", answering[0], ply)
    return ended(request, "withdrawn", request["by"], ply)


__all__ = ["Live", "ended", "ended_by_answer"]
