"""First lessons (issue 39): each game's lesson has 3–6 steps whose positions its rules read, a
turn that does each task, and the wrong turns it explains are legal turns judged wrong."""

from __future__ import annotations

import pytest

from abstracta import load_game
from abstracta.core.description import Text
from abstracta.core.errors import IllegalActionError
from abstracta.core.lessons import Lesson, LessonStep, TurnOver, judge, start

SHIPPED = ["fanorona", "fibonacci", "fibonacci-cards", "nibble", "slide-checkers"]


def turns(game, state, seat):
    """Every legal turn of ``seat`` from ``state`` (action strings; depth-first)."""
    out = []

    def walk(s, prefix):
        if s.is_terminal() or s.current_player() != seat:
            out.append(prefix)
            return
        for a in s.legal_action_strings():
            t = s.clone()
            t.apply_action(t.string_to_action(a))
            walk(t, prefix + [a])
    walk(state.clone(), [])
    return out


@pytest.mark.parametrize("name", SHIPPED)
def test_each_step_can_be_done_and_not_every_turn_does_it(name):
    game = load_game(name)
    [lesson] = game.description.lessons
    assert 3 <= len(lesson.steps) <= 6
    undecidable = 0
    for step in lesson.steps:
        g, state = start(type(game), step)
        seat = state.current_player()
        verdicts = {}
        for turn in turns(g, state, seat):
            v = judge(type(game), step, turn)
            assert v.status in ("right", "wrong") and v.said is not None
            verdicts[", ".join(v.turn)] = v.status
        assert "right" in verdicts.values(), step.id
        undecidable += "wrong" not in verdicts.values()
        for accepted in step.accept:
            assert verdicts[", ".join(accepted)] == "right", (step.id, accepted)
        for wrong in step.explain:
            assert verdicts[wrong] == "wrong", (step.id, wrong)
    assert undecidable <= 2  # a step may only teach the clicks (any legal take); most have a wrong turn


def test_judge_says_continue_while_the_turn_is_open_and_refuses_moves_after_it():
    game = load_game("fanorona")
    step = game.description.lessons[0].step("chain")
    v = judge(type(game), step, ["c3-d3A"])
    assert v.status == "continue" and v.said is None and v.state.current_player() == 0
    assert v.effects[0]["removed"] == ["e3", "f3"]
    v = judge(type(game), step, ["c3-d3A", "d3-d4A"])
    assert v.status == "right" and v.turn == ["c3-d3A", "d3-d4A"]
    with pytest.raises(TurnOver) as caught:
        judge(type(game), step, ["c3-d3A", "d3-d4A", "d5-e5"])
    assert caught.value.i18n["key"] == "lesson.turn_over"
    with pytest.raises(IllegalActionError):
        judge(type(game), step, ["c3-c4"])


def test_a_specific_wrong_turn_gets_its_own_words():
    game = load_game("fanorona")
    step = game.description.lessons[0].step("withdrawal")
    assert judge(type(game), step, ["d3-e3A"]).said.key == "fanorona.lesson.withdrawal.approach"


def test_a_lesson_is_checked_when_it_is_declared():
    t = Text("k", "x")
    with pytest.raises(ValueError, match="accepts or a goal"):
        LessonStep("a", t, "9 0", t, t)
    step = LessonStep("a", t, "9 0", t, t, accept=(("1",),))
    with pytest.raises(ValueError, match="1 to 6"):
        Lesson("l", t, ())
    with pytest.raises(ValueError, match="repeat"):
        Lesson("l", t, (step, step))
