"""The spine itself: options, registry, records, perft, the generic CLI, on a toy game."""

import json

import pytest

import abstracta
from abstracta import IllegalActionError, OptionError, Record, RecordError, UnknownGameError, perft
from abstracta.core.options import parse_option_pairs
from abstracta.core.registry import register_game

register_game("toy-nim", "toy_nim:NimGame")


def test_load_game_and_options():
    game = abstracta.load_game("toy-nim", stones="5")
    assert game.options == {"stones": 5}
    assert abstracta.load_game("toy-nim").options == {"stones": 7}


def test_unknown_option_names_known_ones():
    with pytest.raises(OptionError, match=r"unknown option 'size' \(options: stones\)"):
        abstracta.load_game("toy-nim", size="dimy")


def test_bad_option_value_names_option():
    with pytest.raises(OptionError, match="option stones: expected a decimal integer, got 'x'"):
        abstracta.load_game("toy-nim", stones="x")
    with pytest.raises(OptionError, match="option stones: must be at least 1"):
        abstracta.load_game("toy-nim", stones=0)


def test_unknown_game():
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        abstracta.load_game("chess")


def test_option_pairs():
    assert parse_option_pairs(["a=1", " b = x "]) == {"a": "1", "b": "x"}
    with pytest.raises(OptionError, match="KEY=VALUE"):
        parse_option_pairs(["novalue"])


def test_perft_counts_sequences():
    game = abstracta.load_game("toy-nim", stones=4)
    state = game.new_initial_state()
    # sequences of length d from 4 stones (terminal before d contributes nothing)
    assert [perft(state, d) for d in range(0, 5)] == [1, 3, 6, 4, 1]
    assert state.to_text() == "4 0"


def test_illegal_action_leaves_state():
    state = abstracta.load_game("toy-nim", stones=2).new_initial_state()
    with pytest.raises(IllegalActionError):
        state.apply_action(2)
    with pytest.raises(IllegalActionError):
        state.apply_action("1")
    assert state.to_text() == "2 0"


def _record(moves, **extra):
    data = {"format": "abstracta-record", "version": 1, "game": "toy-nim", "options": {"stones": 5},
            "seed": None, "moves": moves}
    data.update(extra)
    return json.dumps(data)


def test_record_round_trip():
    game = abstracta.load_game("toy-nim", stones=5)
    initial = game.new_initial_state()
    record = Record.from_play(game, initial, [2, 0, 0], players=["human", "random"])
    assert record.moves == ["3", "1", "1"]
    assert record.result == [1.0, -1.0] and record.termination == "normal"
    final, actions = Record.from_json(record.to_json()).replay()
    assert final.is_terminal() and actions == [2, 0, 0]


@pytest.mark.parametrize("text, ply, fragment", [
    (_record(["3", "3"]), 2, "not legal with 2 stones left"),
    (_record(["x"]), 1, "'x' is not 1, 2 or 3"),
    (_record(["3", "1", "1", "1"]), 4, "already over"),
    (_record([1]), 1, "not a string"),
])
def test_bad_records_name_ply_and_reason(text, ply, fragment):
    with pytest.raises(RecordError) as info:
        Record.from_json(text).replay()
    assert info.value.ply == ply
    assert fragment in str(info.value)
    assert str(info.value).startswith(f"ply {ply}")


@pytest.mark.parametrize("text, fragment", [
    ("{not json", "not valid JSON"),
    ("[]", "a record is a JSON object"),
    (_record(["1"], game="nope"), "unknown game 'nope'"),
    (_record(["1"], options={"stones": "many"}), "option stones"),
    (_record(["3", "1", "1"], result=[-1, 1]), "disagrees"),
    (_record(["1"], result=[1, -1]), "not over"),
    (_record(["1"], termination="timeout"), "termination"),
    (_record(["1"], seed=-3), "seed"),
])
def test_corrupt_records_refused(text, fragment):
    with pytest.raises(RecordError, match=fragment):
        Record.from_json(text).replay()


def test_resignation_record_keeps_result():
    state, _ = Record.from_json(_record(["1"], result=[-1, 1], termination="resignation")).replay()
    assert not state.is_terminal()
