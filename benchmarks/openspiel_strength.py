"""abstracta's levels 4 and 6 against OpenSpiel's Python MCTS, per two-player game (issue 19).

For each registered game whose first declared variant has two players, abstracta's level 4
and level 6 (the game's strongest search at the level's seconds per action × ``--time-scale``)
play ``--games`` games against OpenSpiel's Python ``MCTSBot`` (UCT, c = 2, one random rollout
per simulation) — ``ISMCTSBot`` for games with hidden information, since MCTS would read the
hidden cards from the state. The simulations per move are calibrated so that OpenSpiel's bot
thinks as long per move as abstracta's: first from a short calibration, then after every move
from the running mean seconds both took on moves with a choice (printed; forced moves are not
timed). OpenSpiel's bot gets at least 2 simulations, which in Fibonacci (random rollouts of
~1,700 actions) already take longer than level 4's budget. Colours alternate;
chance is sampled from ``--seed``. A game cut at ``--max-turns`` player actions counts as a
draw (Fibonacci games run to ~1,700 actions).

    nice -n 10 python benchmarks/openspiel_strength.py --games 4 --time-scale 0.1
    python benchmarks/openspiel_strength.py fanorona --games 2 --json

Score: abstracta's points (win 1, draw ½) out of the games.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import date

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import abstracta
from abstracta.ai.base import Budget
from abstracta.ai.levels import LEVELS, _search_bot, level_search
from abstracta.interop import variant_options
from abstracta.interop import openspiel as aos


def _set_simulations(bot, sims: int) -> None:
    if hasattr(bot, "_max_simulations"):
        bot._max_simulations = sims  # ISMCTSBot
    else:
        bot.max_simulations = sims


def _spiel_bot(game: pyspiel.Game, sims: int, seed: int, hidden: bool):
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    if hidden:
        return ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=sims,
                                random_state=np.random.RandomState(seed + 1))
    return mcts.MCTSBot(game, uct_c=2.0, max_simulations=sims, evaluator=evaluator,
                        random_state=np.random.RandomState(seed + 1), solve=False)


def _seconds_per_simulation(game: pyspiel.Game, hidden: bool, seed: int) -> float:
    """OpenSpiel's bot on a few early positions: seconds per simulation."""
    rng = np.random.RandomState(seed)
    bot = _spiel_bot(game, 8, seed, hidden)
    spent = sims = 0
    state = game.new_initial_state()
    for _ in range(6):
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        if state.is_terminal():
            break
        t0 = time.perf_counter()
        bot.step(state)
        spent += time.perf_counter() - t0
        sims += 8
        state.apply_action(int(rng.choice(state.legal_actions())))
    return spent / max(sims, 1)


def play_pairing(name: str, options: dict, level: int, games: int, scale: float, max_turns: int,
                 seed: int) -> dict:
    game = aos.load(name, max_turns=max_turns, **options) if max_turns else aos.load(name, **options)
    ab_game = abstracta.load_game(name, **options)
    hidden = ab_game.has_hidden_information
    seconds = LEVELS[level].seconds * scale
    per_sim = _seconds_per_simulation(game, hidden, seed)
    sims = max(2, round(seconds / per_sim))
    score = 0.0
    wins = draws = losses = 0
    times = {"abstracta": [0.0, 0], "openspiel": [0.0, 0]}
    sims_used = []
    rng = np.random.RandomState(seed)
    search = level_search(ab_game, level)
    for g in range(games):
        ab_seat = g % 2
        ab_bot = _search_bot(search.bot, ab_game, Budget(seconds=seconds), seed + g, f"level:{level}", search)
        sp_bot = _spiel_bot(game, sims, seed + 100 + g, hidden)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            choice = len(state.legal_actions()) > 1
            t0 = time.perf_counter()
            if state.current_player() == ab_seat:
                action = ab_bot.step(state.abstracta_state.bot_view())
                who = "abstracta"
            else:
                if choice:
                    sims_used.append(sims)
                action = sp_bot.step(state)
                who = "openspiel"
            if choice:
                spent = time.perf_counter() - t0
                times[who][0] += spent
                times[who][1] += 1
                if who == "openspiel" and spent > 0:  # aim the next move at abstracta's mean time
                    target = times["abstracta"][0] / times["abstracta"][1] if times["abstracta"][1] else seconds
                    sims = max(2, min(round(sims * target / spent), 2 * sims, 100_000))
                    _set_simulations(sp_bot, sims)
            state.apply_action(int(action))
        r = state.returns()[ab_seat]
        score += (r + 1) / 2
        wins += r > 0
        draws += r == 0
        losses += r < 0
    return {"game": name, "options": options, "level": level, "games": games, "score": score,
            "wins": wins, "draws": draws, "losses": losses, "openspiel_bot": "IS-MCTS" if hidden else "MCTS",
            "simulations": round(sum(sims_used) / max(len(sims_used), 1)),  # mean per move
            "abstracta_s_per_move": round(times["abstracta"][0] / max(times["abstracta"][1], 1), 3),
            "openspiel_s_per_move": round(times["openspiel"][0] / max(times["openspiel"][1], 1), 3)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", metavar="GAME", help="games (default: every two-player game)")
    ap.add_argument("--games", type=int, default=4, help="games per pairing (colours alternate)")
    ap.add_argument("--levels", default="4,6")
    ap.add_argument("--time-scale", type=float, default=1.0,
                    help="multiply the levels' seconds per action (level 4: 0.5 s, level 6: 4 s)")
    ap.add_argument("--max-turns", type=int, default=300, help="player actions before a game counts as a draw")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print one JSON object (the last line) instead of a table")
    args = ap.parse_args(argv)
    names = args.names or [n for n in abstracta.registered_games() if abstracta.load_game(n).num_players == 2]
    rows = []
    if not args.json:
        print(f"abstracta vs OpenSpiel Python MCTS, {args.games} games per pairing, time scale "
              f"{args.time_scale}, max {args.max_turns} actions, {date.today()}")
        print("| game | level | s/move abstracta | OpenSpiel bot | simulations/move | s/move OpenSpiel | W-D-L | score |")
        print("|---|---:|---:|---|---:|---:|---:|---:|")
    levels = [int(x) for x in args.levels.split(",")]
    for name in names:
        options = variant_options(name)[0]
        bound = abstracta.load_game(name, **options).max_game_length()
        max_turns = args.max_turns if bound is None or bound > args.max_turns else 0
        for level in levels:
            r = play_pairing(name, options, level, args.games, args.time_scale, max_turns, args.seed)
            rows.append(r)
            if not args.json:
                opts = "".join(f" {k}={v}" for k, v in options.items())
                print(f"| {name}{opts} | {level} | {r['abstracta_s_per_move']} | {r['openspiel_bot']} | "
                      f"{r['simulations']} | {r['openspiel_s_per_move']} | {r['wins']}-{r['draws']}-{r['losses']} | "
                      f"{r['score']:g}/{r['games']} |", flush=True)
    if args.json:
        print(json.dumps({"games": args.games, "levels": levels, "time_scale": args.time_scale,
                          "max_turns": args.max_turns, "seed": args.seed, "rows": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
