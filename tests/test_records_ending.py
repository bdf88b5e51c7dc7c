"""The record's Resigned and OutOfTime tags: written, read back, and inferred for older records."""

from __future__ import annotations

import pytest

from abstracta import Record
from abstracta.core.errors import RecordError
from abstracta.core.records import OUT_OF_TIME_TAG, RESIGNED_TAG, out_of_time_seats, resigned_seat, tag_seats

#: three players, Blue (1) resigned and Red (2) won; Green (0) lost earlier (on time: the position
#: does not show it, so only the tag tells who resigned)
THREE = dict(game="slide-checkers", options={"players": 3}, start="Gc3,Bb2,Bk11,Rl12,Rk12 M B",
             players=["level:1", "human", "human"], result=[-1.0, -1.0, 1.0], termination="resignation")


def test_the_tags_survive_a_round_trip_and_name_the_seats():
    record = Record(**THREE, tags={RESIGNED_TAG: "1", OUT_OF_TIME_TAG: "0"})
    again = Record.from_json(record.to_json())
    assert again.tags == {"Resigned": "1", "OutOfTime": "0"} and again.to_dict() == record.to_dict()
    again.replay()
    assert resigned_seat(again.tags, again.result, again.termination) == 1
    assert out_of_time_seats(again.tags, 3, again.result, again.termination) == [0]


def test_an_old_record_without_the_tags_loads_and_says_what_it_can():
    old = Record.from_json(Record(**THREE).to_json())
    old.replay()
    assert old.tags == {}
    # two losers and nothing out by the rules: which one resigned is not told
    assert resigned_seat(old.tags, old.result, old.termination) is None
    # a seat the rules put out is not the resigner
    assert resigned_seat(old.tags, old.result, old.termination, out=[0]) == 1
    assert resigned_seat({}, [-1.0, 1.0], "resignation") == 0
    assert resigned_seat({}, [1.0, -1.0], "time") is None
    assert out_of_time_seats({}, 2, [1.0, -1.0], "time") == [1]
    assert out_of_time_seats({}, 2, [0.0, 0.0], "time") == []
    assert out_of_time_seats({}, 2, [-1.0, 1.0], "resignation") == []


def test_an_unreadable_tag_is_no_answer():
    assert [tag_seats(t, 3) for t in ("1", "0,2", "", "3", "1,1", "²", "Blue", "-1")] == \
        [[1], [0, 2], None, None, None, None, None, None]
    # it names a winner: not the resigner; the losers are asked instead
    assert resigned_seat({RESIGNED_TAG: "2"}, [-1.0, -1.0, 1.0], "resignation", out=[0]) == 1


def test_a_draw_by_agreement_is_kept_with_who_offered_it():
    from abstracta.core.game import agreed_draw_returns, draw_seats
    from abstracta.core.records import DRAW_OFFERED_TAG

    # Slide Checkers §5: in a draw the survivors score 0 and the seats already out -1
    assert agreed_draw_returns(2) == [0.0, 0.0]
    assert agreed_draw_returns(4, out=[1, 3]) == [0.0, -1.0, 0.0, -1.0]
    assert draw_seats(2) == [0, 1] and draw_seats(4, out=[1, 3]) == [0, 2]  # who must agree it
    record = Record(game="slide-checkers", options={"players": 3}, start="Ga1,Bl12 M G",
                    players=["human", "human", "human"], result=[0.0, 0.0, -1.0], termination="agreement",
                    tags={DRAW_OFFERED_TAG: "1"})
    again = Record.from_json(record.to_json())
    assert again.termination == "agreement" and again.tags == {"DrawOffered": "1"}
    again.replay()  # the rules did not end it, and the record says who did
    unended = Record(game="slide-checkers", options={"players": 3}, start="Ga1,Bl12 M G",
                     result=[0.0, 0.0, -1.0], termination="normal")
    with pytest.raises(RecordError, match="not over"):
        unended.replay()


def _agreed(start, result, tags, termination="agreement", moves=()):
    return Record(game="slide-checkers", options={"players": 3}, start=start, players=["human"] * 3,
                  moves=list(moves), result=result, termination=termination, tags=tags)


@pytest.mark.parametrize("start, result, tags, match", [
    # a hand-edited result: replay said "drawn by agreement; Green (seat 0) wins"
    ("Ga1,Bl12,Rf6 M G", [1.0, -1.0, -1.0], {"DrawOffered": "0"}, r"\[0.0, 0.0, 0.0\]"),
    # Red is out of pieces: it keeps its loss whatever the others agree
    ("Ga1,Bl12 M G", [0.0, 0.0, 0.0], {"DrawOffered": "0"}, r"\[0.0, 0.0, -1.0\]"),
    # Blue out of time, Red out of pieces: Green was left alone and won, nobody agreed anything
    ("Ga1,Bl12 M G", [0.0, -1.0, -1.0], {"DrawOffered": "0", "OutOfTime": "1"}, "only seat 0 is still in"),
    # the tag must name the one seat, still in, that offered it
    ("Ga1,Bl12 M G", [0.0, 0.0, -1.0], {"DrawOffered": "2"}, "DrawOffered"),
    ("Ga1,Bl12 M G", [0.0, 0.0, -1.0], {"DrawOffered": "0,1"}, "DrawOffered"),
    ("Ga1,Bl12 M G", [0.0, 0.0, -1.0], {}, "DrawOffered"),
    ("Ga1,Bl12 M G", None, {"DrawOffered": "0"}, "result"),
])
def test_an_agreed_draw_that_could_not_have_been_agreed_does_not_replay(start, result, tags, match):
    with pytest.raises(RecordError, match=match):
        _agreed(start, result, tags).replay()


def test_an_agreed_draw_keeps_the_rules_and_the_tag_keeps_its_termination():
    # a game the rules ended was not drawn by agreement, even with the rules' own result
    over = Record(game="slide-checkers", options={"players": 2}, start="Ga1 M G", players=["human"] * 2,
                  result=[1.0, -1.0], termination="agreement", tags={"DrawOffered": "0"})
    assert over.make_game().num_players == 2 and over.initial_state().is_terminal()
    with pytest.raises(RecordError, match="ended by the rules"):
        over.replay()
    # a DrawOffered tag on a game that ended otherwise tells a story the record does not
    with pytest.raises(RecordError, match="DrawOffered"):
        _agreed("Ga1,Bl12,Rf6 M G", [-1.0, 0.0, 0.0], {"DrawOffered": "0", "Resigned": "0"},
                termination="resignation").replay()
    # one seat out of time, two still in: that draw stands
    _agreed("Ga1,Bl12,Rf6 M G", [0.0, 0.0, -1.0], {"OutOfTime": "2", "DrawOffered": "1"}).replay()
