"""The answer of ``GET /api/me/export``: everything the server keeps of one person (issue 41),
as one JSON document (format ``abstracta-person-export``, version 1). Every time is ISO 8601 in
UTC; ratings are Glicko-2's (rating, deviation ``rd``, volatility), in rating points. No secret
is in it: no password hash, no session cookie, no API token, no recovery code (only how many
are left).

A model of its own, beside :mod:`.models`, because it is a document a person keeps rather than
a view of the game: its fields follow the people's tables (``abstracta.people.tables``) one to
one, and a field the export gains must be added here (the route walk fails otherwise).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class ExportedPerson(BaseModel):
    name: str | None = Field(description="the person's name (null: a guest that never chose one)")
    kind: str = Field(description="guest | account")
    created_at: str = Field(description="when the person began (a guest's first visit)")
    account_at: str | None = Field(description="when the guest became an account (null: a guest)")
    last_seen_at: str = Field(description="the person's last request")


class ExportedSession(BaseModel):
    id: str = Field(description="the session's id as the list of sessions shows it (not its secret)")
    created_at: str
    last_seen_at: str
    user_agent: str = Field(description="the browser that signed in, as it named itself")
    ip: str = Field(description="the address it signed in from")


class ExportedToken(BaseModel):
    id: str = Field(description="the API token's id (not the token)")
    description: str
    scopes: list[str]
    created_at: str
    last_used_at: str | None


class ExportedRating(BaseModel):
    rating: float
    rd: float = Field(description="the rating deviation")
    volatility: float
    games: int = Field(description="rated games played in the pool")
    wins: int
    draws: int
    losses: int
    rated_at: str = Field(description="the last rated game's end")


class ExportedRatingChange(BaseModel):
    pool: str = Field(description="<game>.<variant>.<speed>")
    match_id: str | None = Field(description="the game that changed it")
    at: str
    before: float = Field(description="the rating before")
    rating: float = Field(description="the rating after")
    rd: float = Field(description="the rating deviation after")


class ExportedGame(BaseModel):
    match_id: str
    seat: int
    game: str = Field(description="registry name")
    pool: str | None = Field(description="the rating pool of its variant and clock (null: no declared variant)")
    rated: bool
    outcome: Literal["win", "draw", "loss"]
    score: float = Field(description="this seat's share of the pairwise results, 0 to 1")
    rating_before: float | None = Field(description="a rated game: the rating before it")
    rating_after: float | None = Field(description="a rated game: the rating after it")
    finished_at: str


class ExportedSeat(BaseModel):
    match_id: str
    seat: int
    since: str = Field(description="when the person took the seat")


class ExportedLevelResult(BaseModel):
    match_id: str
    family: str = Field(description="<game>.<variant>: the computer's levels are rated per variant")
    level: int = Field(description="the computer's level, 1 to 6")
    score: float = Field(description="the person's: 1, 0.5 or 0")
    at: str


class PersonExport(BaseModel):
    """Everything kept of a person (see the module's docstring)."""

    format: Literal["abstracta-person-export"]
    version: Literal[1]
    exported_at: str
    person: ExportedPerson
    sessions: list[ExportedSession] = Field(description="the sessions signed in now")
    api_tokens: list[ExportedToken]
    recovery_codes_left: int = Field(description="how many unused recovery codes remain (the codes are not here)")
    ratings: dict[str, ExportedRating] = Field(description="per pool <game>.<variant>.<speed>")
    rating_history: list[ExportedRatingChange] = Field(description="every change of a rating, oldest first")
    games: list[ExportedGame] = Field(description="the person's finished games, oldest first")
    seats: list[ExportedSeat] = Field(description="the seats the person holds or held")
    level_results: list[ExportedLevelResult] = Field(description="games against the computer's levels, counted "
                                                                 "for the levels' ratings")


__all__ = ["ExportedGame", "ExportedLevelResult", "ExportedPerson", "ExportedRating", "ExportedRatingChange",
           "ExportedSeat", "ExportedSession", "ExportedToken", "PersonExport"]
