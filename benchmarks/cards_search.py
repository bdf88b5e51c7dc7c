"""Can search gain at all in the Fibonacci card game? (issue 17 §3)

Plays pairs of players with deterministic budgets (iterations, not seconds) on the same deals
with seats swapped (*duplicate* games: deal ``k`` is played twice, each player holding each
hand once, so the luck of the deal cancels), and prints each pairing's score for the first
player with a 95 % interval.

Players are seat specs (``greedy``, ``rule``, ``ismcts:i400`` …) or these, which only this
measurement uses:

* ``leaf:iN[:K]`` — IS-MCTS with N iterations whose playouts stop after K actions (default 0)
  and are scored by the game's evaluator (instead of random playouts to the end);
* ``pimc:DxN[:K]`` — perfect-information Monte Carlo: UCT with N iterations (playouts cut after
  K actions, default 0, and scored by the evaluator) on each of D determinizations, the
  action with the most visits over all of them;
* ``pol:iN[:C]`` — IS-MCTS with N iterations (exploration constant C, default 1.4) whose
  playouts play the game's playout policy (``evaluate.playout_policy``) instead of random plays;
* ``infer-SPEC`` — SPEC whose determinizations respect what the opponent's draws and passes
  showed about his hand (``resample_from_infostate(..., infer=True)``; the bots' default
  deals the unseen cards uniformly);
* ``hand-SPEC`` — SPEC whose determinizations keep the opponent's **true hand** and shuffle
  only the stock (not a legal player: an upper bound on what inferring his hand could gain);
* ``cheat:iN`` — UCT on the **true** state (it sees both hands and the stock): not a legal
  player, an upper bound on what any search could gain from knowing more.

    python benchmarks/cards_search.py --pairs greedy/random,ismcts:i400/greedy,cheat:i400/greedy --deals 40
    python benchmarks/cards_search.py --pairs infer-ismcts:i200/ismcts:i200 --deals 20 --json
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
from typing import Any

from abstracta import load_game
from abstracta.ai import make_bot
from abstracta.ai.base import Budget, check_playable, most_visited
from abstracta.ai.match import bot_seed, play_game

GAME = "fibonacci-cards"


class CheatingUCT:
    """UCT searching the true state (both hands and the stock order): an upper bound only."""

    def __init__(self, game: Any, iterations: int, seed: int):
        from abstracta.ai.mcts import MCTSBot

        self.inner = MCTSBot(game, Budget(iterations=iterations), seed=seed)
        self.name = f"cheat:i{iterations}"

    def restart(self) -> None:
        self.inner.restart()

    def step(self, state: Any) -> int:
        check_playable(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        root = self.inner.search(state.clone())
        best = most_visited(ch for ch in root.children if ch.action in set(legal))
        return best.action if best is not None else legal[0]


class PIMC:
    """UCT on each of ``d`` determinizations; plays the action visited most over all of them."""

    def __init__(self, game: Any, d: int, iterations: int, cap: int, seed: int):
        import random

        from abstracta.ai.mcts import MCTSBot

        self.inner = MCTSBot(game, Budget(iterations=iterations), seed=seed, max_rollout_actions=cap)
        self.rng = random.Random(seed)
        self.d = d
        self.name = f"pimc:{d}x{iterations}:{cap}"

    def restart(self) -> None:
        self.inner.restart()

    def step(self, state: Any) -> int:
        player = check_playable(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        visits = {a: 0 for a in legal}
        for _ in range(self.d):
            root = self.inner.search(state.resample_from_infostate(player, self.rng))
            for child in root.children:
                if child.action in visits:
                    visits[child.action] += child.visits
        return max(legal, key=lambda a: visits[a])


class _Inferring:
    """A state whose determinizations use the inference (delegates everything else)."""

    def __init__(self, state: Any):
        self._state = state

    def resample_from_infostate(self, player: int, rng: Any) -> Any:
        return self._state.resample_from_infostate(player, rng, infer=True)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


class _HandKnown:
    """A state whose determinizations keep the opponent's true hand (an upper bound only)."""

    def __init__(self, state: Any):
        self._state = state

    def resample_from_infostate(self, player: int, rng: Any) -> Any:
        other = self._state.clone()
        stock = other._stock
        rng.shuffle(stock)
        return other

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


