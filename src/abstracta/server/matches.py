"""The kernel of the matches in play: load, lock, commit, announce (issues 7, 14, 37).

A :class:`Match` is a play session (:class:`abstracta.play.Session`: the game, its actions, its
seats, its clock and requests, every rule of play) stored under an id, at a revision, with the
digests of its seats' tokens. The :class:`Kernel` keeps matches in memory, loads them from the
store by replaying their record and move rows, and commits each change in one transaction
*before* it becomes the match: an act computes a :class:`~abstracta.play.Progress` from the
match as loaded (the session never changes in place), :meth:`Kernel.apply` stores its new
session and then announces its events. What follows a change is not called from inside it:
each concern of the server (the computer's turn, the clock's timer, the pushes to watchers)
subscribes to the announcements (:meth:`Kernel.react`), as lila's round module reacts to the
events a move returns.

Concurrency (issue 14 §1–§2): one lock per match (a slow match never holds up another), as lila
keeps one actor per game; a change is stored as appended move rows and a revision bump in one
transaction, guarded by the revision it started from; a conflict (another process on the same
PostgreSQL database moved first) reloads the match and runs the request again on the fresh
match (:meth:`Kernel.change`).

Who holds a seat (issue 41): whoever knows its token, and the person it belongs to
(:attr:`Match.people`, the people's standings read with the match): a request acts as a
:class:`Holder` — its seat tokens and the person signed in — and holds the union of both.

Refusals: the session's :class:`~abstracta.play.PlayError` become the
:class:`~abstracta.server.errors.MatchError` the routes map to HTTP statuses (:func:`refused`);
the match a refused request was aimed at is unchanged. Any other exception is a bug, and the
match is unchanged too.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import secrets
import threading
import time
from time import perf_counter
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Iterator, Sequence, TypeVar

from ..core import memos
from ..core.errors import AbstractaError, RecordError
from ..core.game import action_strings
from ..core.records import Record
from ..core.view import message
from ..people.values import Person
from ..play import Event, Live, Progress, Session
from ..play import errors as play_errors
from ..play.errors import clip, cut
from .errors import (Conflict, CorruptMatch, Forbidden, IllegalMove, InvalidRequest, MatchError, NotFound, NotYourTurn,
                     StalePly, StaleRevision, Unauthorized)
from . import metrics
from .push import Hub
from .storage import Store

log = logging.getLogger("abstracta.server.bots")

#: Most tokens one request may present (a browser lists its matches with all it holds).
TOKEN_LIMIT = 200
#: Seconds before a change the database refused, or a push that failed, is tried again.
STORE_RETRY_SECONDS = 5.0
#: matches kept in memory, the least recently used dropped (read back from the store when next
#: used): a match is 20-110 kB at its start, and creating matches at the rate a club may (300
#: an hour per address) grew the web process by up to 33 MB an hour for ever
CACHE_MATCHES = 1000
#: actions played in the matches kept in memory, all together: the cache is bounded by size too,
#: the least recently used dropped first. A kept match grows with its game (its state's history,
#: its move lists, its views: 4.4 kB an action in benchmarks/soak.py), so a cache full by count
#: still grew as the games it held went on (RSS +25 % in a 10-minute soak); 50,000 actions are
#: about 220 MB, 1,000 matches of 50 (a match longer than the whole budget is still kept, alone)
CACHE_PLIES = 50_000
#: entries each memo of the rules may hold in the web process (core.memos; a game bounds them for
#: its searches at up to 300,000): a view's legal moves filled them with positions seen once,
#: 0.6-1.1 kB an entry, and the process grew with the moves played until the games' own bounds
#: (RSS +20 % in a 30-minute soak at 100 games). 2,000 entries are 1-2 MB a memo.
RULES_MEMO_ENTRIES = 2_000

T = TypeVar("T")


def digest(secret: str) -> str:
    """SHA-256 (hex) of a token or invitation code: what the store keeps instead of it."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def new_secret() -> str:
    """A fresh token or invitation code: 128 random bits, URL-safe text (22 characters)."""
    return secrets.token_urlsafe(16)


