"""People: guests and accounts, sessions and API tokens, Glicko-2 ratings, profiles and
leaderboards (issue 41). A domain without HTTP: the web routes
(``abstracta.server.people_routes``) and the CLI (``abstracta users``) drive it.

Outside the server package because both the server and the CLI use it and neither should
import the other's machinery; it imports nothing of ``abstracta.server`` (a test checks), only
SQLAlchemy, ``pwdlib`` (Argon2id) and ``limits``.
"""

from __future__ import annotations

from .errors import PeopleError
from .service import People
from .values import Person, Principal

__all__ = ["People", "PeopleError", "Person", "Principal"]
