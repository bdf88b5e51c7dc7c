"""Fanorona's structured view (``State.to_struct``; envelope in :mod:`abstracta.core.view`).

Spec: fanorona.md §1 (points, strong points, lines), §3 (actions, chains), §4 (end), §7 (vela).
Seats: 0 White (moves first), 1 Black. Points are named as in the spec (``a1``…``i5``);
``x`` is the file (0 = ``a``), ``y`` the rank (0 = rank 1, at the bottom), both 0-based.

``board``::

    {"size": "tsivy", "width": 9, "height": 5, "files": "abcdefghi",
     "points": [{"id": "a1", "x": 0, "y": 0, "strong": true,     # §1: x + y even
                 "stone": 0 | 1 | null}, ...],                   # seat of the stone, file-major
     "lines": [["a1", "a2"], ["a1", "b2"], ["a1", "b1"], ...],   # §1: every segment once
     "chain": null | {"stone": "d3", "last": "E",                # §3.2 capture chain in progress:
                      "visited": ["c3", "d3"],                   # the stone, its last direction,
                                                                 # the points it has occupied,
                      "taken": ["e3", "f3"]},                    # the points of the stones it has
                                                                 # taken this turn (in the order
                                                                 # taken; only steps played since
                                                                 # the position was set up)
     "stones": [22, 22],                                         # stones per seat
     "no_progress": 0, "no_progress_limit": 100,                 # §4 (b) turns without capture
     "vela_phase": false,                                        # §7: Black may not capture,
                                                                 # White takes one stone
     "first_turn": []}                                           # §4 option
                                                                 # first_turn_single_capture:
                                                                 # seats whose first turn ends
                                                                 # after one capture step

``choices`` (the legal actions grouped as a person picks them: a stone, then where it goes,
then, when one step both approaches and withdraws, which line it takes)::

    {"phase": "capture" | "paika" | "chain",     # §3.2: compulsory capture at the start of a
                                                 # turn / plain moves / continuing a chain
     "stone": null | "d3",                       # the stone that must move on (chain)
     "moves": [{"from": "c3", "to": [
                  {"to": "d3", "options": [
                     {"kind": "approach" | "withdrawal" | "paika",
                      "action": "c3-d3A",
                      "removes": ["e3", "f3"]}]}]}],   # stones that option captures, nearest first
     "end": null | {"action": "end"}}            # ending the turn is allowed (mid-chain only)

``turn.left`` (``turn_left_struct``) is the board's ``chain`` while a chain may go on, else
``null``. Action effects: ``touched`` = ``[from, to]`` (``[]`` for ``end``), ``removed`` = the
captured points, nearest first; nothing is ever ``revealed`` (perfect information, §8);
``text`` = the step in players' words: ``"White c3→d3, takes e3 and f3 by approach"``,
``"Black d5→e5"`` (paika), ``"White ends the turn"``.
End reasons: ``no-stones``, ``no-moves`` (§3.3), ``repetition``, ``no-progress`` (§4).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any, NamedTuple

from ...core.view import message
from .geometry import APPROACH, DIR_NAMES, NO_PROGRESS_LIMIT, PAIKA, VELA_STONES, WHITE, WITHDRAWAL, Geometry

SEAT_NAMES = ("White", "Black")
_KIND_NAMES = {PAIKA: "paika", APPROACH: "approach", WITHDRAWAL: "withdrawal"}


def _and(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class _ViewTables(NamedTuple):
    """What every view of one board size shares (built once per size from its Geometry)."""

    points: tuple[tuple[str, int, int, bool], ...]  # (name, x, y, strong) by point index
    lines: tuple[tuple[str, str], ...]  # each segment once: from a point N, NE, E or SE
    # by point index, its entries of board["points"] with a White stone, a Black one, none; and
    # the lines as board["lines"] lists them (FanoronaView.shared_board_struct's, read-only)
    entries: tuple[tuple[dict[str, Any], dict[str, Any], dict[str, Any]], ...]
    line_lists: list[list[str]]


_TABLES: dict[str, _ViewTables] = {}


def _tables(g: Geometry) -> _ViewTables:
    t = _TABLES.get(g.size)
    if t is None:
        points = tuple((g.names[p], *g.xy(p), bool(g.strong >> p & 1)) for p in range(g.n))
        # directions 0..3 are N, NE, E, SE: their opposites would list each segment twice
        lines = tuple((g.names[p], g.names[q]) for p in range(g.n)
                      for q in g.neighbour[p][:4] if q >= 0)
        entries = tuple(tuple({"id": name, "x": x, "y": y, "strong": strong, "stone": stone} for stone in (0, 1, None))
                        for name, x, y, strong in points)
        t = _TABLES[g.size] = _ViewTables(points, lines, entries, [[a, b] for a, b in lines])
    return t


class FanoronaView:
    """The structured-view hooks of :class:`.rules.FanoronaState` (shapes in the module doc)."""

    __slots__ = ()

    # --- board ----------------------------------------------------------------------------------
    def board_struct(self, player: int | None) -> dict[str, Any]:
        """The position (perfect information: the same for every viewer). Spec: fanorona.md §1.
        Fresh data: the caller may change it."""
        board = self.shared_board_struct(player)
        board["points"] = [dict(point) for point in board["points"]]
        board["lines"] = [list(line) for line in board["lines"]]
        return board

    def shared_board_struct(self, player: int | None) -> dict[str, Any]:
        """:meth:`board_struct` with the points' entries (by stone) and the lines shared by
        every board (read-only)."""
        game = self.game  # type: ignore[attr-defined]
        g: Geometry = game.geometry
        t = _tables(g)
        white, black = self.bitboards()  # type: ignore[attr-defined]
        points = [entries[0 if white >> p & 1 else 1 if black >> p & 1 else 2] for p, entries in enumerate(t.entries)]
        # the state keeps no public accessor for the first-turn flags (bit i: seat i); reading
        # the field here keeps rules.py unchanged apart from the mix-in
        first = self._first  # type: ignore[attr-defined]
        return {
            "size": g.size, "width": g.width, "height": g.height, "files": "abcdefghi"[:g.width],
            "points": points,
            "lines": t.line_lists,
            "chain": self._chain_struct(),
            "stones": [white.bit_count(), black.bit_count()],
            "no_progress": self.no_progress,  # type: ignore[attr-defined]
            "no_progress_limit": NO_PROGRESS_LIMIT,
            "vela_phase": self._vela_phase(black),
            "first_turn": [seat for seat in (0, 1) if first >> seat & 1],
        }

    def _chain_struct(self) -> dict[str, Any] | None:
        chain = self.chain()  # type: ignore[attr-defined]
        if chain is None:
            return None
        point, last, visited = chain
        names = self.game.geometry.names  # type: ignore[attr-defined]
        return {"stone": names[point], "last": DIR_NAMES[last], "visited": [names[p] for p in visited],
                "taken": self._taken_this_turn()}

    def _taken_this_turn(self) -> list[str]:
        """Points of the enemy stones taken so far in the turn in progress (a chain): read from
        the undo frames of this turn's steps (their opponent bitboards, ``UndoFrame.opp``), step
        by step, each step's stones in board order. A position read from text mid-chain knows
        only the steps played since."""
        g: Geometry = self.game.geometry  # type: ignore[attr-defined]
        side = self.side  # type: ignore[attr-defined]
        frames = []
        for frame in reversed(self._undo):  # type: ignore[attr-defined]
            if frame[2] != side:  # UndoFrame.side: the previous turn
                break
            frames.append(frame)
        frames.reverse()
        white, black = self.bitboards()  # type: ignore[attr-defined]
        opps = [f[1] for f in frames] + [black if side == 0 else white]
        out: list[str] = []
        for before, after in pairwise(opps):
            gone = before & ~after
            out.extend(g.names[p] for p in range(g.n) if gone >> p & 1)
        return out

    def _vela_phase(self, black: int) -> bool:
        """Spec: fanorona.md §7 — the vela phase lasts while Black has more than 5 stones."""
        return bool(self.game.vela) and black.bit_count() > VELA_STONES  # type: ignore[attr-defined]

    # --- choices --------------------------------------------------------------------------------
    def choices_struct(self, legal: list[str]) -> dict[str, Any]:
        """``legal`` grouped by stone, then destination, then capture kind (Spec: fanorona.md
        §3.1 approach/withdrawal, §3.2 chains and ``end``), in the order of ``legal`` (the
        canonical order: stones, destinations and kinds come out in ASCII order)."""
        g: Geometry = self.game.geometry  # type: ignore[attr-defined]
        ids = g.action_ids
        acts = g.act
        names = g.names
        by_from: dict[str, dict[str, list[dict[str, Any]]]] = {}  # from -> to -> options
        end = None
        captures = False
        for text in legal:
            if text == "end":
                end = {"action": "end"}
                continue
            a = ids[text]
            _mm, _tb, q, _d, kind, *_ = acts[a]
            captures = captures or kind != PAIKA
            by_from.setdefault(names[a // 24], {}).setdefault(names[q], []).append(
                {"kind": _KIND_NAMES[kind], "action": text, "removes": self._removed(a)})
        moves = [{"from": frm, "to": [{"to": to, "options": options} for to, options in targets.items()]}
                 for frm, targets in by_from.items()]
        chain = self._chain_struct()
        phase = "chain" if chain is not None else "capture" if captures else "paika"
        return {"phase": phase, "stone": chain["stone"] if chain else None, "moves": moves, "end": end}

    # --- effects --------------------------------------------------------------------------------
    def _removed(self, action: int) -> list[str]:
        """Points of the stones ``action`` captures in this state, nearest first: the enemy line
        beyond the target (Spec: fanorona.md §3.1), only the first stone in the vela phase (§7)."""
        g: Geometry = self.game.geometry  # type: ignore[attr-defined]
        entry = g.act[action] if 0 <= action < g.end_action else None
        if entry is None or entry[4] == PAIKA:
            return []
        white, black = self.bitboards()  # type: ignore[attr-defined]
        side = self.side  # type: ignore[attr-defined]
        opp = black if side == WHITE else white
        p, d, kind = action // 24, entry[3], entry[4]
        # approach: the line starts beyond the destination and runs on in d; withdrawal: it
        # starts behind the origin and runs away from it
        if kind == APPROACH:
            t, line = g.neighbour[entry[2]][d], d
        else:
            line = (d + 4) % 8
            t = g.neighbour[p][line]
        out: list[str] = []
        single = side == WHITE and self._vela_phase(black)
        while t >= 0 and opp >> t & 1:
            out.append(g.names[t])
            if single:
                break
            t = g.neighbour[t][line]
        return out

    def action_effects(self, action: int, player: int | None) -> dict[str, list]:
        """``{"touched": [from, to], "removed": [captured points], "revealed": []}`` for a
        step; nothing for ``end``. Spec: fanorona.md §3."""
        g: Geometry = self.game.geometry  # type: ignore[attr-defined]
        entry = g.act[action] if 0 <= action < g.end_action else None
        who = SEAT_NAMES[self.side]  # type: ignore[attr-defined]
        seat = message(f"fanorona.seat.{self.side}")  # type: ignore[attr-defined]
        if entry is None:
            return {"touched": [], "removed": [], "revealed": [], "text": f"{who} ends the turn",
                    "message": message("fanorona.step.end", who=seat)}
        frm, to = g.names[action // 24], g.names[entry[2]]
        removed = self._removed(action)
        text = f"{who} {frm}→{to}"
        said = message("fanorona.step.move", who=seat, frm=frm, to=to)
        if removed:
            kind = _KIND_NAMES[entry[4]]
            text += f", takes {_and(removed)} by {kind}"
            said = message(f"fanorona.step.{kind}", who=seat, frm=frm, to=to, stones=removed)
        return {"touched": [frm, to], "removed": removed, "revealed": [], "text": text, "message": said}

    # --- turn and end ---------------------------------------------------------------------------
    def turn_left_struct(self) -> dict[str, Any] | None:
        """The chain that may go on (Spec: fanorona.md §3.2), as the board's ``chain``; ``None``
        at the start of a turn."""
        return self._chain_struct()

    def end_struct(self) -> dict[str, Any] | None:
        """Why the game ended (Spec: fanorona.md §3.3, §4)."""
        if not self.is_terminal():  # type: ignore[attr-defined]
            return None
        returns = self.returns()  # type: ignore[attr-defined]
        if returns[0] == returns[1]:
            if self.repetition_count() >= 3:  # type: ignore[attr-defined]
                return {"reason": "repetition",
                        "text": "The same position occurred for the third time: a draw",
                        "message": message("fanorona.end.repetition")}
            return {"reason": "no-progress",
                    "text": f"{NO_PROGRESS_LIMIT} turns without a capture: a draw",
                    "message": message("fanorona.end.no-progress", n=NO_PROGRESS_LIMIT)}
        loser = 0 if returns[0] < 0 else 1
        seat = message(f"fanorona.seat.{loser}")
        white, black = self.bitboards()  # type: ignore[attr-defined]
        if not (white, black)[loser]:
            return {"reason": "no-stones", "text": f"{SEAT_NAMES[loser]} has no stones left",
                    "message": message("fanorona.end.no-stones", seat=seat)}
        return {"reason": "no-moves", "text": f"{SEAT_NAMES[loser]} cannot move",
                "message": message("fanorona.end.no-moves", seat=seat)}
