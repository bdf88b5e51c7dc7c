"""How a move a person typed or sent becomes actions (the game's notation, read once).

Three readers, each ``read(state, text) -> actions`` (raising :class:`IllegalMove`, or for a
whole turn asked in the middle of one :class:`NotNow`), for :meth:`Session.play`:

* :func:`read_action`: one action's notation, or a whole-turn string in a game that has one
  (``Game.parse_move``); the turn may stay open. The server's ``action``/``actions``.
* :func:`read_turn`: one whole turn from its start, as the view's ``turns`` lists it
  (``Game.parse_turn``), which must end the turn. The server's ``turn``.
* :func:`read_typed`: what a person types at the terminal's prompt (``Game.parse_turn``: Nibble's
  ``i9`` takes i9 and ends the turn).

Any exception from the engine other than :class:`~abstracta.core.errors.AbstractaError` is a
bug and is not caught here.
"""

from __future__ import annotations

from typing import Any, Callable

from ..core.errors import AbstractaError
from ..core.game import State
from ..core.view import message
from .errors import IllegalMove, Invalid, NotNow, clip, cut

#: A reader: the actions ``text`` stands for in ``state`` (not changed).
Reader = Callable[[State, str], list[int]]


def refusal(exc: Exception, text: str) -> dict[str, Any]:
    """The engine's refusal of the move ``text`` in words the browser translates: its own message
    (the reason a move is not legal, in the game's catalogs) where it gives one and its English
    says it all, else "``text`` is not a legal move here"."""
    said = getattr(exc, "i18n", None)
    return said if said and str(exc) and len(str(exc)) <= 300 else message("error.illegal", move=clip(text))


def _played(state: State, actions: list[int]) -> State:
    """``state`` after ``actions`` (a copy; raises the engine's error for an illegal one)."""
    check = state.clone()
    for action in actions:
        check.apply_action(action)
    return check


def read_action(state: State, text: str) -> list[int]:
    """The actions ``text`` stands for: one action's notation, or a whole-turn string
    (``Game.parse_move``)."""
    try:
        return [state.string_to_action(text)]
    except AbstractaError as exc:
        first: Exception = exc
    game = state.game
    if not game.description.whole_turn_notation:
        raise IllegalMove(cut(str(first)) if str(first) else f"{clip(text)} is not a legal move here",
                          refusal(first, text))
    try:
        actions = list(game.parse_move(state, text))
        _played(state, actions)
    except AbstractaError as exc:
        said = exc if str(exc) else first
        raise IllegalMove(cut(str(said)), refusal(said, text)) from None
    if not actions:
        raise IllegalMove(f"{clip(text)} names no action")
    return actions


def read_turn(state: State, text: str) -> list[int]:
    """The actions of the whole turn ``text`` (the view's ``turns`` notation) of the seat to move.

    Read with ``Game.parse_turn``, as the terminal reads a typed move: ``parse_move`` reads
    a one-cell entry (Nibble's ``i9``) as the single engine action and may leave the turn
    open, while the view lists it as the whole turn "take i9, then end". Only at a turn
    boundary (where ``Game.turn_strings`` lists turns; NotNow in the middle of a turn) and only
    in a game with a whole-turn notation (Invalid otherwise); the actions must end the mover's
    turn (or the game), else IllegalMove."""
    game, mover = state.game, state.current_player()
    if not game.description.whole_turn_notation:
        raise Invalid(f"{game.name} has no whole-turn notation: send the move as 'action' "
                      "(one action) or 'actions' (the actions of the turn in a row)")
    try:
        game.turn_strings(state)
    except AbstractaError:
        raise NotNow(f"seat {mover}'s turn is under way (its first actions are played): 'turn' "
                     "plays a whole turn from its start; play on with 'action' or 'actions' "
                     "(the view's 'legal')") from None
    try:
        actions = list(game.parse_turn(state, text))
        check = _played(state, actions)
    except AbstractaError as exc:
        # the engine's reason alone: the browser shows it to the player who typed the move,
        # who has no "view" (the API reference says where the legal turns are listed)
        raise IllegalMove(cut(str(exc)) or f"{clip(text)} is not a legal move here", refusal(exc, text)) from None
    if not actions or not (check.is_terminal() or check.current_player() != mover):
        raise IllegalMove(f"{clip(text)} is not a whole turn", message("error.illegal", move=clip(text)))
    return actions


def read_typed(state: State, text: str) -> list[int]:
    """What a person typed at the terminal's prompt (``Game.parse_turn``), checked legal."""
    try:
        actions = list(state.game.parse_turn(state, text))
        _played(state, actions)
    except AbstractaError as exc:
        raise IllegalMove(str(exc), refusal(exc, text)) from None
    return actions


__all__ = ["Reader", "read_action", "read_turn", "read_typed", "refusal"]
