"""One ``APIRouter`` per resource (:mod:`abstracta.server.api`); :data:`ROUTERS` in the order the
app includes them (the order /openapi.json and the docs' HTTP reference list them): the people's
(accounts and sessions, players and standings), a match's company (chat, live games, push
notices), the lobby and the rounds (abort, claim, rematch, presence: issue 42), then the games, the computer's seats, matches, invitations, acts, analysis and the
match's WebSocket."""

from __future__ import annotations

from fastapi import APIRouter

from ... import teaching
from ..errors import errors
from . import (accounts, acts, analysis, bots, chat, games, invitations, live, live_games, lobby, matches, notices,
               players, rounds)

ROUTERS: list[APIRouter] = [accounts.router, players.router, chat.router, live_games.router, notices.router,
                            lobby.router, rounds.router, games.router, teaching.router(errors), bots.router, matches.router, invitations.router,
                            acts.router, analysis.router, live.router]

#: the routers of a move (an act, the match's live view), and of a match's start (its creation,
#: its invitations claimed, its view read), matched before the others (the app includes them a
#: second time ahead of ROUTERS, outside the schema): see app.py. POST /api/matches, GET
#: /api/matches/{id} and POST /api/invites/claim came after some fifteen routers, each of
#: whose routes FastAPI tried in turn: 90-100 us of matching each, 20-26 us first (a route
#: of the others: some 10 us more)
FIRST_MATCHED: list[APIRouter] = [acts.router, live.router, matches.router, invitations.router]

__all__ = ["FIRST_MATCHED", "ROUTERS"]
