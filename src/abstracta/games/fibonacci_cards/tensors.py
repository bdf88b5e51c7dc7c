"""The Fibonacci card game's tensors for the research adapters (issue 19; Spec §1–§8).

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

from ...core.game import check_player
from ...core.tensors import Plane, TensorBuilder
from .cards import CUT, DRAW, pile_code

if TYPE_CHECKING:  # pragma: no cover
    from .rules import FibonacciCardsState

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


def _fill(state: "FibonacciCardsState", player: int, t: TensorBuilder) -> None:
    player = check_player(player, 2)
    for card in state._hands[player]:
        t.set("own_hand", card)
    for i, pile in enumerate(state._piles):
        t.set("pile_tops", i * 14 + pile_code(pile[-1]))
        for card in pile:
            t.set("pile_cards", card & ~CUT)
    t.set("opponent_hand_size", 0, len(state._hands[1 - player]) / 52.0)
    t.set("stock_size", 0, len(state._stock) / 33.0)
    if state.current_player() == player:
        t.set("to_move", 0)
    if state._drawn:
        t.set("must_play_drawn", 0)


def observation_tensor(state: "FibonacciCardsState", player: int) -> list[float]:
    t = TensorBuilder(PLANES)
    _fill(state, player, t)
    return t.data


def information_state_tensor(state: "FibonacciCardsState", player: int) -> list[float]:
    t = TensorBuilder(INFO_PLANES)
    _fill(state, player, t)
    draws = [0, 0]
    for action, who, *_ in state._log:
        if action == DRAW:
            draws[who] += 1
    t.set("own_draws", 0, draws[player] / 33.0)
    t.set("opponent_draws", 0, draws[1 - player] / 33.0)
    return t.data


def info_planes(game: object) -> tuple[Plane, ...]:
    return INFO_PLANES


def planes(game: object) -> tuple[Plane, ...]:
    return PLANES
