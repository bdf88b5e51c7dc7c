"""A gone opponent (issue 42 §5): once the player to move has been gone 60 s on their own turn
(a day in correspondence), the other may claim the game or a draw; the result says why
(termination "left", the Left tag naming the seat gone)."""

from __future__ import annotations

import pytest
from sessions import T0, nim, played, session_of

from abstracta.core.records import Record
from abstracta.play import GameEnded, Live, NotNow, NotYours
from abstracta.play.leaving import claimable_at

LIVE = {"initial": 300.0, "increment": 0.0}


def begun(clock=LIVE):
    """Both players have made their first move at T0; seat 0 is to move, its turn since T0."""
    session = nim(20, live=Live.with_clock(clock, 2))
    session.start_clock(T0)
    return played(session, "1", "1", now=T0)


def test_the_other_claims_the_game_after_60_s_gone_on_their_turn():
    session = begun()
    assert session.to_move() == 0 and session.live.turn_since == T0
    assert claimable_at(session, 0, T0 - 500) == T0 + 60  # gone before the turn began: counted from it
    assert claimable_at(session, 0, T0 + 10) == T0 + 70
    with pytest.raises(NotNow) as refused:
        session.claim_left({1}, T0 + 10, T0 + 40)
    assert refused.value.extra["at"] == T0 + 70 and refused.value.i18n["params"] == {"n": 30}
    progress = session.claim_left({1}, T0 + 10, T0 + 70)
    after = progress.after
    assert progress.events == (GameEnded((-1.0, 1.0), "left"),)
    assert (after.result, after.termination, after.tags["Left"]) == ([-1.0, 1.0], "left", "0")
    assert after.live.running is None and after.live.remaining[0] == 300.0 - 70
    record = Record.from_json(after.record().to_json())
    record.replay()  # the ending is one the records accept


def test_or_calls_it_a_draw():
    after = begun().claim_left({1}, T0, T0 + 60, draw=True).after
    assert (after.result, after.termination, after.tags["Left"]) == ([0.0, 0.0], "left", "0")


def test_not_while_the_other_is_here_nor_on_ones_own_turn():
    session = begun()
    with pytest.raises(NotNow, match="here"):
        session.claim_left({1}, None, T0 + 1000)
    with pytest.raises(NotYours):
        session.claim_left({0}, T0, T0 + 1000)  # the seat to move claims against itself
    with pytest.raises(NotYours):
        session.claim_left(set(), T0, T0 + 1000)


def test_not_before_both_first_moves_abort_instead():
    session = nim(20, live=Live.with_clock(LIVE, 2))
    session.start_clock(T0)
    session = played(session, "1")
    with pytest.raises(NotNow, match="abort"):
        session.claim_left({0}, T0, T0 + 1000)
    assert claimable_at(session, 1, T0) is None


def test_a_day_in_correspondence_and_without_a_clock():
    for clock in ({"per_turn": 2 * 86400.0}, None):
        session = begun(clock)
        with pytest.raises(NotNow):
            session.claim_left({1}, T0, T0 + 86399)
        assert session.claim_left({1}, T0, T0 + 86400).after.result == [-1.0, 1.0]


def test_only_in_a_game_of_two():
    session = session_of("slide-checkers", ["human"] * 3, "Ga1,Bl12,Rf6 M G", {"players": 3})
    with pytest.raises(NotNow, match="two players"):
        session.claim_left({1}, T0, T0 + 1000)


def test_a_record_that_says_left_must_name_the_seat_and_a_possible_result():
    after = begun().claim_left({1}, T0, T0 + 60).after
    data = after.record().to_dict()
    for bad in ({"tags": {**data["tags"], "Left": "1"}}, {"result": [1.0, -1.0]},
                {"tags": {k: v for k, v in data["tags"].items() if k != "Left"}}):
        with pytest.raises(Exception):
            Record.from_dict({**data, **bad}).replay()
