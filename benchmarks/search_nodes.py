"""How many positions does each search player visit an action, and how deep does it get? On the
same positions, each player's last completed depth (in actions for alpha-beta, in turns for the
turn search), the positions it visited and its CPU seconds — how a level held to a node cap
(``Search.max_nodes``) is placed between the levels around it (README "The level ladder").

    python benchmarks/search_nodes.py GAME OPTIONS_JSON PLAYER... [--seeds 1,2,3] [--plies 6,20,35] [--json]
    python benchmarks/search_nodes.py fanorona '{"size":"tsivy"}' '"level:4"' '"level:5"' '"level:6"'

PLAYER is JSON as in ``benchmarks/ab_levels.py``. Positions as in ``benchmarks/turn_depth.py``
(a seeded game of level 2 against itself, one action in five random). Each player chooses one
action from each position with its level's budget, as it would in a game. With ``--json`` the
last line is one object: ``rows`` (seed, ply, and per player ``depth``, ``nodes``, ``seconds``).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import abstracta
from ab_levels import make
from turn_depth import positions


def main() -> None:
    parser = argparse.ArgumentParser(description="Positions visited and depth reached by each search player on the same positions.")
    parser.add_argument("game")
    parser.add_argument("options", type=json.loads)
    parser.add_argument("players", type=json.loads, nargs="+")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--plies", default="6,20,35")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = abstracta.load_game(args.game, **args.options)
    names = [p if isinstance(p, str) else json.dumps(p) for p in args.players]
    print(" | ".join(["seed", "ply"] + names))
    rows = []
    for seed in (int(s) for s in args.seeds.split(",")):
        for ply, state in positions(game, seed, [int(p) for p in args.plies.split(",")]):
            row: dict[str, Any] = {"seed": seed, "ply": ply, "players": []}
            for player in args.players:
                bot = make(game, player, 3)
                search = getattr(bot, "inner", bot)  # a level that asks an oracle first
                if not hasattr(search, "nodes") or not hasattr(search, "depth"):
                    raise SystemExit(f"{player!r} is not a search that counts its positions (no nodes and depth)")
                t0 = time.process_time()
                bot.step(state.clone())
                row["players"].append({"depth": search.depth, "nodes": search.nodes,
                                       "seconds": round(time.process_time() - t0, 2)})
            rows.append(row)
            print(" | ".join([str(seed), str(ply)] + [f"d{p['depth']} {p['nodes']:,} {p['seconds']:.1f} s"
                                                      for p in row["players"]]), flush=True)
    if args.json:
        print(json.dumps({"game": args.game, "options": args.options, "players": names, "rows": rows}))


if __name__ == "__main__":
    main()
