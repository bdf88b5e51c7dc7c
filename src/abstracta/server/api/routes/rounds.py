"""The routes issue 42 adds to a match: abort, the game of a gone opponent claimed, the rematch,
who is connected. Only HTTP: the rules are the play session's, the acts ``rounds.py``'s.

Each act names its seats as every match route does (:data:`~..deps.Tokens`, a ``Holder``): the
seat tokens of ``Authorization: Bearer`` and the person signed in (session cookie or API token),
who holds the seats that are theirs — the lobby seats people so.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from ..bodies import Claim, RematchAnswer
from ..deps import Service, Tokens
from ..errors import ACT, errors
from ..models import MatchView, Presence, RematchState

router = APIRouter(tags=["matches"])



def view(service: Any, match: Any, who: Any) -> Response:
    """The match as the seats held see it (the acts' answer: the view's bytes, as every act's)."""
    return Response(service.act_view(match, who), media_type="application/json")


@router.post("/api/matches/{match_id}/abort", summary="Abort the game before your first move (no result, unrated)",
             response_model=MatchView, responses=ACT)
def post_abort(match_id: str, request: Request, service: Service, tokens: Tokens) -> Response:
    """Either side, before its own first move. The game ends with termination ``aborted``, no
    result; it is never rated. 409 once you have moved."""
    match = request.app.state.rounds.abort(match_id, tokens)
    return view(service, match, tokens)


@router.post("/api/matches/{match_id}/claim", summary="Claim the game (or a draw): your opponent is gone on their turn",
             response_model=MatchView, responses=ACT)
def post_claim(match_id: str, request: Request, service: Service, tokens: Tokens,
               body: Claim | None = None) -> Response:
    """When the player to move has had no connection for 60 s on their own turn (a day in
    correspondence; ``GET …/presence`` says when: ``claim_at``): the game ends with termination
    ``left``, the result your win (or a draw). 409 before, with ``at``."""
    match = request.app.state.rounds.claim(match_id, tokens, body.draw if body else False)
    return view(service, match, tokens)


@router.post("/api/matches/{match_id}/rematch", summary="Offer (or accept) a rematch of a finished game",
             status_code=201, responses={
                 **ACT,
                 201: {"description": "agreed by this request: the new match", "model": RematchState},
                 200: {"description": "the rematch had started: its id, with tokens of your seats in it; or "
                                      "declined (withdrawn)", "model": RematchState},
                 202: {"description": "offered: the others have to accept", "model": RematchState}})
def post_rematch(match_id: str, request: Request, tokens: Tokens, body: RematchAnswer | None = None) -> JSONResponse:
    """202 ``{"status": "offered", "rematch"}`` while the others have still to accept; 201
    ``{"status": "started", "id": the new match, "tokens", "my_seats"}`` when this agreed it (the
    seats gone round by one: two players swap; the same game, options, clock and rating); 200
    with the same once it had started. ``{"accept": false}`` declines (or withdraws): 200."""
    status, answer = request.app.state.rounds.rematch(match_id, tokens, body.accept if body else True)
    return JSONResponse(answer, status_code=status, headers={"Cache-Control": "no-store"})


@router.get("/api/matches/{match_id}/presence", summary="Who is connected to the match, and when you may claim",
            response_model=Presence, responses=errors(404, 422, 503))
def get_presence(match_id: str, request: Request, service: Service, tokens: Tokens) -> dict[str, Any]:
    """``{"presence": {"online": per seat, "gone_since": per seat (null while connected),
    "claim_at": when you may claim against the player to move, "spectators", "now"}}``; the
    match's WebSocket sends the same whenever it changes."""
    match = service.current(match_id)
    with service.locked(match_id):
        held = service.kernel.held(match, tokens)
    return request.app.state.rounds.presence_view(match_id, held)


__all__ = ["router"]
