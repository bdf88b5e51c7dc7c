"""The Fibonacci card game's tensors for the research adapters (issues 19, 45; Spec §1–§8).

Cards are indexed as in ``cards.py`` (``suit * 13 + rank``: 0 = Ac … 51 = Ks).

==================  =======  ===============================================================
name                shape    value
==================  =======  ===============================================================
own_hand            (52,)    1 at each card in the observer's hand
pile_tops           (3, 14)  per pile, one-hot of its code: top card's rank 0..12, 13 = cut down
pile_cards          (52,)    1 at every card lying in the three piles (public)
opponent_hand_size  (1,)     cards in the other hand / 52
stock_size          (1,)     cards in the stock / 33
to_move             (1,)     1 when the observer is to move
must_play_drawn     (1,)     1 while the mover must play the card just drawn (§4, the D flag)
==================  =======  ===============================================================

The information state appends ``own_draws`` and ``opponent_draws`` (1,): draws each seat
made so far / 33 (a draw's card is known to its drawer only: his hand shows it). 150 floats
(observation), 152 (information state).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.options import check_player
from ...core.tensors import Features, Layout, Plane, TensorSpec
from .cards import CUT, DRAW, pile_code

if TYPE_CHECKING:  # pragma: no cover
    from .rules import FibonacciCardsGame, FibonacciCardsState

PLANES = (
    Plane("own_hand", (52,), "1 at each card in the observer's hand"),
    Plane("pile_tops", (3, 14), "per pile, one-hot of the top card's rank 0..12, 13 = cut down"),
    Plane("pile_cards", (52,), "1 at every card lying in the piles"),
    Plane("opponent_hand_size", (1,), "cards in the other hand / 52"),
    Plane("stock_size", (1,), "cards in the stock / 33"),
    Plane("to_move", (1,), "1 when the observer is to move"),
    Plane("must_play_drawn", (1,), "1 while the mover must play the card just drawn"),
)
INFO_PLANES = PLANES + (
    Plane("own_draws", (1,), "draws the observer made / 33"),
    Plane("opponent_draws", (1,), "draws the other seat made / 33"),
)


def _layout(planes: tuple[Plane, ...]) -> Layout:
    """Blocks: hand (card bitmask), pile tops (bit ``pile * 14 + code``), pile cards, to move,
    must play drawn. Scalars: the other hand's size, the stock's, then (information state) the
    draws of each seat."""
    layout = Layout(planes)
    tables = [layout.cells(name) for name in ("own_hand", "pile_tops", "pile_cards", "to_move", "must_play_drawn")]
    scalars = [layout.scalar_of("opponent_hand_size"), layout.scalar_of("stock_size")]
    divisors = [52, 33]
    if "own_draws" in layout.offsets:
        scalars += [layout.scalar_of("own_draws"), layout.scalar_of("opponent_draws")]
        divisors += [33, 33]
    return layout.with_blocks(tables, scalars=scalars, divisors=divisors)


OBSERVATION = _layout(PLANES)
INFORMATION_STATE = _layout(INFO_PLANES)


class FibonacciCardsTensors(TensorSpec):
    """Spec: fibonacci-cards.md §1–§8."""

    def __init__(self, game: "FibonacciCardsGame"):
        self.game = game
        self.observation = OBSERVATION
        self.information_state = INFORMATION_STATE

    def observation_features(self, state: "FibonacciCardsState", player: int) -> Features:
        """Raises ``ValueError`` for a player that is not 0 or 1."""
        if type(player) is not int or player >> 1:  # a plain int 0 or 1 passes at once
            player = check_player(player, 2)
        tops = cards = 0
        for i, pile in enumerate(state._piles):
            tops |= 1 << (i * 14 + pile_code(pile[-1]))
            for card in pile:
                cards |= 1 << (card & ~CUT)
        return ((state._hmask[player], tops, cards, 1 if state.current_player() == player else 0,
                 1 if state._drawn else 0), (len(state._hands[1 - player]), len(state._stock)))

    def information_state_features(self, state: "FibonacciCardsState", player: int) -> Features:
        blocks, scalars = self.observation_features(state, player)
        draws = [0, 0]
        for action, who, *_ in state._log:
            if action == DRAW:
                draws[who] += 1
        return blocks, (*scalars, draws[player], draws[1 - player])


def info_planes(game: object) -> tuple[Plane, ...]:
    return INFO_PLANES


def planes(game: object) -> tuple[Plane, ...]:
    return PLANES
