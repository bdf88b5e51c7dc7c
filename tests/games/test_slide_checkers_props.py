"""Slide Checkers property tests over random playouts for 2, 3 and 4 players (Hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from abstracta.core.perft import _perft_clone, perft
from abstracta.games.slide_checkers import SlideCheckersGame
from abstracta.games.slide_checkers.geometry import BOARDS
from abstracta.games.slide_checkers.tables import NB
from abstracta.testing import check_random_playout

SETTINGS = settings(max_examples=40, deadline=None)


def _counts(state) -> list[int]:
    return [state.pieces(i).bit_count() for i in range(state.num_players)]


def _no_two_colours_adjacent(state) -> bool:
    n = state.num_players
    for i in range(n):
        b = state.pieces(i)
        others = 0
        for j in range(n):
            if j != i:
                others |= state.pieces(j)
        while b:
            low = b & -b
            if NB[low.bit_length() - 1] & others:
                return False
            b ^= low
    return True


@SETTINGS
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]), board=st.sampled_from(BOARDS))
def test_random_playout_invariants(seed, players, board):
    game = SlideCheckersGame(players=players, board=board)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(10_000):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        move = state.action_to_string(action)
        mover = state.current_player()
        before = _counts(state)
        placing = state.phase == "placement"
        snapshot = (state.to_text(), state.hash_key(), list(legal))
        state.apply_action(action)
        after = _counts(state)
        if move.startswith("@"):
            assert sum(after) == sum(before) + 1 and after[mover] == before[mover] + 1
        elif "*" in move and move.endswith("r"):
            assert sum(after) == sum(before) - 1 and after[mover] == before[mover]
        elif "*" in move:
            assert sum(after) == sum(before) and after[mover] == before[mover] + 1
        else:
            assert after == before
        if placing:
            assert _no_two_colours_adjacent(state), state.to_text()
        # text round trip keeps the hash; undo restores the position exactly
        assert game.state_from_text(state.to_text()).hash_key() == state.hash_key()
        if rng.random() < 0.1:
            state.undo_action()
            assert (state.to_text(), state.hash_key(), list(state.legal_actions())) == snapshot
            state.apply_action(action)
    assert state.is_terminal(), "game did not end within 10000 actions"
    returns = state.returns()
    assert sorted(returns) in ([-1.0] * (players - 1) + [1.0],) or all(r in (0.0, -1.0) for r in returns)
    if 1.0 in returns:
        assert sum(1 for c in _counts(state) if c) == 1
        assert returns.index(1.0) == next(i for i, c in enumerate(_counts(state)) if c)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]))
def test_spine_contract_on_random_playouts(seed, players):
    game = SlideCheckersGame(players=players, board=BOARDS[seed % len(BOARDS)])
    final = check_random_playout(game, seed, order_key=lambda s: s, check_every=2)
    assert final.is_terminal()


def test_perft_with_undo_matches_clone():
    game = SlideCheckersGame()
    state = game.state_from_text("Bg4,Bi4,Bl12,Ge4 M G")
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += sum(1 for _ in child.legal_actions())
    assert perft(state, 2) == total
    start = game.new_initial_state()
    assert perft(start, 2) == _perft_clone(start, 2)
    assert start.to_text() == "- P:7/7 G"
