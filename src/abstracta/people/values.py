"""The values the people domain hands out (never ORM rows, never secrets but the one shown
once at its making)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

#: what an API token may be allowed (its scopes); a browser session may do everything
SCOPES: dict[str, str] = {
    "read": "read your account, ratings, games and export",
    "play": "create games and act in your own (moves, draw offers, resignation)",
    "lobby": "seeks, challenges and rematches; reading your lobby and notices",
    "chat": "write in your games' chat",
}


@dataclass(frozen=True)
class Person:
    """A guest or an account (``kind``: ``guest``, ``account``, ``deleted``; a deleted
    account has no name)."""

    id: int
    kind: str
    name: str | None
    created_at: datetime
    account_at: datetime | None = None
    disabled: bool = False

    @property
    def is_account(self) -> bool:
        return self.kind == "account"


@dataclass(frozen=True)
class Principal:
    """Who a request acts as: ``person``, through the browser session ``session_id`` (every
    right) or the API token ``token_id`` (its ``scopes`` only)."""

    person: Person
    session_id: str | None = None
    token_id: str | None = None
    scopes: frozenset[str] = field(default_factory=frozenset)

    @property
    def by_session(self) -> bool:
        return self.session_id is not None

    def may(self, scope: str) -> bool:
        return self.by_session or scope in self.scopes


@dataclass(frozen=True)
class Started:
    """A new session: its ``principal`` and the cookie's ``secret`` (set once, never stored);
    ``recovery_codes``: a new account's, shown once."""

    principal: Principal
    secret: str
    recovery_codes: tuple[str, ...] = ()


@dataclass(frozen=True)
class SessionInfo:
    id: str
    created_at: datetime
    last_seen_at: datetime
    user_agent: str
    ip: str
    current: bool


@dataclass(frozen=True)
class TokenInfo:
    id: str
    description: str
    scopes: tuple[str, ...]
    hint: str
    created_at: datetime
    last_used_at: datetime | None


@dataclass(frozen=True)
class NewToken:
    """A token just made: its ``info`` and the ``token`` itself (shown once)."""

    info: TokenInfo
    token: str


__all__ = ["NewToken", "Person", "Principal", "SCOPES", "SessionInfo", "Started", "TokenInfo"]