def stamp() -> str:
    """Now, as a record's ``date`` tag."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(eq=False)
class Match(Session):
    """A play session stored under ``id`` at ``revision``: ``tokens`` maps the SHA-256 of each
    seat token to its seat; ``people`` maps a seat to the id of the person it belongs to (issue
    41: a seat taken by someone signed in); ``base`` is the number of actions the stored
    record holds (the others are move rows). A change makes a new Match
    (:meth:`Session.copy`), never alters a stored one, so a view or a replay may read one
    outside its lock."""

    id: str = ""
    revision: int = 0
    tokens: dict[str, int] = field(default_factory=dict)
    base: int = 0
    people: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Holder:
    """Who a request acts as: the seat ``tokens`` it carries and the ``person`` signed in (by
    the session cookie, or an API token allowed to play; None: nobody). It holds the seats of
    its tokens and the seats that belong to its person (:meth:`Kernel.held`). A plain list of
    tokens reads as a holder of those tokens (:meth:`of`)."""

    tokens: tuple[str, ...] = ()
    person: Person | None = None

    @classmethod
    def of(cls, who: "Holder | Sequence[str] | None") -> "Holder":
        if isinstance(who, Holder):
            return who
        return cls(tuple(who or ()))

    @property
    def person_id(self) -> int | None:
        return self.person.id if self.person is not None else None


#: what an act or a view is asked for: a holder, or (tests, scripts) a list of seat tokens
Who = Holder | Sequence[str]


class MatchCreated(Event):
    """The server's own announcement: a match was created (or imported) and stored."""


class MatchResumed(Event):
    """The server's own announcement: a stored match is in hand again (the server started, or
    it was read at last): what runs by itself in it starts again."""


class MatchDeleted(Event):
    """The server's own announcement: the match was deleted."""


#: How each kind of the session's refusals is answered.
_REFUSALS: list[tuple[type[play_errors.PlayError], type[MatchError]]] = [
    (play_errors.StaleMove, StalePly), (play_errors.NotYourTurn, NotYourTurn), (play_errors.NotNow, Conflict),
    (play_errors.NotYours, Forbidden), (play_errors.IllegalMove, IllegalMove), (play_errors.Invalid, InvalidRequest)]


def refused(exc: play_errors.PlayError) -> MatchError:
    """The server's refusal for the session's ``exc``: the same words, its message as ``i18n``,
    its extra fields (a stale move's ``ply``)."""
    kind = next((served for kind, served in _REFUSALS if isinstance(exc, kind)), InvalidRequest)
    extra = dict(exc.extra)
    if exc.i18n is not None:
        extra["i18n"] = exc.i18n
    return kind(str(exc), **extra)


Reaction = Callable[[Match, Sequence[Event]], Any]


