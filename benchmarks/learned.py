"""Does a game's learned value beat its hand-tuned evaluator at equal positions searched (issue 47)?

For every game whose default variant declares a learned value (``GameDescription.learned``;
or the variants named by ``--only``) the game's level-4 alpha-beta
plays itself, one side reading the learned value and the other the game's own evaluator
(``GameDescription.evaluator``: the hand-set or ``abstracta tune``-tuned one), both held to the
same ``--nodes`` positions an action and no time limit (``abstracta.ai.learn.play_pair``).
Each opening (``--opening`` seeded random actions) is played twice, the learned value once
from each seat. Games are played in batches (``--executor ray``: Ray tasks on a local
``ray.init()`` or ``--ray-address``; ``process``; ``serial`` for a quick check) until a
sequential probability ratio test decides:

SPRT: H0 "the learned value is 0 Elo better" (mean score 0.5) against H1 "it is ``--elo1``
(default 50) Elo better" (mean score ``1 / (1 + 10^(−elo1/400))`` ≈ 0.5715), α = β = 0.05, on
per-game scores (draws and cut games ½) — the ladder's test (``benchmarks/levels.py``: the
Bernoulli likelihood read with fractional scores) with these two hypotheses. LLR ≥ ln(19)
accepts H1 (``accepted``: the learned value is kept), ≤ −ln(19) accepts H0 (``rejected``);
``undecided`` when ``--max-games`` or ``--minutes`` run out first. The Elo and its 95 %
interval are the ladder's (Bradley–Terry with one virtual draw, ``abstracta.ai.tournament``).

    python benchmarks/learned.py --executor serial --max-games 4          # a quick check
    python benchmarks/learned.py --executor ray --json                    # the measurement
    python benchmarks/record.py learned -- python benchmarks/learned.py --executor ray
    python benchmarks/record.py learned -- python benchmarks/learned.py --only slide-checkers \
        --carry benchmarks/results/learned.json       # one game again, the others kept as measured

``--level N`` asks instead whether level N gains: both sides play that level's own search
(greedy, MCTS, alpha-beta …) at its seconds, one reading the learned value, the other the
evaluator — time, not positions, is equal, so a learned value that costs more per position
pays for it here (and games are not reproducible). Recorded apart:

    python benchmarks/record.py learned-level-3 -- python benchmarks/learned.py --only slide-checkers \
        --level 3 --executor process --workers 2

The last line with ``--json``: ``{"games": {"nibble": {"elo": …, "interval": [low, high],
"sprt": "accepted"|"rejected"|"undecided", "games": N, …}, "fanorona": {…}}}``; ``record.py``
keeps it in ``benchmarks/results/learned.json``, from which ``benchmarks/strength_page.py``
writes the docs' table. ``--carry FILE`` (a file ``record.py`` wrote) keeps the games this run
does not measure as that file measured them, each entry with ``carried``: the command, commit and
date of its own measurement (a run measures a game again without replaying the others).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any, Sequence

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import levels as ladder  # noqa: E402  benchmarks/levels.py: the ladder's SPRT and interval

from abstracta import load_game  # noqa: E402
from abstracta.ai.learn import learned_value, pair_tasks, run_pairs  # noqa: E402
from abstracta.ai.levels import LEVELS, level_search  # noqa: E402
from abstracta.ai.tournament import elo_ratings  # noqa: E402

ALPHA = BETA = 0.05
UPPER = math.log((1 - BETA) / ALPHA)
LOWER = math.log(BETA / (1 - ALPHA))


def default_games() -> list[str]:
    """The games whose default variant declares a learned value (measured without ``--only``)."""
    from abstracta.core.registry import registered_games

    return [name for name in registered_games() if load_game(name).description.learned is not None]


def expected_score(elo: float) -> float:
    """Mean score of a side ``elo`` Elo stronger (the logistic Elo curve)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def sprt(score: float, games: int, elo0: float = 0.0, elo1: float = 50.0) -> tuple[str, float]:
    """(verdict, LLR) of ``score`` points in ``games`` games: ``accepted`` (H1: ``elo1``),
    ``rejected`` (H0: ``elo0``) or ``undecided``; α = β = 0.05."""
    value = ladder.llr(score, games, expected_score(elo0), expected_score(elo1))
    if value >= UPPER:
        return "accepted", value
    if value <= LOWER:
        return "rejected", value
    return "undecided", value


def elo_of(score: float, games: int) -> tuple[float, float, float]:
    """(Elo, low, high) of the learned side over the evaluator from its ``score`` in ``games``
    games: the ladder's Bradley–Terry fit (one virtual draw), 95 % interval."""
    rating = elo_ratings(2, [(0, 1, games, games - score)])[1]
    return rating.elo, rating.low, rating.high


def parse_only(text: str) -> tuple[str, dict[str, str]]:
    name, _, opts = text.partition(":")
    return name, dict(o.split("=", 1) for o in opts.split(",") if o)


