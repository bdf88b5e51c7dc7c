"""Guests, sessions and personal API tokens (issue 41 §1).

A session is a browser's: the cookie holds a random secret, the database its SHA-256. A guest
is a person with a generated name and a session, made the moment they first need one (to
play); the name can be changed, and is unique among active players: a guest unseen for
:data:`GUEST_IDLE` gives it up to the next person who wants it (and is given a new generated
one). A session unused for :data:`SESSION_IDLE` ends by itself.

A personal API token (``abst_…``) acts for its account within its scopes (``values.SCOPES``);
only a browser session manages the account (tokens, sessions, password, deletion), as on
lichess.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Iterable

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from . import credentials
from .database import aware, hold, person_of
from .errors import Conflict, Forbidden, InvalidInput, NameTaken, NotSignedIn, UnknownPerson
from .names import check_name, guest_name, name_key
from .tables import ApiTokenRow, PersonRow, SessionRow
from .values import SCOPES, NewToken, Person, Principal, SessionInfo, Started, TokenInfo

if TYPE_CHECKING:
    from .service import People

#: a session unused this long has ended
SESSION_IDLE = timedelta(days=90)
#: a guest unseen this long no longer holds its name against a newcomer
GUEST_IDLE = timedelta(days=30)
#: a session's and a person's "last seen" is written at most this often (not on every request)
TOUCH_EVERY = timedelta(minutes=10)
#: at most this many API tokens per account
TOKEN_LIMIT = 50


class Sessions:
    """Guests, sessions and API tokens over ``people``'s database."""

    def __init__(self, people: "People"):
        self.people = people
        self.db = people.db

    # --- guests ----------------------------------------------------------------------------------
    def start_guest(self, ip: str, user_agent: str = "") -> Started:
        """A new guest with a generated name, and its session. :class:`TooManyAttempts` past the
        address's limit of new guests."""
        self.people.throttle.take("guest_ip", ip)
        for _ in range(20):
            name = guest_name()
            try:
                with self.db.writing() as s:
                    now = self.db.now()
                    if self._holder(s, name_key(name)) is not None:
                        continue
                    row = PersonRow(kind="guest", name=name, name_key=name_key(name), created_at=now, last_seen_at=now)
                    s.add(row)
                    s.flush()
                    secret, session_id = self.open(s, row.id, ip, user_agent)
                    person = person_of(row)
            except IntegrityError:
                continue
            return Started(Principal(person, session_id=session_id), secret)
        raise Conflict("no free guest name was found: try again", key="people.error.try_again")  # pragma: no cover

    def rename_guest(self, principal: Principal, name: str) -> Person:
        """Give the guest ``principal`` the name ``name`` (rules: ``names.check_name``).
        :class:`Conflict` for an account (a username stays), :class:`NameTaken` if an account
        or an active guest has it."""
        if principal.person.kind != "guest":
            raise Conflict("an account keeps its username", key="people.error.account_name_fixed")
        name = check_name(name)
        try:
            with self.db.writing() as s:
                row = s.get(PersonRow, principal.person.id)
                if row is None or row.kind != "guest":
                    raise NotSignedIn("this guest session has ended", key="people.error.signed_out")
                self.claim_name(s, row, name)
                return person_of(row)
        except IntegrityError:
            raise NameTaken(f"the name {name!r} is taken", key="people.error.name_taken", name=name) from None

    def _holder(self, s: Session, key: str) -> PersonRow | None:
        return s.scalar(select(PersonRow).where(PersonRow.name_key == key))

    def claim_name(self, s: Session, row: PersonRow, name: str) -> None:
        """Give ``row`` the name ``name`` within the transaction ``s``: :class:`NameTaken` if
        another person holds it, unless an idle guest (who gets a generated name instead)."""
        key = name_key(name)
        holder = self._holder(s, key)
        if holder is not None and holder.id != row.id:
            idle = self.db.now() - aware(holder.last_seen_at) > GUEST_IDLE
            if holder.kind != "guest" or not idle:
                raise NameTaken(f"the name {name!r} is taken", key="people.error.name_taken", name=name)
            for _ in range(20):
                fresh = guest_name()
                if self._holder(s, name_key(fresh)) is None:
                    holder.name, holder.name_key = fresh, name_key(fresh)
                    break
            s.flush()
        row.name, row.name_key = name, key

    # --- sessions --------------------------------------------------------------------------------
    def open(self, s: Session, person_id: int, ip: str, user_agent: str) -> tuple[str, str]:
        """A new session of ``person_id`` within ``s``: ``(secret, session id)``."""
        secret, now = credentials.session_secret(), self.db.now()
        session_id = credentials.public_id()
        s.add(SessionRow(id=session_id, secret_hash=credentials.digest(secret), person_id=person_id, created_at=now,
                         last_seen_at=now, user_agent=(user_agent or "")[:200], ip=(ip or "")[:64]))
        return secret, session_id

    def authenticate(self, secret: str | None = None, token: str | None = None) -> Principal | None:
        """Who a request is: by its session cookie's ``secret``, else by a bearer API ``token``
        (``abst_…``); None for neither, or one that has ended (or whose account is disabled
        or gone). Seen-at times are written at most every :data:`TOUCH_EVERY`."""
        if secret:
            return self._by_session(secret)
        if token and credentials.is_api_token(token):
            return self._by_token(token)
        return None

    def _by_session(self, secret: str) -> Principal | None:
        digest = credentials.digest(secret)
        with self.db.reading() as s:
            found = s.execute(select(SessionRow, PersonRow).join(PersonRow, PersonRow.id == SessionRow.person_id)
                              .where(SessionRow.secret_hash == digest)).first()
        if found is None:
            return None
        session, person = found
        now = self.db.now()
        if person.kind == "deleted" or person.disabled_at is not None or now - aware(session.last_seen_at) > SESSION_IDLE:
            with self.db.writing() as s:
                s.execute(delete(SessionRow).where(SessionRow.id == session.id))
                self.db.ends(s, person.id)
            return None
        if now - aware(session.last_seen_at) > TOUCH_EVERY:
            with self.db.writing() as s:
                for row in (s.get(SessionRow, session.id), s.get(PersonRow, person.id)):
                    if row is not None:
                        row.last_seen_at = now
        return Principal(person_of(person), session_id=session.id)

    def _by_token(self, token: str) -> Principal | None:
        with self.db.reading() as s:
            found = s.execute(select(ApiTokenRow, PersonRow).join(PersonRow, PersonRow.id == ApiTokenRow.person_id)
                              .where(ApiTokenRow.token_hash == credentials.digest(token))).first()
        if found is None:
            return None
        row, person = found
        if person.kind != "account" or person.disabled_at is not None:
            return None
        now = self.db.now()
        if row.last_used_at is None or now - aware(row.last_used_at) > timedelta(minutes=1):
            with self.db.writing() as s:
                stored = s.get(ApiTokenRow, row.id)
                if stored is not None:
                    stored.last_used_at = now
        return Principal(person_of(person), token_id=row.id, scopes=frozenset(row.scopes.split()))

    def sessions_of(self, principal: Principal) -> list[SessionInfo]:
        """The person's sessions, the most recently used first (``current``: this one)."""
        with self.db.reading() as s:
            rows = s.scalars(select(SessionRow).where(SessionRow.person_id == principal.person.id)
                             .order_by(SessionRow.last_seen_at.desc()))
            return [SessionInfo(r.id, aware(r.created_at), aware(r.last_seen_at), r.user_agent, r.ip,
                                r.id == principal.session_id) for r in rows]

    def end(self, principal: Principal, session_id: str) -> None:
        """End one of the person's sessions (:class:`UnknownPerson` for another's or none)."""
        with self.db.writing() as s:
            done = s.execute(delete(SessionRow).where(SessionRow.id == session_id,
                                                      SessionRow.person_id == principal.person.id))
            if done.rowcount != 1:
                raise UnknownPerson("no such session of yours", key="people.error.no_session")
            self.db.ends(s, principal.person.id)

    def end_all(self, principal: Principal, keep_current: bool = False) -> int:
        """End every session of the person (but this one with ``keep_current``): how many."""
        with self.db.writing() as s:
            query = delete(SessionRow).where(SessionRow.person_id == principal.person.id)
            if keep_current and principal.session_id:
                query = query.where(SessionRow.id != principal.session_id)
            ended = s.execute(query).rowcount
            if ended:
                self.db.ends(s, principal.person.id)
            return ended

    def sign_out(self, principal: Principal) -> None:
        """End this request's session (nothing for an API token: revoke it instead)."""
        if principal.session_id:
            with self.db.writing() as s:
                s.execute(delete(SessionRow).where(SessionRow.id == principal.session_id))
                self.db.ends(s, principal.person.id)

    # --- API tokens ------------------------------------------------------------------------------
    @staticmethod
    def needs_session(principal: Principal, what: str) -> None:
        if not principal.by_session:
            raise Forbidden(f"{what} needs a signed-in browser, not an API token", key="people.error.needs_session")

    def create_token(self, principal: Principal, description: str, scopes: Iterable[str]) -> NewToken:
        """A new API token of the account (shown once). :class:`Forbidden` for a guest or by an
        API token, :class:`InvalidInput` for an unknown scope or a description over 60 characters."""
        self.needs_session(principal, "making an API token")
        if not principal.person.is_account:
            raise Forbidden("API tokens are for accounts: sign up first", key="people.error.needs_account")
        description = (description or "").strip()
        if not 1 <= len(description) <= 60:
            raise InvalidInput("a token's description is 1–60 characters", key="people.error.token_description")
        wanted = sorted(set(scopes))
        unknown = [x for x in wanted if x not in SCOPES]
        if unknown or not wanted:
            raise InvalidInput(f"scopes are some of {', '.join(SCOPES)}" + (f" (not {unknown[0][:30]!r})" if unknown else ""),
                               key="people.error.token_scopes")
        token = credentials.api_token()
        with self.db.writing() as s:
            # two made at once each counted before the other's was written, one past the limit:
            # the account's row locked first, the second counts the first's (PostgreSQL)
            hold(s, [principal.person.id])
            count = len(s.scalars(select(ApiTokenRow.id).where(ApiTokenRow.person_id == principal.person.id)).all())
            if count >= TOKEN_LIMIT:
                raise Conflict(f"at most {TOKEN_LIMIT} API tokens: revoke one first", key="people.error.too_many_tokens",
                               n=TOKEN_LIMIT)
            row = ApiTokenRow(id=credentials.public_id(), token_hash=credentials.digest(token),
                              person_id=principal.person.id, description=description, scopes=" ".join(wanted),
                              hint=token[:9], created_at=self.db.now())
            s.add(row)
            info = _token_info(row)
        return NewToken(info, token)

    def tokens_of(self, principal: Principal) -> list[TokenInfo]:
        with self.db.reading() as s:
            rows = s.scalars(select(ApiTokenRow).where(ApiTokenRow.person_id == principal.person.id)
                             .order_by(ApiTokenRow.created_at.desc()))
            return [_token_info(r) for r in rows]

    def revoke_token(self, principal: Principal, token_id: str) -> None:
        """Revoke one of the account's tokens (a token may revoke itself, nothing else)."""
        if not principal.by_session and principal.token_id != token_id:
            self.needs_session(principal, "revoking another token")
        with self.db.writing() as s:
            done = s.execute(delete(ApiTokenRow).where(ApiTokenRow.id == token_id,
                                                       ApiTokenRow.person_id == principal.person.id))
            if done.rowcount != 1:
                raise UnknownPerson("no such API token of yours", key="people.error.no_token")
            self.db.ends(s, principal.person.id)


def _token_info(row: ApiTokenRow) -> TokenInfo:
    return TokenInfo(row.id, row.description, tuple(row.scopes.split()), row.hint, aware(row.created_at),
                     aware(row.last_used_at))


__all__ = ["GUEST_IDLE", "SESSION_IDLE", "Sessions", "TOKEN_LIMIT"]
