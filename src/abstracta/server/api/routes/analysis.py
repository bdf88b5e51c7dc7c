"""The analysis board: a position's evaluation and best line (a match's ply, or a pasted
position), and a finished match's evaluation graph. Each is a search in the bot workers; a
request whose client has gone has its search stopped (:func:`~..deps.unless_gone`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ..bodies import AnalysisRequest, GraphRequest
from ..deps import Service, Session, Tokens, asker_of, unless_gone
from ..errors import TOKEN_OPTIONAL, errors
from ..models import AnalysisAnswer, Graph

router = APIRouter(tags=["analysis"])


def address(request: Request) -> str:
    return request.client.host if request.client else ""


@router.post("/api/analysis", summary="Analysis board: a position's evaluation and best line",
             response_model=AnalysisAnswer, responses=errors(401, 403, 404, 409, 413, 415, 422, 429, 503),
             openapi_extra=TOKEN_OPTIONAL)
async def post_analysis(body: AnalysisRequest, request: Request, service: Service, tokens: Tokens,
                        session: Session = None) -> dict[str, Any]:
    """Either a match (`match_id`, `ply`) or a pasted position (`game`, `options`,
    `position`). Any ply of a finished match (for anyone who may view it); in a running
    match against the computer, the current position or an earlier one for the seat of the
    tokens given (`hint`: the current one, counted in the record's `Hints` tag); refused
    (409) in a running game between people. The strongest search of the game with a fixed
    budget: the same position always gets the same answer. A request whose client has gone
    (the connection closed) has its search stopped."""
    client, asker = address(request), asker_of(tokens, session)
    return await unless_gone(request, lambda gone: service.analyse(
        match_id=body.match_id, ply=body.ply, game=body.game, options=body.options, position=body.position,
        seat=body.seat, hint=body.hint, scale=body.scale, tokens=tokens, client=client, asker=asker, gone=gone))


@router.post("/api/analysis/graph", summary="Analysis board: a finished match's evaluation at each turn",
             response_model=Graph, responses=errors(401, 403, 404, 409, 413, 415, 422, 429, 503),
             openapi_extra=TOKEN_OPTIONAL)
async def post_analysis_graph(body: GraphRequest, request: Request, service: Service, tokens: Tokens,
                              session: Session = None) -> dict[str, Any]:
    """One point per turn start (at most 120, evenly spread) on a small budget; 409 while
    the game runs. Stopped as an analysis is when its client has gone."""
    client, asker = address(request), asker_of(tokens, session)
    return await unless_gone(request, lambda gone: service.analyse(
        match_id=body.match_id, graph=True, scale=body.scale, tokens=tokens, client=client, asker=asker, gone=gone))


__all__ = ["router"]
