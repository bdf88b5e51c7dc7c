"""Fibonacci's structured view (``State.to_struct``; envelope in :mod:`abstracta.core.view`).

Spec: fibonacci.md §1 (cells, drawing geometry), §2 (pieces), §3 (moves per turn), §4 (groups,
destinations, swaps), §5 (end), §9.2 (cards), §9.3 (Go placement). Seat 0 is Red, 1 Green.

``board``::

    {"variant": "standard" | "cards" | "go",
     "phase": "movement" | "placement",      # placement: the Go start's first 26 actions
     "t": 1,                                  # turn number (0 during the Go placement)
     "placed": 26,                            # placements done (26 once movement has begun)
     "cells": [                               # all 91 cells, canonical order a1 … k11
        {"id": "a1", "row": 1, "col": 1,      # row 1..11 = a..k, column 1..11 (§1)
         "x": 0.5, "y": 0.866,                # centre: x = c − r/2, y = r·√3/2 (y grows upward)
         "piece": null | {"seat": 0, "kind": "core" | "attack" | "support",
                          "letter": "C",      # position-text letter (Red C A S, Green c a s)
                          "group": 0 | null}},  # index into "groups" (cores: null)
        ...],
     "groups": [                              # §4 groups: connected pieces of one owner and type
        {"id": 0, "seat": 0, "kind": "attack", "cells": ["a1", "a2", "a3", "a4", "a5", "b6"],
         "links": [["a1", "a2"], ...]},       # neighbouring cells of the group (to draw the snake)
        ...],                                 # ordered by first cell
     "cores": [                               # one entry per core on the board
        {"seat": 0, "cell": "a6",
         "ring": ["b7", "b6", "a5"],          # on-board neighbours (§1 order E NE NW W SW SE)
         "attackers": [],                     # ring cells holding ENEMY attack pieces: they cut
                                              # the owner's moves per turn (§3) and threaten §5
         "six": false}],                      # six on-board neighbours: can be surrounded (§5)
     "cards": null | {                        # cards variant only (§9.2); pile order is hidden
        "card": 3 | null,                     # from everyone: only sizes and revealed cards
        "piles": [11, 12],                    # cards left in Red's and Green's draw piles
        "revealed": [{"seat": 1, "t": 2, "card": 5}, {"seat": 0, "t": 3, "card": 3}]},  # last two
                                              # revealed_board_struct (a finished game's replay)
                                              # adds "pile_cards": [[3, 1, ...], [...]], each
                                              # pile's cards top first
     "win": null | {"seat": 0,                # the winning pattern of a decided game
                    "core": "f6",             # the loser's core
                    "cells": ["e5", "e6", "f5", "f7", "g6", "g7"]}}  # the winner's attackers that
                                              # make it: the ring (§5), the whole group (§9.2)

``choices`` (keys present only when they have actions)::

    {"moves": [{"from": "a1",                 # a piece of the mover (attack or support)
                "to": [{"cell": "a6", "swap": true, "action": "a1-a6"}, ...]},  # swap: occupied
               ...],                          # canonical order (by from, then to)
     "pass": {"action": "pass"},              # end the turn early (§3)
     "place": {"kind": "support", "letter": "S",          # Go placement (§9.3): the piece type
               "cells": [{"cell": "a1", "action": "S@a1"}, ...]}}   # is fixed; any empty cell

``turn.left`` (:meth:`FibonacciView.turn_left_struct`)::

    {"phase": "movement", "moves": 3, "t": 9,
     "base": 6 | null,                        # base(t) = min(t, 6) (§3); null in the cards variant
     "card": 3 | null}                        # the card that set this turn's moves (cards)
    {"phase": "placement", "placement": 13, "of": 26, "kind": "attack", "letter": "A"}

Effects: a move touches ``[from, to]`` (a swap moves the occupant to ``from``; nothing is
ever removed, §4); a placement touches its cell; ``pass`` touches nothing. In the cards variant
an action that ends the turn reveals the next player's card: ``revealed`` =
``[{"seat": 1, "card": 4}]`` (revealed cards are public, §10). ``text``: the step in players'
words — ``"Red attacker b6→c7"``, ``"Red support e7→f6, swapping with Green's core (now on e7)"``,
``"Red places a support on e5"``, ``"Green passes (1 move unused)"``, a turned-up card appended
(``"…; Green's next card is 6"``).

End reasons: ``surrounded`` (§5), ``pattern`` (cards win, §9.2), ``repetition`` and
``turn-limit`` (draws, §5); ``end["turn"]`` is the turn the game ended in (300 at the turn limit,
where the position text's counter reads 301).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ...core.view import message
from .geometry import BIT, BIT_OF_NAME, COL_OF, DEG6, NAME, NBM, NEIGHBOURS, NUM_CELLS, ROW_OF, group_of
from .notation import LETTERS, MAX_TURNS, NMOVE, NUM_PLACEMENTS, PASS, PLACE0, base_moves, placement_kind

if TYPE_CHECKING:  # pragma: no cover
    # the state this view is mixed into (rules.FibonacciState), named without importing the
    # rules, which import this module
    from ...core.game import State as FibonacciState

SEAT_NAMES = ("Red", "Green")
KINDS = ("core", "attack", "support")
#: A piece kind in players' words.
KIND_WORD = {"core": "core", "attack": "attacker", "support": "support"}
_ROOT3_2 = math.sqrt(3) / 2
#: Static part of every cell entry, built once: (bit, id, row, col, x, y).
_CELLS: tuple[tuple[int, str, int, int, float, float], ...] = tuple(
    (b, NAME[b], ROW_OF[b], COL_OF[b], round(COL_OF[b] - ROW_OF[b] / 2, 4), round(ROW_OF[b] * _ROOT3_2, 4))
    for b in BIT)
#: Neighbours of each bit that come later in canonical order (each link of a group once).
_LATER: dict[int, tuple[int, ...]] = {b: tuple(n for n in NEIGHBOURS[b] if n > b) for b in BIT}
#: Ring (on-board neighbours, §1 order) of each bit as cell names.
_RING: dict[int, list[str]] = {b: [NAME[n] for n in NEIGHBOURS[b]] for b in BIT}
#: Per cell (canonical order): its bit, its entry of ``board["cells"]`` when empty, and its entries
#: with a piece, by piece code and group (``code + 8 * (group + 1)``; a core: ``code``), made when
#: first met. An entry is a pure function of those, so the boards of
#: :meth:`FibonacciView.shared_board_struct` share them (read-only): a move changes two cells, not
#: the 91 entries.
_CELL_ENTRIES: tuple[tuple[int, dict[str, Any], dict[int, dict[str, Any]]], ...] = tuple(
    (b, {"id": cid, "row": r, "col": c, "x": x, "y": y, "piece": None}, {}) for b, cid, r, c, x, y in _CELLS)


#: A move's notation (``"e8-f9"``) read into its cells, the destination's bit and its entries of
#: ``choices["moves"][…]["to"]`` (to an empty cell, to an occupied one: a swap), when first met
#: (at most one per move of the action space). An entry is a pure function of those, so the
#: choices of :meth:`FibonacciView.shared_choices_struct` share them (read-only).
_MOVE_PARTS: dict[str, tuple[str, str, int, tuple[dict[str, Any], dict[str, Any]]]] = {}


@lru_cache(maxsize=4096)
def _components(pieces: int) -> tuple[tuple[int, int], ...]:
    """The groups (§4) of the pieces ``pieces`` (one owner and type): ``(lowest bit + 1, mask)``
    each, flooded once per bitboard (a move changes one or two of the four, not all)."""
    out = []
    rem = pieces
    while rem:
        g = group_of(rem & -rem, rem)
        rem &= ~g
        out.append(((g & -g).bit_length(), g))
    return tuple(out)


@lru_cache(maxsize=4096)
def _group(mask: int) -> tuple[tuple[int, ...], list[str], list[list[str]]]:
    """A group's bits, its cell names and its links (each pair of neighbouring cells once, the
    lower first), canonical order; kept per group (a move changes one or two groups, not all:
    the lists are shared by the boards of :meth:`FibonacciView.shared_board_struct`, read-only)."""
    bits = []
    links = []
    m = mask
    while m:
        low = m & -m
        b = low.bit_length() - 1
        bits.append(b)
        links += [[NAME[b], NAME[n]] for n in _LATER[b] if mask >> n & 1]
        m ^= low
    return tuple(bits), [NAME[b] for b in bits], links


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _cells_of(mask: int) -> list[str]:
    """Names of the cells of ``mask``, canonical order (bit order is row, then column)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(NAME[low.bit_length() - 1])
        mask ^= low
    return out