def measure(name: str, options: dict[str, str], args: argparse.Namespace) -> dict[str, Any]:
    """Play batches of one game until the SPRT decides or the limits stop it."""
    game = load_game(name, **options)
    learned = learned_value(game)
    results: list[dict[str, Any]] = []
    started = time.monotonic()
    verdict, llr_value = "undecided", 0.0
    nodes = None if args.level else args.nodes  # a level plays its seconds
    while len(results) < args.max_games and time.monotonic() - started < 60 * args.minutes:
        size = min(args.batch, args.max_games - len(results))
        tasks = pair_tasks(game, len(results), size, nodes, args.opening, args.seed, args.level)
        results.extend(run_pairs(tasks, args.executor, args.workers, args.ray_address))
        score = sum(r["score"] for r in results)
        verdict, llr_value = sprt(score, len(results), args.elo0, args.elo1)
        print(f"{name:10} {len(results):4} games  score {100 * score / len(results):5.1f} %  "
              f"LLR {llr_value:+.2f}  {verdict}", flush=True)
        if verdict != "undecided":
            break
    n = len(results)
    score = sum(r["score"] for r in results)
    elo, low, high = elo_of(score, n)
    wins = sum(r["score"] == 1.0 for r in results)
    losses = sum(r["score"] == 0.0 for r in results)
    return {"elo": round(elo, 1), "interval": [round(low, 1), round(high, 1)], "sprt": verdict, "games": n,
            "score": round(score / n, 4) if n else None, "llr": round(llr_value, 3),
            "wins": wins, "draws": n - wins - losses, "losses": losses,
            "options": options, "nodes": nodes, "level": args.level,
            "search": level_search(game, args.level or 4).bot, "opening": args.opening, "seed": args.seed,
            "elo0": args.elo0, "elo1": args.elo1, "seconds": round(time.monotonic() - started, 1),
            "training": {k: v for k, v in learned.meta.items()
                         if k in ("games", "seed", "fit_seed", "bots", "opening", "rows", "hidden", "mix", "epochs",
                                  "held_out_loss", "baseline_loss", "self_play_seconds", "self_play_executor",
                                  "training_seconds", "command")}}


def carried(path: str | Path, measured: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The games of an earlier ``record.py`` file (``benchmarks/results/learned.json``) that are
    not in ``measured``, each with ``carried``: the command, commit and date that measured it
    (kept from the entry where it was carried before).

    Raises:
        ValueError: the file holds no ``result.games``.
    """
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    result = data.get("result") if isinstance(data, dict) else None
    games = result.get("games") if isinstance(result, dict) else None
    if not isinstance(games, dict):
        raise ValueError(f"{path}: no result.games (expected a file benchmarks/record.py wrote)")
    origin = {k: data.get(k) for k in ("command", "commit", "date")}
    return {name: dict(entry, carried=entry.get("carried", origin))
            for name, entry in games.items() if name not in measured}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[],
                        help="GAME or GAME:K=V[,K=V] (repeatable); default: every game that declares a learned value")
    parser.add_argument("--nodes", type=int, default=2000, help="positions each side searches an action")
    parser.add_argument("--level", type=int, default=None, metavar="N",
                        help="play level N's own search at its seconds instead of equal positions")
    parser.add_argument("--opening", type=int, default=6, help="random actions that open every pair of games")
    parser.add_argument("--batch", type=int, default=8, help="games per batch (even: both seats)")
    parser.add_argument("--max-games", type=int, default=400, help="stop undecided after this many games a game")
    parser.add_argument("--minutes", type=float, default=30.0, help="stop undecided after this long a game")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first opening (openings seed, seed+1 …)")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=50.0)
    parser.add_argument("--executor", default="ray", choices=("serial", "process", "ray"))
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--ray-address", default=None)
    parser.add_argument("--carry", default=None, metavar="FILE",
                        help="keep the other games as this earlier record.py file measured them")
    parser.add_argument("--json", action="store_true", help="print the results as JSON on the last line")
    args = parser.parse_args(argv)
    if args.nodes < 1 or args.batch < 1 or args.max_games < 1:
        parser.error("--nodes, --batch and --max-games must be at least 1")
    if args.level is not None and args.level not in LEVELS:
        parser.error(f"--level must be one of {', '.join(map(str, LEVELS))}")
    out: dict[str, Any] = {}
    from abstracta.executors import session

    with session(args.executor, args.workers, args.ray_address):  # one Ray for every batch
        for text in args.only or default_games():
            name, options = parse_only(text)
            out[name] = measure(name, options, args)
    if args.carry:  # the earlier games first, in their order
        out = {**carried(args.carry, list(out)), **out}
    print()
    print(f"{'game':10} {'games':>5} {'score':>7} {'Elo (95 % interval)':>24}  SPRT {args.elo0:g} vs {args.elo1:g} Elo")
    for name, r in out.items():
        print(f"{name:10} {r['games']:5} {100 * (r['score'] or 0):6.1f}% {r['elo']:+7.0f} "
              f"({r['interval'][0]:+.0f} … {r['interval'][1]:+.0f})  {r['sprt']} (LLR {r['llr']:+.2f})"
              + (f"  carried from {r['carried']['commit']}" if "carried" in r else ""))
    if args.json:
        print(json.dumps({"games": out}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
