"""Why the lobby refuses something (issue 42). Domain errors only, as the people domain's: the
web routes (``abstracta.server.api.routes.lobby``) turn them into HTTP statuses in one table. Each
carries an English ``message`` and the same words as a catalog message (``key``, ``params``:
``web/i18n/<lang>.json``)."""

from __future__ import annotations

from typing import Any


class LobbyError(Exception):
    """A refused lobby request: ``message`` in English, ``key``/``params`` for the catalogs."""

    def __init__(self, message: str, *, key: str | None = None, **params: Any):
        super().__init__(message)
        self.message = message
        self.key = key
        self.params = params

    @property
    def i18n(self) -> dict[str, Any] | None:
        return {"key": self.key, "params": self.params} if self.key else None


class InvalidInput(LobbyError):
    """A game, options, clock, rating range or name that breaks its rule (the message says which)."""


class NotSignedIn(LobbyError):
    """The lobby needs a person: a guest or an account (``POST /api/guests`` makes a guest)."""


class Unknown(LobbyError):
    """No such seek, challenge or player (or not one of this person's)."""


class Gone(Unknown):
    """A seek or challenge that was taken, cancelled, declined or has expired."""


class Conflict(LobbyError):
    """Not possible now: one's own seek, a seek outside one's rating, waiting already."""


class Refused(LobbyError):
    """Not allowed between these two people: one blocks the other, or a guest asks for a rated game."""


__all__ = ["Conflict", "Gone", "InvalidInput", "LobbyError", "NotSignedIn", "Refused", "Unknown"]
