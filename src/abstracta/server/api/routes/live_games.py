"""The HTTP routes of the games in play to watch (issue 43 §3): ``GET /api/live`` (the page of
live games, most watched first) and ``GET /api/matches/{id}/watchers`` (how many watch one).
Only HTTP here: :mod:`abstracta.server.live` computes the list."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request

from ...live import LIVE_LIMIT
from ..errors import company_errors
from ..models import LiveGame, Watchers

router = APIRouter(tags=["live"])


@router.get("/api/live", response_model=list[LiveGame], responses=company_errors(422, 503),
            summary="The games people play at a distance now, most watched first")
def live_games(request: Request, limit: int = Query(LIVE_LIMIT, ge=1, le=LIVE_LIMIT)) -> list[dict[str, Any]]:
    """Games in play (every seat taken) between people at a distance — never one against the
    computer alone or on one device — each with the spectator's view of its position."""
    return request.app.state.social.live.list(limit)


@router.get("/api/matches/{match_id}/watchers", response_model=Watchers, responses=company_errors(404, 422, 503),
            summary="How many watch a match now (its spectators' live connections)")
def watchers(match_id: str, request: Request) -> dict[str, int]:
    service = request.app.state.service
    service.current(match_id)  # 404 for no such match
    return {"watchers": service.hub.watchers(match_id)}


__all__ = ["router"]
