"""One ``APIRouter`` per resource (:mod:`abstracta.server.api`); :data:`ROUTERS` in the order the
app includes them (the order /openapi.json and the docs' HTTP reference list them)."""

from __future__ import annotations

from fastapi import APIRouter

from ... import teaching
from ..errors import errors
from . import acts, analysis, bots, games, invitations, live, matches

ROUTERS: list[APIRouter] = [games.router, teaching.router(errors), bots.router, matches.router, invitations.router,
                            acts.router, analysis.router, live.router]

__all__ = ["ROUTERS"]
