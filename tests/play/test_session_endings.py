"""How a play session ends besides the rules, and the record it writes: resignation (the seat
that resigns, never one out already), hints counted, the record's tags."""

from __future__ import annotations

import pytest
from sessions import T0, nim, played, session_of

from abstracta.play import GameEnded, HintCounted, Invalid, NotNow


def test_a_resignation_names_its_seat_and_the_others_win():
    progress = played(nim(), "1").resign(1, T0)
    after = progress.after
    assert progress.events == (GameEnded(result=(1.0, -1.0), termination="resignation"),)
    assert (after.result, after.tags["Resigned"], after.resigned) == ([1.0, -1.0], "1", 1)
    with pytest.raises(NotNow, match="the game is over"):
        after.resign(0, T0)


def test_which_seat_resigns():
    session = nim()
    assert session.resigner({0, 1}, None) == 0  # the held seat to move
    assert session.resigner({1}, None) == 1  # the one held
    with pytest.raises(Invalid, match="which seat resigns"):
        played(nim(players=("human", "human", )), "1").resigner(set(), None)
    with pytest.raises(Invalid, match="seat 5 does not exist"):
        session.resigner({0}, 5)
    with pytest.raises(NotNow, match="seat 1 is played by the computer and cannot resign"):
        nim(players=("human", "level:1")).resign(1, T0)


def test_three_players_a_seat_out_cannot_resign_and_the_rest_draw_or_win():
    session = session_of("slide-checkers", ["human"] * 3, "Ga1,Bl12 M G", {"players": 3})
    with pytest.raises(NotNow) as refused:
        session.resign(2, T0)
    assert refused.value.i18n == {"key": "error.resign_out", "params": {}}
    after = session.resign(0, T0).after
    assert after.result == [-1.0, 1.0, -1.0] and after.resigned == 0
    after.record().replay()


def test_a_hint_is_counted_in_the_record_when_given_and_only_for_the_position_asked():
    session = nim(players=("human", "level:1"))
    assert session.count_hint(0, [], False) is None  # no turn named: no hint given
    progress = session.count_hint(0, [], True)
    assert progress.events == (HintCounted(seat=0, counts=(1, 0)),)
    counted = progress.after
    assert counted.tags["Hints"] == "1,0" and counted.hint_counts() == [1, 0]
    assert counted.record().tags["Hints"] == "1,0"
    moved = counted.play({0}, ["1"], 0, T0).after
    with pytest.raises(NotNow) as refused:
        moved.count_hint(0, [], True)  # the hint was searched for a position that is gone
    assert refused.value.extra == {"ply": 1}
    assert refused.value.i18n == {"key": "error.hint_stale", "params": {"ply": 1}}


def test_hints_and_analysis_are_for_games_against_the_computer():
    nim(players=("human", "level:1")).check_assistance({0})
    with pytest.raises(NotNow, match="hints are for games against the computer"):
        nim().check_assistance({0, 1})
    with pytest.raises(NotNow):
        session_of("slide-checkers", ["human", "human", "level:1"], options={"players": 3}).check_assistance({0})


def test_the_record_of_a_session_not_over_says_how_it_stopped():
    session = played(nim(), "1")
    record = session.record("abandoned")
    assert (record.termination, record.result, record.moves) == ("abandoned", None, ["1"])
    assert session.record().termination is None
    over = played(nim(1), "1")
    assert over.record("abandoned").termination == "normal"  # over is over
