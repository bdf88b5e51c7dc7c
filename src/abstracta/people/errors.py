"""Why the people domain refuses something (issue 41). Domain errors only: the web routes
(``abstracta.server.api.people``) turn them into HTTP statuses in one table, the CLI into
messages. Each carries an English ``message`` and the same words as a catalog message
(``key``, ``params``: ``web/i18n/<lang>.json``), so the browser says it in its reader's
language. No message ever holds a password, a hash or a secret token.
"""

from __future__ import annotations

from typing import Any


class PeopleError(Exception):
    """A refused request about people: ``message`` in English, ``key``/``params`` for the
    catalogs; ``retry_after`` (seconds) where waiting helps."""

    retry_after: int | None = None

    def __init__(self, message: str, *, key: str | None = None, retry_after: int | None = None, **params: Any):
        super().__init__(message)
        self.message = message
        self.key = key
        self.params = params
        if retry_after is not None:
            self.retry_after = retry_after

    @property
    def i18n(self) -> dict[str, Any] | None:
        return {"key": self.key, "params": self.params} if self.key else None


class InvalidInput(PeopleError):
    """A name, password, code or field that breaks its rule (the message says which)."""


class InvalidName(InvalidInput):
    """A username or guest name outside 2–20 letters, digits, ``_`` and ``-``, or reserved."""


class InvalidPassword(InvalidInput):
    """A password under 8 characters (or absurdly long)."""


class NameTaken(PeopleError):
    """The name is someone else's (compared without regard to case)."""


class Conflict(PeopleError):
    """Not possible in the current state (a guest name change for an account, an account made
    twice from one guest)."""


class NotRatable(Conflict):
    """A game that cannot be rated (no declared variant, fewer than two accounts, a computer)."""


class SignInFailed(PeopleError):
    """A wrong username, password or recovery code: one answer for all, so that it does not
    tell which names exist."""


class NotSignedIn(PeopleError):
    """No session or API token, or an expired or ended one."""


class Forbidden(PeopleError):
    """Signed in, but not allowed this (a disabled account, an API token without the scope, an
    act that needs the browser session rather than a token)."""


class AccountDisabled(Forbidden):
    """The account was disabled by an administrator."""


class UnknownPerson(PeopleError):
    """No such player, session or token (of this person)."""


class TooManyAttempts(PeopleError):
    """Too many sign-in attempts (per account or per address) or sign-ups from one address:
    ``retry_after`` seconds."""


__all__ = ["AccountDisabled", "Conflict", "Forbidden", "InvalidInput", "InvalidName", "InvalidPassword", "NameTaken",
           "NotRatable", "NotSignedIn", "PeopleError", "SignInFailed", "TooManyAttempts", "UnknownPerson"]