class HandKnown:
    """``hand-SPEC``: the bot of SPEC, shown states that determinize with the true opponent hand."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.name = f"hand-{inner.name}"

    def restart(self) -> None:
        self.inner.restart()

    def step(self, state: Any) -> int:
        return self.inner.step(_HandKnown(state))


class Inferring:
    """``infer-SPEC``: the bot of SPEC, shown states that determinize with the inference."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.name = f"infer-{inner.name}"

    def restart(self) -> None:
        self.inner.restart()

    def step(self, state: Any) -> int:
        return self.inner.step(_Inferring(state))


def player(spec: str, game: Any, seed: int) -> Any:
    """A bot for ``spec`` (see the module docstring)."""
    if spec.startswith("hand-"):
        return HandKnown(player(spec[len("hand-"):], game, seed))
    if spec.startswith("infer-"):
        return Inferring(player(spec[len("infer-"):], game, seed))
    kind, _, rest = spec.partition(":")
    if kind == "cheat":
        return CheatingUCT(game, int(rest.lstrip("i")), seed)
    if kind == "pimc":
        d, _, rest2 = rest.partition("x")
        budget, _, cap = rest2.partition(":")
        return PIMC(game, int(d), int(budget), int(cap or 0), seed)
    if kind == "pol":
        from abstracta.ai.ismcts import ISMCTSBot
        from abstracta.games.fibonacci_cards.evaluate import playout_policy

        budget, _, c = rest.partition(":")
        return ISMCTSBot(game, Budget(iterations=int(budget.lstrip("i"))), seed=seed, c=float(c or 1.4),
                         playout=playout_policy, name=spec)
    if kind == "leaf":
        from abstracta.ai.ismcts import ISMCTSBot

        budget, _, cap = rest.partition(":")
        return ISMCTSBot(game, Budget(iterations=int(budget.lstrip("i"))), seed=seed,
                         max_rollout_actions=int(cap or 0), name=spec)
    bot = make_bot(spec, game, seed=seed)
    if bot is None:
        raise ValueError(f"{spec!r}: a measurement needs bots")
    return bot


def play(task: tuple[str, str, int, int]) -> float:
    """Score of ``a`` (1 win, ½ draw, 0 loss) in deal ``deal`` with ``a`` at seat ``seat_a``."""
    a, b, deal, seat_a = task
    game = load_game(GAME)
    specs = [a, b] if seat_a == 0 else [b, a]
    bots = [player(spec, game, bot_seed(deal, seat)) for seat, spec in enumerate(specs)]
    _, _, final, _ = play_game(game, bots, seed=deal)
    r = final.returns()[seat_a]
    return 1.0 if r > 0 else 0.5 if r == 0 else 0.0


def wilson(score: float, n: int) -> tuple[float, float]:
    p, z = score / n, 1.959964
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", required=True, help="A/B,C/D…: score of A against B")
    parser.add_argument("--deals", type=int, default=20, help="deals per pairing (each played twice)")
    parser.add_argument("--seed", type=int, default=0, help="first deal's seed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    pairs = [tuple(p.split("/")) for p in args.pairs.split(",")]
    rows = []
    with multiprocessing.Pool(args.workers) as pool:
        for a, b in pairs:
            tasks = [(a, b, args.seed + k, seat) for k in range(args.deals) for seat in (0, 1)]
            scores = pool.map(play, tasks, chunksize=1)
            n, s = len(scores), sum(scores)
            lo, hi = wilson(s, n)
            rows.append({"a": a, "b": b, "games": n, "score": s / n, "low": lo, "high": hi})
            print(f"{a:>16} vs {b:<16} {n:4d} games  {100 * s / n:5.1f} %  ({100 * lo:.0f}–{100 * hi:.0f} %)",
                  flush=True)
    if args.json:
        print(json.dumps({"game": GAME, "seed": args.seed, "deals": args.deals, "pairs": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
