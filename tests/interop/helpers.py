"""Shared parameters of the interop tests: every registered game and declared variant."""

from __future__ import annotations

import random

import pytest

import abstracta
from abstracta.interop import InteropGame, InteropState, variant_options
from abstracta.interop.core import resolve_chance

#: (game, options) of every declared variant, with a readable id.
VARIANTS = [pytest.param(name, opts, id=name + ("-" + "-".join(str(v) for v in opts.values()) if opts else ""))
            for name in abstracta.registered_games() for opts in variant_options(name)]


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
