"""Proof-number search over whole turns (df-pn) and proofs checked position by position.

Game-independent. A game hands in a :class:`ProofGraph` of *positions at the start of a turn*,
each an integer the game encodes (board and pieces, seen from the side to move: a position's
value belongs to its mover):

* ``children(node)`` — the positions after every complete turn of the mover (the other side
  moves next); none: the mover has no action and has lost (the games solved here lose then);
* ``known(node)`` — ``(value, distance)`` for the mover where the game knows it without search
  (endgame tables): value +1 / 0 / −1, distance in turns to the end (``None`` for a draw);
  ``None`` elsewhere.

Two questions are asked of a root, for its mover (the *attacker*): ``"win"`` — can he force a
win? — and ``"hold"`` — can he avoid losing? Win proved: the root is won; hold disproved: lost;
win disproved and hold proved: drawn.

:func:`dfpn` is depth-first proof-number search (Nagai 2002) with a transposition table and the
1 + ε threshold trick (Pawlewicz & Lew 2007). A position that occurs again on the current line
is a draw there (Spec: fanorona.md §4 counts a repetition a draw; a cycle of play never ends).
That is a property of the line, not of the position (the graph-history interaction problem),
so what the table remembers can be wrong for another line: the search's answer is *not* taken
as the result. :func:`certificate` reads a strategy out of its table and :func:`check` proves
it again from nothing but ``children`` and ``known``:

* a **win** certificate (the chooser wins) gives the chooser's turn at each of his positions
  and every turn of the other side; it must be acyclic, every leaf a win for the chooser, and
  its longest line (plus the leaves' own distances) is the number of turns the win takes at
  most;
* a **hold** certificate (the chooser does not lose) is the same with every leaf a draw or a
  win for the chooser, and cycles allowed: the chooser's strategy never leaves the set, and the
  set holds no position he has lost, so play either cycles (a draw by the repetition rule) or
  ends in a leaf that is not lost for him.

Both hold under the real rules' draws (repetition, no progress): those only end games drawn.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

#: Proof and disproof numbers of a settled position.
INF = 1 << 60
#: Threshold slack of the 1 + ε trick: a child is searched until its number passes the second
#: best's by this fraction (fewer switches between siblings).
EPSILON = 0.25
WIN, HOLD = "win", "hold"


class ProofGraph(Protocol):
    """Positions at turn starts as integers (see the module docstring)."""

    def children(self, node: int) -> Sequence[int]:
        ...

    def known(self, node: int) -> tuple[int, int | None] | None:
        ...


class BudgetSpent(Exception):
    """The search visited its ``max_nodes`` positions without an answer."""


def _saturated(total: int, vals: list[tuple[int, int, int]], i: int) -> int:
    """A sum of proof (``i`` 0) or disproof numbers: :data:`INF` only where a term is (a settled
    child), else at most ``INF - 1`` — a large sum is not a settled position."""
    if total < INF - 1:
        return total
    return INF if any(v[i] >= INF for v in vals) else INF - 1


#: "depends on no position of the line" (a settled entry that holds wherever it is reached)
FREE = 1 << 30


@dataclass
class ProofSearch:
    """One df-pn run: the graph, the question, and the transposition table it fills.

    A position settled in the hold side's favour (win disproved, hold proved) may rest on a
    repetition of a position higher on the line; it then holds only while that line is played
    (the graph-history interaction). Such a result is kept only by the positions above it on
    the line while they are searched, never in the table; a repetition of the position itself
    is no dependency (the hold side can keep cycling through it), so the position that closes
    every cycle its result rests on stores it. (A simple, safe form of what Kishimoto & Müller
    (2004) do: positions below the cycle are searched again when met on another line.)

    Attributes:
        table: ``{key: (proof number, disproof number)}`` with ``key = node * 2 + attacker``
            (``attacker`` 1 where the attacker is to move).
        nodes: positions expanded.
        answer: after :meth:`run`: True (proved), False (disproved), None (budget spent).
    """

    graph: ProofGraph
    goal: str
    max_nodes: int | None = None
    table: dict[int, tuple[int, int]] = field(default_factory=dict)
    nodes: int = 0
    answer: bool | None = None

    def __post_init__(self) -> None:
        if self.goal not in (WIN, HOLD):
            raise ValueError(f"goal must be {WIN!r} or {HOLD!r}, got {self.goal!r}")
        #: the current line: key -> its depth on the line, and the keys by depth
        self.line: dict[int, int] = {}
        self.stack: list[int] = []
        # index into (pn, dn) that is 0 where the hold side (the side a repetition serves) has
        # succeeded, and the attacker flag of the positions where the hold side chooses
        self._hold_index = 1 if self.goal == WIN else 0
        self._hold_chooser = 0 if self.goal == WIN else 1

    # --- values ------------------------------------------------------------------------------
    def _settled(self, value: int, attacker: int) -> tuple[int, int]:
        """(pn, dn) of a position whose value for its mover is ``value``."""
        mine = value if attacker else -value
        ok = mine > 0 if self.goal == WIN else mine >= 0
        return (0, INF) if ok else (INF, 0)

    def numbers(self, key: int) -> tuple[int, int, int]:
        """(pn, dn, FREE) of ``key``: the table's, a known value's, else (1, 1) for a new
        position (the third number: see :meth:`_mid`)."""
        entry = self.table.get(key)
        if entry is not None:
            return entry[0], entry[1], FREE
        found = self.graph.known(key >> 1)
        if found is not None:
            entry = self.table[key] = self._settled(found[0], key & 1)
            return entry[0], entry[1], FREE
        return 1, 1, FREE

    # --- the search ---------------------------------------------------------------------------
    def run(self, root: int) -> bool | None:
        """Prove (True) or disprove (False) the goal for the mover of ``root``; ``None`` when the
        budget ran out first (the table keeps what was found)."""
        key = root * 2 + 1
        pn, dn, _ = self.numbers(key)
        if pn and dn:
            try:
                pn, dn, _ = self.settle(key)
            except BudgetSpent:
                return None
        return True if pn == 0 else False if dn == 0 else None

    def settle(self, key: int) -> tuple[int, int, int | None]:
        """Search ``key`` until it is settled, below the current :attr:`line` (empty for a new
        root; :func:`certificate` sets it to the strategy's line). Returns its numbers and,
        where the hold side chooses and has succeeded, the key of the position his best turn
        reaches (else ``None``)."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 200_000))  # one frame a turn of the deepest line
        try:
            pn, dn, _, pick = self._mid(key, INF, INF)
            return pn, dn, pick
        finally:
            sys.setrecursionlimit(limit)

    def _mid(self, key: int, thpn: int, thdn: int) -> tuple[int, int, int, int | None]:
        """One df-pn visit of ``key`` (thresholds ``thpn``, ``thdn``): ``(pn, dn, depth, pick)``.

        ``depth``: a result settled for the hold side that rests on a repetition of a position
        above on the line gives that position's depth (the shallowest such), else :data:`FREE`;
        only a free result goes to the table. ``pick``: the hold side's turn that settled it,
        where he chooses."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise BudgetSpent
        attacker = key & 1
        kids = [c * 2 + (attacker ^ 1) for c in self.graph.children(key >> 1)]
        if not kids:  # the mover has no action: lost
            entry = self.table[key] = self._settled(-1, attacker)
            return entry[0], entry[1], FREE, None
        line, stack = self.line, self.stack
        mine = len(stack)
        outer = line.get(key)  # a position searched again from within its own line (settle)
        line[key] = mine
        stack.append(key)
        numbers = self.numbers
        repeated = (INF, 0) if self.goal == WIN else (0, INF)
        hi, hold_chooses = self._hold_index, attacker == self._hold_chooser
        local: dict[int, tuple[int, int, int]] = {}  # results resting on the line above
        try:
            while True:
                vals = [(*repeated, line[c]) if c in line else local.get(c) or numbers(c) for c in kids]
                if attacker:  # OR: the attacker chooses
                    best = 0
                    pn, pn2, dn = INF, INF, 0
                    for i, (p, d, _) in enumerate(vals):
                        dn += d
                        if p < pn:
                            pn, pn2, best = p, pn, i
                        elif p < pn2:
                            pn2 = p
                    dn = _saturated(dn, vals, 1)
                    if pn >= thpn or dn >= thdn:
                        break
                    cp = min(thpn, int(pn2 * (1 + EPSILON)) + 1)
                    cd = thdn - dn + vals[best][1]
                else:  # AND: the defender chooses
                    best = 0
                    dn, dn2, pn = INF, INF, 0
                    for i, (p, d, _) in enumerate(vals):
                        pn += p
                        if d < dn:
                            dn, dn2, best = d, dn, i
                        elif d < dn2:
                            dn2 = d
                    pn = _saturated(pn, vals, 0)
                    if pn >= thpn or dn >= thdn:
                        break
                    cd = min(thdn, int(dn2 * (1 + EPSILON)) + 1)
                    cp = thpn - pn + vals[best][0]
                r = self._mid(kids[best], cp, cd)
                if r[2] != FREE:
                    local[kids[best]] = r[:3]
        finally:
            stack.pop()
            if outer is None:
                del line[key]
            else:
                line[key] = outer
        depth, pick = FREE, None
        if (pn, dn)[hi] == 0:  # settled for the hold side: on which line positions does it rest?
            if hold_chooses:  # one good turn is enough: the one resting on the least
                i = max((i for i, v in enumerate(vals) if v[hi] == 0), key=lambda i: vals[i][2])
                depth, pick = vals[i][2], kids[i]
            else:             # every turn must be good
                depth = min(v[2] for v in vals)
            if depth >= mine:
                depth = FREE  # only on itself or on nothing: it holds wherever it is met
        if depth == FREE:
            self.table[key] = (pn, dn)
        return pn, dn, depth, pick


def dfpn(graph: ProofGraph, root: int, goal: str, max_nodes: int | None = None,
         table: dict[int, tuple[int, int]] | None = None) -> "ProofSearch":
    """Run df-pn for ``goal`` (:data:`WIN` or :data:`HOLD`) from ``root``; the returned
    :class:`ProofSearch` holds the answer (``.answer``), its table and its node count. ``table``
    continues an earlier run's table for the same goal."""
    search = ProofSearch(graph, goal, max_nodes, table if table is not None else {})
    search.answer = search.run(root)
    return search


# --- certificates ------------------------------------------------------------------------------

class CertificateError(ValueError):
    """A strategy that does not prove what it claims (the message says where)."""


@dataclass(frozen=True)
class Certificate:
    """A strategy of one side from ``root`` (see the module docstring).

    Attributes:
        root: the position (its mover moves first).
        chooser_moves_first: the chooser is the root's mover (else the other side).
        wins: a win certificate (acyclic; else a hold certificate, cycles allowed).
        choice: ``{position: the position after the chooser's turn}`` at the chooser's
            positions that are not leaves.
    """

    root: int
    chooser_moves_first: bool
    wins: bool
    choice: dict[int, int]


def certificate(search: ProofSearch, root: int, answer: bool) -> Certificate:
    """The strategy behind ``search``'s ``answer`` for ``root`` (True: the goal proved, the
    attacker chooses; False: disproved, the defender chooses), read from its table: at each of
    the chooser's positions a turn that keeps the result (into the strategy already, else one
    the table settled for him), at the other side's every turn.

    The strategy's current line is the search's line, so a hold entry resting on a position of
    it counts (play that cycles back stays in the strategy); where the table offers no turn the
    position is searched again from there (:meth:`ProofSearch.settle`). A win strategy, which must
    not cycle, tries the next turn where one would close a cycle. A position that fails is taken
    out with every position finished below it.

    Raises :class:`CertificateError` where no strategy is found (then the answer is not proved).
    """
    graph = search.graph
    wins = (search.goal == WIN) == answer  # the chooser wins: win proved, or hold disproved
    chooser = 1 if answer else 0  # the attacker flag of the chooser's positions
    good = 0 if answer else 1      # index into (pn, dn) that is 0 where the chooser succeeds
    choice: dict[int, int] = {}
    done: set[int] = set()      # positions in the strategy (finished)
    finished: list[int] = []    # the same, in the order they were finished
    line, stack = search.line, search.stack
    line.clear()
    stack.clear()

    def inside(c: int) -> bool:
        return c in done or (c in line and not wins)

    def leaf_ok(node: int, attacker: int) -> bool:
        value = graph.known(node)[0]  # type: ignore[index]
        mine = value if attacker == chooser else -value
        return mine > 0 if wins else mine >= 0

    def fail(key: int, mark: int) -> bool:
        for k in finished[mark:]:
            done.discard(k)
            choice.pop(k >> 1, None)
        del finished[mark:]
        return False

    def extract(key: int) -> bool:
        node, attacker = key >> 1, key & 1
        mark = len(finished)
        if graph.known(node) is not None:
            if not leaf_ok(node, attacker):
                return False
        else:
            kids = [c * 2 + (attacker ^ 1) for c in graph.children(node)]
            line[key] = len(stack)
            stack.append(key)
            try:
                if attacker == chooser and kids:
                    pick = next((c for c in kids if inside(c)), None)
                    if pick is None:
                        for c in kids:
                            if c not in line and c not in done and search.numbers(c)[good] == 0 and extract(c):
                                pick = c
                                break
                    if pick is None and not wins:
                        # the table's answer here rested on a repetition of another line: search
                        # again below this strategy's line
                        settled = search.settle(key)
                        c = settled[2]
                        if settled[good] == 0 and c is not None and (inside(c) or extract(c)):
                            pick = c
                    if pick is None:
                        return fail(key, mark)
                    choice[node] = pick >> 1
                else:
                    if not kids and attacker == chooser:
                        return False  # the chooser has lost here
                    for c in kids:
                        if inside(c):
                            continue
                        if c in line or not extract(c):
                            return fail(key, mark)
            finally:
                stack.pop()
                del line[key]
        done.add(key)
        finished.append(key)
        return True

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 200_000))
    try:
        if not extract(root * 2 + 1):
            raise CertificateError(f"position {root}: no strategy found for the search's answer")
    finally:
        sys.setrecursionlimit(limit)
        line.clear()
        stack.clear()
    return Certificate(root, bool(answer), wins, choice)


