"""What issue 42 adds to a game in play, as concerns of the match service (lila's round
module): abort, the game of a gone opponent claimed, the rematch, and who is connected.

The rules are the play session's (``play.opening``, ``play.leaving``, ``play.rematch``); here
they are fed what only the server knows — since when a seat's connections are gone
(:class:`~abstracta.server.presence.Presence`), the new match's id — and followed by what the
server does: a rematch agreed makes its match (:func:`~abstracta.server.pairing.start_game`,
under the id the old game names, so that its players and spectators follow it there), a move
is a sign of life. Who holds a seat is the seats' rule (a :class:`~abstracta.server.matches.Holder`:
its tokens and the person signed in); a game's end is recorded by ``results.py`` (an aborted
game announces no end: never recorded, never rated).
"""

from __future__ import annotations

import secrets
from typing import Any, Sequence

from ..core.view import message
from ..lobby import Lobby
from ..lobby.controls import GameSpec
from ..play import ActionsPlayed, Event, Progress, RematchAgreed
from ..play.leaving import claimable_at
from ..play.rematch import rematch_seats, rematch_started
from .errors import Forbidden
from .matches import Match, Who
from .owners import is_rated
from .pairing import grant, start_game
from .presence import Presence
from .service import MatchService


class Rounds:
    """Abort, claim, rematch and presence of the matches of one process."""

    def __init__(self, service: MatchService, presence: Presence, lobby: Lobby):
        self.service, self.presence, self.lobby = service, presence, lobby
        self.kernel = service.kernel

    # --- reactions to every stored change ----------------------------------------------------------
    def react(self, match: Match, events: Sequence[Event]) -> None:
        """A move is a sign of life of its seat."""
        movers = {e.seat for e in events if isinstance(e, ActionsPlayed) and not e.computer}
        if movers:
            self.presence.seen(match.id, movers)

    # --- acts -------------------------------------------------------------------------------------
    def abort(self, match_id: str, who: Who) -> Match:
        return self.service.acts.abort(match_id, who)

    def claim(self, match_id: str, who: Who, draw: Any) -> Match:
        return self.service.acts.claim_left(match_id, draw, lambda match, seat: self.presence.seat_gone_since(
            match.id, seat), who)

    def rematch(self, match_id: str, who: Who, accept: bool = True) -> tuple[int, dict[str, Any]]:
        """Offer, accept or decline the rematch of a finished match for the seats ``who`` holds
        (its tokens', its person's): ``(status, answer)`` — 202 ``{"status": "offered",
        "rematch"}``, 201 ``{"status": "started", "id": the new match, "tokens", "my_seats"}``
        when this agreed it (200 when it had started already: asked again, the same answer),
        200 ``{"status": "declined"}``. The seats held in the new match are those of the seats
        held here gone round by one: a person's are theirs there too (no token needed); a seat
        held by a token alone gets a new token in ``tokens``."""
        next_id = secrets.token_hex(8)
        made: dict[str, tuple[Match, GameSpec, list[int]]] = {}

        def attempt() -> tuple[Match, set[int], str | None, bool]:
            match = self.kernel.fresh(match_id)
            held = self.kernel.authorize(match, who)
            started = rematch_started(match)
            if started is not None and accept:
                return match, held, started, False
            if accept:
                self._check_blocks(match, held)
            progress: Progress = match.answer_rematch(held, accept, next_id)
            agreed = next((e for e in progress.events if isinstance(e, RematchAgreed)), None)
            if agreed is not None and "match" not in made:
                made["match"] = self._start_rematch(match, agreed)
            return self.kernel.apply(progress), held, agreed.next if agreed else None, agreed is not None

        try:
            match, held, started, now = self.kernel.change(match_id, attempt)
        except Exception:
            if "match" in made:  # its agreement was never stored: nobody is sent to it
                self._discard(made["match"][0])
            raise
        if "match" in made:
            new, spec, seated = made["match"]
            if new.id == started:
                self.lobby.note_game(new.id, "rematch", spec.rated)
                self.lobby.began(seated, spec)
            else:
                # accepted twice at the same moment on two workers (a double click; each has the
                # match's lock of its own process): each made its game before storing the
                # agreement, and the other's was stored first. Its players are sent there, so
                # this one goes: kept, it was a third game in both lists, on its clock
                self._discard(new)
        if not accept:
            return 200, {"status": "declined", "rematch": match.live.rematch}
        if started is None:
            return 202, {"status": "offered", "rematch": match.live.rematch}
        seats = rematch_seats(len(match.players))
        mine = [j for j, old in enumerate(seats) if old in held]
        by_token = [j for j in mine if seats[j] not in match.people]  # no person holds it: a token does
        return (201 if now else 200), {"status": "started", "id": started, "from": match.id,
                                       "tokens": grant(self.service, started, by_token), "my_seats": mine}

    def _check_blocks(self, match: Match, held: set[int]) -> None:
        """A rematch is a challenge: none is offered or accepted between people either of whom
        blocks the other (the lobby's rule, issue 42; a person's seat held by its token alone is
        still theirs). Forbidden (403) otherwise; declining stays open to both."""
        mine = {match.people[s] for s in held if s in match.people}
        theirs = {p for s, p in match.people.items() if s not in held and p not in mine}
        if any(self.lobby.blocks.between(a, b) for a in mine for b in theirs):
            raise Forbidden("you cannot play this player", i18n=message("lobby.error.blocked"))

    def _start_rematch(self, match: Match, agreed: RematchAgreed) -> tuple[Match, GameSpec, list[int]]:
        """The rematch's match: the same game, options and clock, the seats gone round, the same
        people in their new seats, rated as the game was (the seats' rules checked again). With
        its spec and people: the lobby hears of it once the agreement naming it is stored."""
        rated = is_rated(match)
        options = dict(match.record().options)  # as the record keeps them: no seed (a new deal)
        spec = GameSpec(match.game.name, options, match.live.clock, rated)
        seated = {j: match.people[old] for j, old in enumerate(agreed.seats) if old in match.people}
        # people at a distance before are still: a first move not made in time aborts it too
        new = start_game(self.service, spec, list(agreed.players), seated, match_id=agreed.next,
                         apart=match.live.start_within is not None or None)
        return new, spec, list(seated.values())

    def _discard(self, new: Match) -> None:
        """A rematch's match made by a request whose agreement was not stored: it goes, as a
        deleted match goes (its seats' people, its timers and watchers told)."""
        with self.kernel.locked(new.id):
            self.kernel.remove(new)

    # --- presence ---------------------------------------------------------------------------------
    def presence_view(self, match_id: str, held: set[int]) -> dict[str, Any]:
        """Who is connected to the match, for a player or a spectator: ``{"presence":
        {"online": per seat, "gone_since": per seat (null: online), "claim_at": when the seats
        held may claim against the player to move (null: they may not come to), "spectators",
        "now"}}`` (times in server Unix seconds)."""
        match = self.kernel.current(match_id)
        n = len(match.players)
        online = self.presence.seats_online(match_id, n)
        gone = [None if online[i] else self.presence.seat_gone_since(match_id, i) for i in range(n)]
        mover = match.to_move()
        claim_at = None
        if mover is not None and held and mover not in held and any(i in match.persons for i in held):
            claim_at = claimable_at(match, mover, gone[mover])
        return {"presence": {"online": online, "gone_since": [None if g is None else round(g, 3) for g in gone],
                             "claim_at": None if claim_at is None else round(claim_at, 3),
                             "spectators": self.presence.spectators(match_id),
                             "now": round(self.kernel.now(), 3)}}


__all__ = ["Rounds"]
