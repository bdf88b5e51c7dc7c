"""Board geometry and square colours of Slide Checkers (Spec: slide-checkers.md §1–§2).

Squares are numbered ``sq = x * 12 + y`` (file index ``x`` 0…11 = ``a…l``, rank index ``y``
0…11 = ranks 1…12), so a bitboard is an ``int`` whose bit ``sq`` marks the square.

The colour classes are the cycles of ``F(p, q) = (q, (a·q + b·p) mod 12)``; square ``(x, y)``
takes the class of the pair ``(x, y)``. Classes are ordered by their smallest pair; the five
24-square classes are named ``R O Y G B`` and the others ``z p q s t`` (§2.1).
"""

from __future__ import annotations

from functools import lru_cache
from xml.sax.saxutils import escape

from ...core.description import texts

T = texts("slide-checkers")

SIZE = 12
NUM_SQUARES = SIZE * SIZE
FILES = "abcdefghijkl"
#: The ``board`` options the spec lists (§ options), default first.
BOARDS: tuple[tuple[int, int], ...] = ((1, 1), (5, 1), (7, 1), (11, 1), (1, 7), (5, 7))
MAJORS = "ROYGB"
MINORS = "zpqst"
#: Display colours (CSS names / hex) of the ten classes, for SVG and terminal rendering.
#: The seats' colours in words (the view's effects and the description's seat names).
SEAT_NAMES = {"R": T("colour.R", "Red"), "O": T("colour.O", "Orange"), "Y": T("colour.Y", "Yellow"),
              "G": T("colour.G", "Green"), "B": T("colour.B", "Blue")}
PALETTE: dict[str, str] = {
    "R": "#d7263d", "O": "#f49d37", "Y": "#f5e663", "G": "#3fa34d", "B": "#2e86de",
    "z": "#222222", "p": "#b07cc6", "q": "#9a9a9a", "s": "#7b4a2e", "t": "#f4b6c2",
}
COLOUR_NAMES: dict[str, str] = {
    "R": "red", "O": "orange", "Y": "yellow", "G": "green", "B": "blue",
    "z": "minor", "p": "minor", "q": "minor", "s": "minor", "t": "minor",
}


