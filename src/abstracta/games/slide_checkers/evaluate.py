"""Heuristic evaluation for Slide Checkers search bots (material, mobility, threats).

Spec: slide-checkers.md §4–§5 (the rules it estimates). Written for two players; with more
players the opponents are pooled (their average counts as "the opponent").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import NUM_SQUARES, SIZE
from .tables import DIRECTIONS, FULL, dilate

if TYPE_CHECKING:
    from .rules import SlideCheckersState


def _pairs(sq: int) -> tuple[tuple[int, int], ...]:
    x, y = divmod(sq, SIZE)
    out = []
    for dx, dy in DIRECTIONS[:4]:
        ax, ay, bx, by = x - dx, y - dy, x + dx, y + dy
        if 0 <= ax < SIZE and 0 <= ay < SIZE and 0 <= bx < SIZE and 0 <= by < SIZE:
            out.append((ax * SIZE + ay, bx * SIZE + by))
    return tuple(out)


#: _PAIRS[sq]: the opposite neighbour pairs (a, b) of sq (a piece on a can jump sq to b and back)
_PAIRS = tuple(_pairs(sq) for sq in range(NUM_SQUARES))


def _threatened(targets: int, attackers: int, empty: int) -> int:
    """Pieces of ``targets`` that a piece of ``attackers`` could jump directly (ignoring launches)."""
    count = 0
    b = targets & dilate(attackers)
    while b:
        low = b & -b
        sq = low.bit_length() - 1
        b ^= low
        for a, b2 in _PAIRS[sq]:
            if (attackers >> a & 1 and empty >> b2 & 1) or (attackers >> b2 & 1 and empty >> a & 1):
                count += 1
                break
    return count


def evaluate(state: "SlideCheckersState", player: int) -> float:
    """Value of ``state`` for seat ``player`` in [-1, 1] (+1 = certainly winning).

    Terminal states give their return. Weights: material 0.6, threats 0.25, mobility 0.15.
    """
    if state.is_terminal():
        return float(state.returns()[player])
    n = state.num_players
    bbs = [state.pieces(i) for i in range(n)]
    own = bbs[player]
    others = 0
    for i, b in enumerate(bbs):
        if i != player:
            others |= b
    occ = own | others
    empty = FULL ^ occ
    mine = own.bit_count()
    alive = max(1, sum(1 for i, b in enumerate(bbs) if i != player and b))
    theirs = others.bit_count() / alive
    to_place = state.to_place
    mine += to_place[player]
    theirs += sum(r for i, r in enumerate(to_place) if i != player) / max(1, n - 1)
    if mine + theirs == 0:
        return 0.0
    material = (mine - theirs) / (mine + theirs)
    my_threat = _threatened(others, own, empty)
    their_threat = _threatened(own, others, empty) / alive
    threat = (my_threat - their_threat) / (my_threat + their_threat + 2.0)
    my_mob = (dilate(own) & empty).bit_count()
    their_mob = (dilate(others) & empty).bit_count() / alive
    mobility = (my_mob - their_mob) / (my_mob + their_mob + 1.0)
    value = 0.6 * material + 0.25 * threat + 0.15 * mobility
    return max(-0.99, min(0.99, value))
