"""The people at the matches (issue 41 §2–3): which seats belong to whom, the names on them,
whether a game is rated, and the seats of a deleted match given up.

A seat is held by whoever knows its token, as before, and — when someone signed in took it
(creating the match, claiming its invitation, or seated by the lobby) — by that person too,
wherever they are signed in: the people's standings keep ``{match, seat} → person``
(:meth:`abstracta.people.standings.Standings.take_seat`) and the kernel reads them with the
match (:attr:`~abstracta.server.matches.Match.people`). Tokens keep working beside it, for
guests without a session and for games stored before accounts.

A rated game (issue 41 §4) is one its creator asked to be rated, stored as the record's
:data:`RATED_TAG`; it needs a declared variant, people at every seat, and an account at each
of them: the creator's, and each invitation claimed by an account (a guest is refused).

Names change (a guest renames itself or makes an account, an account is deleted): a view reads
them anew every :data:`NAMES_SECONDS`, not once per revision.

This module changes no match: the seats module asks it to seat people at creation and claim,
and it reacts to a deleted match (:class:`~abstracta.server.matches.MatchDeleted`) by giving
its seats up.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any, Mapping, Sequence

from ..people import People, PeopleError, Person
from ..people.errors import NotRatable
from ..play import Event
from .errors import Forbidden, InvalidRequest, StorageFailed
from .matches import Match, MatchDeleted

#: the record's tag of a rated game (its value "true"); an imported record's is dropped
RATED_TAG = "Rated"
#: seconds a match's names are kept before they are read again
NAMES_SECONDS = 5.0
#: matches whose names are kept
NAMES_KEPT = 2000


def unavailable(exc: PeopleError) -> StorageFailed:
    """The people's database refused: the match service's 503 (nothing was changed)."""
    return StorageFailed(exc.message)


def refusal(kind: type, exc: PeopleError) -> Any:
    """``exc`` as the match service's ``kind`` of refusal, its catalog key kept (``i18n``)."""
    return kind(exc.message, **({"i18n": exc.i18n} if exc.i18n else {}))


def named(person: Mapping[str, Any]) -> dict[str, Any]:
    """A seated person as the views show it: ``{"name", "kind"}``, no name for a deleted account."""
    return {"name": person["name"] if person["kind"] != "deleted" else None, "kind": person["kind"]}


def changed_options(game: Any) -> list[str]:
    """The options of ``game`` that its declared variant does not set and that differ from
    their defaults (a handicap, a first player chosen): a rated game's pool is its variant's,
    and a game whose rules these change is not that variant's game. The seed is dealt, not
    chosen: never counted."""
    variant = game.description.variant_of(game.options)
    fixed = variant.options if variant is not None else {}
    defaults = {spec.name: spec.default for spec in game.option_specs}
    return sorted(name for name, value in game.options.items()
                  if name != "seed" and name not in fixed and value != defaults.get(name))


def is_rated(match: Match) -> bool:
    return match.tags.get(RATED_TAG) == "true"


