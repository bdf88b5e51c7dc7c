"""The worked examples of the Fibonacci card game's spec as diagrams (Spec:
fibonacci-cards.md §7; issue 39). Each is drawn as the seat to move sees it: its own hand face
up, the other face down."""

from __future__ import annotations

from ...core.description import texts
from ...core.diagrams import Diagram

T = texts("fibonacci-cards")

EXAMPLES = (
    Diagram("source", T("example.source", "Piles 2, 5 and J (table values 2, 5, 11). 7 = 2 + 5 goes on pile 1 or "
                                          "2; K = 2 + 11 on pile 1 or 3; 5 + 11 = 16 > 14, so a 5 cuts the 5 down "
                                          "and a J cuts the J. Q and 3 fit nowhere."),
            "2c 5d Jh | 7h,Kd,5s,Jc,Qd,3c | 9s | Ad,6s,Kc | 0", arrows=("7h>1", "5s/2"),
            spec="fibonacci-cards.md §7, example 1"),
    Diagram("ace", T("example.ace", "An ace from the hand counts 14: 7 + 7 = 14, so it goes on either 7. The 7s "
                                    "cannot be cut: 7 + 7 is not more than 14."),
            "7d 7s 3h | Ah,7c,2d | 9s | Ad,6s,Kc | 0", arrows=("Ah>1",), spec="fibonacci-cards.md §7, example 2"),
    Diagram("triple", T("example.triple", "A sum of all three piles (2 + 5 + 7 = 14) lets the ace go on any pile."),
            "2d 5s 7h | Ah,6c,4d | 9s | Ad,6s,Kc | 0", arrows=("Ah>3",), spec="fibonacci-cards.md §7, example 3"),
    Diagram("triple-low", T("example.triple_low", "An ace on the table counts 1: with piles 1, 2, 3, a 3 (= 1 + 2) "
                                                  "and a 6 (= 1 + 2 + 3) fit."),
            "Ah 2s 3c | 6c,3d,2h | 9s | Ad,6s,Kc | 0", spec="fibonacci-cards.md §7, example 3"),
    Diagram("cut", T("example.cut", "Cutting down: Q + J = 23 > 14, so a queen cuts pile 1 (or a jack pile 2). "
                                    "The cut pile counts 1."),
            "Qh Jh 5d | Qc,Qs,Jd,Ks | 9s | Ad,6s,Kc | 0", arrows=("Qc/1",), spec="fibonacci-cards.md §7, example 4"),
    Diagram("cut-after", T("example.cut_after", "After the cut pile 1 counts 1: 1 + 11 = 12 lets the other queen go "
                                                "back on it as a sum, and 1 + 5 = 6."),
            "Qh,Qc* Jh 5d | Qs,Jd,6c,Ks,Ah | 9s | Ad,6s,Kc | 0", arrows=("Qs>1", "6c>3"),
            spec="fibonacci-cards.md §7, example 4"),
    Diagram("blocked", T("example.blocked", "Piles 9, 5, 4: nothing can be cut (no pair above 14) and neither player "
                                            "can play with the stock empty — the game is over: player 2, with one "
                                            "card, wins against two."), "9c 5d 4h | 2c,Qd | 6h | - | 0",
            spec="fibonacci-cards.md §7, example 5"),
    Diagram("draw", T("example.draw", "Nothing fits, so the only action is to draw. The 7 drawn fits (2 + 5): the "
                                      "turn goes on, and only that card may be played."),
            "2c 5d Jh | 4c,6d | 9s | 7s,Kc | 0", before=("draw",), arrows=("7s>1", "7s>2"),
            spec="fibonacci-cards.md §7, example 6"),
    Diagram("last", T("example.last", "Player 1 cannot play and must pass; player 2 then plays the king (2 + 11) — "
                                      "the last card of the hand — and wins."),
            "2c 5d Jh | 4c,6d | Kc | - | 0", before=("pass",), arrows=("Kc>1",), spec="fibonacci-cards.md §7, example 7"),
    Diagram("deal", T("example.deal", "The deal of seed 1: eight cards each, piles 7, 4, 2, 33 cards in the stock. "
                                      "The generator would let player 2 lead; here the first_player option lets "
                                      "player 1 lead, with these plays."),
            options={"seed": 1, "first_player": 0}, spec="fibonacci-cards.md §7, example 8"),
)
