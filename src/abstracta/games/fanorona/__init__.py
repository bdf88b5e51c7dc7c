"""Fanorona (Spec: /work/shared/rules/fanorona.md): registry name ``fanorona``.

>>> from abstracta.games.fanorona import FanoronaGame
>>> FanoronaGame().new_initial_state().legal_action_strings()
['d2-e3A', 'd3-e3A', 'd3-e3W', 'e2-e3A', 'f2-e3A']

This module composes the game. ``rules.py`` (the state and its moves, with the notation, move
generation and view below it) imports nothing of the package above it; the endgame tables,
proofs and solver, the description, the text board and the tensors import the rules, and are
bound to the game class here, with the two searches of :mod:`abstracta.ai` the solver and the
table seat use (``ai`` is above the games: no module of the package but this one names it).
"""

from ...ai import proof as proof_number_search  # not `proof`: the package's own proof.py takes that name
from ...ai.alphabeta import AlphaBetaBot
from ...core.game import compose
from ...core.tensors import register_tensors
from . import description, render
from .rules import FanoronaGame, FanoronaState
from .tensors import FanoronaTensors

compose(FanoronaGame, description=description, render=render, proof_search=proof_number_search, fallback_bot=AlphaBetaBot)
register_tensors(FanoronaGame, FanoronaTensors)

__all__ = ["FanoronaGame", "FanoronaState"]
