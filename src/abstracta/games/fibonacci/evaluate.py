"""Fibonacci evaluator for the greedy and alpha-beta bots (Spec: fibonacci.md §3–§5, §9.2).

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

from .geometry import DEG6, DIST, NBM

if TYPE_CHECKING:
    from .rules import FibonacciState


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


#: The tuner's terms (``GameDescription.tuning``), each the player's count minus the
#: opponent's: standard and Go rules, and the cards variant (no inner-core or edge rules, a
#: bonus for three attackers on the ring).
TERMS = ("ring", "inner_core", "surround", "distance", "groups", "threat", "edge")
CARD_TERMS = ("ring", "ring3", "distance", "groups", "threat")
WEIGHTS = (0.45, 0.3, 0.6, -0.12, -0.12, -0.25, 0.2)
CARD_WEIGHTS = (0.45, 0.25, -0.12, -0.35, -0.25)
#: Weights tuned by self-play that won their verification tournament (docs: strength.md, tuned
#: evaluators), by variant: there they are the default weights.
TUNED: dict[str, tuple[float, ...]] = {
    # abstracta tune fibonacci --games 150 --seed 1000 (turns:d1): +109 Elo (+51 … +167), 150 games
    "standard": (0.3144, -0.08423, 0.6927, -0.9323, -0.09674, -0.1144, -0.1842),
}
#: Scale of the weighted sum inside ``tanh``.
SQUASH = 0.35


def _side_score(state: "FibonacciState", p: int, cards: bool, w: tuple[float, ...]) -> float:
    """One side's weighted terms. ``w`` = (ring, ring3, inner_core, surround, distance, groups,
    threat, edge); the additions run in one fixed order, so the same weights give the same float."""
    w_ring, w_ring3, w_inner, w_surround, w_dist, w_groups, w_threat, w_edge = w
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
        score += w_ring * adj + (w_ring3 if cards and adj >= 3 else 0.0)
        if not cards and enemy_core & DEG6:
            score += w_inner + (w_surround if adj >= 5 else 0.0)  # only an inner core can be surrounded
        row = DIST[ec]
        total = 0
        n = 0
        m = att
        while m:
            low = m & -m
            total += row[low.bit_length() - 1]
            n += 1
            m ^= low
        score += w_dist * (total / n)
        groups = _groups(att)
        score += w_groups * (groups - 1)
    if core:
        cb = core.bit_length() - 1
        threat = (NBM[cb] & enemy_att).bit_count()
        score += w_threat * threat
        if not cards and not core & DEG6:
            score += w_edge
    return score


def _side_counts(state: "FibonacciState", p: int, cards: bool) -> tuple[float, ...]:
    """One side's unweighted terms, in the order of :data:`TERMS` (or :data:`CARD_TERMS`)."""
    bb = state.bitboards
    att = bb[2 + 3 * p]
    core = bb[1 + 3 * p]
    enemy_core = bb[4 - 3 * p]
    enemy_att = bb[5 - 3 * p]
    adj = ring3 = inner = surround = dist = groups = threat = edge = 0.0
    if enemy_core and att:
        ec = enemy_core.bit_length() - 1
        adj = float((NBM[ec] & att).bit_count())
        ring3 = 1.0 if cards and adj >= 3 else 0.0
        if not cards and enemy_core & DEG6:
            inner = 1.0
            surround = 1.0 if adj >= 5 else 0.0
        row = DIST[ec]
        cells = [low.bit_length() - 1 for low in _bits(att)]
        dist = sum(row[c] for c in cells) / len(cells)
        groups = float(_groups(att) - 1)
    if core:
        threat = float((NBM[core.bit_length() - 1] & enemy_att).bit_count())
        if not cards and not core & DEG6:
            edge = 1.0
    if cards:
        return (adj, ring3, dist, groups, threat)
    return (adj, inner, surround, dist, groups, threat, edge)


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def terms(state: "FibonacciState", player: int) -> tuple[float, ...]:
    """The tuner's terms of a running position: ``player``'s minus the opponent's."""
    cards = state.game.variant == "cards"
    mine, theirs = _side_counts(state, player, cards), _side_counts(state, player ^ 1, cards)
    return tuple(a - b for a, b in zip(mine, theirs))


def squash(x: float) -> float:
    """``tanh(SQUASH * x)``: the weighted sum into (−1, 1)."""
    return math.tanh(SQUASH * x)


def make_evaluator(weights: tuple[float, ...], cards: bool = False):
    """:func:`evaluate` with ``weights`` for :data:`TERMS` (``cards``: :data:`CARD_TERMS`); the
    same arithmetic, so the default weights give today's values exactly."""
    if cards:
        ring, ring3, dist, groups, threat = weights
        w = (ring, ring3, 0.0, 0.0, dist, groups, threat, 0.0)
    else:
        ring, inner, surround, dist, groups, threat, edge = weights
        w = (ring, 0.0, inner, surround, dist, groups, threat, edge)

    def weighted(state: "FibonacciState", player: int) -> float:
        if state.result is not None:
            return float(state.result[player])
        x = _side_score(state, player, cards, w) - _side_score(state, player ^ 1, cards, w)
        return math.tanh(0.35 * x)

    return weighted


#: The hand-set weights in :func:`_side_score`'s order (ring, ring3, inner_core, surround, distance,
#: groups, threat, edge), per ``cards``; ``x - 0.12·d`` and ``x + (−0.12)·d`` are the same float,
#: so these give exactly the values of the former inline constants.
_HAND_SET = {False: (0.45, 0.0, 0.3, 0.6, -0.12, -0.12, -0.25, 0.2),
             True: (0.45, 0.25, 0.0, 0.0, -0.12, -0.35, -0.25, 0.0)}


def evaluate(state: "FibonacciState", player: int) -> float:
    """Heuristic value of ``state`` for ``player`` (0 Red, 1 Green) in [−1, 1]."""
    if state.result is not None:
        return float(state.result[player])
    cards = state.game.variant == "cards"
    w = _HAND_SET[cards]
    x = _side_score(state, player, cards, w) - _side_score(state, player ^ 1, cards, w)
    return math.tanh(0.35 * x)