class Kernel:
    """The matches of one server process: cache, locks, loading, commits and announcements.
    Thread-safe: one lock per match; the dictionaries take a short lock of their own."""

    def __init__(self, store: Store, hub: Hub | None = None,
                 owners: Callable[[str], dict[int, int]] | None = None):
        self.store = store
        self.hub = hub or Hub()
        #: ``owners(match_id)`` -> {seat: person id}: the people the seats of a stored match
        #: belong to, read with the match (none: every seat is held by its token alone)
        self.owners = owners or (lambda _match_id: {})
        self._guard = threading.Lock()  # cache, locks: held for dictionary operations only
        # a lock lives while it is in use: kept for every id ever named, they grew without bound
        # with requests naming ids of no match (reads are not rate-limited)
        self._locks: weakref.WeakValueDictionary[str, threading.RLock] = weakref.WeakValueDictionary()
        self.cache: OrderedDict[str, Match] = OrderedDict()  # most recently used last
        self.cached_plies = 0  # the actions of the matches in the cache, summed (CACHE_PLIES)
        self._reactions: list[tuple[str, Reaction]] = []
        #: matches the start-up could not read: resumed when next read
        self.unresumed: set[str] = set()
        self.closed = False

    @staticmethod
    def now() -> float:
        """The server's time (Unix seconds): what every act of the session is given."""
        return time.time()

    # --- locks ---------------------------------------------------------------------------------
    def lock_for(self, match_id: str) -> threading.RLock:
        """The lock of one match (created on first use; gone once nobody holds it: keep the
        lock returned while it is used)."""
        with self._guard:
            lock = self._locks.get(match_id)
            if lock is None:
                lock = self._locks[match_id] = threading.RLock()
            return lock

    @contextlib.contextmanager
    def locked(self, match_id: Any) -> Iterator[None]:
        """Hold the lock of ``match_id`` (no lock for what cannot be a match id)."""
        if not isinstance(match_id, str) or len(match_id) > 32:
            yield
            return
        lock = self.lock_for(match_id)
        asked = perf_counter()
        with lock:
            metrics.stage("lock_wait", perf_counter() - asked)
            yield

    def change(self, match_id: Any, attempt: Callable[[], T]) -> T:
        """Run ``attempt`` (a change of ``match_id``) under the match's lock; when the store says
        the match moved on meanwhile (another process), reload it and run the change again on
        the fresh match, so a stale cache answers as a fresh one would (never a 500). The
        session's refusals leave as the server's (:func:`refused`)."""
        for _ in range(5):
            try:
                with self.locked(match_id):
                    return attempt()
            except StaleRevision:
                self.evict(match_id)
            except play_errors.PlayError as exc:
                raise refused(exc) from None
        raise Conflict("the match changed too often while this request was answered; send it again")

    # --- the cache -----------------------------------------------------------------------------
    def keep(self, match: Match) -> None:
        """Make ``match`` the cached copy of its id, and the most recently used."""
        with self._guard:
            old = self.cache.pop(match.id, None)
            if old is not None:
                self.cached_plies -= old.ply
            self.cache[match.id] = match
            self.cached_plies += match.ply
            while len(self.cache) > 1 and (len(self.cache) > CACHE_MATCHES or self.cached_plies > CACHE_PLIES):
                _, dropped = self.cache.popitem(last=False)
                self.cached_plies -= dropped.ply
        memos.bound(RULES_MEMO_ENTRIES)  # the memos a view's legal moves filled: a few lengths, a change

    def evict(self, match_id: str) -> None:
        """Forget the cached copy of a match (it is reloaded from the store when next used)."""
        with self._guard:
            dropped = self.cache.pop(match_id, None)
            if dropped is not None:
                self.cached_plies -= dropped.ply

    def remove(self, match: Match) -> None:
        """Delete ``match`` from the store and from memory and tell its reactions
        (:class:`MatchDeleted`: its seats' people, timers, computer and watchers). Lock held."""
        self.store.delete(match.id)
        self.evict(match.id)
        self.announce(match, (MatchDeleted(),), "after the match was deleted")

    def changed_elsewhere(self, match_id: str, revision: int) -> None:
        """Another process stored ``revision`` of ``match_id`` (-1: deleted it): drop a cached
        copy that is older, and tell this process's subscribers. Called on the event loop."""
        with self._guard:
            cached = self.cache.get(match_id)
            if cached is not None:
                if 0 <= revision <= cached.revision:  # this process's own commit, or older news
                    return
                del self.cache[match_id]
                self.cached_plies -= cached.ply
        self.hub.publish(match_id)

    def forget_all(self) -> None:
        """Drop every cached match and wake every subscriber: changes by other processes may
        have been missed (the LISTEN connection was lost for a while). Called on the event loop."""
        with self._guard:
            self.cache.clear()
            self.cached_plies = 0
        for match_id in self.hub.subscribed():
            self.hub.publish(match_id)

    # --- loading -------------------------------------------------------------------------------
    def load(self, match_id: str, fresh: bool = False) -> Match:
        """The match ``match_id``: from memory, or rebuilt from the store (its record, then its
        move rows). NotFound if absent. ``fresh``: when other processes share the database,
        first check the cached copy against the stored revision (one indexed read), so an act
        is judged on the match as it is. Call with the match's lock held."""
        if not isinstance(match_id, str) or len(match_id) > 32:
            raise NotFound(f"no match with id {clip(match_id)}")
        match = self.cache.get(match_id)
        if match is not None:
            if not (fresh and self.store.shared and self.store.revision(match_id) != match.revision):
                with self._guard:
                    if match_id in self.cache:
                        self.cache.move_to_end(match_id)
                return match
            self.evict(match_id)
        stored = self.store.load(match_id)
        if stored is None:
            raise NotFound(f"no match with id {match_id!r}")
        row = stored.row
        try:
            record = Record.from_json(row.record)
            state, actions = record.replay()
            game = record.make_game()
            initial = record.initial_state(game)
            tokens = dict(stored.tokens)
            people = self.owners(match_id)
            match = Match(game=game, initial=initial, state=state, actions=actions, players=list(record.players),
                          start=record.start, tags=dict(record.tags), result=record.result,
                          termination=record.termination, strings=action_strings(initial, actions),
                          # a match stored before seats had tokens has none: nobody to wait for
                          live=Live.from_json(stored.live), seated=(set(tokens.values()) | set(people)) or None,
                          id=match_id, revision=row.revision, tokens=tokens, base=len(actions), people=people)
            for ply, text in stored.moves:
                if ply <= match.base:  # rows the record holds already (a crash between two writes
                    continue           # cannot leave them: both are one transaction; kept for robustness)
                if ply != match.ply + 1:
                    raise RecordError(f"move row {ply} follows ply {match.ply}")
                match.push(match.state.string_to_action(text))
        except AbstractaError as exc:
            raise CorruptMatch(f"stored match {match_id} does not replay: {exc}") from None
        match.note_ending()  # a match stored before the tags: written with its next record
        self.keep(match)
        if match_id in self.unresumed:
            with self._guard:
                self.unresumed.discard(match_id)
            self.announce(match, (MatchResumed(),))
        return match

    def resume_later(self, match_id: str) -> None:
        """``match_id`` could not be read at start-up: announce it resumed when it is next read."""
        with self._guard:
            self.unresumed.add(match_id)

    def fresh(self, match_id: Any) -> Match:
        """The match as an act judges it: loaded ``fresh``, what time did applied first (a
        fallen flag, a first move not made in time)."""
        return self.tick(self.load(match_id, fresh=True))

    def tick(self, match: Match) -> Match:
        """``match`` after what time alone did to it, if anything (lock held; ``Session.due``:
        its clock's flag fallen, or the game aborted for a first move not made in time)."""
        progress = match.due(self.now())
        return match if progress is None else self.apply(progress)

    def current(self, match_id: str) -> Match:
        """The match ``match_id`` with a fallen flag applied (NotFound if absent)."""
        return self.change(match_id, lambda: self.tick(self.load(match_id)))

    # --- seats of tokens and people ------------------------------------------------------------------
    @staticmethod
    def held(match: Match, who: Who) -> set[int]:
        """The seats of ``match`` that ``who`` holds: its tokens' (constant-time comparison of
        digests) and its person's."""
        holder = Holder.of(who)
        seats = set()
        for token in holder.tokens:
            d = digest(token)
            for stored, seat in match.tokens.items():
                if hmac.compare_digest(stored, d):
                    seats.add(seat)
        if holder.person is not None:
            seats |= {seat for seat, person in match.people.items() if person == holder.person.id}
        return seats

    def authorize(self, match: Match, who: Who, seat: int | None = None) -> set[int]:
        """The seats ``who`` holds in ``match``, for an act: 401 without any token or person
        signed in, 403 when it holds no seat of this match, or (``seat`` given) not ``seat``."""
        holder = Holder.of(who)
        if not holder.tokens and holder.person is None:
            raise Unauthorized("this needs the token of a seat of this match (Authorization: Bearer <token>), "
                               "or a person signed in who holds one")
        held = self.held(match, holder)
        whose = "no token given" if holder.person is None else "neither a token given nor the person signed in"
        if not held:
            raise Forbidden(f"{whose} holds a seat of this match" if holder.person is not None
                            else "no token given is a token of this match")
        if seat is not None and seat not in held:
            raise Forbidden(f"{whose} holds seat {seat}")
        return held

    # --- commits -------------------------------------------------------------------------------
    def _write(self, old: Match, trial: Match) -> None:
        """Store ``trial`` (the next revision of ``old``) in one transaction: the actions after
        their common prefix as move rows, or the whole record when what it holds besides the
        moves changed (players, result, termination, tags: a hint counted) or a takeback reached
        into it. Raises StaleRevision when the stored match is no longer ``old``."""
        limit = min(old.ply, trial.ply)
        # a move keeps every action before it: one comparison of lists (in C) says so; the walk
        # in Python, one action at a time, is for a takeback or a turn played in another order
        if old.actions[:limit] == trial.actions[:limit]:
            keep = limit
        else:
            keep = 0
            while old.actions[keep] == trial.actions[keep]:
                keep += 1
        header_changed = (trial.players != old.players or trial.result != old.result
                          or trial.termination != old.termination or trial.tags != old.tags)
        record_json = None
        if header_changed or keep < old.base:
            trial.base = trial.ply
            record_json = self._base_record(trial).to_json(indent=None)
        else:
            trial.base = old.base
        live = trial.live.to_json()
        # kept for the next change's comparison (a stored match's live state never changes: a
        # change makes a new Match), so that a move writes it out once, not twice
        trial.__dict__["_live_json"] = live
        old_live = old.__dict__.get("_live_json") or old.live.to_json()
        self.store.commit(trial.id, old.revision, status="over" if trial.over else "playing",
                          plies=trial.ply, turns=trial.turns_played(), keep=keep, to_move=trial.to_move(),
                          add=[(p + 1, trial.strings[p]) for p in range(keep, trial.ply)] if record_json is None else [],
                          record_json=record_json, live=live if live != old_live else None,
                          before=old.ply)

    @staticmethod
    def _base_record(match: Match) -> Record:
        """The record the match row holds: every move up to ``match.base``."""
        if match.base == match.ply:
            return match.record()
        return Record.from_play(match.game, match.initial, match.actions[: match.base], players=match.players,
                                tags=match.tags, start=match.start)

    def store_new(self, match: Match, invites: Sequence[tuple[str, int]]) -> Match:
        """Store the new ``match`` (revision 0) with ``invites`` (``(code digest, seat)``), keep
        it and announce it (lock held)."""
        match.base = match.ply
        record = match.record()
        self.store.create(match.id, match.game.name, record.to_json(indent=None),
                          "over" if match.over else "playing", match.ply, match.turns_played(),
                          live=match.live.to_json(), to_move=match.to_move(), tokens=list(match.tokens.items()),
                          invites=list(invites))
        self.keep(match)
        # the match exists from here: a 500 would have its creator create it again
        self.announce(match, (MatchCreated(),), "after the new match was stored (it stands)")
        return match

    def commit(self, progress: Progress) -> Match:
        """Persist ``progress.after`` (revision bumped) and make it the current match, its events
        not yet announced (lock held). StaleRevision, StorageFailed: nothing changed."""
        old, trial = progress.before, progress.after
        assert isinstance(old, Match) and isinstance(trial, Match)
        trial.revision = old.revision + 1
        started = perf_counter()
        self._write(old, trial)
        metrics.stage("commit", perf_counter() - started)
        self.keep(trial)
        return trial

    def apply(self, progress: Progress) -> Match:
        """Persist ``progress`` and announce its events (lock held): the new match."""
        match = self.commit(progress)
        started = perf_counter()
        self.announce(match, progress.events)
        metrics.stage("announce", perf_counter() - started)
        return match

    # --- announcements -------------------------------------------------------------------------
    def react(self, name: str, reaction: Reaction) -> None:
        """Run ``reaction(match, events)`` after each change is stored (lock held), in the order
        subscribed; ``name`` says which concern it is in a log."""
        self._reactions.append((name, reaction))

    def announce(self, match: Match, events: Sequence[Event],
                 when: str = "after the change was stored (it stands)") -> None:
        """Tell every reaction of ``match`` just stored (lock held). The change stands whatever
        they do: a failing reaction (a bug) is logged as a 500 is and the next still runs, and
        the match is announced again :data:`STORE_RETRY_SECONDS` later, since its watchers hear
        of a change only when it is pushed. Raising here would answer a 500 for a change that
        was made, and a client sending it again would be refused."""
        failed = False
        for _, reaction in self._reactions:
            try:
                reaction(match, events)
            except Exception as exc:  # noqa: BLE001 - a bug: logged; the change stands
                self.log_bug(match.id, exc, when)
                failed = True
        if failed and not self.closed:
            self.later(self._announce_again, match.id)

    def _announce_again(self, match_id: str) -> None:
        """Announce ``match_id`` as it is now, once more after a reaction failed. A second failure
        is logged only (a bug would fail for ever): the match's next change, or a look at it (a
        page polling or reloaded, a flag claimed), brings watchers up to date."""
        if self.closed:
            return
        try:
            with self.locked(match_id):
                match = self.load(match_id)
                for _, reaction in self._reactions:
                    reaction(match, (MatchResumed(),))
        except (MatchError, CorruptMatch):  # deleted meanwhile, or the store busy: read when next asked
            return
        except Exception as exc:  # noqa: BLE001 - a timer thread has nobody to answer
            self.log_bug(match_id, exc, "when the change was pushed again")

    @staticmethod
    def retry_seconds() -> float:
        """Seconds before what the store refused, or a push that failed, is tried again."""
        return STORE_RETRY_SECONDS

    def later(self, callback: Callable[..., Any], *args: Any) -> None:
        """Call ``callback(*args)`` in :meth:`retry_seconds` (a store that refused for a moment,
        a push that failed), on a timer thread of its own."""
        retry = threading.Timer(self.retry_seconds(), callback, args)
        retry.daemon = True
        retry.start()

    @staticmethod
    def log_bug(match_id: str, exc: Exception, when: str) -> None:
        """Log ``exc`` (a bug) as a 500 is: its type and place, not its message, which may
        quote hidden cards."""
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        where = f" at {tb.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:{tb.tb_lineno}" if tb is not None else ""
        log.error("match %s: internal error %s%s %s", match_id, type(exc).__name__, where, when)


__all__ = ["CACHE_MATCHES", "CACHE_PLIES", "RULES_MEMO_ENTRIES", "Holder", "Kernel", "Match", "MatchCreated", "MatchDeleted", "MatchResumed", "STORE_RETRY_SECONDS",
           "TOKEN_LIMIT", "Who", "clip", "cut", "digest", "message", "new_secret", "refused", "stamp"]
