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


_COUNTERS: dict[int, Callable[[int, int], int]] = {}


def capture_counter(g: "Geometry") -> Callable[[int, int], int]:
    """:func:`capture_count` for the board of ``g``, generated with its masks inline (twice as
    fast: the side-aware terms run at every search leaf)."""
    counter = _COUNTERS.get(id(g))
    if counter is None:
        lines = ["def count(own, opp):", f"    empty = {g.full} ^ own ^ opp", "    n = 0"]
        for s, _oup, _odn, _m_up, a_up, w_up, _m_dn, a_dn, w_dn in g.shifts:
            for e_shift, a_shift, w_shift, a_mask, w_mask in ((f">> {s}", f">> {2 * s}", f"<< {s}", a_up, w_up),
                                                               (f"<< {s}", f"<< {2 * s}", f">> {s}", a_dn, w_dn)):
                lines += [f"    e = own & (empty {e_shift})", "    if e:",
                          f"        n += (e & {a_mask} & (opp {a_shift})).bit_count() + "
                          f"(e & {w_mask} & (opp {w_shift})).bit_count()"]
        lines.append("    return n")
        namespace: dict = {}
        exec("\n".join(lines), namespace)  # noqa: S102 - our own text, built from the geometry
        counter = _COUNTERS[id(g)] = namespace["count"]
    return counter


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


def mover_captures(state: "FanoronaState") -> int:
    """Capture steps the side to move has now (its legal actions, already generated: captures
    are compulsory, so they are all captures or none; in a chain, its continuations)."""
    legal = state.legal_actions()
    if not legal or not legal[0] % 3:  # capture ids are ≢ 0 (mod 3); paika steps and end are ≡ 0
        return 0
    return len(legal) - (legal[-1] == state.game.geometry.end_action)  # type: ignore[attr-defined]


def evaluate(state: "FanoronaState", player: int) -> float:
    """Value of ``state`` for ``player`` (0 White, 1 Black) in [-1, 1].

    Terminal states give their result. Otherwise ``0.8 * material + 0.15 * mobility``
    (each a normalised difference in [-1, 1]), clamped to ±0.95; who is to move does not count.
    The weighted evaluator (:func:`make_evaluator`) with the hand-set :data:`WEIGHTS`; a
    function of its own name, which the level fingerprints hash.
    """
    return _hand_set(state, player)


# --------------------------------------------------------------------------- tuning (issue 18 §4)
#: The terms the tuner weighs (``GameDescription.tuning``). ``captures`` and ``threats`` are
#: side-aware (issue 17: the side-blind mobility count changes sign with the parity of the
#: leaf on 5×5): the capture steps the side to move has now (:func:`mover_captures`), and the
#: ones the other side would have if it moved (threats against the mover), each as
#: ``n / (n + 1)``, signed for ``player`` (captures +, threats − when ``player`` moves).
TERMS = ("material", "mobility", "captures", "threats")
#: The hand-set weights (of :func:`evaluate`): the side-aware terms at 0 (then they are not
#: even computed).
WEIGHTS = (MATERIAL_WEIGHT, MOBILITY_WEIGHT, 0.0, 0.0)
#: Weights tuned by self-play that won their verification tournament (docs: strength.md, tuned
#: evaluators), by board size, standard rules only: there they are the default weights.
TUNED: dict[str, tuple[float, ...]] = {
    # abstracta tune fanorona --games 200 --seed 1000 (alphabeta:d3): +120 Elo (+69 … +171), 200 games
    "tsivy": (0.7511, 0.2296, 0.2601, 0.1513),
}


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
    cm, co = mover_captures(state), capture_counter(g)(other, mover)
    return ((m - t) / (m + t), (mm - mt) / (mm + mt + 1), sign * cm / (cm + 1), -sign * co / (co + 1))


def make_evaluator(weights: tuple[float, ...]) -> Callable[["FanoronaState", int], float]:
    """:func:`evaluate` with ``weights`` for :data:`TERMS` (the same arithmetic, so today's
    weights give today's values exactly); a side-aware term weighted 0 is not computed."""
    w_mat, w_mob, w_cap, w_thr = weights

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
        if w_cap:
            cm = mover_captures(state)
            value += w_cap * (cm / (cm + 1)) if state.current_player() == player else -w_cap * (cm / (cm + 1))
        if w_thr:
            if state.current_player() == player:
                co = capture_counter(g)(theirs, mine)
                value += -w_thr * (co / (co + 1))
            else:
                co = capture_counter(g)(mine, theirs)
                value += w_thr * (co / (co + 1))
        return max(-LIMIT, min(LIMIT, value))

    return weighted


_hand_set = make_evaluator(WEIGHTS)
