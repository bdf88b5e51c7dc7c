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
