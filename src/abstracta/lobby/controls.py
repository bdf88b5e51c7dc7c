"""Time controls as players choose them, and the game a seek or challenge is for (issue 42 §4).

People choose within lichess's ranges:

* a live clock: initial time **¼ to 180 minutes** (15 s to 3 hours), increment **0 to 180 s**;
* correspondence: **1 to 14 days** per move, whole days;
* or no clock.

The bounds are this module's (:data:`INITIAL_MIN` …); a request's clock is checked against them
once, at the HTTP edge (``server.api.bodies.LobbyClock``), which hands the lobby a
:class:`TimeControl`. ``POST /api/matches`` keeps its wider technical bounds (imports of older
games, scripts); seeks, challenges, quick pairing and the browser's form take these.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..core.errors import AbstractaError
from ..core.registry import load_game
from .errors import InvalidInput

#: bounds of a live clock's initial time and increment, in seconds
INITIAL_MIN, INITIAL_MAX = 15, 180 * 60
INCREMENT_MAX = 180
#: bounds of correspondence, in days per move
DAYS_MIN, DAYS_MAX = 1, 14
DAY = 86_400


@dataclass(frozen=True)
class TimeControl:
    """A time control people chose: a live clock (``initial`` seconds each, ``increment``
    seconds added after each turn) or correspondence (``per_turn`` seconds, whole days). The
    ranges above are checked where it is read from a request; this is the checked value."""

    initial: float | None = None
    increment: float = 0.0
    per_turn: float | None = None

    @classmethod
    def live(cls, initial: float, increment: float = 0.0) -> "TimeControl":
        return cls(initial=float(initial), increment=float(increment))

    @classmethod
    def days(cls, days: int) -> "TimeControl":
        """Correspondence: ``days`` per move."""
        return cls(per_turn=float(days * DAY))

    @property
    def clock(self) -> dict[str, float]:
        """The clock object as the server keeps it (``play.live.Live.clock``), in seconds:
        ``{"initial", "increment"}`` or ``{"per_turn"}``."""
        if self.per_turn is not None:
            return {"per_turn": float(self.per_turn)}
        return {"initial": float(self.initial or 0.0), "increment": float(self.increment)}


@dataclass(frozen=True)
class GameSpec:
    """What a seek, a challenge or a quick pairing is for: ``game`` (registry name) with
    ``options`` (their text form, as a record keeps them), ``clock`` and ``rated``."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    clock: dict[str, float] | None = None
    rated: bool = False

    def key(self) -> str:
        """One string per game, options, clock and rating: quick pairing pairs within one."""
        return json.dumps([self.game, self.options, self.clock, self.rated], sort_keys=True, separators=(",", ":"))

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "options": self.options, "clock": self.clock, "rated": self.rated}

    def instance(self) -> Any:
        """The rules' game of this spec (loaded again)."""
        return load_game(self.game, **self.options)


def check_spec(game: str, options: Mapping[str, bool | int | str], control: TimeControl | None,
               rated: bool) -> tuple[GameSpec, Any]:
    """``(spec, game instance)`` for a seek or challenge: a registered game of two players with
    options it accepts, and ``control`` (None: no clock). InvalidInput for a game the registry
    does not have or options it refuses (the rules' own words), and for a game of more players."""
    try:
        instance = load_game(game, **options)
    except AbstractaError as exc:
        raise InvalidInput(str(exc)[:300], key="lobby.error.game_refused", reason=str(exc)[:300]) from None
    if instance.num_players != 2:
        raise InvalidInput(f"{game}: the lobby pairs two players; these options make a game of "
                           f"{instance.num_players} (invite the others with a link)",
                           key="lobby.error.two_players", n=instance.num_players)
    # the options as a record keeps them (their text form, the seed drawn at the match's making)
    specs = {o.name: o for o in instance.option_specs}
    clean = {k: specs[k].text_of(v) for k, v in instance.options.items()
             if k != "seed" and v is not None and k in specs and k in options}
    return GameSpec(instance.name, clean, control.clock if control else None, rated), instance


def spec_of(text: str) -> GameSpec:
    """The game spec a lobby row keeps as :func:`spec_text`."""
    data = json.loads(text)
    return GameSpec(data["game"], dict(data.get("options") or {}), data.get("clock"), bool(data.get("rated")))


def spec_text(spec: GameSpec) -> str:
    """``spec`` as the JSON text a lobby row keeps (keys sorted: equal specs, equal texts)."""
    return json.dumps(spec.to_json(), sort_keys=True)


__all__ = ["DAY", "DAYS_MAX", "DAYS_MIN", "GameSpec", "INCREMENT_MAX", "INITIAL_MAX", "INITIAL_MIN", "TimeControl",
           "check_spec", "spec_of", "spec_text"]
