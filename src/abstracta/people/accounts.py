"""Accounts: sign-up, sign-in, recovery, password change, deletion, export, and what an
administrator does (``abstracta users``) (issue 41 §1).

Sign-in answers a wrong password and an unknown name alike (:class:`SignInFailed`), after the
same Argon2id work (a dummy hash for the unknown name). Attempts are limited per address and,
for wrong ones, per account (``throttle``); the limit is checked before the password, so it
cannot be used to try more. A successful sign-in, sign-up or recovery makes a new session (a
new secret: a cookie planted before cannot ride along) and ends the guest session it replaces.

Recovery codes (no e-mail server is assumed): eight at sign-up, shown once, kept as SHA-256;
one code and a new password sign in and end every other session. Deleting an account keeps its
row without name or hash (``kind`` ``deleted``): its games stay, under "deleted player", and
everything else of it goes (sessions, tokens, codes, ratings, rating history).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Callable

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from . import credentials
from .credentials import MAX_PASSWORD, MIN_PASSWORD
from .database import aware, hold, person_of
from .errors import (AccountDisabled, Conflict, InvalidInput, InvalidPassword, NameTaken, NotSignedIn, SignInFailed,
                     UnknownPerson)
from .names import check_name, name_key
from .tables import (ApiTokenRow, GameResultRow, LevelResultRow, PersonRow, RatingHistoryRow, RatingRow,
                     RecoveryCodeRow, SeatPersonRow, SessionRow)
from .values import Person, Principal, Started

if TYPE_CHECKING:
    from .credentials import Passwords
    from .service import People

#: the one answer to a wrong name, password or code
WRONG = "wrong username or password"


def check_password(password: object) -> str:
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise InvalidPassword(f"a password has at least {MIN_PASSWORD} characters", key="people.error.password_short",
                              n=MIN_PASSWORD)
    if len(password) > MAX_PASSWORD:
        raise InvalidPassword(f"a password has at most {MAX_PASSWORD} characters", key="people.error.password_long",
                              n=MAX_PASSWORD)
    return password


def check_fields(*checks: Callable[[], Any]) -> list[Any]:
    """Each check's value; where several fields break their rules, one :class:`InvalidInput`
    saying all of them (a form that told one at a time had its reader send it again for each)."""
    values, refused = [], []
    for check in checks:
        try:
            values.append(check())
        except InvalidInput as e:
            refused.append(e)
    if len(refused) == 1:
        raise refused[0]
    if refused:
        raise InvalidInput("; ".join(e.message for e in refused), key="people.error.fields",
                           problems=[e.i18n or e.message for e in refused])
    return values


@dataclass(frozen=True)
class AccountInfo:
    """One account as ``abstracta users list`` shows it."""

    name: str
    created_at: datetime
    last_seen_at: datetime
    disabled: bool
    sessions: int


class Accounts:
    """Accounts over ``people``'s database, passwords and throttle."""

    def __init__(self, people: "People"):
        self.people = people
        self.db = people.db

    @property
    def passwords(self) -> "Passwords":
        return self.people.passwords

    # --- signing up and in -----------------------------------------------------------------------
    def sign_up(self, username: str, password: str, ip: str = "", user_agent: str = "",
                guest: Principal | None = None, limited: bool = True) -> Started:
        """A new account and its session, with recovery codes (shown once). A ``guest`` signing
        up becomes the account (its seats and games stay its own) and its guest session ends.
        :class:`InvalidName`/:class:`InvalidPassword` (nothing counted), :class:`TooManyAttempts`
        past the address's sign-ups (unless not ``limited``: the administrator's), :class:`NameTaken`
        for a name any case of which is taken."""
        username, password = check_fields(lambda: check_name(username), lambda: check_password(password))
        if limited:
            self.people.throttle.take("signup_ip", ip)
        hashed = self.passwords.hash(password)
        codes = [credentials.recovery_code() for _ in range(credentials.RECOVERY_CODES)]
        sessions = self.people.sessions
        try:
            with self.db.writing() as s:
                now = self.db.now()
                row = None
                if guest is not None and guest.person.kind == "guest":
                    # the guest's row locked before it is read: one guest signing up twice at once
                    # (two tabs) became the account twice over, sixteen recovery codes signing in,
                    # eight never shown (PostgreSQL). The second reads the account: its name is taken
                    hold(s, [guest.person.id])
                    row = s.get(PersonRow, guest.person.id)
                if row is None or row.kind != "guest":
                    row = PersonRow(kind="account", created_at=now, last_seen_at=now)
                    s.add(row)
                    s.flush()
                else:
                    s.execute(delete(SessionRow).where(SessionRow.person_id == row.id))
                    self.db.ends(s, row.id)
                sessions.claim_name(s, row, username)
                row.kind, row.password_hash, row.account_at, row.last_seen_at = "account", hashed, now, now
                for code in codes:
                    s.add(RecoveryCodeRow(code_hash=credentials.digest(code), person_id=row.id, created_at=now))
                secret, session_id = sessions.open(s, row.id, ip, user_agent)
                person = person_of(row)
        except IntegrityError:
            raise NameTaken(f"the name {username!r} is taken", key="people.error.name_taken", name=username) from None
        return Started(Principal(person, session_id=session_id), secret, tuple(codes))

    def _account(self, username: object) -> PersonRow | None:
        if not isinstance(username, str) or len(username) > 64:
            return None
        with self.db.reading() as s:
            return s.scalar(select(PersonRow).where(PersonRow.name_key == name_key(username),
                                                    PersonRow.kind == "account"))

    def _limited(self, username: object, ip: str) -> str:
        """Count an attempt of ``ip``; refuse one for an account with 10 wrong in the minute."""
        key = name_key(username) if isinstance(username, str) else ""
        throttle = self.people.throttle
        throttle.check("signin_account", key)
        throttle.take("signin_ip", ip)
        return key

    def sign_in(self, username: str, password: str, ip: str = "", user_agent: str = "",
                replacing: Principal | None = None) -> Started:
        """A new session for the account, ending the (guest) session ``replacing``.
        :class:`SignInFailed` for a wrong name or password (alike), :class:`TooManyAttempts`
        past a limit, :class:`AccountDisabled` for a disabled account (right password)."""
        key = self._limited(username, ip)
        row = self._account(username)
        given = password if isinstance(password, str) and len(password) <= MAX_PASSWORD else ""
        if not self.passwords.verify(given, row.password_hash if row is not None else None) or not given:
            self.people.throttle.hit("signin_account", key)
            raise SignInFailed(WRONG, key="people.error.wrong")
        if row.disabled_at is not None:
            raise AccountDisabled("this account is disabled", key="people.error.disabled")
        return self._start(row.id, ip, user_agent, replacing,
                           rehash=given if self.passwords.needs_rehash(row.password_hash) else None)

    def _start(self, person_id: int, ip: str, user_agent: str, replacing: Principal | None,
               rehash: str | None = None, end_others: bool = False) -> Started:
        sessions = self.people.sessions
        with self.db.writing() as s:
            row = s.get(PersonRow, person_id)
            if row is None or row.kind != "account":
                raise SignInFailed(WRONG, key="people.error.wrong")
            if rehash is not None:
                row.password_hash = self.passwords.hash(rehash)
            if end_others:
                s.execute(delete(SessionRow).where(SessionRow.person_id == person_id))
                self.db.ends(s, person_id)
            if replacing is not None and replacing.session_id:
                s.execute(delete(SessionRow).where(SessionRow.id == replacing.session_id))
                self.db.ends(s, replacing.person.id)
            row.last_seen_at = self.db.now()
            secret, session_id = sessions.open(s, person_id, ip, user_agent)
            person = person_of(row)
        return Started(Principal(person, session_id=session_id), secret)

    def recover(self, username: str, code: str, password: str, ip: str = "", user_agent: str = "",
                replacing: Principal | None = None) -> Started:
        """Sign in with a recovery code, setting the new ``password``: the code is used up and
        every other session ends. Refusals as :meth:`sign_in`."""
        password = check_password(password)
        key = self._limited(username, ip)
        row = self._account(username)
        digest = credentials.digest(credentials.normal_code(code if isinstance(code, str) else "")[:64])
        hashed = self.passwords.hash(password)  # also before a refusal: the same time for every answer
        with self.db.writing() as s:
            found = None
            if row is not None:
                found = s.scalar(select(RecoveryCodeRow).where(RecoveryCodeRow.code_hash == digest,
                                                               RecoveryCodeRow.person_id == row.id,
                                                               RecoveryCodeRow.used_at.is_(None)))
            if found is None:
                self.people.throttle.hit("signin_account", key)
                raise SignInFailed("wrong username or recovery code", key="people.error.wrong_code")
            if row.disabled_at is not None:
                raise AccountDisabled("this account is disabled", key="people.error.disabled")
            # unused still when marked, not only when read: the same code sent twice at once
            # (PostgreSQL) signed in twice, each with a password of its own
            done = s.execute(update(RecoveryCodeRow).where(RecoveryCodeRow.code_hash == found.code_hash,
                                                           RecoveryCodeRow.used_at.is_(None))
                             .values(used_at=self.db.now()))
            if done.rowcount != 1:
                raise SignInFailed("wrong username or recovery code", key="people.error.wrong_code")
            s.execute(update(PersonRow).where(PersonRow.id == row.id).values(password_hash=hashed))
        return self._start(row.id, ip, user_agent, replacing, end_others=True)

    def _confirm(self, principal: Principal, password: str, what: str) -> PersonRow:
        """The account row, once ``password`` is its own (an act that needs it typed again)."""
        self.people.sessions.needs_session(principal, what)
        if not principal.person.is_account:
            raise Conflict("this is for accounts", key="people.error.needs_account")
        key = name_key(principal.person.name or "")
        self.people.throttle.check("signin_account", key)
        row = self._account(principal.person.name)
        given = password if isinstance(password, str) and len(password) <= MAX_PASSWORD else ""
        if row is None:
            raise NotSignedIn("this session has ended", key="people.error.signed_out")
        if not given or not self.passwords.verify(given, row.password_hash):
            self.people.throttle.hit("signin_account", key)
            raise SignInFailed("wrong password", key="people.error.wrong_password")
        return row

    def change_password(self, principal: Principal, current: str, new: str) -> None:
        """Set a new password (the current one typed again); every other session ends."""
        new = check_password(new)
        row = self._confirm(principal, current, "changing the password")
        hashed = self.passwords.hash(new)
        with self.db.writing() as s:
            s.execute(update(PersonRow).where(PersonRow.id == row.id).values(password_hash=hashed))
            s.execute(delete(SessionRow).where(SessionRow.person_id == row.id, SessionRow.id != principal.session_id))
            self.db.ends(s, row.id)

    def new_recovery_codes(self, principal: Principal, password: str) -> tuple[str, ...]:
        """Eight new recovery codes (shown once); the earlier ones stop working."""
        row = self._confirm(principal, password, "making recovery codes")
        codes = tuple(credentials.recovery_code() for _ in range(credentials.RECOVERY_CODES))
        with self.db.writing() as s:
            # made twice at once (two tabs), each deleted what was there before the other's were
            # written: sixteen signed in (PostgreSQL). The account's row orders the two
            hold(s, [row.id])
            s.execute(delete(RecoveryCodeRow).where(RecoveryCodeRow.person_id == row.id))
            now = self.db.now()
            for code in codes:
                s.add(RecoveryCodeRow(code_hash=credentials.digest(code), person_id=row.id, created_at=now))
        return codes

    def recovery_codes_left(self, principal: Principal) -> int:
        with self.db.reading() as s:
            return s.scalar(select(func.count()).select_from(RecoveryCodeRow)
                            .where(RecoveryCodeRow.person_id == principal.person.id,
                                   RecoveryCodeRow.used_at.is_(None))) or 0

    def delete(self, principal: Principal, password: str) -> None:
        """Delete the account (its password typed again): see the module docstring."""
        row = self._confirm(principal, password, "deleting the account")
        self._erase(row.id)

    def _erase(self, person_id: int) -> None:
        with self.db.writing() as s:
            for table in (SessionRow, ApiTokenRow, RecoveryCodeRow, RatingRow, RatingHistoryRow, LevelResultRow):
                s.execute(delete(table).where(table.person_id == person_id))
            self.db.ends(s, person_id)
            # the games stay, the ratings they moved go (the opponents' changes stay theirs)
            s.execute(update(GameResultRow).where(GameResultRow.person_id == person_id)
                      .values(rating_before=None, rating_after=None))
            s.execute(update(PersonRow).where(PersonRow.id == person_id).values(
                kind="deleted", name=None, name_key=None, password_hash=None, disabled_at=None,
                deleted_at=self.db.now()))

    def export(self, principal: Principal) -> dict[str, Any]:
        """Everything kept of the person, as JSON-ready data (no secret, no hash)."""
        pid = principal.person.id
        with self.db.reading() as s:
            row = s.get(PersonRow, pid)
            if row is None:
                raise NotSignedIn("this session has ended", key="people.error.signed_out")
            iso = lambda d: aware(d).isoformat() if d is not None else None  # noqa: E731
            data: dict[str, Any] = {
                "format": "abstracta-person-export", "version": 1, "exported_at": iso(self.db.now()),
                "person": {"name": row.name, "kind": row.kind, "created_at": iso(row.created_at),
                           "account_at": iso(row.account_at), "last_seen_at": iso(row.last_seen_at)},
                "sessions": [{"id": r.id, "created_at": iso(r.created_at), "last_seen_at": iso(r.last_seen_at),
                              "user_agent": r.user_agent, "ip": r.ip}
                             for r in s.scalars(select(SessionRow).where(SessionRow.person_id == pid))],
                "api_tokens": [{"id": r.id, "description": r.description, "scopes": r.scopes.split(),
                                "created_at": iso(r.created_at), "last_used_at": iso(r.last_used_at)}
                               for r in s.scalars(select(ApiTokenRow).where(ApiTokenRow.person_id == pid))],
                "recovery_codes_left": s.scalar(select(func.count()).select_from(RecoveryCodeRow).where(
                    RecoveryCodeRow.person_id == pid, RecoveryCodeRow.used_at.is_(None))),
                "ratings": {r.pool: {"rating": r.rating, "rd": r.deviation, "volatility": r.volatility, "games": r.games,
                                     "wins": r.wins, "draws": r.draws, "losses": r.losses, "rated_at": iso(r.rated_at)}
                            for r in s.scalars(select(RatingRow).where(RatingRow.person_id == pid))},
                "rating_history": [{"pool": r.pool, "match_id": r.match_id, "at": iso(r.at), "before": r.before,
                                    "rating": r.rating, "rd": r.deviation}
                                   for r in s.scalars(select(RatingHistoryRow).where(RatingHistoryRow.person_id == pid)
                                                      .order_by(RatingHistoryRow.at, RatingHistoryRow.id))],
                "games": [{"match_id": r.match_id, "seat": r.seat, "game": r.game, "pool": r.pool, "rated": r.rated,
                           "outcome": r.outcome, "score": r.score, "rating_before": r.rating_before,
                           "rating_after": r.rating_after, "finished_at": iso(r.finished_at)}
                          for r in s.scalars(select(GameResultRow).where(GameResultRow.person_id == pid)
                                             .order_by(GameResultRow.finished_at))],
                "seats": [{"match_id": r.match_id, "seat": r.seat, "since": iso(r.created_at)}
                          for r in s.scalars(select(SeatPersonRow).where(SeatPersonRow.person_id == pid))],
                "level_results": [{"match_id": r.match_id, "family": r.family, "level": r.level, "score": r.score,
                                   "at": iso(r.at)}
                                  for r in s.scalars(select(LevelResultRow).where(LevelResultRow.person_id == pid))],
            }
        return data

    # --- the administrator's (abstracta users) ---------------------------------------------------
    def _named(self, name: str) -> PersonRow:
        row = self._account(name)
        if row is None:
            raise UnknownPerson(f"no account {name[:40]!r}", key="people.error.no_player", name=name[:40])
        return row

    def list(self) -> list[AccountInfo]:
        """Every account, by name."""
        with self.db.reading() as s:
            counts = dict(s.execute(select(SessionRow.person_id, func.count()).group_by(SessionRow.person_id)).all())
            rows = s.scalars(select(PersonRow).where(PersonRow.kind == "account").order_by(PersonRow.name_key))
            return [AccountInfo(r.name, aware(r.account_at or r.created_at), aware(r.last_seen_at),
                                r.disabled_at is not None, counts.get(r.id, 0)) for r in rows]

    def add(self, username: str, password: str) -> tuple[Person, tuple[str, ...]]:
        """An account made by the administrator (no session, no limit): it and its recovery codes."""
        started = self.sign_up(username, password, "", "abstracta users add", limited=False)
        self.people.sessions.end_all(started.principal)
        return started.principal.person, started.recovery_codes

    def set_disabled(self, name: str, disabled: bool) -> Person:
        """Disable (every session ends, tokens stop working) or enable an account."""
        row = self._named(name)
        with self.db.writing() as s:
            stored = s.get(PersonRow, row.id)
            stored.disabled_at = self.db.now() if disabled else None
            if disabled:
                s.execute(delete(SessionRow).where(SessionRow.person_id == row.id))
                self.db.ends(s, row.id)
            return person_of(stored)

    def reset_password(self, name: str, password: str | None = None) -> str:
        """Set the account's password (a random one when none is given: returned, shown once)
        and end its sessions."""
        row = self._named(name)
        password = check_password(password) if password is not None else secrets.token_urlsafe(12)
        hashed = self.passwords.hash(password)
        with self.db.writing() as s:
            s.execute(update(PersonRow).where(PersonRow.id == row.id).values(password_hash=hashed))
            s.execute(delete(SessionRow).where(SessionRow.person_id == row.id))
            self.db.ends(s, row.id)
        return password


__all__ = ["AccountInfo", "Accounts", "check_password"]
