"""Tic-tac-toe notation: cells ``a1`` … ``c3`` (file a–c left to right, rank 1–3 bottom to top)
and the position text ``<rank 3>/<rank 2>/<rank 1> <X|O>`` with ``X``, ``O`` and ``.``.

Cell index = ``(rank - 1) * 3 + file``, so ``a1`` = 0, ``c1`` = 2, ``a3`` = 6; the action of
placing on a cell is its index, so ascending actions are the canonical order.
"""

from __future__ import annotations

from abstracta.core.errors import NotationError, PositionError

FILES = "abc"
CELL_NAMES = tuple(f"{FILES[i % 3]}{i // 3 + 1}" for i in range(9))
CELL_INDEX = {name: i for i, name in enumerate(CELL_NAMES)}
MARKS = "XO"


def cell_name(cell: int) -> str:
    """``cell_name(4) == "b2"``."""
    return CELL_NAMES[cell]


def parse_cell(text: str) -> int:
    """``"b2"`` → 4. Raises :class:`NotationError` for anything that is not a cell."""
    cell = CELL_INDEX.get(text.strip().lower()) if isinstance(text, str) else None
    if cell is None:
        raise NotationError(f"{text!r} is not a cell (a1 … c3)")
    return cell


def format_position(board: list[int], to_move: int) -> str:
    """The position text: ranks from 3 down to 1, then the mark to move."""
    ranks = []
    for rank in (2, 1, 0):
        ranks.append("".join("." if board[rank * 3 + f] < 0 else MARKS[board[rank * 3 + f]] for f in range(3)))
    return "/".join(ranks) + " " + MARKS[to_move]


def parse_position(text: str) -> tuple[list[int], int]:
    """``(board, to_move)`` of a position text; board cells hold -1, 0 (X) or 1 (O).

    Raises :class:`PositionError` naming the problem (shape, marks, or counts that no game
    reaches: X moves first, so X has as many marks as O or one more)."""
    if not isinstance(text, str):
        raise PositionError(f"{text!r} is not a position text")
    parts = text.split()
    if len(parts) != 2 or parts[1] not in MARKS:
        raise PositionError(f"{text!r}: expected '<rank3>/<rank2>/<rank1> <X|O>', e.g. '.../.X./... O'")
    ranks = parts[0].split("/")
    if len(ranks) != 3 or any(len(r) != 3 or any(ch not in ".XO" for ch in r) for r in ranks):
        raise PositionError(f"{text!r}: three ranks of three cells, each '.', 'X' or 'O'")
    board = [-1] * 9
    for i, rank in enumerate(ranks):
        for f, ch in enumerate(rank):
            if ch != ".":
                board[(2 - i) * 3 + f] = MARKS.index(ch)
    x, o = board.count(0), board.count(1)
    to_move = MARKS.index(parts[1])
    if to_move != (0 if x == o else 1) or not 0 <= x - o <= 1:
        raise PositionError(f"{text!r}: {x} X and {o} O cannot have {parts[1]} to move (X moves first)")
    return board, to_move
