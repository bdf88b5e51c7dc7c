"""Position text and move notation of Fibonacci (Spec: fibonacci.md §4 notation, §7, §9.2, §9.3).

Position text: ``<rows> <side> <left> <t>``; Go placement ``<rows> <side> P<k>``; cards variant
appends `` <redpile> <greenpile> rng=<16 hex>``. Moves ``e8-f9``, ``pass``, placements ``S@e5``.

The whole position text is written and read in :mod:`.position`, a state's moves in
:mod:`.action_notation`; this module holds what they share with the rules and the view.

Below the rules (which import their action ids and piece kinds from here) and the view.
"""

from __future__ import annotations

import re

from abstracta.core.errors import PositionError

from .geometry import BIT_OF_NAME, NAME, NUM_CELLS, ROW_CELLS, ROWS

# --- action ids (the rules import them from here) -------------------------------------------
#: Piece codes: 1 + 3·owner + kind, kind 0 core, 1 attack, 2 support.
CORE, ATTACK, SUPPORT = 0, 1, 2
NMOVE = NUM_CELLS * NUM_CELLS
PASS = NMOVE
PLACE0 = NMOVE + 1
NUM_ACTIONS = PLACE0 + NUM_CELLS
#: Placements in the Go start (§9.3).
NUM_PLACEMENTS = 26
#: Turn cap (§5).
MAX_TURNS = 300


def placement_kind(k: int) -> int:
    """Kind of the ``k``-th placement (0-based) of the Go start: 12 supports, 12 attackers, 2 cores."""
    return SUPPORT if k < 12 else ATTACK if k < 24 else CORE


def base_moves(t: int) -> int:
    """``base(t) = min(t, 6)`` (§3)."""
    return t if t < 6 else 6


#: Piece letters indexed by code: 0 empty, 1..3 Red C A S, 4..6 Green c a s.
LETTERS = ".CAScas"
CODE_OF_LETTER = {ch: i for i, ch in enumerate(LETTERS) if i}

_TOKEN = re.compile(r"[1-9][0-9]*|[CAScas]")
_CELL = re.compile(r"^([a-k])([0-9]{1,2})$")


def cell_bit(name: str) -> int | None:
    """Bit of a cell name such as ``"e8"``; ``None`` if it names no cell."""
    return BIT_OF_NAME.get(name)


def board_to_rows(board: list[int]) -> str:
    """The ``<rows>`` field: rows k … a, maximal runs of empty cells as decimal numbers."""
    out = []
    for r in range(11, 0, -1):
        parts = []
        run = 0
        for b in ROW_CELLS[r]:
            code = board[b]
            if code:
                if run:
                    parts.append(str(run))
                    run = 0
                parts.append(LETTERS[code])
            else:
                run += 1
        if run:
            parts.append(str(run))
        out.append("".join(parts))
    return "/".join(out)


def rows_to_cells(rows: str) -> list[tuple[int, int]]:
    """Parse ``<rows>`` into ``[(bit, code), …]`` for occupied cells.

    Raises:
        PositionError: wrong number of rows, a bad character, or a row of the wrong length.
    """
    parts = rows.split("/")
    if len(parts) != 11:
        raise PositionError(f"position {rows!r}: expected 11 rows separated by '/', got {len(parts)}")
    cells: list[tuple[int, int]] = []
    for i, part in enumerate(parts):
        r = 11 - i
        row_cells = ROW_CELLS[r]
        pos = 0
        consumed = 0
        for m in _TOKEN.finditer(part):
            if m.start() != consumed:
                break
            consumed = m.end()
            tok = m.group()
            if tok.isdigit():
                pos += int(tok)
            else:
                if pos < len(row_cells):
                    cells.append((row_cells[pos], CODE_OF_LETTER[tok]))
                pos += 1
        if consumed != len(part) or not part:
            bad = part[consumed:consumed + 1] or "(empty)"
            raise PositionError(f"row {ROWS[r - 1]} {part!r}: unexpected {bad!r}")
        if pos != len(row_cells):
            raise PositionError(f"row {ROWS[r - 1]} {part!r} describes {pos} cells, the row has {len(row_cells)}")
    return cells


def move_string(from_bit: int, to_bit: int) -> str:
    return f"{NAME[from_bit]}-{NAME[to_bit]}"


__all__ = ["LETTERS", "CODE_OF_LETTER", "cell_bit", "board_to_rows", "rows_to_cells", "move_string", "_CELL"]
