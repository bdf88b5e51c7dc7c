"""Level N against copies of level N−1 in a 3–4 player game, on fresh seeds (issue 46 §3: Slide
Checkers' level 4 against two level 3 players, measured again outside the ladder's seeds).

Each game seats one level alone against copies of the other, each level alone at every seat
in turn (``abstracta.ai.tournament.schedule``), and scores it as the ladder does: the lone seat
against each other seat, higher return 1, equal ½, lower 0, averaged; level N's score is that,
or 1 minus it when level N−1 sits alone.

    python benchmarks/multi_levels.py slide-checkers --option players=3 --games 12 --seed 4640 --json
    python benchmarks/multi_levels.py slide-checkers --option players=4 --games 48 --minutes 20 \
        --executor ray --json

``--minutes M`` bounds a run on a shared machine: the games that finish within M minutes of wall
time are scored and the rest are not played (the executor is stopped; Ray or serial only, as a
process pool would wait for its running games). An interrupt (Ctrl-C, SIGINT) likewise scores
the games finished. The games are played with each level alone in turn (level N
alone, then level N−1 alone, …), so a stopped run has played both sides about equally.

With ``--json`` the last line is one object: ``{"players", "games", "scheduled", "score", "low",
"high", "upper_alone_score", "lower_alone_score", "unfinished", "seed", "minutes", "per_game":
[...]}`` (scores of the upper level, 95 % Wilson interval; ``games`` are the games scored).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from levels import interval  # noqa: E402

from abstracta import load_game  # noqa: E402
from abstracta.ai.tournament import GameOutcome, GameTask, lone_score, run_tasks, schedule  # noqa: E402


class _OutOfTime(Exception):
    """Raised from a finished game's callback once ``--minutes`` have passed: stops the executor."""


def interleaved(tasks: list[GameTask]) -> list[GameTask]:
    """The schedule in playing order: the upper level alone, then the lower, in turn (the
    schedule seats one level alone at every seat before the other), so that a run stopped early
    has played both sides about equally. Each task keeps its own ``index``."""
    upper = [t for t in tasks if not t.first_is_lone]
    lower = [t for t in tasks if t.first_is_lone]
    out = [t for pair in zip(upper, lower) for t in pair]
    return out + upper[len(lower):] + lower[len(upper):]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--option", action="append", default=[], metavar="K=V")
    parser.add_argument("--upper", type=int, default=4)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=4640)
    parser.add_argument("--executor", default="process", choices=("serial", "process", "ray"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=None,
                        help="score the games finished within this wall time and stop (ray or serial)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.minutes is not None and args.executor == "process":
        parser.error("--minutes needs --executor ray or serial (a process pool waits for its running games)")
    options = dict(item.split("=", 1) for item in args.option)
    game = load_game(args.game, **options)
    lower, upper = f"level:{args.upper - 1}", f"level:{args.upper}"
    _, _, tasks = schedule(game, [lower, upper], args.games, seed=args.seed)
    t0 = time.perf_counter()
    per_game = []

    def done(outcome: GameOutcome) -> None:
        task = tasks[outcome.index]
        s = lone_score(outcome.returns, task.lone)
        upper_alone = not task.first_is_lone  # the lone seat plays the pairing's second spec
        per_game.append({"seed": task.seed, "seats": list(task.specs), "returns": outcome.returns,
                         "plies": outcome.plies, "upper_alone": upper_alone,
                         "score": s if upper_alone else 1.0 - s})
        print(f"game {len(per_game)}: {'level %d alone' % args.upper if upper_alone else 'level %d alone' % (args.upper - 1)}"
              f", upper level's score {per_game[-1]['score']:.2f}, {outcome.plies} plies", flush=True)
        if args.minutes is not None and time.perf_counter() - t0 >= 60 * args.minutes:
            raise _OutOfTime

    stopped = None
    try:
        run_tasks(interleaved(tasks), args.executor, args.workers, on_done=done)
    except _OutOfTime:
        stopped = f"after {args.minutes} minutes"
    except KeyboardInterrupt:  # Ctrl-C or SIGINT: score what has finished (the game being played is lost)
        stopped = "interrupted"
    if stopped:
        print(f"stopped {stopped}: {len(per_game)} of {len(tasks)} games scored", flush=True)
    per_game.sort(key=lambda g: g["seed"])
    n = len(per_game)
    if n == 0:
        print("no game finished: nothing to score")
        return 1
    score = sum(g["score"] for g in per_game)
    low, high = interval(score, n)
    alone = [g["score"] for g in per_game if g["upper_alone"]]
    others = [g["score"] for g in per_game if not g["upper_alone"]]
    row = {"game": args.game, "options": options, "players": game.num_players, "games": n, "scheduled": len(tasks),
           "stopped": stopped,
           "score": round(score / n, 4), "low": round(low, 4), "high": round(high, 4),
           "upper_alone_score": round(sum(alone) / len(alone), 4) if alone else None,
           "lower_alone_score": round(sum(others) / len(others), 4) if others else None,
           "unfinished": sum(1 for g in per_game if g["returns"] is None), "seed": args.seed,
           "minutes": round((time.perf_counter() - t0) / 60, 1), "per_game": per_game}
    print(f"{args.game} {options}: level {args.upper} against level {args.upper - 1}, {n} games: "
          f"{100 * row['score']:.1f} % (95 % interval {100 * low:.0f}-{100 * high:.0f} %)")
    if args.json:
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
