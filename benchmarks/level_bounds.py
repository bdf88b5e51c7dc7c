"""What really bounds each level? (issue 46 §3)

A level declares CPU seconds an action (0.2 / 0.5 / 1.5 / 4 s for levels 3–6) and may be held
below them by a cap: positions (``max_nodes``, alpha-beta), playouts (``max_iterations``,
MCTS and IS-MCTS) or depth (``max_depth``). This script lets each declared level of each game's
default variant (and the others' levels 3–4) choose one action from the same mid-game
positions (``benchmarks/turn_depth.py``: seeds 1–2, plies 6, 20 and 35 of a seeded level-2
game) and records the CPU seconds it took, the positions or playouts it searched and what
stopped it:

The turn search (``turns``) decides a whole turn at its first action and is given the declared
seconds for each action of that turn (the greedy turn's length), so its row shows the CPU seconds
of the decision divided by that length (``seconds``; the decision's own in ``decision_seconds``,
the median length in ``turn_actions``).

* ``time`` — its seconds: it used them, or (alpha-beta, the turn search) at least 60 % of them,
  after which iterative deepening starts no deeper iteration that could not finish;
* ``positions cap`` / ``playouts cap`` / ``depth cap`` — its cap, well inside its seconds;
* ``done early`` — a forced result, a single legal action, a table answer or a search that
  ran out of tree before either bound.

    python benchmarks/level_bounds.py --json
    python benchmarks/level_bounds.py --only fanorona --json

Prints a table per level (the median of its positions); with ``--json`` the last line is one
object: ``{"rows": [{"game", "options", "level", "search", "declared": {...}, "seconds",
"decision_seconds", "turn_actions", "searched", "unit", "stopped_by": {reason: count}}]}``.
CPU seconds of the searching thread, so the machine's load slows the run, not the levels.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from turn_depth import positions  # noqa: E402

from abstracta import load_game  # noqa: E402
from abstracta.ai.levels import LEVELS, level_search, make_bot  # noqa: E402
from abstracta.core.registry import registered_games  # noqa: E402


def declared(search: Any, level: int) -> dict[str, Any]:
    out: dict[str, Any] = {"seconds": LEVELS[level].seconds}
    for name in ("max_nodes", "max_iterations", "max_depth"):
        value = getattr(search, name)
        if value is not None:
            out[name] = value
    return out


def measure(game: Any, level: int, state: Any) -> dict[str, Any]:
    """One action of level ``level`` from ``state``: CPU seconds, what it searched, what stopped it."""
    bot = make_bot(f"level:{level}", game, seed=3)
    search = level_search(game, level)
    inner = getattr(bot, "inner", bot)
    answered_before = getattr(bot, "answered", 0)
    t0 = time.thread_time()
    bot.step(state.clone())
    seconds = time.thread_time() - t0
    nodes = getattr(inner, "nodes", None) if search.bot in ("alphabeta", "paranoid") else None
    iterations = getattr(inner, "iterations", None) if search.bot in ("mcts", "ismcts") else None
    expansions = getattr(inner, "expansions", None) if search.bot == "turns" else None
    # The turn search decides a whole turn at its first action, with the declared seconds for
    # each action of the turn (the greedy turn's length): its time is judged, and shown, per action.
    actions = getattr(inner, "turn_actions", 1) if search.bot == "turns" else 1
    limit = (LEVELS[level].seconds or 0.0) * actions
    if getattr(bot, "answered", 0) > answered_before or len(state.legal_actions()) == 1:
        reason = "done early"
    elif search.max_nodes is not None and nodes is not None and nodes >= 0.95 * search.max_nodes:
        reason = "positions cap"
    elif search.max_iterations is not None and iterations is not None and iterations >= search.max_iterations:
        reason = "playouts cap"
    elif search.max_depth is not None and getattr(inner, "depth", 0) >= search.max_depth:
        reason = "depth cap"
    elif seconds >= 0.6 * limit:
        reason = "time"
    else:
        reason = "done early"
    searched, unit = ((nodes, "positions") if nodes is not None else (iterations, "playouts")
                      if iterations is not None else (expansions, "turns expanded"))
    return {"seconds": seconds, "actions": actions, "searched": searched, "unit": unit, "reason": reason}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[], help="GAME (repeatable)")
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--plies", default="6,20,35")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    t0 = time.perf_counter()
    print("| game | level | search | declared | CPU s an action (median) | searched (median) | stopped by |")
    print("| --- | ---: | --- | --- | ---: | ---: | --- |")
    for name in registered_games():
        if args.only and name not in args.only:
            continue
        base = load_game(name)
        if not type(base).__module__.startswith("abstracta.games."):
            continue
        for k, variant in enumerate(base.description.variants):
            game = load_game(name, **dict(variant.options))
            states = [s for seed in (int(x) for x in args.seeds.split(","))
                      for _, s in positions(game, seed, [int(p) for p in args.plies.split(",")])
                      if s.current_player() >= 0]  # a choice, not chance
            top = game.description.top_level
            for level in range(3, (top if k == 0 else min(top, 4)) + 1):
                search = level_search(game, level)
                found = [measure(game, level, s) for s in states]
                reasons: dict[str, int] = {}
                for f in found:
                    reasons[f["reason"]] = reasons.get(f["reason"], 0) + 1
                searched = [f["searched"] for f in found if f["searched"] is not None]
                row = {"game": name, "options": dict(variant.options), "level": level, "search": search.bot,
                       "declared": declared(search, level),
                       "seconds": round(statistics.median(f["seconds"] / f["actions"] for f in found), 3),
                       "decision_seconds": round(statistics.median(f["seconds"] for f in found), 3),
                       "turn_actions": statistics.median(f["actions"] for f in found),
                       "searched": int(statistics.median(searched)) if searched else None,
                       "unit": found[0]["unit"], "stopped_by": reasons, "positions": len(found)}
                rows.append(row)
                label = name + ("" if not variant.options else ":" + ",".join(f"{a}={b}" for a, b in variant.options.items()))
                caps = ", ".join(f"{k_} {v:,}" for k_, v in row["declared"].items() if k_ != "seconds")
                said = f"{row['declared']['seconds']} s" + (f", {caps}" if caps else "")
                stopped = ", ".join(f"{r} {n}/{len(found)}" for r, n in sorted(reasons.items(), key=lambda x: -x[1]))
                amount = "" if row["searched"] is None else f"{row['searched']:,} {row['unit']}"
                print(f"| {label} | {level} | {search.bot} | {said} | {row['seconds']:.2f} | {amount} | {stopped} |",
                      flush=True)
    if args.json:
        print(json.dumps({"rows": rows, "seeds": args.seeds, "plies": args.plies,
                          "wall_seconds": round(time.perf_counter() - t0, 1)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
