"""A rematch (issue 42 §3): once a game is over, a person's seat offers the others the same game
again; when every person seat agreed, a new game starts with the same settings and the seats
gone round by one — two players swap, as lichess swaps colours — and the same computers.

The session only keeps the offer (:attr:`~abstracta.play.live.Live.rematch`) and says when it is
agreed (:class:`~abstracta.play.events.RematchAgreed`, naming the new match, which whoever
drives the session makes: the server, under the id it gave). The offer stays on the finished
game: every viewer of it, spectators too, sees the new game's id and may follow it there.
"""

from __future__ import annotations

from typing import TypeVar

from ..core.view import message
from .base import SessionBase
from .errors import NotNow, NotYours
from .events import Progress, RematchAgreed, RematchOffered, RequestEnded

S = TypeVar("S", bound=SessionBase)


def original_players(session: SessionBase) -> list[str]:
    """The seats' players as the game began: a seat out on time plays as the computer since,
    but was a person's."""
    return ["human" if i in session.live.out else p for i, p in enumerate(session.players)]


def rematch_seats(n: int) -> tuple[int, ...]:
    """Per seat of the rematch, the seat of this game whose player sits there: each player one
    seat on (``(1, 0)`` for two: they swap; ``(2, 0, 1)`` for three)."""
    return tuple((j - 1) % n for j in range(n))


def people_seats(session: SessionBase) -> list[int]:
    """The seats whose agreement a rematch needs: every seat a person played."""
    return [i for i, p in enumerate(original_players(session)) if p == "human"]


def _check(session: SessionBase, held: set[int]) -> list[int]:
    """The person seats ``held`` holds, when a rematch may be offered or answered now."""
    if not session.over:
        raise NotNow("a rematch is offered once the game is over", message("error.rematch_running"))
    if session.aborted:
        raise NotNow("an aborted game has no rematch: start a new game", message("error.rematch_aborted"))
    mine = [i for i in people_seats(session) if i in held]
    if not mine:
        raise NotYours("only a player of the game offers or answers a rematch", message("error.rematch_not_yours"))
    return mine


def rematch_started(session: SessionBase) -> str | None:
    """The id of the rematch agreed already (None: none)."""
    offer = session.live.rematch
    return offer.get("next") if offer else None


def offer_rematch(session: S, held: set[int], next_id: str) -> Progress:
    """The seats ``held`` offer a rematch, or accept the one the others offered. When every
    person seat agrees, it is agreed: the new match is ``next_id``
    (:class:`~abstracta.play.events.RematchAgreed`). NotNow: the game runs, was aborted, its
    rematch has started already (``extra["next"]``) or these seats offered one already; NotYours:
    they hold no seat a person played."""
    mine = _check(session, held)
    offer = session.live.rematch
    started = rematch_started(session)
    if started is not None:
        raise NotNow("the rematch has started", message("error.rematch_started"), next=started)
    pending = offer if offer is not None and "how" not in offer else None
    if pending is not None and pending["by"] in held:
        raise NotNow("you have offered a rematch already", message("error.rematch_pending"))
    needed = people_seats(session)
    by = pending["by"] if pending is not None else mine[0]
    accepted = sorted(set(pending["accepted"] if pending else []) | set(mine) | {by})
    trial = session.copy()
    if all(i in accepted for i in needed):
        n = len(session.players)
        seats = rematch_seats(n)
        before = original_players(session)
        trial.live.rematch = {"by": by, "accepted": accepted, "next": next_id}
        return Progress(session, trial, (RematchAgreed(next_id, seats, tuple(before[s] for s in seats)),))
    trial.live.rematch = {"by": by, "accepted": accepted, "next": None}
    return Progress(session, trial, (RematchOffered(by, tuple(accepted)),))


def answer_rematch(session: S, held: set[int], accept: bool, next_id: str) -> Progress:
    """Accept (as :func:`offer_rematch`) or decline the pending rematch for the seats ``held``;
    its offerer declining withdraws it. NotNow when none is pending."""
    if accept:
        return offer_rematch(session, held, next_id)
    mine = _check(session, held)
    offer = session.live.rematch
    if offer is None or "how" in offer or offer.get("next"):
        raise NotNow("no rematch offer is pending", message("error.no_rematch"))
    withdrawn = offer["by"] in held
    note = {"by": offer["by"], "how": "withdrawn" if withdrawn else "declined",
            "seat": offer["by"] if withdrawn else mine[0]}
    trial = session.copy()
    trial.live.rematch = note
    return Progress(session, trial, (RequestEnded("rematch", note),))


__all__ = ["answer_rematch", "offer_rematch", "original_players", "people_seats", "rematch_seats",
           "rematch_started"]
