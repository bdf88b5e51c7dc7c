"""The level ladder (issue 17 §2, issue 46 §4): does every level a game declares beat the one
below it, by a step of about 65 % (an SPRT of 50 % against 65 %)?

For every game and variant (``GameDescription.variants``) it plays level N against level N−1 —
1–2, 2–3 and 3–4 everywhere, the pairs above up to each game's top level on its default
variant (5–6 where it declares six; the Fibonacci card game declares four); with 3–4 players one
level alone against copies of the other, each level alone at every seat in turn (scored as in
``abstracta.ai.tournament``: the lone seat against each other seat, higher return 1, equal ½,
lower 0, averaged; level N's score is that, or 1 minus it when level N−1 sits alone) — until a
sequential probability ratio test decides, and appends every game to ``benchmarks/levels.json``
so that runs add up across sessions and machines (a pairing's next game continues the seeds
after its games of today's levels, so none of those is played twice; a changed level starts
again from seed 0). Every worker stays busy: a game starts as soon as one is free
(``abstracta.executors.as_finished``; the pairings of a run take turns), not in batches that
wait for their longest game. Games count in seed order only — one that finishes before a
game started earlier waits for it — so short games (often the decisive ones) cannot come in
first and bias the test; games still running when a pairing decides count for nothing (they
are stopped once every pairing of the run has decided, or played out beside the others). Every game stores the fingerprints of
the two levels it measured (``abstracta.ai.levels.level_fingerprint``: the declared search, its
seconds, its bot's revision); only games whose fingerprints match today's levels count, so a
result measured before a bot changed stops counting by itself.

SPRT: H0 "level N scores 50 %" against H1 "level N scores 65 %", α = β = 0.05, on per-game scores
(draws ½): the log-likelihood ratio adds ``s·ln(p1/p0) + (1−s)·ln((1−p1)/(1−p0))`` per game;
≥ ln((1−β)/α) ≈ 2.94 accepts H1 (separated), ≤ ln(β/(1−α)) ≈ −2.94 accepts H0 (not separated),
tested after every ``--batch`` games counted; a pairing undecided after MAX_GAMES games has ``gave up``. This is the
Bernoulli likelihood read with fractional scores: a draw (or a ¼, ⅓ … of a 3–4 player game)
moves it less than a win or a loss would, so draws make the test slower, never looser (its
error bounds hold for any score in [0, 1]). A "separated" pair always has its 95 % interval
above 50 % too (``tests/test_levels_ladder.py``). The test weighs 65 % against 50 %: accepting
65 % says the games fit 65 % better than 50 %, not that the score is 65 % or more (a pair a
little under 65 % passes after many games), so the table gives each pair's score with its 95 %
interval and says which hypothesis the SPRT accepted, with its log-likelihood ratio.

    python benchmarks/levels.py --list                       # the pairings and their state
    python benchmarks/levels.py --only fanorona:size=dimy --pairs 1-2,2-3 --minutes 5
    python benchmarks/levels.py --executor ray --ray-address auto --minutes 120
    python benchmarks/levels.py --table                      # the README's table from the file

Levels think in CPU seconds of their thread (0.2 / 0.5 / 1.5 / 4 s an action for 3–6;
``abstracta.ai.base.search_clock``), so a loaded machine makes a run slower, not its levels
weaker; ``--workers`` beyond the cores only adds waiting.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

from abstracta import load_game
from abstracta.ai.levels import level_fingerprint
from abstracta.ai.tournament import elo_ratings, lone_score, play_task, run_tasks, schedule
from abstracta.executors import as_finished
from abstracta.core.registry import registered_games

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "levels.json"
P0, P1 = 0.5, 0.65
ALPHA = BETA = 0.05
UPPER = math.log((1 - BETA) / ALPHA)
LOWER = math.log(BETA / (1 - ALPHA))
MAX_GAMES = 400      # a pairing still undecided after this many games is reported as such


def llr(score: float, games: int, p0: float = P0, p1: float = P1) -> float:
    """SPRT log-likelihood ratio of ``score`` points in ``games`` games (H1 mean score ``p1``,
    0.65 for the ladder, against H0 ``p0``, 0.5)."""
    return score * math.log(p1 / p0) + (games - score) * math.log((1 - p1) / (1 - p0))


def verdict(score: float, games: int) -> str:
    """``separated`` (H1 accepted), ``not separated`` (H0), ``undecided`` or ``gave up``."""
    value = llr(score, games)
    if value >= UPPER:
        return "separated"
    if value <= LOWER:
        return "not separated"
    return "gave up" if games >= MAX_GAMES else "undecided"


def interval(score: float, games: int) -> tuple[float, float]:
    """95 % Wilson interval of the mean score (draws as halves), in [0, 1]."""
    if not games:
        return 0.0, 1.0
    p, z = score / games, 1.959964
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def pairings() -> list[tuple[str, dict[str, Any], int]]:
    """(game, options, upper level N) of every pairing the ladder measures, in order."""
    out = []
    for name in registered_games():
        game = load_game(name)
        if not type(game).__module__.startswith("abstracta.games."):
            continue  # games installed beside abstracta (examples) are not part of the committed ladder
        for k, variant in enumerate(game.description.variants):
            top = load_game(name, **dict(variant.options)).description.top_level
            for upper in range(2, top + 1 if k == 0 else min(top, 4) + 1):
                out.append((name, dict(variant.options), upper))
    return out


def key(game: str, options: dict[str, Any], upper: int) -> str:
    opts = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{game}{':' + opts if opts else ''} {upper - 1}-{upper}"


def load() -> dict[str, Any]:
    if RESULTS.exists():
        return json.loads(RESULTS.read_text(encoding="utf-8"))
    return {"format": "abstracta-levels", "version": 1, "pairings": {}}


def save(data: dict[str, Any]) -> None:
    RESULTS.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def tasks_of(game_name: str, options: dict[str, Any], upper: int, count: int) -> list[Any]:
    """The pairing's first ``count`` games (level N−1 first, level N second), as
    :func:`abstracta.ai.tournament.schedule` lays them out: game ``i`` is the same whatever
    ``count`` is, so a later run continues the seeds."""
    game = load_game(game_name, **options)
    # a game still running at the cap match and tournament use (ai.match.max_actions_for: the
    # rules' own bound, else 2,000 actions) is unfinished and scores ½
    _, _, tasks = schedule(game, [f"level:{upper - 1}", f"level:{upper}"], count, seed=0)
    return tasks


def scored(task: Any, outcome: Any, prints: list[str]) -> dict[str, Any]:
    """The stored form of one played game: its seed, seats, upper level's score and plies."""
    s = lone_score(outcome.returns, task.lone)
    return {"seed": task.seed, "seats": list(task.specs), "plies": outcome.plies,
            "returns": outcome.returns, "score": 1.0 - s if task.first_is_lone else s, "levels": prints}


