"""Fanorona (Spec: /work/shared/rules/fanorona.md): registry name ``fanorona``.

>>> from abstracta.games.fanorona import FanoronaGame
>>> FanoronaGame().new_initial_state().legal_action_strings()
['d2-e3A', 'd3-e3A', 'd3-e3W', 'e2-e3A', 'f2-e3A']
"""

from ...core.tensors import register_tensors
from .rules import FanoronaGame, FanoronaState
from .tensors import FanoronaTensors

register_tensors(FanoronaGame, FanoronaTensors)

__all__ = ["FanoronaGame", "FanoronaState"]
