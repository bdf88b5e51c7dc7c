"""The worked examples of Fibonacci's spec as diagrams (Spec: fibonacci.md §8; issue 39).

The spec gives boards only and states side, moves left and turn in words; the texts here add
them as its position format (§7) writes them.
"""

from __future__ import annotations

from typing import Mapping

from ...core.description import texts
from ...core.diagrams import Diagram
from .geometry import COL_OF, NAME, ROW_CELLS

T = texts("fibonacci")

def position(pieces: Mapping[str, str], side: str = "R", left: int = 1, turn: int = 11) -> str:
    """A position text (§7) with ``pieces`` (cell name → letter, Red upper case) and every other
    cell empty: rows k … a, each from its lowest column, runs of empty cells as numbers."""
    rows = []
    for r in range(11, 0, -1):
        text, empty = "", 0
        for b in sorted(ROW_CELLS[r], key=lambda b: COL_OF[b]):
            letter = pieces.get(NAME[b])
            if letter is None:
                empty += 1
                continue
            text += (str(empty) if empty else "") + letter
            empty = 0
        rows.append(text + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {side} {left} {turn}"


START = "caaaaa/1a5/8/8S/2s3SSS1/3s3S3/1sss3S2/s8/8/5A1/AAAAAC R 1 1"

EXAMPLES = (
    Diagram("start", T("example.start", "The start: Red's core in the corner a6 with its six attackers along the "
                                        "home edge, its supports as a snake in Green's half; Green the same, turned "
                                        "round. Red moves first, one move."), START, legal=False,
            spec="fibonacci.md §2"),
    Diagram("opening", T("example.opening", "Opening: Red's six attackers are one group, so each may go to any "
                                            "cell next to the group — b1…b5, b7, c6, c7, or a6, swapping with its "
                                            "own core. a1-a2 is not a move (an identical swap). 132 moves and "
                                            "pass."), START, arrows=("a1-b1", "b6-c7", "a5-a6"), legal=False,
            spec="fibonacci.md §8, V1"),
    Diagram("reduction", T("example.reduction", "Reduction: three Green attackers touch Red's core on f6, so on "
                                                "turn 9 Red has 6 − 3 = 3 moves."),
            "caaa2/7/8/s8/4aa4/5Ca4/10/9/S7/S4A1/AAAAA1 G 1 8", before=("pass",), legal=False, spec="fibonacci.md §8, V2"),
    Diagram("win", T("example.win", "The winning move: d5-e6 fills the last of the six cells around Green's core. "
                                    "d5-f6 is legal too — it swaps the core to d5 — but does not win."),
            "saaaaa/1a5/8/9/4AA4/4AcA4/4A5/4A4/8/7/S4C R 6 11", arrows=("d5-e6", "d5-f6"), legal=False,
            spec="fibonacci.md §8, V3"),
    Diagram("swap", T("example.swap", "Swapping a core: Red's supports e5, e6, e7 are a group; e7-f6 puts a support "
                                      "on f6 and Green's core on e7."),
            "saaaaa/1a5/8/9/10/5c5/4SSS3/9/8/5A1/AAAAAC R 6 11", arrows=("e7-f6",), legal=False,
            spec="fibonacci.md §8, V4"),
    Diagram("edge", T("example.edge", "A core in the corner cannot be surrounded: Green's core k6 has only three "
                                      "neighbours, all Red attackers — no win, but Green's next turn has 6 − 3 = 3 "
                                      "moves."), "cA3s/AA5/8/9/10/11/10/9/aaa5/aaa4/AAAS1C R 1 11", before=("pass",), legal=False,
            spec="fibonacci.md §8, V5"),
    Diagram("skipped", T("example.skipped", "A skipped turn: four Green attackers touch Red's core when Red's turn "
                                            "3 begins, so Red has max(0, 3 − 4) = 0 moves and Green's turn 4 begins."),
            position({"f6": "C", "f7": "a", "g7": "a", "g6": "a", "f5": "a", "k11": "c", "a1": "A"}, "G", 1, 2),
            before=("pass",), legal=False, spec="fibonacci.md §8, V8"),
    Diagram("cards-win", T("example.cards_win", "Card variant: Red's attackers are one group and three of them touch "
                                                "Green's core — Red has won (not in the standard game)."),
            "cA3s/AAA4/1AA5/9/10/11/10/9/aaa5/aaa4/3S1C G 0 12 - - rng=0000000000000000",
            options={"variant": "cards"}, legal=False, spec="fibonacci.md §8, V6"),
    Diagram("go", T("example.go", "Go start: an empty board. Red places a support on any of the 91 cells first "
                                  "(S@a1 … S@k11); then supports, attackers and cores in turn."),
            options={"variant": "go"}, arrows=("S@f6",), legal=False, spec="fibonacci.md §8, V7; §9.3"),
)
