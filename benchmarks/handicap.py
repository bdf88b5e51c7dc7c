"""Can a weakened player split a step of the ladder? (issue 17 §3)

A pairing ``A/B`` plays A against B on duplicate games (each seed twice, seats swapped) and
prints A's score. Besides any seat spec (``abstracta.ai.levels``), a spec may be
``eps:P@SPEC``: SPEC, but each decision with more than one legal action is a uniformly random
legal action with probability P — the usual handicap between random play (P = 1) and SPEC
(P = 0). If A/random and greedy/A both stay well under 65 % for every P, no such player can
make two ladder steps out of greedy/random.

    python benchmarks/handicap.py fibonacci-cards --pairs greedy/random,eps:0.5@greedy/random,greedy/eps:0.5@greedy --games 600 --seed 7000

Prints a table, then one JSON line: ``{"game", "options", "games", "seed", "pairs": [{"a", "b",
"score"}]}``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from abstracta import load_game
from abstracta.ai.levels import make_bot
from abstracta.ai.match import bot_seed, play_game
from abstracta.core.errors import OptionError
from abstracta.core.options import parse_option_pairs


class Handicapped:
    """``inner`` playing a uniformly random legal action with probability ``p`` per decision."""

    def __init__(self, inner: Any, p: float, seed: int, name: str):
        self.inner, self.p, self.name = inner, p, name
        self.rng = random.Random(seed ^ 0x5EED)

    def restart(self) -> None:
        self.inner.restart()

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) > 1 and self.rng.random() < self.p:
            return legal[self.rng.randrange(len(legal))]
        return self.inner.step(state)


def bot(spec: str, game: Any, seed: int) -> Any:
    """The bot of ``spec``: a seat spec or ``eps:P@SPEC`` (SPEC itself a bot, handicapped or not).
    Raises ValueError: a bad P, no SPEC, or a person (``human``) where a bot must play."""
    if spec.startswith("eps:"):
        head, _, inner = spec[4:].partition("@")
        p = float(head)
        if not 0.0 <= p <= 1.0 or not inner:
            raise ValueError(f"{spec!r}: expected eps:P@SPEC with 0 <= P <= 1")
        return Handicapped(bot(inner, game, seed), p, seed, spec)
    made = make_bot(spec, game, seed)
    if made is None:
        raise ValueError(f"{spec!r}: a bot, not a person")
    return made


def score(game: Any, a: str, b: str, games: int, seed: int) -> float:
    """A's mean score (win 1, draw ½) over ``games`` games: seed ``seed + i // 2``, seats
    swapped on every second game."""
    total = 0.0
    for i in range(games):
        game_seed, swapped = seed + i // 2, i % 2
        specs = [b, a] if swapped else [a, b]
        bots = [bot(spec, game, bot_seed(2 * game_seed + swapped, seat)) for seat, spec in enumerate(specs)]
        _, _, final, _ = play_game(game, bots, seed=game_seed)
        returns = final.returns() if final.is_terminal() else [0.0] * game.num_players
        total += (returns[1 if swapped else 0] + 1) / 2
    return total / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--option", action="append", default=[], help="K=V")
    parser.add_argument("--pairs", required=True, help="A/B,A/B,… (seat specs or eps:P@SPEC)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        options = parse_option_pairs(args.option)
    except OptionError as exc:
        parser.error(str(exc))
    game = load_game(args.game, **options)
    if game.num_players != 2:
        parser.error("two-player games only")
    rows = []
    print(f"{'A':>24} {'B':>24} {'A scores':>9}  ({args.games} games, seeds from {args.seed})")
    for pair in args.pairs.split(","):
        a, _, b = pair.partition("/")
        value = score(game, a.strip(), b.strip(), args.games, args.seed)
        rows.append({"a": a.strip(), "b": b.strip(), "score": round(value, 4)})
        print(f"{a.strip():>24} {b.strip():>24} {100 * value:8.1f} %", flush=True)
    print(json.dumps({"game": args.game, "options": options, "games": args.games, "seed": args.seed,
                      "pairs": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