def play_batch(game_name: str, options: dict[str, Any], upper: int, start: int, size: int,
               executor: str, workers: int | None, address: str | None) -> list[dict[str, Any]]:
    """Games ``start`` … ``start + size − 1`` of the pairing, played to the end (see :func:`scored`)."""
    tasks = tasks_of(game_name, options, upper, start + size)[start:]
    prints = fingerprints(game_name, options, upper)
    return [scored(task, outcome, prints)
            for task, outcome in zip(tasks, run_tasks(tasks, executor, workers, address))]


class Running:
    """One undecided pairing being played: the games it has offered to the workers, those come
    back but not yet counted (a game counts only once every game before it has: the test
    reads games in seed order, so short games finishing first cannot bias it), and when the
    SPRT is tested next."""

    def __init__(self, data: dict[str, Any], label: str, batch: int):
        self.label, self.entry = label, data["pairings"][label]
        self.counted, _ = summary(self.entry)
        self.offered = self.first = self.counted
        self.tasks = tasks_of(self.entry["game"], self.entry["options"], self.entry["upper"], MAX_GAMES)
        self.prints = fingerprints(self.entry["game"], self.entry["options"], self.entry["upper"])
        self.back: dict[int, dict[str, Any]] = {}  # game number -> its stored form
        self.batch, self.next_test = batch, self.counted + batch
        self.decided = False

    def wants(self) -> bool:
        return not self.decided and self.offered < MAX_GAMES

    def offer(self) -> Any:
        self.offered += 1
        return self.tasks[self.offered - 1]

    def came_back(self, number: int, outcome: Any) -> bool:
        """Store game ``number``; count what it completes, test the SPRT at each batch's end.
        True when the counting moved on (the file should be saved)."""
        if self.decided:
            return False  # played past the decision: not counted, as if never started
        self.back[number] = scored(self.tasks[number], outcome, self.prints)
        moved = False
        while self.counted in self.back:
            self.entry["games"].append(self.back.pop(self.counted))
            self.counted += 1
            moved = True
            if self.counted >= self.next_test or self.counted >= MAX_GAMES:
                self.next_test = self.counted + self.batch
                n, score = summary(self.entry)
                state = verdict(score, n)
                print(f"{self.label:40} {n:4} games  {100 * score / n:5.1f} %  LLR {llr(score, n):+.2f}  {state}",
                      flush=True)
                if state != "undecided":
                    self.decided = True
                    break
        return moved


def play(data: dict[str, Any], labels: list[str], batch: int, deadline: float, most: int | None,
         executor: str, workers: int | None, address: str | None) -> None:
    """Play the undecided pairings ``labels`` with every worker busy until each decides, the
    deadline passes or ``most`` games have started (then the games running are played out and
    counted): the next game goes to the pairing that has offered fewest this run, so all move
    on together. The file is saved whenever a game is counted: an interrupted run keeps them."""
    running = [Running(data, label, batch) for label in labels]
    offered: list[tuple[Running, int]] = []  # per game started: its pairing, its number there

    def games() -> Any:
        while time.monotonic() < deadline and (most is None or len(offered) < most):
            wanting = [r for r in running if r.wants()]
            if not wanting:
                return
            pick = min(wanting, key=lambda r: r.offered - r.first)
            task = pick.offer()
            offered.append((pick, pick.offered - 1))
            yield task

    with contextlib.closing(as_finished(play_task, games(), executor, workers, address)) as stream:
        for i, outcome in stream:
            pairing, number = offered[i]
            if pairing.came_back(number, outcome):
                save(data)
            if all(r.decided for r in running):
                break  # the games still running would count for nothing: stopped
