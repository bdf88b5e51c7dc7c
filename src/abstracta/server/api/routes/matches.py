"""The matches: a browser's list, creating one, importing a record, a match as the request's
tokens may see it, its replay pages, its record, deleting it.

The match views (``GET /api/matches/{id}`` and every act's answer) are the bytes the match
service encoded once per revision and viewer and shares with the WebSocket pushes: answered as
they are (a :class:`~fastapi.responses.Response`), their model documents them and the tests check
them against it (``tests/server/test_server_responses.py``).
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import Response

from ....core.errors import AbstractaError
from ....core.registry import load_game
from ...owners import RATED_TAG
from ...seats import ending
from ...service import MatchService
from ...views import REPLAY_PAGE, seat_styles, variant_named
from ..bodies import CreateMatch, ImportMatch, time_control
from ..deps import Creator, NoBody, Service, Tokens, promptly
from ..errors import TOKEN_OPTIONAL, errors
from ..models import MatchCreated, MatchSummary, MatchView, Positions, RecordDocument

router = APIRouter(tags=["matches"])
#: ``?seat=``: whose eyes an answer shows (a seat the tokens hold)
SEAT_QUERY = Query(None, ge=0, le=15, description="which held seat's eyes (403 for a seat not held)")


def created(service: MatchService, match: Any, grant: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """The view for the seats just handed out, with the secrets (shown once)."""
    with service.locked(match.id):
        view = service.view(match, {t["seat"] for t in grant["tokens"]})
    return {**view, "tokens": grant["tokens"], "invites": invite_links(grant["invites"])}


def invite_links(invites: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The invitations with the page a browser opens to accept each."""
    return [{**i, "path": f"/#/join/{i['code']}"} for i in invites]


def view_response(data: bytes) -> Response:
    """A match view's JSON as the service encoded it (exactly the fields of :class:`MatchView`)."""
    return Response(data, media_type="application/json")


@router.get("/api/matches", summary="Your matches: those of the tokens sent or the person signed in, most recently played first",
            response_model=list[MatchSummary], responses=errors(422, 503), openapi_extra=TOKEN_OPTIONAL)
def list_matches(service: Service, tokens: Tokens, limit: int = Query(50, ge=1, le=500)) -> list[dict[str, Any]]:
    """Only the matches a token of the request holds a seat of (send every token the browser
    keeps, comma-separated), and those of the person signed in (the session cookie); with
    neither the list is empty. Never every match on the server."""
    out = []
    listed = service.mine(tokens, limit)
    ids = [row.id for row, *_ in listed]
    claimed = service.store.claimed_of(ids)
    seated = service.owners.people_of_matches(ids)
    for row, seats_held, deletable, due_in in listed:
        try:
            record = json.loads(row.record)
        except ValueError:
            record = {}
        try:
            game = load_game(row.game, **(record.get("options") or {}))
            seats, variant = seat_styles(game), variant_named(game)
        except (AbstractaError, TypeError):
            seats, variant = None, None
        players = record.get("players") or []
        people = seated.get(row.id, {})
        tags = record.get("tags") if isinstance(record.get("tags"), dict) else {}
        out.append({"id": row.id, "game": row.game, "status": row.status, "ply": row.plies,
                    # NULL in databases of an earlier version, whose records hold every move
                    "turns": row.turns if row.turns is not None else len(record.get("moves") or []),
                    "players": players,
                    "to_move": row.to_move if row.status == "playing" else None,
                    "claimed": [i in claimed[row.id] or i in people for i in range(len(players))],
                    "seats": seats, "variant": variant,
                    "options": record.get("options") or {},
                    "result": record.get("result"), "termination": record.get("termination"),
                    **ending(record),
                    "created": row.created_at.isoformat() if row.created_at else None,
                    "updated": row.updated_at.isoformat() if row.updated_at else None,
                    "my_seats": seats_held,
                    "people": [people.get(i) for i in range(len(players))],
                    "rated": tags.get(RATED_TAG) == "true", "deletable": deletable,
                    "due_in": None if due_in is None else round(due_in, 3)})
    return out


