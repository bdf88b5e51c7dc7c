"""The Fibonacci card game (Spec: fibonacci-cards.md): registry name ``fibonacci-cards``.

This module composes the game: ``rules.py`` (the deal, the state and its moves) imports nothing
of the package above it; the description, text board and tensors import the rules and are bound
to the game class here.
"""

from ...core.game import compose
from ...core.tensors import register_tensors
from . import description, render
from .rules import FibonacciCardsGame, FibonacciCardsState
from .tensors import FibonacciCardsTensors

compose(FibonacciCardsGame, description=description, render=render)
register_tensors(FibonacciCardsGame, FibonacciCardsTensors)

__all__ = ["FibonacciCardsGame", "FibonacciCardsState"]
