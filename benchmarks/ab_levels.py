"""A/B of two players, seats alternated: how a level design is tried before the ladder measures
the kept one (README "The level ladder").

    python benchmarks/ab_levels.py GAME OPTIONS_JSON A B GAMES BASE_SEED [WORKERS] [--json]
    python benchmarks/ab_levels.py nibble '{"variant":"square9"}' '{"level":3,"max_iterations":700}' '"level:4"' 20 5300

A and B are JSON: a seat spec string (``"level:4"``) or a level with some of its declared
``Search`` fields replaced (``{"level": 3, "max_iterations": 700}``, ``{"level": 3,
"turn_widths": [4, 3]}``, ``{"level": 2, "extend": null}``; ``"seconds"`` or ``"depth"`` instead of
the level's time). Game k uses
seed BASE_SEED + k, its bots seeds 2(BASE_SEED + k) and 2(BASE_SEED + k) + 1; B sits second in
even games, first in odd ones. Prints each game's (B's seat, B's score) and B's total; with
``--json`` the last line is one object with ``games``, ``score`` (B's, 0–1) and ``score_first``
(B's points in the games it opened, and how many).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from multiprocessing import Pool
from typing import Any

import abstracta
from abstracta.ai.base import Budget
from abstracta.ai.levels import level_bot, level_search, make_bot
from abstracta.ai.match import play_game


def make(game: Any, player: Any, seed: int) -> Any:
    """The bot ``player`` (a seat spec, or a level with Search fields replaced) stands for."""
    if isinstance(player, str):
        return make_bot(player, game, seed=seed)
    fields = dict(player)
    level = fields.pop("level")
    seconds = fields.pop("seconds", None)
    depth = fields.pop("depth", None)
    if "turn_widths" in fields:
        fields["turn_widths"] = tuple(fields["turn_widths"])
    budget = Budget(depth=depth) if depth else Budget(seconds=seconds) if seconds else None
    return level_bot(game, level, seed, search=replace(level_search(game, level), **fields), budget=budget,
                     name=json.dumps(player))


def one(task: tuple[str, dict[str, Any], Any, Any, int, int]) -> tuple[int, float]:
    """(B's seat, B's score in 0–1) of game ``k``."""
    name, options, a, b, k, base = task
    game = abstracta.load_game(name, **options)
    seed = base + k
    players = [a, b] if k % 2 == 0 else [b, a]
    bots = [make(game, player, seed * 2 + seat) for seat, player in enumerate(players)]
    _, _, final, _ = play_game(game, bots, seed=seed)
    b_seat = 1 if k % 2 == 0 else 0
    return b_seat, (final.returns()[b_seat] + 1) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description="A/B of two players (seat specs or levels with Search "
                                                 "fields replaced), seats alternated.")
    parser.add_argument("game")
    parser.add_argument("options", type=json.loads, help='rules options as JSON, e.g. \'{"variant":"square9"}\'')
    parser.add_argument("a", type=json.loads, help='player A as JSON: "level:4" or {"level":3,"max_iterations":700}')
    parser.add_argument("b", type=json.loads, help="player B, the same way")
    parser.add_argument("games", type=int)
    parser.add_argument("base_seed", type=int)
    parser.add_argument("workers", type=int, nargs="?", default=1)
    parser.add_argument("--json", action="store_true", help="also print one JSON object as the last line")
    args = parser.parse_args()
    if args.games < 1 or args.workers < 1:
        parser.error("games and workers must be at least 1")
    tasks = [(args.game, args.options, args.a, args.b, k, args.base_seed) for k in range(args.games)]
    out = []
    with Pool(args.workers) as pool:
        for k, result in enumerate(pool.imap(one, tasks, chunksize=1)):
            out.append(result)
            print(k, result, flush=True)
    score = sum(x for _, x in out)
    first = [x for seat, x in out if seat == 0]
    print(f"{args.game} {args.options} B={args.b} vs A={args.a}: B scores {score}/{args.games} = "
          f"{100 * score / args.games:.1f} % (as first {sum(first)}/{len(first)})", flush=True)
    if args.json:
        print(json.dumps({"games": args.games, "score": score / args.games,
                          "score_first": [sum(first), len(first)]}))


if __name__ == "__main__":
    main()
