"""Fanorona's first lesson (issue 39): capture by approach and by withdrawal, a whole line at
once, a chain, and a plain step when nothing can be captured. Spec: fanorona.md §3.

Each step is a position in the spec's text, judged by the engine (:func:`abstracta.core.lessons.judge`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.description import texts
from ...core.lessons import Lesson, LessonStep

if TYPE_CHECKING:  # pragma: no cover
    from ...core.game import State

T = texts("fanorona")


def _captures(turn: list[str]) -> int:
    """Capture steps in a turn as the game writes it (every entry but ``end``; a paika turn has
    no capture letter)."""
    return sum(1 for m in turn if m != "end" and m[-1] in "AW")


def _two_captures(before: "State", after: "State", turn: list[str]) -> bool:
    return _captures(turn) >= 2


def _no_reply_capture(before: "State", after: "State", turn: list[str]) -> bool:
    """After the learner's plain step, Black (to move) has no capture (§3.2: the view's phase)."""
    return not after.is_terminal() and after.to_struct(after.current_player())["choices"]["phase"] == "paika"


LESSONS = (
    Lesson("first", T("lesson.first", "Fanorona: your first captures"), (
        LessonStep("approach", T("lesson.approach.task", "Capture by approach: step towards the black stone."),
                   "........./........./..W.B..../........./........B W",
                   right=T("lesson.approach.right", "You stepped to d3 towards e3, and the stone beyond "
                                                    "your step was captured."),
                   wrong=T("lesson.approach.wrong", "Step your stone one point towards the black stone on e3."),
                   accept=(("c3-d3A",),)),
        LessonStep("withdrawal", T("lesson.withdrawal.task", "Capture by withdrawal: step away from the stone on "
                                                             "c3."),
                   "........./........./..BW.B.../........./........B W",
                   right=T("lesson.withdrawal.right", "Stepping away from c3 took it. The same step could "
                                                      "have approached f3 instead — you choose."),
                   wrong=T("lesson.withdrawal.wrong", "Withdrawal takes the stone you step away from: move d3 "
                                                      "to e3 and choose withdrawal."),
                   accept=(("d3-e3W",),),
                   explain={"d3-e3A": T("lesson.withdrawal.approach", "That captured f3 by approach: you stepped "
                                                                      "towards it. Try again and take c3, the stone "
                                                                      "behind you.")}),
        LessonStep("line", T("lesson.line.task", "Capture three stones with one step."),
                   "..B...B../..B....../..B...B../........./..W...W.. W",
                   right=T("lesson.line.right", "A capture takes the whole unbroken line of enemy stones."),
                   wrong=T("lesson.line.wrong", "A capture takes the first stone and every enemy stone right "
                                                "behind it in a line. Which step meets a line of three?"),
                   accept=(("c1-c2A",),)),
        LessonStep("chain", T("lesson.chain.task", "Capture twice in one turn: after a capture, the same stone may "
                                                   "capture again."),
                   "...B...../........./..W.BB.../...B...../........B W",
                   right=T("lesson.chain.right", "A chain. It may never step twice in the same direction or "
                                                 "come back to a point it visited."),
                   wrong=T("lesson.chain.wrong", "That was one capture. Start with the capture that lets your "
                                                 "stone capture again, and do not end the turn early."),
                   goal=_two_captures),
        LessonStep("paika", T("lesson.paika.task", "Nothing can be captured: make a plain step that gives Black "
                                                   "no capture."),
                   "....B..../........./........./..W....../......... W",
                   right=T("lesson.paika.right", "With no capture anywhere you make a plain step (a paika), "
                                                 "and this one leaves Black nothing to capture."),
                   wrong=T("lesson.paika.wrong", "After that step Black can capture your stone. Look at the "
                                                 "lines from e5."),
                   goal=_no_reply_capture,
                   explain={"c2-c3": T("lesson.paika.c3", "On c3 your stone stands on the diagonal of e5: Black's "
                                                          "e5-d4 would capture it by approach.")}),
    )),
)
