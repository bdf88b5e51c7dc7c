"""Tic-tac-toe for abstracta: a complete game package written outside the abstracta repository.

>>> from tictactoe import TicTacToeGame
>>> state = TicTacToeGame().new_initial_state()
>>> state.apply_action(state.string_to_action("b2"))
>>> state.to_text()
'.../.X./... O'
"""

from .rules import TicTacToeGame, TicTacToeState

__all__ = ["TicTacToeGame", "TicTacToeState"]
