"""A game's actions read as the turns a person sees (the move list, a replay, a record).

The spine (:mod:`abstracta.core.game`) plays one action at a time; a person reads a game as
numbered turns, each one seat's actions in a row (a Fanorona capture chain, a Nibble take of
several discs, Fibonacci's several moves). The functions here read a line of actions played
from a state that way, with the rules' own turn numbers where they have them
(:meth:`~abstracta.core.game.State.turn_number`): who played each action
(:func:`played_turns`), the turn it belongs to (:func:`turn_numbers`), the turns' spans
(:func:`turn_spans`) and count (:func:`turns_played`), each turn's text
(:func:`turn_texts`) and the turns put in the notation's order (:func:`canonical_actions`).
Every view of a game's turns (the browser's list and replay, the terminal's replay, the list
of games, match and tournament records) counts with them, so that "turn 13" means one turn
everywhere; :mod:`abstracta.core.turn_ledger` carries their answers from move to move.

They are clients of the spine (``State`` and ``Game`` methods only), layered above it: the
spine does not import them.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from .game import Game, State


def played_turns(initial: State, actions: Sequence[int]) -> tuple[list[int], list[int | None]]:
    """For each of ``actions`` played in order from ``initial`` (not changed): the seat that
    played it and :meth:`State.turn_number` before it, for :func:`turn_numbers`."""
    state = initial.clone()
    movers: list[int] = []
    own: list[int | None] = []
    for action in actions:
        movers.append(state.current_player())
        own.append(state.turn_number())
        state.apply_action(action)
    return movers, own


def canonical_actions(initial: State, actions: Sequence[int]) -> list[int]:
    """``actions`` played from ``initial`` with each turn (:func:`turn_spans`) in the order the
    game's notation lists it (:meth:`Game.canonical_turn`), for a record of games that bots
    played action by action in their own order (``match``, ``tournament``): the record then
    writes each turn as the server and ``play`` write it. Every turn ends in the same position,
    so the game recorded is the game played. Unchanged for a game without a whole-turn notation."""
    game = initial.game
    if not game.description.whole_turn_notation:
        return list(actions)
    movers, own = played_turns(initial, actions)
    state = initial.clone()
    out: list[int] = []
    for _number, _seat, first, stop in turn_spans(movers, turn_numbers(movers, own)):
        turn = game.canonical_turn(state, actions[first:stop])
        for action in turn:
            state.apply_action(action)
        out.extend(turn)
    return out


def turn_numbers(movers: Sequence[int], own: Sequence[int | None]) -> list[int]:
    """The number of the turn each action belongs to, as a move list, a replay and the board
    say it: the rules' own (``own``, :meth:`State.turn_number` before the action; 0 before
    their first turn), else one more at every change of seat. Every view of a game's turns
    (the browser's list and replay, the terminal's replay, the list of games) counts with it,
    so that "turn 13" means one turn everywhere."""
    out: list[int] = []
    n = 0
    for i, seat in enumerate(movers):
        if own[i] is not None:
            n = own[i]  # type: ignore[assignment]
        elif i == 0 or seat != movers[i - 1]:
            n += 1
        out.append(n)
    return out


def turn_spans(movers: Sequence[int], numbers: Sequence[int]) -> list[tuple[int, int, int, int]]:
    """The turns of a game as ``(number, seat, first, stop)``: actions ``first``…``stop - 1``,
    one seat's actions in a row of one turn number (:func:`turn_numbers`; 0: before the rules'
    first turn, a turn of its own per seat's actions in a row)."""
    spans: list[tuple[int, int, int, int]] = []
    for i, (seat, n) in enumerate(zip(movers, numbers)):
        if spans and spans[-1][1] == seat and spans[-1][0] == n:
            spans[-1] = (n, seat, spans[-1][2], i + 1)
        else:
            spans.append((n, seat, i, i + 1))
    return spans


def turns_played(movers: Sequence[int], numbers: Sequence[int]) -> int:
    """The turns played as a player reads them in the move list (:func:`turn_spans`): the last
    turn's number, and before the rules' first turn (number 0, a placement phase), which the
    numbers leave out, each seat's entry; a chance entry is nobody's. The list of games and the
    invitation's page say this count."""
    before = sum(1 for number, seat, _first, _stop in turn_spans(movers, numbers) if number == 0 and seat >= 0)
    return max(numbers, default=0) + before


