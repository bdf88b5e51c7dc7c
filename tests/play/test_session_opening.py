"""The start of a game (issue 42 §4): the clock starts once every seat is taken and each side has
made its first move; a seat of a game between people at a distance has 30 s (a day in
correspondence) for its first move, else the game is aborted; either side may abort before its
own first move. An aborted game has no result and announces no GameEnded (never rated)."""

from __future__ import annotations

import pytest
from sessions import T0, nim, played

from abstracta.core.records import Record
from abstracta.play import GameAborted, GameEnded, Live, NotNow, NotYours, RequestEnded
from abstracta.play.opening import (CORRESPONDENCE_SECONDS, FIRST_MOVE_SECONDS, correspondence, first_move_seconds,
                                    gone_seconds, next_due, start_deadline)

LIVE = {"initial": 300.0, "increment": 3.0}


def apart(clock=LIVE, players=("human", "human"), seated=None, start_within="auto"):
    """A match between two people at a distance, made at T0 (as the server makes one)."""
    within = first_move_seconds(clock) if start_within == "auto" else start_within
    session = nim(20, players=players, live=Live.with_clock(clock, 2, start_within=within), seated=seated)
    session.start_clock(T0)
    return session


def test_the_clock_starts_after_each_side_has_made_its_first_move():
    session = apart()
    assert session.live.running is None and session.unmoved == [0, 1]
    session = session.play({0}, ["1"], 0, T0 + 20).after
    assert session.live.running is None and session.unmoved == [1]
    assert session.live.remaining == [300.0, 300.0]  # a first move costs no time, and earns no increment
    session = session.play({1}, ["1"], 1, T0 + 45).after
    assert session.unmoved == [] and (session.live.running, session.live.since) == (0, T0 + 45)
    session = session.play({0}, ["1"], 2, T0 + 55).after
    assert session.live.remaining == [300.0 - 10 + 3, 300.0] and session.live.running == 1


def test_the_clock_waits_for_the_computers_first_move_too():
    session = apart(players=("human", "level:1"), start_within=None)
    session = session.play({0}, ["1"], 0, T0).after
    assert session.live.running is None
    session = session.play_computer(0, T0 + 1).after
    assert session.live.running == 0 and session.live.since == T0 + 1


def test_each_first_move_has_its_deadline_counted_from_its_wait():
    session = apart()
    assert start_deadline(session) == {"seat": 0, "at": T0 + FIRST_MOVE_SECONDS}
    assert session.due(T0 + 29.9) is None
    session = session.play({0}, ["1"], 0, T0 + 29).after
    assert start_deadline(session) == {"seat": 1, "at": T0 + 29 + FIRST_MOVE_SECONDS}
    assert next_due(session, T0 + 40) == pytest.approx(19.0)
    progress = session.due(T0 + 59)
    after = progress.after
    assert progress.events == (GameAborted(1, "no_start"),)
    assert not progress.has(GameEnded)
    assert after.over and after.aborted and after.result is None and after.termination == "aborted"
    assert after.tags["NoStart"] == "1" and start_deadline(after) is None and next_due(after, T0 + 60) is None


def test_the_deadline_waits_for_every_seat_to_be_taken():
    session = apart(seated={0})
    assert start_deadline(session) is None and session.due(T0 + 3600) is None
    session = session.take_seat(1, T0 + 100).after
    assert start_deadline(session) == {"seat": 0, "at": T0 + 130}
    assert session.live.turn_since == T0 + 100


def test_no_deadline_without_people_at_a_distance():
    session = apart(start_within=None)
    assert start_deadline(session) is None and session.due(T0 + 10 ** 6) is None


def test_correspondence_waits_a_day():
    for clock in (None, {"per_turn": 86400.0}, {"per_turn": 3 * 86400.0}):
        assert correspondence(clock) and first_move_seconds(clock) == gone_seconds(clock) == CORRESPONDENCE_SECONDS
    for clock in ({"per_turn": 3600.0}, LIVE):
        assert not correspondence(clock) and (first_move_seconds(clock), gone_seconds(clock)) == (30.0, 60.0)
    session = apart(clock={"per_turn": 86400.0})
    assert session.due(T0 + 86399) is None
    assert session.due(T0 + 86400).after.aborted


def test_either_side_may_abort_before_its_own_first_move():
    session = apart()
    progress = session.abort({1}, T0 + 5)  # the second player, before anyone moved
    assert progress.events == (GameAborted(1, "abort"),) and progress.after.tags["Aborted"] == "1"
    moved = played(apart(), "1")
    assert moved.abort({1}, T0 + 6).after.aborted  # seat 1 has not moved yet
    with pytest.raises(NotNow, match="first move"):
        moved.abort({0}, T0 + 6)  # seat 0 has
    both = played(moved, "1")
    for seat in (0, 1):
        with pytest.raises(NotNow):
            both.abort({seat}, T0 + 7)


def test_abort_is_a_person_seats_and_not_of_a_game_over():
    session = apart(players=("human", "level:1"), start_within=None)
    with pytest.raises(NotYours):
        session.abort({1}, T0)  # the computer's seat
    over = session.abort({0}, T0).after
    with pytest.raises(NotNow, match="over"):
        over.abort({0}, T0)
    with pytest.raises(NotNow, match="over"):
        over.play({0}, ["1"], 0, T0)


def test_an_abort_ends_a_pending_draw_offer_as_void():
    session = apart(start_within=None)
    session = played(session, "1")
    session = session.offer_draw({0}, T0).after
    progress = session.abort({1}, T0 + 1)
    assert isinstance(progress.events[0], RequestEnded) and progress.events[0].how == "void"
    assert progress.after.live.draw is None


def test_an_aborted_game_records_no_result_and_replays():
    after = apart().abort({0}, T0).after
    record = after.record()
    assert (record.result, record.termination, record.tags["Aborted"]) == (None, "aborted", "0")
    again = Record.from_json(record.to_json())
    again.replay()
    bad = Record.from_dict({**record.to_dict(), "result": [0.0, 0.0]})
    with pytest.raises(Exception, match="aborted"):
        bad.replay()


def test_live_state_reads_back_with_its_new_fields_and_old_rows_without_them():
    session = played(apart(), "1", now=T0 + 3)
    live = Live.from_json(session.live.to_json())
    assert (live.start_within, live.start_since, live.turn_since) == (30.0, T0 + 3, T0 + 3)
    old = Live.from_json('{"clock": null, "remaining": null, "running": null, "since": null}')
    assert (old.start_within, old.start_since, old.turn_since, old.rematch) == (None, None, None, None)
