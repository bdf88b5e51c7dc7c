"""The computer players' job queue, as figures (``/api/bots``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..deps import Service
from ..errors import errors
from ..models import BotStats

router = APIRouter(tags=["bots"])


@router.get("/api/bots", summary="The computer players' job queue: lanes, counters, fallbacks",
            response_model=BotStats, responses=errors())
def bot_stats(service: Service) -> dict[str, Any]:
    return service.jobs.summary()


__all__ = ["router"]
