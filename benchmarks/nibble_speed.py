"""Nibble engine speed: random playouts per variant, with and without layout generation.

Run: ``.venv/bin/python benchmarks/nibble_speed.py [--seconds S] [--wall]``. One table row per
variant: uniformly random legal engine actions (``random.Random(1)``) until the game ends,

* "from start": playouts from 20 prepared initial states (seeds 0–19), cloned per playout;
* "new games": every playout creates a new game with a fresh seed, so the seeded layout of
  nibble.md §8 (thousands of generator draws) is included.

Times are CPU time of this process (``time.process_time``) so that other load on the machine
does not distort them; ``--wall`` uses wall-clock time instead.
"""

from __future__ import annotations

import argparse
import random
import time

from abstracta import load_game

VARIANTS = ("square9", "square13", "hex")


def playouts(variant: str, seconds: float, fresh: bool, clock) -> tuple[int, int, float]:
    """(games, actions, seconds) of random play for about ``seconds``."""
    game = load_game("nibble", variant=variant)
    starts = [game.new_initial_state(seed=s) for s in range(20)]
    rng = random.Random(1)
    games = actions = 0
    t0 = clock()
    while clock() - t0 < seconds:
        state = game.new_initial_state(seed=1_000_000 + games) if fresh else starts[games % 20].clone()
        games += 1
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
    return games, actions, clock() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--wall", action="store_true", help="wall-clock instead of CPU time")
    args = parser.parse_args()
    clock = time.perf_counter if args.wall else time.process_time
    print(f"{'variant':9s} {'from start: playouts/s':>23s} {'actions/s':>10s}   "
          f"{'new games: playouts/s':>22s} {'actions/s':>10s}")
    for variant in VARIANTS:
        g1, a1, t1 = playouts(variant, args.seconds, False, clock)
        g2, a2, t2 = playouts(variant, args.seconds, True, clock)
        print(f"{variant:9s} {g1 / t1:23.1f} {a1 / t1:10.0f}   {g2 / t2:22.1f} {a2 / t2:10.0f}")


if __name__ == "__main__":
    main()
