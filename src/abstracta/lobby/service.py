"""The lobby (issue 42): seeks, quick pairing, challenges and blocks over the people's database,
with no HTTP. One object the web app holds::

    lobby = Lobby(people, start=start_game, gone_since=presence.person_gone_since, changed_options=owners.changed_options)
    seek = lobby.seeks.open(person, spec)            # a seek, listed until taken or expired
    match_id = lobby.seeks.take(other, seek.id)      # both seated in a new match

Its parts: :class:`~abstracta.lobby.seeks.Seeks`, :class:`~abstracta.lobby.quick.Quick`,
:class:`~abstracta.lobby.challenges.Challenges` and :class:`~abstracta.lobby.challenges.Blocks`.
None of them makes a match: ``start`` does (the server's one function that creates a match with
given people seated, ``server.pairing.start_game``), and ``gone_since`` says since when a person
has had no connection open (the server's presence): both are handed in, so that this package
imports nothing of the server.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Callable, Iterable, Mapping

from sqlalchemy import delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..people import People, Person
from ..people.errors import NotRatable
from ..people.glicko2 import Glicko
from ..people.pools import pool_of
from ..people.database import hold, person_of
from ..people.tables import PersonRow, RatingRow
from ..play.opening import correspondence
from .challenges import Blocks, Challenges
from .controls import GameSpec, spec_of, spec_text
from .errors import Conflict, InvalidInput, Refused
from .quick import PAIRING, Quick
from .seeks import Seeks
from .tables import BlockRow, ChallengeRow, LobbyGameRow, QuickWaitRow, SeekRow, create_tables

#: the server's function that makes a match: (spec, players per seat, {seat: person id}, source)
#: -> the new match's id
Start = Callable[[GameSpec, list[str], Mapping[int, int], str], str]
#: seconds a claimed seating (a seek being taken, a quick pair, a challenge being accepted)
#: counts as a game starting for its people, when its match was never made (its process stopped)
SEATING_KEPT = 60.0
#: since when (Unix seconds) a person has had no connection (None: one is open); the second
#: argument is the moment to count from if they were never seen (a seek's making)
GoneSince = Callable[[int, float], float | None]


def _rating_of(row: RatingRow | None) -> tuple[float, bool]:
    if row is None:
        return Glicko().rating, True
    return row.rating, Glicko(row.rating, row.deviation, row.volatility).provisional


class Lobby:
    """Seeks, quick pairing, challenges and blocks (see the module's docstring)."""

    def __init__(self, people: People, start: Start, gone_since: GoneSince | None = None,
                 changed_options: Callable[[Any], list[str]] | None = None):
        create_tables(people.db.engine)
        self.people = people
        self.db = people.db
        self.start = start
        self.gone_since: GoneSince = gone_since or (lambda person, default: default)
        #: the options of a game that its declared variant does not set (a handicap, a first
        #: player chosen): a rated game has none (the seats' rule, ``server.owners``)
        self.changed_options: Callable[[Any], list[str]] = changed_options or (lambda game: [])
        self.blocks = Blocks(self)
        self.seeks = Seeks(self)
        self.quick = Quick(self)
        self.challenges = Challenges(self)
        #: called with the person ids whose lobby changed (None: everyone's list of seeks)
        self.listeners: list[Callable[[Iterable[int] | None], None]] = []
        #: {spec text: its rating pool's key, None: not ratable}: the seeks' list shows each
        #: seeker's rating now, at every push to every lobby, and making a game to find its pool
        #: costs milliseconds
        self._pools: dict[str, str | None] = {}

    # --- shared by the parts ------------------------------------------------------------------
    def now(self) -> datetime:
        return self.db.now()

    def changed(self, people: Iterable[int] | None = None) -> None:
        """Tell the listeners (the server's pushes) that the lobby of ``people`` changed (None:
        the seeks everyone sees)."""
        who = None if people is None else list(people)
        for listener in list(self.listeners):
            listener(who)

    def _pool(self, spec: GameSpec, instance: Any = None) -> str | None:
        """The key of ``spec``'s rating pool (None: not ratable), remembered by its text."""
        text = spec_text(spec)
        try:
            return self._pools[text]
        except KeyError:
            pass
        try:
            key: str | None = pool_of(instance or spec.instance(), spec.clock).key
        except NotRatable:
            key = None
        # another thread may clear the cache between our write and a read: answer ``key``
        if len(self._pools) >= 512:
            self._pools.clear()
        self._pools[text] = key
        return key

    def rating(self, person: int, spec: GameSpec, instance: Any = None) -> tuple[float, bool]:
        """``(rating, provisional)`` of ``person`` in the pool of ``spec`` (Glicko-2's start,
        1500?, with none yet, or where the options make no declared variant)."""
        key = self._pool(spec, instance)
        if key is None:
            return Glicko().rating, True
        with self.db.reading() as s:
            row = s.get(RatingRow, (person, key))
        return _rating_of(row)

    def ratings(self, wanted: Iterable[tuple[int, str]]) -> dict[tuple[int, str], tuple[float, bool]]:
        """:meth:`rating` of each ``(person, spec text)`` in ``wanted``, read in one query: a
        list of seeks is made for every lobby at every change, so its ratings cost one read."""
        wanted = set(wanted)
        pool_of_text = {text: self._pool(spec_of(text)) for text in {text for _, text in wanted}}
        keys = {(person, text): pool_of_text[text] for person, text in wanted}
        rows: dict[tuple[int, str], RatingRow] = {}
        people = {person for (person, _), key in keys.items() if key is not None}
        pools = {key for key in keys.values() if key is not None}
        if people:
            with self.db.reading() as s:
                rows = {(r.person_id, r.pool): r for r in s.scalars(
                    select(RatingRow).where(RatingRow.person_id.in_(people), RatingRow.pool.in_(pools)))}
        return {(person, text): _rating_of(rows.get((person, key)) if key is not None else None)
                for (person, text), key in keys.items()}

    def check_rated(self, spec: GameSpec, instance: Any, *people: Person) -> None:
        """A rated game needs a declared variant (a pool) played by its own rules (no option it
        does not set: ``changed_options``) and accounts: Refused otherwise."""
        if not spec.rated:
            return
        try:
            pool_of(instance, spec.clock)
        except NotRatable as exc:
            raise Refused(exc.message, key="lobby.error.not_ratable") from None
        changed = self.changed_options(instance)
        if changed:
            raise InvalidInput(f"a rated game is played by its variant's own rules: leave out {', '.join(changed)}",
                               key="error.rated_options", options=", ".join(changed))
        if any(not p.is_account for p in people):
            raise Refused("rated games are for accounts: guests play casual games (sign up to play rated)",
                          key="lobby.error.rated_guest")

    def names(self, ids: Iterable[int]) -> tuple[dict[int, str | None], dict[int, str]]:
        """``({id: name}, {id: "account" | "guest" | "deleted"})`` of ``ids``, read in one query:
        a client links an account's name to its profile (a guest has none)."""
        ids = list(set(ids))
        if not ids:
            return {}, {}
        with self.db.reading() as s:
            rows = s.execute(select(PersonRow.id, PersonRow.name, PersonRow.kind).where(PersonRow.id.in_(ids))).all()
        return {pid: name for pid, name, _ in rows}, {pid: kind for pid, _, kind in rows}

    def person(self, person_id: int) -> Person:
        with self.db.reading() as s:
            row = s.get(PersonRow, person_id)
            return person_of(row)

    def forget(self, person_id: int) -> None:
        """A person gone for good (their account deleted): their open seeks close, their quick
        pairing wait ends, the open challenges from and to them are cancelled and the blocks of
        and on them go — nobody is paired with, or reads a nameless row of, a deleted person."""
        now = self.now()
        with self.db.writing() as s:
            s.execute(update(SeekRow).where(SeekRow.person_id == person_id, SeekRow.closed_at.is_(None))
                      .values(closed_at=now, how="cancelled"))
            s.execute(delete(QuickWaitRow).where(QuickWaitRow.person_id == person_id, QuickWaitRow.match_id.is_(None)))
            others = set(s.scalars(select(ChallengeRow.to_id).where(ChallengeRow.from_id == person_id))) | set(
                s.scalars(select(ChallengeRow.from_id).where(ChallengeRow.to_id == person_id)))
            s.execute(update(ChallengeRow).where(ChallengeRow.status == "open", or_(
                ChallengeRow.from_id == person_id, ChallengeRow.to_id == person_id))
                .values(status="cancelled", answered_at=now))
            s.execute(delete(BlockRow).where(or_(BlockRow.person_id == person_id, BlockRow.blocked_id == person_id)))
        self.changed(others)
        self.changed()

    # --- a new game's seating: one transaction, so that two accepts at once cannot both seat a person
    #: Lock people's rows in id order (:func:`abstracta.people.database.hold`): first in the
    #: transaction that claims a new game for them, or that counts what one of them has open
    #: before adding to it (a seek, a challenge, a wait, a block)
    hold = staticmethod(hold)

    def seating(self, s: Session, people: Iterable[int], spec: GameSpec, *, seek: str | None = None,
                challenge: str | None = None, paired: bool = False) -> list[str]:
        """Inside the transaction that claims a new game of ``spec`` for ``people``, after
        :meth:`hold` and after it claimed its own row (the seek ``seek`` taken, the challenge
        ``challenge`` accepted, a quick pair's waits: ``paired``): in a live game their other
        live seeks are withdrawn in that same transaction (:meth:`began` does it again once the
        game is made, for the games no claim precedes). Withdrawn only once the game was made,
        they could be taken meanwhile by an accept handled at the same moment, seating their
        seeker in two live games. The ids of the seeks withdrawn: :meth:`reopen` them if the game
        cannot be made.

        Conflict when one of ``people`` is being seated in another live game at this moment
        (claimed, not made yet; a claim older than :data:`SEATING_KEPT` seconds is a process
        that stopped halfway, and holds nobody): their own seek being taken while they accept
        another. The caller's transaction is then undone: nothing is lost."""
        if correspondence(spec.clock):
            return []
        ids = sorted(set(people))
        self.busy(s, ids, seek=seek, challenge=challenge, paired=paired)
        rows = s.execute(select(SeekRow.id, SeekRow.spec).where(SeekRow.person_id.in_(ids),
                                                                SeekRow.closed_at.is_(None))).all()
        live = [sid for sid, text in rows if sid != seek and not correspondence(spec_of(text).clock)]
        if live:
            s.execute(update(SeekRow).where(SeekRow.id.in_(live), SeekRow.closed_at.is_(None))
                      .values(closed_at=self.now(), how="playing"))
        return live

    def busy(self, s: Session, people: Iterable[int], *, seek: str | None = None, challenge: str | None = None,
             paired: bool = False) -> None:
        """Conflict when one of ``people`` is being seated in a live game at this moment (see
        :meth:`seating`; its own claim, ``seek``, ``challenge`` or the pair's waits, aside).
        Inside a transaction that has :meth:`hold` them."""
        ids = sorted(set(people))
        since = self.now() - timedelta(seconds=SEATING_KEPT)
        busy = list(s.scalars(select(SeekRow.spec).where(
            or_(SeekRow.person_id.in_(ids), SeekRow.accepted_by.in_(ids)), SeekRow.how == "taking",
            SeekRow.closed_at >= since, SeekRow.id != (seek or ""))))
        busy += s.scalars(select(ChallengeRow.spec).where(
            or_(ChallengeRow.from_id.in_(ids), ChallengeRow.to_id.in_(ids)), ChallengeRow.status == "accepting",
            ChallengeRow.answered_at >= since, ChallengeRow.id != (challenge or "")))
        if not paired:
            busy += s.scalars(select(QuickWaitRow.spec).where(QuickWaitRow.person_id.in_(ids),
                                                              QuickWaitRow.match_id == PAIRING,
                                                              QuickWaitRow.paired_at >= since))
        if any(not correspondence(spec_of(text).clock) for text in busy):
            raise Conflict("a game is being started for you right now: play that one first", key="lobby.error.busy")

    def reopen(self, seeks: Iterable[str]) -> None:
        """The seeks :meth:`seating` withdrew for a game that could not be made are open again
        (each alone: one posted again meanwhile stays closed, its twin is listed)."""
        for seek_id in seeks:
            try:
                with self.db.writing() as s:
                    s.execute(update(SeekRow).where(SeekRow.id == seek_id, SeekRow.how == "playing")
                              .values(closed_at=None, how=None))
            except IntegrityError:
                pass

    def began(self, people: Iterable[int], spec: GameSpec) -> None:
        """A game of ``spec`` began for ``people`` (a seek taken, a quick pairing, a challenge
        accepted, a rematch, the computer offered). In a live game they are busy, as on lichess:
        their other live seeks are withdrawn (nobody takes one into a second game they cannot
        attend) and a quick pairing wait of theirs ends. Correspondence seeks stay, and a
        correspondence game withdraws nothing: a move a day leaves time for other games."""
        if correspondence(spec.clock):
            return
        ids = sorted(set(people))
        if not ids:
            return
        with self.db.writing() as s:
            rows = s.execute(select(SeekRow.id, SeekRow.spec).where(SeekRow.person_id.in_(ids),
                                                                    SeekRow.closed_at.is_(None))).all()
            live = [sid for sid, text in rows if not correspondence(spec_of(text).clock)]
            if live:
                s.execute(update(SeekRow).where(SeekRow.id.in_(live), SeekRow.closed_at.is_(None))
                          .values(closed_at=self.now(), how="playing"))
            s.execute(delete(QuickWaitRow).where(QuickWaitRow.person_id.in_(ids), QuickWaitRow.match_id.is_(None)))
        self.changed()
        self.changed(ids)

    def note_game(self, match_id: str, source: str, rated: bool) -> None:
        """A match the lobby (or a rematch) started, kept with where it came from."""
        with self.db.writing() as s:
            if s.get(LobbyGameRow, match_id) is None:
                s.add(LobbyGameRow(match_id=match_id, source=source, rated=rated, created_at=self.now()))

    def game(self, match_id: str) -> dict[str, Any] | None:
        """``{"source", "rated"}`` of a match the lobby started, or None. (Its end is recorded,
        and rated, as every game's: ``server.results``.)"""
        with self.db.reading() as s:
            row = s.get(LobbyGameRow, match_id)
            return None if row is None else {"source": row.source, "rated": row.rated}

    def started(self, person: int, within: float = 120.0) -> list[dict[str, Any]]:
        """The games the lobby started for ``person`` in the last ``within`` seconds, newest
        first: ``[{"id", "at", "source"}]`` (a browser waiting in the lobby goes to the newest it
        has not been to)."""
        out = self.seeks.started(person, within) + self.challenges.started(person, within) \
            + self.quick.started(person, within)
        return sorted(out, key=lambda g: g["at"], reverse=True)


__all__ = ["GoneSince", "Lobby", "SEATING_KEPT", "Start", "spec_of", "spec_text"]
