"""The approximate rating of each computer level (issue 41 §4: "Level 4 ≈ 1650").

Two sources, combined per game variant (a pool family, ``<game>.<variant>``):

1. The level ladder (``benchmarks/levels.json``: level N against N−1 in every variant). Its
   maximum-likelihood Elo chain (``abstracta.ai.tournament.elo_ratings``, level 1 at 0) is
   summarised by ``benchmarks/level_ratings.py --write`` into the package's ``ladder.json``,
   with the fingerprints of the levels it measured. A level whose fingerprint is no longer
   today's (its bot changed since) has no ladder figure.
2. People's results against the level (never rated for them): each a game against a person of
   known rating and deviation.

The ladder's chain is placed on the people's scale by a convention, :data:`LEVEL_ONE` (level 1,
a random mover, at 800), with a wide deviation (:data:`LADDER_DEVIATION`); people's results
then move each level as results move a player, in one Glicko-2 rating period. With no results
the figure is the ladder's; with many, the people's.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Iterable, Mapping

from ..ai.tournament import elo_ratings
from .glicko2 import Bounds, Glicko, Result, rate

#: where the ladder's chain is placed: level 1 (random moves) ≈ 800 (a convention, see above)
LEVEL_ONE = 800.0
#: the deviation of a ladder figure before any person's result (the convention's uncertainty)
LADDER_DEVIATION = 200.0
#: a level's estimate is a rating like a person's: clamped the same way, and never below this
LEVEL_BOUNDS = Bounds(min_deviation=30.0, max_deviation=350.0, max_volatility=0.1, min_rating=100.0, max_change=2000.0)
LADDER_FORMAT = "abstracta-level-ratings"


@dataclass(frozen=True)
class LevelRating:
    """A level's approximate rating: ``rating`` ± ``deviation``; ``ladder``: the ladder's own
    figure (None: not measured with today's level); ``games``: people's games counted."""

    level: int
    rating: float
    deviation: float
    ladder: float | None
    games: int


def chain(levels: int, pairings: Iterable[tuple[int, int, int, float]],
          elo: Callable[..., Any] | None = None) -> dict[int, tuple[float, float, float]]:
    """Elo of each level over level 1 from the ladder's pairings ``(lower, upper, games, upper's
    points)``: ``{level: (elo, low, high)}`` (95 % interval), only levels joined to level 1."""
    if elo is None:
        elo = elo_ratings
    results = [(upper - 1, lower - 1, games, points) for lower, upper, games, points in pairings if games > 0]
    ratings = elo(levels, results)
    return {i + 1: (r.elo, r.low, r.high) for i, r in enumerate(ratings)
            if i == 0 or math.isfinite(r.high - r.low)}


def ladder_prior(entry: Mapping[str, Any]) -> Glicko:
    """A ladder figure (``{"elo", "low", "high"}``) as a rating on the people's scale."""
    spread = (float(entry["high"]) - float(entry["low"])) / (2 * 1.96)
    return Glicko(LEVEL_ONE + float(entry["elo"]), math.hypot(LADDER_DEVIATION, spread), 0.06)


def estimate(level: int, ladder: Mapping[str, Any] | None, results: Iterable[tuple[float, float, float]]) -> LevelRating | None:
    """Level ``level``'s rating from its ladder figure (or none) and people's ``results``
    ``(person's rating, person's deviation, person's score)``: one Glicko-2 period with the
    level as the player. None when there is neither."""
    results = list(results)
    if ladder is None and not results:
        return None
    prior = ladder_prior(ladder) if ladder is not None else Glicko(1500.0, 350.0, 0.06)
    games = [Result(Glicko(r, d, 0.06), 1.0 - score) for r, d, score in results]
    after = rate(prior, games, periods=0.0, bounds=LEVEL_BOUNDS) if games else prior
    return LevelRating(level, after.rating, after.deviation,
                       LEVEL_ONE + float(ladder["elo"]) if ladder is not None else None, len(games))


@lru_cache(maxsize=1)
def packaged_ladder() -> dict[str, Any]:
    """The package's ``ladder.json`` (written by ``benchmarks/level_ratings.py --write``)."""
    try:
        text = resources.files(__package__).joinpath("ladder.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return {"format": LADDER_FORMAT, "families": {}}
    data = json.loads(text)
    if data.get("format") != LADDER_FORMAT:
        raise ValueError("ladder.json: not an abstracta-level-ratings file")
    return data


def ladder_of(family: str, fingerprint: Callable[[int], str] | None = None,
              data: Mapping[str, Any] | None = None) -> dict[int, dict[str, Any]]:
    """The ladder figures of a variant ``family`` whose levels are still today's
    (``fingerprint(level)``: today's fingerprint; None: trust the file)."""
    entry = (data or packaged_ladder()).get("families", {}).get(family) or {}
    out = {}
    for text, figure in (entry.get("levels") or {}).items():
        level = int(text)
        if fingerprint is not None and figure.get("fingerprint") not in (None, fingerprint(level)):
            continue
        out[level] = figure
    return out


__all__ = ["LADDER_DEVIATION", "LEVEL_ONE", "LevelRating", "chain", "estimate", "ladder_of", "ladder_prior",
           "packaged_ladder"]
