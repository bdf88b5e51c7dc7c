"""Nibble's structured view (``State.to_struct``; envelope in :mod:`abstracta.core.view`).

Spec: nibble.md §1 (cells, coordinates), §2 (colours), §4 (free discs, takes), §5 (wins).
Perfect information: every viewer (and a spectator, ``player=None``) sees the same board.

``board``::

    {"variant": "square9",                       # square9 | square13 | hex
     "shape": "square",                          # "square" | "hex"
     "cells": [                                  # every cell, canonical order (§1)
        {"id": "a1", "x": 0, "y": 0,             # drawing coordinates, y upwards: square x = file,
                                                 # y = rank (0-based); hex x = c − r/2, y = r − 1
         "disc": "G" | None,                     # colour letter of the disc there (None: empty)
         "free": True}, ...],                    # the disc has 2 (hex: 3) consecutive exposed
                                                 # sides (§4 rule 2; it may still split the board)
     "labels": [{"text": "a", "x": 0, "y": -0.7}, ...],  # coordinate labels beside the edge
                                                 # cells (0.7 of a step out), same units
     "colours": [{"colour": "A", "key": "disc.A",       # palette key of the description's board
                  "name": "red", "ink": "light"}, ...], # ink: "light"/"dark" text on that colour
     "take": "G" | None,                         # colour of the turn in progress (§6 take=)
     "targets": {"all": 9, "triple": 7,          # §5: instant win A, B (each of 3 adjacent colours),
                 "majority": 5, "majorities": 5},#     majority per colour, majorities that win
     "collections": [                            # per seat, what it holds (§5)
        {"seat": 0, "total": 12,
         "colours": [{"colour": "A", "count": 3, "major": False}, ...],   # major: count ≥ majority
         "majorities": 2,                        # colours in which it holds the majority
         "best_run": {"colours": "BCD", "least": 4},   # the three adjacent colours whose smallest
                                                 # count is largest (first such run), or None
         "most": {"colour": "C", "count": 5}}, ...]}   # its largest colour (first on ties)

``choices`` (only while the viewer may act; action strings under ``"action"`` only)::

    {"take": None | "G",                         # the open turn's colour (mid-turn)
     "colours": [                                # colours with a disc that may be taken, A… order
        {"colour": "G", "name": "blue",
         "discs": [{"cell": "a1", "action": "a1",  # each disc that may be taken now
                    "ends": False}, ...],        # True: taking it ends the turn by itself (no
                                                 # other disc of its colour may follow, or it wins);
                                                 # False: a one-disc turn is [action, "end"]
         "together": [{"cells": ["a1", "a9"], "turn": "a1+a9"}, ...]}],
                                                 # at a turn boundary: every set of two or more discs
                                                 # of this colour that one turn may take (§4, the
                                                 # canonical turn order); "turn" is the whole-turn
                                                 # string to send. Mid-turn: [] (a click takes one
                                                 # disc; the turn is ended with "end")
     "end": None | {"action": "end"}}            # mid-turn: end the turn here

``turn.left`` mid-turn: ``{"colour": "G", "more": ["a9"]}`` (the discs of that colour that may
still be taken); ``None`` at a turn boundary.

Effects of one action: a take touches and removes its cell; ``end`` touches nothing. ``text``
words the step: ``"took a1 (blue G)"``, ``"took i9 (purple H) and won"`` (an instant win, or
majorities when it empties the board; ``", ending the game"`` when the board empties and the
other seat wins), ``"ended the turn"``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ...core.view import message
from .geometry import COLOUR_NAMES, Geometry, geometry

#: How far (in cell steps) the coordinate labels sit outside the edge cells.
LABEL_GAP = 0.7

#: Colours whose discs need dark text (yellow, lime, white on the description's palette).
_DARK_INK = frozenset({2, 3, 11})


@lru_cache(maxsize=None)
def _static(variant: str) -> tuple[tuple[tuple[str, float | int, int], ...], list[dict[str, Any]],
                                   list[dict[str, Any]], dict[str, int]]:
    """Per variant, built once: cell ``(id, x, y)`` in canonical order, the labels, the colour
    table and the targets (copied by each call, so a caller may change what it gets)."""
    g = geometry(variant)
    labels: list[dict[str, Any]] = []
    # labels sit LABEL_GAP cell steps out from the edge cells (a full step would waste space)
    gap = LABEL_GAP
    if g.hex:
        cells = tuple((g.names[i], _num(c - r / 2), r - 1) for i, (r, c) in enumerate(g.coords))
        rows = "abcdefghijklmno"
        for r in range(1, 16):  # a row's letter W of its first cell (r, c0)
            c0 = max(1, r - 7)
            labels.append({"text": rows[r - 1], "x": _num(c0 - gap - r / 2), "y": r - 1})
        for c in range(1, 16):  # a column's number SE of its lowest cell (r0, c)
            r0 = max(1, c - 7)
            labels.append({"text": str(c), "x": _num(c - (r0 - gap) / 2), "y": _num(r0 - 1 - gap)})
    else:
        n = len(g.rows)
        cells = tuple((g.names[i], x, y) for i, (x, y) in enumerate(g.coords))
        labels += [{"text": "abcdefghijklm"[x], "x": x, "y": -gap} for x in range(n)]
        labels += [{"text": str(y + 1), "x": -gap, "y": y} for y in range(n)]
    colours = [{"colour": g.letters[k], "key": f"disc.{g.letters[k]}", "name": COLOUR_NAMES[k],
                "ink": "dark" if k in _DARK_INK else "light"} for k in range(g.colours)]
    targets = {"all": g.per_colour, "triple": g.triple, "majority": g.majority, "majorities": g.majorities}
    return cells, labels, colours, targets


def _num(v: float) -> float | int:
    """An int where the coordinate is whole (plain JSON, no ``4.0``), else rounded to 0.01."""
    v = round(v, 2)
    return int(v) if v == int(v) else v


def _collection(g: Geometry, seat: int, counts: list[int]) -> dict[str, Any]:
    letters = g.letters
    best = None
    for s in range(g.colours - 2):
        least = min(counts[s], counts[s + 1], counts[s + 2])
        if best is None or least > best[1]:
            best = (s, least)
    most = max(range(g.colours), key=lambda c: (counts[c], -c))
    return {
        "seat": seat,
        "total": sum(counts),
        "colours": [{"colour": letters[c], "count": n, "major": n >= g.majority} for c, n in enumerate(counts)],
        "majorities": sum(1 for n in counts if n >= g.majority),
        "best_run": None if best is None else {"colours": letters[best[0]:best[0] + 3], "least": best[1]},
        "most": {"colour": letters[most], "count": counts[most]},
    }


@lru_cache(maxsize=None)
def _entries(variant: str) -> tuple[dict[int, dict[str, Any]], ...]:
    """Per cell (canonical order), its entries of ``board["cells"]`` by what is on it (``disc
    colour * 2 + free``; an empty cell: −2), made when first met and shared by the boards of
    :meth:`NibbleView.shared_board_struct` (read-only): a take changes a few cells, not all."""
    return tuple({} for _ in geometry(variant).names)


@lru_cache(maxsize=1024)
def _kept_collection(variant: str, seat: int, counts: tuple[int, ...]) -> dict[str, Any]:
    """:func:`_collection` kept per counts (shared, read-only)."""
    return _collection(geometry(variant), seat, list(counts))


class NibbleView:
    """The structured-view hooks of :class:`abstracta.games.nibble.rules.NibbleState`."""

    __slots__ = ()
    # the state's attributes these hooks read (NibbleState's slots)
    geometry: Geometry
    board: list[int]
    occ: int
    coll: list[list[int]]
    take: int
    winner: int
    to_move: int

    if TYPE_CHECKING:  # pragma: no cover
        def legal_actions(self) -> list[int]: ...

    def board_struct(self, player: int | None) -> dict[str, Any]:
        """The board of the module docstring (the same for every viewer: perfect information).
        Fresh data: the caller may change it."""
        return self._board(False)

    def shared_board_struct(self, player: int | None) -> dict[str, Any]:
        """:meth:`board_struct` with its parts shared by every board (read-only): the cells'
        entries by what stands on them, the labels, colours and targets, the collections by their
        counts."""
        return self._board(True)

    def _board(self, kept: bool) -> dict[str, Any]:
        g = self.geometry
        cells, labels, colours, targets = _static(g.variant)
        board = self.board
        bit = g.bit
        letters = g.letters
        free = g.free_mask(self.occ)
        if kept:
            out = []
            for entries, b in zip(_entries(g.variant), bit):
                key = board[b] * 2 + (free >> b & 1)
                entry = entries.get(key)
                if entry is None:
                    name, x, y = cells[len(out)]
                    entry = entries[key] = {"id": name, "x": x, "y": y, "disc": letters[key // 2] if key >= 0 else None,
                                            "free": bool(key & 1)}
                out.append(entry)
            collections = [_kept_collection(g.variant, seat, tuple(self.coll[seat])) for seat in (0, 1)]
        else:
            out = []
            for i, (name, x, y) in enumerate(cells):
                b = bit[i]
                c = board[b]
                out.append({"id": name, "x": x, "y": y, "disc": letters[c] if c >= 0 else None,
                            "free": bool(free >> b & 1)})
            labels, colours, targets = [dict(label) for label in labels], [dict(c) for c in colours], dict(targets)
            collections = [_collection(g, seat, self.coll[seat]) for seat in (0, 1)]
        return {
            "variant": g.variant,
            "shape": "hex" if g.hex else "square",
            "cells": out,
            "labels": labels,
            "colours": colours,
            "take": letters[self.take] if self.take >= 0 else None,
            "targets": targets,
            "collections": collections,
        }

    def choices_struct(self, legal: list[str]) -> dict[str, Any]:
        """The legal takes grouped by colour, with the sets one turn may take together (§4)."""
        g = self.geometry
        letters = g.letters
        groups: dict[int, dict[str, Any]] = {}
        end = None
        after = None  # one copy, each take played on it and taken back (the engine decides)
        mover = self.to_move
        for s in legal:
            if s == "end":
                end = {"action": s}
                continue
            action = g.index[s]
            c = self.board[g.bit[action]]
            group = groups.get(c)
            if group is None:
                group = groups[c] = {"colour": letters[c], "name": COLOUR_NAMES[c], "discs": [], "together": []}
            if after is None:
                after = self.clone()  # type: ignore[attr-defined]
            after.apply_action(action)
            # taking it ends the turn by itself: afterwards no disc of its colour may be taken,
            # or the take wins the game
            ends = after.is_terminal() or after.current_player() != mover
            after.undo_action()
            group["discs"].append({"cell": s, "action": s, "ends": ends})
        if self.take < 0 and groups:
            for turn in self.game.turn_strings(self):
                if "+" in turn:
                    cells = turn.split("+")
                    groups[self.board[g.bit[g.index[cells[0]]]]]["together"].append({"cells": cells, "turn": turn})
        return {"take": letters[self.take] if self.take >= 0 else None,
                "colours": [groups[c] for c in sorted(groups)], "end": end}

    def action_effects(self, action: int, player: int | None) -> dict[str, Any]:
        """A take touches and removes its cell (the disc joins the mover's collection); ``end``
        changes no cell. ``text``: the step in words (module docstring)."""
        g = self.geometry
        if action == g.cells:
            return {"touched": [], "removed": [], "revealed": [], "text": "ended the turn",
                    "message": message("nibble.step.end")}
        name = g.names[action]
        c = self.board[g.bit[action]]
        after = self.clone()  # type: ignore[attr-defined]
        after.apply_action(action)
        won = "" if not after.is_terminal() else " and won" if after.winner == self.to_move else ", ending the game"
        said = [message("nibble.step.take", cell=name, colour=message(f"nibble.colour.{COLOUR_NAMES[c]}"),
                        letter=g.letters[c])]
        if won:
            said.append(message("nibble.step.won" if after.winner == self.to_move else "nibble.step.ended"))
        return {"touched": [name], "removed": [name], "revealed": [],
                "text": f"took {name} ({COLOUR_NAMES[c]} {g.letters[c]}){won}", "message": said}

    def end_struct(self) -> dict[str, Any] | None:
        """Why the winner won (§5): ``all-of-a-colour``, ``three-adjacent-colours`` (instant wins,
        tested in that order as :func:`.render.win_reason` does) or ``majorities`` (empty board)."""
        if self.winner < 0:
            return None
        g = self.geometry
        letters = g.letters
        counts = self.coll[self.winner]
        for c, n in enumerate(counts):
            if n >= g.per_colour:
                return {"reason": "all-of-a-colour", "colour": letters[c],
                        "text": f"All {g.per_colour} {COLOUR_NAMES[c]} discs ({letters[c]}) collected",
                        "message": message("nibble.end.all-of-a-colour", n=g.per_colour, letter=letters[c],
                                           colour=message(f"nibble.colour.{COLOUR_NAMES[c]}"))}
        for s in range(g.colours - 2):
            if all(counts[x] >= g.triple for x in (s, s + 1, s + 2)):
                run = letters[s:s + 3]
                return {"reason": "three-adjacent-colours", "colours": run,
                        "text": (f"{g.triple} or more of each of {', '.join(run)} "
                                 f"({', '.join(COLOUR_NAMES[s:s + 3])}) collected"),
                        "message": message("nibble.end.three-adjacent-colours", n=g.triple, letters=", ".join(run),
                                           **{f"c{k + 1}": message(f"nibble.colour.{COLOUR_NAMES[s + k]}")
                                              for k in range(3)})}
        major = [letters[c] for c, n in enumerate(counts) if n >= g.majority]
        return {"reason": "majorities", "colours": "".join(major),
                "text": (f"The board is empty: majorities in {len(major)} of {g.colours} colours "
                         f"({', '.join(major)})"),
                "message": message("nibble.end.majorities", k=len(major), colours=g.colours, letters=", ".join(major))}

    def turn_left_struct(self) -> dict[str, Any] | None:
        """Mid-turn: the colour being taken and the discs of it that may still be taken."""
        if self.take < 0 or self.winner >= 0:
            return None
        g = self.geometry
        return {"colour": g.letters[self.take],
                "more": [g.names[a] for a in self.legal_actions() if a != g.cells]}


__all__ = ["NibbleView"]