@dataclass(frozen=True)
class Checked:
    """What :func:`check` established.

    Attributes:
        positions: ``{node * 2 + chooser_moves: turns}`` for every position of the strategy
            (``chooser_moves`` 1 where the chooser is to move there): for a win certificate the
            most turns to the end from there under the strategy (the leaves' own distances
            included), for a hold certificate ``None``.
        leaves: positions settled by ``known`` or without an action.
        turns: for a win certificate, the most turns the win takes from the root; else ``None``.
    """

    positions: dict[int, int | None]
    leaves: int
    turns: int | None


def check(graph: ProofGraph, cert: Certificate) -> Checked:
    """Check ``cert`` against ``graph`` alone (its ``children`` and ``known``), position by
    position (see the module docstring). Returns the figures; raises :class:`CertificateError`
    at the first position that does not hold."""
    wins = cert.wins
    state: dict[int, int] = {}  # 1 on the current line, 2 done
    distance: dict[int, int | None] = {}
    leaves = 0
    # an iterative depth-first walk (lines are long); post-order fills a win's distances
    stack: list[tuple[int, list[int], int]] = []

    def enter(key: int) -> None:
        nonlocal leaves
        state[key] = 1
        node, chooser_moves = key >> 1, key & 1
        found = graph.known(node)
        if found is not None:
            leaves += 1
            value, d = found
            mine = value if chooser_moves else -value
            if mine < 0 or (wins and mine == 0):
                raise CertificateError(f"position {node}: a leaf the chooser does not {'win' if wins else 'hold'}")
            distance[key] = (d or 0) if wins else None
            stack.append((key, [], 0))
            return
        kids = list(graph.children(node))
        if not kids:
            leaves += 1
            if chooser_moves:
                raise CertificateError(f"position {node}: the chooser has no action there (lost)")
            distance[key] = 0 if wins else None
            stack.append((key, [], 0))
            return
        if chooser_moves:
            pick = cert.choice.get(node)
            if pick is None or pick not in kids:
                raise CertificateError(f"position {node}: the certificate gives no legal turn of the chooser")
            kids = [pick]
        stack.append((key, [c * 2 + (chooser_moves ^ 1) for c in kids], 0))

    enter(cert.root * 2 + cert.chooser_moves_first)
    while stack:
        key, kids, i = stack[-1]
        if i < len(kids):
            stack[-1] = (key, kids, i + 1)
            s = state.get(kids[i])
            if s is None:
                enter(kids[i])
            elif s == 1 and wins:
                raise CertificateError(f"position {kids[i] >> 1}: the win strategy cycles")
            continue
        stack.pop()
        state[key] = 2
        if kids:
            distance[key] = 1 + max(distance[c] for c in kids) if wins else None  # type: ignore[operator]
    root = cert.root * 2 + cert.chooser_moves_first
    return Checked(distance, leaves, distance[root] if wins else None)


def timed(fn: Callable[[], object]) -> tuple[object, float]:
    """``(fn(), seconds)`` — wall-clock seconds, for the figures a solver reports."""
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


__all__ = ["Certificate", "CertificateError", "Checked", "HOLD", "INF", "ProofGraph", "ProofSearch", "WIN",
           "certificate", "check", "dfpn", "timed"]
