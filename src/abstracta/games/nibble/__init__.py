"""Nibble (Jared McComb): collect coloured discs from the edge of a random board.

Spec: /work/shared/rules/nibble.md. ``NibbleGame`` is registered as ``nibble``.
"""

from .rules import NibbleGame, NibbleState

__all__ = ["NibbleGame", "NibbleState"]
