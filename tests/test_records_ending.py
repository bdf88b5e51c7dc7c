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


#: three players, everyone with pieces; Green to move
ALL_IN = "Ga1,Gb2,Bk11,Bl12,Rf6 M G"
#: three players, Red (2) put out by the rules (no pieces); Green to move
RED_OUT = "Ga1,Gb2,Bk11,Bl12 M G"


def _ended(start, result, termination, tags, players=3, moves=()):
    return Record(game="slide-checkers", options={"players": players}, start=start, players=["human"] * players,
                  moves=list(moves), result=result, termination=termination, tags=tags)


@pytest.mark.parametrize("record, match", [
    # the rules had ended it (White won): nobody resigned afterwards, whichever result it claims
    (_ended("Ga1 M G", [1.0, -1.0], "resignation", {"Resigned": "1"}, players=2), "ended by the rules"),
    (_ended("Ga1 M G", [-1.0, 1.0], "resignation", {"Resigned": "0"}, players=2), "ended by the rules"),
    # Blue resigned with Green and Red still in: they draw; replay showed "Red (seat 2) wins"
    (_ended(ALL_IN, [-1.0, -1.0, 1.0], "resignation", {"Resigned": "1"}), r"\[0.0, -1.0, 0.0\]"),
    (_ended("Ga1,Bl12 M G", [1.0, -1.0], "resignation", {"Resigned": "0"}, players=2), "Resigned"),
    # Red was out by the rules: it had lost already, its 'resignation' did not end the game
    (_ended(RED_OUT, [0.0, 0.0, -1.0], "resignation", {"Resigned": "2"}), "already out"),
    # Blue was out of time: its moves were the computer's, which does not resign
    (_ended(ALL_IN, [0.0, -1.0, 0.0], "resignation", {"Resigned": "1", "OutOfTime": "1"}), "already out"),
    # a resignation without a loser (no tag, an older record's form): nobody resigned
    (_ended(ALL_IN, [0.0, 0.0, 0.0], "resignation", {}), "the loser at -1"),
    (_ended(ALL_IN, [-1.0, 1.0, 0.0], "resignation", {}), "resign"),
    (_ended(ALL_IN, None, "resignation", {}), "result"),
])
def test_a_resignation_that_could_not_have_happened_does_not_replay(record, match):
    with pytest.raises(RecordError, match=match):
        record.replay()


@pytest.mark.parametrize("record, match", [
    # the rules had ended it: nobody's time ran out afterwards
    (_ended("Ga1 M G", [-1.0, 1.0], "time", {"OutOfTime": "0"}, players=2), "use 'normal'"),
    (_ended("Ga1 M G", [1.0, -1.0], "time", {"OutOfTime": "1"}, players=2), "use 'normal'"),
    # three players: the rules drew it after Green's flag, Green keeps its loss
    (_ended("Bb2,Gl12,Rf6 M G nj=99", [0.0, 0.0, 0.0], "time", {"OutOfTime": "0"}, moves=["l12-k12"]),
     r"\[-1.0, 0.0, 0.0\]"),
    # Red was out by the rules before any flag: a flag 'naming' it put nobody out, two seats are still in
    (_ended(RED_OUT, [1.0, -1.0, -1.0], "time", {"OutOfTime": "2"}), "already out by the rules"),
    # one flag of three players: the game goes on (README "Clocks"), it did not end on time
    (_ended(ALL_IN, [-1.0, 0.0, 0.0], "time", {"OutOfTime": "0"}), "still in"),
    # the result does not follow from who ran out of time
    (_ended(ALL_IN, [-1.0, 1.0, -1.0], "time", {"OutOfTime": "0,1"}), r"\[-1.0, -1.0, 1.0\]"),
    (_ended(ALL_IN, [0.0, -1.0, -1.0], "time", {"OutOfTime": "1,2"}), r"\[1.0, -1.0, -1.0\]"),
    (_ended("Ga1,Bl12 M G", [1.0, -1.0], "time", {"OutOfTime": "0"}, players=2), r"\[-1.0, 1.0\]"),
    (_ended("Ga1,Bl12 M G", [-1.0, 0.0], "time", {"OutOfTime": "0"}, players=2), r"\[-1.0, 1.0\]"),
    # a draw on time without the tag: nothing says whose time ran out
    (_ended("Ga1,Bl12 M G", [0.0, 0.0], "time", {}, players=2), "the loser at -1"),
    (_ended("Ga1,Bl12 M G", None, "time", {"OutOfTime": "0"}, players=2), "result"),
])
def test_a_loss_on_time_that_could_not_have_happened_does_not_replay(record, match):
    with pytest.raises(RecordError, match=match):
        record.replay()