class FibonacciView:
    """The structured-view hooks of :class:`.rules.FibonacciState`."""

    # ------------------------------------------------------------------ board
    def board_struct(self: "FibonacciState", player: int | None) -> dict[str, Any]:
        """The board of the module docstring (fresh data: the caller may change it)."""
        board = self.shared_board_struct(player)
        board["cells"] = [dict(c) if c["piece"] is None else {**c, "piece": dict(c["piece"])} for c in board["cells"]]
        for group in board["groups"]:
            group["cells"], group["links"] = list(group["cells"]), [list(link) for link in group["links"]]
        return board

    def shared_board_struct(self: "FibonacciState", player: int | None) -> dict[str, Any]:
        """:meth:`board_struct` with the cells' entries and the groups' lists shared by every
        board (read-only)."""
        bb = self.bitboards
        board = self.board
        # §4 groups of attack and support pieces (codes 2, 3, 5, 6), flooded once per call
        found: list[tuple[int, int, int]] = []  # (lowest bit, code, mask): sorted = by first cell
        for code in (2, 3, 5, 6):
            found += [(low, code, g) for low, g in _components(bb[code])]
        found.sort()
        groups: list[dict[str, Any]] = []
        group_at: dict[int, int] = {}
        for gid, (_low, code, g) in enumerate(found):
            bits, names, links = _group(g)
            for b in bits:
                group_at[b] = gid
            groups.append({"id": gid, "seat": (code - 1) // 3, "kind": KINDS[(code - 1) % 3],
                           "cells": names, "links": links})

        cells = []
        for b, empty, kept in _CELL_ENTRIES:
            code = board[b]
            if not code:
                cells.append(empty)
                continue
            gid = group_at.get(b)
            key = code if gid is None else code + 8 * (gid + 1)
            entry = kept.get(key)
            if entry is None:
                entry = kept[key] = {**empty, "piece": {"seat": (code - 1) // 3, "kind": KINDS[(code - 1) % 3],
                                                        "letter": LETTERS[code], "group": gid}}
            cells.append(entry)

        cores = []
        for seat in (0, 1):
            core = bb[1 + 3 * seat]
            if not core:
                continue  # Go placement: not placed yet
            cb = core.bit_length() - 1
            cores.append({"seat": seat, "cell": NAME[cb], "ring": list(_RING[cb]),
                          "attackers": _cells_of(NBM[cb] & bb[5 - 3 * seat]), "six": bool(core & DEG6)})

        cards = None
        if self._cards:
            cards = {"card": self.card, "piles": [len(self.piles[0]), len(self.piles[1])],
                     "revealed": [{"seat": s, "t": t, "card": v} for s, t, v in self.revealed[-2:]]}

        return {"variant": self.game.variant,
                "phase": "placement" if self.placed < NUM_PLACEMENTS else "movement",
                "t": self.turn, "placed": self.placed,
                "cells": cells, "groups": groups, "cores": cores, "cards": cards,
                "win": self._win_struct()}

    def revealed_board_struct(self: "FibonacciState", player: int | None) -> dict[str, Any]:
        """:meth:`board_struct` with the order of both draw piles (cards variant)."""
        board = self.board_struct(player)
        if board["cards"] is not None:
            board["cards"]["pile_cards"] = [list(self.piles[0]), list(self.piles[1])]
        return board

    def _win_struct(self: "FibonacciState") -> dict[str, Any] | None:
        """The pattern that decided the game (§5 ring, §9.2 group + touching), or ``None``."""
        winner = self.winner()
        if winner is None:
            return None
        bb = self.bitboards
        core = bb[4 - 3 * winner]
        if not core:
            return None
        cb = core.bit_length() - 1
        att = bb[2 + 3 * winner]
        # §9.2: the whole attacking group; §5: the six ring cells (all the winner's attackers)
        cells = att if self._cards else NBM[cb] & att
        return {"seat": winner, "core": NAME[cb], "cells": _cells_of(cells)}

    # ------------------------------------------------------------------ choices
    def choices_struct(self: "FibonacciState", legal: list[str]) -> dict[str, Any]:
        """The choices of the module docstring (fresh data: the caller may change it)."""
        return self._choices(legal, False)

    def shared_choices_struct(self: "FibonacciState", legal: list[str]) -> dict[str, Any]:
        """:meth:`choices_struct` with the destinations' entries shared by every state's choices
        (read-only): a move's view builds its ~100 destinations' lists, not their entries."""
        return self._choices(legal, True)

    def _choices(self: "FibonacciState", legal: list[str], shared: bool) -> dict[str, Any]:
        out: dict[str, Any] = {}
        moves: list[dict[str, Any]] = []
        by_from: dict[str, list] = {}
        place: list[dict[str, str]] = []
        board = self.board
        for s in legal:
            parts = _MOVE_PARTS.get(s)
            if parts is None:
                if s == "pass":
                    out["pass"] = {"action": s}
                    continue
                if "@" in s:
                    place.append({"cell": s[2:], "action": s})
                    continue
                frm, _, to = s.partition("-")
                parts = _MOVE_PARTS[s] = (frm, to, BIT_OF_NAME[to], ({"cell": to, "swap": False, "action": s},
                                                                    {"cell": to, "swap": True, "action": s}))
            frm, to, to_bit, entries = parts
            dests = by_from.get(frm)
            if dests is None:
                dests = by_from[frm] = []
                moves.append({"from": frm, "to": dests})
            entry = entries[board[to_bit] != 0]
            dests.append(entry if shared else dict(entry))
        if moves:
            out["moves"] = moves
        if place:
            letter = legal[0][0]
            out["place"] = {"kind": KINDS["CAS".index(letter)], "letter": letter, "cells": place}
        return out

    # ------------------------------------------------------------------ effects
    def action_effects(self: "FibonacciState", action: int, player: int | None) -> dict[str, list]:
        """Touched cells of ``action``; in the cards variant the card its turn end reveals.

        That card is the real top of a hidden pile: it is public once the action is played
        (``build_struct`` asks only about played steps), so do not call this to preview a move.
        """
        touched: list[str] = []
        if 0 <= action < NMOVE:
            touched = [NAME[BIT[action // NUM_CELLS]], NAME[BIT[action % NUM_CELLS]]]
        elif action >= PLACE0:
            touched = [NAME[BIT[action - PLACE0]]]
        revealed: list[dict[str, int]] = []
        # cards: an action that ends the turn reveals the next card (public, §9.2/§10); only
        # those actions can, so only they pay for a clone (apply on a clone: self stays as is)
        if self._cards and self.result is None and (action == PASS or self.left == 1):
            after = self.clone()
            n = len(after.revealed)
            after.apply_action(action)
            revealed = [{"seat": s, "card": v} for s, _t, v in after.revealed[n:]]
        text, said = self._effect_text(action, touched, revealed)
        return {"touched": touched, "removed": [], "revealed": revealed, "text": text, "message": said}

    def _effect_text(self: "FibonacciState", action: int, touched: list[str],
                     revealed: list[dict[str, int]]) -> tuple[str, list[dict[str, Any]]]:
        """``action`` in players' words: "Red attacker b6→c7", "Red support e7→f6, swapping with
        Green's core (now on e7)", "Red places a support on e5", "Green passes"; a card the turn
        end turns up is added ("; Green's next card is 4"). With the words as messages, one
        per part (:func:`abstracta.core.view.message`)."""
        side = self.side
        seat = message(f"fibonacci.seat.{side}")
        if action == PASS:
            text = f"{SEAT_NAMES[side]} passes"
            said = [message("fibonacci.step.pass", who=seat)]
            if self.left >= 1:
                text += f" ({plural(self.left, 'move')} unused)"
                said.append(message("fibonacci.step.unused", n=self.left))
        elif len(touched) == 1:
            kind = KINDS[placement_kind(self.placed)]
            word = KIND_WORD[kind]
            text = f"{SEAT_NAMES[side]} places {'an' if word[0] in 'aeiou' else 'a'} {word} on {touched[0]}"
            said = [message(f"fibonacci.step.place.{kind}", who=seat, cell=touched[0])]
        else:
            frm, to = touched
            board = self.board
            p, q = board[BIT_OF_NAME[frm]], board[BIT_OF_NAME[to]]
            text = f"{SEAT_NAMES[(p - 1) // 3]} {KIND_WORD[KINDS[(p - 1) % 3]]} {frm}→{to}"
            said = [message("fibonacci.step.move", piece=message(f"fibonacci.piece.{(p - 1) // 3}.{KINDS[(p - 1) % 3]}"),
                            frm=frm, to=to)]
            if q:
                text += f", swapping with {SEAT_NAMES[(q - 1) // 3]}'s {KIND_WORD[KINDS[(q - 1) % 3]]} (now on {frm})"
                said.append(message("fibonacci.step.swap", frm=frm,
                                    piece=message(f"fibonacci.piece_of.{(q - 1) // 3}.{KINDS[(q - 1) % 3]}")))
        for r in revealed:
            text += f"; {SEAT_NAMES[r['seat']]}'s next card is {r['card']}"
            said.append(message(f"fibonacci.step.next_card.{r['seat']}", card=r["card"]))
        return text, said

    # ------------------------------------------------------------------ end, turn
    def end_struct(self: "FibonacciState") -> dict[str, Any] | None:
        if self.result is None:
            return None
        end = self._end_reason()
        # the turn counter runs on past the last turn (301 after turn 300, §5): the turn played last
        end["turn"] = min(self.turn, MAX_TURNS)
        return end

    def _end_reason(self: "FibonacciState") -> dict[str, Any]:
        winner = self.winner()
        if winner is None:
            if self.turn > MAX_TURNS:
                return {"reason": "turn-limit", "text": f"Turn {MAX_TURNS} ended without a winner: a draw",
                        "message": message("fibonacci.end.turn-limit", turn=MAX_TURNS)}
            return {"reason": "repetition",
                    "text": "The same position began a turn for the third time: a draw",
                    "message": message("fibonacci.end.repetition")}
        loser = winner ^ 1
        win = self._win_struct()
        core = win["core"] if win else "?"
        if self._cards:
            n = len(win["cells"]) if win else 0
            touching = (NBM[BIT_OF_NAME[core]] & self.bitboards[2 + 3 * winner]).bit_count() if win else 0
            return {"reason": "pattern",
                    "text": (f"{SEAT_NAMES[winner]}'s {n} attackers form one group touching "
                             f"{SEAT_NAMES[loser]}'s core on {core} at {touching} cells"),
                    "message": message(f"fibonacci.end.pattern.{winner}", n=n, core=core, touching=touching)}
        return {"reason": "surrounded",
                "text": f"{SEAT_NAMES[loser]}'s core on {core} is surrounded by six {SEAT_NAMES[winner]} attackers",
                "message": message(f"fibonacci.end.surrounded.{loser}", core=core)}

    def turn_left_struct(self: "FibonacciState") -> dict[str, Any] | None:
        if self.result is not None:
            return None
        if self.placed < NUM_PLACEMENTS:
            kind = placement_kind(self.placed)
            return {"phase": "placement", "placement": self.placed + 1, "of": NUM_PLACEMENTS,
                    "kind": KINDS[kind], "letter": "CAS"[kind]}
        return {"phase": "movement", "moves": self.left, "t": self.turn,
                "base": None if self._cards else base_moves(self.turn),
                "card": self.card if self._cards else None}


__all__ = ["FibonacciView", "SEAT_NAMES"]
