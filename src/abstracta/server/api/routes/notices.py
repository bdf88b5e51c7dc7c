"""The HTTP routes of the Web Push notices of correspondence games (issue 43 §1). Only HTTP
here: :mod:`abstracta.server.webpush` keeps the keys and subscriptions and sends.

* ``GET /api/push/key`` — the server's VAPID public key (the ``applicationServerKey`` a
  browser subscribes with).
* ``POST /api/matches/{id}/push`` ``{"subscription", "lang"}`` — by a seat (its token or its
  person's session): 201, the seats whose turns will be told to that browser.
* ``DELETE /api/matches/{id}/push`` ``{"endpoint"}`` — 204, no more notices there.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from ..bodies import Subscribe, Unsubscribe
from ..deps import Tokens, who_acts
from ..errors import company_errors
from ..models import Key, Subscribed

router = APIRouter(tags=["notices"])


@router.get("/api/push/key", response_model=Key, responses=company_errors(), summary="The server's Web Push (VAPID) public key")
def push_key(request: Request) -> dict[str, str]:
    return {"key": request.app.state.social.webpush.keys.public}


@router.post("/api/matches/{match_id}/push", status_code=201, response_model=Subscribed,
             responses=company_errors(401, 403, 404, 409, 413, 415, 422, 503),
             summary="Tell this browser by Web Push when it is your move (correspondence games)")
def subscribe(match_id: str, body: Subscribe, request: Request, holder: Tokens) -> dict[str, Any]:
    """403 without a seat of the match, 409 in a game that is not correspondence (a day or more
    per move), 422 for a subscription the server will not post to (not https, a local address,
    keys that are no P-256 key and 16-byte secret)."""
    speaker = who_acts(request, match_id, holder)
    match = request.app.state.service.current(match_id)
    return {"seats": request.app.state.social.webpush.subscribe(match, set(speaker.seats),
                                                                body.subscription.subscription(), body.lang or "en")}


@router.delete("/api/matches/{match_id}/push", status_code=204, responses=company_errors(401, 403, 404, 413, 415, 422, 503), summary="No more Web Push notices to this browser")
def unsubscribe(match_id: str, body: Unsubscribe, request: Request, holder: Tokens) -> Response:
    speaker = who_acts(request, match_id, holder)
    match = request.app.state.service.current(match_id)
    request.app.state.social.webpush.unsubscribe(match, set(speaker.seats), body.endpoint)
    return Response(status_code=204)


__all__ = ["router"]
