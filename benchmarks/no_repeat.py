"""Won endgames without tables: does level 6's search win them without repeating a position?
(issue 46 §1)

Draws ``--positions`` random Fanorona 9×5 positions of two or three stones against one that
the tables call won in at least 5 turns; the winner is level 6's search *without* tables or
oracle (its evaluator alone), held to ``--nodes`` positions an action so that the run is
deterministic; the defender plays the tables' slowest loss and takes a draw by repetition
when one is offered. A position counts as *repeated* when the winner moved into a position
that had occurred before — *while ahead* when its search still valued that turn above a draw
(a repetition once the no-progress rule had made every line a draw is no mistake) — and as
*not won* when the game ended otherwise than in the winner's win (at most 200 turns; the
no-progress rule draws at 100 turns without a capture).

    python benchmarks/no_repeat.py --positions 60 --json

Builds the 2–4-stone tables first where missing (``--dir``, default the user data directory).
With ``--json`` the last line is one object: ``{"positions", "won", "repeated",
"repeated_ahead", "not_won", "nodes", "failures": [...]}``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from dataclasses import replace
from pathlib import Path

from abstracta import load_game
from abstracta.ai.base import Budget
from abstracta.ai.levels import level_bot, level_search
from abstracta.games.fanorona.egtb import TableSet, decode
from abstracta.games.fanorona.rules import FanoronaState
from abstracta.games.fanorona.solve import TablePlayer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=4610)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.dir is not None:
        os.environ["ABSTRACTA_EGTB_DIR"] = str(args.dir)
    game = load_game("fanorona")
    directory = args.dir or game.description.endgame_tables.directory()
    game.description.endgame_tables.build(4, directory)
    tables = TableSet(game, directory)
    defender = TablePlayer(tables)
    search = replace(level_search(game, 6), oracle=None, evaluator=game.description.evaluator,
                     max_nodes=args.nodes)
    rng = random.Random(args.seed)
    n = game.geometry.n
    won = repeated = repeated_ahead = not_won = 0
    failures = []
    t0 = time.process_time()
    for k in range(args.positions):
        while True:
            a = rng.choice((2, 3))
            points = rng.sample(range(n), a + 1)
            own, opp = sum(1 << p for p in points[:a]), 1 << points[a]
            value, d = decode(tables.code(own, opp))  # type: ignore[arg-type]
            if value == 1 and d >= 5:
                break
        side = rng.randrange(2)
        state = FanoronaState(game, *((own, opp) if side == 0 else (opp, own)), side)
        start = state.to_text()
        bot = level_bot(game, 6, k, search=search, budget=Budget(depth=64))
        seen, again, ahead, turns, value = {state.hash_key()}, False, False, 0, 0.0
        inner = getattr(bot, "inner", bot)
        while not state.is_terminal() and turns < 200:
            mover = state.current_player()
            if mover == side:
                action = bot.step(state)
                value = inner.value if len(state.legal_actions()) > 1 else value
            else:
                action = defender.choose(state)
            state.apply_action(action)
            if mover == side and state.current_player() != side:
                turns += 1
                if state.hash_key() in seen:
                    again = True
                    ahead |= value > 0
            if state.chain() is None:
                seen.add(state.hash_key())
        win = state.is_terminal() and state.returns()[side] > 0
        won += win
        repeated += again
        repeated_ahead += ahead
        not_won += not win
        if again or not win:
            failures.append({"position": start, "distance": d, "turns": turns, "won": win, "repeated": again,
                             "repeated_ahead": ahead, "seed": k})
    seconds = time.process_time() - t0
    print(f"Fanorona 9×5, level 6's search without tables ({args.nodes:,} positions an action) as the winner "
          f"of {args.positions} random won 2v1/3v1 positions, the tables defending")
    print(f"won {won}, repeated a position in {repeated} ({repeated_ahead} while ahead), not won {not_won}; "
          f"{seconds:.0f} CPU s")
    for f in failures[:20]:
        print("failure:", json.dumps(f))
    if args.json:
        print(json.dumps({"positions": args.positions, "won": won, "repeated": repeated,
                          "repeated_ahead": repeated_ahead, "not_won": not_won,
                          "nodes": args.nodes, "seed": args.seed, "failures": failures,
                          "cpu_seconds": round(seconds, 1)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
