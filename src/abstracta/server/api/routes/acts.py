"""What the people at a match do: a move, an undo, a takeback asked or answered, a draw offered
or answered, a fallen flag claimed, a resignation. Each answers with the match as the request's
tokens see it after the act (the view's bytes, encoded once per revision and viewer)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import ValidationError
from starlette.routing import Match, Route
from starlette.types import Receive, Scope, Send

from ...errors import InvalidRequest
from ...matches import Holder
from ...service import MatchService
from ..bodies import Answer, PlayAction, Resign
from ..deps import NoBody, Service, Tokens, bearer, promptly, request_tokens, service_of
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
    return await play(service, match_id, body, body.seat if body.seat is not None else seat, tokens)


async def move(service: MatchService, match_id: str, body: PlayAction, acting: int | None, tokens: Holder) -> Any:
    """The move of ``body`` by ``acting`` (or the seat to move) played: the match as stored. The
    one call of a move, whether it came as ``POST …/actions`` or over the match's WebSocket
    (:mod:`.live_moves`); the domain's refusals (``MatchError``) raised as they are."""
    return await promptly(service, match_id, service.play, match_id, body.moves, body.ply, acting, tokens,
                          body.whole)


async def play(service: MatchService, match_id: str, body: PlayAction, acting: int | None, tokens: Holder) -> Response:
    """The move of ``body`` by ``acting`` (or the seat to move), answered with the view."""
    match = await move(service, match_id, body, acting, tokens)
    return view_response(await promptly(service, match_id, service.act_view, match, tokens, acting))


#: The fields of the body a move usually has (a browser's and load.py's): those the lean route takes.
PLAIN_MOVE = frozenset({"action", "ply"})


class PlainMoveRoute(Route):
    """``POST /api/matches/{match_id}/actions`` with a plain body (``{"action": "...", "ply": N}``,
    JSON, no query): the route above without FastAPI's per-request work around it (solving its
    dependencies, reading the body into a field and the answer's wrapping: a tenth of the web
    process's CPU per move under ``benchmarks/move_cpu.py``). Matched ahead of it (app.py); the
    same steps in the same order — the body validated by the same model, the tokens read by the
    same dependencies, :func:`play` — and the same errors, which reach the app's exception
    handlers as any route's do. Any other request to the path (a query, another body, one the
    model refuses: its 422 is FastAPI's) goes to ``full``, the route above, with the body read."""

    def __init__(self, full: Any):
        async def endpoint(request: Request) -> Response:
            return await self.answer(request)

        super().__init__(full.path, endpoint, methods=["POST"], include_in_schema=False)
        self.full = full

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope.get("method") != "POST":  # whatever else reaches the path is the full route's
            return Match.NONE, {}
        match, child = super().matches(scope)
        if match is Match.FULL:
            child["route"] = self.full  # its metrics' label, as the full route gives it
        return match, child

    async def answer(self, request: Request) -> Response:
        raw = await request.body()
        body = None
        if not request.scope.get("query_string") and request.headers.get("content-type") == "application/json":
            try:
                data = json.loads(raw)  # as FastAPI reads a JSON body
            except ValueError:
                data = None
            if type(data) is dict and data.keys() == PLAIN_MOVE and type(data["action"]) is str \
                    and type(data["ply"]) is int:
                try:
                    body = PlayAction.model_validate(data)
                except ValidationError:
                    body = None
        if body is None:
            return Replay(self.full, raw)
        service = service_of(request)
        tokens = await request_tokens(request, await bearer(request))
        return await play(service, request.path_params["match_id"], body, None, tokens)


class Replay(Response):
    """The full route's answer to a request whose body was read already (it reads it again)."""

    def __init__(self, route: Any, body: bytes):
        super().__init__()
        self.route, self.body_read = route, body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        given = False

        async def again() -> Any:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": self.body_read, "more_body": False}
            return await receive()

        await self.route.handle(scope, again, send)


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


def plain_move_route() -> PlainMoveRoute:
    """The lean route of a plain move, ahead of :func:`post_action` (app.py)."""
    full = next(r for r in router.routes if getattr(r, "endpoint", None) is post_action)
    return PlainMoveRoute(full)


__all__ = ["PlainMoveRoute", "act_view", "move", "plain_move_route", "router"]
