"""Hold the draw (issue 18 §3): the top level plays itself; does it ever lose a tabled position?

Plays ``--games`` games of level ``--level`` (default 6) against itself from the start of GAME
(seats alternate: game k's White is the bot seeded for seat 0 of game k, and every game has its
own seed, so the games differ), through the tournament executors. Then it replays every record
and asks the game's endgame tables (``GameDescription.endgame_tables``, built by
``abstracta egtb build``) about every position at the start of a turn. A position the tables
cover has a value for its mover (+1 won, 0 drawn, −1 lost): the mover must not lose a won or
drawn position (``lost_tabled``, must be 0) and should win a won one (``unconverted``: won
positions that ended drawn — possible only through the draw rules the tables do not see, see
README "Perfect play").

    python benchmarks/hold_draw.py fanorona --games 10 --executor process --workers 2 --json

Levels think in CPU seconds of their thread, so a loaded machine makes the run longer, not the
play weaker. One JSON object is the last line of output with ``--json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from abstracta import load_game
from abstracta.ai.tournament import run_tasks, schedule
from abstracta.core.records import Record


def parse_options(items: list[str]) -> dict[str, str]:
    options = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise SystemExit(f"--option {item!r}: expected K=V")
        options[name] = value
    return options


def examine(record: dict[str, Any], tables: Any) -> dict[str, Any]:
    """One game: its result, and every turn-start position the tables cover, judged by the end."""
    rec = Record.from_dict(record)
    game = rec.make_game()
    state = rec.initial_state(game)
    _, actions = rec.replay()
    tabled = []
    previous = None
    for ply, action in enumerate([*actions, None]):
        if not state.is_terminal() and state.current_player() != previous:
            found = tables.probe(state)
            if found is not None:
                tabled.append((ply, state.current_player(), found["value"], found["distance"]))
            previous = state.current_player()
        if action is not None:
            state.apply_action(action)
    returns = state.returns() if state.is_terminal() else None
    lost = unconverted = 0
    for _, mover, value, _ in tabled:
        outcome = returns[mover] if returns is not None else 0.0
        if value >= 0 and outcome < 0:
            lost += 1
        if value > 0 and outcome == 0:
            unconverted += 1
    first = tabled[0] if tabled else None
    return {"plies": len(actions), "returns": returns, "termination": rec.termination,
            "tabled": len(tabled), "lost_tabled": lost, "unconverted": unconverted,
            "first_tabled": None if first is None else
            {"ply": first[0], "mover": first[1], "value": first[2], "distance": first[3]}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--option", action="append", default=[], help="K=V rules option (repeatable)")
    parser.add_argument("--level", type=int, default=6)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--executor", default="process", choices=("serial", "process", "ray"))
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--ray-address", default=None)
    parser.add_argument("--out", type=Path, default=None, help="write every game's record here")
    parser.add_argument("--from-records", type=Path, default=None,
                        help="judge the game-*.json records in this directory instead of playing")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    game = load_game(args.game, **parse_options(args.option))
    tables = game.description.endgame_tables
    if tables is None:
        raise SystemExit(f"{game.name} with these options declares no endgame tables")
    spec = f"level:{args.level}"
    _, _, tasks = schedule(game, [spec, spec], args.games, seed=args.seed)
    started = time.perf_counter()
    if args.from_records is not None:
        # judge games played earlier (e.g. an interrupted run's --out): no playing
        records = [Record.load(path).to_dict() for path in sorted(args.from_records.glob("game-*.json"))]
        seeds = [int(r.get("tags", {}).get("seed", -1)) for r in records]
    else:
        def save(outcome: Any) -> None:
            # each record as soon as its game ends: a run cut short keeps what it played
            if args.out is not None:
                args.out.mkdir(parents=True, exist_ok=True)
                rec = Record.from_dict(outcome.record)
                rec.tags["seed"] = str(tasks[outcome.index].seed)
                rec.save(args.out / f"game-{outcome.index + 1:03}.json")
            print(f"game {outcome.index + 1} over after {outcome.plies} plies: {outcome.returns}", flush=True)

        outcomes = run_tasks(tasks, args.executor, args.workers, args.ray_address, on_done=save)
        records = [o.record for o in outcomes]
        seeds = [t.seed for t in tasks]
    minutes = (time.perf_counter() - started) / 60
    rows = [{"seed": seed, **examine(record, tables)} for seed, record in zip(seeds, records)]
    names = [s.name.en if s.name is not None else f"seat {i}"
             for i, s in enumerate(game.description.seats)] if getattr(game.description, "seats", None) else None
    players = sorted({p for r in records for p in Record.from_dict(r).players})
    print(f"{game.name} {dict(game.options)}: {' against '.join(players) or spec} (self-play), {len(rows)} games, "
          f"{minutes:.1f} min wall")
    print("| game | seed | plies | result | termination | tabled positions | first tabled (ply, mover, value, distance) | lost a won/drawn table position |")
    print("|---:|---:|---:|---|---|---:|---|---:|")
    wins = [0] * game.num_players
    draws = 0
    for k, row in enumerate(rows, 1):
        returns = row["returns"]
        if returns is None:
            result = "unfinished"
        elif max(returns) == min(returns):
            result, draws = "draw", draws + 1
        else:
            winner = returns.index(max(returns))
            wins[winner] += 1
            result = f"{names[winner] if names else f'seat {winner}'} wins"
        first = row["first_tabled"]
        first_text = "—" if first is None else f"{first['ply']}, {first['mover']}, {first['value']:+d}, {first['distance']}"
        print(f"| {k} | {row['seed']} | {row['plies']} | {result} | {row['termination'] or ''} | {row['tabled']} | "
              f"{first_text} | {row['lost_tabled']} |")
    summary = {"game": game.name, "options": {k: v for k, v in game.options.items() if v is not None},
               "players": players, "games": len(rows), "draws": draws, "wins_by_seat": wins,
               "tabled_games": sum(1 for r in rows if r["tabled"]),
               "lost_tabled": sum(r["lost_tabled"] for r in rows),
               "unconverted": sum(r["unconverted"] for r in rows), "rows": rows}
    print(f"draws {draws}, wins by seat {wins}; games reaching a table {summary['tabled_games']}; "
          f"tabled positions lost from a win or draw: {summary['lost_tabled']}")
    if args.json:
        print(json.dumps(summary, sort_keys=True, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
