"""Fanorona property tests: random playouts against the spine contract, against a slow
reference implementation written straight from fanorona.md, and make/unmake exactness."""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abstracta import load_game, perft
from abstracta.testing import check_random_playout

SIZES = {"tsivy": (9, 5), "dimy": (5, 5), "telo": (3, 3)}
COMBOS = [(size, vela, first) for size in SIZES for vela in (False, True) for first in (False, True)]
DIRS = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1), "S": (0, -1), "SW": (-1, -1), "W": (-1, 0),
        "NW": (-1, 1)}


def canonical(s: str) -> tuple[bool, str]:
    return (s == "end", s)


# --- a deliberately naive reference engine, written from the spec text -----------------------------

class Reference:
    """Dict board, strings for actions, no cleverness (Spec: fanorona.md §1–§5, §7)."""

    def __init__(self, size: str, vela: bool, first_rule: bool, text: str):
        self.w, self.h = SIZES[size]
        self.vela, self.first_rule = vela, first_rule
        rows, side = text.split()[:2]
        self.board = {}
        for i, row in enumerate(rows.split("/")):
            for x, c in enumerate(row):
                if c != ".":
                    self.board[(x, self.h - 1 - i)] = c
        self.side = side
        self.first = {"W", "B"} if first_rule else set()
        self.chain = None  # (point, last dir name, visited list)
        self.nc = 0
        self.captured_this_turn = False
        self.result = None
        self.reps = Counter()
        self._turn_start()

    def copy(self) -> "Reference":
        other = copy.copy(self)
        other.board = dict(self.board)
        other.first = set(self.first)
        other.reps = Counter(self.reps)
        return other

    def name(self, p):
        return "abcdefghi"[p[0]] + str(p[1] + 1)

    def step(self, p, d):
        dx, dy = DIRS[d]
        if dx and dy and (p[0] + p[1]) % 2:
            return None
        q = (p[0] + dx, p[1] + dy)
        return q if 0 <= q[0] < self.w and 0 <= q[1] < self.h else None

    @staticmethod
    def back(d):
        names = list(DIRS)
        return names[(names.index(d) + 4) % 8]

    def enemy(self):
        return "B" if self.side == "W" else "W"

    def vela_phase(self):
        return self.vela and sum(1 for c in self.board.values() if c == "B") > 5

    def captures_from(self, p):
        out = []
        for d in DIRS:
            q = self.step(p, d)
            if q is None or q in self.board:
                continue
            t = self.step(q, d)
            if t is not None and self.board.get(t) == self.enemy():
                out.append((f"{self.name(p)}-{self.name(q)}A", p, q, d, t, d))
            t = self.step(p, self.back(d))
            if t is not None and self.board.get(t) == self.enemy():
                out.append((f"{self.name(p)}-{self.name(q)}W", p, q, d, t, self.back(d)))
        return out

    def moves(self):
        """dict string -> move description."""
        if self.result is not None:
            return {}
        if self.chain is not None:
            p, last, visited = self.chain
            out = {m[0]: m for m in self.captures_from(p) if m[3] != last and m[2] not in visited}
            out["end"] = ("end",)
            return out
        mine = [p for p, c in self.board.items() if c == self.side]
        if not (self.vela_phase() and self.side == "B"):
            caps = {m[0]: m for p in mine for m in self.captures_from(p)}
            if caps:
                return caps
        out = {}
        for p in mine:
            for d in DIRS:
                q = self.step(p, d)
                if q is not None and q not in self.board:
                    out[f"{self.name(p)}-{self.name(q)}"] = ("paika", p, q)
        return out

    def legal(self):
        return sorted(self.moves(), key=canonical)

    def apply(self, s):
        move = self.moves()[s]
        if move[0] == "end":
            return self._end_turn()
        if move[0] == "paika":
            _, p, q = move
            self.board[q] = self.board.pop(p)
            return self._end_turn()
        _, p, q, d, t, line_dir = move
        single = self.vela_phase() and self.side == "W"
        self.board[q] = self.board.pop(p)
        while t is not None and self.board.get(t) == self.enemy():
            del self.board[t]
            if single:
                break
            t = self.step(t, line_dir)
        self.captured_this_turn = True
        visited = [p, q] if self.chain is None else self.chain[2] + [q]
        self.chain = (q, d, visited)
        if single or self.side in self.first:
            return self._end_turn()
        if len(self.moves()) == 1:  # only "end": no continuation
            self._end_turn()

    def _end_turn(self):
        self.first.discard(self.side)
        self.nc = 0 if self.captured_this_turn else self.nc + 1
        self.captured_this_turn = False
        self.chain = None
        self.side = self.enemy()
        self._turn_start()

    def _turn_start(self):
        key = (tuple(sorted(self.board.items())), self.side)
        self.reps[key] += 1
        loser = 0 if self.side == "W" else 1
        if self.side in self.board.values() and self.enemy() not in self.board.values():
            # only from a text: the side not to move has no stones, so it has lost
            self.result = [-1.0, 1.0] if loser == 1 else [1.0, -1.0]
        elif self.side not in self.board.values() or not self.moves():
            self.result = [-1.0, 1.0] if loser == 0 else [1.0, -1.0]
        elif self.reps[key] >= 3 or self.nc >= 100:
            self.result = [0.0, 0.0]

    def text(self):
        rows = "/".join("".join(self.board.get((x, y), ".") for x in range(self.w))
                        for y in range(self.h - 1, -1, -1))
        out = f"{rows} {self.side}"
        if self.chain is not None:
            p, d, visited = self.chain
            out += f" chain={self.name(p)}:{d}:{','.join(self.name(v) for v in visited)}"
        if self.first:
            out += " first=" + "".join(c for c in "WB" if c in self.first)
        nc = 0 if self.captured_this_turn else self.nc
        if nc:
            out += f" nc={nc}"
        return out


