"""The routes that teach a game: its rules page with its diagrams, and its first lessons (issue 39).

``GET /api/games/{name}/rules`` answers the rules page of a game in the language asked for with
the game's diagrams drawn in (:func:`abstracta.core.diagrams.fill_rules`: the same figures as
the documentation site). ``GET /api/games/{name}/lessons`` lists the game's lessons, each step's
task and the structured view of its position; ``POST …/lessons/{lesson}/{step}`` plays what the
learner sent from that position and says whether the task is done
(:func:`abstracta.core.lessons.judge`). Nothing here names a game: everything comes from the
game's description. The routes only translate between HTTP and the domain; a refusal is a
:class:`~.errors.MatchError` the app maps to its status.
"""

from __future__ import annotations

from typing import Annotated, Any, Callable

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from ..core.diagrams import fill_rules
from ..core.errors import AbstractaError, UnknownGameError
from ..core.game import Game
from ..core.lessons import Lesson, LessonStep, TurnOver, judge, start
from ..core.registry import game_class
from . import i18n
from .errors import IllegalMove, InvalidRequest, NotFound
from ..play.errors import clip, cut
from ..play.notation import refusal


class RulesPage(BaseModel):
    html: str = Field(description="the rules page, an HTML fragment with the game's diagrams (inline SVG)")
    lang: str = Field(description="the language of the page (en when the game has none in the one asked for)")


class LessonStepInfo(BaseModel):
    id: str
    task: str = Field(description="what to do (English; task_key translates it)")
    task_key: str
    seat: int = Field(description="the seat the learner plays: the one to move in the step's position")
    struct: dict[str, Any] = Field(description="the structured view of the step's position for that seat "
                                               "(State.to_struct), which the game's board module draws")


class LessonInfo(BaseModel):
    id: str
    title: str
    title_key: str
    steps: list[LessonStepInfo]


class LessonMoves(BaseModel):
    model_config = ConfigDict(extra="forbid")

    moves: list[Annotated[str, Field(min_length=1, max_length=200)]] = Field(
        max_length=64, description="what the learner played from the step's position, in order: action strings or "
                                   "whole-turn strings of the game's notation (as its board module sends them)")


class Said(BaseModel):
    key: str
    params: dict[str, Any] = Field(default_factory=dict)


class LessonAnswer(BaseModel):
    status: str = Field(description="'continue': the turn is still open, send more; 'right': the task is done; "
                                    "'wrong': the turn was played but is not what the task asked")
    struct: dict[str, Any] = Field(description="the position after the moves, as the learner's seat sees it")
    turn: list[str] = Field(description="the turn played, as the game writes it for people")
    effects: list[dict[str, Any]] = Field(description="per action played, what it did (its 'text' and 'message')")
    text: str | None = Field(description="why it is right or wrong (English); null while the turn is open")
    message: Said | None = Field(description="the same as a message of the catalogs ({key, params})")


def _game(name: str) -> type[Game]:
    try:
        return game_class(name)
    except UnknownGameError as exc:
        raise NotFound(cut(str(exc))) from None
    except AbstractaError as exc:  # a plug-in that does not load
        raise NotFound(cut(str(exc))) from None


def _lesson(cls: type[Game], lesson_id: str) -> Lesson:
    for lesson in cls().description.lessons:
        if lesson.id == lesson_id:
            return lesson
    raise NotFound(f"{cls.name} has no lesson {clip(lesson_id)}")


def _step(lesson: Lesson, step_id: str) -> LessonStep:
    try:
        return lesson.step(step_id)
    except KeyError:
        raise NotFound(f"lesson {lesson.id} has no step {clip(step_id)}") from None


def router(errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The routes, with ``errors(*codes)`` giving each its documented refusals (the app's)."""
    api = APIRouter()

    @api.get("/api/games/{name}/rules", summary="A game's rules page with its diagrams", response_model=RulesPage,
             responses=errors(404, 422))
    def get_rules(name: str, lang: str = Query(i18n.BASE, max_length=16)) -> dict[str, Any]:
        """The rules page in ``lang`` where the game has one (else English), with every worked
        example the page places drawn by the game's own SVG module."""
        game = _game(name)()
        html, shown = i18n.rules_html(game, lang)
        return {"html": fill_rules(html, game, shown), "lang": shown}

    @api.get("/api/games/{name}/lessons", summary="A game's first lessons: each step's task and position",
             response_model=list[LessonInfo], responses=errors(404, 422))
    def get_lessons(name: str) -> list[dict[str, Any]]:
        cls = _game(name)
        out = []
        for lesson in cls().description.lessons:
            steps = []
            for step in lesson.steps:
                _, state = start(cls, step)
                seat = state.current_player()
                steps.append({"id": step.id, "task": str(step.task), "task_key": step.task.key, "seat": seat,
                              "struct": state.to_struct(seat)})
            out.append({"id": lesson.id, "title": str(lesson.title), "title_key": lesson.title.key, "steps": steps})
        return out

    @api.post("/api/games/{name}/lessons/{lesson}/{step}", summary="Check a lesson step's moves",
              response_model=LessonAnswer, responses=errors(404, 413, 415, 422))
    def post_lesson_step(name: str, lesson: str, step: str, body: LessonMoves) -> dict[str, Any]:
        """Plays ``moves`` from the step's position through the rules: ``continue`` while the
        learner's turn is open, then ``right`` or ``wrong`` with the reason. A move the rules
        refuse is 422 with the engine's reason (``i18n``), as a refused move of a match."""
        cls = _game(name)
        the_step = _step(_lesson(cls, lesson), step)
        try:
            verdict = judge(cls, the_step, list(body.moves))
        except TurnOver as exc:
            raise InvalidRequest(cut(str(exc)), i18n=exc.i18n) from None
        except AbstractaError as exc:
            last = body.moves[-1] if body.moves else ""
            raise IllegalMove(cut(str(exc)) or f"{clip(last)} is not a legal move here", i18n=refusal(exc, last)) from None
        said = verdict.said
        return {"status": verdict.status, "struct": verdict.state.to_struct(verdict.seat), "turn": verdict.turn,
                "effects": [{k: e[k] for k in ("text", "message") if k in e} for e in verdict.effects],
                "text": str(said) if said is not None else None,
                "message": {"key": said.key, "params": {}} if said is not None else None}

    return api