@pytest.mark.parametrize("record, match", [
    # a Resigned tag without its termination
    (_ended(ALL_IN, [-1.0, -1.0, 1.0], "time", {"OutOfTime": "0,1", "Resigned": "1"}), "did not end by resignation"),
    (_ended(ALL_IN, None, None, {"Resigned": "0"}), "did not end by resignation"),
    (_ended(ALL_IN, None, "abandoned", {"Resigned": "0"}), "did not end by resignation"),
    # an OutOfTime tag on a game that goes on, which its flag had ended
    (_ended("Ga1,Bl12 M G", None, None, {"OutOfTime": "1"}, players=2), "a two-player game lost on time is over"),
    (_ended(ALL_IN, None, "abandoned", {"OutOfTime": "0,1"}), "only seat 2 is still in"),
    (_ended(RED_OUT, None, None, {"OutOfTime": "1"}), "only seat 0 is still in"),
    (_ended(ALL_IN, None, None, {"OutOfTime": "x"}), "seats that ran out of time"),
    # a seat out of time lost, however the game ended afterwards
    (_ended("Bb2,Gl12,Rf6 M G nj=99", [0.0, 0.0, 0.0], "normal", {"OutOfTime": "0"}, moves=["l12-k12"]),
     "none of them a winner"),
])
def test_an_ending_tag_needs_its_ending(record, match):
    with pytest.raises(RecordError, match=match):
        record.replay()


@pytest.mark.parametrize("record", [
    # as the server writes them: a resignation after a seat put out by the rules, or out of time
    _ended(RED_OUT, [-1.0, 1.0, -1.0], "resignation", {"Resigned": "0"}),
    _ended(ALL_IN, [1.0, -1.0, -1.0], "resignation", {"Resigned": "1", "OutOfTime": "2"}),
    _ended(ALL_IN, [0.0, -1.0, 0.0], "resignation", {"Resigned": "1"}),
    _ended("Ga1,Bl12 M G", [-1.0, 1.0], "resignation", {"Resigned": "0"}, players=2),
    # an older record without the tag; its result may count seats out on time the record does not name
    _ended(ALL_IN, [-1.0, -1.0, 1.0], "resignation", {}),
    # a flag: two players (a loss, or a draw where the other could not win), three (the last seat in wins)
    _ended("Ga1,Bl12 M G", [-1.0, 1.0], "time", {"OutOfTime": "0"}, players=2),
    _ended("Ga1,Bl12 M G", [0.0, 0.0], "time", {"OutOfTime": "0"}, players=2),
    _ended("Ga1,Bl12 M G", [1.0, -1.0], "time", {}, players=2),
    _ended(ALL_IN, [1.0, -1.0, -1.0], "time", {"OutOfTime": "1,2"}),
    _ended(RED_OUT, [-1.0, 1.0, -1.0], "time", {"OutOfTime": "0"}),
    _ended("Bb2,Gl12,Rf6 M G nj=99", [-1.0, 0.0, 0.0], "time", {"OutOfTime": "0"}, moves=["l12-k12"]),
    # a game going on after a flag, and one the rules ended after it, Green (out of time) last of all
    _ended(ALL_IN, None, None, {"OutOfTime": "0"}),
    _ended("Gc3,Bb2,Bk11 M B", [-1.0, 1.0, -1.0], "normal", {"OutOfTime": "0"}, moves=["b2*d4r"]),
])
def test_the_endings_the_project_writes_replay(record):
    again = Record.from_json(record.to_json())
    again.replay()
