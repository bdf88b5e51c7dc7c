"""Position text of Fibonacci: writing and reading it (Spec: fibonacci.md §7, §9.2, §9.3).

The game's FEN-like text, fields separated by single spaces:

* movement: ``<rows> <side> <left> <t>``, e.g. :data:`START_TEXT`;
* Go placement (§9.3): ``<rows> <side> P<k>``, ``k`` placements done (0–25), e.g. :data:`EMPTY_TEXT`;
* cards (§9.2): movement plus `` <redpile> <greenpile> rng=<16 hex>``, each pile top first
  (``-`` when empty); an observation shows a hidden pile as ``?`` and omits ``rng=``.

``<rows>`` is written and read by :func:`.notation.board_to_rows` and :func:`.notation.rows_to_cells`.
:func:`parse_position` checks the text alone (syntax, ranges, piece counts) and returns a
:class:`Position`; what a position read from text then means for the game (an end already on the
board, the repetition history, a turn of no moves) is the rules' part
(:meth:`.rules.FibonacciState.from_text`, rules/README.md "Positions read from text").

Below the rules: imports only the notation tables and the core's errors.
"""

from __future__ import annotations

from typing import NamedTuple

from ...core.errors import PositionError
from ...core.options import ascii_digits
from ...core.rng import SplitMix64
from .notation import (ATTACK, CORE, LETTERS, NUM_PLACEMENTS, SUPPORT, base_moves, board_to_rows, placement_kind,
                       rows_to_cells)

#: §2 standard start.
START_TEXT = "caaaaa/1a5/8/8S/2s3SSS1/3s3S3/1sss3S2/s8/8/5A1/AAAAAC R 1 1"
#: §9.3 empty board of the Go start.
EMPTY_TEXT = "6/7/8/9/10/11/10/9/8/7/6 R P0"

Piles = tuple[tuple[int, ...], tuple[int, ...]]


class Position(NamedTuple):
    """A position text read by :func:`parse_position`: the fields of a fresh
    :class:`.rules.FibonacciState` before the rules' bookkeeping."""

    cells: list[tuple[int, int]]  # (padded bit, piece code 1..6) of each occupied cell
    side: int  # 0 Red, 1 Green: the side to move (the placer in the Go start)
    left: int  # moves left in the turn, 0..6 (0 during the Go placement)
    turn: int  # t ≥ 1; 0 during the Go placement
    placed: int  # placements done, 0..25 in the Go start, else 26
    piles: Piles  # (Red's, Green's) draw piles, top first; ((), ()) outside the cards variant
    rng_state: int  # cards: the generator's 64-bit state; 0 outside the cards variant


def pile_text(pile: tuple[int, ...]) -> str:
    """A draw pile's field, top first: ``"3152"``; ``"-"`` when empty (§9.2)."""
    return "".join(map(str, pile)) if pile else "-"


def position_text(board: list[int], side: int, left: int, turn: int, placed: int,
                  piles: Piles | None = None, rng_state: int = 0) -> str:
    """The position text of a state's fields (§7; ``P<k>`` while ``placed`` < 26, §9.3).

    ``board``: piece code per padded bit (see :mod:`.geometry`); ``side`` 0/1; ``piles`` and
    ``rng_state`` only in the cards variant (§9.2), ``piles=None`` otherwise. Raises nothing."""
    rows = board_to_rows(board)
    mover = "RG"[side]
    if placed < NUM_PLACEMENTS:
        return f"{rows} {mover} P{placed}"
    text = f"{rows} {mover} {left} {turn}"
    if piles is not None:
        p0, p1 = piles
        text += f" {pile_text(p0)} {pile_text(p1)} rng={rng_state:016x}"
    return text


def observation_text(board: list[int], side: int, left: int, turn: int, piles: Piles) -> str:
    """The cards variant's position text as a player sees it: a non-empty pile as ``?`` (its
    order is hidden), ``-`` for an empty one, no ``rng=`` (§9.2). Raises nothing."""
    p0, p1 = piles
    return f"{board_to_rows(board)} {'RG'[side]} {left} {turn} {'?' if p0 else '-'} {'?' if p1 else '-'}"


