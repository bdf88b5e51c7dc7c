"""Tic-tac-toe rules: X (player 0) and O (player 1) place marks in turn on a 3×3 board; three in
a row (rank, file or diagonal) wins; a full board without one is a draw."""

from __future__ import annotations

from typing import Any

from abstracta.core.description import GameDescription
from abstracta.core.errors import IllegalActionError
from abstracta.core.game import TERMINAL, Game, State, check_action_in

from .notation import cell_name, format_position, parse_cell, parse_position
from .view import TicTacToeView

#: The eight lines of three cells.
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class TicTacToeGame(Game):
    """Tic-tac-toe. No options; player 0 is X and moves first."""

    name = "tictactoe"
    min_players = 2
    max_players = 2

    def describe(self) -> GameDescription:
        from .description import describe

        return describe(self)

    @property
    def num_distinct_actions(self) -> int:
        return 9

    def new_initial_state(self, seed: int | None = None) -> "TicTacToeState":
        return TicTacToeState(self, [-1] * 9, 0)

    def state_from_text(self, text: str) -> "TicTacToeState":
        """Parse ``<rank3>/<rank2>/<rank1> <X|O>``. Raises :class:`PositionError`."""
        board, to_move = parse_position(text)
        return TicTacToeState(self, board, to_move)

    def render(self, state: Any, player: int | None = None) -> Any:
        from .render import render

        return render(state)


class TicTacToeState(TicTacToeView, State):
    """A position: ``board[cell]`` is -1 (empty), 0 (X) or 1 (O)."""

    supports_undo = True

    def __init__(self, game: TicTacToeGame, board: list[int], to_move: int):
        self.game = game
        self.board = board
        self.to_move = to_move
        self.winner = self._find_winner()
        self._history: list[int] = []

    def _find_winner(self) -> int | None:
        board = self.board
        for a, b, c in LINES:
            if board[a] >= 0 and board[a] == board[b] == board[c]:
                return board[a]
        return None

    def current_player(self) -> int:
        if self.winner is not None or -1 not in self.board:
            return TERMINAL
        return self.to_move

    def legal_actions(self) -> list[int]:
        if self.current_player() == TERMINAL:
            return []
        return [cell for cell in range(9) if self.board[cell] < 0]

    def apply_action(self, action: int) -> None:
        check_action_in(action, self.legal_actions(), self)
        self.board[action] = self.to_move
        self.to_move ^= 1
        self._history.append(action)
        self.winner = self._find_winner()

    def undo_action(self) -> None:
        if not self._history:
            raise IllegalActionError("no action to undo")
        self.board[self._history.pop()] = -1
        self.to_move ^= 1
        self.winner = None

    def action_to_string(self, action: int) -> str:
        return cell_name(action)

    def string_to_action(self, text: str) -> int:
        action = parse_cell(text)
        check_action_in(action, self.legal_actions(), self)
        return action

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def clone(self) -> "TicTacToeState":
        other = TicTacToeState.__new__(TicTacToeState)
        other.game, other.board, other.to_move = self.game, self.board[:], self.to_move
        other.winner, other._history = self.winner, self._history[:]
        return other

    def history(self) -> list[int]:
        return list(self._history)

    def to_text(self) -> str:
        return format_position(self.board, self.to_move)

    def hash_key(self) -> int:
        return hash((tuple(self.board), self.to_move))