def square_name(sq: int) -> str:
    """``square_name(0) == "a1"``, ``square_name(143) == "l12"``."""
    return FILES[sq // SIZE] + str(sq % SIZE + 1)


#: Square names by square index, and the reverse map.
SQUARE_NAMES: tuple[str, ...] = tuple(square_name(sq) for sq in range(NUM_SQUARES))
SQUARE_INDEX: dict[str, int] = {name: sq for sq, name in enumerate(SQUARE_NAMES)}


def check_board(board: tuple[int, int]) -> tuple[int, int]:
    """Return ``board`` as a tuple; ``ValueError`` if it is not one of :data:`BOARDS`."""
    pair = tuple(board)
    if pair not in BOARDS:
        allowed = " ".join(f"{a},{b}" for a, b in BOARDS)
        raise ValueError(f"board {board!r} is not one of {allowed}")
    return pair  # type: ignore[return-value]


@lru_cache(maxsize=None)
def colour_classes(a: int, b: int) -> tuple[tuple[str, tuple[tuple[int, int], ...]], ...]:
    """The ten classes of board ``(a, b)`` in spec order: ``(letter, pairs in cycle order)``.

    Cycle order starts at the smallest pair. Raises ``ValueError`` for an unlisted board.
    Spec: slide-checkers.md §2.1.
    """
    check_board((a, b))
    seen: set[tuple[int, int]] = set()
    cycles: list[tuple[tuple[int, int], ...]] = []
    for p in range(SIZE):
        for q in range(SIZE):
            if (p, q) in seen:
                continue
            cycle = []
            cur = (p, q)
            while cur not in seen:
                seen.add(cur)
                cycle.append(cur)
                cur = (cur[1], (a * cur[1] + b * cur[0]) % SIZE)
            cycles.append(tuple(cycle))
    # lexicographic scan visits each cycle first at its smallest pair: already ordered
    majors = [c for c in cycles if len(c) == 24]
    minors = [c for c in cycles if len(c) != 24]
    if len(majors) != 5 or len(minors) != 5:  # pragma: no cover - guarded by BOARDS
        raise ValueError(f"board {a},{b} does not have five major classes")
    named = [(MAJORS[i], c) for i, c in enumerate(majors)] + [(MINORS[i], c) for i, c in enumerate(minors)]
    order = {id(c): k for k, c in enumerate(cycles)}
    named.sort(key=lambda item: order[id(item[1])])
    return tuple(named)


@lru_cache(maxsize=None)
def square_colours(a: int, b: int) -> tuple[str, ...]:
    """Colour letter of every square, indexed by ``sq = x * 12 + y``. Spec §2.1."""
    out = [""] * NUM_SQUARES
    for letter, pairs in colour_classes(a, b):
        for x, y in pairs:
            out[x * SIZE + y] = letter
    return tuple(out)


@lru_cache(maxsize=None)
def colour_masks(a: int, b: int) -> dict[str, int]:
    """Bitboard of every colour class of board ``(a, b)`` (letter -> int)."""
    masks = {letter: 0 for letter in MAJORS + MINORS}
    for sq, letter in enumerate(square_colours(a, b)):
        masks[letter] |= 1 << sq
    return masks


def board_text(a: int = 1, b: int = 1) -> str:
    """The coloured board as plain text, rank 12 on top (the layout of §2.2)."""
    colours = square_colours(a, b)
    lines = []
    for y in range(SIZE - 1, -1, -1):
        row = " ".join(colours[x * SIZE + y] for x in range(SIZE))
        lines.append(f"{y + 1:>2} {row}")
    lines.append("   " + " ".join(FILES))
    return "\n".join(lines)


def board_svg(a: int = 1, b: int = 1, cell: int = 40) -> str:
    """A printable SVG of board ``(a, b)``: 12×12 coloured squares with their class letter and
    square name, file/rank labels and a legend of the ten classes (with their sizes).

    ``cell`` is the side of a square in SVG user units (px).
    """
    colours = square_colours(a, b)
    margin = cell
    width = margin + SIZE * cell + margin // 2
    legend_top = margin // 2 + SIZE * cell + margin
    height = legend_top + 2 * (cell // 2 + 8) + margin // 2
    font = max(8, cell // 4)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f"<title>{escape(f'Slide Checkers board {a},{b}')}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>',
    ]
    top = margin // 2
    for x in range(SIZE):
        for y in range(SIZE):
            letter = colours[x * SIZE + y]
            px, py = margin + x * cell, top + (SIZE - 1 - y) * cell
            fill = PALETTE[letter]
            ink = "white" if letter in "zsGB" else "black"
            out.append(f'<rect x="{px}" y="{py}" width="{cell}" height="{cell}" fill="{fill}" '
                       f'stroke="black" stroke-width="1"/>')
            out.append(f'<text x="{px + cell / 2}" y="{py + cell * 0.55}" font-size="{font + 4}" '
                       f'text-anchor="middle" fill="{ink}">{letter}</text>')
            out.append(f'<text x="{px + 3}" y="{py + cell - 4}" font-size="{font - 2}" '
                       f'fill="{ink}">{SQUARE_NAMES[x * SIZE + y]}</text>')
    for x in range(SIZE):
        out.append(f'<text x="{margin + x * cell + cell / 2}" y="{top + SIZE * cell + font + 4}" '
                   f'font-size="{font + 2}" text-anchor="middle">{FILES[x]}</text>')
    for y in range(SIZE):
        out.append(f'<text x="{margin - 6}" y="{top + (SIZE - 1 - y) * cell + cell * 0.6}" '
                   f'font-size="{font + 2}" text-anchor="end">{y + 1}</text>')
    sizes = {letter: len(pairs) for letter, pairs in colour_classes(a, b)}
    step = (SIZE * cell) // 5
    for i, letter in enumerate(MAJORS + MINORS):
        lx = margin + (i % 5) * step
        ly = legend_top + (i // 5) * (cell // 2 + 8)
        out.append(f'<rect x="{lx}" y="{ly}" width="{cell // 2}" height="{cell // 2}" '
                   f'fill="{PALETTE[letter]}" stroke="black"/>')
        out.append(f'<text x="{lx + cell // 2 + 4}" y="{ly + cell // 2 - 4}" font-size="{font + 1}">'
                   f'{letter} {escape(COLOUR_NAMES[letter])} ({sizes[letter]})</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


__all__ = [
    "SIZE", "NUM_SQUARES", "FILES", "BOARDS", "MAJORS", "MINORS", "PALETTE", "COLOUR_NAMES",
    "SQUARE_NAMES", "SQUARE_INDEX", "square_name", "check_board", "colour_classes",
    "square_colours", "colour_masks", "board_text", "board_svg",
]