class TurnText(NamedTuple):
    """One turn of a game as a person reads it (:func:`turn_texts`)."""

    number: int  #: its number (:func:`turn_numbers`; 0 before the rules' first turn)
    seat: int  #: who played it (``CHANCE`` for the chance actions between turns)
    first: int  #: the ply before it: its actions are plies ``first + 1`` … ``stop``
    stop: int  #: the ply after it
    moves: list[str]  #: the turn as :meth:`Game.format_turn` writes it (Nibble's ``b2+i8``, ``a1``)
    #: the ply after each entry of ``moves``: the next action's for an entry per action (a step
    #: through a capture chain), the turn's end for entries that write the turn whole
    plies: list[int]


def writes_as_played(game: Game) -> bool:
    """Whether ``game`` writes a turn as its actions' notation as played (it keeps
    :meth:`Game.format_turn` and :meth:`Game.format_moves`): :func:`action_strings` of the turn."""
    kind = type(game)
    return kind.format_turn is Game.format_turn and kind.format_moves is Game.format_moves


def turn_texts(initial: State, actions: Sequence[int], movers: Sequence[int] | None = None,
               numbers: Sequence[int] | None = None, ply: int = 0,
               strings: Sequence[str] | None = None,
               known: dict[tuple[int, tuple[int, ...]], list[str]] | None = None,
               at: tuple[int, State] | None = None) -> list[TurnText]:
    """The turns of ``actions`` played from ``initial`` (not changed), each as a person reads it
    (:meth:`Game.format_turn`): the terminal's ``replay`` and the browser's move list, so that
    both read a game alike. ``movers`` and ``numbers`` of ``actions`` (:func:`played_turns`,
    :func:`turn_numbers`) when known already; ``ply``: the ply of ``initial`` when it is not the
    start of the game (the plies of the answer count from the start); ``strings``: the
    notation of ``actions`` (:func:`action_strings`) when known already, the turns of a game
    that :func:`writes_as_played` then taken from it rather than written again (a Fibonacci
    action's notation: ~0.1 ms, at every move for the turn in progress). ``known``: the caller's
    dict, kept with ``initial``, of the turns written from it (``(first, actions[:stop])`` ->
    :meth:`Game.format_turn`), filled in here: a turn found in it is not written again.
    ``at``: ``(i, state)``, the state after ``actions[:i]`` (not changed), known already: a turn
    that starts there is written from it, not from ``initial`` replayed."""
    if movers is None or numbers is None:
        movers, own = played_turns(initial, actions)
        numbers = turn_numbers(movers, own)
    game = initial.game
    spans = turn_spans(movers, numbers)
    if strings is not None and writes_as_played(game):
        return [TurnText(number, seat, first + ply, stop + ply, list(strings[first:stop]),
                         list(range(first + ply + 1, stop + ply + 1))) for number, seat, first, stop in spans]
    # format_turn does not change the state it is given: ``initial``, or ``at``'s, as they are;
    # a clone only to play on from there, and only as far as a turn not ``known`` starts
    state, reached, own = initial, 0, False
    out: list[TurnText] = []
    for number, seat, first, stop in spans:
        part = actions[first:stop]
        key = (first, tuple(actions[:stop])) if known is not None else None  # the turn's start, and the turn
        kept = known.get(key) if known is not None else None
        if kept is None:
            if at is not None and at[0] == first:
                state, reached, own = at[1], first, False
            elif reached != first:
                if not own:
                    state, own = state.clone(), True
                for action in actions[reached:first]:
                    state.apply_action(action)
                reached = first
            kept = game.format_turn(state, part)
            if known is not None:
                known[key] = kept
        moves = list(kept)
        first, stop = first + ply, stop + ply
        plies = list(range(first + 1, stop + 1)) if len(moves) == len(part) else [stop] * len(moves)
        out.append(TurnText(number, seat, first, stop, moves, plies))
    return out


__all__ = ["TurnText", "canonical_actions", "played_turns", "turn_numbers", "turn_spans", "turn_texts",
           "turns_played", "writes_as_played"]
