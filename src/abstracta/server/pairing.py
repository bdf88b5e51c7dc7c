"""People seated in matches by the lobby (issue 42), the seats' way (issue 41).

:func:`start_game` is the one place the lobby's seeks, quick pairing, challenges and rematches
make a match: the match service's ordinary create path with the people seated at once
(``create(..., people=...)``: :mod:`~abstracta.server.owners` keeps ``{seat: person}``, so each
holds their seats by their session wherever they are signed in, as a creator or an invitation's
claimer does) and rated by the seats' rules (``create(..., rated=...)``:
``Owners.check_rated``; its end recorded by ``results.py``). No seat token is handed to
anyone for a seat a person holds; a seat held by a token alone (a rematch of a game whose
players had no session) gets a token when its player asks (:func:`grant`).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..lobby.controls import GameSpec
from ..play import Progress
from .matches import Match, digest, new_secret
from .service import MatchService


def start_game(service: MatchService, spec: GameSpec, players: Sequence[str], seated: Mapping[int, int], *,
               match_id: str | None = None, apart: bool | None = None) -> Match:
    """A new match of ``spec`` (game, options, clock, rated) with ``players`` per seat
    (``"human"`` or a computer's spec) and the person ``seated[seat]`` holding each seat
    named there; a person seat nobody is seated at is held by a token (none given out here:
    :func:`grant`). ``apart``: people at a distance play it, so a first move not made in time
    aborts it (default: when two or more different people are seated). ``match_id``: its
    id, given beforehand (a rematch).

    Raises the match service's refusals (unknown game, bad options or clock, a game that
    cannot be rated: 422/403)."""
    if apart is None:
        apart = len(set(seated.values())) > 1 and sum(1 for p in players if p == "human") > 1
    unseated = [i for i, p in enumerate(players) if p == "human" and i not in seated]
    match, _grant = service.create(spec.game, dict(spec.options), list(players), take=unseated, clock=spec.clock,
                                   people=dict(seated), rated=spec.rated, apart=apart, match_id=match_id)
    return match


def grant(service: MatchService, match_id: str, seats: Sequence[int]) -> list[dict[str, Any]]:
    """New tokens of ``seats`` of the match, for a player who holds them by a token alone (no
    person seated there): stored as the invitations' tokens are (SHA-256 only) and added to
    the match in a new revision (other processes learn of it as of any change). ``[{"seat",
    "token"}]``."""
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


__all__ = ["grant", "start_game"]
