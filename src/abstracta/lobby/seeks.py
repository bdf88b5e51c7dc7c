"""Seeks (issue 42 §1): a person asks for a game — a game and its options, a clock, rated or
casual, optionally a rating range and a seat — and it is listed in the lobby until someone takes
it (never its seeker), its seeker cancels it, or it expires: :data:`SEEK_GONE` seconds after its
seeker's last connection closed (or their last request, for a seek made without a connection),
or :data:`SEEK_LIFETIME` seconds after it was made. Taking it starts the game at once, both
people seated.
"""

from __future__ import annotations

import contextlib
import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Mapping

from sqlalchemy import or_, select, update
from sqlalchemy.exc import IntegrityError

from ..people import Person
from ..people.database import aware
from .controls import GameSpec, TimeControl, check_spec, spec_of, spec_text
from .errors import Conflict, Gone, Refused, Unknown
from .pairing import in_range
from .tables import SeekRow

if TYPE_CHECKING:  # the lobby's facade, which imports this module (an annotation only)
    from .service import Lobby

#: seconds a seek stays listed at most
SEEK_LIFETIME = 600.0
#: seconds a seek stays listed after its seeker's last connection closed
SEEK_GONE = 60.0
#: open seeks one person may have at once
SEEKS_PER_PERSON = 5
#: the widest rating range a seek names (rating points, each bound within it)
RATING_BOUNDS = (0, 4000)


#: A seek's rating range: ``(low, high)`` rating points within :data:`RATING_BOUNDS`, low
#: first; None for an open bound (``(None, None)``: any rating).
RatingRange = tuple[int | None, int | None]


def _ts(moment: datetime) -> float:
    """A stored time as Unix seconds (SQLite gives back naive datetimes, stored as UTC)."""
    return aware(moment).timestamp()


