"""The lobby (issue 42): seeks, quick pairing, challenges to named players and blocks — how
people who never exchanged a link find each other. A domain without HTTP, beside
``abstracta.people``: the web routes (``abstracta.server.api.routes.lobby``) drive it, and the
server hands it the one function that makes a match with people seated
(``abstracta.server.pairing.start_game``). See ``docs/playing/lobby.md``."""

from __future__ import annotations

from .controls import GameSpec, TimeControl, check_spec
from .errors import Conflict, Gone, InvalidInput, LobbyError, NotSignedIn, Refused, Unknown
from .service import Lobby

__all__ = ["Conflict", "GameSpec", "Gone", "InvalidInput", "Lobby", "LobbyError", "NotSignedIn", "Refused", "TimeControl",
           "Unknown", "check_spec"]
