"""Slide Checkers' compact action space for learners (issue 45; :mod:`abstracta.core.actions`).

The engine numbers 352,945 actions (every from × launch × direction × kind of a first jump has
its id, :mod:`.notation`). Learners get 2,737, by splitting a move of the movement phase into
two parts — pick the piece, then say where it goes — as a person moves it (Spec §4):

=========================  ============  ===================================================
part                       ids           what
=========================  ============  ===================================================
place on ``sq``            0 … 143       a placement ``@sq`` (§3), one part
pick ``sq``                144 … 287     the piece on ``sq`` is the one to move (first part)
to ``sq``                  288 … 431     step or free move of the picked piece to ``sq``
                                         (§4.1–§4.2; second part)
jump ``L``, ``d``, ``k``   432 … 2,735   ``432 + (L * 8 + d) * 2 + k``: jump from square ``L``
                                         in direction ``d`` (N NE E SE S SW W NW) over the
                                         enemy on ``L + d``, ``k`` 0 exchange / 1 remove
                                         (§4.3). After a pick: the first jump, launched from
                                         ``L`` (the start or a transit square); alone: the
                                         continuation from the jumping piece's square ``L``
pass                       2,736         §4.4
=========================  ============  ===================================================

Squares are ``sq = file * 12 + rank`` (``a1`` = 0, ``a2`` = 1, …, as the tensors' planes).
While a piece is picked, the observation's extra plane ``picked`` (12 × 12) shows it.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, Sequence

from ...core.actions import ActionCodec
from ...core.tensors import Plane
from .geometry import NUM_SQUARES, SIZE, SQUARE_NAMES
from .notation import CONT_BASE, JUMP_BASE, KIND, MOVE_BASE, PASS
from .tables import DIRECTIONS, SQ_OF_RANK

if TYPE_CHECKING:  # pragma: no cover
    from .rules import SlideCheckersState

PLACE = 0
PICK = PLACE + NUM_SQUARES
TO = PICK + NUM_SQUARES
JUMP = TO + NUM_SQUARES
COMPACT_PASS = JUMP + NUM_SQUARES * 16
NUM_COMPACT = COMPACT_PASS + 1

#: (dx // 2, dy // 2) of a jump of two squares -> direction index
_DIRECTION = {d: i for i, d in enumerate(DIRECTIONS)}


def _direction(frm: int, to: int) -> int:
    fx, fy = divmod(frm, SIZE)
    tx, ty = divmod(to, SIZE)
    return _DIRECTION[((tx - fx) // 2, (ty - fy) // 2)]


class SlideCheckersCodec(ActionCodec):
    """2,737 parts, at most two per engine action (see the module docstring)."""

    num_actions = NUM_COMPACT
    max_parts = 2
    planes = (Plane("picked", (SIZE, SIZE), "1 at the piece picked to move (the first part of a move)"),)

    def encode(self, state: "SlideCheckersState", action: int) -> tuple[int, ...]:
        if action < MOVE_BASE:
            return (PLACE + SQ_OF_RANK[action],)
        if action < JUMP_BASE:
            r = action - MOVE_BASE
            return (PICK + SQ_OF_RANK[r // NUM_SQUARES], TO + SQ_OF_RANK[r % NUM_SQUARES])
        if action < CONT_BASE:
            r = action - JUMP_BASE
            kind = r & 1
            d = (r >> 1) & 7
            r >>= 4
            return (PICK + SQ_OF_RANK[r // NUM_SQUARES], JUMP + (SQ_OF_RANK[r % NUM_SQUARES] * 8 + d) * 2 + kind)
        if action < PASS:
            r = action - CONT_BASE
            frm = state._jsq
            return (JUMP + (frm * 8 + _direction(frm, SQ_OF_RANK[r >> 1])) * 2 + (r & 1),)
        return (COMPACT_PASS,)

    def encode_all(self, state: "SlideCheckersState", actions: Sequence[int]) -> list[tuple[int, ...]]:
        encode = self.encode
        return [encode(state, a) for a in actions]

    def tree(self, state: "SlideCheckersState", legal: Sequence[int]) -> dict:
        """The legal list is in ascending id order (the canonical order, §4.3: ids sort as their
        strings), so one piece's moves (or first jumps) are a run of it: each pick stands for
        its run, ``(legal, start, end)``, expanded only when that piece is picked."""
        first = legal[0]
        if first < MOVE_BASE:
            return {PLACE + SQ_OF_RANK[a]: a for a in legal}
        if first >= CONT_BASE:  # continuations, or pass: one part each
            return {self.encode(state, a)[0]: a for a in legal}
        base, width = (MOVE_BASE, NUM_SQUARES) if first < JUMP_BASE else (JUMP_BASE, NUM_SQUARES * 16)
        root: dict = {}
        i, n = 0, len(legal)
        while i < n:
            rank = (legal[i] - base) // width
            end = bisect_left(legal, base + (rank + 1) * width, i)
            root[PICK + SQ_OF_RANK[rank]] = (legal, i, end)
            i = end
        return root

    def expand(self, state: "SlideCheckersState", token: tuple) -> dict:
        legal, start, end = token
        if legal[start] < JUMP_BASE:
            return {TO + SQ_OF_RANK[(a - MOVE_BASE) % NUM_SQUARES]: a for a in legal[start:end]}
        out = {}
        for a in legal[start:end]:
            r = a - JUMP_BASE
            out[JUMP + (SQ_OF_RANK[(r >> 4) % NUM_SQUARES] * 8 + ((r >> 1) & 7)) * 2 + (r & 1)] = a
        return out

    def part_string(self, part: int) -> str:
        """``@e4`` (place), ``e4`` (pick), ``-f5`` (to), ``>d8*f8r`` (jump from d8 to f8,
        remove), ``pass``. Raises ``ValueError`` for an id out of range."""
        if not 0 <= part < NUM_COMPACT:
            raise ValueError(f"part {part!r} is not in 0..{NUM_COMPACT - 1}")
        if part < PICK:
            return "@" + SQUARE_NAMES[part - PLACE]
        if part < TO:
            return SQUARE_NAMES[part - PICK]
        if part < JUMP:
            return "-" + SQUARE_NAMES[part - TO]
        if part < COMPACT_PASS:
            r = part - JUMP
            kind = r & 1
            launch, d = divmod(r >> 1, 8)
            x, y = divmod(launch, SIZE)
            dx, dy = DIRECTIONS[d]
            lx, ly = x + 2 * dx, y + 2 * dy
            land = SQUARE_NAMES[lx * SIZE + ly] if 0 <= lx < SIZE and 0 <= ly < SIZE else "off"
            return ">" + SQUARE_NAMES[launch] + "*" + land + KIND[kind]
        return "pass"

    def pending_bits(self, parts: tuple[int, ...]) -> int:
        return 1 << (parts[0] - PICK) if parts else 0


__all__ = ["COMPACT_PASS", "JUMP", "NUM_COMPACT", "PICK", "PLACE", "SlideCheckersCodec", "TO"]
