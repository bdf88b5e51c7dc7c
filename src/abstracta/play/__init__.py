"""The play session (issue 37): a game being played by its seats, every rule of play written
once and no I/O. ``abstracta play`` (the terminal) and the server both drive a
:class:`Session`; its acts return a :class:`Progress` with the events that happened, or raise a
:class:`PlayError`. See ``docs/architecture.md``."""

from .errors import IllegalMove, Invalid, NotNow, NotYourTurn, NotYours, PlayError, StaleMove
from .events import (ActionsPlayed, DrawAccepted, DrawOffered, Event, GameAborted, GameEnded, HintCounted, Progress,
                     RematchAgreed, RematchOffered, RequestEnded, SeatOut, SeatTaken, TakebackAccepted, TakebackAsked,
                     TakenBack)
from .live import Live
from .notation import read_action, read_turn, read_typed
from .session import DRAW_AGAIN_TURNS, Session

__all__ = ["ActionsPlayed", "DRAW_AGAIN_TURNS", "DrawAccepted", "DrawOffered", "Event", "GameAborted", "GameEnded",
           "HintCounted", "RematchAgreed", "RematchOffered",
           "IllegalMove", "Invalid", "Live", "NotNow", "NotYourTurn", "NotYours", "PlayError", "Progress",
           "RequestEnded", "SeatOut", "SeatTaken", "Session", "StaleMove", "TakebackAccepted", "TakebackAsked",
           "TakenBack", "read_action", "read_turn", "read_typed"]
