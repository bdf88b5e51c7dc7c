"""Fibonacci (Thomas Naylor's hex game) with its Card and Go variants (Spec: fibonacci.md)."""

from .game import FibonacciGame
from .state import FibonacciState

__all__ = ["FibonacciGame", "FibonacciState"]
