"""People: guests and accounts, sessions and API tokens, Glicko-2 ratings, profiles and
leaderboards (issue 41). A domain without HTTP: the web routes
(``abstracta.server.api.routes.accounts`` and ``players``) and the CLI (``abstracta users``) drive it.

Outside the server package because both the server and the CLI use it and neither should
import the other's machinery; it imports nothing of ``abstracta.server`` (a test checks), only
SQLAlchemy, ``pwdlib`` (Argon2id) and ``limits``.

What the match service calls (the seats-and-matches side of issue 41, §2–4):

* who acts: ``abstracta.server.api.people.who(request)`` → a :class:`Principal` (cookie or ``abst_`` token;
  ``principal.may("play")`` for a token's scope) or None;
* a seat taken by a signed-in person: ``people.standings.take_seat(match_id, seat, person_id)``
  (an invitation's once the claim has won it); the seats a person holds:
  ``standings.seats_of(person_id)``; a match's: ``standings.owners_of(match_id)``; names on a
  match's seats: ``standings.people_of(match_id)`` (several: ``people_of_matches``); kinds of
  people: ``standings.kinds(ids)``;
* a rated game's creation: ``standings.ratable(game, clock, seat_specs)`` (the pool, or
  :class:`~abstracta.people.errors.NotRatable`);
* a game's end: ``standings.record_game(match_id, game, clock, returns, {seat: person_id},
  rated=…, levels={seat: level})`` → ``{person_id: RatingChange}`` (recorded once);
  ``standings.changes_of(match_id)`` for the rating change shown at the end;
* a deleted match: ``standings.forget_match(match_id)``.
"""

from __future__ import annotations

from .errors import PeopleError
from .service import People
from .values import Person, Principal

__all__ = ["People", "PeopleError", "Person", "Principal"]
