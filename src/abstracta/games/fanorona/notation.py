"""Fanorona notation: position text and action strings (Spec: fanorona.md §3, §5).

Position text: ``<rows> <side>[ chain=<point>:<dir>:<visited>][ first=<sides>][ nc=<n>]``,
rows from the top rank down, joined by ``/``. Suffixes are written in that order — §5 says
the no-progress counter "is appended last" — and accepted in any order when reading.

Below the rules, which import it: the position text as a whole is read by
:func:`.rules.parse_position`, which makes the state.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...core.errors import IllegalActionError, NotationError, PositionError
from ...core.view import message
from .geometry import DIR_BY_NAME, DIR_NAMES, Geometry

if TYPE_CHECKING:
    from ...core.game import State

_ACTION_SHAPE = re.compile(r"^[a-z][0-9]+-[a-z][0-9]+[AW]?$")


def parse_rows(g: Geometry, rows: str) -> tuple[int, int]:
    """``(white, black)`` bitboards of the rows part of a position text. Raises PositionError."""
    parts = rows.split("/")
    if len(parts) != g.height:
        raise PositionError(f"position {rows!r}: expected {g.height} ranks separated by '/' for the "
                            f"{g.width}x{g.height} board ({g.size}), got {len(parts)}")
    white = black = 0
    for i, row in enumerate(parts):
        y = g.height - 1 - i
        if len(row) != g.width:
            raise PositionError(f"position {rows!r}: rank {y + 1} ({row!r}) has {len(row)} points, "
                                f"expected {g.width}")
        for x, ch in enumerate(row):
            bit = 1 << g.point(x, y)
            if ch == "W":
                white |= bit
            elif ch == "B":
                black |= bit
            elif ch != ".":
                raise PositionError(f"position {rows!r}: {ch!r} at {g.names[g.point(x, y)]} is not "
                                    f"W, B or '.'")
    return white, black


def _point(g: Geometry, name: str, what: str) -> int:
    p = g.index.get(name)
    if p is None:
        raise PositionError(f"{what}: {name!r} is not a point of the {g.width}x{g.height} board")
    return p


def parse_chain(g: Geometry, value: str, white: int, black: int, side: int
                 ) -> tuple[int, int, int, tuple[int, ...]]:
    what = f"chain={value}"
    parts = value.split(":")
    if len(parts) != 3:
        raise PositionError(f"{what}: expected <point>:<last direction>:<visited points>")
    point = _point(g, parts[0], what)
    d = DIR_BY_NAME.get(parts[1])
    if d is None:
        raise PositionError(f"{what}: {parts[1]!r} is not a direction ({', '.join(DIR_NAMES)})")
    names = parts[2].split(",")
    visited = tuple(_point(g, name, what) for name in names)
    if len(visited) < 2:
        raise PositionError(f"{what}: the visited list needs the starting point and at least one step")
    if len(set(visited)) != len(visited):
        raise PositionError(f"{what}: a point occurs twice in the visited list")
    if visited[-1] != point:
        raise PositionError(f"{what}: the visited list must end with the stone's point {parts[0]}")
    own = white if side == 0 else black
    if not own >> point & 1:
        raise PositionError(f"{what}: {parts[0]} does not hold a stone of the side to move")
    occupied = white | black
    previous = -1
    for a, b in zip(visited, visited[1:]):
        step = next((k for k in range(8) if g.neighbour[a][k] == b), -1)
        if step < 0:
            raise PositionError(f"{what}: {g.names[a]} to {g.names[b]} is not a step along a line")
        if step == previous:
            raise PositionError(f"{what}: two consecutive steps in direction {DIR_NAMES[step]}")
        previous = step
        if occupied >> a & 1:
            raise PositionError(f"{what}: visited point {g.names[a]} is not empty")
    if previous != d:
        raise PositionError(f"{what}: the last step {g.names[visited[-2]]}-{parts[0]} goes "
                            f"{DIR_NAMES[previous]}, not {parts[1]}")
    mask = 0
    for p in visited:
        mask |= 1 << p
    return point, d, mask, visited


def format_position(state: "State") -> str:
    """Position text of ``state`` (Spec: fanorona.md §5)."""
    g = state._g
    white, black = (state._own, state._opp) if state._side == 0 else (state._opp, state._own)
    rows = []
    for y in range(g.height - 1, -1, -1):
        row = []
        for x in range(g.width):
            p = x * g.height + y
            row.append("W" if white >> p & 1 else "B" if black >> p & 1 else ".")
        rows.append("".join(row))
    out = "/".join(rows) + (" W" if state._side == 0 else " B")
    ch = state._ch
    if ch is not None:
        names = g.names
        out += f" chain={names[ch[0]]}:{DIR_NAMES[ch[1]]}:{','.join(names[p] for p in ch[3])}"
    if state._first:
        out += " first=" + ("W" if state._first & 1 else "") + ("B" if state._first & 2 else "")
    if state._nc > 0:
        out += f" nc={state._nc}"
    return out


def parse_action(g: Geometry, text: str) -> int:
    """Action id of an action string (not checked for legality), read in either case
    (``D3-C3w`` is ``d3-c3W``: case tells no two actions apart). Raises NotationError for text
    that is not notation, IllegalActionError for a step that does not exist on this board."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not an action string")
    wanted = text.strip()
    action = g.action_ids.get(wanted)
    if action is None:
        action = g.folded_ids.get(wanted.lower())
    if action is not None:
        return action
    if not _ACTION_SHAPE.match(wanted):
        raise NotationError(f"{wanted!r} is not Fanorona notation (expected e.g. d2-e3A, d2-e3W, d2-e3 or end)",
                            i18n=message("fanorona.refusal.notation", move=repr(wanted)))
    raise IllegalActionError(f"{wanted!r} is not a step along a line of the {g.width}x{g.height} board"
                             f" (or has no capture target there)",
                             i18n=message("fanorona.refusal.no_step", move=repr(wanted), width=g.width, height=g.height))
