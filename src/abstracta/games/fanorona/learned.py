"""Fanorona's learned value (issue 47): the features a position is judged by, and the model that
``abstracta learn fanorona`` trained on them (``learned.npz`` beside this module, 9×5 standard
rules; :class:`abstracta.core.learned.LearnedValue`).

The features extend the tuned evaluator's terms (:mod:`.evaluate`: material, mobility, the
mover's captures and the other side's threats; spec fanorona.md §3) with each side's count,
the strong points (the points with diagonals, §1) and the edge each side holds, whether a
capture chain is open, and the no-progress count (§4). All are from ``player``'s view; "signed"
ones are + when ``player`` moves and − otherwise.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ...core.learned import LearnedValue
from .evaluate import capture_counter, mobility, mover_captures
from .geometry import geometry

if TYPE_CHECKING:  # pragma: no cover
    from .rules import FanoronaState

#: The features, in the order of :func:`features` (and of the weights file).
FEATURES = (
    "material",        # (own − other) / (own + other) stones
    "own", "other",    # stones of each side / the stones a side starts with
    "mobility",        # (own − other) / (own + other + 1) paika steps
    "mobility_own", "mobility_other",  # paika steps of each side / 40
    "captures",        # signed: the mover's capture steps n, as n / (n + 1)
    "threats",         # signed against: the other side's capture steps if it moved, n / (n + 1)
    "strong",          # (own − other) stones on strong points / all stones
    "edge",            # (own − other) stones on the edge / all stones
    "chain",           # signed: a capture chain is open (the mover continues)
    "no_progress",     # turns since the last capture / 100
    "to_move",         # +1 when ``player`` moves, −1 otherwise
)


@lru_cache(maxsize=None)
def _masks(size: str) -> tuple[int, int, int]:
    """(strong points, edge points, stones a side starts with) of a board size."""
    g = geometry(size)
    strong = edge = 0
    for p in range(g.width * g.height):
        x, y = g.xy(p)
        if g.is_strong(p):
            strong |= 1 << p
        if x in (0, g.width - 1) or y in (0, g.height - 1):
            edge |= 1 << p
    return strong, edge, (g.width * g.height - 1) // 2


def features(state: "FanoronaState", player: int) -> tuple[float, ...]:
    """The :data:`FEATURES` of a running position from ``player``'s view (0 White, 1 Black)."""
    g = state.game.geometry  # type: ignore[attr-defined]
    strong, edge, start = _masks(g.size)
    white, black = state.bitboards()
    mine, theirs = (white, black) if player == 0 else (black, white)
    m, t = mine.bit_count(), theirs.bit_count()
    mm, mt = mobility(g, mine, theirs), mobility(g, theirs, mine)
    moving = state.side == player
    sign = 1.0 if moving else -1.0
    mover, other = (mine, theirs) if moving else (theirs, mine)
    cm, co = mover_captures(state), capture_counter(g)(other, mover)
    stones = m + t
    return ((m - t) / stones, m / start, t / start, (mm - mt) / (mm + mt + 1), mm / 40.0, mt / 40.0,
            sign * cm / (cm + 1), -sign * co / (co + 1),
            ((mine & strong).bit_count() - (theirs & strong).bit_count()) / stones,
            ((mine & edge).bit_count() - (theirs & edge).bit_count()) / stones,
            sign if state._ch is not None else 0.0, min(state._nc, 100) / 100.0, sign)


#: The learned value (weights read at its first evaluation). Not kept: at equal positions
#: searched it lost to the tuned evaluator, SPRT of 0 against +50 Elo rejected
#: (benchmarks/learned.py; docs: strength.md, learned values), so the levels do not play it.
LEARNED = LearnedValue(features, FEATURES, __package__, kept=False)
