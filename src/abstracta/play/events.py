"""What an act changed in a play session, as values (issue 37).

Every act of :class:`~abstracta.play.session.Session` returns a :class:`Progress`: the session
before, the session after and the events between them, as lila's ``Progress`` carries a game
and its ``Event``s. Whoever drives the session reacts to the events: the terminal prints them,
the server stores the new session and then announces the events to its concerns (the
computer's turn, the clock's timer, the pushes to the browsers). Events are plain frozen
values; seats are numbers, plies count actions from the start (0: before the first).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class Event:
    """Base class of the events."""


@dataclass(frozen=True)
class SeatTaken(Event):
    """Someone took ``seat`` (an invitation claimed); the game starts once every seat is taken."""

    seat: int


@dataclass(frozen=True)
class ActionsPlayed(Event):
    """``seat`` played: the actions from ply ``first`` on are now ``actions`` (notation
    ``moves``). A computer's turn rewritten in the game's canonical order once it ends is given
    whole, from its first ply."""

    seat: int
    first: int
    actions: tuple[int, ...]
    moves: tuple[str, ...]
    computer: bool = False


@dataclass(frozen=True)
class TakenBack(Event):
    """The game went back to ply ``to_ply`` from ``from_ply`` (an undo, or a takeback the
    others accepted)."""

    to_ply: int
    from_ply: int


@dataclass(frozen=True)
class TakebackAsked(Event):
    """``by`` asks the other people to go back to ``to_ply``."""

    by: int
    to_ply: int


@dataclass(frozen=True)
class TakebackAccepted(Event):
    """``seats`` accepted the pending takeback; others still have to."""

    seats: tuple[int, ...]


@dataclass(frozen=True)
class DrawOffered(Event):
    """``by`` offers a draw (``accepted``: the seats that agree already, held with it)."""

    by: int
    accepted: tuple[int, ...]


@dataclass(frozen=True)
class DrawAccepted(Event):
    """``seats`` accepted the pending draw offer; others still have to."""

    seats: tuple[int, ...]


@dataclass(frozen=True)
class RequestEnded(Event):
    """A takeback request, draw offer or rematch offer ended without its end: ``kind``
    ``"takeback"``, ``"draw"`` or ``"rematch"``, ``note`` the session's note of it
    (:attr:`Live.draw_ended` / ``takeback_ended`` / ``rematch``: ``by``, ``how``, ``seat``, …)."""

    kind: str
    note: dict[str, Any]

    @property
    def how(self) -> str:
        return str(self.note["how"])


@dataclass(frozen=True)
class SeatOut(Event):
    """``seat`` is out of a 3–4 player game on time (its moves are the computer's since)."""

    seat: int


@dataclass(frozen=True)
class HintCounted(Event):
    """A hint was given to ``seat``; ``counts`` the hints per seat since."""

    seat: int
    counts: tuple[int, ...]


@dataclass(frozen=True)
class GameEnded(Event):
    """The game is over: ``result`` per seat, ``termination`` ``normal`` (the rules),
    ``resignation``, ``time``, ``agreement`` or ``left`` (a player gone on their own turn, the
    other claimed the game or a draw). An aborted game is not one (:class:`GameAborted`)."""

    result: tuple[float, ...]
    termination: str


@dataclass(frozen=True)
class GameAborted(Event):
    """The game ended before it began (issue 42 §4): not lost, not drawn, never rated; no
    :class:`GameEnded` is announced for it. ``seat`` aborted it (``why`` ``"abort"``), or did
    not make its first move in time (``why`` ``"no_start"``)."""

    seat: int
    why: str


@dataclass(frozen=True)
class RematchOffered(Event):
    """``by`` offers the others a rematch of the game just over (``accepted``: the seats that
    agree already)."""

    by: int
    accepted: tuple[int, ...]


@dataclass(frozen=True)
class RematchAgreed(Event):
    """Every person seat agreed to a rematch: the new match is ``next``, its seats
    ``seats[i]`` the seat of this game whose player sits there (the seats go round by one: two
    players swap), its players ``players``."""

    next: str
    seats: tuple[int, ...]
    players: tuple[str, ...]


@dataclass(frozen=True)
class Progress:
    """An act's outcome: the session ``before`` (never changed) became the session ``after``
    (:class:`~abstracta.play.session.Session`, of the class ``before`` is) through ``events``."""

    before: Any
    after: Any
    events: tuple[Event, ...]

    def has(self, *kinds: type[Event]) -> bool:
        """Whether one of the events is of one of ``kinds``."""
        return any(isinstance(e, kinds) for e in self.events)


__all__ = ["ActionsPlayed", "DrawAccepted", "DrawOffered", "Event", "GameAborted", "GameEnded", "HintCounted",
           "Progress", "RematchAgreed", "RematchOffered", "RequestEnded", "SeatOut", "SeatTaken", "TakebackAccepted",
           "TakebackAsked", "TakenBack"]
