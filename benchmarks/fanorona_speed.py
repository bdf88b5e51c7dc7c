"""Fanorona engine speed: perft nodes/s (apply+undo of every leaf) and random playouts.

Run: ``.venv/bin/python benchmarks/fanorona_speed.py [--seconds S]``. Prints one table row
per board size. Perft depth per size is the smallest depth with >= 100,000 leaves.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from abstracta import load_game, perft

PERFT_DEPTH = {"tsivy": 8, "dimy": 10, "telo": 20}


def bench_perft(size: str, depth: int) -> tuple[int, float]:
    state = load_game("fanorona", size=size).new_initial_state()
    t0 = time.perf_counter()
    nodes = perft(state, depth)
    return nodes, time.perf_counter() - t0


def bench_random(size: str, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    game = load_game("fanorona", size=size)
    rng = random.Random(seed)
    games = actions = 0
    randrange = rng.randrange
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        legal_actions, apply_action, is_terminal = state.legal_actions, state.apply_action, state.is_terminal
        while not is_terminal():
            legal = legal_actions()
            apply_action(legal[randrange(len(legal))])
            actions += 1
        games += 1
    return games, actions, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="random-play time per size")
    parser.add_argument("--sizes", default="tsivy,dimy,telo")
    args = parser.parse_args(argv)
    print(f"{'size':6} {'depth':>5} {'perft leaves':>12} {'nodes/s':>10} "
          f"{'playouts/s':>10} {'actions/s':>10} {'plies/game':>10}")
    for size in args.sizes.split(","):
        depth = PERFT_DEPTH[size]
        nodes, pt = bench_perft(size, depth)
        games, actions, rt = bench_random(size, args.seconds)
        print(f"{size:6} {depth:5d} {nodes:12d} {nodes / pt:10.0f} {games / rt:10.1f} "
              f"{actions / rt:10.0f} {actions / max(games, 1):10.1f}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
