"""Nibble (Jared McComb): collect coloured discs from the edge of a random board.

Spec: /work/shared/rules/nibble.md. ``NibbleGame`` is registered as ``nibble``.

This module composes the game: ``rules.py`` (the state and its moves) imports nothing of the
package above it; the description, notation, text board and tensors import the rules, and are
bound to the game class here.
"""

from ...core.game import compose
from ...core.tensors import register_tensors
from . import description, notation, render
from .rules import NibbleGame, NibbleState
from .tensors import NibbleTensors

compose(NibbleGame, description=description, notation=notation, render=render)
register_tensors(NibbleGame, NibbleTensors)

__all__ = ["NibbleGame", "NibbleState"]
