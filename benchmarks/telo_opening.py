"""Is a player no worse than random in Fanoron-Telo's opening? (issue 46 §3)

Telo is solved (``abstracta solve fanorona --option size=telo``: a win for White in 11 turns),
so every turn can be judged: it *keeps* the mover's value (a won position stays won, a drawn
one drawn) or throws it away. Each PLAYER plays ``--games`` games as White and as Black against
``--opponent`` from the start; for its first ``--turns`` turns the script records whether the
turn kept the value, and what share of the legal turns in that position would have kept it —
what a random player keeps on average there.

    python benchmarks/telo_opening.py level:3 mcts:i300 --games 20 --json

With ``--json`` the last line is one object: ``{"rows": [{"player", "colour", "turns", "kept",
"random_kept", "first_turn_kept", "first_turn_random"}], ...}`` (shares in [0, 1]).
"""

from __future__ import annotations

import argparse
import json
import time

from abstracta import load_game
from abstracta.ai.levels import make_bot
from abstracta.games.fanorona import egtb
from abstracta.games.fanorona.solve import table_player


def turn_values(state, player) -> list[int]:
    """The value for the mover after each complete turn it can play from ``state`` (a turn start)."""
    ends: list[tuple[int, int]] = []
    egtb.turn_ends(state.clone(), ends)
    out = []
    for own, opp in ends:  # (next mover's stones, the mover's)
        value, _ = egtb.decode(player.lookup.code(own, opp))
        out.append(-value)
    return out


def value_of(state, player) -> int:
    return egtb.decode(player.position_code(state))[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("players", nargs="+", help="seat specs, e.g. level:3 mcts:i300")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--games", type=int, default=20, help="games per colour")
    parser.add_argument("--turns", type=int, default=3, help="the player's first turns judged per game")
    parser.add_argument("--seed", type=int, default=4630)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    game = load_game("fanorona", size="telo")
    tables = table_player(game)
    rows = []
    t0 = time.perf_counter()
    for spec in args.players:
        for colour in (0, 1):
            kept = random_kept = 0.0
            turns = 0
            first_kept = first_random = 0.0
            for g in range(args.games):
                seed = args.seed + 1000 * colour + g
                bots = {colour: make_bot(spec, game, seed=seed), 1 - colour: make_bot(args.opponent, game, seed=seed + 1)}
                state = game.new_initial_state()
                judged = 0
                while not state.is_terminal() and judged < args.turns:
                    mover = state.current_player()
                    if mover == colour:
                        before = value_of(state, tables)
                        options = turn_values(state, tables)
                        share = sum(v == before for v in options) / len(options)
                    while not state.is_terminal() and state.current_player() == mover:
                        state.apply_action(bots[mover].step(state))
                    if mover == colour:
                        after = -value_of(state, tables) if not state.is_terminal() else \
                            (1 if state.returns()[colour] > 0 else -1 if state.returns()[colour] < 0 else 0)
                        kept += after == before
                        random_kept += share
                        if judged == 0:
                            first_kept += after == before
                            first_random += share
                        judged += 1
                        turns += 1
            rows.append({"player": spec, "colour": "White" if colour == 0 else "Black", "games": args.games,
                         "turns": turns, "kept": round(kept / turns, 3), "random_kept": round(random_kept / turns, 3),
                         "first_turn_kept": round(first_kept / args.games, 3),
                         "first_turn_random": round(first_random / args.games, 3)})
    print(f"Fanoron-Telo: the first {args.turns} turns of each player, {args.games} games a colour against "
          f"{args.opponent}: the share of turns that kept the mover's value (won stays won, drawn stays drawn)")
    print("| player | colour | turns judged | kept | random would keep | first turn kept | random would keep |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r['player']} | {r['colour']} | {r['turns']} | {100 * r['kept']:.0f} % | {100 * r['random_kept']:.0f} % | "
              f"{100 * r['first_turn_kept']:.0f} % | {100 * r['first_turn_random']:.0f} % |")
    if args.json:
        print(json.dumps({"game": "fanorona", "options": {"size": "telo"}, "opponent": args.opponent,
                          "turns_per_game": args.turns, "seed": args.seed, "rows": rows,
                          "seconds": round(time.perf_counter() - t0, 1)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
