"""Why the play session refuses an act (issue 37).

Domain errors, like the engines' (:class:`~abstracta.core.errors.AbstractaError`): each names
what was wrong in English and carries ``i18n``, the same words as a message of the shell's
catalogs where a person reads them in a browser (``{"key", "params"}``), and ``extra`` fields
for an answer (the current ``ply`` of a stale move). The session an act was aimed at is
unchanged. The server turns each kind into its status (``server/matches.py``), the terminal
prints the words.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import AbstractaError

#: Longest echo of a player's input inside an error message.
ECHO_LIMIT = 100


def clip(value: Any, limit: int = ECHO_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters (error messages echo client input)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def cut(text: str, limit: int = 300) -> str:
    """``text`` cut to ``limit`` characters (messages that may contain client input)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class PlayError(AbstractaError):
    """An act the session refuses: ``str(exc)`` the English, ``i18n`` its message (or None),
    ``extra`` fields for an answer."""

    def __init__(self, text: str, i18n: dict[str, Any] | None = None, **extra: Any):
        super().__init__(text, i18n=i18n)
        self.extra = extra


class Invalid(PlayError):
    """The act names something that is not there (a seat, a turn over already)."""


class IllegalMove(Invalid):
    """A move that does not read in the game's notation or is not legal in the position."""


class NotNow(PlayError):
    """The game as it is does not allow this now (over, nothing pending, a seat not taken yet)."""


class StaleMove(NotNow):
    """A move chosen at another ply than the game's (``extra["ply"]``: the game's)."""


class NotYourTurn(NotNow):
    """A move for a seat that is not to move, or a computer's turn."""


class NotYours(PlayError):
    """The acting seats have no say in this (the asker answering its own request, a seat out)."""


__all__ = ["ECHO_LIMIT", "IllegalMove", "Invalid", "NotNow", "NotYourTurn", "NotYours", "PlayError", "StaleMove",
           "clip", "cut"]
