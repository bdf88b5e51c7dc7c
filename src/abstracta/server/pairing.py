"""People seated in matches: the seams between the lobby and the matches (issue 42).

Three functions, each the one place its job is done, so that the seats-belong-to-people work
(issue 41's second half) can take it over in one place:

* :func:`start_game` — a new match with given people seated, rated or casual (the lobby's seeks,
  quick pairing, challenges, rematches): the match service's ordinary create path, every person
  seat taken at once, then ``people.standings.take_seat`` for each person.
* :func:`person_seats` — the seats a signed-in person holds, by match (the list of their games,
  a match's view, the acts of this issue by session cookie).
* :func:`grant` — seat tokens for a person's browser: the match page acts with seat tokens
  (``Authorization: Bearer``), and a person seated by the lobby holds their seats by their
  session; the browser asks for tokens of the seats its person holds.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from sqlalchemy import select

from ..lobby.controls import GameSpec
from ..people import People
from ..people.tables import SeatPersonRow
from ..play import Progress
from .matches import Match, digest, new_secret
from .service import MatchService


def start_game(service: MatchService, people: People, spec: GameSpec, players: Sequence[str],
               seated: Mapping[int, int], *, match_id: str | None = None, apart: bool | None = None) -> Match:
    """A new match of ``spec`` (game, options, clock) with ``players`` per seat (``"human"`` or
    a computer's spec) and the person ``seated[seat]`` holding each person seat. ``apart``:
    people at a distance play it, so a first move not made in time aborts it (default: when
    two or more people are seated). ``match_id``: its id, given beforehand (a rematch).
    Whether it is rated is the lobby's record (``lobby_games``); the seats branch's create
    function takes ``rated`` instead.

    Raises the match service's refusals (unknown game, bad options or clock)."""
    if apart is None:
        apart = len(set(seated.values())) > 1 and sum(1 for p in players if p == "human") > 1
    match, _grant = service.create(spec.game, dict(spec.options), list(players), take="all", clock=spec.clock,
                                   apart=apart, match_id=match_id)
    # the creator's tokens are nobody's: each person asks for their own (grant)
    for seat, person in seated.items():
        people.standings.take_seat(match.id, seat, person)
    return match


def person_seats(people: People, person: int | None, match_id: str | None = None) -> dict[str, set[int]]:
    """{match id: seats} the person holds by their session (``match_id``: of that match only)."""
    if person is None:
        return {}
    if match_id is None:
        return people.standings.seats_of(person)
    with people.db.reading() as s:
        seats = set(s.scalars(select(SeatPersonRow.seat).where(SeatPersonRow.person_id == person,
                                                               SeatPersonRow.match_id == match_id)))
    return {match_id: seats} if seats else {}


def seated_people(people: People, match_id: str) -> dict[int, int]:
    """{seat: person id} of the people seated in a match."""
    with people.db.reading() as s:
        return dict(s.execute(select(SeatPersonRow.seat, SeatPersonRow.person_id)
                              .where(SeatPersonRow.match_id == match_id)).all())


def grant(service: MatchService, match_id: str, seats: Sequence[int]) -> list[dict[str, Any]]:
    """New tokens of ``seats`` of the match, for a browser whose person holds them: stored as
    the invitations' tokens are (SHA-256 only) and added to the match in a new revision (other
    processes learn of it as of any change). ``[{"seat", "token"}]``."""
    if not seats:
        return []
    kernel = service.kernel
    tokens = {seat: new_secret() for seat in sorted(set(seats))}

    def attempt() -> Match:
        match = kernel.load(match_id, fresh=True)
        kernel.store.add_tokens(match_id, [(digest(t), seat) for seat, t in tokens.items()])
        trial = match.copy()
        for seat, token in tokens.items():
            trial.tokens[digest(token)] = seat
        return kernel.apply(Progress(match, trial, ()))

    kernel.change(match_id, attempt)
    return [{"seat": seat, "token": token} for seat, token in tokens.items()]


__all__ = ["grant", "person_seats", "seated_people", "start_game"]
