"""Level 1: a uniformly random legal action (seeded)."""

from __future__ import annotations

import random

from ..core.game import Game, State
from .base import check_playable


class RandomBot:
    """Plays a uniformly random legal action.

    Args:
        game: the game (unused, for a uniform constructor).
        seed: seed of the bot's ``random.Random``; same seed, same moves.
    """

    def __init__(self, game: Game | None = None, seed: int | None = None, name: str = "random"):
        self.name = name
        self.seed = seed
        self.rng = random.Random(seed)

    def restart(self) -> None:
        """Nothing to forget (the generator runs on, so successive games differ)."""

    def step(self, state: State) -> int:
        check_playable(state)
        legal = state.legal_actions()
        return legal[self.rng.randrange(len(legal))]
