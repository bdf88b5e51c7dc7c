"""The CPU of a revision's views, per game and variant (issue 44 §1): what the web process spends,
after each move, building and encoding the view every seat is pushed — the game's own part (its
board, legal moves, choices, recent turns) with the match's — without HTTP, the act or the store.

Plays ``--matches`` seeded random games of every game and variant of the catalogue (or
``--games``) between people at every seat (each seat's token held, as each seat's socket), a
legal move at a time, each until it ends or reaches ``--plies``; after each move, measures the
process's CPU clock (``time.process_time``) around encoding the new revision's view for each
seat (``view_json``: the first viewer builds what all share, each builds its own). Reported in µs
per revision, per game and variant and per span of plies (0-49: early, 150-: late). With
``--profile``: the functions under the views, by own CPU time (cProfile on the CPU clock).

    python benchmarks/game_views.py [--games fibonacci,nibble] [--plies 300] [--matches 2] [--profile 25] [--json]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from abstracta.core.registry import load_game
from abstracta.server.service import MatchService
from abstracta.server.storage import Store

GAMES = ("fanorona", "fibonacci", "fibonacci-cards", "nibble", "slide-checkers")
#: the first ply of each span reported
SPANS = (0, 50, 150)


def span_of(ply: int) -> str:
    first = max(edge for edge in SPANS if edge <= ply)
    after = [edge for edge in SPANS if edge > ply]
    return f"{first}-{after[0] - 1}" if after else f"{first}-"


def catalogue(games: list[str]) -> list[tuple[str, str, dict[str, str]]]:
    """``(game, variant label, options)`` for every declared variant of ``games``."""
    out = []
    for name in games:
        for variant in load_game(name).description.variants:
            out.append((name, str(variant.label), {k: str(v) for k, v in variant.options.items()}))
    return out


def run(games: list[str], plies: int, matches: int, seed: int, profiler: cProfile.Profile | None) -> dict[str, Any]:
    rng = random.Random(seed)
    rows = []
    with tempfile.TemporaryDirectory(prefix="abstracta-game-views-") as folder:
        store = Store(f"sqlite:///{Path(folder) / 'views.db'}")
        service = MatchService(store, bot_workers=0)
        try:
            for game, label, options in catalogue(games):
                n = load_game(game, **options).new_initial_state().num_players
                spans: dict[str, list[float]] = {}  # per span of plies: [revisions, CPU seconds]
                for m in range(matches):
                    opts = {**options, "seed": str(seed + m)} if load_game(game, **options).has_chance else options
                    match, grant = service.create(game, opts, ["human"] * n, take="all")
                    tokens = [t["token"] for t in grant["tokens"]]
                    while not match.over and match.ply < plies:
                        action = rng.choice(match.state.legal_action_strings())
                        match = service.play(match.id, [action], match.ply, tokens=tokens)
                        if profiler is not None:
                            profiler.enable()
                        started = time.process_time()
                        for seat in range(n):  # each seat's socket is pushed its view
                            service.view_json(match, {seat})
                        used = time.process_time() - started
                        if profiler is not None:
                            profiler.disable()
                        span = spans.setdefault(span_of(match.ply - 1), [0, 0.0])
                        span[0] += 1
                        span[1] += used
                total = sum(s[0] for s in spans.values())
                rows.append({"game": game, "variant": label, "seats": n, "revisions": total,
                             "us_per_revision": round(1e6 * sum(s[1] for s in spans.values()) / total, 1),
                             "by_ply": {name: round(1e6 * sec / k, 1) for name, (k, sec) in spans.items()}})
        finally:
            service.close()
            store.dispose()
    return {"plies": plies, "matches_per_variant": matches, "seed": seed, "variants": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", help="games (names, comma-separated; default every game)")
    parser.add_argument("--plies", type=int, default=300, help="stop each game at this ply (default 300)")
    parser.add_argument("--matches", type=int, default=2, help="games of each variant (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=int, metavar="N", help="print the N functions of most own CPU time")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    result = run(args.games.split(",") if args.games else list(GAMES), args.plies, args.matches, args.seed, profiler)
    print(f"{'game':<16}{'variant':<34}{'revs':>6}{'µs/rev':>9}  " + "".join(f"{s:>10}" for s in map(span_of, SPANS)))
    for row in result["variants"]:
        print(f"{row['game']:<16}{row['variant'][:33]:<34}{row['revisions']:>6}{row['us_per_revision']:>9}  "
              + "".join(f"{row['by_ply'].get(span_of(s), ''):>10}" for s in SPANS))
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile)
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
