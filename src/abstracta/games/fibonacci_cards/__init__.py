"""The Fibonacci card game (Spec: fibonacci-cards.md): registry name ``fibonacci-cards``."""

from ...core.tensors import register_tensors
from .rules import FibonacciCardsGame, FibonacciCardsState
from .tensors import FibonacciCardsTensors

register_tensors(FibonacciCardsGame, FibonacciCardsTensors)

__all__ = ["FibonacciCardsGame", "FibonacciCardsState"]