def fingerprints(game_name: str, options: dict[str, Any], upper: int) -> list[str]:
    """Today's fingerprints of levels N−1 and N of the variant."""
    game = load_game(game_name, **options)
    return [level_fingerprint(game, upper - 1), level_fingerprint(game, upper)]


def current(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The games of a pairing that measured today's levels (see the module docstring)."""
    prints = fingerprints(entry["game"], entry["options"], entry["upper"])
    return [g for g in entry["games"] if g.get("levels") == prints]


def summary(entry: dict[str, Any]) -> tuple[int, float]:
    games = current(entry)
    return len(games), sum(g["score"] for g in games)


#: What the SPRT accepted, in the table's words (its verdict: see :func:`verdict`).
ACCEPTED = {"separated": "65 % (over 50 %)", "not separated": "50 % (over 65 %)", "undecided": "neither yet",
            "gave up": f"neither in {MAX_GAMES} games"}


def table(data: dict[str, Any]) -> str:
    """The Markdown table of the ladder: every measured pairing of the levels the games declare
    today, its upper level's score with the 95 % interval, what the SPRT (50 % against 65 %)
    accepted with its log-likelihood ratio, and the Elo of the step."""
    lines = [f"| game | levels | games | upper level's score (95 % interval) | SPRT, 50 % against 65 %: accepted "
             f"(LLR; ±{UPPER:.2f} decides) | Elo of the upper level |",
             "| --- | --- | ---: | ---: | --- | ---: |"]
    for name, options, upper in pairings():
        entry = data["pairings"].get(key(name, options, upper))
        if not entry or not entry["games"]:
            continue
        n, score = summary(entry)
        if not n:
            continue  # only games of earlier levels (stale)
        low, high = interval(score, n)
        # Elo of the upper level over the lower one (lower anchored at 0, virtual-draw prior)
        elo = elo_ratings(2, [(0, 1, n, n - score)])[1]
        game = key(name, options, upper).split(" ")[0]
        lines.append(f"| {game} | {upper - 1}–{upper} | {n} | {100 * score / n:.1f} % "
                     f"({100 * low:.0f}–{100 * high:.0f} %) | {ACCEPTED[verdict(score, n)]} "
                     f"(LLR {llr(score, n):+.2f}) | {elo.elo:+.0f} ({elo.low:+.0f} … {elo.high:+.0f}) |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[],
                        help="GAME or GAME:K=V[,K=V] (repeatable): measure only these variants")
    parser.add_argument("--pairs", default="", help="e.g. 1-2,3-4: only these level pairs")
    parser.add_argument("--batch", type=int, default=4,
                        help="games counted between SPRT tests, per pairing (even: seats balance)")
    parser.add_argument("--minutes", type=float, default=10.0, help="stop starting games after this long (those running are played out)")
    parser.add_argument("--max-batches", type=int, default=None, help="start at most this many batches' games")
    parser.add_argument("--executor", default="process", choices=("serial", "process", "ray"))
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--ray-address", default=None)
    parser.add_argument("--list", action="store_true", help="print the pairings and their state, play nothing")
    parser.add_argument("--table", action="store_true", help="print the README table, play nothing")
    args = parser.parse_args(argv)
    data = load()
    if args.table:
        print(table(data))
        return 0
    wanted_pairs = {tuple(int(x) for x in p.split("-")) for p in args.pairs.split(",") if p}
    todo = []
    for name, options, upper in pairings():
        label = key(name, options, upper)
        if args.only and not any(label.split(" ")[0] == o or name == o for o in args.only):
            continue
        if wanted_pairs and (upper - 1, upper) not in wanted_pairs:
            continue
        entry = data["pairings"].setdefault(label, {"game": name, "options": options, "lower": upper - 1,
                                                    "upper": upper, "games": []})
        n, score = summary(entry)
        if args.list:
            stale = len(entry["games"]) - n
            print(f"{label:40} {n:4} games  {100 * score / n if n else 0:5.1f} %  {verdict(score, n)}"
                  + (f"  ({stale} stale)" if stale else ""))
            continue
        if verdict(score, n) == "undecided":
            todo.append((label, name, options, upper))
    if args.list:
        return 0
    deadline = time.monotonic() + 60 * args.minutes
    most = None if args.max_batches is None else args.max_batches * args.batch
    play(data, [label for label, *_ in todo], args.batch, deadline, most, args.executor, args.workers,
         args.ray_address)
    return 0


if __name__ == "__main__":
    sys.exit(main())