class Seeks:
    """The seeks of the lobby."""

    def __init__(self, lobby: "Lobby"):
        self.lobby = lobby
        self.db = lobby.db

    def open(self, person: Person, game: str, options: Mapping[str, bool | int | str], clock: TimeControl | None,
             rated: bool, rating_range: RatingRange = (None, None), seat: int | None = None) -> dict[str, Any]:
        """A new seek by ``person`` for ``game`` (:func:`~abstracta.lobby.controls.check_spec`),
        only for players rated within ``rating_range``, ``seat`` 0 or 1 (None: either): its view.
        InvalidInput for a game or options the rules refuse; Refused for a rated seek of a guest
        or of options no pool has; Conflict past :data:`SEEKS_PER_PERSON` open seeks."""
        spec, instance = check_spec(game, options, clock, rated)
        low, high = rating_range
        self.lobby.check_rated(spec, instance, person)
        rating, provisional = self.lobby.rating(person.id, spec, instance)
        self.sweep()
        now = self.lobby.now()
        twice = Conflict("you have this very seek open already: it is listed as yours", key="lobby.error.seek_twice")
        with self.db.writing() as s:
            # two posts of one person at once, each reading four open seeks, would make six:
            # their row locked first, the second reads what the first committed (PostgreSQL;
            # SQLite queues every writer already)
            self.lobby.hold(s, [person.id])
            mine = s.execute(select(SeekRow.spec, SeekRow.seat, SeekRow.rating_min, SeekRow.rating_max)
                             .where(SeekRow.person_id == person.id, SeekRow.closed_at.is_(None))).all()
            # a second click on "Post a seek" would list the same seek twice, and the one left
            # over would be taken into a game its seeker no longer waits for
            if (spec_text(spec), seat, low, high) in {tuple(m) for m in mine}:
                raise twice
            if len(mine) >= SEEKS_PER_PERSON:
                raise Conflict(f"at most {SEEKS_PER_PERSON} open seeks at once", key="lobby.error.seeks_limit",
                               n=SEEKS_PER_PERSON)
            row = SeekRow(id=secrets.token_hex(6), person_id=person.id, spec=spec_text(spec), seat=seat,
                          rating=rating, provisional=provisional, rating_min=low, rating_max=high, created_at=now)
            s.add(row)
            # the lock above orders this person's posts; the database's unique index of open
            # seeks (tables.py) still refuses a copy made open by another way (a seek reopened
            # when its game could not start), the loser told as above
            try:
                s.flush()
            except IntegrityError:
                raise twice from None
        self.lobby.changed()
        return self.view(row, person.id, {person.id: person.name}, kinds={person.id: person.kind})

    def cancel(self, person: Person, seek_id: Any) -> None:
        """``person`` withdraws their seek (Unknown if it is not theirs or not open)."""
        with self.db.writing() as s:
            row = s.get(SeekRow, seek_id) if isinstance(seek_id, str) and len(seek_id) <= 16 else None
            # open still when written, not only when read: a seek claimed by a taker at this moment
            # (committed while this waited for its row, PostgreSQL) had its claim written over,
            # its seeker told it was withdrawn and seated in its game all the same
            done = None if row is None or row.person_id != person.id else s.execute(
                update(SeekRow).where(SeekRow.id == row.id, SeekRow.closed_at.is_(None))
                .values(closed_at=self.lobby.now(), how="cancelled"))
            if done is None or done.rowcount != 1:
                raise Unknown("no open seek of yours with this id", key="lobby.error.no_seek")
        self.lobby.changed()

    def listed(self, viewer: Person | None) -> list[dict[str, Any]]:
        """The open seeks (expired ones closed first), oldest first, as ``viewer`` sees them:
        without those of people either blocks; each says whether ``viewer`` may take it, and
        shows its seeker's rating as it is now (games may have moved it since the seek was made)."""
        self.sweep()
        with self.db.reading() as s:
            rows = s.scalars(select(SeekRow).where(SeekRow.closed_at.is_(None)).order_by(SeekRow.created_at)).all()
        blocked = self.lobby.blocks.either_of(viewer.id) if viewer is not None else set()
        rows = [r for r in rows if r.person_id not in blocked]
        names, kinds = self.lobby.names(r.person_id for r in rows)
        # the seekers' ratings now and the viewer's (for the ranges) in one read
        wanted = [(r.person_id, r.spec) for r in rows]
        if viewer is not None:
            wanted += [(viewer.id, r.spec) for r in rows]
        ratings = self.lobby.ratings(wanted)
        return [self.view(r, viewer.id if viewer else None, names, viewer, ratings[r.person_id, r.spec],
                          ratings[viewer.id, r.spec] if viewer is not None else None, kinds) for r in rows]

    def view(self, row: SeekRow, viewer: int | None, names: dict[int, str | None],
             person: Person | None = None, rating: tuple[float, bool] | None = None,
             theirs: tuple[float, bool] | None = None, kinds: dict[int, str] | None = None) -> dict[str, Any]:
        """The seek ``row`` as ``viewer`` sees it; ``rating``: its seeker's ``(rating,
        provisional)`` now (None: as when it was made, a moment ago); ``theirs``: the viewer's
        (None: read it); ``kinds``: the people's kinds (:meth:`Lobby.names`)."""
        spec = spec_of(row.spec)
        score, provisional = rating if rating is not None else (row.rating, row.provisional)
        why = None
        if viewer is None:
            why = "signed_out"
        elif row.person_id == viewer:
            why = "own"
        elif person is not None:
            why = self._refusal(row, spec, person, theirs)
        return {"id": row.id, "player": names.get(row.person_id), "player_kind": (kinds or {}).get(row.person_id),
                "rating": round(score),
                "provisional": provisional, **spec.to_json(), "seat": row.seat,
                "rating_range": [row.rating_min, row.rating_max] if (row.rating_min, row.rating_max) != (None, None)
                else None, "created": aware(row.created_at).isoformat(), "mine": row.person_id == viewer,
                "acceptable": why is None, "refusal": why}

    def _refusal(self, row: SeekRow, spec: GameSpec, person: Person,
                 theirs: tuple[float, bool] | None = None) -> str | None:
        """Why ``person`` (rated ``theirs``, None: read it) may not take the seek ``row`` (a
        catalog word), or None."""
        if spec.rated and not person.is_account:
            return "rated_guest"
        rating, _ = theirs if theirs is not None else self.lobby.rating(person.id, spec)
        if not in_range(rating, row.rating_min, row.rating_max):
            return "range"
        return None

    def take(self, person: Person, seek_id: Any) -> str:
        """``person`` takes the seek: the new match's id, both seated (the seeker in the seat
        they asked for, else one drawn at random). Conflict for one's own seek or a rating
        outside its range; Refused between people who block each other or for a guest taking
        a rated seek; Gone once it is taken, cancelled or expired; Unknown for no such seek."""
        self.sweep()
        with self.db.writing() as s:
            row = s.get(SeekRow, seek_id) if isinstance(seek_id, str) and len(seek_id) <= 16 else None
            if row is None:
                raise Unknown("no such seek", key="lobby.error.no_seek")
            if row.closed_at is not None:
                raise Gone("this seek was taken, withdrawn or has expired", key="lobby.error.seek_gone")
            if row.person_id == person.id:
                raise Conflict("this is your own seek", key="lobby.error.own_seek")
            spec = spec_of(row.spec)
            if self.lobby.blocks.between(row.person_id, person.id):
                raise Refused("you cannot play this player", key="lobby.error.blocked")
            why = self._refusal(row, spec, person)
            if why == "rated_guest":
                self.lobby.check_rated(spec, spec.instance(), person)
            if why == "range":
                raise Conflict("your rating is outside this seek's range", key="lobby.error.out_of_range")
            seeker, seat = row.person_id, row.seat
            # claimed before the match is made (another process, a double click): one taker only,
            # and with it both people's other live seeks go (Lobby.seating), in one transaction
            self.lobby.hold(s, [seeker, person.id])
            done = s.execute(update(SeekRow).where(SeekRow.id == row.id, SeekRow.closed_at.is_(None))
                             .values(closed_at=self.lobby.now(), how="taking", accepted_by=person.id))
            if done.rowcount != 1:
                raise Gone("this seek was taken, withdrawn or has expired", key="lobby.error.seek_gone")
            withdrawn = self.lobby.seating(s, [seeker, person.id], spec, seek=row.id)
        seat = secrets.randbelow(2) if seat is None else seat
        seated = {seat: seeker, 1 - seat: person.id}
        try:
            match_id = self.lobby.start(spec, ["human", "human"], seated, "seek")
        except Exception:
            # the match was not made: the seek is open again (unless its seeker posted it anew
            # meanwhile: one of them is listed), and so are the seeks withdrawn for it
            with contextlib.suppress(IntegrityError), self.db.writing() as s:
                s.execute(update(SeekRow).where(SeekRow.id == seek_id).values(closed_at=None, how=None,
                                                                                   accepted_by=None))
            self.lobby.reopen(withdrawn)
            raise
        with self.db.writing() as s:
            s.execute(update(SeekRow).where(SeekRow.id == seek_id).values(how="taken", match_id=match_id,
                                                                               closed_at=self.lobby.now()))
        self.lobby.note_game(match_id, "seek", spec.rated)
        self.lobby.began(seated.values(), spec)
        self.lobby.changed()
        self.lobby.changed([seeker, person.id])
        return match_id

    def sweep(self) -> float | None:
        """Close the seeks that have expired (see the module's docstring); seconds until the next
        one would expire as things stand (None: no open seek)."""
        now = self.lobby.now()
        stamp = _ts(now)
        closing, soonest = [], None
        with self.db.reading() as s:
            rows = s.execute(select(SeekRow.id, SeekRow.person_id, SeekRow.created_at)
                             .where(SeekRow.closed_at.is_(None))).all()
        for seek_id, person, created in rows:
            made = _ts(created)
            gone = self.lobby.gone_since(person, made)
            ends = min(made + SEEK_LIFETIME, gone + SEEK_GONE if gone is not None else made + SEEK_LIFETIME)
            if ends <= stamp:
                closing.append(seek_id)
            else:
                soonest = ends - stamp if soonest is None else min(soonest, ends - stamp)
        if closing:
            with self.db.writing() as s:
                s.execute(update(SeekRow).where(SeekRow.id.in_(closing), SeekRow.closed_at.is_(None))
                          .values(closed_at=now, how="expired"))
            self.lobby.changed()
        return soonest

    def started(self, person: int, within: float) -> list[dict[str, Any]]:
        since = self.lobby.now() - timedelta(seconds=within)
        with self.db.reading() as s:
            rows = s.execute(select(SeekRow.match_id, SeekRow.closed_at).where(
                or_(SeekRow.person_id == person, SeekRow.accepted_by == person), SeekRow.how == "taken",
                SeekRow.closed_at >= since)).all()
        return [{"id": mid, "at": aware(at).isoformat(), "source": "seek"} for mid, at in rows]


__all__ = ["RATING_BOUNDS", "RatingRange", "SEEKS_PER_PERSON", "SEEK_GONE", "SEEK_LIFETIME", "Seeks"]
