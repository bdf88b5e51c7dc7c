"""The clock of a play session (README "Clocks"): fed the time, never reading it. It waits for
every person seat (and for each seat's first move: test_session_opening.py; these sessions have
made theirs, ``started``), runs for the person to move only, adds the increment after a turn; a fallen
flag loses a two-player game (a draw where the other could not still win) and puts a seat of
a 3–4 player game out, its moves the computer's since."""

from __future__ import annotations

import pytest
from sessions import T0, nim, played, session_of

from abstracta.play import GameEnded, Live, NotNow, RequestEnded, SeatOut, SeatTaken

LIVE = {"initial": 300.0, "increment": 3.0}


def clocked(players=("human", "human"), seated=None, clock=LIVE, **fields):
    session = nim(20, players=players, live=Live.with_clock(clock, 2, started=True), seated=seated, **fields)
    session.start_clock(T0)  # as a new match starts it
    return session


def test_the_clock_waits_for_the_invited_seat_and_runs_for_the_person_to_move():
    session = clocked(seated={0})
    assert session.live.running is None  # the friend is not there yet
    progress = session.take_seat(1, T0 + 5)
    assert progress.events == (SeatTaken(1),)
    session = progress.after
    assert (session.live.running, session.live.since) == (0, T0 + 5)
    session = session.play({0}, ["1"], 0, T0 + 15).after
    assert session.live.remaining == [300.0 - 10 + 3, 300.0] and session.live.running == 1
    assert session.live.left(1, T0 + 20) == 295.0


def test_no_clock_runs_for_the_computer():
    session = clocked(players=("level:1", "human"))
    assert session.live.running is None
    session = session.play_computer(0, T0).after
    assert session.live.running == 1


def test_a_flag_is_fed_the_time_and_falls_only_when_it_is_up():
    session = clocked()
    assert session.flag(T0 + 299) is None
    progress = session.flag(T0 + 300)
    after = progress.after
    assert (after.result, after.termination, after.tags["OutOfTime"]) == ([-1.0, 1.0], "time", "0")
    assert after.live.remaining[0] == 0.0 and after.live.running is None
    assert progress.events == (GameEnded(result=(-1.0, 1.0), termination="time"),)
    assert after.out_of_time == [0]


def test_a_flag_is_a_draw_where_the_other_could_not_still_win(monkeypatch):
    session = clocked()
    monkeypatch.setattr(type(session.state), "could_still_win", lambda self, player: False)
    after = session.flag(T0 + 301).after
    assert (after.result, after.termination, after.tags["OutOfTime"]) == ([0.0, 0.0], "time", "0")


def test_a_claim_says_why_no_flag_fell():
    with pytest.raises(NotNow, match="this match has no clock"):
        nim().claim_flag(T0)
    with pytest.raises(NotNow, match="no clock is running"):
        clocked(seated={0}).claim_flag(T0)
    with pytest.raises(NotNow, match="seat 0 has 100.0 s left"):
        clocked().claim_flag(T0 + 200)
    fallen = clocked().claim_flag(T0 + 300)
    assert fallen.after.termination == "time"
    assert fallen.after.claim_flag(T0 + 400) is None  # lost on time already: nothing to claim


def test_a_deadline_per_turn():
    session = clocked(clock={"per_turn": 60.0})
    assert session.live.left(0, T0 + 59) == 1.0 and session.flag(T0 + 59) is None
    session = session.play({0}, ["1"], 0, T0 + 59).after
    assert session.live.left(1, T0 + 100) == 19.0 and session.live.left(0, T0 + 100) == 60.0
    assert session.flag(T0 + 119).after.result == [1.0, -1.0]


def three_on_a_clock(start="Ga1,Bl12,Rf6 M G"):
    session = session_of("slide-checkers", ["human"] * 3, start, {"players": 3},
                         live=Live.with_clock({"initial": 60.0}, 3, started=True))
    session.start_clock(T0)
    return session


def test_three_players_the_flagged_seat_is_out_and_the_game_goes_on():
    progress = three_on_a_clock().flag(T0 + 60)
    after = progress.after
    assert progress.events == (SeatOut(0),) and not after.over
    assert after.players == ["level:1", "human", "human"] and after.live.out == [0] and after.tags["OutOfTime"] == "0"
    assert after.persons == [1, 2] and after.live.running is None  # Green is the computer's now: no clock
    # the last seat neither out on time nor put out by the rules wins
    after = after.play_computer(after.state.legal_actions()[0], T0 + 61).after
    assert after.live.running == 1
    end = after.flag(T0 + 121)
    assert end.after.result == [-1.0, -1.0, 1.0] and end.after.termination == "time"
    assert end.after.tags["OutOfTime"] == "0,1" and end.after.out_of_time == [0, 1]


@pytest.mark.parametrize("mover", ["computer", "person"])
def test_a_move_that_leaves_one_seat_in_after_a_flag_ends_the_game(mover):
    # Red (2) has one piece, on c3, which Blue's b2*d4r takes. Blue's flag falls first (the
    # computer then moves for Blue) or Green's (Blue moves itself): Red's last piece gone, one
    # seat is left neither out of time nor without pieces, and it wins at once
    session = three_on_a_clock("Rc3,Bb2,Bk11,Gl12,Gk12 M B" if mover == "computer" else "Rc3,Bb2,Bk11,Gl12,Gk12 M G")
    flagged, left = (1, 0) if mover == "computer" else (0, 1)
    assert session.live.running == flagged
    session = session.flag(T0 + 60).after
    assert session.live.out == [flagged] and not session.over
    if mover == "person":
        session = session.play_computer(session.state.legal_actions()[0], T0 + 61).after  # the computer for Green
        assert session.to_move() == 1
        progress = session.play({1}, ["b2*d4r"], session.ply, T0 + 62)
    else:
        progress = session.play_computer(session.state.string_to_action("b2*d4r"), T0 + 61)
    after = progress.after
    assert after.result == [1.0 if i == left else -1.0 for i in range(3)] and after.termination == "time"
    assert progress.events[-1] == GameEnded(result=tuple(after.result), termination="time")


def test_a_flag_voids_a_pending_request():
    session = three_on_a_clock()
    offered = session.offer_draw({0}, T0 + 1).after
    progress = offered.flag(T0 + 60)
    assert progress.after.live.draw is None
    ended = [e for e in progress.events if isinstance(e, RequestEnded)]
    assert [(e.kind, e.how) for e in ended] == [("draw", "void")]
    assert played(nim(), "1").live.clock is None
