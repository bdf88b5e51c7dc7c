"""Slide Checkers (Fibonacci Checkers, W. A. Sethares) for 2–4 players.

Spec: /work/shared/rules/slide-checkers.md.

>>> from abstracta.games.slide_checkers import SlideCheckersGame
>>> state = SlideCheckersGame().new_initial_state()
>>> state.to_text()
'- P:7/7 G'
"""

from ...core.actions import register_action_codec
from ...core.tensors import register_tensors
from .actions import SlideCheckersCodec
from .geometry import board_svg, board_text
from .rules import SlideCheckersGame, SlideCheckersState
from .tensors import SlideCheckersTensors

register_tensors(SlideCheckersGame, SlideCheckersTensors)
register_action_codec(SlideCheckersGame, SlideCheckersCodec)

__all__ = ["SlideCheckersGame", "SlideCheckersState", "board_svg", "board_text"]
