"""Why the match service refuses a request (issue 14 §1).

The service raises these; only the routes (``app.py``) turn them into HTTP statuses, in one
table. Each carries a message naming the problem (client input echoed at most 100 characters)
and optional ``extra`` fields for the answer (e.g. the current ``ply`` of a stale move). The
match a refused request was aimed at is unchanged.

Anything else raised while serving a request is a bug: a logged 500, match unchanged.
"""

from __future__ import annotations

from typing import Any


class MatchError(Exception):
    """A refused request: ``message`` for the client, ``extra`` fields for its answer."""

    #: seconds a client should wait before asking again (the answer's ``Retry-After``), if known
    retry_after: int | None = None

    def __init__(self, message: str, **extra: Any):
        super().__init__(message)
        self.message = message
        self.extra = extra


class InvalidRequest(MatchError):
    """The request names something invalid (a field, a seat, an option, a record)."""


class IllegalMove(InvalidRequest):
    """A move that does not parse or is not legal in the current state."""


class Unauthorized(MatchError):
    """No seat token given where an act needs one."""


class Forbidden(MatchError):
    """No token given holds the seat this needs (another seat's or another match's token)."""


class NotFound(MatchError):
    """No such match, game, invitation or file."""


class Conflict(MatchError):
    """The match's state does not allow this now (game over, a computer's turn, nothing pending)."""


class StalePly(Conflict):
    """A move chosen at an earlier ply than the match's (``extra['ply']`` is the current one)."""


class NotYourTurn(Conflict):
    """A move for a seat that is not to move."""


class Hidden(Conflict):
    """Information that stays hidden while a hidden-information game runs (its record)."""


class Gone(MatchError):
    """An invitation that was used already."""


class TooBusy(MatchError):
    """Too many requests of this kind from one client at once (analyses running)."""

    #: an analysis takes seconds: asked again this much later, one of them may have ended
    retry_after = 2


class Unavailable(MatchError):
    """The server cannot answer this now (stopping, or a job that did not finish in time)."""


class StorageFailed(Unavailable):
    """The database refused a write (a read-only file, a full disk, a server that does not
    answer): nothing was stored, the match is as it was."""

    retry_after = 10


class StaleRevision(Exception):
    """Internal: the stored match moved on (another process) since it was loaded; the service
    reloads it and tries again. Never reaches a client."""


class CorruptMatch(Exception):
    """Internal: a stored match does not replay (a bug or a damaged database): a 500."""


__all__ = ["Conflict", "CorruptMatch", "Forbidden", "Gone", "Hidden", "IllegalMove", "InvalidRequest",
           "MatchError", "NotFound", "NotYourTurn", "StalePly", "StaleRevision", "StorageFailed", "TooBusy",
           "Unauthorized", "Unavailable"]