def parse_position(text: str, variant: str, seed: int | None = None) -> Position:
    """Read position text (§7) of ``variant`` (``"standard"``, ``"cards"`` or ``"go"``).

    In the cards variant ``rng=`` may be left out; the generator then starts from ``seed`` (the
    game's seed option, 0 when absent), like any counter absent from a text (rules/README.md
    "Positions read from text").

    Raises:
        PositionError: naming the problem — not a string, empty, bad rows, a side other than
            ``R``/``G``, ``P<k>`` outside variant=go or out of 0..25 or of the wrong side, too many
            pieces for the placements still to come, the wrong number of fields, ``left`` not in
            0..6 or above ``base(t)`` (§3; not in the cards variant), ``t`` < 1, not exactly one core
            per side or more than 6 attackers or supports, a bad pile or ``rng=`` field.
    """
    if not isinstance(text, str):
        raise PositionError(f"position {text!r} is not a string")
    fields = text.split()
    if not fields:
        raise PositionError("empty position text")
    cards = variant == "cards"
    cells = rows_to_cells(fields[0])
    if len(fields) < 2 or fields[1] not in ("R", "G"):
        raise PositionError(f"position {text!r}: side to move must be R or G")
    side = 0 if fields[1] == "R" else 1
    counts = [0] * 7
    for _, code in cells:
        counts[code] += 1
    if len(fields) == 3 and fields[2].startswith("P"):
        if variant != "go":
            raise PositionError(f"position {text!r}: placement phase 'P<k>' exists only in variant=go")
        k = _int_field(fields[2][1:], "placement count", text)
        if not 0 <= k < NUM_PLACEMENTS:
            raise PositionError(f"position {text!r}: placement count {k} is not in 0..25")
        if side != k % 2:
            raise PositionError(f"position {text!r}: placement {k + 1} belongs to {'RG'[k % 2]}")
        for player in (0, 1):
            for kind, limit in ((CORE, 1), (ATTACK, 6), (SUPPORT, 6)):
                todo = sum(1 for j in range(k, NUM_PLACEMENTS) if j % 2 == player and placement_kind(j) == kind)
                n = counts[1 + 3 * player + kind]
                if n + todo > limit:
                    raise PositionError(
                        f"position {text!r}: {n} {LETTERS[1 + 3 * player + kind]!r} on the board and "
                        f"{todo} still to place exceed {limit}")
        return Position(cells, side, 0, 0, k, ((), ()), 0)
    want = (6, 7) if cards else (4,)
    if len(fields) not in want:
        form = "<rows> <side> <left> <t>" + (" <redpile> <greenpile> [rng=<hex>]" if cards else "")
        raise PositionError(f"position {text!r}: expected {' or '.join(map(str, want))} fields ({form})")
    left = _int_field(fields[2], "moves left", text)
    turn = _int_field(fields[3], "turn number", text)
    if not 0 <= left <= 6:
        raise PositionError(f"position {text!r}: moves left {left} is not in 0..6")
    if turn < 1:
        raise PositionError(f"position {text!r}: turn number {turn} must be at least 1")
    if not cards and left > base_moves(turn):
        # no turn ever holds more than base(t) moves (§3); only the card variant's cards differ
        raise PositionError(f"position {text!r}: moves left {left} exceeds base(t) = "
                            f"{base_moves(turn)} of turn {turn}")
    for player in (0, 1):
        if counts[1 + 3 * player] != 1:
            raise PositionError(f"position {text!r}: {'Red' if player == 0 else 'Green'} needs exactly "
                                f"one core, found {counts[1 + 3 * player]}")
        for kind in (ATTACK, SUPPORT):
            code = 1 + 3 * player + kind
            if counts[code] > 6:
                raise PositionError(f"position {text!r}: {counts[code]} pieces {LETTERS[code]!r}, at most 6")
    piles: Piles = ((), ())
    rng_state = 0
    if cards:
        piles = (_parse_pile(fields[4], text), _parse_pile(fields[5], text))
        if len(fields) == 6:
            rng_state = SplitMix64(seed or 0).state
        elif not fields[6].startswith("rng=") or len(fields[6]) != 20:
            raise PositionError(f"position {text!r}: expected rng=<16 hex digits>, got {fields[6]!r}")
        else:
            try:
                rng_state = int(fields[6][4:], 16)
            except ValueError:
                raise PositionError(f"position {text!r}: {fields[6]!r} is not 16 hex digits") from None
    return Position(cells, side, left, turn, NUM_PLACEMENTS, piles, rng_state)


def _parse_pile(field: str, text: str) -> tuple[int, ...]:
    """A pile field (§9.2): digits 1–6, top first, at most two of a value; ``-`` is empty.
    Raises :class:`PositionError` quoting ``text``, the whole position."""
    if field == "-":
        return ()
    if not field.isdigit() or any(ch not in "123456" for ch in field):
        raise PositionError(f"position {text!r}: pile {field!r} must be digits 1-6 or '-'")
    pile = tuple(int(ch) for ch in field)
    for v in range(1, 7):
        if pile.count(v) > 2:
            raise PositionError(f"position {text!r}: pile {field!r} holds {pile.count(v)} cards of value {v}, at most 2")
    return pile


def _int_field(field: str, what: str, text: str) -> int:
    """A counter field as ASCII decimal digits; raises :class:`PositionError` quoting ``text``."""
    if not ascii_digits(field):
        raise PositionError(f"position {text!r}: {what} {field!r} is not a decimal number")
    return int(field)


__all__ = ["START_TEXT", "EMPTY_TEXT", "Position", "parse_position", "position_text", "observation_text",
           "pile_text"]
