"""FROZEN COPY (commit 85db76f) of the evaluator before issue 18 §4, for the tests that the weighted evaluators with default weights equal it. Do not edit.

Fibonacci evaluator for the greedy and alpha-beta bots (Spec: fibonacci.md §3–§5, §9.2).

Terms, each as (player − opponent) unless stated:

* attackers adjacent to the enemy core (the winning ring; in the cards variant ≥ 3 of them);
* mean distance of the attack pieces to the enemy core (closer is better);
* connectivity: fewer attack groups (bigger groups reach further, §4) — decisive in the cards
  variant, where all six must form one group;
* own-core safety: enemy attackers next to your core cost moves (§3 reduction) and threaten the
  ring; a core on the edge cannot be surrounded in the standard rules (§5).

The weighted sum is squashed with ``tanh`` into (−1, 1); terminal states give their result.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from abstracta.games.fibonacci.geometry import DEG6, DIST, NBM

if TYPE_CHECKING:
    from abstracta.games.fibonacci.rules import FibonacciState


_GROUP_COUNT: dict[int, int] = {}


def _groups(mask: int) -> int:
    """Number of connected groups of ``mask`` (memoised)."""
    n = _GROUP_COUNT.get(mask)
    if n is not None:
        return n
    key = mask
    n = 0
    while mask:
        g = mask & -mask
        while True:
            ng = g | (((g << 1) | (g >> 1) | (g << 12) | (g >> 12) | (g << 13) | (g >> 13)) & mask)
            if ng == g:
                break
            g = ng
        mask ^= g
        n += 1
    if len(_GROUP_COUNT) >= 50_000:
        _GROUP_COUNT.clear()
    _GROUP_COUNT[key] = n
    return n


def _side_terms(state: "FibonacciState", p: int, cards: bool) -> float:
    bb = state.bitboards
    att = bb[2 + 3 * p]
    core = bb[1 + 3 * p]
    enemy_core = bb[4 - 3 * p]
    enemy_att = bb[5 - 3 * p]
    score = 0.0
    if enemy_core and att:
        ec = enemy_core.bit_length() - 1
        ring = NBM[ec]
        adj = (ring & att).bit_count()
        score += 0.45 * adj + (0.25 if cards and adj >= 3 else 0.0)
        if not cards and enemy_core & DEG6:
            score += 0.3 + (0.6 if adj >= 5 else 0.0)  # only an inner core can be surrounded
        row = DIST[ec]
        total = 0
        n = 0
        m = att
        while m:
            low = m & -m
            total += row[low.bit_length() - 1]
            n += 1
            m ^= low
        score -= 0.12 * (total / n)
        groups = _groups(att)
        score -= (0.35 if cards else 0.12) * (groups - 1)
    if core:
        cb = core.bit_length() - 1
        threat = (NBM[cb] & enemy_att).bit_count()
        score -= 0.25 * threat
        if not cards and not core & DEG6:
            score += 0.2
    return score


def evaluate(state: "FibonacciState", player: int) -> float:
    """Heuristic value of ``state`` for ``player`` (0 Red, 1 Green) in [−1, 1]."""
    if state.result is not None:
        return float(state.result[player])
    cards = state.game.variant == "cards"
    x = _side_terms(state, player, cards) - _side_terms(state, player ^ 1, cards)
    return math.tanh(0.35 * x)
