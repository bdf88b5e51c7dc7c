"""Fibonacci (Thomas Naylor's hex game) with its Card and Go variants (Spec: fibonacci.md):
registry name ``fibonacci``."""

from ...core.tensors import register_tensors
from .rules import FibonacciGame, FibonacciState
from .tensors import FibonacciTensors

register_tensors(FibonacciGame, FibonacciTensors)

__all__ = ["FibonacciGame", "FibonacciState"]
