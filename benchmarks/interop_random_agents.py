"""Masked random agents in the PettingZoo environment of every game and variant (issue 19).

Plays ``--games`` games per game (split evenly over its declared variants), each agent picking
uniformly among the actions of its ``action_mask``; counts the actions the environment refused
(an illegal move: must be 0) and the longest game in player actions against the declared
bound (``max_game_length``: the rules' bound or the ``max_turns`` truncation).

    python benchmarks/interop_random_agents.py --games 1000
    python benchmarks/interop_random_agents.py fibonacci-cards --games 50 --json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import numpy as np

import abstracta
from abstracta.core.errors import IllegalActionError
from abstracta.interop import variant_options
from abstracta.interop.pettingzoo import env as make_env


def run(name: str, options: dict, games: int, seed: int) -> dict:
    e = make_env(name, **options)
    rng = random.Random(seed)
    illegal = longest = truncated = 0
    actions = 0
    t0 = time.perf_counter()
    for g in range(games):
        e.reset(seed=seed * 1_000_003 + g)
        moves = 0
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            try:
                e.step(int(legal[rng.randrange(len(legal))]))
            except IllegalActionError:
                illegal += 1
                break
            moves += 1
        truncated += int(e.state.is_truncated())
        longest = max(longest, moves)
        actions += moves
    return {"game": name, "options": options, "games": games, "illegal": illegal, "longest": longest,
            "bound": e.interop.max_game_length, "truncated": truncated, "actions": actions,
            "seconds": round(time.perf_counter() - t0, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games_", nargs="*", metavar="GAME", help="games (default: every registered game)")
    ap.add_argument("--games", type=int, default=1000, help="games per game, split over its variants")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print one JSON object (the last line) instead of a table")
    args = ap.parse_args(argv)
    rows = []
    for name in args.games_ or abstracta.registered_games():
        variants = variant_options(name)
        for i, options in enumerate(variants):
            n = args.games // len(variants) + (1 if i < args.games % len(variants) else 0)
            rows.append(run(name, options, n, args.seed))
            if not args.json:
                r = rows[-1]
                opts = ",".join(f"{k}={v}" for k, v in options.items()) or "-"
                print(f"{name:16} {opts:18} games {r['games']:5}  illegal {r['illegal']}  longest {r['longest']:5}"
                      f" / bound {r['bound']:5}  truncated {r['truncated']:4}  {r['seconds']:7.1f} s", flush=True)
    if args.json:
        print(json.dumps({"games": args.games, "seed": args.seed, "rows": rows}))
    bad = [r for r in rows if r["illegal"] or r["longest"] > r["bound"]]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
