"""A heuristic for searches that stop before the end: open lines for one side minus the other's."""

from __future__ import annotations

from typing import Any

from .rules import LINES


def evaluate(state: Any, player: int) -> float:
    """In [-1, 1]: (lines ``player`` can still complete, weighted by marks in them) minus the
    same for the opponent, scaled."""
    board = state.board
    score = 0.0
    for line in LINES:
        marks = [board[c] for c in line if board[c] >= 0]
        if not marks:
            continue
        owners = set(marks)
        if len(owners) == 1:
            weight = len(marks) ** 2
            score += weight if marks[0] == player else -weight
    return max(-1.0, min(1.0, score / 12.0))
