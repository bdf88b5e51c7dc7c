"""The analysis board's cost per position (issue 16 §1): one analysis with each game's fixed
budget, on every declared variant, from a mid-game position.

    python benchmarks/analysis.py [--scale S] [--json]

For each variant: its first declared mid-game position, else the start after 8 seeded random
actions. Prints the search and budget, the depth reached (alpha-beta), the line's length in
turns and actions, and the seconds it took on this machine (the budget is fixed, the time is
not); ``--json`` adds one object as the last line.
"""

import argparse
import json
import random
import time

from rich.console import Console
from rich.table import Table

import abstracta
from abstracta.ai.analysis import analyse, analysis_budget
from abstracta.core.registry import registered_games


def position(game, variant):
    if variant.positions:
        return game.state_from_text(variant.positions[0])
    state = game.new_initial_state(seed=0 if game.has_chance else None)
    rng = random.Random(1)
    for _ in range(8):
        legal = state.legal_actions()
        nxt = state.clone()
        nxt.apply_action(legal[rng.randrange(len(legal))])
        if nxt.is_terminal():
            break
        state = nxt
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description="One analysis per declared variant with each game's fixed "
                                                 "budget: depth reached, line length and seconds.")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply every game's analysis budget by this (default 1)")
    parser.add_argument("--json", action="store_true", help="also print one JSON object as the last line")
    args = parser.parse_args()
    if args.scale <= 0:
        parser.error("--scale must be > 0")
    scale = args.scale
    rows = []
    for name in registered_games():
        base = abstracta.load_game(name)
        for variant in base.description.variants:
            game = abstracta.load_game(name, **variant.options)
            state = position(game, variant)
            budget = max(1, int(analysis_budget(game) * scale))
            t0 = time.perf_counter()
            a = analyse(state, state.current_player(), budget)
            seconds = time.perf_counter() - t0
            rows.append({"game": name, "variant": str(variant.label), "search": a.search, "depth": a.depth,
                         "turns": len(a.line), "actions": sum(len(t.actions) for t in a.line),
                         "display": a.display, "seconds": round(seconds, 3)})
    table = Table(title=f"One analysis per variant (budget × {scale:g})")
    for col in ("game", "variant", "search", "depth", "line turns", "line actions", "value", "seconds"):
        table.add_column(col, justify="right" if col not in ("game", "variant", "search") else "left")
    for r in rows:
        table.add_row(r["game"], r["variant"], r["search"], "—" if r["depth"] is None else str(r["depth"]),
                      str(r["turns"]), str(r["actions"]), r["display"], f"{r['seconds']:.2f}")
    Console().print(table)
    if args.json:
        print(json.dumps({"scale": scale, "rows": rows}))


if __name__ == "__main__":
    main()
