"""Quick pairing's rules (issue 42 §1), with no I/O: who is paired with whom, and which computer
level is offered to whoever waits alone.

lichess's pools pair the players of one pool (a game and clock) by rating, the range a player
accepts widening the longer they wait. Here: a player who has waited ``w`` seconds accepts an
opponent within :func:`accepted_range` ``(w)`` rating points (100 at once, 25 more each second:
±850 after 30 s); two players are paired when each accepts the other. The longest waiting
player is served first, with the nearest rating among those who accept each other (then the
one who has waited longest). After :data:`COMPUTER_AFTER` seconds alone a player is offered the
computer at the level whose approximate rating (``GET /api/levels``) is nearest theirs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

#: rating points accepted at once, and added for each second waited
RANGE_START, RANGE_GROWTH = 100.0, 25.0
#: seconds alone before the computer is offered
COMPUTER_AFTER = 30.0
#: the level offered when no level has a rating figure yet (a middle strength)
DEFAULT_LEVEL = 3


@dataclass(frozen=True)
class Wait:
    """``person`` (rating ``rating`` in the pool) waiting since ``since`` (Unix seconds)."""

    person: int
    rating: float
    since: float


def accepted_range(waited: float) -> float:
    """Rating points a player who has waited ``waited`` seconds accepts either side."""
    return RANGE_START + RANGE_GROWTH * max(0.0, waited)


def accept_each_other(a: Wait, b: Wait, now: float) -> bool:
    """Whether ``a`` and ``b`` are within the range each accepts at ``now``."""
    gap = abs(a.rating - b.rating)
    return gap <= accepted_range(now - a.since) and gap <= accepted_range(now - b.since)


def pairs(waits: Sequence[Wait], now: float, blocked: Callable[[int, int], bool] = lambda a, b: False
          ) -> list[tuple[Wait, Wait]]:
    """The pairs to make now among ``waits`` (of one pool): the longest waiting first, each with
    the nearest rating among those it and who accept each other (and neither blocks the
    other), ties to the one waiting longer."""
    free = sorted(waits, key=lambda w: (w.since, w.person))
    out: list[tuple[Wait, Wait]] = []
    while free:
        first = free.pop(0)
        fits = [w for w in free if accept_each_other(first, w, now) and not blocked(first.person, w.person)]
        if not fits:
            continue
        other = min(fits, key=lambda w: (abs(w.rating - first.rating), w.since, w.person))
        free.remove(other)
        out.append((first, other))
    return out


def computer_due(wait: Wait, now: float) -> bool:
    """Whether ``wait`` has waited long enough alone to be offered the computer."""
    return now - wait.since >= COMPUTER_AFTER


def nearest_level(rating: float, figures: Mapping[int, float]) -> int:
    """The level whose approximate rating (``figures``: {level: rating}) is nearest ``rating``
    (ties to the lower level); :data:`DEFAULT_LEVEL` when no level has a figure."""
    if not figures:
        return DEFAULT_LEVEL
    return min(figures, key=lambda level: (abs(figures[level] - rating), level))


def in_range(rating: float, low: int | None, high: int | None) -> bool:
    """Whether ``rating`` lies within a seek's range (either bound may be open)."""
    return (low is None or rating >= low) and (high is None or rating <= high)


__all__ = ["COMPUTER_AFTER", "DEFAULT_LEVEL", "RANGE_GROWTH", "RANGE_START", "Wait", "accept_each_other",
           "accepted_range", "computer_due", "in_range", "nearest_level", "pairs"]
