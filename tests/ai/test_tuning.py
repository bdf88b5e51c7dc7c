"""Issue 18 §4: evaluators as weighted terms (``GameDescription.tuning``) and the tuner."""

from __future__ import annotations

import math
import random

import pytest

from abstracta import load_game
from abstracta.core.game import CHANCE

from .frozen_evaluators import fanorona, fibonacci, fibonacci_cards, nibble, slide_checkers

#: (game, options, today's evaluator frozen before issue 18 §4)
CASES = [
    ("fanorona", {}, fanorona.evaluate),
    ("fanorona", {"size": "dimy"}, fanorona.evaluate),
    ("fibonacci", {}, fibonacci.evaluate),
    ("fibonacci", {"variant": "cards", "seed": 3}, fibonacci.evaluate),
    ("fibonacci", {"variant": "go"}, fibonacci.evaluate),
    ("fibonacci-cards", {"seed": 5}, fibonacci_cards.evaluate),
    ("nibble", {}, nibble.evaluate),
    ("nibble", {"variant": "hex"}, nibble.evaluate),
    ("slide-checkers", {}, slide_checkers.evaluate),
    ("slide-checkers", {"players": 3}, slide_checkers.evaluate),
]


def playout_positions(game, seed: int, games: int = 6, limit: int = 300):
    """Every position of a few random playouts (terminal ones included)."""
    rng = random.Random(seed)
    out = []
    for k in range(games):
        state = game.new_initial_state(seed=seed + k if game.has_chance else None)
        out.append(state.clone())
        while not state.is_terminal() and len(out) < limit * (k + 1):
            legal = state.legal_actions() if state.current_player() != CHANCE else [a for a, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(legal))
            out.append(state.clone())
    return out


@pytest.mark.parametrize("name,options,frozen", CASES, ids=[f"{n}{o}" for n, o, _ in CASES])
def test_default_weights_give_todays_values_exactly(name, options, frozen):
    game = load_game(name, **options)
    tuning = game.description.tuning
    assert tuning is not None and len(tuning.names) == len(tuning.weights)
    weighted = tuning.make(tuning.weights)
    plain = game.description.evaluator
    positions = playout_positions(game, 11)
    running = 0
    for state in positions:
        if state.current_player() == CHANCE:
            continue
        for player in range(game.num_players):
            today = frozen(state, player)
            assert plain(state, player) == today
            assert weighted(state, player) == today, state.to_text()
        running += not state.is_terminal()
    assert running > 100


@pytest.mark.parametrize("name,options,frozen", CASES, ids=[f"{n}{o}" for n, o, _ in CASES])
def test_evaluator_is_the_squashed_weighted_sum_of_the_terms(name, options, frozen):
    game = load_game(name, **options)
    tuning = game.description.tuning
    rng = random.Random(5)
    for trial in range(3):
        weights = tuple(w * rng.uniform(0.3, 2.0) + rng.uniform(-0.1, 0.1) for w in tuning.weights)
        evaluator = tuning.make(weights)
        assert evaluator.weights == weights
        checked = 0
        for state in playout_positions(game, 40 + trial, games=2):
            if state.is_terminal() or state.current_player() == CHANCE:
                continue
            for player in range(game.num_players):
                terms = tuning.terms(state, player)
                if terms is None:
                    continue
                assert len(terms) == len(tuning.names)
                expected = tuning.squash(sum(w * t for w, t in zip(weights, terms)))
                assert math.isclose(evaluator(state, player), expected, abs_tol=1e-9)
                checked += 1
        assert checked > 50


def test_make_rejects_bad_weights():
    tuning = load_game("nibble").description.tuning
    with pytest.raises(ValueError, match="2 weights given; this evaluator has 5 terms"):
        tuning.make((1.0, 2.0))
    with pytest.raises(ValueError, match="finite"):
        tuning.make((1.0, 2.0, float("nan"), 0.0, 0.0))
