"""Rating pools: one per game variant and speed (issue 41 §4), as lichess keeps one rating per
variant and per speed.

The speed comes from the clock's estimated duration of a game, as lichess estimates it: initial
time + 40 × increment; a per-turn clock counts 40 × its seconds. Under 3 minutes is bullet,
under 8 blitz, under 25 rapid, beyond that classical; a clock of a day or more per move, or
none, is correspondence.

The variant is one of the game's declared variants (``GameDescription.variants``), read from
the game's own description: nothing here names a game. A game whose options match no declared
variant has no pool (it cannot be rated).

A pool's key is ``<game>.<variant>.<speed>``, e.g. ``fanorona.tsivy.blitz`` or
``slide-checkers.3.correspondence``: the variant's id is the last part of its label's
translation key (``fanorona.variant.tsivy``), else its options (``size-tsivy``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from .errors import NotRatable

#: the speeds, fastest first (lichess's names)
SPEEDS = ("bullet", "blitz", "rapid", "classical", "correspondence")
#: upper bounds (seconds, exclusive) of the estimated duration of the live speeds
SPEED_LIMITS = (("bullet", 180), ("blitz", 480), ("rapid", 1500))
#: a per-turn clock of this many seconds or more is correspondence ("days per move")
CORRESPONDENCE_TURN = 86_400
#: moves a game is assumed to last when estimating its duration (lichess: 40)
ESTIMATED_MOVES = 40

_ID = re.compile(r"[^a-z0-9_-]+")
POOL_KEY = re.compile(r"[a-z0-9_-]{1,64}\.[a-z0-9_-]{1,64}\.(bullet|blitz|rapid|classical|correspondence)")


def estimated_seconds(clock: Mapping[str, Any] | None) -> float | None:
    """The estimated duration of a game with ``clock`` in seconds, per player: initial +
    40 × increment, or 40 × per_turn; ``None`` for no clock."""
    if not clock:
        return None
    if "per_turn" in clock:
        return ESTIMATED_MOVES * float(clock["per_turn"])
    return float(clock.get("initial", 0)) + ESTIMATED_MOVES * float(clock.get("increment", 0) or 0)


def speed_of(clock: Mapping[str, Any] | None) -> str:
    """The speed of a game with ``clock`` (the server's clock object: ``None``,
    ``{"initial": s, "increment": s}`` or ``{"per_turn": s}``).

    >>> speed_of({"initial": 300, "increment": 3}), speed_of({"per_turn": 86400}), speed_of(None)
    ('blitz', 'correspondence', 'correspondence')
    """
    if not clock or ("per_turn" in clock and float(clock["per_turn"]) >= CORRESPONDENCE_TURN):
        return "correspondence"
    seconds = estimated_seconds(clock)
    for speed, limit in SPEED_LIMITS:
        if seconds < limit:
            return speed
    return "classical"


@dataclass(frozen=True)
class Pool:
    """One rating pool: ``game`` (registry name), ``variant`` (its id), ``speed``; ``label_key``
    and ``label``: the variant's name for people (catalog key and English)."""

    game: str
    variant: str
    speed: str
    label_key: str = ""
    label: str = ""

    @property
    def key(self) -> str:
        return f"{self.game}.{self.variant}.{self.speed}"

    @property
    def family(self) -> str:
        """``<game>.<variant>``: the pools of one variant at every speed (the computer levels'
        ratings are per family)."""
        return f"{self.game}.{self.variant}"


def variant_id(game_name: str, variant: Any) -> str:
    """The id of a declared variant within its game (see the module docstring)."""
    key = getattr(variant.label, "key", "") or ""
    prefix = f"{game_name}.variant."
    if key.startswith(prefix) and key[len(prefix):]:
        raw = key[len(prefix):]
    else:
        raw = "-".join(f"{k}-{v}" for k, v in sorted(variant.options.items())) or "standard"
    return _ID.sub("-", raw.lower()).strip("-")[:64] or "standard"


def pool_of(game: Any, clock: Mapping[str, Any] | None) -> Pool:
    """The pool of a game (an instance: :class:`abstracta.core.game.Game`) played with
    ``clock``. Raises :class:`NotRatable` when its options make no declared variant."""
    description = game.description
    variant = description.variant_of(game.options)
    if variant is None:
        raise NotRatable(f"{description.name}: these options make no declared variant, so the game cannot be rated",
                         key="people.error.no_variant")
    return Pool(description.name, variant_id(description.name, variant), speed_of(clock),
                getattr(variant.label, "key", ""), str(variant.label))


def pools_of(game_type: Any) -> list[Pool]:
    """Every pool of a game (its class or instance): its declared variants × the speeds."""
    description = game_type().description if isinstance(game_type, type) else game_type.description
    return [Pool(description.name, variant_id(description.name, v), speed, getattr(v.label, "key", ""), str(v.label))
            for v in description.variants for speed in SPEEDS]


def parse_key(key: str) -> tuple[str, str, str]:
    """``(game, variant, speed)`` of a pool key; ValueError for a malformed one."""
    if not POOL_KEY.fullmatch(key or ""):
        raise ValueError(f"not a pool key: {key[:100]!r} (expected <game>.<variant>.<speed>)")
    game, variant, speed = key.split(".")
    return game, variant, speed


__all__ = ["CORRESPONDENCE_TURN", "Pool", "SPEEDS", "estimated_seconds", "parse_key", "pool_of", "pools_of",
           "speed_of", "variant_id"]
