"""Slide Checkers' learned value (issue 47): its features on known positions, worked out by hand
from the spec's board (slide-checkers.md §2.2, §7), and where the game declares it."""

from __future__ import annotations

import pytest

from abstracta import load_game
from abstracta.games.slide_checkers.learned import FEATURES, LEARNED, features

# spec §7 example 6: G e4 (seat 0) may launch from f4 over g4; B g4 may launch from f3 over e4.
SIX = "Bg4,Bi4,Bl12,Ge4 M G"


def _named(state, player: int) -> dict[str, float]:
    values = features(state, player)
    assert len(values) == len(FEATURES)
    return dict(zip(FEATURES, values))


def test_features_of_the_spec_s_continuation_example_for_the_mover():
    f = _named(load_game("slide-checkers").state_from_text(SIX), 0)
    assert f["material"] == pytest.approx(-2 / 7)
    assert (f["own"], f["other"]) == (pytest.approx(1 / 7), pytest.approx(3 / 7))
    assert (f["to_place_own"], f["to_place_other"], f["placement"]) == (0.0, 0.0, 0.0)
    assert f["tempo"] == 1.0 and f["to_move"] == 1.0  # G moves and must jump (e4>f4*h4)
    assert f["targets_own"] == pytest.approx(1 / 7)  # g4 only
    assert f["targets_other"] == pytest.approx(1 / 7)  # e4, from B's f3 to d5
    assert f["mover_targets"] == pytest.approx(1 / 7)
    # e4's eight neighbours are empty; B's pieces touch 8 + 5 + 3 empty squares
    assert (f["mobility_own"], f["mobility_other"]) == (pytest.approx(8 / 24), pytest.approx(16 / 24))
    # empty G squares next to e4: d5 f4; empty B squares next to B: f3 f5 (g4), j5 (i4), k12 (l12)
    assert (f["slide_own"], f["slide_other"]) == (pytest.approx(2 / 24), pytest.approx(4 / 24))
    assert (f["contact_own"], f["contact_other"], f["no_jump"]) == (0.0, 0.0, 0.0)


def test_features_from_the_other_seat_swap_the_sides_and_sign_the_mover():
    state = load_game("slide-checkers").state_from_text(SIX)
    mine, theirs = _named(state, 0), _named(state, 1)
    for a, b in (("own", "other"), ("targets_own", "targets_other"), ("mobility_own", "mobility_other"),
                 ("slide_own", "slide_other"), ("contact_own", "contact_other")):
        assert (theirs[a], theirs[b]) == (mine[b], mine[a])
    for signed in ("material", "tempo", "mover_targets", "to_move"):
        assert theirs[signed] == -mine[signed]


def test_features_count_contact_the_no_jump_turns_and_the_placement():
    game = load_game("slide-checkers")
    f = _named(game.state_from_text("Bf5,Bl12,Ge4 M B nj=37"), 0)
    assert (f["contact_own"], f["contact_other"]) == (pytest.approx(1 / 7), pytest.approx(1 / 7))
    assert f["no_jump"] == pytest.approx(0.37) and f["to_move"] == -1.0
    start = _named(game.new_initial_state(), 1)
    assert (start["placement"], start["to_place_own"], start["to_place_other"]) == (1.0, 1.0, 1.0)
    assert (start["material"], start["tempo"], start["mobility_own"]) == (0.0, 0.0, 0.0)


def test_the_two_player_default_game_declares_it_and_no_other():
    assert load_game("slide-checkers").description.learned is LEARNED
    assert load_game("slide-checkers", board="5,1").description.learned is None
    assert load_game("slide-checkers", players=3).description.learned is None


def test_the_shipped_model_loads_at_its_first_evaluation_and_is_the_numpy_formula():
    import numpy as np

    from abstracta.core.learned import LIMIT, LearnedValue, forward, load_weights

    value = LearnedValue(features, FEATURES, LEARNED.package)  # a fresh copy: nothing read yet
    assert not value.loaded
    state = load_game("slide-checkers").state_from_text(SIX)
    got = value.evaluate(state, 0)
    assert value.loaded and -LIMIT <= got <= LIMIT
    with value.path().open("rb") as handle:
        params, meta = load_weights(handle, FEATURES)
    assert meta["bots"] == ["alphabeta:d2", "alphabeta:d2"]
    assert got == pytest.approx(float(forward(params, np.array([features(state, 0)]))[0]), abs=1e-12)


def test_the_analysis_board_shows_the_kept_value_on_the_default_board_only():
    from abstracta.ai.analysis import analyse

    state = load_game("slide-checkers").state_from_text(SIX)
    answer = analyse(state, budget=200, seed=1)
    assert answer.learned == [round(LEARNED.evaluate(state, p), 4) for p in (0, 1)]
    other = load_game("slide-checkers", board="5,1").state_from_text("Bl12,Ge4 M G")
    assert analyse(other, budget=200, seed=1).learned is None
