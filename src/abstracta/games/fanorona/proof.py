"""Fanoron-Dimy (5×5) proved by proof-number search over whole turns with the small endgame
tables at the leaves, as Schadd et al. (2008) proved Tsivy a draw with PN² and 7-stone tables
(Spec: fanorona.md §3–§4; issue 46).

* :class:`Graph` — the positions of a board at turn starts for the search
  (:mod:`abstracta.ai.proof`): a position is one integer, ``own | opp << n`` (the mover's
  stones and the other side's; the rules treat both colours alike, as the tables do); its
  children come from :func:`turn_ends_fast` (the search) or from the rules engine itself
  (:func:`.egtb.turn_ends`, the check); ``known`` reads the tables of at most ``stones`` stones.
* :func:`prove` — the start and each first turn: df-pn asks "can the mover win?" and "can he
  avoid losing?", each answer becomes a strategy (a certificate) and the strategy is checked
  position by position against the rules engine and the tables, never taken from the search.
* :class:`ProofBook` — the checked strategies as a table the strong levels and the analysis
  board read (value bounds per position, the strategy's turn, the most turns a win takes),
  saved beside the endgame tables (``fanorona-dimy-proof.npz``).

The search is handed in by the game's composing module (:mod:`.description`), which owns the
dependency on :mod:`abstracta.ai`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from . import egtb
from .egtb import Lookup
from .movegen import generators
from .rules import FanoronaGame, FanoronaState

if TYPE_CHECKING:  # pragma: no cover
    from types import ModuleType

    from .geometry import Geometry
#: Stones of the tables at the search's leaves (built in memory from the rules: 191,500
#: positions on 5×5 in about 6 s).
LEAF_STONES = 4
#: The proof book's file in the tables' directory.
BOOK_FILE = "fanorona-{size}-proof.npz"
#: A win the book vouches for must stay below the no-progress limit (Spec §4 (b)): its lines
#: are acyclic and this short, so neither draw rule can stop it.
WIN_TURN_BOUND = egtb.DISTANCE_BOUND


def turn_ends_fast(g: "Geometry") -> Callable[[int, int], set[tuple[int, int]]]:
    """``ends(own, opp)`` → the set of ``(own', opp')`` after every complete turn of the mover,
    seen from the next mover (the same positions as :func:`.egtb.turn_ends` on the rules
    engine, without its state: every position after a capture step may end a turn, by ``end``
    or because no continuation is left; Spec §3.2). Empty: the mover has no action."""
    turn_start = generators(g)[0]
    steps = g.side_act[0]
    cont, near = g.cont, g.cont_near
    capture = {a: (st[0], st[2], st[3], st[5], st[6]) for a, st in enumerate(steps) if st[4] in (1, 2)}
    move_mask = [st[0] for st in steps]

    def taken(a: int, opp: int) -> tuple[int, int, int, int]:
        mm, q, d, ray, up = capture[a]
        bl = ray & ~opp  # the line stops at the first point that is not the enemy's
        if not bl:
            return mm, q, d, ray
        if up:
            return mm, q, d, ray & ((bl & -bl) - 1)
        return mm, q, d, ray & (-1 << bl.bit_length())

    def chain(own: int, opp: int, p: int, last: int, visited: int, out: set[tuple[int, int]]) -> None:
        if not opp & near[p]:
            return
        blocked = own | opp | visited
        for d, tb, ab, wb, base in cont[p]:
            if d == last or tb & blocked:
                continue
            for a, target in ((base + 1, ab), (base + 2, wb)):
                if target & opp:
                    mm, q, dd, cap = taken(a, opp)
                    own2, opp2 = own ^ mm, opp ^ cap
                    out.add((opp2, own2))
                    if opp2:
                        chain(own2, opp2, q, dd, visited | tb, out)

    def ends(own: int, opp: int) -> set[tuple[int, int]]:
        legal = turn_start(own, opp)
        out: set[tuple[int, int]] = set()
        if not legal:
            return out
        if legal[0] % 3 == 0:  # paika: one step ends the turn
            for a in legal:
                out.add((opp, own ^ move_mask[a]))
            return out
        for a in legal:
            mm, q, d, cap = taken(a, opp)
            own2, opp2 = own ^ mm, opp ^ cap
            out.add((opp2, own2))
            if opp2:
                chain(own2, opp2, q, d, mm, out)
        return out

    return ends


class Graph:
    """A board's turn-start positions for :mod:`abstracta.ai.proof` (see the module docstring).

    Args:
        game: a standard-rules game (its board).
        lookup: tables of every material with at most ``stones`` stones.
        engine: children from the rules engine (slow, the check) instead of the fast generator.
    """

    def __init__(self, game: "FanoronaGame", lookup: Lookup, stones: int, engine: bool = False):
        self.game = game
        self.n = game.geometry.n
        self.mask = (1 << self.n) - 1
        self.lookup = lookup
        self.stones = stones
        self.engine = engine
        self._fast = turn_ends_fast(game.geometry)

    def encode(self, own: int, opp: int) -> int:
        return own | opp << self.n

    def decode(self, node: int) -> tuple[int, int]:
        return node & self.mask, node >> self.n

    def of_state(self, state: "FanoronaState") -> int:
        """The node of a turn-start ``state`` (its mover's view)."""
        white, black = state.bitboards()
        return self.encode(*((white, black) if state.side == 0 else (black, white)))

    def known(self, node: int) -> tuple[int, int | None] | None:
        own, opp = node & self.mask, node >> self.n
        if (own | opp).bit_count() > self.stones:
            return None
        return egtb.decode(self.lookup.code(own, opp))  # type: ignore[arg-type]

    def children(self, node: int) -> list[int]:
        own, opp = node & self.mask, node >> self.n
        n = self.n
        if not self.engine:
            return sorted(o | p << n for o, p in self._fast(own, opp))
        state = FanoronaState(self.game, own, opp, 0)  # the mover as White: colours are alike
        if state.is_terminal():
            return []
        out: list[tuple[int, int]] = []
        egtb.turn_ends(state, out)
        return sorted({o | p << n for o, p in out})


@dataclass(frozen=True)
class Verdict:
    """The proved value of one position for its mover, with the checked strategies."""

    value: int
    turns: int | None           # a win or loss: the most turns it takes under the strategy
    certificates: tuple[Any, ...]
    checked: tuple[Any, ...]
    nodes: int                  # positions df-pn expanded


def judge(graph: Graph, check_graph: Graph, root: int, pns: "ModuleType",
          progress: Callable[[str], None] | None = None, name: str = "") -> Verdict:
    """Prove the value of ``root`` for its mover with ``pns`` (:mod:`abstracta.ai.proof`):
    win? — then, unless won, hold? Every answer's strategy is checked on ``check_graph``.

    Raises ``pns.CertificateError`` if a strategy does not hold (the search's table misled it)."""
    say = progress or (lambda text: None)
    win = pns.dfpn(graph, root, pns.WIN)
    say(f"{name}: can the mover win? {'yes' if win.answer else 'no'} ({win.nodes:,} positions searched)")
    searches = [win]
    if win.answer:
        value = 1
    else:
        hold = pns.dfpn(graph, root, pns.HOLD)
        say(f"{name}: can the mover avoid losing? {'yes' if hold.answer else 'no'} ({hold.nodes:,} positions searched)")
        searches.append(hold)
        value = 0 if hold.answer else -1
    certs, checked = [], []
    for search in searches:
        cert = pns.certificate(search, root, search.answer)
        certs.append(cert)
        checked.append(pns.check(check_graph, cert))
        say(f"{name}: strategy checked, {len(checked[-1].positions):,} positions")
    turns = checked[0].turns if value == 1 else checked[-1].turns if value == -1 else None
    if turns is not None and turns >= WIN_TURN_BOUND:
        raise pns.CertificateError(f"{name}: a win of {turns} turns could meet the no-progress draw")
    return Verdict(value, turns, tuple(certs), tuple(checked), sum(s.nodes for s in searches))


def prove(game: "FanoronaGame", pns: "ModuleType", progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Prove the value of ``game``'s start and of each first turn (see the module docstring).

    Returns ``{"value", "first_turns": [{"turn", "value", "turns"}], "positions", "searched",
    "seconds": {...}, "book": ProofBook}``; values for White, the side to move at the start.
    Raises ``pns.CertificateError`` if a strategy fails its check."""
    say = progress or (lambda text: None)
    t0 = time.perf_counter()
    lookup, figures = egtb.solve_in_memory(game, LEAF_STONES, None, progress)
    t_tables = time.perf_counter() - t0
    say(f"tables of 2-{LEAF_STONES} stones: {sum(f['positions'] for f in figures.values()):,} positions "
        f"in {t_tables:.1f} s")
    fast = Graph(game, lookup, LEAF_STONES)
    exact = Graph(game, lookup, LEAF_STONES, engine=True)
    start = game.new_initial_state()
    root = fast.of_state(start)
    t1 = time.perf_counter()
    verdicts = {"start": judge(fast, exact, root, pns, progress, "start")}
    firsts = []
    for action in start.legal_actions():
        # each first action, finished every way it can be (a capture chain may go on)
        ends: list[tuple[int, int]] = []
        state = start.clone()
        state.apply_action(action)
        if state.current_player() == start.current_player():
            egtb.turn_ends(state, ends)
        else:
            white, black = state.bitboards()
            ends.append((black, white))
        for own, opp in sorted(set(ends)):
            node = fast.encode(own, opp)
            label = start.action_to_string(action)
            if str(node) not in verdicts:  # two first actions may end in one position
                verdicts[str(node)] = judge(fast, exact, node, pns, progress, f"after {label}")
            v = verdicts[str(node)]
            firsts.append({"turn": label, "node": node, "value": -v.value, "turns": v.turns})
    seconds = time.perf_counter() - t1
    book = ProofBook.from_verdicts(fast, verdicts.values())
    colour = ("White", "Black")
    strategies = []
    for where, v in verdicts.items():
        side = 0 if where == "start" else 1  # the root's mover
        label = "start" if where == "start" else next(f["turn"] for f in firsts if str(f["node"]) == where)
        for cert, checked in zip(v.certificates, v.checked):
            chooser = side if cert.chooser_moves_first else 1 - side
            strategies.append({"from": label, "side": colour[chooser], "kind": "win" if cert.wins else "hold",
                               "positions": len(checked.positions), "turns": checked.turns})
    return {"value": verdicts["start"].value, "first_turns": firsts, "strategies": strategies,
            "positions": len(book), "searched": sum(v.nodes for v in verdicts.values()),
            "tables": figures, "seconds": {"tables": round(t_tables, 2), "proof": round(seconds, 2)},
            "book": book}


class ProofBook:
    """What the checked strategies say about each of their positions, for its mover.

    Per position: ``lo``/``hi`` bounds of the mover's value (−1, 0, +1), ``turns`` (a proved
    win or loss: the most turns it takes under the strategy; 255 unknown) and ``best`` (the
    strategy's position after the mover's turn, where the mover chooses; 0 none). Positions
    are :class:`Graph` nodes (the mover's view)."""

    UNKNOWN_TURNS = 255

    def __init__(self, nodes: np.ndarray, lo: np.ndarray, hi: np.ndarray, turns: np.ndarray, best: np.ndarray):
        self.nodes, self.lo, self.hi, self.turns, self.best = nodes, lo, hi, turns, best
        self._index = {int(x): i for i, x in enumerate(nodes)}

    def __len__(self) -> int:
        return len(self.nodes)

    @classmethod
    def from_verdicts(cls, graph: Graph, verdicts: Any) -> "ProofBook":
        info: dict[int, list[int]] = {}
        for verdict in verdicts:
            for cert, checked in zip(verdict.certificates, verdict.checked):
                for key, turns in checked.positions.items():
                    node, chooser_moves = key >> 1, key & 1
                    if graph.known(node) is not None:
                        continue  # the tables have it
                    lo, hi, t, best = info.setdefault(node, [-1, 1, cls.UNKNOWN_TURNS, 0])
                    if cert.wins:
                        lo, hi = (1, 1) if chooser_moves else (-1, -1)
                        t = min(t, turns) if turns is not None else t
                    elif chooser_moves:
                        lo = max(lo, 0)
                    else:
                        hi = min(hi, 0)
                    if chooser_moves and node in cert.choice and (cert.wins or best == 0):
                        best = cert.choice[node]
                    info[node] = [lo, hi, t, best]
        nodes = np.array(sorted(info), dtype=np.uint64)
        rows = np.array([info[int(x)] for x in nodes], dtype=np.int64).reshape(-1, 4)
        return cls(nodes, rows[:, 0].astype(np.int8), rows[:, 1].astype(np.int8),
                   rows[:, 2].astype(np.uint8), rows[:, 3].astype(np.uint64))

    def get(self, node: int) -> tuple[int, int, int | None, int] | None:
        """``(lo, hi, turns or None, best or 0)`` of ``node`` for its mover, ``None`` if absent."""
        i = self._index.get(node)
        if i is None:
            return None
        t = int(self.turns[i])
        return int(self.lo[i]), int(self.hi[i]), None if t == self.UNKNOWN_TURNS else t, int(self.best[i])

    def save(self, path: Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npz")
        np.savez_compressed(tmp, nodes=self.nodes, lo=self.lo, hi=self.hi, turns=self.turns, best=self.best)
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> "ProofBook | None":
        try:
            with np.load(path) as f:
                return cls(f["nodes"], f["lo"], f["hi"], f["turns"], f["best"])
        except (OSError, KeyError, ValueError):
            return None


__all__ = ["BOOK_FILE", "Graph", "LEAF_STONES", "ProofBook", "Verdict", "judge", "prove", "turn_ends_fast"]
