"""What the process keeps of who was there stays bounded (issue 44 §5): a last-seen time kept for
every seat of every match ever played grew the web process for as long as it served."""

from __future__ import annotations

from abstracta.server import presence as presence_module
from abstracta.server.presence import SEEN_KEPT_SECONDS, Presence


class Clock:
    def __init__(self, t: float = 1_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


def play_matches(presence: Presence, clock: Clock, n: int, start: int = 0, step: float = 60.0) -> None:
    """``n`` matches of two seats played and finished: each seat connects, moves, leaves."""
    for i in range(start, start + n):
        mid = f"{i:016x}"
        tickets = [presence.open(mid, {seat}, person=1000 + seat) for seat in (0, 1)]
        presence.seen(mid, {0, 1})
        clock.t += step
        for ticket in tickets:
            presence.close(ticket)


def test_the_last_seen_times_kept_are_bounded_by_their_age():
    clock = Clock()
    presence = Presence(now=clock)
    per_horizon = int(SEEN_KEPT_SECONDS // 60)  # matches played within the time a last-seen time is kept
    play_matches(presence, clock, per_horizon)
    kept = presence.kept()
    assert kept >= 2 * per_horizon  # two seats a match within the horizon: all still kept
    play_matches(presence, clock, 3 * per_horizon, start=per_horizon)
    # three times as many matches later, no more is kept than one horizon's worth (and 2 people)
    assert presence.kept() <= 2 * (per_horizon + 1) + 2
    assert presence.kept() <= kept + 2


def test_a_time_dropped_reads_as_gone_longer_than_any_wait():
    clock = Clock()
    presence = Presence(now=clock)
    ticket = presence.open("a" * 16, {1})
    clock.t += 5
    presence.close(ticket)
    left = clock.t
    assert presence.seat_gone_since("a" * 16, 1) == left
    clock.t += SEEN_KEPT_SECONDS + 1
    play_matches(presence, clock, 1)  # anything seen later prunes what is too old
    since = presence.seat_gone_since("a" * 16, 1)
    assert since == presence.started < left
    # gone longer than the longest wait either way: a claim would be open in both readings
    assert clock.t - left > presence_module.CORRESPONDENCE_SECONDS


def test_the_spectator_counts_are_kept_not_walked():
    """A spectator count is read at every push of a browser's socket: kept per match as the
    connections open and close (a second close ignored), equal to counting the open ones, and
    read without walking every connection of the process."""
    import random

    presence = Presence(now=Clock())
    rng = random.Random(5)
    open_: list = []
    for _ in range(2000):
        if open_ and rng.random() < 0.45:
            ticket = open_.pop(rng.randrange(len(open_)))
            presence.close(ticket)
            if rng.random() < 0.2:
                presence.close(ticket)  # closed twice: counted once
        else:
            match = rng.choice(["a", "b", "c", None])
            seats = rng.choice([(), (), (0,), (1,), (0, 1)])
            open_.append(presence.open(match, seats, person=rng.choice([None, 7])))
        for match in ("a", "b", "c", "z"):
            assert presence.spectators(match) == sum(1 for t in open_ if t.match == match and not t.seats)
    # with nothing open on other matches' connections walked: the answer is a dictionary read
    presence._open = None  # a walk over the connections would fail
    assert presence.spectators("a") == sum(1 for t in open_ if t.match == "a" and not t.seats)
