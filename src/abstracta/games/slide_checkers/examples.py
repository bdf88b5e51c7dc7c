"""The worked examples of Slide Checkers' spec as diagrams (Spec: slide-checkers.md §7; issue
39): the default board (1,1), two players, Green (seat 0) and Blue (seat 1)."""

from __future__ import annotations

from ...core.description import texts
from ...core.diagrams import Diagram

T = texts("slide-checkers")

EXAMPLES = (
    Diagram("board", T("example.board", "The board (1,1): each square has the colour class of the pair (file, rank) "
                                        "under the Fibonacci map modulo 12 — five colours of 24 squares (R O Y G B) "
                                        "and five small classes. a1 is z, b1 R, e4 G, c9 O, l12 Y."),
            "- P:7/7 G", marks=("a1", "e4", "c9"), legal=False, spec="slide-checkers.md §2.2, §7 example 1"),
    Diagram("placement", T("example.placement", "Placement: Green may place on any of its 24 squares; after @e4 "
                                                "Blue may not use f3 or f5, which touch e4."),
            "- P:7/7 G", before=("@e4",), marks=("f3", "f5"), spec="slide-checkers.md §7, example 2"),
    Diagram("slide", T("example.slide", "A free move: from e4 the piece slides through the empty green squares d5 "
                                        "and f4 and may finish on any empty square next to them — 16 destinations."),
            "Bl12,Ge4 M G", arrows=("e4-c6", "e4-g3"), marks=("d5", "f4"), spec="slide-checkers.md §7, example 3"),
    Diagram("long", T("example.long", "A long slide: c9 is orange, but the green squares b8, d8, d9 and e8 next to "
                                      "it carry the piece on — 21 destinations."),
            "Bl1,Gc9 M G", arrows=("c9-f9", "c9-a7"), marks=("b8", "d8", "d9", "e8"), legal=False,
            spec="slide-checkers.md §7, example 4"),
    Diagram("jump", T("example.jump", "Slide, then jump: a jump is compulsory, and Green may launch it from d8 or "
                                      "d9, reached by sliding. Either jump, removing or exchanging, leaves no Blue "
                                      "piece: Green wins."), "Be8,Gc9 M G", arrows=("c9>d8*f8r", "c9>d9*f7r"),
            spec="slide-checkers.md §7, example 5"),
    Diagram("continue", T("example.continue", "A chain of jumps: after e4>f4*h4r the piece on h4 must jump on, over "
                                              "i4 to j4."), "Bg4,Bi4,Bl12,Ge4 M G", before=("e4>f4*h4r",),
            arrows=("*j4r",), spec="slide-checkers.md §7, example 6"),
    Diagram("no-jump", T("example.no_jump", "No jump: 19 moves, a12's three among them."), "Bl1,Bl3,Ga12,Ge4 M G",
            arrows=("a12-a11", "a12-b11", "a12-b12"), spec="slide-checkers.md §7, example 7"),
)
