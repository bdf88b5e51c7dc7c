"""Quick pairing ("Play now", issue 42 §1): a person waits for a game and clock; the lobby pairs
two waiting for the same one by rating (:mod:`abstracta.lobby.pairing`), widening the range
with time, and after 30 s alone offers the computer at the level nearest their rating. A wait
ends when it is paired, left, or its person has had no connection for :data:`QUICK_GONE`
seconds (a browser closed must not be paired into a game nobody plays).
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Callable, Mapping

from sqlalchemy import delete, select, update

from ..ai.levels import level_fingerprint
from ..people import Person
from ..people.database import aware
from ..people.errors import NotRatable
from ..people.pools import pool_of
from .controls import GameSpec, TimeControl, check_spec, spec_of, spec_text
from .errors import Conflict, Unknown
from .pairing import COMPUTER_AFTER, Wait, computer_due, nearest_level, pairs
from .tables import QuickWaitRow

if TYPE_CHECKING:  # the lobby's facade, which imports this module (an annotation only)
    from .service import Lobby

#: seconds a waiting person may be without a connection before their wait ends
QUICK_GONE = 10.0
#: seconds a paired wait is kept (the browser is taken to the game from it)
PAIRED_KEPT = 120.0

class _Taken(Exception):
    """A wait was paired by another process between the read and the write."""


#: What a claimed wait's ``match_id`` holds while its game is being made (not a match id: the
#: wait's :meth:`Quick.state` names no match until the game is there).
PAIRING = "pairing"


class Quick:
    """The waits of quick pairing."""

    def __init__(self, lobby: "Lobby", level_figures: Callable[[GameSpec], Mapping[int, float]] | None = None):
        self.lobby = lobby
        self.db = lobby.db
        self.level_figures = level_figures or self._figures

    def _figures(self, spec: GameSpec) -> dict[int, float]:
        """{level: approximate rating} in the variant of ``spec`` (``GET /api/levels``'s figures)."""
        instance = spec.instance()
        try:
            family = pool_of(instance, spec.clock).family
        except NotRatable:
            return {}
        # the computer is offered at the levels the game declares (some declare fewer than six)
        figures = self.lobby.people.standings.level_ratings(family, instance.description.level_numbers,
                                                            fingerprint=lambda n: level_fingerprint(instance, n))
        return {f.level: f.rating for f in figures}

    def wait(self, person: Person, game: str, options: Mapping[str, bool | int | str], clock: TimeControl | None,
             rated: bool) -> dict[str, Any]:
        """``person`` waits for ``game`` with ``clock`` (a wait for another game ends): their
        state after trying to pair at once."""
        spec, instance = check_spec(game, options, clock, rated)
        self.lobby.check_rated(spec, instance, person)
        rating, _ = self.lobby.rating(person.id, spec, instance)
        with self.db.writing() as s:
            # two clicks at once would each delete no wait and add one, the second meeting the
            # first's key (one wait a person) on PostgreSQL: the person's row orders them
            self.lobby.hold(s, [person.id])
            # a wait paired a moment ago, its game being made, is kept: replaced, it no longer
            # said the person was being seated, and the new wait was paired into a second live game
            self.lobby.busy(s, [person.id])
            s.execute(delete(QuickWaitRow).where(QuickWaitRow.person_id == person.id))
            s.add(QuickWaitRow(person_id=person.id, key=spec.key(), spec=spec_text(spec), rating=rating,
                               since=self.lobby.now()))
        self.pair()
        return self.state(person)

    def leave(self, person: Person) -> None:
        """``person`` stops waiting (nothing happens when they were not waiting)."""
        with self.db.writing() as s:
            s.execute(delete(QuickWaitRow).where(QuickWaitRow.person_id == person.id,
                                                 QuickWaitRow.match_id.is_(None)))

    def state(self, person: Person) -> dict[str, Any] | None:
        """``person``'s wait: ``{"game", "options", "clock", "rated", "since", "computer_at",
        "computer": {"level"} once offered, "match": the game it was paired into}``, or None."""
        with self.db.reading() as s:
            row = s.get(QuickWaitRow, person.id)
        if row is None:
            return None
        spec = spec_of(row.spec)
        since = aware(row.since)
        wait = Wait(person.id, row.rating, since.timestamp())
        due = row.match_id is None and computer_due(wait, self.lobby.now().timestamp())
        return {**spec.to_json(), "since": since.isoformat(),
                "computer_at": (since + timedelta(seconds=COMPUTER_AFTER)).isoformat(),
                "computer": {"level": nearest_level(row.rating, self.level_figures(spec))} if due else None,
                "match": None if row.match_id == PAIRING else row.match_id}

    def play_computer(self, person: Person) -> str:
        """``person``, alone for 30 s, takes the computer offered: the new match's id (their seat
        drawn at random). Unknown when not waiting; Conflict before the offer."""
        state = self.state(person)
        if state is None or state["match"] is not None:
            raise Unknown("you are not waiting for a game", key="lobby.error.not_waiting")
        if state["computer"] is None:
            raise Conflict("the computer is offered after 30 s alone", key="lobby.error.computer_early")
        with self.db.writing() as s:
            self.lobby.hold(s, [person.id])  # as a seek taken (Lobby.seating)
            row = s.get(QuickWaitRow, person.id)
            if row is None or row.match_id is not None:  # paired meanwhile
                raise Unknown("you are not waiting for a game", key="lobby.error.not_waiting")
            spec = spec_of(row.spec)
            s.delete(row)
            withdrawn = self.lobby.seating(s, [person.id], spec)
        spec = GameSpec(spec.game, spec.options, spec.clock, False)  # never rated against the computer
        seat = secrets.randbelow(2)
        players = ["human", "human"]
        players[1 - seat] = f"level:{state['computer']['level']}"
        try:
            match_id = self.lobby.start(spec, players, {seat: person.id}, "computer")
        except Exception:
            self.lobby.reopen(withdrawn)
            raise
        self.lobby.note_game(match_id, "computer", False)
        self.lobby.began([person.id], spec)
        return match_id

    def pair(self) -> list[str]:
        """Pair whoever can be paired now (the waits of people gone too long end first): the new
        matches' ids."""
        now = self.lobby.now()
        stamp = now.timestamp()
        with self.db.reading() as s:
            rows = s.scalars(select(QuickWaitRow)).all()
        gone, kept, pools = [], [], {}
        for row in rows:
            since = aware(row.since).timestamp()
            if row.match_id is not None:
                if stamp - aware(row.paired_at or row.since).timestamp() > PAIRED_KEPT:
                    gone.append(row.person_id)
                continue
            away = self.lobby.gone_since(row.person_id, since)
            if away is not None and stamp - away > QUICK_GONE:
                gone.append(row.person_id)
                continue
            kept.append(row)
            pools.setdefault(row.key, []).append(Wait(row.person_id, row.rating, since))
        if gone:
            with self.db.writing() as s:
                s.execute(delete(QuickWaitRow).where(QuickWaitRow.person_id.in_(gone)))
        specs = {row.key: spec_of(row.spec) for row in kept}
        made = []
        for key, waits in pools.items():
            for a, b in pairs(waits, stamp, self.lobby.blocks.between):
                spec = specs[key]
                try:
                    with self.db.writing() as s:
                        self.lobby.hold(s, [a.person, b.person])  # as a seek taken (Lobby.seating)
                        # the waits as they were read: one replaced meanwhile by a wait for another
                        # game is not paired into this one
                        done = s.execute(update(QuickWaitRow).where(QuickWaitRow.person_id.in_([a.person, b.person]),
                                                                    QuickWaitRow.key == key,
                                                                    QuickWaitRow.match_id.is_(None))
                                         .values(match_id=PAIRING, paired_at=now))
                        if done.rowcount != 2:  # one of them was paired elsewhere meanwhile: undone
                            raise _Taken()
                        try:
                            withdrawn = self.lobby.seating(s, [a.person, b.person], spec, paired=True)
                        except Conflict:  # one of them is being seated elsewhere: undone, they wait on
                            raise _Taken() from None
                except _Taken:
                    continue
                seat = secrets.randbelow(2)
                try:
                    match_id = self.lobby.start(spec, ["human", "human"], {seat: a.person, 1 - seat: b.person}, "quick")
                except Exception:
                    with self.db.writing() as s:
                        s.execute(update(QuickWaitRow).where(QuickWaitRow.person_id.in_([a.person, b.person]))
                                  .values(match_id=None, paired_at=None))
                    self.lobby.reopen(withdrawn)
                    raise
                with self.db.writing() as s:
                    s.execute(update(QuickWaitRow).where(QuickWaitRow.person_id.in_([a.person, b.person]))
                              .values(match_id=match_id, paired_at=self.lobby.now()))
                self.lobby.note_game(match_id, "quick", spec.rated)
                self.lobby.began([a.person, b.person], spec)
                self.lobby.changed([a.person, b.person])
                made.append(match_id)
        return made

    def waiting(self) -> int:
        """People waiting now (not yet paired)."""
        with self.db.reading() as s:
            return len(s.scalars(select(QuickWaitRow.person_id).where(QuickWaitRow.match_id.is_(None))).all())

    def started(self, person: int, within: float) -> list[dict[str, Any]]:
        since = self.lobby.now() - timedelta(seconds=within)
        with self.db.reading() as s:
            row = s.get(QuickWaitRow, person)
        if row is None or row.match_id in (None, PAIRING) or row.paired_at is None or aware(row.paired_at) < since:
            return []
        return [{"id": row.match_id, "at": aware(row.paired_at).isoformat(), "source": "quick"}]


__all__ = ["PAIRED_KEPT", "PAIRING", "QUICK_GONE", "Quick"]
