"""Slide Checkers' first lesson (issue 39): sliding through your own colour, jumping and removing,
jumping and exchanging, and a slide that launches a winning jump. Spec: slide-checkers.md §4, §5."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.description import texts
from ...core.lessons import Lesson, LessonStep

if TYPE_CHECKING:  # pragma: no cover
    from ...core.game import State

T = texts("slide-checkers")


def _won(before: "State", after: "State", turn: list[str]) -> bool:
    """Green (the learner, seat 0) has won: only its colour is left (§5)."""
    return after.is_terminal() and after.returns()[0] > 0


def _removed(before: "State", after: "State", turn: list[str]) -> bool:
    """The turn jumped and removed the jumped piece (the notation's final ``r``, §4.3)."""
    return bool(turn) and "*" in turn[-1] and turn[-1].endswith("r")


def _exchanged(before: "State", after: "State", turn: list[str]) -> bool:
    """The turn jumped and exchanged the jumped piece (the notation's final ``e``, §4.3)."""
    return bool(turn) and "*" in turn[-1] and turn[-1].endswith("e")


LESSONS = (
    Lesson("first", T("lesson.first", "Slide Checkers: slides and jumps"), (
        LessonStep("slide", T("lesson.slide.task", "Reach c6 in one move: slide through the empty green square d5."),
                   "Bl12,Ge4 M G",
                   right=T("lesson.slide.right", "A piece slides through empty squares of its own colour and "
                                                 "may stop on any empty square next to them."),
                   wrong=T("lesson.slide.wrong", "c6 touches the green square d5, which touches your piece: move "
                                                 "e4 straight to c6."),
                   accept=(("e4-c6",),)),
        LessonStep("remove", T("lesson.remove.task", "Jump the blue piece and remove it."),
                   "Bf5,Bl12,Ge4 M G",
                   right=T("lesson.remove.right", "A jump goes over an enemy piece to the empty square behind "
                                                  "it, and you chose to remove the piece."),
                   wrong=T("lesson.remove.wrong", "Jump over f5, then press “Remove the piece on f5”."),
                   goal=_removed,
                   explain={"e4*g6e": T("lesson.remove.exchange", "That exchanged the piece for one of yours. This "
                                                                  "time remove it.")}),
        LessonStep("exchange", T("lesson.exchange.task", "Jump the blue piece and exchange it for one of yours."),
                   "Bf5,Bl12,Ge4 M G",
                   right=T("lesson.exchange.right", "The jumped piece is now green — one more piece for you."),
                   wrong=T("lesson.exchange.wrong", "Jump over f5, then press “Exchange the piece on f5”."),
                   goal=_exchanged,
                   explain={"e4*g6r": T("lesson.exchange.remove", "That removed the piece. This time exchange it for "
                                                                  "one of yours.")}),
        LessonStep("launch", T("lesson.launch.task", "Win in one move: slide first, then jump the last blue piece."),
                   "Be8,Gc9 M G",
                   right=T("lesson.launch.right", "A jump may start from a square of your colour you slid to. "
                                                  "Only green is left: you win."),
                   wrong=T("lesson.launch.wrong", "Slide to d8 or d9, then jump over e8."),
                   goal=_won),
    )),
)
