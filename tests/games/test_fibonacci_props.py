"""Fibonacci: Hypothesis properties over random playouts of every variant (spine contract)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from abstracta import load_game
from abstracta.games.fibonacci.geometry import DENSE
from abstracta.games.fibonacci.rules import NMOVE, NUM_PLACEMENTS
from abstracta.testing import check_random_playout, random_playout

VARIANTS = ("standard", "cards", "go")


def _cores(state) -> tuple[int, int]:
    return state.bitboards[1], state.bitboards[4]


def _invariants(game, state) -> None:
    assert state.left >= 0
    counts = [state.bitboards[c].bit_count() for c in range(7)]
    if state.placed >= NUM_PLACEMENTS:
        assert counts[1:4] == [1, 6, 6] and counts[4:7] == [1, 6, 6]
    if not state.is_terminal() and state.placed >= NUM_PLACEMENTS:
        assert state.left >= 1
        assert state.legal_actions()
    assert game.state_from_text(state.to_text()).to_text() == state.to_text()


def _core_moves_only_by_swap(cb, action, after) -> None:
    ca = _cores(after)
    for old, new in zip(cb, ca):
        if old and old != new:
            assert action < NMOVE
            fb, tb = action // 91, action % 91
            # the core sat on the destination and went to the mover's cell
            assert DENSE[old.bit_length() - 1] == tb and DENSE[new.bit_length() - 1] == fb


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32))
def test_random_playout_contract(variant, seed):
    game = load_game("fibonacci", variant=variant)
    final = check_random_playout(game, seed, check_every=97)
    assert final.is_terminal()


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32))
def test_playout_invariants_and_undo(variant, seed):
    game = load_game("fibonacci", variant=variant)
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed if game.has_chance else None)
    trail = []
    n = 0
    while not state.is_terminal() and n < 700:
        cores = _cores(state)
        trail.append((state.to_text(), state.hash_key()))
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        state.apply_action(action)
        _core_moves_only_by_swap(cores, action, state)
        if n % 23 == 0:
            _invariants(game, state)
        n += 1
    _invariants(game, state)
    # unmake everything: every intermediate text and hash comes back
    for text, key in reversed(trail):
        state.undo_action()
        assert state.to_text() == text and state.hash_key() == key
    assert state.history() == []


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**32))
def test_hash_matches_fresh_parse(seed):
    game = load_game("fibonacci")
    _, final, actions = random_playout(game, seed, max_actions=300)
    fresh = game.state_from_text(final.to_text())
    assert fresh.hash_key() == final.hash_key()


def _noisy_greedy(game, seed: int, max_actions: int = 600):
    """Play mostly the evaluator's best action (so games end in wins), sometimes a random one."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed if game.has_chance else None)
    initial = state.clone()
    actions = []
    while not state.is_terminal() and len(actions) < max_actions:
        legal = state.legal_actions()
        if state.placed < NUM_PLACEMENTS or rng.random() < 0.3:
            action = legal[rng.randrange(len(legal))]
        else:
            me = state.current_player()
            best, best_value = legal[0], -9.0
            for a in legal:
                state.apply_action(a)
                value = game.evaluate(state, me) + rng.random() * 0.01
                state.undo_action()
                if value > best_value:
                    best, best_value = a, value
            action = best
        cores = _cores(state)
        state.apply_action(action)
        _core_moves_only_by_swap(cores, action, state)
        actions.append(action)
    return initial, state, actions


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32))
def test_decided_games(variant, seed):
    from abstracta import Record

    game = load_game("fibonacci", variant=variant)
    initial, final, actions = _noisy_greedy(game, seed)
    _invariants(game, final)
    if final.is_terminal():
        back = game.state_from_text(final.to_text())
        from abstracta.games.fibonacci.rules import MAX_TURNS

        if final.returns() == [0.0, 0.0] and final.turn <= MAX_TURNS:
            # a draw by repetition: a position read from text starts its own history (§5), so
            # the same position is its first occurrence there and the game goes on
            assert not back.is_terminal()
        else:
            assert back.is_terminal() and back.returns() == final.returns()
        assert final.legal_actions() == []
        winner = final.winner()
        if winner is not None:
            loser_core = final.bitboards[4 - 3 * winner]
            if variant == "cards":
                assert final.cards_pattern(winner)
            else:
                assert final.surrounded(winner ^ 1) and loser_core
    record = Record.from_play(game, initial, actions, players=["greedy", "greedy"])
    replayed, replayed_actions = Record.from_json(record.to_json()).replay()
    assert replayed.to_text() == final.to_text() and replayed_actions == actions
    while final.history():
        final.undo_action()
    assert final.to_text() == initial.to_text() and final.hash_key() == initial.hash_key()