class Owners:
    """The people of the matches of one process, over ``people`` (the people's service)."""

    def __init__(self, people: People):
        self.people = people
        self.standings = people.standings
        # match id -> (until, its seats' people as read, their names)
        self._names: OrderedDict[str, tuple[float, tuple[Any, ...], tuple[Any, ...]]] = OrderedDict()
        self._guard = threading.Lock()

    # --- what the kernel reads with a match ------------------------------------------------------
    def seats_of_match(self, match_id: str) -> dict[int, int]:
        """{seat: person id} of a stored match (the kernel's ``owners``). 503 if the database
        refused."""
        try:
            return self.standings.owners_of(match_id)
        except PeopleError as exc:
            raise unavailable(exc) from None

    # --- seating ---------------------------------------------------------------------------------
    def check_rated(self, game: Any, clock: Mapping[str, Any] | None, players: Sequence[str], take: Sequence[int],
                    people: Mapping[int, int]) -> None:
        """Whether a new match may be rated, as asked: a declared variant, people at every
        seat (``standings.ratable``), and each seat taken now an account's (``people``; no
        seat by a token alone, no person at two seats). 422 or 403 with the reason."""
        try:
            self.standings.ratable(game, clock, players)
        except NotRatable as exc:
            raise refusal(InvalidRequest, exc) from None
        changed = changed_options(game)
        if changed:
            raise InvalidRequest(f"a rated game is played by its variant's own rules: leave out {', '.join(changed)}",
                                 i18n={"key": "error.rated_options", "params": {"options": ", ".join(changed)}})
        try:
            kinds = self.standings.kinds(list(people.values()))
        except PeopleError as exc:
            raise unavailable(exc) from None
        if not people or any(kinds.get(person) != "account" for person in people.values()):
            raise Forbidden("only accounts play rated games: sign up or sign in first",
                            i18n={"key": "error.rated_needs_account", "params": {}})
        if any(seat not in people for seat in take) or len(set(people.values())) != len(people):
            raise InvalidRequest("a rated game is between accounts, one at each seat: take one seat and invite "
                                 "the others", i18n={"key": "error.rated_one_seat", "params": {}})

    def seat(self, match_id: str, people: Mapping[int, int]) -> None:
        """The seats ``people`` ({seat: person id}) of the match ``match_id`` belong to them
        from now (before the match is stored: a match stored without them would lose them).
        503 if the database refused (nothing was seated)."""
        try:
            for seat, person in sorted(people.items()):
                self.standings.take_seat(match_id, seat, person)
        except PeopleError as exc:
            self.forget(match_id)
            raise unavailable(exc) from None

    def may_claim(self, match: Match, person: Person | None) -> None:
        """Whether ``person`` (None: nobody signed in) may claim an invitation of ``match``: a
        rated game's seat is an account's (403 for anyone else, or for a person seated in it
        already)."""
        if is_rated(match):
            if person is None or person.kind != "account":
                raise Forbidden("this game is rated: only an account takes its seat; sign up or sign in first",
                                i18n={"key": "error.rated_needs_account", "params": {}})
            if person.id in match.people.values():
                raise Forbidden("you have a seat in this rated game already",
                                i18n={"key": "error.rated_one_seat", "params": {}})

    def claim(self, match: Match, seat: int, person: Person) -> None:
        """The invitation to ``seat`` claimed by ``person`` (:meth:`may_claim`): the seat is the
        person's from now. 403 when it is another person's, 503 when the database refused."""
        try:
            self.standings.take_seat(match.id, seat, person.id)
        except NotRatable as exc:  # another person's already
            raise refusal(Forbidden, exc) from None
        except PeopleError as exc:
            raise unavailable(exc) from None

    def forget(self, match_id: str) -> None:
        """The seats of ``match_id`` belong to nobody any more (its results stay)."""
        try:
            self.standings.forget_match(match_id)
        except PeopleError:  # a row left of a deleted match: its id lists nothing (no match has it)
            pass
        with self._guard:
            self._names.pop(match_id, None)

    def forget_names(self) -> None:
        """A person's name changed here (a rename, a deleted account): this process reads every
        match's names anew at once (other processes within :data:`NAMES_SECONDS`)."""
        with self._guard:
            self._names.clear()

    def react(self, match: Match, events: Sequence[Event]) -> None:
        """A deleted match's seats are given up."""
        if any(isinstance(e, MatchDeleted) for e in events):
            self.forget(match.id)

    # --- lists -----------------------------------------------------------------------------------
    def matches_of(self, person: Person | None) -> dict[str, set[int]]:
        """{match id: seats} of the seats ``person`` holds (the list of a signed-in person)."""
        if person is None:
            return {}
        try:
            return self.standings.seats_of(person.id)
        except PeopleError as exc:
            raise unavailable(exc) from None

    def persons_of_matches(self, match_ids: Sequence[str]) -> dict[str, dict[int, int]] | None:
        """{match id: {seat: person id}} of ``match_ids``: their
        :attr:`~abstracta.server.matches.Match.people` without loading them; None if the
        database refused (a list of games is still shown)."""
        try:
            return self.standings.persons_of_matches(match_ids)
        except PeopleError:
            return None

    def people_of_matches(self, match_ids: Sequence[str]) -> dict[str, dict[int, dict[str, Any]]]:
        """{match id: {seat: {"name", "kind"}}} of the people seated in ``match_ids`` (the
        list of a browser's games); a database that refuses names nobody."""
        try:
            found = self.standings.people_of_matches(match_ids)
        except PeopleError:
            return {}
        return {mid: {seat: named(p) for seat, p in seats.items()} for mid, seats in found.items()}

    # --- names -----------------------------------------------------------------------------------
    def names(self, match: Match) -> tuple[Any, ...]:
        """Per seat, ``{"name", "kind"}`` of the person it belongs to (a deleted account:
        name None, kind ``deleted``), or None (nobody known: a computer, a seat held by its
        token alone, a seat open). Read again after :data:`NAMES_SECONDS`; a database that
        refuses leaves the seats unnamed."""
        n = len(match.players)
        if not match.people:
            return (None,) * n
        now = time.monotonic()
        seated = tuple(sorted(match.people.items()))  # a seat taken since: read at once
        with self._guard:
            kept = self._names.get(match.id)
        if kept is not None and kept[0] > now and kept[1] == seated:
            return kept[2]
        try:
            found = self.standings.people_of(match.id)
        except PeopleError:
            return kept[2] if kept is not None and len(kept[2]) == n else (None,) * n
        names = tuple(named(found[i]) if i in found else None for i in range(n))
        with self._guard:
            self._names[match.id] = (now + NAMES_SECONDS, seated, names)
            self._names.move_to_end(match.id)
            while len(self._names) > NAMES_KEPT:
                self._names.popitem(last=False)
        return names


__all__ = ["NAMES_SECONDS", "Owners", "RATED_TAG", "is_rated"]
