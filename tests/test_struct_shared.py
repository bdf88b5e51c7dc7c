"""``State.to_struct(..., shared=...)``: what every viewer of a position sees alike (a game
without hidden information: the board, the legal actions, their choices) is computed once and
handed to the other viewers — and each viewer's struct is exactly the one computed alone."""

from __future__ import annotations

import copy
import random

import pytest

from abstracta import load_game
from abstracta.core import view
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


def variants(name: str) -> list[dict]:
    return [dict(v.options) for v in load_game(name).description.variants] or [{}]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("small", [False, True], ids=["kept", "pruned"])
def test_a_struct_from_carried_steps_is_the_struct_computed_alone(name, small, monkeypatch):
    """``carried``, kept along a line of states (a match's revisions: a move, several, a takeback
    of one or more, another move played instead, an older state described again): each struct is
    the one computed alone, for every viewer, with and without ``shared``; what is kept are the
    steps as far back as the last state's walks went. ``pruned``: at most 3 steps are carried to
    the next state, so that a walk meets a kept history it must walk past."""
    if small:
        monkeypatch.setattr(view, "CARRIED_STEPS", 3)
    for options in variants(name):
        rng = random.Random(f"{name}{options}")
        game = load_game(name, **options)
        viewers = [None, *range(game.num_players)]
        state = game.new_initial_state()
        line = [state.clone()]
        carried: dict = {}
        for _ in range(90):
            if state.is_terminal() or (len(line) > 3 and rng.random() < 0.15):
                back = rng.choice([1, 1, 2, 5, len(line) - 1])  # a takeback, or an older revision
                line = line[:max(1, len(line) - back)]
                state = line[-1].clone()
            elif state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, weights)[0])
                line.append(state.clone())
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                line.append(state.clone())
            if rng.random() < 0.3:  # a revision nobody looks at
                continue
            described = line[-1] if rng.random() < 0.9 else rng.choice(line)
            shared: dict = {}
            for viewer in rng.sample(viewers, len(viewers)):
                alone = described.to_struct(viewer)
                assert described.to_struct(viewer, carried=carried) == alone, (options, viewer)
                assert described.to_struct(viewer, shared=shared, carried=carried) == alone, (options, viewer)
            for kept in carried.values():  # only the newest steps, and those the last walks reached back to
                low = min(kept["low"], len(kept["history"]) - view.CARRIED_STEPS)
                assert all(low <= ply < len(kept["history"]) for ply in kept["steps"])


def spoil(value) -> None:
    """Change every dict and list inside ``value`` in place, as a careless caller might."""
    if isinstance(value, dict):
        for item in value.values():
            spoil(item)
        value["spoiled"] = True
    elif isinstance(value, list):
        for item in value:
            spoil(item)
        value.append("spoiled")


@pytest.mark.parametrize("name", GAMES)
def test_a_board_is_fresh_data_and_the_shared_one_its_equal(name):
    """``board_struct`` is the caller's to change: changing it (every dict and list in it) changes
    no later board, the shared ones (``shared_board_struct``, kept parts) included; and the shared
    board is equal to it."""
    game, states = playout(name, 7, plies=40)
    for state in states[:: max(1, len(states) // 6)]:
        for viewer in [None, *range(game.num_players)]:
            before = copy.deepcopy(state.board_struct(viewer))
            assert state.shared_board_struct(viewer) == before
            spoil(state.board_struct(viewer))
            spoil(state.to_struct(viewer))
            assert state.board_struct(viewer) == before
            assert state.shared_board_struct(viewer) == before
            assert state.to_struct(viewer, shared={})["board"] == before


@pytest.mark.parametrize("name", GAMES)
def test_choices_are_fresh_data_and_the_shared_ones_their_equal(name):
    """``choices_struct`` is the caller's to change: changing it changes no later choices, the
    shared ones (``shared_choices_struct``, kept entries) included; the shared choices are equal
    to it, and a struct given ``shared`` carries them."""
    game, states = playout(name, 11, plies=60)
    for state in states[:: max(1, len(states) // 8)]:
        legal = state.legal_action_strings() if not state.is_terminal() and state.current_player() >= 0 else []
        if not legal:
            continue
        before = copy.deepcopy(state.choices_struct(legal))
        assert state.shared_choices_struct(legal) == before
        spoil(state.choices_struct(legal))
        assert state.choices_struct(legal) == before
        assert state.shared_choices_struct(legal) == before
        viewer = state.current_player()
        assert state.to_struct(viewer, shared={})["choices"] == before == state.to_struct(viewer)["choices"]
