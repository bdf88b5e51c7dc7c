"""MCTS memory and speed over one long search (issue: "a 10-second search stays under 1 GB").

    python benchmarks/mcts_memory.py SECONDS GAME [KEY=VALUE ...] [--json]
    python benchmarks/mcts_memory.py 10 fanorona size=tsivy

Runs one MCTS search of SECONDS on GAME (with those options) from the start in this process
and prints a table: iterations, iterations/s, peak resident memory (ru_maxrss).
"""

import json
import resource
import sys
import time

from rich.console import Console
from rich.table import Table

import abstracta
from abstracta.ai.levels import make_bot


def main() -> None:
    as_json = "--json" in sys.argv
    argv = [a for a in sys.argv if a != "--json"]
    if len(argv) < 3:
        sys.exit(__doc__)
    seconds = float(argv[1])
    name = argv[2]
    options = dict(a.split("=", 1) for a in argv[3:])
    game = abstracta.load_game(name, **options)
    state = game.new_initial_state(seed=0 if game.has_chance else None)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    bot = make_bot(f"mcts:{seconds}", game, seed=0)
    t0 = time.perf_counter()
    action = bot.step(state)
    elapsed = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    iterations = getattr(bot, "iterations", 0)
    table = Table(title=f"MCTS, one {seconds:g}-second search: {game!r}")
    for col in ("iterations", "iterations/s", "chosen", "peak RSS MiB", "RSS before MiB"):
        table.add_column(col, justify="right")
    table.add_row(f"{iterations:,}", f"{iterations / elapsed:,.0f}", state.action_to_string(action),
                  f"{peak:,.0f}", f"{before:,.0f}")
    Console().print(table)
    if as_json:
        print(json.dumps({"game": name, "options": options, "seconds": seconds, "elapsed": round(elapsed, 2),
                          "iterations": iterations, "peak_mib": round(peak, 1), "before_mib": round(before, 1)}))


if __name__ == "__main__":
    main()
