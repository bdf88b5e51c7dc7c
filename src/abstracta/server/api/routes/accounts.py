"""The routes of accounts and sessions (issue 41): signing up, in and out, guests, and what a
person manages of their own (``/api/me``: name, sessions, personal API tokens, password,
recovery codes, the export of everything kept, deleting the account). Only HTTP: the rules are
:mod:`abstracta.people`'s; who asks and how refusals answer, :mod:`..people`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response

from ....people import Principal
from ..models import (CodesLeft, Ended, NewToken, PersonInfo, RecoveryCodes, SessionInfo, SignedUp,
                      TokenInfo)
from ..bodies import Credentials, NewName, Password, PasswordChange, Recovery, TokenRequest
from ..person_export import PersonExport
from ..people import (Anyone, PeopleRoute, Reader, Session, answers, clear_session, client, people_of, person_json,
                      set_session, signed_in)

router = APIRouter(route_class=PeopleRoute, tags=["people"])


# --- signing up, in and out -------------------------------------------------------------------
@router.post("/api/accounts", status_code=201, summary="Sign up: an account, its session cookie and recovery codes",
             response_model=SignedUp, response_model_exclude_unset=True, responses=answers(403, 409, 415, 422, 429, 503))
def sign_up(body: Credentials, request: Request, response: Response, current: Anyone) -> dict[str, Any]:
    """A guest signing up keeps its games and seats: the guest becomes the account. The
    recovery codes are shown this once (each signs in once with a new password)."""
    ip, agent = client(request)
    guest = current if current is not None and current.person.kind == "guest" and current.by_session else None
    started = people_of(request).accounts.sign_up(body.username, body.password, ip, agent, guest=guest)
    set_session(response, request, started.secret)
    return {**person_json(started.principal), "recovery_codes": list(started.recovery_codes)}


@router.post("/api/session", summary="Sign in: a session cookie", response_model=PersonInfo, response_model_exclude_unset=True, responses=answers(401, 403, 415, 422, 429, 503))
def sign_in(body: Credentials, request: Request, response: Response, current: Anyone) -> dict[str, Any]:
    """A wrong name and a wrong password get the same 401; more than 10 wrong attempts for one
    account within a minute are 429 (and so is the next, right or wrong, until the minute
    has passed)."""
    ip, agent = client(request)
    started = people_of(request).accounts.sign_in(body.username, body.password, ip, agent,
                                                  replacing=current if current is not None and current.by_session else None)
    set_session(response, request, started.secret)
    return person_json(started.principal)


@router.post("/api/accounts/recover", summary="Sign in with a recovery code, setting a new password",
             response_model=PersonInfo, response_model_exclude_unset=True, responses=answers(401, 403, 415, 422, 429, 503))
def recover(body: Recovery, request: Request, response: Response, current: Anyone) -> dict[str, Any]:
    ip, agent = client(request)
    started = people_of(request).accounts.recover(body.username, body.code, body.password, ip, agent,
                                                  replacing=current if current is not None and current.by_session else None)
    set_session(response, request, started.secret)
    return person_json(started.principal)


@router.delete("/api/session", status_code=204, summary="Sign out (this browser)", responses=answers(403, 415, 503))
def sign_out(request: Request, current: Anyone) -> Response:
    if current is not None:
        people_of(request).sessions.sign_out(current)
    response = Response(status_code=204)
    clear_session(response, request)
    return response


@router.post("/api/guests", status_code=201, summary="Play as a guest: a generated name and its session cookie",
             response_model=PersonInfo, response_model_exclude_unset=True, responses=answers(403, 415, 429, 503))
def start_guest(request: Request, response: Response, current: Anyone) -> dict[str, Any]:
    """A browser already signed in (guest or account) gets its own person back (200)."""
    if current is not None and current.by_session:
        response.status_code = 200
        return person_json(current)
    ip, agent = client(request)
    started = people_of(request).sessions.start_guest(ip, agent)
    set_session(response, request, started.secret)
    return person_json(started.principal)


# --- me -------------------------------------------------------------------------------------
@router.get("/api/me", summary="Who this browser (or API token) is: kind and name, or nobody",
            response_model=PersonInfo, response_model_exclude_unset=True, responses=answers(503))
def me(current: Anyone) -> dict[str, Any]:
    return person_json(current)


@router.put("/api/me/name", summary="Change a guest's name (an account keeps its username)",
            response_model=PersonInfo, response_model_exclude_unset=True, responses=answers(401, 403, 409, 415, 422, 503))
def rename(body: NewName, request: Request, current: Session) -> dict[str, Any]:
    person = people_of(request).sessions.rename_guest(current, body.name)
    request.app.state.service.owners.forget_names()
    return person_json(Principal(person, session_id=current.session_id))


@router.get("/api/me/sessions", summary="Your sessions (browsers signed in), the most recently used first",
            response_model=list[SessionInfo], responses=answers(401, 403, 503))
def list_sessions(request: Request, current: Session) -> list[dict[str, Any]]:
    return [{"id": s.id, "created": s.created_at.isoformat(), "last_seen": s.last_seen_at.isoformat(),
             "user_agent": s.user_agent, "ip": s.ip, "current": s.current}
            for s in people_of(request).sessions.sessions_of(current)]


@router.delete("/api/me/sessions/{session_id}", status_code=204, summary="End one of your sessions",
               responses=answers(401, 403, 404, 415, 422, 503))
def end_session(session_id: str, request: Request, current: Session) -> Response:
    people_of(request).sessions.end(current, session_id)
    response = Response(status_code=204)
    if session_id == current.session_id:
        clear_session(response, request)
    return response


@router.delete("/api/me/sessions", summary="End every session but this one", response_model=Ended, responses=answers(401, 403, 415, 503))
def end_other_sessions(request: Request, current: Session) -> dict[str, int]:
    return {"ended": people_of(request).sessions.end_all(current, keep_current=True)}


@router.get("/api/me/tokens", summary="Your personal API tokens (never the tokens themselves)",
            response_model=list[TokenInfo], responses=answers(401, 403, 503))
def list_tokens(request: Request, current: Session) -> list[dict[str, Any]]:
    return [token_json(t) for t in people_of(request).sessions.tokens_of(current)]


def token_json(t: Any) -> dict[str, Any]:
    return {"id": t.id, "description": t.description, "scopes": list(t.scopes), "hint": t.hint,
            "created": t.created_at.isoformat(), "last_used": t.last_used_at.isoformat() if t.last_used_at else None}


@router.post("/api/me/tokens", status_code=201, summary="A new personal API token (shown this once)",
             response_model=NewToken, responses=answers(401, 403, 409, 415, 422, 503))
def create_token(body: TokenRequest, request: Request, current: Session) -> dict[str, Any]:
    """Send it as ``Authorization: Bearer abst_…``; it acts for you within its scopes."""
    made = people_of(request).sessions.create_token(current, body.description, body.scopes)
    return {**token_json(made.info), "token": made.token}


@router.delete("/api/me/tokens/{token_id}", status_code=204, summary="Revoke an API token",
               responses=answers(401, 403, 404, 415, 422, 503))
def revoke_token(token_id: str, request: Request, current: Annotated[Principal, Depends(signed_in)]) -> Response:
    people_of(request).sessions.revoke_token(current, token_id)
    return Response(status_code=204)


@router.post("/api/me/password", status_code=204, summary="Change your password (every other session ends)",
             responses=answers(401, 403, 409, 415, 422, 429, 503))
def change_password(body: PasswordChange, request: Request, current: Session) -> Response:
    people_of(request).accounts.change_password(current, body.current, body.new)
    return Response(status_code=204)


@router.post("/api/me/recovery-codes", status_code=201, summary="New recovery codes (shown this once; the old ones stop)",
             response_model=RecoveryCodes, responses=answers(401, 403, 409, 415, 422, 429, 503))
def new_codes(body: Password, request: Request, current: Session) -> dict[str, Any]:
    return {"recovery_codes": list(people_of(request).accounts.new_recovery_codes(current, body.password))}


@router.get("/api/me/recovery-codes", summary="How many recovery codes are left", response_model=CodesLeft, responses=answers(401, 403, 503))
def codes_left(request: Request, current: Session) -> dict[str, int]:
    return {"left": people_of(request).accounts.recovery_codes_left(current)}


@router.get("/api/me/export", summary="Everything kept of you, as JSON (a file to download)",
            response_model=PersonExport, responses=answers(401, 403, 503))
def export(request: Request, response: Response, current: Reader) -> dict[str, Any]:
    response.headers["Content-Disposition"] = f'attachment; filename="abstracta-{current.person.name or "person"}.json"'
    return people_of(request).accounts.export(current)


@router.delete("/api/me", status_code=204, summary="Delete your account (your games stay, under \"deleted player\")",
               responses=answers(401, 403, 409, 415, 422, 429, 503))
def delete_account(body: Password, request: Request, current: Session) -> Response:
    people_of(request).accounts.delete(current, body.password)
    request.app.state.lobby.forget(current.person.id)  # their seeks, wait, challenges and blocks go
    social = getattr(request.app.state, "social", None)
    if social is not None:  # their chat lines stay, without their name
        social.chat.log.forget_author(current.person.id)
    # "deleted player" at once on this process's boards, not NAMES_SECONDS later
    request.app.state.service.owners.forget_names()
    response = Response(status_code=204)
    clear_session(response, request)
    return response


__all__ = ["router"]