def compare_with_reference(size: str, vela: bool, first: bool, seed: int, max_actions: int = 400) -> int:
    game = load_game("fanorona", size=size, vela=vela, first_turn_single_capture=first)
    state = game.new_initial_state()
    ref = Reference(size, vela, first, state.to_text())
    rng = random.Random(seed)
    for ply in range(max_actions):
        assert state.to_text() == ref.text(), f"ply {ply}"
        assert state.legal_action_strings() == ref.legal(), f"ply {ply} {state.to_text()}"
        assert state.returns() == (ref.result or [0.0, 0.0])
        if state.is_terminal():
            assert ref.result is not None
            return ply
        move = rng.choice(ref.legal())
        state.apply_action(state.string_to_action(move))
        ref.apply(move)
    return max_actions


@pytest.mark.parametrize("size,vela,first", COMBOS)
def test_matches_reference_engine(size, vela, first):
    for seed in range(12 if size == "tsivy" else 25):
        compare_with_reference(size, vela, first, seed)


def test_reference_engine_sees_long_games_and_draws():
    # two lone stones wander until one catches the other, or a draw rule stops them
    start = "B......../........./........./........./.......W. W"
    game = load_game("fanorona")
    results = Counter()
    for seed in range(40):
        state = game.state_from_text(start)
        ref = Reference("tsivy", False, False, start)
        rng = random.Random(seed)
        while not state.is_terminal():
            move = rng.choice(ref.legal())
            state.apply_action(state.string_to_action(move))
            ref.apply(move)
            assert state.to_text() == ref.text()
        assert state.returns() == ref.result
        results[tuple(state.returns())] += 1
    assert results[(0.0, 0.0)] > 0
    assert results[(1.0, -1.0)] + results[(-1.0, 1.0)] > 0


# --- spine contract on random playouts ------------------------------------------------------------

@pytest.mark.parametrize("size,vela,first", COMBOS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_playout_contract(size, vela, first, seed):
    game = load_game("fanorona", size=size, vela=vela, first_turn_single_capture=first)
    final = check_random_playout(game, seed, order_key=canonical, check_every=3 if size == "tsivy" else 1)
    assert final.is_terminal()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), size=st.sampled_from(list(SIZES)))
def test_stone_counts_never_increase(seed, size):
    game = load_game("fanorona", size=size)
    state = game.new_initial_state()
    rng = random.Random(seed)
    white, black = (b.bit_count() for b in state.bitboards())
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        w, b = (x.bit_count() for x in state.bitboards())
        assert w <= white and b <= black
        assert w & 0 == 0 and (w, b) != (0, 0)
        white, black = w, b


# --- make/unmake ----------------------------------------------------------------------------------

def snapshot(state):
    return (state.to_text(), state.hash_key(), list(state.legal_actions()), state.current_player(),
            state.returns(), state.history(), state.repetition_count())


@pytest.mark.parametrize("size,vela,first", COMBOS)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_undo_restores_everything(size, vela, first, seed):
    game = load_game("fanorona", size=size, vela=vela, first_turn_single_capture=first)
    state = game.new_initial_state()
    rng = random.Random(seed)
    stack = [snapshot(state)]
    for _ in range(300):
        if state.is_terminal() or (len(stack) > 1 and rng.random() < 0.25):
            if len(stack) == 1:
                break
            state.undo_action()
            stack.pop()
            assert snapshot(state) == stack[-1]
            continue
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        if rng.random() < 0.5:  # sometimes apply without looking at the child first (lazy path)
            state.apply_action(action)
            state.undo_action()
            assert snapshot(state) == stack[-1]
        state.apply_action(action)
        stack.append(snapshot(state))
    while len(stack) > 1:
        state.undo_action()
        stack.pop()
        assert snapshot(state) == stack[-1]


