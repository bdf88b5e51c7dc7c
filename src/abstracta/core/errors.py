"""Error types shared by every game (DESIGN.md "Errors").

All are ``ValueError`` subclasses, like python-chess's move errors, and each message names
the offending input.
"""

from __future__ import annotations

from typing import Any

from .messages import message


class AbstractaError(ValueError):
    """Base class of every error abstracta raises on bad input.

    ``i18n``: the same words as data for people reading another language, a message
    ``{"key", "params"}`` of the catalogs (:func:`abstracta.core.view.message`) whose English is
    the error's text; ``None`` where nobody but a programmer meets the error. The server sends
    it beside the English (a refused move on a Finnish page is refused in Finnish)."""

    def __init__(self, *args: object, i18n: dict | None = None):
        super().__init__(*args)
        self.i18n = i18n


class IllegalActionError(AbstractaError):
    """An action (integer or notation string) that is not legal in the state it was aimed at.

    The state is left unchanged.
    """


class NotationError(IllegalActionError):
    """A move string that does not parse in the game's notation at all."""


def game_over(move: str) -> IllegalActionError:
    """The refusal of ``move`` (the text as typed, quoted: ``repr(text)``) in a finished game,
    with its words as the shell's message ``refusal.game_over``."""
    return IllegalActionError(f"{move}: the game is over", i18n=message("refusal.game_over", move=move))


def not_legal(move: str, why: tuple[str, dict[str, Any]] | None = None) -> IllegalActionError:
    """The refusal of ``move`` (quoted, as :func:`game_over`) where it is not legal, with its
    words as the shell's messages: ``why``, the reason in English and as a message of the game's
    catalogs (``refusal.illegal_because``), or none to tell (``refusal.illegal``)."""
    if why is None:
        return IllegalActionError(f"{move} is not a legal action here", i18n=message("refusal.illegal", move=move))
    return IllegalActionError(f"{move} is not legal here: {why[0]}",
                              i18n=message("refusal.illegal_because", move=move, why=why[1]))


class PositionError(AbstractaError):
    """A position text that is malformed or describes an impossible position."""


class OptionError(AbstractaError):
    """An unknown game option, or a value the option does not accept."""


class UnknownGameError(AbstractaError):
    """A game name that is not registered."""


class RecordError(AbstractaError):
    """A game record that is corrupt or does not replay.

    Attributes:
        ply: 1-based index of the offending entry of the record's move list, or ``None``
            when the problem is not tied to one move (bad JSON, unknown game, bad options).
        reason: what was wrong, without the ply prefix.
    """

    def __init__(self, reason: str, ply: int | None = None, move: str | None = None):
        self.ply = ply
        self.move = move
        self.reason = reason
        where = ""
        if ply is not None:
            where = f"ply {ply}" + (f" ({move!r})" if move is not None else "") + ": "
        super().__init__(where + reason)
