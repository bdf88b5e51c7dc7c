"""FROZEN COPY (commit 85db76f) of the evaluator before issue 18 §4, for the tests that the weighted evaluators with default weights equal it. Do not edit.

Heuristic evaluation of Fanorona positions for the greedy and alpha-beta bots.

Material dominates (Fanorona is won by taking every enemy stone or blocking the enemy);
mobility (number of paika steps, i.e. stone/empty-neighbour pairs) breaks ties. There is no
bonus for the side to move: it was worth 0.1 between the two sides — more than two stones on
9×5 — so alpha-beta preferred lines by the parity of their length over material, and depth 6
lost to depth 5 (39 % over 32 games; 100 % of 16 without the bonus; issue 17).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from abstracta.games.fanorona.geometry import Geometry
    from abstracta.games.fanorona.rules import FanoronaState

MATERIAL_WEIGHT = 0.8
MOBILITY_WEIGHT = 0.15
#: Values stay strictly inside (-1, 1) so that a real win always ranks above a heuristic one.
LIMIT = 0.95


def mobility(g: "Geometry", own: int, opp: int) -> int:
    """Number of plain steps (stone to an adjacent empty point along a line) for ``own``."""
    empty = g.full ^ own ^ opp
    total = 0
    for s, _oup, _odn, m_up, _a_up, _w_up, m_dn, _a_dn, _w_dn in g.shifts:
        total += (own & m_up & (empty >> s)).bit_count() + (own & m_dn & (empty << s)).bit_count()
    return total


def evaluate(state: "FanoronaState", player: int) -> float:
    """Value of ``state`` for ``player`` (0 White, 1 Black) in [-1, 1].

    Terminal states give their result. Otherwise ``0.8 * material + 0.15 * mobility``
    (each a normalised difference in [-1, 1]), clamped to ±0.95; who is to move does not count.
    """
    if state.is_terminal():
        return state.returns()[player]
    g = state.game.geometry  # type: ignore[attr-defined]
    white, black = state.bitboards()
    mine, theirs = (white, black) if player == 0 else (black, white)
    m, t = mine.bit_count(), theirs.bit_count()
    material = (m - t) / (m + t)
    mm, mt = mobility(g, mine, theirs), mobility(g, theirs, mine)
    mob = (mm - mt) / (mm + mt + 1)
    value = MATERIAL_WEIGHT * material + MOBILITY_WEIGHT * mob
    return max(-LIMIT, min(LIMIT, value))
