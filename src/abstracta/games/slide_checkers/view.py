"""Slide Checkers' structured view (``State.to_struct``; envelope in :mod:`abstracta.core.view`).

Spec: slide-checkers.md §1–§5. Perfect information: every viewer (and a spectator) sees the
same ``board``. Square names are the spec's (``a1`` … ``l12``, §1); ``x`` is the file index
(0 = a, left), ``y`` the rank index (0 = rank 1, bottom).

``board``::

    {"files": "abcdefghijkl", "ranks": 12,
     "layout": [1, 1],                        # the board option (a, b) of §2.1
     "seat_colours": ["G", "B"],              # the major colour letter of each seat (§2.3)
     "cells": [                               # 144 squares in index order a1, a2, …, a12, b1, …, l12
        {"id": "e4", "x": 4, "y": 3,
         "colour": "G",                       # square colour class R O Y G B z p q s t (§2.1);
                                              # palette key "square.<colour>"
         "friend": 0 | None,                  # the seat whose colour this square is (§2.3)
         "piece": 0 | None},                  # the seat whose piece stands here
        ...],
     "classes": [{"colour": "R", "size": 24, "seat": 2 | None}, ...],   # the ten classes of
                                              # §2.1 by name: majors R O Y G B, then z p q s t
     "phase": "placement" | "movement",
     "to_place": [7, 6],                      # pieces each seat has still to place (§3)
     "pieces": [1, 1],                        # pieces of each seat on the board
     "jump_from": "h4" | None,                # the piece that must continue a jump (§4.3)
     "no_jump": 3, "no_jump_limit": 100,      # turns without a jump, and the drawing count (§5)
     "passes": 0}                             # consecutive passes (§4.4, §5)

``choices`` (action strings only under ``"action"``; together exactly the legal list), one of::

    {"kind": "place", "cells": [{"cell": "e4", "action": "@e4"}, ...]}          # §3
    {"kind": "move" | "jump" | "continue",                                        # §4.1–§4.3
     "pieces": [{"from": "e4",
                 "transit": ["d5", "f4"],     # the piece's transit squares (§4.2): where it may
                                              # slide through and launch a first jump from;
                                              # [] for "continue"
                 "targets": [{"to": "h4", "options": [
                     {"action": "e4>f4*h4r", "via": "f4" | None, "over": "g4" | None,
                      "capture": "remove" | "exchange" | None}, ...]}, ...]}, ...]}
    {"kind": "pass", "action": "pass"}                                            # §4.4

``"move"``: steps and free moves, one option per target (``over`` and ``capture`` ``None``).
``"jump"`` (a first jump is compulsory): each landing square with its alternatives, which
differ in the launch square ``via`` (``None`` = from the start square) and in what happens to
the jumped piece on ``over``. ``"continue"``: one piece, the one on ``board["jump_from"]``.
Pieces and targets come in the order of the legal list; options in its order too.

``action_effects``: ``{"touched": [...], "removed": [...], "revealed": [], "converted": [...]}``
— ``touched`` is the start, launch and landing square of a move or jump (the placed square
for ``@e4``) plus a jumped piece that was exchanged; ``removed`` the jumped piece taken off
(``r``); ``converted`` the jumped piece exchanged for one of the mover's (``e``, also in
``touched``). ``pass`` touches nothing. ``path``: the squares the moving piece goes through
in order — start, launch (when it is not the start) and landing; ``[square]`` for a
placement, ``[]`` for ``pass`` (``c4>e4*c4r`` is ``["c4", "e4", "c4"]``); the board animates
along it. ``text``: the step in players' words, e.g. ``"Green e4→f5 (step)"``,
``"Green slides c9→d8, jumps d8→f8 over Blue's e8 and removes it"``,
``"Green jumps on h4→j4 over Blue's i4 and turns it Green"``
(see :meth:`SlideCheckersView._effect_text`).

``end``: reason ``"last-colour"`` (§5: one colour left), ``"no-jump"`` (100 turns without a
jump) or ``"all-passed"`` (every surviving seat passed in a row). ``turn.left``:
``{"jump_from": "h4"}`` while a jump chain must go on, else ``None``. ``eliminated``: the
seats without pieces once the movement phase has begun.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ...core.view import message
from .geometry import SEAT_NAMES, FILES, MAJORS, MINORS, NUM_SQUARES, SIZE, SQUARE_NAMES, colour_classes, square_colours
from .notation import CONT_BASE, JUMP_BASE, MOVE_BASE, MOVE_PHASE, NO_JUMP_LIMIT, PASS, action_id
from .tables import DIR_STEP, FULL, NB, NOT_Y0, NOT_Y11, SQ_OF_RANK

if TYPE_CHECKING:  # pragma: no cover
    from ...core.game import Game

#: English seat names by colour letter, as the description names the seats ("Green")
COLOUR_WORDS: dict[str, str] = {letter: str(text) for letter, text in SEAT_NAMES.items()}
_CAPTURE = ("exchange", "remove")  # by the kind bit of an action id (notation.KIND = "er")
#: An action's notation read (:func:`decode`) and its entries of ``choices["pieces"][…]["targets"]
#: […]["options"]`` (:func:`_option`), by notation and the state's continuing piece, when first
#: met: an entry is a pure function of those, so the choices of
#: :meth:`SlideCheckersView.shared_choices_struct` share them (read-only). Emptied when full.
_OPTIONS: dict[tuple[str, int], tuple[tuple[str, int, int, int, int, int], tuple[dict[str, Any], dict[str, Any]]]] = {}
OPTIONS_KEPT = 50_000


def _option(text: str, decoded: tuple[str, int, int, int, int, int]) -> tuple[tuple[str, int, int, int, int, int],
                                                                             tuple[dict[str, Any], dict[str, Any]]]:
    """``(decoded, (its option among moves, among jumps))`` of the action ``text`` (``decoded``:
    :func:`decode` of it): an option's ``via`` is named among jumps only."""
    _, start, launch, over, _land, bit = decoded
    return decoded, tuple({"action": text,
                           "via": SQUARE_NAMES[launch] if jumps and launch != start else None,
                           "over": SQUARE_NAMES[over] if over >= 0 else None,
                           "capture": _CAPTURE[bit] if bit >= 0 else None} for jumps in (False, True))


