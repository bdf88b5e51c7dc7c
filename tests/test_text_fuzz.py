"""Position texts and moves with look-alike digits ('²' passes str.isdigit(), int() refuses it):
every game answers with its own error (PositionError, NotationError, IllegalActionError), never
a ValueError (a 500 in the server, a traceback in the CLI)."""

from __future__ import annotations

import random

import pytest

from abstracta.core.errors import AbstractaError
from abstracta.core.registry import load_game, registered_games

SUBSTITUTES = ("²", "¹", "①")


def variants():
    for name in registered_games():
        if name == "toy-nim":
            continue
        game = load_game(name)
        for variant in game.description.variants or [None]:
            yield pytest.param(name, dict(variant.options) if variant else {},
                               id=f"{name}-{'-'.join(map(str, variant.options.values())) if variant else ''}")


def sample_states(game, count=12, seed=3):
    """The start and states along a random game (every optional field of the text shows up
    somewhere along it: a chain, a take, a jump, a pass count)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed) if game.description.chance else game.new_initial_state()
    out = [state.clone()]
    for _ in range(400):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choice(outcomes)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        out.append(state.clone())
    step = max(1, len(out) // count)
    return out[::step]


@pytest.mark.parametrize("name, options", list(variants()))
def test_position_texts_with_lookalike_digits(name, options):
    game = load_game(name, **options)
    seen = set()
    for state in sample_states(game):
        text = state.to_text()
        for i, ch in enumerate(text):
            if not ch.isdigit():
                continue
            for sub in SUBSTITUTES:
                bad = text[:i] + sub + text[i + 1:]
                if bad in seen:
                    continue
                seen.add(bad)
                try:
                    game.state_from_text(bad)
                except AbstractaError:
                    pass


@pytest.mark.parametrize("name, options", list(variants()))
def test_moves_with_lookalike_digits(name, options):
    game = load_game(name, **options)
    for state in sample_states(game, count=6):
        if state.is_terminal() or state.is_chance_node():
            continue
        for move in state.legal_action_strings()[:40]:
            for i, ch in enumerate(move):
                if not ch.isdigit():
                    continue
                for sub in SUBSTITUTES:
                    bad = move[:i] + sub + move[i + 1:]
                    try:
                        game.parse_move(state.clone(), bad)
                    except AbstractaError:
                        pass
