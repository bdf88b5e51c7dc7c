"""Heuristic evaluation of Fanorona positions for the greedy and alpha-beta bots.

Material dominates (Fanorona is won by taking every enemy stone or blocking the enemy);
mobility (number of paika steps, i.e. stone/empty-neighbour pairs) breaks ties. There is no
bonus for the side to move: it was worth 0.1 between the two sides — more than two stones on
9×5 — so alpha-beta preferred lines by the parity of their length over material, and depth 6
lost to depth 5 (39 % over 32 games; 100 % of 16 without the bonus; issue 17).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from .geometry import Geometry
    from .rules import FanoronaState

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


def capture_count(g: "Geometry", own: int, opp: int) -> int:
    """Number of capture steps (approach and withdrawal, first step of a chain) ``own`` has."""
    empty = g.full ^ own ^ opp
    total = 0
    for s, _oup, _odn, _m_up, a_up, w_up, _m_dn, a_dn, w_dn in g.shifts:
        e = own & (empty >> s)
        if e:
            total += (e & a_up & (opp >> (s + s))).bit_count() + (e & w_up & (opp << s)).bit_count()
        e = own & (empty << s)
        if e:
            total += (e & a_dn & (opp << (s + s))).bit_count() + (e & w_dn & (opp >> s)).bit_count()
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


# --------------------------------------------------------------------------- tuning (issue 18 §4)
#: The terms the tuner weighs (``GameDescription.tuning``). ``captures`` and ``threats`` are
#: side-aware (issue 17: the side-blind mobility count changes sign with the parity of the
#: leaf on 5×5): the capture steps the side to move has now, and the ones the other side would
#: have if it moved, each as ``n / (n + 1)``, signed for ``player`` (+ when ``player`` moves).
TERMS = ("material", "mobility", "captures", "threats")
#: Today's weights: the side-aware terms start at 0 (then they are not even computed).
WEIGHTS = (MATERIAL_WEIGHT, MOBILITY_WEIGHT, 0.0, 0.0)


def clamp(x: float) -> float:
    """The squash of the weighted sum: a clamp to ±:data:`LIMIT`."""
    return max(-LIMIT, min(LIMIT, x))


def terms(state: "FanoronaState", player: int) -> tuple[float, float, float, float]:
    """The :data:`TERMS` of a running position from ``player``'s view."""
    g = state.game.geometry  # type: ignore[attr-defined]
    white, black = state.bitboards()
    mine, theirs = (white, black) if player == 0 else (black, white)
    m, t = mine.bit_count(), theirs.bit_count()
    mm, mt = mobility(g, mine, theirs), mobility(g, theirs, mine)
    mover, other = (mine, theirs) if state.side == player else (theirs, mine)
    sign = 1.0 if state.side == player else -1.0
    cm, co = capture_count(g, mover, other), capture_count(g, other, mover)
    return ((m - t) / (m + t), (mm - mt) / (mm + mt + 1), sign * cm / (cm + 1), -sign * co / (co + 1))


def make_evaluator(weights: tuple[float, ...]) -> Callable[["FanoronaState", int], float]:
    """:func:`evaluate` with ``weights`` for :data:`TERMS` (the same arithmetic, so today's
    weights give today's values exactly); zero-weighted side-aware terms are skipped."""
    w_mat, w_mob, w_cap, w_thr = weights
    side_aware = w_cap != 0.0 or w_thr != 0.0

    def weighted(state: "FanoronaState", player: int) -> float:
        if state.is_terminal():
            return state.returns()[player]
        g = state.game.geometry  # type: ignore[attr-defined]
        white, black = state.bitboards()
        mine, theirs = (white, black) if player == 0 else (black, white)
        m, t = mine.bit_count(), theirs.bit_count()
        material = (m - t) / (m + t)
        mm, mt = mobility(g, mine, theirs), mobility(g, theirs, mine)
        mob = (mm - mt) / (mm + mt + 1)
        value = w_mat * material + w_mob * mob
        if side_aware:
            mover, other = (mine, theirs) if state.side == player else (theirs, mine)
            sign = 1.0 if state.side == player else -1.0
            cm, co = capture_count(g, mover, other), capture_count(g, other, mover)
            value += w_cap * (sign * cm / (cm + 1)) + w_thr * (-sign * co / (co + 1))
        return max(-LIMIT, min(LIMIT, value))

    return weighted
