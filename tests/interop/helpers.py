"""Shared parameters of the interop tests: every game abstracta ships and its declared variants."""

from __future__ import annotations

import random
from importlib.metadata import entry_points

import pytest

import abstracta
from abstracta.interop import InteropGame, InteropState, variant_options
from abstracta.core.registry import GROUP, game_key
from abstracta.interop.core import resolve_chance

#: The games installed through the ``abstracta.games`` entry points, read at collection. Not
#: ``registered_games()``: a test collected after another registered a game at run time (the
#: server tests' toy-nim) would grow cases that game was never meant to pass; the plug-in case
#: is covered on purpose in test_plugin_game.py.
SHIPPED = sorted({game_key(ep.name) for ep in entry_points(group=GROUP)})

#: (game, options) of every declared variant, with a readable id.
VARIANTS = [pytest.param(name, opts, id=name + ("-" + "-".join(str(v) for v in opts.values()) if opts else ""))
            for name in SHIPPED for opts in variant_options(name)]


def random_playout(game: InteropGame, seed: int) -> tuple[InteropState, int, int]:
    """Play one game with uniformly random actions and sampled chance; returns (final state,
    player actions, chance outcomes)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    moves = chance = 0
    while not state.is_terminal():
        if state.is_chance_node():
            before = len(state.history())
            resolve_chance(state, rng)
            chance += len(state.history()) - before
            continue
        state.apply_action(rng.choice(state.legal_actions()))
        moves += 1
    return state, moves, chance
