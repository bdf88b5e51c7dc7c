"""Fanorona engine speed: perft nodes/s (apply+undo of every leaf) and random playouts.

Run: ``.venv/bin/python benchmarks/fanorona_speed.py [--seconds S] [--wall]``. Prints one
table row per board size. Perft depth per size is the smallest depth with >= 100,000 leaves
(Tsivy 8: 156,196; Dimy 10: 163,395; Telo 20). Times are CPU time of this process
(``time.process_time``) so that other load on the machine does not distort them; ``--wall``
uses wall-clock time instead. Random play: uniformly random legal actions from the start
until the game ends (``random.Random(1)``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from abstracta import load_game, perft

PERFT_DEPTH = {"tsivy": 8, "dimy": 10, "telo": 20}


clock = time.process_time


def bench_perft(size: str, depth: int) -> tuple[int, float]:
    state = load_game("fanorona", size=size).new_initial_state()
    t0 = clock()
    nodes = perft(state, depth)
    return nodes, clock() - t0


def bench_random(size: str, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    game = load_game("fanorona", size=size)
    rng = random.Random(seed)
    games = actions = 0
    randrange = rng.randrange
    t0 = clock()
    while clock() - t0 < seconds:
        state = game.new_initial_state()
        legal_actions, apply_action, is_terminal = state.legal_actions, state.apply_action, state.is_terminal
        while not is_terminal():
            legal = legal_actions()
            apply_action(legal[randrange(len(legal))])
            actions += 1
        games += 1
    return games, actions, clock() - t0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="random-play time per size")
    parser.add_argument("--sizes", default="tsivy,dimy,telo")
    parser.add_argument("--wall", action="store_true", help="wall-clock instead of CPU time")
    args = parser.parse_args(argv)
    global clock
    if args.wall:
        clock = time.perf_counter
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
