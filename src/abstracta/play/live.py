"""What a session has besides its record: the clock and the pending requests (issue 13 §3,
README "Clocks", "Draw offers"). Stored by the server as JSON beside the record (``match_live``);
the format is unchanged since e426a3e, so a database of that version reads as it is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable


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

    def to_json(self) -> str:
        return json.dumps({"clock": self.clock, "remaining": self.remaining, "running": self.running,
                           "since": self.since, "takeback": self.takeback, "out": self.out, "draw": self.draw,
                           "draw_ended": self.draw_ended, "takeback_ended": self.takeback_ended,
                           "draw_again": self.draw_again})

    @classmethod
    def from_json(cls, text: str | None) -> "Live":
        if not text:
            return cls()
        d = json.loads(text)
        return cls(d.get("clock"), d.get("remaining"), d.get("running"), d.get("since"),
                   d.get("takeback"), list(d.get("out") or []), d.get("draw"), d.get("draw_ended"),
                   d.get("takeback_ended"), dict(d.get("draw_again") or {}))

    @classmethod
    def with_clock(cls, clock: dict[str, float] | None, num_players: int, out: Iterable[int] = ()) -> "Live":
        """A fresh live state for a new session: the time control ``clock`` (full time for each
        of ``num_players`` seats; not running yet) and the seats ``out`` on time already."""
        return cls(clock=clock, remaining=[clock["initial"]] * num_players if clock and "initial" in clock else None,
                   out=list(out))

    def copy(self) -> "Live":
        return Live.from_json(self.to_json())

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
