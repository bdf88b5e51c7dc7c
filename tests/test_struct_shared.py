"""``State.to_struct(..., shared=...)``: what every viewer of a position sees alike (a game
without hidden information: the board, the legal actions, their choices) is computed once and
handed to the other viewers — and each viewer's struct is exactly the one computed alone."""

from __future__ import annotations

import random

import pytest

from abstracta import load_game
from abstracta.core.registry import registered_games

GAMES = [name for name in registered_games() if name != "toy-nim"]


def playout(name: str, seed: int, plies: int = 60):
    """The states of a random game of ``name``, start included (at most ``plies`` actions)."""
    rng = random.Random(seed)
    game = load_game(name)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal() and len(states) <= plies:
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return game, states


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_a_struct_from_shared_parts_is_the_struct_computed_alone(name, seed):
    game, states = playout(name, seed)
    viewers = [None, *range(game.num_players)]
    for state in states[:: max(1, len(states) // 12)]:
        shared: dict = {}
        for viewer in viewers:
            assert state.to_struct(viewer, shared=shared) == state.to_struct(viewer)
        if game.has_hidden_information:
            assert shared == {}  # each seat sees its own cards: nothing is handed on
        else:
            alone = state.to_struct(None)
            assert shared["board"] == alone["board"] and shared["legal"] == alone["legal"]
            # the later viewers got the very objects the first one computed
            assert state.to_struct(game.num_players - 1, shared=shared)["board"] is shared["board"]
