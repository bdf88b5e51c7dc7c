"""A gone opponent (issue 42 §5; lichess's "claim victory"): when the player to move in a game
of two has been gone on their own turn long enough — :func:`~abstracta.play.opening.gone_seconds`,
60 s in a timed game, a day in correspondence — the other may claim the game or call it a draw.

The session knows nothing of connections: whoever drives it says since when the seat has been
gone (``gone_since``, Unix seconds: when its last connection closed, or its last act), as it is
fed the time. The time gone counts on the seat's own turn only: from the later of the two
moments it left and its turn began (:attr:`~abstracta.play.live.Live.turn_since`). Before each
side's first move a game is aborted instead (:mod:`abstracta.play.opening`).

The game ends with termination ``left``, the record's ``Left`` tag naming the seat gone, and
the result its loss or a draw: the result says why.
"""

from __future__ import annotations

from typing import TypeVar

from ..core.description import english
from ..core.records import LEFT_TAG
from ..core.view import message
from .base import SessionBase
from .errors import NotNow, NotYours
from .events import Event, GameEnded, Progress, RequestEnded
from .live import ended
from .opening import gone_seconds

S = TypeVar("S", bound=SessionBase)


def claimable_at(session: SessionBase, seat: int, gone_since: float | None) -> float | None:
    """When (Unix seconds) the other player may claim against ``seat``, gone since
    ``gone_since`` (None: it is there): in a game of two still running, after each side's first
    move, on ``seat``'s own turn, a person's seat. None when it cannot come to that as things are."""
    if gone_since is None or session.over or len(session.players) != 2 or session.unmoved:
        return None
    if session.to_move() != seat or session.players[seat] != "human":
        return None
    since = max(gone_since, session.live.turn_since or gone_since)
    return since + gone_seconds(session.live.clock)


def claim_left(session: S, held: set[int], gone_since: float | None, now: float, draw: bool = False) -> Progress:
    """The seats ``held`` claim the game (``draw``: a draw) against the player to move, gone since
    ``gone_since`` (see the module's docstring). NotNow: the game is over, has not begun (abort
    it instead), is of more than two players, it is not the other's turn, the other is there or
    not gone long enough (``extra["at"]``: when they will have been); NotYours: ``held`` holds no
    person's seat, or holds the seat to move."""
    session._check_open()
    if len(session.players) != 2:
        raise NotNow("the game of a player gone is claimed in a game of two players only",
                     message("error.claim_two"))
    mine = [i for i in held if i in session.persons]
    mover = session.to_move()
    if not mine or mover in held:
        raise NotYours("only the other player may claim the game of a player gone on their turn",
                       message("error.claim_not_yours"))
    if session.unmoved:
        raise NotNow("the game has not begun: abort it instead", message("error.claim_unmoved"))
    if mover is None or session.players[mover] != "human":
        raise NotNow("it is not the other player's turn", message("error.claim_not_their_turn"))
    at = claimable_at(session, mover, gone_since)
    if at is None:
        raise NotNow("the other player is here", message("error.claim_here"))
    if now < at:
        said = message("error.claim_wait", n=max(1, int(at - now + 0.999)))
        raise NotNow(english(said), said, at=round(at, 3))
    winner = 1 - mover
    trial = session.copy()
    live = trial.live
    live.stop(now, increment=False)
    events: list[Event] = []
    for kind in ("draw", "takeback"):
        pending = getattr(live, kind)
        if pending is not None:
            note = ended(pending, "void", None, session.ply)
            setattr(live, f"{kind}_ended", note)
            events.append(RequestEnded(kind, note))
            setattr(live, kind, None)
    trial.result = [0.0, 0.0] if draw else [1.0 if i == winner else -1.0 for i in range(2)]
    trial.termination = "left"
    trial.tags[LEFT_TAG] = str(mover)
    events.append(GameEnded(tuple(trial.result), "left"))
    return Progress(session, trial, tuple(events))


__all__ = ["claim_left", "claimable_at"]
