"""The domain's CPU per move, without HTTP (issue 44 §1): what a move costs the match service —
the act (checked, stored in SQLite, announced) and the views it is answered and pushed with (the
mover's and each seat's, encoded) — at each span of a game's length, so that a move at ply 300
can be compared with one at ply 20 on a machine too busy for the server's figures
(benchmarks/move_cpu.py) to show a change of a tenth of a millisecond.

Plays ``--matches`` matches of each game given between two people (every seat's token held, as
pass and play), a seeded random legal move at a time, each until it ends or reaches ``--plies``;
measures the process's CPU (``time.process_time``) around each move's act and views.

    python benchmarks/view_cpu.py [--games fibonacci] [--plies 600] [--matches 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from abstracta.server.service import MatchService
from abstracta.server.storage import Store

#: the first ply of each span reported (a move made at ply 20 falls in the first)
SPANS = (0, 50, 150, 300, 600, 1000)


def span_of(ply: int) -> str:
    first = max(edge for edge in SPANS if edge <= ply)
    after = [edge for edge in SPANS if edge > ply]
    return f"{first}-{after[0] - 1}" if after else f"{first}-"


def run(games: list[str], plies: int, matches: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="abstracta-view-cpu-") as folder:
        store = Store(f"sqlite:///{Path(folder) / 'views.db'}")
        service = MatchService(store, bot_workers=0)
        spans: dict[str, list[float]] = {}  # per span of plies: [moves, CPU seconds]
        try:
            for game in games:
                for _ in range(matches):
                    match, grant = service.create(game, None, ["human", "human"], take="all")
                    tokens = [t["token"] for t in grant["tokens"]]
                    while not match.over and match.ply < plies:
                        action = rng.choice(match.state.legal_action_strings())
                        mover = match.to_move()
                        started = time.process_time()
                        match = service.play(match.id, [action], match.ply, tokens=[tokens[mover]])
                        service.act_view(match, [tokens[mover]])  # the answer
                        for token in tokens:  # each seat's push
                            service.push_view(match.id, service.seats_of(match.id, [token]))
                        span = spans.setdefault(span_of(match.ply - 1), [0, 0.0])
                        span[0] += 1
                        span[1] += time.process_time() - started
        finally:
            service.close()
            store.dispose()
    return {"games": games, "matches_per_game": matches, "plies": plies,
            "by_ply": [{"plies": name, "moves": n, "cpu_ms_per_move": round(1000 * seconds / n, 3)}
                       for name, (n, seconds) in sorted(spans.items(), key=lambda kv: int(kv[0].split("-")[0]))]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="fibonacci", help="games (names, comma-separated; default fibonacci, "
                        "whose random games run on for 1,600 plies)")
    parser.add_argument("--plies", type=int, default=600, help="stop each match at this ply (default 600)")
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.games.split(","), args.plies, args.matches, args.seed)
    print(f"{'plies':<12}{'moves':>7}{'CPU ms/move':>13}")
    for span in result["by_ply"]:
        print(f"{span['plies']:<12}{span['moves']:>7}{span['cpu_ms_per_move']:>13}")
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
