"""The Python API under hostile input (README "From Python"): every refusal is a domain error
(``AbstractaError``, a ``ValueError``) naming the problem, and nothing changes."""

from __future__ import annotations

import json
import random

import pytest

import abstracta
from abstracta import IllegalActionError, OptionError, Record, RecordError, UnknownGameError

BUILT_IN = [name for name in abstracta.registered_games() if name != "toy-nim"]


@pytest.mark.parametrize("name", BUILT_IN)
def test_undo_past_the_start_is_an_illegal_action_error(name):
    game = abstracta.load_game(name)
    state = game.new_initial_state(seed=1) if game.description.chance else game.new_initial_state()
    start = state.to_text()
    with pytest.raises(IllegalActionError, match="undo"):
        state.undo_action()
    assert state.to_text() == start and state.history() == []
    state.apply_action(state.legal_actions()[0])
    state.undo_action()
    with pytest.raises(IllegalActionError, match="undo"):
        state.undo_action()
    assert state.to_text() == start
    pasted = game.state_from_text(start)  # a position read from text has no actions to take back
    with pytest.raises(IllegalActionError, match="undo"):
        pasted.undo_action()
    assert pasted.to_text() == start


RECORD = {"format": "abstracta-record", "version": 1, "game": "fanorona", "options": {"size": "telo"},
          "seed": None, "start": None, "players": [], "tags": {}, "moves": ["a1-b2A"], "result": None,
          "termination": None}


def test_hostile_record_texts_are_record_errors():
    good = json.dumps(RECORD)
    assert Record.from_json(good).replay()[0].history() == [22]  # a1-b2A
    huge = "9" * 5000  # past Python's int conversion limit: json.loads raises a plain ValueError
    for text in (good.replace('"seed": null', f'"seed": {huge}'),
                 good.replace('"result": null', f'"result": [{huge}, 1]'),
                 good.replace('"moves": ["a1-b2A"]', f'"moves": [{huge}]')):
        with pytest.raises(RecordError, match="not valid JSON"):
            Record.from_json(text)
    with pytest.raises(RecordError, match="field 'options'"):
        Record.from_dict({**RECORD, "options": {1: "telo"}})  # from Python: keys that are not names


def test_unreadable_record_paths_are_record_errors(tmp_path):
    for path in ("bad\x00name.json", tmp_path, tmp_path / "missing.json"):
        with pytest.raises(RecordError, match="cannot read"):
            Record.load(path)


def test_options_of_the_wrong_kind_are_option_errors():
    np = pytest.importorskip("numpy")
    for name, key, bad in (("nibble", "first_player", True), ("fibonacci-cards", "first_player", False),
                           ("slide-checkers", "players", True), ("slide-checkers", "board", np.int64(3)),
                           ("slide-checkers", "board", np.array([5, 1])), ("fanorona", "size", ["telo"])):
        with pytest.raises(OptionError, match=f"option {key}"):
            abstracta.load_game(name, **{key: bad})
    assert abstracta.load_game("nibble", first_player=1).options["first_player"] == 1
    for bad in (["fanorona"], {"fanorona": 1}, None, 5):
        with pytest.raises(UnknownGameError, match="unknown game"):
            abstracta.load_game(bad)


@pytest.mark.parametrize("name, options", [(name, {}) for name in BUILT_IN] + [("fibonacci", {"variant": "cards"})])
def test_a_player_that_is_not_a_seat_is_refused_by_every_view(name, options):
    np = pytest.importorskip("numpy")
    game = abstracta.load_game(name, **options)
    state = game.new_initial_state(seed=1) if game.description.chance else game.new_initial_state()
    # perfect information too: observation(5) and information_state_string(-1) answered with the
    # position, resample_from_infostate(5, rng) with a clone, where the tensors refused
    views = ["observation_tensor", "information_state_tensor", "to_struct", "observation", "information_state_string"]
    for view in views:
        for bad in (True, False, 1.0, 0.0, "0", -1, game.num_players):
            with pytest.raises(ValueError, match="not a seat"):
                getattr(state, view)(bad)
        numpy_seat, int_seat = getattr(state, view)(np.int64(1)), getattr(state, view)(1)
        if isinstance(int_seat, np.ndarray):  # the tensors: float32 arrays
            assert np.array_equal(numpy_seat, int_seat)
        else:
            assert numpy_seat == int_seat
    for bad in (True, 1.0, -1, game.num_players):
        with pytest.raises(ValueError, match="not a seat"):
            state.resample_from_infostate(bad, random.Random(0))
    assert state.resample_from_infostate(np.int64(1), random.Random(0)).observation(1) == state.observation(1)
