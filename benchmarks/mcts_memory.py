"""MCTS memory and speed over one long search (issue: "a 10-second search stays under 1 GB").

    python benchmarks/mcts_memory.py [SECONDS] [GAME] [KEY=VALUE ...]

Runs one MCTS search of SECONDS (default 10) on Fanorona 9x5 from the start in this process and
prints a table: iterations, iterations/s, tree nodes, peak resident memory (ru_maxrss).
"""

import resource
import sys
import time

from rich.console import Console
from rich.table import Table

import abstracta
from abstracta.ai.levels import make_bot


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    name = sys.argv[2] if len(sys.argv) > 2 else "fanorona"
    options = dict(a.split("=", 1) for a in sys.argv[3:]) or ({"size": "tsivy"} if name == "fanorona" else {})
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


if __name__ == "__main__":
    main()
