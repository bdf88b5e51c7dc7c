"""Heuristic evaluation of Nibble positions for the greedy and alpha-beta bots.

Spec: nibble.md §5 (the three ways to win). The value is in [-1, 1] from ``player``'s view and
combines, for both seats:

* majorities: colours already locked (≥ 5 / 7 discs) count fully, contested colours by the
  lead in them, against the 5 / 7 majorities needed;
* instant win A: best progress towards all discs of a colour the opponent does not touch;
* instant win B: best progress towards the threshold in each of three adjacent colours, over
  the runs the opponent has not already spoiled;
* threats: whether the seat to move can complete an instant win with the discs it may take
  now (legal single takes of a colour bound the discs one turn can take);
* parity: a small bonus to the mover when the number of takeable discs is odd.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable, Sequence

if TYPE_CHECKING:
    from .rules import NibbleState


def _progress(counts: list[int], other: list[int], n: int, t: int) -> tuple[float, float]:
    """(best progress to win A, best progress to win B) in [0, 1] for one collection."""
    best_a = 0.0
    for c, m in enumerate(counts):
        if other[c] == 0 and m:
            p = m / n
            if p > best_a:
                best_a = p
    best_b = 0.0
    limit = n - t
    for s in range(len(counts) - 2):
        if other[s] > limit or other[s + 1] > limit or other[s + 2] > limit:
            continue
        p = (min(counts[s], t) + min(counts[s + 1], t) + min(counts[s + 2], t)) / (3 * t)
        if p > best_b:
            best_b = p
    return best_a, best_b


def _can_win_now(state: "NibbleState", counts: list[int]) -> bool:
    """Whether the seat to move can complete an instant win in this turn (upper-bound test:
    every legal single take of a colour counted as takeable together)."""
    g = state.geometry
    end = g.cells
    per = [0] * g.colours
    for a in state.legal_actions():
        if a != end:
            per[state.board[g.bit[a]]] += 1
    n, t, k = g.per_colour, g.triple, g.colours
    for c, extra in enumerate(per):
        if not extra:
            continue
        total = counts[c] + extra
        if total >= n:
            return True
        if total >= t:
            for s in range(max(0, c - 2), min(c, k - 3) + 1):
                if all(counts[x] >= t or x == c for x in (s, s + 1, s + 2)):
                    return True
    return False


def evaluate(state: "NibbleState", player: int) -> float:
    """Value of ``state`` for seat ``player`` in [-1, 1] (terminal: the result).

    The weighted evaluator (:func:`make_evaluator`) with the hand-set :data:`WEIGHTS`; a
    function of its own name, which the level fingerprints hash.
    """
    return _hand_set(state, player)


# --------------------------------------------------------------------------- tuning (issue 18 §4)
#: The tuner's terms (``GameDescription.tuning``), from ``player``'s view: majorities (locked
#: colours and leads, over the majorities needed), cubed progress to instant wins A and B (own
#: minus the opponent's), and the side to move's instant-win threat and parity (+ when
#: ``player`` moves, − otherwise).
TERMS = ("majorities", "win_a", "win_b", "threat", "parity")
WEIGHTS = (1.2, 1.5, 1.5, 2.0, 0.03)


def squash(x: float) -> float:
    """``tanh`` clamped to ±0.95."""
    return max(-0.95, min(0.95, math.tanh(x)))


def _holdings(me: Sequence[int], opp: Sequence[int], maj: int) -> tuple[int, int, float]:
    """``(locked_me, locked_opp, lean)``: the colours each seat already holds a majority of, and
    the contested colours' leads summed, each over the majority ``maj`` (spec nibble.md §5)."""
    locked_me = locked_opp = 0
    lean = 0.0
    for m, o in zip(me, opp):
        if m >= maj:
            locked_me += 1
        elif o >= maj:
            locked_opp += 1
        else:
            lean += (m - o) / maj
    return locked_me, locked_opp, lean


def _majorities(state: "NibbleState", player: int) -> tuple[float, tuple[float, float], tuple[float, float]]:
    g = state.geometry
    me = state.coll[player]
    opp = state.coll[1 - player]
    n, t = g.per_colour, g.triple
    locked_me, locked_opp, lean = _holdings(me, opp, g.majority)
    return (locked_me - locked_opp + 0.5 * lean), _progress(me, opp, n, t), _progress(opp, me, n, t)


def terms(state: "NibbleState", player: int) -> tuple[float, float, float, float, float]:
    """The :data:`TERMS` of a running position from ``player``'s view."""
    majority, (a_me, b_me), (a_opp, b_opp) = _majorities(state, player)
    mover = state.to_move
    sign = 1.0 if mover == player else -1.0
    takeable = len(state.legal_actions()) - (1 if state.take >= 0 else 0)
    return (majority / state.geometry.majorities, a_me * a_me * a_me - a_opp * a_opp * a_opp,
            b_me * b_me * b_me - b_opp * b_opp * b_opp,
            sign if _can_win_now(state, state.coll[mover]) else 0.0, sign if takeable & 1 else 0.0)


def make_evaluator(weights: tuple[float, ...]) -> Callable[["NibbleState", int], float]:
    """:func:`evaluate` with ``weights`` for :data:`TERMS` (the same arithmetic, so today's
    weights give today's values exactly)."""
    w_maj, w_a, w_b, w_threat, w_parity = weights

    def weighted(state: "NibbleState", player: int) -> float:
        if state.winner >= 0:
            return 1.0 if state.winner == player else -1.0
        majority, (a_me, b_me), (a_opp, b_opp) = _majorities(state, player)
        x = w_maj * majority / state.geometry.majorities
        x += w_a * (a_me * a_me * a_me - a_opp * a_opp * a_opp) + w_b * (b_me * b_me * b_me - b_opp * b_opp * b_opp)
        mover = state.to_move
        sign = 1.0 if mover == player else -1.0
        if _can_win_now(state, state.coll[mover]):
            x += w_threat * sign
        takeable = len(state.legal_actions()) - (1 if state.take >= 0 else 0)
        if takeable & 1:
            x += w_parity * sign
        return max(-0.95, min(0.95, math.tanh(x)))

    return weighted


_hand_set = make_evaluator(WEIGHTS)
