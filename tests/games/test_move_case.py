"""A move typed in the other case (``D3-C3W``, ``A1``, ``qd/1``) is read as the spec's notation
where case tells nothing apart in that game's moves; moves are still written in the spec's case.
Position texts stay case-sensitive (Fibonacci's ``R``/``r``, the card game's ranks and suits)."""

from __future__ import annotations

import random

import pytest

from abstracta import IllegalActionError, load_game

GAMES = [
    ("fanorona", {"size": "dimy"}),
    ("fanorona", {"size": "tsivy", "vela": "true"}),
    ("nibble", {"variant": "square9"}),
    ("nibble", {"variant": "hex"}),
    ("fibonacci", {"variant": "standard"}),
    ("fibonacci", {"variant": "cards"}),
    ("fibonacci", {"variant": "go"}),
    ("fibonacci-cards", {}),
    ("slide-checkers", {"players": "2"}),
    ("slide-checkers", {"players": "3"}),
]


def states_along_a_game(game, plies=80, seed=5):
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed) if game.has_chance else game.new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        yield state
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name,options", GAMES, ids=lambda v: v if isinstance(v, str) else "-".join(v.values()))
def test_every_legal_action_is_read_in_either_case(name, options):
    game = load_game(name, **options)
    checked = 0
    for state in states_along_a_game(game):
        for action in state.legal_actions():
            text = state.action_to_string(action)
            for typed in (text.upper(), text.lower(), text.swapcase()):
                assert state.string_to_action(typed) == action, (typed, text)
                assert game.parse_turn(state, typed)[:1] == [action] or name == "nibble", (typed, text)
            checked += 1
    assert checked > 20


def test_the_written_notation_keeps_the_spec_case():
    state = load_game("fanorona", size="dimy").new_initial_state()
    action = state.string_to_action("D3-C3w")
    assert state.action_to_string(action) == "d3-c3W"
    state = load_game("fibonacci", variant="go").new_initial_state()
    assert state.action_to_string(state.string_to_action("s@E5")) == "S@e5"


def test_nibble_whole_turns_in_capitals():
    game = load_game("nibble", variant="square9")
    state = game.new_initial_state(seed=0)
    for turn in game.turn_strings(state):
        assert game.parse_move(state, turn.upper()) == game.parse_move(state, turn)
        assert game.parse_turn(state, turn.upper()) == game.parse_turn(state, turn)


def test_other_text_is_still_refused_quoting_what_was_typed():
    state = load_game("fanorona", size="dimy").new_initial_state()
    with pytest.raises(IllegalActionError, match="'D3-C3X' is not Fanorona notation"):
        state.string_to_action("D3-C3X")
    state = load_game("nibble").new_initial_state(seed=0)
    with pytest.raises(IllegalActionError, match="'Z1' is not a cell"):
        state.string_to_action("Z1")


def test_a_refusal_quotes_the_squares_as_typed():
    # "'B6-C7X': 'c7x' is not a cell name" when the player typed C7X: the refusal quoted a
    # lower-cased copy of the input, not what the player typed
    fib = load_game("fibonacci").new_initial_state()
    for typed, part in (("B6-C7X", "C7X"), ("Q1-B6", "Q1"), ("B6-K1", "K1")):
        with pytest.raises(IllegalActionError) as refused:
            fib.string_to_action(typed)
        assert str(refused.value).startswith(f"{typed!r}: {part!r} is not a cell"), str(refused.value)
    go = load_game("fibonacci", variant="go").new_initial_state()
    with pytest.raises(IllegalActionError) as refused:
        go.string_to_action("S@E3A")
    assert str(refused.value) == "'S@E3A': 'E3A' is not a cell name"
    sc = load_game("slide-checkers").new_initial_state()
    for typed, part in (("@E3A", "E3A"), ("E3A-F4", "E3A"), ("C9>D8*M8R", "M8"), ("*Z4E", "Z4")):
        with pytest.raises(IllegalActionError) as refused:
            sc.string_to_action(typed)
        assert str(refused.value) == f"{typed!r}: {part!r} is not a square (a1…l12)", str(refused.value)


#: Red's attackers a1…a5 b6 and core a6; Green's pieces as at the start (Spec fibonacci.md §2)
FIB_START = "caaaaa/1a5/8/8S/2s3SSS1/3s3S3/1sss3S2/s8/8/5A1/AAAAAC R 1 1"


@pytest.mark.parametrize("typed,why", [
    ("d2-e3", "d2 is empty"),
    ("a6-b5", "a6 holds your core, which moves only by being swapped"),
    ("k7-j7", "k7 holds a Green attacker: you move your own attackers and supports"),
    ("e3-d3", "e3 holds a Green support: you move your own attackers and supports"),
    ("a1-a2", "a2 holds another of your attackers: swapping identical pieces changes nothing"),
    ("b6-d6", "d6 is not next to the group of attackers b6 belongs to (b6 may go to a6, b1, b2, b3, b4, b5, "
              "b7, c6, c7)"),
])
def test_fibonacci_says_why_a_move_is_not_legal(typed, why):
    # "'d2-e3' is not a legal action here" gave no reason where the engine knows one
    state = load_game("fibonacci").state_from_text(FIB_START)
    with pytest.raises(IllegalActionError) as refused:
        state.string_to_action(typed.upper())
    assert str(refused.value) == f"{typed.upper()!r} is not legal here: {why}"