# --- a naive reference written straight from fibonacci.md §1, §3–§5, §7 --------------------------

_ROWS = "abcdefghijk"


def _ref_cells(r: int) -> range:
    return range(max(1, r - 5), min(11, r + 5) + 1)


def _ref_board(text: str) -> dict[tuple[int, int], str]:
    board: dict[tuple[int, int], str] = {}
    for i, row in enumerate(text.split()[0].split("/")):
        r = 11 - i
        cols = iter(_ref_cells(r))
        digits = ""
        for ch in row + " ":
            if ch.isdigit():
                digits += ch
                continue
            for _ in range(int(digits or 0)):
                next(cols)
            digits = ""
            if ch != " ":
                board[(r, next(cols))] = ch
    return board


def _ref_neighbours(cell: tuple[int, int]) -> list[tuple[int, int]]:
    r, c = cell
    out = []
    for dr, dc in ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)):
        rr, cc = r + dr, c + dc
        if 1 <= rr <= 11 and 1 <= cc <= 11 and abs(rr - cc) <= 5:
            out.append((rr, cc))
    return out


def _ref_name(cell: tuple[int, int]) -> str:
    return f"{_ROWS[cell[0] - 1]}{cell[1]}"


def _ref_legal(board: dict[tuple[int, int], str], side: str) -> list[str]:
    """§4: every move of every own attack/support piece to D(p), identical swaps excluded, sorted
    by from then to (row, then column number); then pass."""
    mine = "AS" if side == "R" else "as"
    moves = []
    for p, letter in board.items():
        if letter not in mine:
            continue
        group, todo = {p}, [p]
        while todo:
            for n in _ref_neighbours(todo.pop()):
                if n not in group and board.get(n) == letter:
                    group.add(n)
                    todo.append(n)
        dests = {n for g in group for n in _ref_neighbours(g)} - group
        moves += [(p, d) for d in dests if board.get(d) != letter]
    return [f"{_ref_name(a)}-{_ref_name(b)}" for a, b in sorted(moves)] + ["pass"]


def _ref_allotment(board: dict[tuple[int, int], str], side: str, t: int) -> int:
    core = next(c for c, x in board.items() if x == ("C" if side == "R" else "c"))
    enemy = "a" if side == "R" else "A"
    return max(0, min(t, 6) - sum(1 for n in _ref_neighbours(core) if board.get(n) == enemy))


def _ref_surrounded(board: dict[tuple[int, int], str], core_letter: str) -> bool:
    core = next(c for c, x in board.items() if x == core_letter)
    ring = _ref_neighbours(core)
    enemy = "a" if core_letter == "C" else "A"
    return len(ring) == 6 and all(board.get(n) == enemy for n in ring)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 2**32))
def test_standard_matches_a_naive_reference(seed):
    game = load_game("fibonacci")
    rng = random.Random(seed)
    state = game.new_initial_state()
    compared = 0
    for _ in range(160):
        text = state.to_text()
        board = _ref_board(text)
        side, left, t = text.split()[1], int(text.split()[2]), int(text.split()[3])
        if state.is_terminal():
            if not (_ref_surrounded(board, "C") or _ref_surrounded(board, "c")):
                assert state.returns() == [0.0, 0.0]  # a draw by repetition or the cap
            break
        assert not _ref_surrounded(board, "C") and not _ref_surrounded(board, "c")
        assert state.legal_action_strings() == _ref_legal(board, side), text
        assert left >= 1
        compared += 1
        before = (side, t)
        state.apply_action(rng.choice(state.legal_actions()))
        after = state.to_text().split()
        if not state.is_terminal() and (after[1], int(after[3])) != before and int(after[3]) == t + 1:
            # a fresh turn begins with max(0, base − k) moves (§3)
            assert int(after[2]) == _ref_allotment(_ref_board(state.to_text()), after[1], t + 1)
    assert compared >= 100
