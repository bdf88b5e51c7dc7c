"""A/B of two players, seats alternated: a seat spec (e.g. "level:4") or a level with some of
its declared Search fields replaced, as JSON: {"level": 3, "max_iterations": 700} or
{"level": 3, "turn_widths": [4, 3]} (optional "seconds" or "depth" instead of the level's time).
How level designs are tried before the ladder measures the kept one (README "The level ladder").

    python benchmarks/ab_levels.py GAME OPTIONS_JSON A B GAMES BASE_SEED [WORKERS]
    python benchmarks/ab_levels.py nibble '{"variant":"square9"}' '{"level":3,"max_iterations":700}' '"level:4"' 20 5300

Game k uses seed BASE_SEED + k; B sits first in odd games. Prints each game's (B's seat, B's
score) and B's total.
"""
import sys, json
from dataclasses import replace
from multiprocessing import Pool
import abstracta
from abstracta.ai.match import play_game
from abstracta.ai.base import Budget
from abstracta.ai.levels import level_search, LEVELS, _search_bot, make_bot

def make(game, cfg, seed):
    if isinstance(cfg, str):
        return make_bot(cfg, game, seed=seed)
    cfg = dict(cfg)
    level = cfg.pop("level")
    seconds = cfg.pop("seconds", LEVELS[level].seconds)
    depth = cfg.pop("depth", None)
    search = level_search(game, level)
    search = replace(search, **cfg)
    budget = Budget(depth=depth) if depth else Budget(seconds=seconds)
    return _search_bot(search.bot, game, budget, seed, json.dumps(cfg), search)

def one(args):
    name, opts, a, b, k, base = args
    game = abstracta.load_game(name, **opts)
    seed = base + k
    cfgs = [a, b] if k % 2 == 0 else [b, a]
    bots = [make(game, c, seed * 2 + i) for i, c in enumerate(cfgs)]
    _, _, final, _ = play_game(game, bots, seed=seed)
    r = final.returns()
    bseat = 1 if k % 2 == 0 else 0
    return bseat, (r[bseat] + 1) / 2

if __name__ == "__main__":
    name = sys.argv[1]; opts = json.loads(sys.argv[2]); a = json.loads(sys.argv[3]); b = json.loads(sys.argv[4])
    n = int(sys.argv[5]); base = int(sys.argv[6]); w = int(sys.argv[7]) if len(sys.argv) > 7 else 1
    with Pool(w) as pool:
        out = []
        for k, x in enumerate(pool.imap(one, [(name, opts, a, b, k, base) for k in range(n)], chunksize=1)):
            out.append(x)
            print(k, x, flush=True)
    s = sum(x for _, x in out)
    first = [x for seat, x in out if seat == 0]
    print(f"{name} {opts} B={b} vs A={a}: B scores {s}/{n} = {100*s/n:.1f} % (as first {sum(first)}/{len(first)})", flush=True)
