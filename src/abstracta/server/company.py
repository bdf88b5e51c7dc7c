"""Who keeps a match company (issue 43): whether people play it at a distance, and the names on
its seats. The chat, the live games and the Web Push notices ask here, so that what "people at
a distance" means is written once.

A match is played **at a distance** when it has two person seats or more and they are not all
held on one device: it was created with invitations (a seat for a friend elsewhere), or its
seats belong to two different people (:attr:`Match.people <.matches.Match.people>`: a seat
taken by someone signed in is theirs, issue 41; the lobby's pairings seat people without
invitations). A game against the computer alone
and a game of pass and play (every person seat taken by its creator, ``take: "all"``) are not:
there is nobody else to talk to.
"""

from __future__ import annotations

from typing import Any, Iterable

from sqlalchemy import distinct, func, select

from ..people.tables import SeatPersonRow
from .matches import Match
from .owners import Owners
from .storage import InviteRow, Store
from .views import seat_styles


class Company:
    """The at-a-distance rule and the seats' names of the matches in ``store``; ``owners``:
    the people the seats belong to and their names (the match service's)."""

    def __init__(self, store: Store, owners: Owners):
        self.store, self.owners = store, owners

    def apart(self, match: Match) -> bool:
        """Whether ``match`` is played by people at a distance (see the module's docstring)."""
        if len(match.persons) < 2:
            return False
        if len(set(match.people.values())) >= 2:  # read with the match: no query
            return True
        return bool(self.apart_ids([match.id]))

    def apart_ids(self, ids: Iterable[str]) -> set[str]:
        """Those of ``ids`` created with an invitation or whose seats belong to two people or
        more (two queries, for a list of matches; the person seats are not counted here)."""
        ids = list(ids)
        if not ids:
            return set()
        with self.store.reading() as s:
            invited = set(s.scalars(select(InviteRow.match_id).where(InviteRow.match_id.in_(ids)).distinct()))
            seated = set(s.scalars(select(SeatPersonRow.match_id).where(SeatPersonRow.match_id.in_(ids))
                                   .group_by(SeatPersonRow.match_id)
                                   .having(func.count(distinct(SeatPersonRow.person_id)) >= 2)))
        return invited | seated

    def names(self, match: Match) -> list[dict[str, Any]]:
        """Per seat: ``{"name", "person", "name_key", "kind"}`` — the person's name where a person
        holds the seat (``person`` true, ``kind`` account or guest; as the match's view names it,
        :meth:`Owners.names`), else the seat's
        name in the game ("White"; ``name_key`` its catalog key) or "Player N" (``name_key``
        None; a deleted account's seat too), for a line of chat or a row of the live list."""
        seated = self.owners.names(match)
        styles = seat_styles(match.game)
        out = []
        for seat in range(len(match.players)):
            info = seated[seat] if seat < len(seated) else None
            if info is not None and info["name"]:
                out.append({"name": info["name"], "person": True, "name_key": None, "kind": info["kind"]})
            elif seat < len(styles) and styles[seat]["name"]:
                out.append({"name": styles[seat]["name"], "person": False, "name_key": styles[seat]["name_key"],
                            "kind": None})
            else:
                out.append({"name": f"Player {seat + 1}", "person": False, "name_key": None, "kind": None})
        return out


__all__ = ["Company"]
