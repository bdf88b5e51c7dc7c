"""First lessons: a few positions, each with a task, whose moves the engine checks (issue 39).

A game declares its lessons in its description (:attr:`GameDescription.lessons`); each
:class:`Lesson` is 3–6 :class:`LessonStep` values: a position in the spec's text, the task in
players' words, and what counts as done — whole turns as the game writes them
(``accept``, e.g. ``("c3-d3A", "d3-d4A")``: a capture chain), a predicate on the position
before and after the turn (``goal``), or both. :func:`judge` plays what the learner sent from
the step's position through the rules and says whether the turn is still open, done, or not
what the task asked and why (``explain`` for a known wrong turn, else the step's ``wrong``).

The server answers this (``/api/games/{name}/lessons``) and the browser draws each position with
the game's own board module; neither names a game nor knows a rule of one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Literal, Mapping

from .errors import AbstractaError
from .view import message

if TYPE_CHECKING:  # pragma: no cover
    from .description import Text
    from .game import Game, State

#: ``goal(before, after, turn) -> bool``: the turn the learner played from ``before`` (the step's
#: position) to ``after``, written ``turn`` (``Game.format_turn``), did what the task asked.
Goal = Callable[["State", "State", "list[str]"], bool]


@dataclass(frozen=True, slots=True)
class LessonStep:
    """One position and one task.

    Attributes:
        id: unique within its lesson (``"chain"``).
        task: what to do, in players' words ("Capture two stones in one turn").
        position: the position in the spec's text; the learner plays the seat to move.
        right: said when the turn did it (what was learnt).
        wrong: said of any other turn (why it is not it, how to look for the right one).
        accept: the turns that do it, each as the game writes a turn for people
            (``Game.format_turn``: ``("c3-d3A", "d3-d4A")``, Nibble's ``("a1+a9",)``).
        goal: instead of (or beside) ``accept``: ``goal(before, after, turn)`` is true when the
            turn did it.
        explain: words for particular wrong turns, keyed by the turn's entries joined by
            ``", "`` (``"d3-c3W"``), said instead of ``wrong``.
        options: the game options of the position (``{"size": "dimy"}``).
    """

    id: str
    task: "Text"
    position: str
    right: "Text"
    wrong: "Text"
    accept: tuple[tuple[str, ...], ...] = ()
    goal: Goal | None = None
    explain: Mapping[str, "Text"] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.accept and self.goal is None:
            raise ValueError(f"lesson step {self.id!r}: give the turns it accepts or a goal")


@dataclass(frozen=True, slots=True)
class Lesson:
    """A first lesson: a title and 3–6 steps, played in order."""

    id: str
    title: "Text"
    steps: tuple[LessonStep, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.steps) <= 6:
            raise ValueError(f"lesson {self.id!r}: {len(self.steps)} steps (a first lesson has 1 to 6)")
        ids = [s.id for s in self.steps]
        if len(set(ids)) != len(ids):
            raise ValueError(f"lesson {self.id!r}: step ids repeat ({', '.join(ids)})")

    def step(self, ident: str) -> LessonStep:
        """The step ``ident`` (KeyError naming the steps there are)."""
        for s in self.steps:
            if s.id == ident:
                return s
        raise KeyError(f"lesson {self.id!r} has no step {ident!r} (steps: {', '.join(s.id for s in self.steps)})")


class TurnOver(AbstractaError, ValueError):
    """More was sent than the learner's turn: the turn ended before the last move sent."""


@dataclass
class Verdict:
    """What :func:`judge` found.

    Attributes:
        status: ``"continue"`` (the turn is still open: send more), ``"right"`` or ``"wrong"``.
        state: the position after what was played.
        seat: the seat the learner plays.
        turn: the turn as the game writes it for people (``Game.format_turn``).
        effects: per action played, ``action_effects`` as the learner sees it (its ``text`` and
            ``message``: what the action did, in words).
        said: ``step.right``, ``step.wrong`` or the ``explain`` entry; ``None`` while open.
    """

    status: Literal["continue", "right", "wrong"]
    state: "State"
    seat: int
    turn: list[str]
    effects: list[dict[str, Any]]
    said: "Text | None"


def start(game_type: "type[Game]", step: LessonStep) -> "tuple[Game, State]":
    """The game and the step's position (AbstractaError for a position its game refuses: a bug
    in the lesson, which the game's tests catch)."""
    game = game_type(**dict(step.options))
    return game, game.state_from_text(step.position)


def judge(game_type: "type[Game]", step: LessonStep, moves: list[str]) -> Verdict:
    """Play ``moves`` (action strings, or whole-turn strings of the game's notation, as a
    board module sends them) from the step's position and judge the learner's turn.

    Raises the game's ``IllegalActionError`` (with its words for people) for a move the rules
    refuse, and :class:`TurnOver` for a move sent after the turn had ended."""
    game, before = start(game_type, step)
    seat = before.current_player()
    state = before.clone()
    actions: list[int] = []
    effects: list[dict[str, Any]] = []
    over = False
    for text in moves:
        if over:
            raise TurnOver(f"the turn was over before {text!r}: start the step again",
                           i18n=message("lesson.turn_over", move=text))
        for action in game.parse_move(state, text):
            effects.append(state.action_effects(action, seat))
            state.apply_action(action)
            actions.append(action)
        over = state.is_terminal() or state.current_player() != seat
    turn = game.format_turn(before, actions) if actions else []
    if not over:
        return Verdict("continue", state, seat, turn, effects, None)
    done = (tuple(turn) in {tuple(a) for a in step.accept}) or (step.goal is not None and step.goal(before, state, turn))
    if done:
        return Verdict("right", state, seat, turn, effects, step.right)
    return Verdict("wrong", state, seat, turn, effects, step.explain.get(", ".join(turn), step.wrong))


__all__ = ["Goal", "Lesson", "LessonStep", "TurnOver", "Verdict", "judge", "start"]
