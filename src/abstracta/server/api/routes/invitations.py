"""Invitations: what one is for, claiming it (the seat's token, once), and new codes for the
seats still open. A code goes in a body, never in a URL (URLs end up in logs)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..bodies import InviteCode
from ..deps import Creator, Service, Tokens
from ..errors import ACT, errors
from ..models import InvitationInfo, Invites, MatchCreated
from ...matches import Holder
from ...owners import is_rated
from ...views import seat_styles, variant_named
from .matches import created, invite_links

router = APIRouter(tags=["invitations"])


@router.post("/api/invites/lookup", summary="What an invitation is for (without claiming it)",
             response_model=InvitationInfo, responses=errors(404, 413, 415, 422, 429, 503))
def lookup_invite(body: InviteCode, service: Service) -> dict[str, Any]:
    """The code goes in the body, never in a URL (URLs end up in logs)."""
    match, seat, claimed = service.invitation(body.code)
    return {"match": match.id, "game": match.game.name, "title": match.game.title,
            "title_key": match.game.description.title.key, "seat": seat,
            "claimed": claimed, "players": match.players, "seats": seat_styles(match.game),
            "variant": variant_named(match.game), "rated": is_rated(match),
            "people": list(service.owners.names(match))}


@router.post("/api/invites/claim", summary="Claim an invitation: the seat's token (once)",
             response_model=MatchCreated, responses=errors(403, 404, 410, 413, 415, 422, 429, 503))
def claim_invite(body: InviteCode, service: Service, claimer: Creator) -> dict[str, Any]:
    """Answers with the match as that seat sees it and the seat's token in 'tokens'; a second
    claim of the same code is 410, an unknown code 404. Claimed by a person signed in, the
    seat is theirs too; a rated game's seat only an account claims (403)."""
    return created(service, *service.claim(body.code, Holder((), claimer)))


@router.post("/api/matches/{match_id}/invites", summary="New invitation codes for the unclaimed person seats",
             response_model=Invites, responses=ACT)
def reinvite(match_id: str, service: Service, tokens: Tokens) -> dict[str, Any]:
    """Any seat's token. The earlier unclaimed codes stop working."""
    return {"invites": invite_links(service.reinvite(match_id, tokens)["invites"])}


__all__ = ["router"]
