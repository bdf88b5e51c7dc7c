"""Nibble (Jared McComb): collect coloured discs from the edge of a random board.

Spec: /work/shared/rules/nibble.md. ``NibbleGame`` is registered as ``nibble``.
"""

from ...core.tensors import register_tensors
from .rules import NibbleGame, NibbleState
from .tensors import NibbleTensors

register_tensors(NibbleGame, NibbleTensors)

__all__ = ["NibbleGame", "NibbleState"]
