"""What the people at a match do: a move, an undo, a takeback asked or answered, a draw offered
or answered, a fallen flag claimed, a resignation. Each answers with the match as the request's
tokens see it after the act (the view's bytes, encoded once per revision and viewer)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import Response

from ...errors import InvalidRequest
from ...service import MatchService
from ..bodies import Answer, PlayAction, Resign
from ..deps import NoBody, Service, Tokens, promptly
from ..errors import ACT
from ..models import MatchView
from .matches import view_response

router = APIRouter(tags=["acts"])


def act_view(service: MatchService, match: Any, tokens: list[str], seat: int | None = None) -> Response:
    """The view of ``match`` just changed, for ``tokens``: encoded once per revision and viewer
    and shared with the WebSocket pushes; exactly the fields of :class:`MatchView`."""
    return view_response(service.act_view(match, tokens, seat))


@router.post("/api/matches/{match_id}/actions", summary="Play a move for the seat to move (its token)",
             response_model=MatchView, responses=ACT)
async def post_action(match_id: str, body: PlayAction, service: Service, tokens: Tokens,
                      seat: int | None = Query(None, ge=0, le=15, description="the seat playing (or 'seat' in the body)")
                      ) -> Response:
    """The body gives exactly one of: ``action``, one engine action in the game's notation (a
    view's ``legal`` entry) or a whole-turn string; ``actions``, several engine actions the seat
    plays in a row within its turn (all or none); ``turn``, one whole turn as the view's
    ``turns`` lists it, for games with a whole-turn notation (``{"turn": "i9", "ply": 4}``
    takes i9 and ends the turn, where ``{"action": "i9", ...}`` may leave it open).

    409 if the ply is stale, the game is over, a computer seat is to move or a ``turn`` is
    sent in the middle of a turn; 403 if no token given holds the seat to move; 422 for a
    move that is not legal (a ``turn`` that is not a whole legal turn, or in a game without
    a whole-turn notation). A refused move changes nothing."""
    if seat is not None and body.seat is not None and seat != body.seat:
        raise InvalidRequest(f"seat: ?seat={seat} and the body's seat {body.seat} differ (give one)")
    acting = body.seat if body.seat is not None else seat
    match = await promptly(service, match_id, service.play, match_id, body.moves, body.ply, acting, tokens,
                           body.whole)
    return view_response(await promptly(service, match_id, service.act_view, match, tokens, acting))


@router.post("/api/matches/{match_id}/undo",
             summary="Take back at once to the start of your latest turn (when nobody else must agree)",
             response_model=MatchView, responses=ACT)
def post_undo(match_id: str, service: Service, tokens: Tokens, _body: None = NoBody,
              seat: int | None = Query(None, ge=0, le=15, description="whose eyes the answer shows")) -> Response:
    """Immediate when the tokens hold every person seat (against the computer, pass and play);
    with other people at the match 409 (ask with POST …/takeback). 409 past a revealed card."""
    return act_view(service, service.undo(match_id, tokens), tokens, seat)


@router.post("/api/matches/{match_id}/takeback", summary="Ask the other people for a takeback",
             response_model=MatchView, responses=ACT)
def post_takeback(match_id: str, service: Service, tokens: Tokens, _body: None = NoBody) -> Response:
    """The view's 'takeback' shows the pending request to everyone; any move cancels it. Done
    at once when nobody else needs to agree."""
    return act_view(service, service.request_takeback(match_id, tokens), tokens)


@router.post("/api/matches/{match_id}/takeback/answer", summary="Accept or decline the pending takeback",
             response_model=MatchView, responses=ACT)
def post_takeback_answer(match_id: str, body: Answer, service: Service, tokens: Tokens) -> Response:
    return act_view(service, service.answer_takeback(match_id, body.accept, tokens), tokens)


@router.post("/api/matches/{match_id}/draw", summary="Offer the other players a draw",
             response_model=MatchView, responses=ACT)
def post_draw(match_id: str, service: Service, tokens: Tokens, _body: None = NoBody) -> Response:
    """The view's 'draw_offer' shows the pending offer to everyone; a move by a seat that has
    still to answer declines it. Drawn at once when nobody else needs to agree; an offer
    while another seat's offer waits for yours accepts it. 409 against the computer (it
    never agrees to a draw), while an offer is pending, and once the game is over."""
    return act_view(service, service.offer_draw(match_id, tokens), tokens)


@router.post("/api/matches/{match_id}/draw/answer", summary="Accept or decline the pending draw offer",
             response_model=MatchView, responses=ACT)
def post_draw_answer(match_id: str, body: Answer, service: Service, tokens: Tokens) -> Response:
    return act_view(service, service.answer_draw(match_id, body.accept, tokens), tokens)


@router.post("/api/matches/{match_id}/flag", summary="Claim a fallen flag (the server also applies it by itself)",
             response_model=MatchView, responses=ACT)
def post_flag(match_id: str, service: Service, tokens: Tokens, _body: None = NoBody) -> Response:
    return act_view(service, service.claim_flag(match_id, tokens), tokens)


@router.post("/api/matches/{match_id}/resign", summary="Resign (a seat the tokens hold)", response_model=MatchView,
             responses=ACT)
def post_resign(match_id: str, service: Service, tokens: Tokens, body: Resign | None = None) -> Response:
    return act_view(service, service.resign(match_id, body.seat if body is not None else None, tokens), tokens)


__all__ = ["act_view", "router"]
