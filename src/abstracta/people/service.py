"""The people service: one object the web app and the CLI hold (issue 41).

    people = People(engine)                      # the match store's engine: tables created
    started = people.accounts.sign_up("anna", "correct horse", ip="203.0.113.5")
    who = people.sessions.authenticate(secret=started.secret)
    people.standings.record_game(match_id, game, clock, returns, {0: anna_id, 1: ben_id}, rated=True)

Its parts: :class:`~abstracta.people.accounts.Accounts` (sign-up, sign-in, recovery, deletion,
export, the administrator's acts), :class:`~abstracta.people.sessions.Sessions` (guests,
sessions, API tokens), :class:`~abstracta.people.standings.Standings` (ratings, results,
seats, profiles, leaderboards, computer levels). None speaks HTTP: each raises the domain's
errors (:mod:`abstracta.people.errors`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Callable

from sqlalchemy.engine import Engine

from .accounts import Accounts
from .credentials import Passwords
from .database import Database, utcnow
from .sessions import Sessions
from .standings import Standings
from .throttle import Throttle


class People:
    """Accounts, sessions and standings on ``engine`` (SQLAlchemy; tables created if missing).

    ``passwords``: the Argon2id hasher (default parameters unless given); ``throttle``: the
    sign-in limits (in this process's memory unless given one on Redis); ``now``: the clock."""

    def __init__(self, engine: Engine, *, passwords: Passwords | None = None, throttle: Throttle | None = None,
                 now: Callable[[], datetime] = utcnow):
        self.db = Database(engine, now)
        self.passwords = passwords or Passwords()
        self.throttle = throttle or Throttle()
        self.sessions = Sessions(self)
        self.accounts = Accounts(self)
        self.standings = Standings(self)


__all__ = ["People"]
