"""Nibble's first lesson (issue 39): free discs, a take that keeps the board in one piece,
several discs of one colour in one turn, winning with a whole colour and stopping the opponent
from doing it. Spec: nibble.md §4, §5."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.description import texts
from ...core.lessons import Lesson, LessonStep
from .examples import corner

if TYPE_CHECKING:  # pragma: no cover
    from ...core.game import State

T = texts("nibble")


def _any(before: "State", after: "State", turn: list[str]) -> bool:
    """Any legal take does it (the board offers only legal ones)."""
    return True


LESSONS = (
    Lesson("first", T("lesson.first", "Nibble: your first takes"), (
        LessonStep("split", T("lesson.split.task", "Take a disc without splitting the board: the discs left must "
                                                  "stay in one group."),
                   corner(["AB", ".C"]),
                   right=T("lesson.split.right", "That disc was free and the rest still hangs together. "
                                                 "A disc whose removal would cut the board in two cannot be taken."),
                   wrong=T("lesson.split.wrong", "Take a free disc whose removal leaves the others in one group."),
                   goal=_any),
        LessonStep("two", T("lesson.two.task", "Take two discs of one colour in one turn."), corner(["ABA"]),
                   right=T("lesson.two.right", "Several free discs of one colour may go in one turn, as "
                                               "long as the rest stays in one group."),
                   wrong=T("lesson.two.wrong", "That was one disc. Press “Add more of this colour”, pick both A "
                                               "discs, then “Take”."),
                   accept=(("a1+c1",),)),
        LessonStep("colour", T("lesson.colour.task", "You hold 8 of the 9 A discs: take the last one and win."),
                   corner(["CB", "A."], {"A": 8}),
                   right=T("lesson.colour.right", "All nine discs of one colour win at once."),
                   wrong=T("lesson.colour.wrong", "The last A disc is on a1: holding all nine A discs wins at once."),
                   accept=(("a1",),)),
        LessonStep("deny", T("lesson.deny.task", "Your opponent holds 8 of the 9 G discs: take the last G first."),
                   corner(["CB", "G."], {"G": 0}),
                   right=T("lesson.deny.right", "Now nobody can hold all of G. Watch what your opponent "
                                                "collects, not only your own colours."),
                   wrong=T("lesson.deny.wrong", "Your opponent would take the G on a1 next and win with all nine."),
                   accept=(("a1",),)),
    )),
)
