"""Quick pairing's rules (issue 42 §1), with no database: nearest rating, a range widening with
time, the longest waiting served first, blocked pairs never made, the computer's level nearest."""

from __future__ import annotations

from abstracta.lobby.pairing import (COMPUTER_AFTER, RANGE_GROWTH, RANGE_START, Wait, accepted_range, computer_due,
                                     in_range, nearest_level, pairs)

T = 1_000_000.0


def test_the_range_widens_with_the_wait():
    assert accepted_range(0) == RANGE_START == 100
    assert accepted_range(30) == RANGE_START + 30 * RANGE_GROWTH == 850
    far = [Wait(1, 1500, T), Wait(2, 1800, T)]
    assert pairs(far, T) == []  # 300 apart: neither accepts yet
    assert pairs(far, T + 7) == []  # 275 accepted by each
    assert pairs(far, T + 8) == [(far[0], far[1])]  # 300 ≤ 100 + 8 × 25


def test_each_must_accept_the_other():
    old, new = Wait(1, 1500, T - 100), Wait(2, 1800, T)
    assert pairs([old, new], T) == []  # the newcomer accepts only ±100
    assert pairs([old, new], T + 8) == [(old, new)]


def test_the_longest_waiting_gets_the_nearest_rating():
    first, near, nearer, late = Wait(1, 1500, T - 20), Wait(2, 1580, T - 10), Wait(3, 1530, T - 5), Wait(4, 1520, T)
    made = pairs([late, near, first, nearer], T)
    assert made[0] == (first, late)  # 20 points: the nearest of those that accept each other
    assert made[1] == (near, nearer)


def test_blocked_people_are_never_paired():
    a, b, c = Wait(1, 1500, T), Wait(2, 1500, T), Wait(3, 1700, T)
    blocked = lambda x, y: {x, y} == {1, 2}  # noqa: E731
    assert pairs([a, b, c], T, blocked) == []
    assert pairs([a, b, c], T + 10, blocked) == [(a, c)]


def test_the_computer_is_offered_after_30_s_at_the_nearest_level():
    assert not computer_due(Wait(1, 1500, T), T + COMPUTER_AFTER - 0.1)
    assert computer_due(Wait(1, 1500, T), T + COMPUTER_AFTER)
    figures = {1: 800.0, 2: 1100.0, 3: 1400.0, 4: 1650.0, 5: 1800.0, 6: 1950.0}
    assert nearest_level(1500, figures) == 3 and nearest_level(1530, figures) == 4
    assert nearest_level(3000, figures) == 6 and nearest_level(0, figures) == 1
    assert nearest_level(1500, {}) == 3  # no figure yet: a middle strength


def test_a_rating_range_may_be_open_at_either_end():
    assert in_range(1500, None, None) and in_range(1500, 1400, 1600) and in_range(1500, None, 1500)
    assert not in_range(1500, 1501, None) and not in_range(1500, None, 1499)
