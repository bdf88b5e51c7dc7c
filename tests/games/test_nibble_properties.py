"""Nibble property tests over random playouts, checked against a naive coordinate-based
implementation of nibble.md §1–§5 (no bitboards)."""

from __future__ import annotations

import itertools
import random
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abstracta.core.records import Record
from abstracta.games.nibble import NibbleGame
from abstracta.games.nibble.geometry import geometry, seeded_layout
from abstracta.testing import check_random_playout

VARIANTS = ("square9", "square13", "hex")
SQUARE_SIDES = ((0, 1), (1, 0), (0, -1), (-1, 0))                 # N E S W
HEX_SIDES = ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))   # E NE NW W SW SE as (dr, dc)


# --- naive reference ----------------------------------------------------------------------------
def naive_board(state) -> dict[tuple[int, int], int]:
    g = state.geometry
    return {g.coords[i]: state.colour_at(i) for i in range(g.cells) if state.colour_at(i) >= 0}


def naive_sides(g, p):
    sides = HEX_SIDES if g.hex else SQUARE_SIDES
    return [(p[0] + d[0], p[1] + d[1]) for d in sides]


def naive_free(g, board, p) -> bool:
    """§4: 2 (square) / 3 (hex) consecutive exposed sides; off-board counts as exposed."""
    exposed = [q not in board for q in naive_sides(g, p)]
    run = 3 if g.hex else 2
    k = len(exposed)
    return any(all(exposed[(s + j) % k] for j in range(run)) for s in range(k))


def naive_connected(g, cells) -> bool:
    cells = set(cells)
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    todo = deque([start])
    while todo:
        p = todo.popleft()
        for q in naive_sides(g, p):
            if q in cells and q not in seen:
                seen.add(q)
                todo.append(q)
    return seen == cells


def naive_legal(state) -> list[int]:
    g = state.geometry
    board = naive_board(state)
    out = []
    for i in range(g.cells):
        p = g.coords[i]
        if p in board and (state.take < 0 or board[p] == state.take) and naive_free(g, board, p):
            if naive_connected(g, set(board) - {p}):
                out.append(i)
    if state.take >= 0:
        out.append(g.cells)
    return out


def naive_turns(state) -> list[str]:
    g = state.geometry
    board = naive_board(state)
    index = {p: i for i, p in enumerate(g.coords)}
    out = []
    for c in range(g.colours):
        free = sorted(index[p] for p, col in board.items() if col == c and naive_free(g, board, p))
        sets = []
        for size in range(1, len(free) + 1):
            for combo in itertools.combinations(free, size):
                rest = set(board) - {g.coords[i] for i in combo}
                if naive_connected(g, rest):
                    sets.append(combo)
        sets.sort(key=lambda s: (len(s), s))
        out.extend("+".join(g.names[i] for i in s) for s in sets)
    return out


def collections_ok(state) -> None:
    g = state.geometry
    for c in range(g.colours):
        on_board = bin(state.cmask[c]).count("1")
        assert on_board + state.coll[0][c] + state.coll[1][c] == g.per_colour


# --- properties --------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_spine_contract_over_random_playouts(variant, seed):
    final = check_random_playout(NibbleGame(variant=variant), seed, check_every=9)
    assert final.is_terminal() and sorted(final.returns()) == [-1.0, 1.0]


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_playout_invariants_against_naive_rules(variant, seed):
    game = NibbleGame(variant=variant)
    state = game.new_initial_state(seed=seed % 64)  # layouts are memoised per seed
    initial_text = state.to_text()
    rng = random.Random(seed)
    g = state.geometry
    steps = 0
    while not state.is_terminal():
        assert naive_connected(g, naive_board(state)), state.to_text()
        collections_ok(state)
        if steps % 3 == 0:
            assert state.legal_actions() == naive_legal(state), state.to_text()
            assert state.hash_key() == state._full_hash()
        if state.take < 0 and steps % 11 == 0 and bin(state.occ).count("1") < 60:
            assert game.turn_strings(state) == naive_turns(state), state.to_text()
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
    collections_ok(state)
    assert sorted(state.returns()) == [-1.0, 1.0]
    back = game.state_from_text(state.to_text())
    assert back.is_terminal() and back.returns() == state.returns()
    while state.history():
        state.undo_action()
    assert state.to_text() == initial_text


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63))
def test_generated_layouts_are_legal(variant, seed):
    g = geometry(variant)
    layout, _ = seeded_layout(variant, seed)
    assert all(layout.count(c) == g.per_colour for c in range(g.colours))
    for i, c in enumerate(layout):
        assert all(layout[j] != c for j in g.neighbours[i])


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_whole_turn_records_replay(variant, seed):
    game = NibbleGame(variant=variant)
    initial = game.new_initial_state(seed=seed % 64)
    state = initial.clone()
    rng = random.Random(seed)
    actions: list[int] = []
    while not state.is_terminal():
        turns = game.turn_strings(state)
        assert turns
        parsed = game.parse_move(state, rng.choice(turns))
        for a in parsed:
            state.apply_action(a)
        if state.take >= 0:  # a one-disc string is one engine action (notation.py): close the turn
            assert len(parsed) == 1
            state.apply_action(game.end_action)
            parsed.append(game.end_action)
        actions.extend(parsed)
        assert state.is_terminal() or state.take < 0
    record = Record.from_play(game, initial, actions)
    assert all("+" in m or m == "end" or m in game.geometry.index for m in record.moves)
    final, replayed = Record.from_json(record.to_json()).replay()
    assert replayed == actions and final.to_text() == state.to_text()
    assert final.returns() == state.returns()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(VARIANTS))
def test_mid_game_texts_round_trip_and_evaluate(seed, variant):
    game = NibbleGame(variant=variant)
    state = game.new_initial_state(seed=seed % 32)
    rng = random.Random(seed)
    for _ in range(rng.randrange(1, 150)):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    back = game.state_from_text(state.to_text())
    assert back.to_text() == state.to_text()
    assert back.legal_actions() == state.legal_actions()
    assert back.hash_key() == state.hash_key()
    for player in (0, 1):
        assert -1.0 <= game.evaluate(state, player) <= 1.0
    assert game.render(state).plain


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), n=st.integers(0, 200))
def test_packed_shuffle_equals_splitmix_shuffle(seed, n):
    from abstracta.core.rng import SplitMix64
    from abstracta.games.nibble.geometry import shuffle

    a, b = SplitMix64(seed), SplitMix64(seed)
    x, y = list(range(n)), list(range(n))
    a.shuffle(x)
    shuffle(b, y)
    assert x == y and a.state == b.state
