"""Cross-check of the bitboard engine against a plain, slow reference written straight from
slide-checkers.md §1–§6 (coordinates and sets, no tables shared with the engine).

For random playouts on every board and player count, each state's legal list and each
action's resulting position text must agree with the reference.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abstracta.games.slide_checkers import SlideCheckersGame

FILES = "abcdefghijkl"
DIRS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
PIECES = {2: 7, 3: 5, 4: 4}


def ref_colours(a: int, b: int) -> dict[tuple[int, int], str]:
    cls: dict[tuple[int, int], int] = {}
    cycles = []
    for p in range(12):
        for q in range(12):
            if (p, q) in cls:
                continue
            cur, cyc = (p, q), []
            while cur not in cls:
                cls[cur] = len(cycles)
                cyc.append(cur)
                cur = (cur[1], (a * cur[1] + b * cur[0]) % 12)
            cycles.append(cyc)
    majors = iter("ROYGB")
    minors = iter("zpqst")
    names = [next(majors) if len(c) == 24 else next(minors) for c in cycles]
    return {sq: names[k] for sq, k in cls.items()}


def name(sq: tuple[int, int]) -> str:
    return FILES[sq[0]] + str(sq[1] + 1)


def parse_sq(text: str) -> tuple[int, int]:
    return FILES.index(text[0]), int(text[1:]) - 1


def on(x: int, y: int) -> bool:
    return 0 <= x < 12 and 0 <= y < 12


def nbrs(sq):
    for dx, dy in DIRS:
        if on(sq[0] + dx, sq[1] + dy):
            yield (sq[0] + dx, sq[1] + dy)


class Ref:
    """A position as plain Python values (Spec §6 fields)."""

    def __init__(self, text: str, colours: str, board: dict):
        self.seats = colours
        self.board = board
        parts = text.split()
        self.pieces: dict[tuple[int, int], str] = {}
        if parts[0] != "-":
            for tok in parts[0].split(","):
                self.pieces[parse_sq(tok[1:])] = tok[0]
        self.remain = None if parts[1] == "M" else [int(c) for c in parts[1][2:].split("/")]
        self.turn = parts[2]
        self.j = None
        self.nj = self.passes = 0
        for tok in parts[3:]:
            if tok.startswith("J:"):
                self.j = parse_sq(tok[2:])
            elif tok.startswith("nj="):
                self.nj = int(tok[3:])
            elif tok.startswith("passes="):
                self.passes = int(tok[7:])

    def alive(self) -> list[str]:
        return [c for c in self.seats if c in self.pieces.values()]

    def text(self) -> str:
        order = sorted(self.pieces.items(), key=lambda kv: (kv[1], kv[0][0], kv[0][1]))
        out = [",".join(c + name(sq) for sq, c in order) or "-",
               "M" if self.remain is None else "P:" + "/".join(map(str, self.remain)), self.turn]
        if self.j:
            out.append("J:" + name(self.j))
        if self.nj:
            out.append(f"nj={self.nj}")
        if self.passes:
            out.append(f"passes={self.passes}")
        return " ".join(out)

    # --- rules -----------------------------------------------------------------------------
    def can_place(self, c: str) -> list[tuple[int, int]]:
        return [sq for sq, col in self.board.items() if col == c and sq not in self.pieces
                and all(self.pieces.get(n, c) == c for n in nbrs(sq))]

    def transit(self, s, c):
        seen = set()
        todo = [n for n in nbrs(s) if n not in self.pieces and self.board[n] == c]
        while todo:
            sq = todo.pop()
            if sq in seen:
                continue
            seen.add(sq)
            todo.extend(n for n in nbrs(sq) if n not in self.pieces and self.board[n] == c and n not in seen)
        return seen

    def jumps_from(self, p, c, start=None):
        out = []
        for dx, dy in DIRS:
            o, l = (p[0] + dx, p[1] + dy), (p[0] + 2 * dx, p[1] + 2 * dy)
            if on(*l) and self.pieces.get(o, c) != c and (l not in self.pieces or l == start):
                out.append(l)
        return out

    def legal(self) -> list[str]:
        c = self.turn
        if self.remain is not None:
            return sorted("@" + name(sq) for sq in self.can_place(c))
        if self.j:
            return sorted("*" + name(l) + k for l in self.jumps_from(self.j, c) for k in "er")
        mine = [sq for sq, col in self.pieces.items() if col == c]
        jumps, moves = [], []
        for s in mine:
            t = self.transit(s, c)
            for launch in [s, *t]:
                for l in self.jumps_from(launch, c, start=s):
                    head = name(s) + ("" if launch == s else ">" + name(launch))
                    jumps += [head + "*" + name(l) + k for k in "er"]
            dest = {n for sq in [s, *t] for n in nbrs(sq) if n not in self.pieces}
            moves += [name(s) + "-" + name(d) for d in dest]
        if jumps:
            return sorted(jumps)
        return sorted(moves) or ["pass"]

    def next_alive(self, after: str) -> str:
        i = self.seats.index(after)
        for k in range(1, len(self.seats) + 1):
            c = self.seats[(i + k) % len(self.seats)]
            if c in self.pieces.values():
                return c
        return after

    def finish_placement_or_advance(self, start_index: int) -> None:
        n = len(self.seats)
        for k in range(n):
            i = (start_index + k) % n
            if self.remain[i] > 0:
                if self.can_place(self.seats[i]):
                    self.turn = self.seats[i]
                    return
                self.remain[i] = 0
        self.remain = None
        self.turn = next(c for c in self.seats if c in self.pieces.values())

    def apply(self, move: str) -> None:
        c = self.turn
        if move.startswith("@"):
            self.pieces[parse_sq(move[1:])] = c
            i = self.seats.index(c)
            self.remain[i] -= 1
            self.finish_placement_or_advance(i + 1)
            return
        if move == "pass" or "-" in move:
            if move != "pass":
                a, b = move.split("-")
                del self.pieces[parse_sq(a)]
                self.pieces[parse_sq(b)] = c
                self.passes = 0
            else:
                self.passes += 1
            self.nj += 1
            self.turn = self.next_alive(c)
            return
        head, tail = move.split("*")
        s = self.j if head == "" else parse_sq(head.split(">")[0])
        launch = self.j if head == "" else parse_sq(head.split(">")[-1])
        land = parse_sq(tail[:-1])
        over = ((launch[0] + land[0]) // 2, (launch[1] + land[1]) // 2)
        del self.pieces[s]
        self.pieces[land] = c
        if tail[-1] == "r":
            del self.pieces[over]
        else:
            self.pieces[over] = c
        self.nj = self.passes = 0
        self.j = land if self.jumps_from(land, c) else None
        if len(self.alive()) == 1:
            self.j = None
        elif self.j is None:
            self.turn = self.next_alive(c)

    def over(self) -> bool:
        return self.remain is None and (len(self.alive()) == 1 or self.nj >= 100
                                        or (self.passes > 0 and self.passes >= len(self.alive())))


def _check_game(players: int, board: tuple[int, int], seed: int, max_actions: int = 400) -> None:
    rng = random.Random(seed)
    seats = "".join(rng.sample("ROYGB", players)) if seed % 2 else None
    game = SlideCheckersGame(players=players, board=board, colours=seats)
    colours = ref_colours(*board)
    state = game.new_initial_state()
    for _ in range(max_actions):
        ref = Ref(state.to_text(), game.colours, colours)
        if ref.over():
            assert state.is_terminal(), state.to_text()
            return
        assert not state.is_terminal(), state.to_text()
        strings = state.legal_action_strings()
        assert strings == ref.legal(), state.to_text()
        move = strings[rng.randrange(len(strings))]
        state.apply_action(state.string_to_action(move))
        ref.apply(move)
        assert state.to_text() == ref.text(), (move, state.to_text(), ref.text())


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]),
       board=st.sampled_from([(1, 1), (5, 1), (7, 1), (11, 1), (1, 7), (5, 7)]))
def test_engine_matches_reference(seed, players, board):
    _check_game(players, board, seed)


@pytest.mark.parametrize("text", ["Bl12,Ge4 M G", "Bl1,Gc9 M G", "Be8,Gc9 M G", "Bg4,Bi4,Bl12,Ge4 M G",
                                  "Bl1,Bl3,Ga12,Ge4 M G", "- P:7/7 G", "Ge4 P:6/7 B"])
def test_reference_agrees_on_spec_examples(text):
    game = SlideCheckersGame()
    assert Ref(text, "GB", ref_colours(1, 1)).legal() == game.state_from_text(text).legal_action_strings()


@pytest.mark.parametrize("players,text,counts", [
    (2, "- P:7/7 G", [24, 544, 11816]),
    (2, "Bg4,Bi4,Bl12,Ge4 M G", [2, 4, 20]),
    (3, "Bb2,Ga1,Rd4 M G", [2, 4, 0]),
    (4, "Bl12,Gk2,Rf6,Yk1 M B", [5, 70, 280]),
])
def test_perft(players, text, counts):
    """Perft counts of the engine (make/unmake), equal to the reference's (checked once by
    walking the reference's legal lists)."""
    from abstracta import perft
    state = SlideCheckersGame(players=players).state_from_text(text)
    assert [perft(state, d) for d in range(1, len(counts) + 1)] == counts
    assert state.to_text() == SlideCheckersGame(players=players).state_from_text(text).to_text()
