"""The HTTP routes issue 42 adds to a match: abort, the game of a gone opponent claimed, the
rematch, who is connected. Only HTTP: the rules are the play session's, the acts ``rounds.py``'s.
Included by ``lobby_routes.install``.

Each act names its seats as every match route does (``routes.deps.Tokens``, a ``Holder``): the seat
tokens of ``Authorization: Bearer`` and the person signed in (session cookie or API token), who
holds the seats that are theirs — the lobby seats people so.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from .matches import Holder
from .routes.deps import Tokens

router = APIRouter(tags=["matches"])

#: what these routes answer besides success (the app's error body; statuses as every act's)
ACT_ANSWERS: dict[int | str, dict[str, Any]] = {
    code: {"description": text, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
    for code, text in {400: "Invalid host header (not a name this server serves)",
                       401: "no seat token and no person signed in",
                       403: "neither a token given nor the person signed in holds a seat of this match",
                       404: "no such match",
                       409: "not now (the message says why: moved already, the opponent is here, not gone long "
                            "enough — 'at' says until when —, the game runs or was aborted)",
                       413: "request body too large", 415: "a body that is not JSON",
                       422: "a malformed body", 429: "too many requests: wait Retry-After seconds",
                       503: "the database refused: nothing was changed; try again later"}.items()}
for _code in (429, 503):
    ACT_ANSWERS[_code] = {**ACT_ANSWERS[_code], "headers": {"Retry-After": {"description": "seconds to wait",
                                                                            "schema": {"type": "integer"}}}}
READ_ANSWERS = {code: ACT_ANSWERS[code] for code in (400, 404, 422, 503)}




def view(request: Request, match: Any, who: Holder) -> Response:
    """The match as the seats held see it (the acts' answer)."""
    return Response(request.app.state.service.act_view(match, who), media_type="application/json")


class Claim(BaseModel):
    model_config = ConfigDict(extra="forbid")
    draw: StrictBool = Field(default=False, description="false: claim the game; true: call it a draw")


class RematchAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    accept: StrictBool = Field(default=True, description="true: offer or accept; false: decline (or withdraw)")


@router.post("/api/matches/{match_id}/abort", summary="Abort the game before your first move (no result, unrated)",
             responses=ACT_ANSWERS)
def post_abort(match_id: str, request: Request, tokens: Tokens) -> Response:
    """Either side, before its own first move. The game ends with termination ``aborted``, no
    result; it is never rated. 409 once you have moved."""
    match = request.app.state.rounds.abort(match_id, tokens)
    return view(request, match, tokens)


@router.post("/api/matches/{match_id}/claim", summary="Claim the game (or a draw): your opponent is gone on their turn",
             responses=ACT_ANSWERS)
def post_claim(match_id: str, request: Request, tokens: Tokens, body: Claim | None = None) -> Response:
    """When the player to move has had no connection for 60 s on their own turn (a day in
    correspondence; ``GET …/presence`` says when: ``claim_at``): the game ends with termination
    ``left``, the result your win (or a draw). 409 before, with ``at``."""
    match = request.app.state.rounds.claim(match_id, tokens, body.draw if body else False)
    return view(request, match, tokens)


@router.post("/api/matches/{match_id}/rematch", summary="Offer (or accept) a rematch of a finished game",
             status_code=201, responses={**ACT_ANSWERS, 200: {"description": "the rematch had started: its id, "
                                                                "with tokens of your seats in it"},
                                         202: {"description": "offered: the others have to accept"}})
def post_rematch(match_id: str, request: Request, tokens: Tokens, body: RematchAnswer | None = None) -> JSONResponse:
    """202 ``{"status": "offered", "rematch"}`` while the others have still to accept; 201
    ``{"status": "started", "id": the new match, "tokens", "my_seats"}`` when this agreed it (the
    seats gone round by one: two players swap; the same game, options, clock and rating); 200
    with the same once it had started. ``{"accept": false}`` declines (or withdraws): 200."""
    status, answer = request.app.state.rounds.rematch(match_id, tokens, body.accept if body else True)
    return JSONResponse(answer, status_code=status, headers={"Cache-Control": "no-store"})


@router.get("/api/matches/{match_id}/presence", summary="Who is connected to the match, and when you may claim",
            responses=READ_ANSWERS)
def get_presence(match_id: str, request: Request, tokens: Tokens) -> dict[str, Any]:
    """``{"presence": {"online": per seat, "gone_since": per seat (null while connected),
    "claim_at": when you may claim against the player to move, "spectators", "now"}}``; the
    match's WebSocket sends the same whenever it changes."""
    service = request.app.state.service
    match = service.current(match_id)
    with service.locked(match_id):
        held = service.kernel.held(match, tokens)
    return request.app.state.rounds.presence_view(match_id, held)


__all__ = ["router"]
