"""Heuristic evaluation of Fibonacci card game positions (for greedy / alpha-beta bots).

Uses only what ``player`` may see (Spec §8): his own hand, the piles, the hand sizes and the
cards he has not seen (the opponent's expected playability is the share of unseen cards that
fit the table).
"""

from __future__ import annotations

from typing import Callable

from .cards import CUT, NUM_CARDS, config_table
from .rules import FibonacciCardsState

_ALL = (1 << NUM_CARDS) - 1


def unseen_mask(state: FibonacciCardsState, player: int) -> int:
    """Bitmask of the cards ``player`` has not seen: not in his hand, not on a pile."""
    seen = state._hmask[player]
    for pile in state._piles:
        for card in pile:
            seen |= 1 << (card & ~CUT)
    return _ALL & ~seen


def evaluate(state: FibonacciCardsState, player: int) -> float:
    """Value in [-1, 1] for ``player``: the returns if terminal, else mostly the hand-size
    difference, plus own playability minus the opponent's expected playability: the weighted
    evaluator (:func:`make_evaluator`) with the hand-set :data:`WEIGHTS` (its clamp never acts
    with them), a function of its own name, which the level fingerprints hash."""
    return _hand_set(state, player)


# --------------------------------------------------------------------------- tuning (issue 18 §4)
#: The tuner's terms (``GameDescription.tuning``): the hand-size difference (fewer cards is
#: better) and own playability minus the opponent's expected playability.
TERMS = ("hand_size", "playability")
WEIGHTS = (0.7, 0.3)
#: Scale of the weighted sum; with the default weights the value stays within ±SCALE.
SCALE = 0.9


def squash(x: float) -> float:
    """``SCALE * x`` clamped to ±SCALE (the clamp never acts with the default weights)."""
    return max(-SCALE, min(SCALE, SCALE * x))


def terms(state: FibonacciCardsState, player: int) -> tuple[float, float]:
    """The :data:`TERMS` of a running position from ``player``'s view (what he may see)."""
    mine = len(state._hands[player])
    theirs = len(state._hands[1 - player])
    playable = config_table(state._cfg).playable
    unseen = unseen_mask(state, player)
    n_unseen = unseen.bit_count()
    their_frac = (playable & unseen).bit_count() / n_unseen if n_unseen else 0.0
    return ((theirs - mine) / (theirs + mine), (playable & state._hmask[player]).bit_count() / mine - their_frac)


def make_evaluator(weights: tuple[float, ...]) -> Callable[[FibonacciCardsState, int], float]:
    """:func:`evaluate` with ``weights`` for :data:`TERMS` (the same arithmetic, then the clamp)."""
    w_size, w_play = weights

    def weighted(state: FibonacciCardsState, player: int) -> float:
        if state._terminal:
            return state._returns[player]
        mine = len(state._hands[player])
        theirs = len(state._hands[1 - player])
        size_term = (theirs - mine) / (theirs + mine)
        playable = config_table(state._cfg).playable
        my_frac = (playable & state._hmask[player]).bit_count() / mine
        unseen = unseen_mask(state, player)
        n_unseen = unseen.bit_count()
        their_frac = (playable & unseen).bit_count() / n_unseen if n_unseen else 0.0
        return max(-SCALE, min(SCALE, 0.9 * (w_size * size_term + w_play * (my_frac - their_frac))))

    return weighted


_hand_set = make_evaluator(WEIGHTS)


def playout_policy(state: FibonacciCardsState, legal: list[int], rnd: Callable[[], float],
                   explore: float = 0.1) -> int:
    """A playout's play (IS-MCTS on a determinization, so the opponent's hand is the dealt one):
    the last card if it wins, else the play that leaves the opponent the fewest cards that fit
    the new table, then the most of the mover's own; a uniformly random play with chance
    ``explore`` (playouts must vary)."""
    if rnd() < explore:
        return legal[int(rnd() * len(legal))]
    player = state._player
    mine = state._hmask[player]
    theirs = state._hmask[1 - player]
    cfg = state._cfg
    best = legal[0]
    best_key = None
    for action in legal:
        card = action // 6
        rest = mine & ~(1 << card)
        if not rest:
            return action
        playable = config_table(after_play(cfg, action)).playable
        key = ((playable & theirs).bit_count() * 4 - (playable & rest).bit_count(), rnd())
        if best_key is None or key < best_key:
            best_key = key
            best = action
    return best


def after_play(cfg: int, action: int) -> int:
    """Table configuration after the play ``action`` on configuration ``cfg``."""
    card, rem = divmod(action, 6)
    pile = rem >> 1
    code = 13 if rem & 1 else card % 13
    if pile == 0:
        return code * 196 + cfg % 196
    if pile == 1:
        return cfg - (cfg // 14 % 14) * 14 + code * 14
    return cfg - cfg % 14 + code
