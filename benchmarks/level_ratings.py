"""The computer levels' approximate ratings from the level ladder (issue 41 §4).

Reads ``benchmarks/levels.json`` (the ladder: level N against N−1 in every variant, see
``benchmarks/levels.py``), keeps the games of today's levels, and per variant chains the
levels' maximum-likelihood Elo over level 1 (``abstracta.ai.tournament.elo_ratings``); a
level is placed on the people's scale at ``abstracta.people.levels.LEVEL_ONE`` + its Elo.
People's results against the levels move these figures in the server
(``abstracta.people.levels.estimate``); this is the ladder's part alone.

    python benchmarks/level_ratings.py            # the table
    python benchmarks/level_ratings.py --json     # the same as JSON
    python benchmarks/level_ratings.py --write    # and into src/abstracta/people/ladder.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import levels as ladder  # noqa: E402  (benchmarks/levels.py)

from abstracta import load_game  # noqa: E402
from abstracta.ai.levels import level_fingerprint  # noqa: E402
from abstracta.people.levels import LADDER_FORMAT, LEVEL_ONE, chain  # noqa: E402
from abstracta.people.pools import variant_id  # noqa: E402

PACKAGED = HERE.parent / "src" / "abstracta" / "people" / "ladder.json"


def figures(data: dict[str, Any]) -> dict[str, Any]:
    """``{"format", "anchor", "families": {<game>.<variant>: {"levels": {N: {elo, low, high,
    games, fingerprint}}}}}`` from the ladder's results ``data``."""
    by_variant: dict[tuple[str, str], list[tuple[int, int, int, float]]] = {}
    options_of: dict[tuple[str, str], dict[str, Any]] = {}
    for name, options, upper in ladder.pairings():
        entry = data["pairings"].get(ladder.key(name, options, upper))
        if not entry:
            continue
        n, score = ladder.summary(entry)
        slot = (name, json.dumps(options, sort_keys=True))
        options_of[slot] = options
        by_variant.setdefault(slot, []).append((upper - 1, upper, n, score))
    families: dict[str, Any] = {}
    for (name, _), pairs in by_variant.items():
        game = load_game(name, **options_of[(name, _)])
        variant = game.description.variant_of(game.options)
        family = f"{name}.{variant_id(name, variant)}"
        games_at = {}
        for lower, upper, n, _score in pairs:
            games_at[lower] = games_at.get(lower, 0) + n
            games_at[upper] = games_at.get(upper, 0) + n
        measured = chain(6, [p for p in pairs if p[2] > 0])
        families[family] = {"levels": {str(level): {"elo": round(elo, 1), "low": round(low, 1), "high": round(high, 1),
                                                    "games": games_at.get(level, 0),
                                                    "fingerprint": level_fingerprint(game, level)}
                                       for level, (elo, low, high) in sorted(measured.items())}}
    return {"format": LADDER_FORMAT, "version": 1, "anchor": {"level": 1, "rating": LEVEL_ONE},
            "families": dict(sorted(families.items()))}


def table(result: dict[str, Any]) -> str:
    lines = ["| variant | " + " | ".join(f"level {n}" for n in range(1, 7)) + " |",
             "| --- |" + " ---: |" * 6]
    for family, entry in result["families"].items():
        cells = []
        for n in range(1, 7):
            figure = entry["levels"].get(str(n))
            cells.append("—" if figure is None else
                         f"{LEVEL_ONE + figure['elo']:.0f}" + ("" if n == 1 else f" (±{(figure['high'] - figure['low']) / 2:.0f})"))
        lines.append(f"| {family} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--write", action="store_true", help=f"also write {PACKAGED.relative_to(HERE.parent)}")
    args = parser.parse_args(argv)
    result = figures(ladder.load())
    print(json.dumps(result, indent=1) if args.json else table(result))
    if args.write:
        PACKAGED.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
