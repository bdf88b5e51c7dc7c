"""Fibonacci (Thomas Naylor's hex game) with its Card and Go variants (Spec: fibonacci.md):
registry name ``fibonacci``."""

from .rules import FibonacciGame, FibonacciState

__all__ = ["FibonacciGame", "FibonacciState"]