@lru_cache(maxsize=None)
def _static(layout: tuple[int, int], colours: str) -> tuple[tuple[tuple[str, int, int, str, int | None], ...],
                                                             tuple[tuple[str, int, int | None], ...]]:
    """The parts of ``board`` that depend only on the game's options, computed once per
    (board option, seat colours): ``(id, x, y, colour, friend)`` per square in index order, and
    ``(colour, size, seat)`` per class (from :func:`.geometry.colour_classes`), R O Y G B z p q s t."""
    letters = square_colours(*layout)
    seat_of = {c: i for i, c in enumerate(colours)}
    cells = tuple((SQUARE_NAMES[sq], sq // SIZE, sq % SIZE, letters[sq], seat_of.get(letters[sq]))
                  for sq in range(NUM_SQUARES))
    # majors first, in naming order: the legend lists the seats' colours before the minor classes
    named = sorted(colour_classes(*layout), key=lambda item: (MAJORS + MINORS).index(item[0]))
    classes = tuple((letter, len(pairs), seat_of.get(letter)) for letter, pairs in named)
    return cells, classes


@lru_cache(maxsize=None)
def _entries(layout: tuple[int, int], colours: str) -> tuple[tuple[dict[str, Any], ...], ...]:
    """Per square (index order), its entry of ``board["cells"]`` by what stands on it: index 0
    empty, ``seat + 1`` a piece of that seat. Made once per (board option, seat colours) and
    shared by the boards of :meth:`SlideCheckersView.shared_board_struct` (read-only), since a
    move changes two or three squares, not 144."""
    cells, _ = _static(layout, colours)
    return tuple(tuple({"id": name, "x": x, "y": y, "colour": colour, "friend": friend, "piece": piece}
                       for piece in (None, *range(len(colours))))
                 for name, x, y, colour, friend in cells)


def decode(action: int, jump_square: int) -> tuple[str, int, int, int, int, int]:
    """``(kind, start, launch, over, landing, capture_bit)`` of an action id (see
    :mod:`.notation`); ``kind`` is ``"place"``, ``"move"``, ``"jump"``, ``"continue"`` or
    ``"pass"``, squares are indices (−1 where they do not apply), ``capture_bit`` 0 for
    exchange and 1 for remove. ``jump_square`` is the state's continuing piece (§4.3)."""
    if action < MOVE_BASE:
        sq = SQ_OF_RANK[action]
        return "place", -1, -1, -1, sq, -1
    if action < JUMP_BASE:
        r = action - MOVE_BASE
        return "move", SQ_OF_RANK[r // NUM_SQUARES], -1, -1, SQ_OF_RANK[r % NUM_SQUARES], -1
    if action < CONT_BASE:
        r = action - JUMP_BASE
        bit, d, r = r & 1, (r >> 1) & 7, r >> 4
        start, launch = SQ_OF_RANK[r // NUM_SQUARES], SQ_OF_RANK[r % NUM_SQUARES]
        over = launch + DIR_STEP[d]
        return "jump", start, launch, over, over + DIR_STEP[d], bit
    if action < PASS:
        r = action - CONT_BASE
        land = SQ_OF_RANK[r >> 1]
        # sq = x*12 + y, and both coordinate sums are even: the midpoint is the index average
        return "continue", jump_square, jump_square, (jump_square + land) >> 1, land, r & 1
    return "pass", -1, -1, -1, -1, -1


class SlideCheckersView:
    """The structured-view hooks of :class:`.rules.SlideCheckersState` (shapes: module docstring)."""

    __slots__ = ()

    game: "Game"  # a SlideCheckersGame (rules.py mixes this view into its state)
    _n: int
    _bb: list[int]
    _occ: int
    _phase: int
    _remain: list[int]
    _turn: int
    _jsq: int
    _nj: int
    _passes: int
    _winner: int

    def board_struct(self, player: int | None) -> dict[str, Any]:
        """The position (module docstring ``board``); the same for every viewer. Fresh data."""
        board = self.shared_board_struct(player)
        board["cells"] = [dict(cell) for cell in board["cells"]]
        return board

    def shared_board_struct(self, player: int | None) -> dict[str, Any]:
        """:meth:`board_struct` with the squares' entries shared by every board (read-only)."""
        game = self.game
        _, classes = _static(game.board, game.colours)
        owner = [0] * NUM_SQUARES  # per square: 0 empty, seat + 1
        for seat, b in enumerate(self._bb, 1):
            while b:
                low = b & -b
                owner[low.bit_length() - 1] = seat
                b ^= low
        return {
            "files": FILES, "ranks": SIZE, "layout": list(game.board), "seat_colours": list(game.colours),
            "cells": [entries[piece] for entries, piece in zip(_entries(game.board, game.colours), owner)],
            "classes": [{"colour": c, "size": size, "seat": seat} for c, size, seat in classes],
            "phase": "movement" if self._phase == MOVE_PHASE else "placement",
            "to_place": list(self._remain),
            "pieces": [b.bit_count() for b in self._bb],
            "jump_from": SQUARE_NAMES[self._jsq] if self._jsq >= 0 else None,
            "no_jump": self._nj, "no_jump_limit": NO_JUMP_LIMIT, "passes": self._passes,
        }

    def _transit(self, start: int) -> int:
        """Bitboard of the transit squares of the mover's piece on ``start`` (§4.2): empty
        friendly squares reachable by king-steps through empty friendly squares. The same
        flood fill as the move generator, on the precomputed neighbour tables."""
        region = (FULL ^ self._occ) & self.game.friend[self._turn]
        t = NB[start] & region
        while t:
            v = t | ((t << 1) & NOT_Y0) | ((t >> 1) & NOT_Y11)
            nt = (v | (v << SIZE) | (v >> SIZE)) & region
            if nt == t:
                break
            t = nt
        return t

    def choices_struct(self, legal: list[str]) -> dict[str, Any]:
        """``legal`` grouped as a person picks them (module docstring ``choices``; fresh data:
        the caller may change it)."""
        return self._choices(legal, False)

    def shared_choices_struct(self, legal: list[str]) -> dict[str, Any]:
        """:meth:`choices_struct` with the options' entries shared by every state's choices
        (read-only): a move's view reads and writes each legal action once per game, not once
        per view."""
        return self._choices(legal, True)

    def _choices(self, legal: list[str], shared: bool) -> dict[str, Any]:
        if legal == ["pass"]:
            return {"kind": "pass", "action": "pass"}
        jsq = self._jsq
        read = []
        for text in legal:
            kept = _OPTIONS.get((text, jsq))
            if kept is None:
                if len(_OPTIONS) >= OPTIONS_KEPT:
                    _OPTIONS.clear()
                kept = _OPTIONS[(text, jsq)] = _option(text, decode(action_id(text), jsq))
            read.append(kept)
        if read[0][0][0] == "place":
            return {"kind": "place", "cells": [{"cell": SQUARE_NAMES[k[0][4]], "action": text}
                                               for text, k in zip(legal, read)]}
        kind = read[0][0][0]
        jumps = kind == "jump"
        pieces: dict[int, dict[str, Any]] = {}
        targets: dict[tuple[int, int], list[dict[str, Any]]] = {}
        for (_, start, _launch, _over, land, _bit), entries in read:
            piece = pieces.get(start)
            if piece is None:
                transit = [] if kind == "continue" else _names(self._transit(start))
                piece = pieces[start] = {"from": SQUARE_NAMES[start], "transit": transit, "targets": []}
            options = targets.get((start, land))
            if options is None:
                options = targets[(start, land)] = []
                piece["targets"].append({"to": SQUARE_NAMES[land], "options": options})
            entry = entries[jumps]
            options.append(entry if shared else dict(entry))
        return {"kind": kind, "pieces": list(pieces.values())}

    def action_effects(self, action: int, player: int | None) -> dict[str, Any]:
        """What ``action`` does (module docstring); perfect information: ``player`` unused."""
        kind, start, launch, over, land, bit = decode(action, self._jsq)
        text, said = self._effect_text(kind, start, launch, over, land, bit)
        if kind == "pass":
            return {"touched": [], "removed": [], "revealed": [], "converted": [], "path": [], "text": text,
                    "message": said}
        if kind == "place":
            return {"touched": [SQUARE_NAMES[land]], "removed": [], "revealed": [], "converted": [],
                    "path": [SQUARE_NAMES[land]], "text": text, "message": said}
        route = [start, land] if kind != "jump" or launch == start else [start, launch, land]
        path = [SQUARE_NAMES[sq] for sq in route]
        touched: list[str] = []
        for name in path:  # a launched jump may land back on its start square
            if name not in touched:
                touched.append(name)
        if kind == "move":
            return {"touched": touched, "removed": [], "revealed": [], "converted": [], "path": path,
                    "text": text, "message": said}
        if bit:
            return {"touched": touched, "removed": [SQUARE_NAMES[over]], "revealed": [], "converted": [],
                    "path": path, "text": text, "message": said}
        return {"touched": touched + [SQUARE_NAMES[over]], "removed": [], "revealed": [],
                "converted": [SQUARE_NAMES[over]], "path": path, "text": text, "message": said}

    def _effect_text(self, kind: str, start: int, launch: int, over: int, land: int,
                     bit: int) -> tuple[str, dict[str, Any]]:
        """The step in players' words: ``"Green places a piece on e4"``, ``"Green e4→f5 (step)"``,
        ``"Green e4→g5 (slide)"``, ``"Green slides c9→d8, jumps d8→f8 over Blue's e8 and removes
        it"``, ``"Green jumps on h4→j4 over Blue's i4 and turns it Green"``, ``"Green passes (no
        piece can move)"``. A step ends next to its start square; a longer move is a slide (§4.2).
        With the words as a message (:func:`abstracta.core.view.message`)."""
        letter = self.game.colours[self._turn]
        mover = COLOUR_WORDS[letter]
        who = message(f"slide-checkers.colour.{letter}")
        name = SQUARE_NAMES
        if kind == "pass":
            return f"{mover} passes (no piece can move)", message("slide-checkers.step.pass", who=who)
        if kind == "place":
            return (f"{mover} places a piece on {name[land]}",
                    message("slide-checkers.step.place", who=who, square=name[land]))
        if kind == "move":
            near = max(abs(start // SIZE - land // SIZE), abs(start % SIZE - land % SIZE)) == 1
            how = "step" if near else "slide"
            return (f"{mover} {name[start]}→{name[land]} ({how})",
                    message(f"slide-checkers.step.{how}", who=who, frm=name[start], to=name[land]))
        victim = next((i for i, b in enumerate(self._bb) if b >> over & 1), None)
        whose = f"{COLOUR_WORDS[self.game.colours[victim]]}'s " if victim is not None else ""
        fate = "removes it" if bit else f"turns it {mover}"
        jump = f"{name[launch]}→{name[land]} over {whose}{name[over]} and {fate}"
        words = dict(who=who, frm=name[launch], to=name[land],
                     over=message(f"slide-checkers.over.{self.game.colours[victim]}" if victim is not None
                                  else "slide-checkers.over.none", square=name[over]),
                     fate=message("slide-checkers.fate.remove" if bit else f"slide-checkers.fate.convert.{letter}"))
        if kind == "continue":
            return f"{mover} jumps on {jump}", message("slide-checkers.step.jump-on", **words)
        if launch != start:
            return (f"{mover} slides {name[start]}→{name[launch]}, jumps {jump}",
                    message("slide-checkers.step.slide-jump", start=name[start], **words))
        return f"{mover} jumps {jump}", message("slide-checkers.step.jump", **words)

    def end_struct(self) -> dict[str, Any] | None:
        """Why the game ended (§5), ``None`` while it runs."""
        if not self.is_terminal():  # type: ignore[attr-defined]
            return None
        if self._winner >= 0:
            colour = self.game.colours[self._winner]
            return {"reason": "last-colour", "text": f"Only {COLOUR_WORDS[colour]} pieces are left on the board",
                    "message": message(f"slide-checkers.end.last-colour.{colour}")}
        if self._nj >= NO_JUMP_LIMIT:
            return {"reason": "no-jump", "text": f"{NO_JUMP_LIMIT} turns without a jump: a draw",
                    "message": message("slide-checkers.end.no-jump", n=NO_JUMP_LIMIT)}
        return {"reason": "all-passed", "text": "Nobody can move: a draw",
                "message": message("slide-checkers.end.all-passed")}

    def turn_left_struct(self) -> dict[str, Any] | None:
        """``{"jump_from": square}`` while the mover's jump chain must go on (§4.3)."""
        return {"jump_from": SQUARE_NAMES[self._jsq]} if self._jsq >= 0 else None

    def eliminated_struct(self) -> list[dict[str, Any]]:
        """Seats without pieces in the movement phase (§5; during placement a seat without
        pieces may still place)."""
        if self._phase != MOVE_PHASE:
            return []
        colours = self.game.colours
        return [{"seat": i, "text": f"{COLOUR_WORDS[colours[i]]} has no pieces left",
                 "message": message("slide-checkers.eliminated", who=message(f"slide-checkers.colour.{colours[i]}"))}
                for i, b in enumerate(self._bb) if not b]


def _names(bits: int) -> list[str]:
    """Square names of a bitboard, in square-index order."""
    out = []
    while bits:
        low = bits & -bits
        out.append(SQUARE_NAMES[low.bit_length() - 1])
        bits ^= low
    return out


__all__ = ["SlideCheckersView", "decode"]
