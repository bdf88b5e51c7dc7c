"""Fibonacci's first lesson (issue 39): a group carries its pieces far, a swap drags a core off
the edge, and the move that rings a core wins. Spec: fibonacci.md §4, §5."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.description import texts
from ...core.lessons import Lesson, LessonStep
from .examples import position

if TYPE_CHECKING:  # pragma: no cover
    from ...core.game import State

T = texts("fibonacci")


def _core(state: "State", seat: int) -> dict:
    return next(c for c in state.board_struct(None)["cores"] if c["seat"] == seat)


def _closer(before: "State", after: "State", turn: list[str]) -> bool:
    """More Red attackers next to Green's core than before the turn (§3: the core's ring)."""
    return len(_core(after, 1)["attackers"]) > len(_core(before, 1)["attackers"])


def _dragged(before: "State", after: "State", turn: list[str]) -> bool:
    """Green's core has six neighbours now: it can be surrounded (§5)."""
    return _core(after, 1)["six"]


def _won(before: "State", after: "State", turn: list[str]) -> bool:
    """Red (the learner, seat 0) has won (§5)."""
    return after.is_terminal() and after.returns()[0] > 0


LESSONS = (
    Lesson("first", T("lesson.first", "Fibonacci: snakes, swaps and the ring"), (
        LessonStep("group", T("lesson.group.task", "Bring an attacker next to Green's core in one move."),
                   position({"d1": "A", "e2": "A", "f3": "A", "g4": "A", "a6": "C", "i6": "c", "k11": "a"}),
                   right=T("lesson.group.right", "Your attackers are one group, so any of them may go to any "
                                                 "cell next to the group — even from the far end of the snake."),
                   wrong=T("lesson.group.wrong", "A piece may go to any cell next to its whole group. Which cells "
                                                 "next to your snake touch Green's core on i6?"),
                   goal=_closer),
        LessonStep("swap", T("lesson.swap.task", "Green's core sits in the corner and cannot be surrounded: swap with "
                                                 "it to drag it inward."),
                   position({"j5": "A", "j6": "A", "i5": "A", "k6": "c", "a6": "C", "a1": "a"}),
                   right=T("lesson.swap.right", "Moving onto the core swapped the two, and now the core has six "
                                                "neighbours you can fill."),
                   wrong=T("lesson.swap.wrong", "Move one of your attackers onto the core's cell k6: the two swap "
                                                "places and the core leaves the edge."),
                   goal=_dragged,
                   explain={"j5-k6": T("lesson.swap.edge", "The core went to j5, still on the edge. Swap it with a "
                                                           "piece that stands further in.")}),
        LessonStep("win", T("lesson.win.task", "Win: fill the last cell around Green's core."),
                   "saaaaa/1a5/8/9/4AA4/4AcA4/4A5/4A4/8/7/S4C R 1 11",
                   right=T("lesson.win.right", "Six attackers around the core win the game."),
                   wrong=T("lesson.win.wrong", "The empty cell next to Green's core on f6 is e6: move there an "
                                               "attacker that is not itself next to the core."),
                   goal=_won,
                   explain={"d5-f6": T("lesson.win.swap", "That swapped the core away to d5 instead of ringing it.")}),
    )),
)
