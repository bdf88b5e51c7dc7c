"""The Fibonacci card game (Spec: fibonacci-cards.md): registry name ``fibonacci-cards``."""

from .rules import FibonacciCardsGame, FibonacciCardsState

__all__ = ["FibonacciCardsGame", "FibonacciCardsState"]
