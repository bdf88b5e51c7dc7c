"""df-pn and its certificates (abstracta.ai.proof) against retrograde analysis of random game
graphs with cycles (a repetition draws), and a checker that refuses broken strategies."""

from __future__ import annotations

import random

import pytest

from abstracta.ai import proof as pns


class Toy:
    """A random game graph: positions 0..n-1 seen from the mover; some settled by ``known``."""

    def __init__(self, seed: int, n: int = 40):
        rng = random.Random(seed)
        self.kids: dict[int, list[int]] = {}
        self.leaf: dict[int, tuple[int, int | None]] = {}
        for node in range(n):
            roll = rng.random()
            if roll < 0.15:
                value = rng.choice((-1, 0, 1))
                self.leaf[node] = (value, None if value == 0 else (1 if value > 0 else 0) + 2 * rng.randrange(3))
            elif roll < 0.2:
                self.kids[node] = []  # no action: lost
            else:
                self.kids[node] = sorted(rng.sample(range(n), rng.randint(1, 4)))

    @classmethod
    def of(cls, kids: dict[int, list[int]], leaf: dict[int, tuple[int, int | None]] | None = None) -> "Toy":
        graph = cls(0, 0)
        graph.kids, graph.leaf = kids, leaf or {}
        return graph

    def children(self, node: int) -> list[int]:
        return self.kids[node]

    def known(self, node: int):
        return self.leaf.get(node)

    def values(self) -> dict[int, int]:
        """Exact values for the mover by retrograde analysis (unsettled at the end: draws)."""
        value = {node: v for node, (v, _) in self.leaf.items()}
        for node, kids in self.kids.items():
            if not kids:
                value[node] = -1
        changed = True
        while changed:
            changed = False
            for node, kids in self.kids.items():
                if node in value or not kids:
                    continue
                if any(value.get(c) == -1 for c in kids):
                    value[node], changed = 1, True
                elif all(value.get(c) == 1 for c in kids):
                    value[node], changed = -1, True
        return {node: value.get(node, 0) for node in range(len(self.kids) + len(self.leaf))}


def solve(graph: Toy, root: int) -> int:
    """The root's value by df-pn, every answer checked through its certificate."""
    win = pns.dfpn(graph, root, pns.WIN)
    pns.check(graph, pns.certificate(win, root, win.answer))
    if win.answer:
        return 1
    hold = pns.dfpn(graph, root, pns.HOLD)
    pns.check(graph, pns.certificate(hold, root, hold.answer))
    return 0 if hold.answer else -1


@pytest.mark.parametrize("seed", range(120))
def test_dfpn_agrees_with_retrograde_analysis_on_cyclic_graphs(seed):
    graph = Toy(seed)
    truth = graph.values()
    for root in graph.kids:
        if graph.kids[root]:
            assert solve(graph, root) == truth[root], (seed, root)


def test_a_win_certificate_counts_the_turns_of_its_longest_line():
    # 0 -> 1 -> (2: lost, no action) or 1 -> 3 -> 4 -> (5 lost)
    graph = Toy.of({0: [1], 1: [2, 3], 2: [], 3: [4], 4: [5], 5: []})
    win = pns.dfpn(graph, 0, pns.WIN)
    # 0's only turn reaches 1, whose mover wins at once: at 2 nobody can move (lost)
    assert win.answer is False
    hold = pns.dfpn(graph, 0, pns.HOLD)
    assert hold.answer is False  # 0's only move gives the opponent a win
    checked = pns.check(graph, pns.certificate(hold, 0, False))
    assert checked.turns == 2  # 0 moves, 1 takes the win by moving to 2, where nobody can move


def test_check_refuses_a_strategy_that_cycles_for_a_win_or_leaves_the_rules():
    graph = Toy.of({0: [1], 1: [0, 2], 2: []})
    # a "win" for the mover of 0 that would have the opponent at 1 always return to 0
    cycling = pns.Certificate(0, True, True, {0: 1})
    with pytest.raises(pns.CertificateError, match="cycles"):
        pns.check(graph, cycling)
    # as a hold strategy the cycle is fine only if every leaf holds: 1 may move to 2 (lost for
    # the mover of 2, the chooser) -> refused
    with pytest.raises(pns.CertificateError, match="no action"):
        pns.check(graph, pns.Certificate(0, True, False, {0: 1, 2: 0}))
    # a choice the rules do not allow
    with pytest.raises(pns.CertificateError, match="no legal turn"):
        pns.check(graph, pns.Certificate(1, True, False, {1: 5}))


def test_a_budget_stops_the_search_without_an_answer():
    graph = Toy(3, 200)
    root = next(n for n, k in graph.kids.items() if k)
    search = pns.dfpn(graph, root, pns.WIN, max_nodes=3)
    assert search.answer is None and search.nodes <= 4


@pytest.mark.parametrize("seed", range(1000, 1012))
def test_dfpn_on_larger_graphs(seed):
    graph = Toy(seed, 300)
    truth = graph.values()
    roots = [n for n, k in graph.kids.items() if k][:25]
    for root in roots:
        assert solve(graph, root) == truth[root], (seed, root)