def test_hash_key_is_incremental_and_position_based():
    game = load_game("fanorona")
    for seed in range(20):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            fresh = game.state_from_text(state.to_text())
            assert fresh.hash_key() == state.hash_key()
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


def test_clone_is_independent_and_can_undo():
    game = load_game("fanorona", size="dimy")
    state = game.new_initial_state()
    first = state.legal_actions()[0]
    state.apply_action(first)
    before = state.to_text()
    twin = state.clone()
    twin.apply_action(twin.legal_actions()[0])
    twin.undo_action()
    twin.undo_action()
    assert twin.to_text() == game.new_initial_state().to_text()
    assert state.history() == [first] and state.to_text() == before


@pytest.mark.parametrize("size", list(SIZES))
def test_all_option_combinations_construct(size):
    for vela, first in itertools.product((False, True), repeat=2):
        game = load_game("fanorona", size=size, vela=vela, first_turn_single_capture=first)
        assert game.new_initial_state().legal_actions()


@pytest.mark.parametrize("size", list(SIZES))
def test_generated_movegen_matches_table_loop(size):
    from abstracta.games.fanorona.movegen import generators
    from abstracta.games.fanorona.rules import capture_steps, paika_steps
    game = load_game("fanorona", size=size)
    g = game.geometry
    turn_start, paikas = generators(g)
    for seed in range(30):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            own, opp = state._own, state._opp
            for a, b in ((own, opp), (opp, own)):
                assert turn_start(a, b) == (capture_steps(g, a, b) or paika_steps(g, a, b))
                assert paikas(a, b) == paika_steps(g, a, b)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


def test_clone_of_unresolved_state():
    game = load_game("fanorona")
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("d2-e3A"))  # nothing resolved yet
    twin = state.clone()
    assert snapshot(twin) == snapshot(state)
    twin.apply_action(twin.string_to_action("e5-f4A"))
    assert twin.legal_action_strings() == ["f4-g5W", "end"]
    assert state.legal_action_strings() == ["c3-d2A", "e5-f4A", "f3-f4W", "g4-g5W", "h4-g5W"]
    twin.undo_action()
    assert snapshot(twin) == snapshot(state)


@st.composite
def positions(draw):
    """A random position text (turn boundary) for a random board size."""
    size = draw(st.sampled_from(list(SIZES)))
    w, h = SIZES[size]
    weights = draw(st.sampled_from([(1, 1, 1), (1, 1, 4), (3, 3, 1), (1, 4, 4)]))
    cells = draw(st.lists(st.sampled_from("W" * weights[0] + "B" * weights[1] + "." * weights[2]),
                          min_size=w * h, max_size=w * h))
    rows = "/".join("".join(cells[i * w:(i + 1) * w]) for i in range(h))
    side = draw(st.sampled_from("WB"))
    nc = draw(st.sampled_from([0, 0, 1, 57, 98, 99]))
    return size, f"{rows} {side}" + (f" nc={nc}" if nc else "")


@settings(max_examples=100, deadline=None)
@given(positions(), st.booleans(), st.integers(0, 2**16))
def test_random_positions_match_reference(position, vela, seed):
    size, text = position
    game = load_game("fanorona", size=size, vela=vela)
    state = game.state_from_text(text)
    assert state.to_text() == text
    ref = Reference(size, vela, False, text.split(" nc=")[0])
    ref.nc = state.no_progress
    if ref.result is None and ref.nc >= 100:
        ref.result = [0.0, 0.0]
    rng = random.Random(seed)
    for ply in range(60):
        assert state.to_text() == ref.text(), f"ply {ply} from {text}"
        assert state.legal_action_strings() == ref.legal(), f"ply {ply} from {text}"
        assert state.returns() == (ref.result or [0.0, 0.0])
        if state.is_terminal():
            break
        move = rng.choice(ref.legal())
        state.apply_action(state.string_to_action(move))
        ref.apply(move)


def reference_perft(ref: Reference, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in ref.legal():
        child = ref.copy()
        child.apply(move)
        total += reference_perft(child, depth - 1)
    return total


@pytest.mark.parametrize("size,vela,first", COMBOS)
def test_perft_matches_reference_engine(size, vela, first):
    game = load_game("fanorona", size=size, vela=vela, first_turn_single_capture=first)
    state = game.new_initial_state()
    ref = Reference(size, vela, first, state.to_text())
    depth = {"tsivy": 4, "dimy": 5, "telo": 7}[size] - (1 if vela and size != "telo" else 0)
    assert [perft(state, d) for d in range(1, depth + 1)] == [reference_perft(ref, d) for d in range(1, depth + 1)]
