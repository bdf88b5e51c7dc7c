"""How deep does each turn-search player get? The depth in turns of the last iteration each one
completes, and its CPU seconds, on the same positions (README "The level ladder": why
Fibonacci's level 6 gains little over level 5).

    python benchmarks/turn_depth.py GAME OPTIONS_JSON PLAYER... [--seeds 1,2,3] [--plies 10,40,80] [--json]
    python benchmarks/turn_depth.py fibonacci '{"variant":"standard"}' '"level:5"' '"level:6"' '{"level":6,"turn_widths":[16,8]}'

PLAYER is JSON as in ``benchmarks/ab_levels.py``: ``"level:5"`` or a level with some Search
fields replaced (``{"level": 6, "turn_widths": [16, 8]}``); each must be a turn search (a bot
with ``search(state)`` and ``depth``). Positions: for each seed a game of level 2 against itself
with one action in five random (seeded), taken at each ply of ``--plies`` it reaches. Each
player searches each position once with its level's time (CPU seconds). With ``--json`` the last
line is one object: ``rows`` (seed, ply, and per player ``depth`` and ``seconds``).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any, Callable

import abstracta
from abstracta.ai.levels import level_bot
from ab_levels import make


def positions(game: Any, seed: int, plies: list[int]) -> list[tuple[int, Any]]:
    """(ply, state) for each of ``plies`` that seed's game of level 2 (one action in five random) reaches."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    bot = level_bot(game, 2, seed=seed)
    out, ply = [], 0
    while not state.is_terminal() and ply <= max(plies):
        if ply in plies:
            out.append((ply, state.clone()))
        legal = state.legal_actions()
        state.apply_action(bot.step(state) if rng.random() < 0.8 else rng.choice(legal))
        ply += 1
    return out


def turn_depth(bot: Any, state: Any) -> dict[str, Any]:
    """One turn search from ``state``: the depth in turns it completed and its CPU seconds."""
    if not hasattr(bot, "search") or not hasattr(bot, "depth"):
        raise SystemExit(f"{bot!r} is not a turn search (no search() and depth)")
    t0 = time.process_time()
    bot.search(state.clone())
    return {"depth": bot.depth, "seconds": round(time.process_time() - t0, 2)}


def run(description: str, measure: Callable[[Any, Any], dict[str, Any]], show: Callable[[dict[str, Any]], str],
        default_plies: str) -> None:
    """The command line shared with ``search_nodes.py``: each player measured by ``measure(bot,
    state)`` on the positions of each seed, a row printed per position (``show`` per player)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("game")
    parser.add_argument("options", type=json.loads)
    parser.add_argument("players", type=json.loads, nargs="+")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--plies", default=default_plies)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = abstracta.load_game(args.game, **args.options)
    names = [p if isinstance(p, str) else json.dumps(p) for p in args.players]
    print(" | ".join(["seed", "ply"] + names))
    rows = []
    for seed in (int(s) for s in args.seeds.split(",")):
        for ply, state in positions(game, seed, [int(p) for p in args.plies.split(",")]):
            row: dict[str, Any] = {"seed": seed, "ply": ply,
                                   "players": [measure(make(game, player, 3), state) for player in args.players]}
            rows.append(row)
            print(" | ".join([str(seed), str(ply)] + [show(p) for p in row["players"]]), flush=True)
    if args.json:
        print(json.dumps({"game": args.game, "options": args.options, "players": names, "rows": rows}))


def main() -> None:
    run("The depth in turns each turn-search player completes on the same positions.", turn_depth,
        lambda p: f"d{p['depth']} {p['seconds']:.1f} s", "10,40,80")


if __name__ == "__main__":
    main()
