"""The Fibonacci card game's first lesson (issue 39): a card onto the sum of two piles, the ace
that counts 14 from the hand, cutting a pile down, and drawing when nothing fits. Spec:
fibonacci-cards.md §1, §3, §4."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.description import texts
from ...core.lessons import Lesson, LessonStep

if TYPE_CHECKING:  # pragma: no cover
    from ...core.game import State

T = texts("fibonacci-cards")


def _any(before: "State", after: "State", turn: list[str]) -> bool:
    """Any legal turn does it (the task is to find one)."""
    return True


def _ace(before: "State", after: "State", turn: list[str]) -> bool:
    """The turn played an ace (§1: it counts 14 from the hand)."""
    return any(m.startswith("A") for m in turn)


def _cut(before: "State", after: "State", turn: list[str]) -> bool:
    """The turn laid a card crosswise (the notation's ``/``, §3)."""
    return any("/" in m for m in turn)


LESSONS = (
    Lesson("first", T("lesson.first", "The Fibonacci card game: your first plays"), (
        LessonStep("sum", T("lesson.sum.task", "Play a card onto the sum of two piles."),
                   "2c 5d 9h | 7h,Qd,3c | 9s,4d | Ad,6s,Kc | 0",
                   right=T("lesson.sum.right", "7 = 2 + 5, so the 7 goes on one of those two piles."),
                   wrong=T("lesson.sum.wrong", "Add two piles: which card of your hand is their sum?"),
                   goal=_any),
        LessonStep("ace", T("lesson.ace.task", "Play your ace: from the hand it counts 14."),
                   "7d 7s 3h | Ah,Tc | 9s,4d | Ad,6s,Kc | 0",
                   right=T("lesson.ace.right", "7 + 7 = 14. On the table the ace now counts 1."),
                   wrong=T("lesson.ace.wrong", "That was the ten (7 + 3). An ace in the hand is worth 14: find two "
                                               "piles that make 14."),
                   goal=_ace),
        LessonStep("cut", T("lesson.cut.task", "Cut a pile down: lay a card of the same rank crosswise on it."),
                   "Qh 5d 2c | 7h,Qc | 9s,4d | Ad,6s,Kc | 0",
                   right=T("lesson.cut.right", "Q + 5 = 17 is more than 14, so your queen cuts the queen's "
                                               "pile down; it counts 1 now."),
                   wrong=T("lesson.cut.wrong", "That was a sum play. A cut lays a card on a pile of the same rank, "
                                               "when that pile and another add up to more than 14."),
                   goal=_cut),
        LessonStep("draw", T("lesson.draw.task", "Nothing in your hand fits: draw a card, and play it if it fits."),
                   "2c 5d Jh | 4c,6d | 9s,4d | 7s,Kc | 0",
                   right=T("lesson.draw.right", "The 7 you drew fits (2 + 5), and a drawn card that fits "
                                                "must be played at once."),
                   wrong=T("lesson.draw.wrong", "Draw from the stock, then play the card you drew."),
                   goal=_any),
    )),
)