@router.post("/api/matches", status_code=201, summary="Create a match: its tokens and invitations",
             response_model=MatchCreated, responses=errors(403, 404, 413, 415, 422, 429, 503))
def create_match(body: CreateMatch, service: Service, creator: Creator) -> dict[str, Any]:
    """The answer is the only place the tokens of the seats taken and the invitation codes
    appear: a client keeps them (the server stores only their SHA-256). The seats taken by
    a person signed in (the session cookie) are theirs too, wherever they sign in."""
    return created(service, *service.create(body.game, body.options, body.seats, body.take,
                                            time_control(body.clock), creator=creator, rated=body.rated))


@router.post("/api/matches/import", status_code=201,
             summary="Import a record (validated by replay: errors name the ply and the reason)",
             response_model=MatchCreated, responses=errors(404, 413, 415, 422, 429, 503))
def import_match(body: ImportMatch, service: Service, creator: Creator) -> dict[str, Any]:
    return created(service, *service.import_record(body.record, body.seats, body.take, time_control(body.clock),
                                                   creator=creator))


@router.get("/api/matches/{match_id}", summary="A match as the request's tokens may see it",
            response_model=MatchView, responses=errors(403, 404, 422, 503), openapi_extra=TOKEN_OPTIONAL)
async def get_match(match_id: str, service: Service, tokens: Tokens, seat: int | None = SEAT_QUERY) -> Response:
    """Without a token of this match: the spectator's view (public information only)."""
    return view_response(await promptly(service, match_id, service.snapshot, match_id, tokens, seat))


@router.get("/api/matches/{match_id}/positions",
            summary=f"The position after each ply, a page of at most {REPLAY_PAGE} plies, as the request's tokens may see it",
            response_model=Positions, responses=errors(403, 404, 422, 429, 503), openapi_extra=TOKEN_OPTIONAL)
def get_positions(match_id: str, service: Service, tokens: Tokens,
                  seat: int | None = Query(None, ge=0, le=15, description="as for GET /api/matches/{match_id}"),
                  start: int | None = Query(None, alias="from", ge=0, description="the first ply (default 0)"),
                  stop: int | None = Query(None, alias="to", ge=0, description=(
                      f"the last ply, included (default: the page's end, {REPLAY_PAGE} plies, or the game's "
                      f"last ply); at most {REPLAY_PAGE} plies per answer"))) -> Response:
    """Kept once computed (per revision, viewer and range): the browser asks for aligned
    pages (0…99, 100…199, …) as it steps through a game. Rate-limited per address and token
    (429): a page of a long game takes a fraction of a second to compute."""
    return Response(service.positions_page(match_id, tokens, seat, start, stop), media_type="application/json")


@router.delete("/api/matches/{match_id}", status_code=204,
               summary="Delete a match nobody else is in (a token of one of its seats); 409 for one another person "
                       "has a seat in, or a rated one",
               responses=errors(401, 403, 404, 409, 413, 415, 422, 429, 503))
def delete_match(match_id: str, service: Service, tokens: Tokens, _body: None = NoBody) -> Response:
    """Against the computer, hot-seat on one device, an invitation nobody claimed yet: deleted
    for good, its watchers told. A game someone else holds a seat of is theirs too: neither
    player deletes it for both (409, ``error.delete_shared``); nor is a rated game whose seats are
    taken (409, ``error.rated_delete``: its result moves ratings). ``deletable`` in the list says
    which."""
    service.delete(match_id, tokens)
    return Response(status_code=204)


@router.get("/api/matches/{match_id}/record",
            summary="The match's record (JSON download); 409 while a game with hidden cards runs",
            response_model=RecordDocument, responses=errors(404, 409, 422, 503))
def get_record(match_id: str, service: Service, download: bool = Query(False)) -> Response:
    match, text = service.record_of(match_id)
    headers = {}
    if download:
        headers["Content-Disposition"] = f'attachment; filename="{match.game.name}-{match.id}.json"'
    return Response(text + "\n", media_type="application/json", headers=headers)


__all__ = ["created", "invite_links", "router", "view_response"]
