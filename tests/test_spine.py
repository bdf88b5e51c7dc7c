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
    ("[" * 100_000 + "]" * 100_000, "nested too deep"),  # json.loads raises RecursionError
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


def test_reveals_public_observation_and_could_still_win_defaults():
    """The spine's issue-13 hooks: what no undo may cross, what a spectator sees, the flag rule."""
    from abstracta.core.registry import load_game

    fanorona = load_game("fanorona").new_initial_state()
    assert not any(fanorona.reveals(a) for a in fanorona.legal_actions())  # perfect information
    assert fanorona.public_observation() == fanorona.to_text()
    assert fanorona.could_still_win(0) and fanorona.could_still_win(1)
    # Fibonacci's card variant: a move that ends a turn by turning over a pile card reveals it
    import random

    state = load_game("fibonacci", variant="cards", seed=7).new_initial_state()
    rng, flags = random.Random(2), []
    for _ in range(12):
        action = rng.choice(state.legal_actions())
        flags.append(state.reveals(action))
        state.apply_action(action)
    assert flags == [False, False, False, False, False, True, False, True, False, False, False, False]
    assert "?" in state.public_observation() and state.public_observation() == state.observation(0)
    # the card game: a draw shows the drawer a card; a spectator sees no hand
    cards = load_game("fibonacci-cards", seed=3, first_player=0).new_initial_state()
    assert cards.reveals(cards.string_to_action("draw"))
    assert cards.public_observation() == "Kh Kd Jd | ?8 | ?8 | ?33 | 0"


@pytest.mark.parametrize("name", ["fanorona", "fibonacci", "fibonacci-cards", "nibble", "slide-checkers", "toy-nim"])
def test_a_game_pickles_as_its_class_and_options(name):
    # what a worker process is handed; an instance's cached description holds evaluators and
    # closures, and Nibble's geometry a local function, none of which pickle
    import pickle

    for options in [dict(v.options) for v in abstracta.load_game(name).description.variants] or [{}]:
        game = abstracta.load_game(name, **options)
        game.description  # noqa: B018 - cached on the instance
        again = pickle.loads(pickle.dumps(game))
        assert type(again) is type(game) and again.options == game.options
        assert again.new_initial_state(3).to_text() == game.new_initial_state(3).to_text()


@pytest.mark.parametrize("name", ["fanorona", "fibonacci", "fibonacci-cards", "nibble", "slide-checkers"])
def test_a_state_pickles_mid_game(name):
    import pickle
    import random

    for options in [dict(v.options) for v in abstracta.load_game(name).description.variants]:
        state = abstracta.load_game(name, **options).new_initial_state(2)
        rng = random.Random(0)
        for _ in range(7):
            state.apply_action(rng.choice(state.legal_actions()))
        again = pickle.loads(pickle.dumps(state))
        assert (again.to_text(), again.history(), again.legal_actions()) == \
            (state.to_text(), state.history(), state.legal_actions())


def test_views_differ_where_seats_see_different_things():
    from abstracta import load_game
    from abstracta.core.game import views_differ

    cards = load_game("fibonacci-cards", seed=3, first_player=0).new_initial_state()
    assert views_differ(cards, [0, 1])  # each sees his own hand
    assert not views_differ(cards, [1]) and not views_differ(cards, [])
    piles = load_game("fibonacci", variant="cards", seed=3).new_initial_state()
    assert piles.game.has_hidden_information and not views_differ(piles, [0, 1])  # face-down piles: alike
    assert not views_differ(load_game("fanorona").new_initial_state(), [0, 1])


def test_seats_out_since_names_the_ply_that_put_each_seat_out_for_good():
    from abstracta.core.game import seats_out_since

    game = abstracta.load_game("slide-checkers", players=3)
    # slide-checkers.md §5: Blue's slide-and-jump on the 8th action turns Green's last piece Blue
    start = game.state_from_text("Gd9,Bd4,Rl12 M G")
    state = start.clone()
    actions = []
    for text in ["d9-d7", "d4-e5", "l12-k12", "d7-f8", "e5-e6", "k12-l12", "f8-f9", "e6>g8*e10e", "l12-k12"]:
        actions.append(state.string_to_action(text))
        state.apply_action(actions[-1])
    assert seats_out_since(start, actions) == {0: 8} == seats_out_since(start, actions, state)
    assert seats_out_since(start, actions[:7]) == {}  # Green still has its piece
    # out from the start of a record: ply 0
    out = game.state_from_text("Bk11,Bl12,Ra1,Rb2 M B")
    assert seats_out_since(out, []) == {0: 0}
