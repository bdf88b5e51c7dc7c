"""Search speed on the registered games: ``python -m abstracta.ai.bench [SECONDS] [GAME ...]``.

For each game prints random playouts per second (clone the start, play random actions to the
end, at most 400), MCTS iterations per second (default: calibrated walk) and their ratio to
playouts, the same with clone and undo walks forced, IS-MCTS iterations per second, and
alpha-beta nodes per second and depth reached. All from the initial position.
"""

from __future__ import annotations

import random
import sys
import time

from ..core.registry import load_game, registered_games
from .alphabeta import AlphaBetaBot
from .base import Budget
from .ismcts import ISMCTSBot
from .mcts import MCTSBot, rollout



def playouts_per_second(game, seconds: float, max_actions: int = 400) -> tuple[float, float]:
    """(playouts/s, mean actions per playout) from the initial state."""
    start_state = game.new_initial_state(seed=0) if game.has_chance else game.new_initial_state()
    rng = random.Random(0)
    n = game.num_players
    count = plies = 0
    end = time.perf_counter() + seconds
    begin = time.perf_counter()
    while time.perf_counter() < end:
        s = start_state.clone()
        _, k = rollout(s, rng.random, max_actions, game.evaluate, n, rng)
        plies += k
        count += 1
    return count / (time.perf_counter() - begin), plies / max(count, 1)


def main(argv: list[str]) -> None:
    seconds = float(argv[0]) if argv else 2.0
    names = argv[1:] or registered_games()
    print(f"{'game':34} {'playouts/s':>10} {'plies':>6} {'mcts it/s':>9} {'ratio':>5} "
          f"{'clone':>6} {'undo':>6} {'ismcts':>7} {'ab nodes/s':>10} {'depth':>5}")
    for name in names:
        for options in [dict(v.options) for v in load_game(name).description.variants] or [{}]:
            try:
                game = load_game(name, **options)
                state = game.new_initial_state(seed=0) if game.has_chance else game.new_initial_state()
                pps, plies = playouts_per_second(game, seconds)
                rates = []
                for undo in (None, False, True):
                    bot = MCTSBot(game, Budget(seconds=seconds), seed=0, use_undo=undo)
                    bot.search(state)
                    rates.append(bot.iterations / seconds)
                isbot = ISMCTSBot(game, Budget(seconds=seconds), seed=0)
                isbot.search(state)
                ab = "-"
                depth = "-"
                if game.num_players == 2 and not game.has_hidden_information:
                    abbot = AlphaBetaBot(game, Budget(seconds=seconds))
                    t0 = time.perf_counter()
                    abbot.search(state.clone())
                    ab = f"{abbot.nodes / (time.perf_counter() - t0):.0f}"
                    depth = str(abbot.depth)
                label = name + ("" if not options else " " + ",".join(f"{k}={v}" for k, v in options.items()))
                print(f"{label:34} {pps:10.0f} {plies:6.0f} {rates[0]:9.0f} {rates[0] / pps:5.2f} "
                      f"{rates[1]:6.0f} {rates[2]:6.0f} {isbot.iterations / seconds:7.0f} {ab:>10} {depth:>5}",
                      flush=True)
            except ValueError as exc:  # e.g. a search that does not fit the game
                print(f"{name} {options}: {type(exc).__name__}: {exc}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
