"""The Fibonacci card game (Simon & Niklas Indola, 2018): the :class:`Game` of the spine.

Spec: /work/shared/rules/fibonacci-cards.md.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import PositionError
from ...core.game import Game
from ...core.options import Option, parse_int, seed_option
from ...core.rng import SplitMix64
from .cards import NUM_ACTIONS, NUM_CARDS
from .notation import parse_position
from .rules import FibonacciCardsState


class FibonacciCardsGame(Game):
    """Two seats, three table piles, 8-card hands and a 33-card stock.

    Options: ``seed`` (shared generator, §8), ``first_player`` (0/1; ``None`` → the generator's
    ``below(2)`` after the shuffle, §8).
    """

    name = "fibonacci-cards"
    title = "Fibonacci card game"
    notation_help = (
        "7h>1 plays the 7 of hearts on pile 1 as a sum (it equals two piles, or all three); "
        "5s/2 cuts pile 2 down with a card of the same rank (needs two piles summing over 14). "
        "draw when you cannot play (only the drawn card may then be played); pass when the stock is empty. "
        "Ace = 14 in hand, 1 on the table."
    )
    summary = ("Play a card equal to the sum of two (or all three) table piles, or cut a big pile "
               "down to 1; the first to empty his hand wins.")
    option_specs = (
        seed_option(),
        Option("first_player", None, "seat that leads (0 or 1); drawn by the seed if absent",
               choices=(0, 1), parser=parse_int),
    )
    has_chance = True
    has_hidden_information = True
    min_players = 2
    max_players = 2

    @property
    def num_distinct_actions(self) -> int:
        """312 plays (card × pile × sum/cut) + ``draw`` + ``pass``."""
        return NUM_ACTIONS

    def new_initial_state(self, seed: int | None = None) -> FibonacciCardsState:
        """Shuffle and deal (Spec §2, §8): seat 0 ``deck[0..7]``, seat 1 ``deck[8..15]``, piles
        ``deck[16..18]``, stock ``deck[19..51]`` (``deck[19]`` on top); the leader is
        ``first_player`` or the generator's next ``below(2)``."""
        seed = self.resolve_seed(seed)
        rng = SplitMix64(seed)
        deck = list(range(NUM_CARDS))
        rng.shuffle(deck)
        first = self.options.get("first_player")
        if first is None:
            first = rng.below(2)
        state = FibonacciCardsState(
            self, [[deck[16]], [deck[17]], [deck[18]]], [deck[0:8], deck[8:16]],
            deck[19:][::-1], first, False, seed)
        state._check_start()
        return state

    def state_from_text(self, text: str) -> FibonacciCardsState:
        """Parse §6 position text (any subset of the deck). Reading applies the end conditions
        (§5): an empty hand has won; stock empty and nobody able to play → over.

        Raises:
            PositionError: malformed text, a repeated card, a ``D`` flag whose last card is not
                playable, or two empty hands.
        """
        parsed = parse_position(text)
        state = FibonacciCardsState(self, parsed.piles, parsed.hands, parsed.stock[::-1],
                                    parsed.player, parsed.drawn, None)
        state._check_start()
        return state

    def evaluate(self, state: Any, player: int) -> float:
        from .evaluate import evaluate
        return evaluate(state, player)

    def render(self, state: Any, player: int | None = None) -> Any:
        from .render import render
        return render(state, player)


__all__ = ["FibonacciCardsGame", "FibonacciCardsState", "PositionError"]
