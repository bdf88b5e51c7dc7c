"""Do levels 5 and 6 convert every won endgame the tables know? (issue 46 §1)

Draws ``--positions`` random Fanorona 9×5 positions with 2–4 stones that the tables call won for
the side to move (fresh history, as the tables read them), and plays each to the end twice:
with level 5 and with level 6 as the winner, level 6 defending (both read the tables: the
defender holds out as long as it can). A position is converted when the winner wins within the
tables' distance plus ``--slack`` turns. The 2–4-stone tables are built first where missing
(timed: part of the run).

    python benchmarks/convert.py --positions 500 --json

Prints a table by stones and level; with ``--json`` the last line is one object:
``{"positions": N, "converted": N, "games": …, "slack": …, "by": [...], "seconds": …,
"build_seconds": …}`` (``positions``/``converted`` count positions converted by both levels).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

from abstracta import load_game
from abstracta.ai.levels import make_bot
from abstracta.games.fanorona.egtb import TableSet, decode
from abstracta.games.fanorona.rules import FanoronaState

STONES = 4


def won_positions(game, tables: TableSet, count: int, seed: int) -> list[tuple[str, int, int]]:
    """``count`` random won positions ``(text, stones, distance)``: the material drawn first
    (2, 3 or 4 stones in all, every split with a stone a side, equally often), then the points
    and the side to move; kept when the mover wins in at least one turn."""
    rng = random.Random(seed)
    n = game.geometry.n
    splits = [(a, s - a) for s in range(2, STONES + 1) for a in range(1, s)]
    out: list[tuple[str, int, int]] = []
    seen: set[str] = set()
    while len(out) < count:
        a, b = rng.choice(splits)
        points = rng.sample(range(n), a + b)
        own, opp = sum(1 << p for p in points[:a]), sum(1 << p for p in points[a:])
        value, d = decode(tables.code(own, opp))  # type: ignore[arg-type]
        if value != 1:
            continue
        side = rng.randrange(2)
        state = FanoronaState(game, *((own, opp) if side == 0 else (opp, own)), side)
        text = state.to_text()
        if text in seen or state.is_terminal():
            continue
        seen.add(text)
        out.append((text, a + b, d))  # type: ignore[arg-type]
    return out


def play(game, text: str, level: int, seed: int) -> tuple[bool, int, int]:
    """Level ``level`` (the mover) against level 6 from ``text``: ``(won, turns, oracle
    answers)`` — turns counted from the first, the winner's."""
    state = game.state_from_text(text)
    winner = state.current_player()
    bots = {winner: make_bot(f"level:{level}", game, seed=seed), 1 - winner: make_bot("level:6", game, seed=seed + 1)}
    turns, previous = 0, None
    while not state.is_terminal() and turns < 300:
        mover = state.current_player()
        if mover != previous:
            turns += 1
            previous = mover
        state.apply_action(bots[mover].step(state))
    won = state.is_terminal() and state.returns()[winner] > 0
    return won, turns, getattr(bots[winner], "answered", 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--seed", type=int, default=4600)
    parser.add_argument("--slack", type=int, default=2, help="turns allowed beyond the tables' distance")
    parser.add_argument("--levels", default="5,6")
    parser.add_argument("--dir", type=Path, default=None, help="tables directory (default: the user data directory)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.dir is not None:
        os.environ["ABSTRACTA_EGTB_DIR"] = str(args.dir)
    levels = [int(x) for x in args.levels.split(",")]
    game = load_game("fanorona")
    t0 = time.perf_counter()
    tables_api = game.description.endgame_tables
    assert tables_api is not None
    directory = args.dir or tables_api.directory()
    tables_api.build(STONES, directory, progress=lambda text: print(text, file=sys.stderr, flush=True))
    build_seconds = time.perf_counter() - t0
    tables = TableSet(game, directory)
    positions = won_positions(game, tables, args.positions, args.seed)
    t1 = time.perf_counter()
    by: dict[tuple[int, int], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    converted_by_all = 0
    failures = []
    for i, (text, stones, d) in enumerate(positions):
        ok_all = True
        for level in levels:
            won, turns, answered = play(game, text, level, args.seed + 7 * i)
            ok = won and turns <= d + args.slack
            row = by[(stones, level)]
            row["positions"] += 1
            row["converted"] += ok
            row["distance"] += d
            row["turns"] += turns
            row["excess"] = max(row["excess"], turns - d)
            row["tables_answered"] += answered
            if not ok:
                ok_all = False
                failures.append({"position": text, "level": level, "distance": d, "turns": turns, "won": won})
        converted_by_all += ok_all
    seconds = time.perf_counter() - t1
    rows = []
    print(f"Fanorona 9×5: {len(positions)} random won positions of 2-{STONES} stones, levels "
          f"{'/'.join(map(str, levels))} as the winner against level 6 (tables of 2-{STONES} stones in {directory})")
    print("| stones | level | positions | converted | mean distance (turns) | mean turns taken | most turns over | actions by the tables |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for (stones, level), row in sorted(by.items()):
        n = int(row["positions"])
        out = {"stones": stones, "level": level, "positions": n, "converted": int(row["converted"]),
               "mean_distance": round(row["distance"] / n, 2), "mean_turns": round(row["turns"] / n, 2),
               "most_over": int(row["excess"]), "tables_answered": int(row["tables_answered"])}
        rows.append(out)
        print(f"| {stones} | {level} | {n} | {out['converted']} | {out['mean_distance']} | {out['mean_turns']} | "
              f"{out['most_over']} | {out['tables_answered']:,} |")
    for failure in failures[:20]:
        print("not converted:", json.dumps(failure))
    print(f"{converted_by_all} of {len(positions)} positions converted by every level within the tables' distance "
          f"+ {args.slack} turns; {seconds:.1f} s of play, {build_seconds:.1f} s building/finding the tables")
    if args.json:
        print(json.dumps({"positions": len(positions), "converted": converted_by_all,
                          "games": sum(r["positions"] for r in rows), "slack": args.slack, "levels": levels,
                          "seed": args.seed, "by": rows, "failures": failures,
                          "seconds": round(seconds, 1), "build_seconds": round(build_seconds, 1)}))
    return 0 if converted_by_all == len(positions) else 1


if __name__ == "__main__":
    raise SystemExit(main())
