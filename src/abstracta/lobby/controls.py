"""Time controls as players choose them, and the game a seek or challenge is for (issue 42 §4).

The clock object is the server's (``play.live.Live.clock``): ``{"initial": s, "increment": s}``
or ``{"per_turn": s}`` (or none). People choose within lichess's ranges:

* a live clock: initial time **¼ to 180 minutes** (15 s to 3 hours), increment **0 to 180 s**;
* correspondence: **1 to 14 days** per move, whole days;
* or no clock.

``POST /api/matches`` keeps its wider technical bounds (imports of older games, scripts); seeks,
challenges, quick pairing and the browser's form take these.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import AbstractaError
from ..core.registry import load_game
from .errors import InvalidInput

#: bounds of a live clock's initial time and increment, in seconds
INITIAL_MIN, INITIAL_MAX = 15, 180 * 60
INCREMENT_MAX = 180
#: bounds of correspondence, in days per move
DAYS_MIN, DAYS_MAX = 1, 14
DAY = 86_400


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise InvalidInput(f"clock.{what}: {str(value)[:40]!r} is not a number of seconds",
                           key="lobby.error.clock_number", field=what)
    return float(value)


def check_control(clock: Any) -> dict[str, float] | None:
    """The clock object ``clock`` as people choose it, normalised to floats (None: no clock).
    :class:`InvalidInput` naming the range for anything else."""
    if clock is None:
        return None
    if not isinstance(clock, dict):
        raise InvalidInput("clock must be {'initial': s, 'increment': s}, {'per_turn': s} or null",
                           key="lobby.error.clock_shape")
    keys = set(clock)
    if keys == {"per_turn"}:
        seconds = _number(clock["per_turn"], "per_turn")
        days = seconds / DAY
        if days != int(days) or not DAYS_MIN <= days <= DAYS_MAX:
            raise InvalidInput(f"clock.per_turn: {seconds:g} s is not {DAYS_MIN} to {DAYS_MAX} whole days per move",
                               key="lobby.error.clock_days", min=DAYS_MIN, max=DAYS_MAX)
        return {"per_turn": seconds}
    if keys in ({"initial"}, {"initial", "increment"}):
        initial = _number(clock["initial"], "initial")
        increment = _number(clock.get("increment", 0), "increment")
        if not INITIAL_MIN <= initial <= INITIAL_MAX:
            raise InvalidInput(f"clock.initial: {initial:g} s is not ¼ to 180 minutes ({INITIAL_MIN} to "
                               f"{INITIAL_MAX} s)", key="lobby.error.clock_initial")
        if not 0 <= increment <= INCREMENT_MAX:
            raise InvalidInput(f"clock.increment: {increment:g} s is not 0 to {INCREMENT_MAX} s",
                               key="lobby.error.clock_increment", max=INCREMENT_MAX)
        return {"initial": initial, "increment": increment}
    raise InvalidInput(f"clock: {sorted(keys)!r} is not a time control; give {{'initial': s, 'increment': s}} "
                       "or {'per_turn': s}", key="lobby.error.clock_shape")


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


def check_spec(game: Any, options: Any, clock: Any, rated: Any) -> tuple[GameSpec, Any]:
    """``(spec, game instance)`` for a seek or challenge: a registered game of two players with
    options it accepts, a time control people choose (:func:`check_control`). InvalidInput for
    anything else (the rules' own words for an option they refuse)."""
    if not isinstance(game, str) or not 0 < len(game) <= 64:
        raise InvalidInput("field 'game' must be a game name", key="lobby.error.game")
    if options is None:
        options = {}
    if not isinstance(options, dict) or len(options) > 32 or not all(
            isinstance(k, str) and len(k) <= 64 and isinstance(v, (bool, int, str)) and len(str(v)) <= 200
            for k, v in options.items()):
        raise InvalidInput("field 'options' must be an object of option values", key="lobby.error.options")
    if not isinstance(rated, bool):
        raise InvalidInput("field 'rated' must be true or false", key="lobby.error.rated")
    control = check_control(clock)
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
    return GameSpec(instance.name, clean, control, rated), instance


def spec_of(text: str) -> GameSpec:
    """The game spec a lobby row keeps as :func:`spec_text`."""
    data = json.loads(text)
    return GameSpec(data["game"], dict(data.get("options") or {}), data.get("clock"), bool(data.get("rated")))


def spec_text(spec: GameSpec) -> str:
    """``spec`` as the JSON text a lobby row keeps (keys sorted: equal specs, equal texts)."""
    return json.dumps(spec.to_json(), sort_keys=True)


__all__ = ["DAYS_MAX", "DAYS_MIN", "GameSpec", "INCREMENT_MAX", "INITIAL_MAX", "INITIAL_MIN", "check_control",
           "check_spec", "spec_of", "spec_text"]
