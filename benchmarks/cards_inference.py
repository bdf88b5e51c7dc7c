"""How much of the opponent's hand can a legal player infer in the Fibonacci card game? (issue 17)

The card game's level 5 needs a player clearly stronger than level 4 (IS-MCTS on inferred
deals), and the one measured source of strength left is the opponent's hand: a search that
knows it outright scores about 70 % against one on inferred deals at equal playouts
(``python benchmarks/cards_search.py --pairs hand-ismcts:i1000/infer-ismcts:i1000``). This
measures how close each way of dealing the hidden cards comes to the true hand: at sampled
decisions of games between two IS-MCTS players, the share of the opponent's true cards that a
dealt hand holds, averaged over the deals each way draws (1.0 = knows his hand).

Ways of dealing:

* ``plain``: the unseen cards uniformly (``resample_from_infostate``);
* ``infer``: only cards his draws and passes allow (``infer=True``; levels 4-6);
* ``choice:B``: inferred deals weighted by how likely his **plays** were under each: at every
  play he chose (not a drawn card played at once), a softmax with inverse temperature ``B`` over
  the plays the dealt hand offered him then, scored by what the play leaves (his own cards that
  fit the new table minus four times the cards the other seat is expected to hold that fit it,
  the playout policy's preference). ``choice:0`` weighs each deal by one over the number of
  plays it offered (a uniformly random opponent).

    python benchmarks/cards_inference.py --games 12 --ways plain,infer,choice:0,choice:3,choice:10
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from typing import Any

from abstracta import load_game
from abstracta.ai import make_bot
from abstracta.games.fibonacci_cards.cards import CUT, DRAW, NUM_CARDS, PASS, config_table
from abstracta.games.fibonacci_cards.evaluate import after_play

GAME = "fibonacci-cards"
_ALL = (1 << NUM_CARDS) - 1


def slot_receipts(state: Any, opp: int) -> list[int]:
    """For each card ``opp`` holds now, oldest first: the log index of the draw that brought it
    (-1: dealt). The same bookkeeping as ``_opponent_constraints`` (a play removes the oldest
    card it may be), so entry ``i`` belongs to the card an inferred deal puts in slot ``i``."""
    log = state._log
    plays = sum(1 for a, w, *_ in log if w == opp and a < DRAW)
    draws = sum(1 for a, w, *_ in log if w == opp and a == DRAW)
    slots = [[0, -1] for _ in range(len(state._hands[opp]) + plays - draws)]
    for k, (a, w, drawn, _aux, cfg) in enumerate(log):
        if w != opp:
            continue
        if a < DRAW:
            if drawn:
                del slots[-1]
                continue
            card = a // 6
            for i, (mask, _k) in enumerate(slots):
                if not mask >> card & 1:
                    del slots[i]
                    break
        elif a in (DRAW, PASS):
            fits = config_table(cfg).playable
            for slot in slots:
                slot[0] |= fits
            if a == DRAW:
                slots.append([fits, k])
    return [k for _mask, k in slots]


def choices(state: Any, opp: int) -> list[tuple[int, int, int, int, int]]:
    """``opp``'s chosen plays: (log index, table configuration, action, the other seat's hand
    size then, mask of the pile cards then)."""
    log = state._log
    piles = 0
    for pile in state._piles:
        for card in pile:
            piles |= 1 << (card & ~CUT)
    for a, *_ in log:
        if a < DRAW:
            piles &= ~(1 << (a // 6))  # back to the three cards turned up at the start
    sizes = [len(state._hands[0]), len(state._hands[1])]
    size_then = [0] * len(log)
    for k in range(len(log) - 1, -1, -1):
        a, w, *_ = log[k]
        sizes[w] += 1 if a < DRAW else -1 if a == DRAW else 0
        size_then[k] = sizes[1 - opp]
    out = []
    for k, (a, w, drawn, _aux, cfg) in enumerate(log):
        if w == opp and a < DRAW and not drawn:
            out.append((k, cfg, a, size_then[k], piles))
        if a < DRAW:
            piles |= 1 << (a // 6)
    return out


def log_likelihood(hand: list[int], receipts: list[int], points: list[tuple[int, int, int, int, int]],
                   beta: float) -> float:
    """Log-probability of ``opp``'s chosen plays if he held ``hand`` (slot order) and chose by
    the softmax described in the module docstring."""
    total = 0.0
    for k, cfg, action, n_other, piles in points:
        held = 1 << (action // 6)
        for card, got in zip(hand, receipts):
            if got < k:
                held |= 1 << card
        table = config_table(cfg)
        unseen = _ALL & ~held & ~piles
        n_unseen = unseen.bit_count() or 1
        scores: list[tuple[int, float]] = []
        m = held & table.playable
        while m:
            low = m & -m
            m ^= low
            rest = held & ~low
            for b in table.plays[low.bit_length() - 1]:
                fits = config_table(after_play(cfg, b)).playable
                scores.append((b, (fits & rest).bit_count() - 4.0 * n_other * (fits & unseen).bit_count() / n_unseen))
        if len(scores) > 1:
            top = max(s for _b, s in scores)
            z = sum(math.exp(beta * (s - top)) for _b, s in scores)
            chosen = next(s for b, s in scores if b == action)
            total += beta * (chosen - top) - math.log(z)
    return total


def share(state: Any, observer: int, way: str, deals: int, rng: random.Random) -> float:
    """Mean share of the opponent's true cards in ``deals`` hands dealt by ``way``."""
    opp = 1 - observer
    true = state._hmask[opp]
    size = len(state._hands[opp])
    if way == "plain":
        hands = [state.resample_from_infostate(observer, rng)._hmask[opp] for _ in range(deals)]
        return sum((h & true).bit_count() for h in hands) / (deals * size)
    dealt = [state.resample_from_infostate(observer, rng, infer=True) for _ in range(deals)]
    if way == "infer":
        return sum((d._hmask[opp] & true).bit_count() for d in dealt) / (deals * size)
    beta = float(way.partition(":")[2])
    receipts = slot_receipts(state, opp)
    points = choices(state, opp)
    logs = [log_likelihood(d._hands[opp][:len(receipts)], receipts, points, beta) for d in dealt]
    top = max(logs)
    weights = [math.exp(x - top) for x in logs]
    return sum(w * (d._hmask[opp] & true).bit_count() for w, d in zip(weights, dealt)) / (sum(weights) * size)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=9000, help="first game's deal")
    parser.add_argument("--ways", default="plain,infer,choice:0,choice:3,choice:10")
    parser.add_argument("--deals", type=int, default=300, help="deals per way at each sampled decision")
    parser.add_argument("--player", default="ismcts:i200", help="both seats' bot")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    ways = args.ways.split(",")
    game = load_game(GAME)
    sums = {w: 0.0 for w in ways}
    n = 0
    for g in range(args.games):
        state = game.new_initial_state(seed=args.seed + g)
        bots = [make_bot(args.player, game, seed=2 * g + s) for s in range(2)]
        rng = random.Random(args.seed + g)
        ply = 0
        while not state.is_terminal():
            player = state.current_player()
            if ply % 3 == 0 and len(state.legal_actions()) > 1:
                for way in ways:
                    sums[way] += share(state, player, way, args.deals, rng)
                n += 1
            state.apply_action(bots[player].step(state))
            ply += 1
    rows = {w: sums[w] / n for w in ways}
    for w in ways:
        print(f"{w:12} {100 * rows[w]:5.1f} % of his cards  ({n} decisions, {args.games} games)")
    if args.json:
        print(json.dumps({"game": GAME, "seed": args.seed, "games": args.games, "decisions": n, "share": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
