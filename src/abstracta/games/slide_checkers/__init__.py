"""Slide Checkers (Fibonacci Checkers, W. A. Sethares) for 2–4 players.

Spec: /work/shared/rules/slide-checkers.md.

>>> from abstracta.games.slide_checkers import SlideCheckersGame
>>> state = SlideCheckersGame().new_initial_state()
>>> state.to_text()
'- P:7/7 G'

This module composes the game: ``rules.py`` (the state and its moves, the action notation and
the view it mixes in below it) imports nothing of the package above it; the description, text
board, tensors and action codec import the rules and are bound to the game class here.
"""

from ...core.actions import register_action_codec
from ...core.game import compose
from ...core.tensors import register_tensors
from . import description, render
from .actions import SlideCheckersCodec
from .geometry import board_svg, board_text
from .rules import SlideCheckersGame, SlideCheckersState
from .tensors import SlideCheckersTensors

compose(SlideCheckersGame, description=description, render=render)
register_tensors(SlideCheckersGame, SlideCheckersTensors)
register_action_codec(SlideCheckersGame, SlideCheckersCodec)

__all__ = ["SlideCheckersGame", "SlideCheckersState", "board_svg", "board_text"]
