"""The worked examples of Nibble's spec as diagrams (Spec: nibble.md §7; issue 39).

Positions of a few discs fill the seats' collections so that every colour has its nine discs
(a position text must count them all, §6) and nobody has won already.
"""

from __future__ import annotations

from ...core.description import texts
from ...core.diagrams import Diagram

T = texts("nibble")


def corner(rows: list[str], held: dict[str, int] | None = None, mover: int = 0) -> str:
    """A square9 position whose bottom-left corner holds ``rows`` (top row first) and whose
    other discs are split between the collections, seat 0 taking ``held`` of a colour where
    given and otherwise the smaller half (no instant win for anyone)."""
    board = ["." * 9] * (9 - len(rows)) + [r.ljust(9, ".") for r in rows]
    on_board = {c: "".join(board).count(c) for c in "ABCDEFGHI"}
    seat0, seat1 = [], []
    for c in "ABCDEFGHI":
        rest = 9 - on_board[c]
        mine = (held or {}).get(c, rest // 2)
        seat0.append(mine)
        seat1.append(rest - mine)
    return f"{'/'.join(board)} {mover} {'-'.join(map(str, seat0))} {'-'.join(map(str, seat1))}"


EXAMPLES = (
    Diagram("seed1", T("example.seed1", "The layout of seed 1: no two discs of one colour side by side. Only the "
                                        "corners are free; a1 and a9 are both G, i1 and i9 both H, so each pair may "
                                        "also go in one turn."),
            options={"seed": 1}, arrows=("a1+a9", "i1+i9"), spec="nibble.md §7, example 1"),
    Diagram("seed2", T("example.seed2", "Seed 2: the four corners are free and of four colours: four one-disc takes."),
            options={"seed": 2}, arrows=("a1", "a9", "i1", "i9"), spec="nibble.md §7, example 2"),
    Diagram("ring", T("example.ring", "A ring: only the corners a1, c1, a3, c3 are free. b1, a2, c2 and b3 are exposed "
                                      "on two opposite sides only, and no two corners may go together: that would "
                                      "split what is left."),
            corner(["ABA", "B.B", "ABA"]), arrows=("a1", "c1", "a3", "c3"), spec="nibble.md §7, example 3"),
    Diagram("line", T("example.line", "A line: a1 and c1 are free and may go one at a time or together; b1 is "
                                      "exposed north and south only."),
            corner(["ABA"]), arrows=("a1+c1",), spec="nibble.md §7, example 4"),
    Diagram("tee", T("example.tee", "A T: b2, a1 and c1 are free (a1 and c1 together too); b1 is exposed only to "
                                    "the south."), corner([".A", "BCB"]), arrows=("b2", "a1+c1"),
            spec="nibble.md §7, example 5"),
    Diagram("instant", T("example.instant", "Instant win: player 1 holds 7 C, 7 D and 6 E; taking the E on a1 makes "
                                            "at least 7 of three neighbouring colours, and wins at once."),
            corner(["E"], {"C": 7, "D": 7, "E": 6, "A": 4, "B": 4, "F": 4, "G": 5, "H": 4, "I": 5}),
            arrows=("a1",), spec="nibble.md §7, example 6"),
    Diagram("count", T("example.count", "The board is empty: player 1 holds the majority in A, B, C, D and E — five "
                                        "colours — and wins, though player 2 holds more discs (43 against 38)."),
            f"{'/'.join(['.' * 9] * 9)} 1 5-6-5-7-5-4-3-2-1 4-3-4-2-4-5-6-7-8", spec="nibble.md §7, example 7"),
    Diagram("hex", T("example.hex", "The hexagonal board, seed 1: the six corners are free; h1 and o8 are both G and "
                                    "may go together. An edge disc such as a2 is exposed on two sides only."),
            options={"variant": "hex", "seed": 1}, arrows=("h1+o8",), marks=("a2",), spec="nibble.md §7, example 8"),
)
