"""Tic-tac-toe's structured view (``State.to_struct``; envelope in :mod:`abstracta.core.view`).

``board``::

    {"files": "abc", "ranks": 3,
     "cells": [{"id": "a1", "x": 0, "y": 0, "mark": null | 0 | 1}, ...],   # x file, y rank, 0-based
     "line": null | ["a1", "b2", "c3"]}                                   # the winning row

``choices``: ``{"cells": [{"cell": "b2", "action": "b2"}, ...]}`` (one action per empty cell).
"""

from __future__ import annotations

from typing import Any

from .notation import cell_name


class TicTacToeView:
    """The structured-view hooks of :class:`tictactoe.rules.TicTacToeState`."""

    board: list[int]

    def board_struct(self, player: int | None) -> dict[str, Any]:
        from .rules import LINES

        line = None
        for a, b, c in LINES:
            if self.board[a] >= 0 and self.board[a] == self.board[b] == self.board[c]:
                line = [cell_name(a), cell_name(b), cell_name(c)]
        return {"files": "abc", "ranks": 3, "line": line,
                "cells": [{"id": cell_name(i), "x": i % 3, "y": i // 3,
                           "mark": self.board[i] if self.board[i] >= 0 else None} for i in range(9)]}

    def choices_struct(self, legal: list[str]) -> dict[str, Any]:
        return {"cells": [{"cell": s, "action": s} for s in legal]}

    def action_effects(self, action: int, player: int | None) -> dict[str, list]:
        return {"touched": [cell_name(action)], "removed": [], "revealed": []}

    def end_struct(self) -> dict[str, Any] | None:
        returns = self.returns()  # type: ignore[attr-defined]
        if returns[0] == 0:
            return {"reason": "full-board", "text": "The grid is full without a row of three"}
        winner = "XO"[0 if returns[0] > 0 else 1]
        return {"reason": "three-in-a-row", "text": f"{winner} has three in a row"}
