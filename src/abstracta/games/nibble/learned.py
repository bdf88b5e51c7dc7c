"""Nibble's learned value (issue 47): the features a position is judged by, and the model that
``abstracta learn nibble`` trained on them (``learned.npz`` beside this module;
:class:`abstracta.core.learned.LearnedValue`).

The features extend the hand-set evaluator's terms (:mod:`.evaluate`, spec nibble.md §5) with
their parts seat by seat, so the model can weigh one side's progress against the other's
instead of only their difference. All are from ``player``'s view; "signed" ones are + when
``player`` moves and − otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.learned import LearnedValue
from .evaluate import _can_win_now, _holdings, _progress

if TYPE_CHECKING:  # pragma: no cover
    from .rules import NibbleState

#: The features, in the order of :func:`features` (and of the weights file).
FEATURES = (
    "majorities",     # the hand-set term: locked colours and leads, over the majorities needed
    "win_a",          # the hand-set term: own cubed progress to instant win A − the opponent's
    "win_b",          # the same for instant win B
    "threat",         # signed: the mover can complete an instant win this turn
    "parity",         # signed: an odd number of takeable discs
    "a_own", "a_opp",  # progress to instant win A, each seat, in [0, 1]
    "b_own", "b_opp",  # progress to instant win B, each seat
    "locked_own", "locked_opp",  # colours already held by a majority / majorities needed
    "lean",           # contested colours' leads / colours
    "taken_own", "taken_opp",  # discs taken / discs on the board at the start
    "takeable",       # discs the mover may take now / 10
    "open_take",      # signed: a take is in progress (the mover may take more of its colour)
    "to_move",        # +1 when ``player`` moves, −1 otherwise
    "reachable_own", "reachable_opp",  # open colours each seat may still win (taken + left ≥ a
                      # majority) / majorities needed
    "locks_now",      # signed: open colours the mover can win this turn with the discs free now
    "best_take",      # signed: the most majority progress one take of free discs gives the mover / majority
    "decided",        # colours already won by either seat / colours (how far the game is)
)


def features(state: "NibbleState", player: int) -> tuple[float, ...]:
    """The :data:`FEATURES` of a running position from ``player``'s view (0 or 1)."""
    g = state.geometry
    me, opp = state.coll[player], state.coll[1 - player]
    n, t, maj, k = g.per_colour, g.triple, g.majority, g.colours
    locked_me, locked_opp, lean = _holdings(me, opp, maj)
    a_me, b_me = _progress(me, opp, n, t)
    a_opp, b_opp = _progress(opp, me, n, t)
    mover = state.to_move
    sign = 1.0 if mover == player else -1.0
    legal = state.legal_actions()
    takeable = len(legal) - (1 if state.take >= 0 else 0)
    majorities = g.majorities
    free = [0] * k
    end = g.cells
    board = state.board
    for a in legal:
        if a != end:
            free[board[g.bit[a]]] += 1
    mover_coll = state.coll[mover]
    reach_me = reach_opp = locks = 0
    best = 0
    for c in range(k):
        m, o = me[c], opp[c]
        if m >= maj or o >= maj:
            continue
        left = n - m - o
        reach_me += m + left >= maj
        reach_opp += o + left >= maj
        mine = mover_coll[c]
        if state.take >= 0 and c != state.take:
            continue  # an open take continues in its own colour only
        gain = min(free[c], maj - mine)
        locks += mine + free[c] >= maj
        best = max(best, gain)
    return ((locked_me - locked_opp + 0.5 * lean) / majorities,
            a_me * a_me * a_me - a_opp * a_opp * a_opp, b_me * b_me * b_me - b_opp * b_opp * b_opp,
            sign if _can_win_now(state, state.coll[mover]) else 0.0, sign if takeable & 1 else 0.0,
            a_me, a_opp, b_me, b_opp, locked_me / majorities, locked_opp / majorities, lean / k,
            sum(me) / g.cells, sum(opp) / g.cells, takeable / 10.0, sign if state.take >= 0 else 0.0, sign,
            reach_me / majorities, reach_opp / majorities, sign * locks, sign * best / maj,
            (locked_me + locked_opp) / k)


#: The learned value (weights read at its first evaluation), trained on the 9×9 board. Kept:
#: at equal positions searched it beat the hand-set evaluator, SPRT of 0 against +50 Elo
#: accepted (benchmarks/learned.py; docs: strength.md, learned values), so levels 4–6 play it.
LEARNED = LearnedValue(features, FEATURES, __package__, kept=True)
