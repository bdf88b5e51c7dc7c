"""Fibonacci (Thomas Naylor's hex game) with its Card and Go variants (Spec: fibonacci.md):
registry name ``fibonacci``.

This module composes the game: ``rules.py`` (the state and its moves, with the move tables,
position text, action notation, information states and view below it) imports nothing of the
package above it; the description, text board and tensors import the rules and are bound to
the game class here.
"""

from ...core.game import compose
from ...core.tensors import register_tensors
from . import description, render
from .rules import FibonacciGame, FibonacciState
from .tensors import FibonacciTensors

compose(FibonacciGame, description=description, render=render)
register_tensors(FibonacciGame, FibonacciTensors)

__all__ = ["FibonacciGame", "FibonacciState"]
