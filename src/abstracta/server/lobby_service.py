"""The lobby's side of the server (issue 42), without HTTP: :func:`install` wires the lobby
(:mod:`abstracta.lobby`), the presence and the round concerns (``rounds.py``) into the app's
state, and runs the lobby's pushes and sweep (expired seeks, quick pairing) on the service's hub. The
routes are :mod:`abstracta.server.api.routes.lobby` and ``rounds``.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from ..lobby import Lobby
from ..play import ActionsPlayed, DrawAccepted, GameAborted, GameEnded, RematchAgreed, SeatOut, SeatTaken, TakenBack
from ..lobby.controls import GameSpec
from .matches import MatchCreated, MatchDeleted
from .owners import changed_options
from .pairing import start_game
from .presence import Presence
from .rounds import Rounds

#: the hub's key of everyone's list of seeks, and of one person's lobby
LOBBY_KEY, PERSON_KEY = "lobby", "person:{}"
#: the hub's key of one person's games: woken when whose move it is in one of them may have
#: changed (the header's notices, ``/api/notices/ws``, read their games again then)
TURNS_KEY = "turns:{}"
#: the fan-out's topic of the lobby's changes (to every process of a deployment)
LOBBY_TOPIC = "lobby"
#: the hub's timer key of the lobby's sweep (expiries, quick pairing)
SWEEP_KEY = "lobby:sweep"
#: seconds between sweeps while someone waits in quick pairing (its range widens with time)
QUICK_TICK = 1.0


#: the events after which another seat may be to move, or none (the game over, gone), or a game
#: of theirs begins outside the lobby (a rematch agreed: the old game's people learn of it, and
#: the new game, created with its people seated, is told to them; its first move is due soon)
TURN_EVENTS = (SeatTaken, ActionsPlayed, TakenBack, DrawAccepted, GameEnded, GameAborted, SeatOut, MatchDeleted,
               MatchCreated, RematchAgreed)


def install(app: FastAPI) -> None:
    """Wire the lobby into ``app`` (after ``app.state.service`` and ``app.state.people``): the
    presence, the lobby, the round concerns reacting to every change, and the lobby's pushes
    and sweep (expired seeks, quick pairing) on the service's hub. The routes are included with
    the others (``api.routes.ROUTERS``)."""
    service, people = app.state.service, app.state.people
    presence = Presence(now=service.kernel.now)
    hub = service.hub

    def start(spec: GameSpec, players: list[str], seated: dict[int, int], source: str) -> str:
        return start_game(service, spec, players, seated).id

    # a rated game's rules are the seats' (owners.py): checked when a seek, a wait or a
    # challenge is made, and again when its match is created
    lobby = Lobby(people, start, gone_since=presence.person_gone_since, changed_options=changed_options)
    rounds = Rounds(service, presence, lobby)
    app.state.presence, app.state.lobby, app.state.rounds = presence, lobby, rounds
    social = getattr(app.state, "social", None)
    if social is not None:  # a block: no chat from the person blocked (issue 42 §2)
        social.chat.hidden = lobby.blocks.blocked_by
    service.kernel.react("rounds", rounds.react)
    # a seat's connection opened or closed: its match's sockets send who is there
    def connection(match: str | None, person: int | None) -> None:
        if match is not None:
            hub.publish(match)
        if person is not None:  # their seeks expire 60 s after their last connection closed
            arm(1.0)

    presence.listeners.append(connection)
    armed: dict[str, float | None] = {"due": None}  # when the sweep's timer fires (None: not armed)

    def sweep(_key: str) -> None:
        armed["due"] = None
        if service.closed:
            return
        soonest = lobby.seeks.sweep()
        lobby.challenges.expire()
        lobby.quick.pair()
        waits = [QUICK_TICK] if lobby.quick.waiting() else []
        delays = [d for d in [soonest, *waits] if d is not None]
        if delays:
            arm(min(delays))

    def arm(delay: float) -> None:
        """The sweep runs in ``delay`` seconds, unless it runs sooner already."""
        due = service.kernel.now() + delay
        if armed["due"] is None or due < armed["due"]:
            armed["due"] = due
            hub.set_timer(SWEEP_KEY, delay + 0.05, sweep)

    # a change of the lobby goes to every process of a deployment (the fan-out, fanout.py): each
    # wakes its own lobby sockets, which read the lobby afresh from the database
    fanout = getattr(app.state, "fanout", None)

    def wake(message: dict[str, Any]) -> None:
        if "turns" in message:
            for pid in message["turns"]:
                hub.publish(TURNS_KEY.format(pid))
            return
        people_ids = message.get("people")
        if people_ids is None:
            hub.publish(LOBBY_KEY)
            arm(1.0)
        else:
            for pid in people_ids:
                hub.publish(PERSON_KEY.format(pid))

    def gap() -> None:  # messages may have been missed: every lobby socket reads afresh
        for key in hub.subscribed():
            if key == LOBBY_KEY or key.startswith(("person:", "turns:")):
                hub.publish(key)

    def changed(people_ids: Any) -> None:
        message = {"people": None if people_ids is None else [int(p) for p in people_ids][:200]}
        if fanout is None:
            wake(message)
        else:
            fanout.publish(LOBBY_TOPIC, message)

    if fanout is not None:
        fanout.subscribe(LOBBY_TOPIC, wake, gap)
    lobby.listeners.append(changed)

    # whose move it is in a game of people may have changed: each of its people is told, on every
    # process (the process storing a change is the only one whose concerns see its events), so a
    # person on any page of the site learns it is their move (issue: "your move" off the game page)
    def turns(match: Any, events: Any) -> None:
        if not match.people or not any(isinstance(e, TURN_EVENTS) for e in events):
            return
        message = {"turns": sorted({int(p) for p in match.people.values()})}
        if fanout is None:
            wake(message)
        else:
            fanout.publish(LOBBY_TOPIC, message)

    service.kernel.react("turns", turns)
    app.state.arm_sweep = lambda: arm(QUICK_TICK)


__all__ = ["LOBBY_KEY", "LOBBY_TOPIC", "PERSON_KEY", "QUICK_TICK", "SWEEP_KEY", "TURNS_KEY", "TURN_EVENTS", "install"]
