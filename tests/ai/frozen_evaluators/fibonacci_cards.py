"""FROZEN COPY (commit 85db76f) of the evaluator before issue 18 §4, for the tests that the weighted evaluators with default weights equal it. Do not edit.

Heuristic evaluation of Fibonacci card game positions (for greedy / alpha-beta bots).

Uses only what ``player`` may see (Spec §8): his own hand, the piles, the hand sizes and the
cards he has not seen (the opponent's expected playability is the share of unseen cards that
fit the table).
"""

from __future__ import annotations

from abstracta.games.fibonacci_cards.cards import CUT, NUM_CARDS, config_table
from abstracta.games.fibonacci_cards.rules import FibonacciCardsState

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
    difference, plus own playability minus the opponent's expected playability."""
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
    return 0.9 * (0.7 * size_term + 0.3 * (my_frac - their_frac))
