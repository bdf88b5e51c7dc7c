"""The Fibonacci card game (Spec: fibonacci-cards.md)."""

from .game import FibonacciCardsGame
from .rules import FibonacciCardsState

__all__ = ["FibonacciCardsGame", "FibonacciCardsState"]
