"""What Fanorona declares about itself (the spine's :class:`GameDescription`)."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from ...core.description import (GameDescription, OptionText, Search, SeatStyle, Tuning, Variant, rules_page,
                                 standard_levels, texts, web_dir, package_files)
from .evaluate import TERMS, TUNED, WEIGHTS, clamp, evaluate, make_evaluator, terms
from .examples import EXAMPLES
from .learned import LEARNED
from .lessons import LESSONS
from .solve import FanoronaTables, make_probe, make_table_bot, solve
from .svg import diagram

if TYPE_CHECKING:  # pragma: no cover
    from .rules import FanoronaGame

T = texts("fanorona")

#: positions a 9×5 level-5 search may visit an action (``Search.max_nodes``; see ``describe``)
LEVEL5_NODES_9X5 = 75_000
#: and a 9×5 level-4 search
LEVEL4_NODES_9X5 = 10_000
#: playouts an action of Telo's level 3 (MCTS)
TELO_LEVEL3_PLAYOUTS = 240

#: Sizes, each with a mid-game position (seed-0 starts after a few random actions) for benchmarks.
VARIANTS = (
    Variant({"size": "tsivy"}, T("variant.tsivy", "Tsivy 9×5"),
            ("..W.....B/...BB.B.B/....W..BW/...WWWWWW/WW.W..WWW B",)),
    Variant({"size": "dimy"}, T("variant.dimy", "Dimy 5×5"), ("BBB../...W./...../...B./...W. W nc=1",)),
    Variant({"size": "telo"}, T("variant.telo", "Telo 3×3")),
)


OPTIONS = {
    "size": OptionText(T("option.size", "Board"), T("option.size.help", "Tsivy is the full board; Dimy and Telo are "
                                                                        "the small boards of the same game"),
                       {"tsivy": T("size.tsivy", "Tsivy (9×5)"), "dimy": T("size.dimy", "Dimy (5×5)"),
                        "telo": T("size.telo", "Telo (3×3)")}),
    "vela": OptionText(T("option.vela", "Vela (handicap)"),
                       T("option.vela.help", "Black may not capture while he has more than five stones, and White "
                                             "takes one stone per turn")),
    "first_turn_single_capture": OptionText(
        T("option.first", "First turn: one capture"),
        T("option.first.help", "Each side's first turn ends after its first capture")),
}


def describe(game: "FanoronaGame") -> GameDescription:
    # Capture chains are finished at the search horizon (turn_extension): cut mid-chain, the
    # evaluation depended on the parity of the depth and a deeper search lost to a shallower one
    # (9×5, depth 5 vs 4: 31 % without, 91 % with, 16 and 32 games; issue 17).
    standard = not (game.vela or game.first_turn_single_capture)
    size = game.options["size"]
    # weights tuned by self-play where they won a tournament (abstracta tune; docs: strength.md, tuned
    # evaluators), else the hand-set evaluator
    tuned = TUNED.get(size) if standard else None
    tuning = Tuning(TERMS, tuned or WEIGHTS, terms, make_evaluator, clamp, "alphabeta:d3")
    evaluator = tuning.make(tuned) if tuned else evaluate
    strongest = Search("alphabeta", evaluator=evaluator, turn_extension=8)
    levels = standard_levels(strongest)
    if standard and size == "telo":
        # Solved whole (issue 18): a first-player win; the top levels play the table (never
        # lose, fastest wins). MCTS at 0.2 s (~8000 playouts) already played it perfectly, as
        # alpha-beta at 0.5 s does, so levels 3 and 4 each won as the first player (3-4: 50 %).
        # Levels 2 and 3 are MCTS held to 10 and 120 playouts an action: greedy, and alpha-beta
        # at depths 2-4, were no step below a 200-playout MCTS (42-58 %, 20-24 games), and 200
        # playouts scored only 65 % against greedy. Seed 901, 24 games a pairing: 10 playouts
        # 96 % against random, 120 playouts 83 % against 10, alpha-beta 0.5 s 96 % against 120
        # (docs: measurements/levels.md).
        # Level 3 was held to 120 playouts and opened with a losing move 80 % of the time as
        # White (random play after a1-b2A and b1-b2A flatters White; random opens with one of
        # the two winning captures half the time): 240 playouts open with a winning one in 23
        # of 40 seeds and still err later, so level 4 stays a step above (issue 46;
        # benchmarks/telo_opening.py, docs/strength.md).
        levels[2] = Search("mcts", evaluator=evaluate, max_iterations=10)
        levels[3] = Search("mcts", evaluator=evaluate, max_iterations=TELO_LEVEL3_PLAYOUTS)
        levels[5] = levels[6] = Search("table")
    elif standard:
        # endgame tables, once built (abstracta egtb build), answer before the search and score
        # its tabled leaves exactly
        probe = make_probe(game, evaluator)
        if tuned:
            probe.weights = tuned  # type: ignore[attr-defined]  # level fingerprints hash them
        levels[5] = levels[6] = Search("alphabeta", evaluator=probe.evaluate, oracle=probe.oracle,
                                       turn_extension=8)
        # 9×5's 5-6 stood undecided (54.2 % of 12 ladder games, 7 drawn: best play draws) while
        # 4-5 had room (87.5 % of 16): past 1.5 s the extra depth buys little. Level 5 is held to
        # LEVEL5_NODES_9X5 positions an action (level 4 searches about 25 000-42 000 in its 0.5 s,
        # level 5 72 000-98 000 in its 1.5 s, level 6 190 000-300 000 in its 4 s; 9×5 positions
        # of seeds 1-3, benchmarks/search_nodes.py), so level 6 searches about three times its
        # positions. Held to 60 000, 5-6 separated (90.6 % of 16) but 4-5 stood at 60.7 % of 28;
        # 75 000 sits between the two: 5-6 separated (79.2 % of 24, LLR +3.20), 4-5 undecided
        # (61.4 % of 22). Tried for level 6 and not kept: late move reductions (50 % of 6 A/B games)
        # and pricing a draw at -0.05 (Search.contempt: 50 % of 12 ladder games, 8 drawn).
        # With level 5 there, 4-5 stood at 58.3 % of 24: level 4's 0.5 s reaches 21 000-28 000
        # positions (mid-game depth 9), level 5 stops at 44 000-75 000 (depth 10), about twice,
        # where level 6 searches three times level 5 (depth 11-13). Level 4 is held to
        # LEVEL4_NODES_9X5 (depth 8; 15 000 still reached 8-9), a step of two actions below
        # level 5 as level 6 is above it. Measured again: 4-5 separated (100 % of 12, LLR +3.15),
        # 3-4 too (90.6 % of 16; level 3 is MCTS). docs: measurements/levels.md.
        if size == "tsivy":
            levels[5] = replace(levels[6], max_nodes=LEVEL5_NODES_9X5)
            levels[4] = replace(levels[4], max_nodes=LEVEL4_NODES_9X5)
    return GameDescription(
        name=game.name,
        title=T("title", "Fanorona"),
        summary=T("summary", "The national game of Madagascar: stones capture whole lines by stepping "
                             "towards an enemy line or away from it, and may chain captures in one turn."),
        num_players=2, min_players=2, max_players=2,
        chance=False, hidden_information=False,
        evaluator=evaluator,
        levels=levels,
        tuning=tuning,
        # the searches of abstracta.ai, which is above the games, reach the solver and the table
        # seat through the game class, where the package's entry module binds them (compose)
        bots={"table": partial(make_table_bot, fallback=game._parts.fallback_bot)} if standard else {},
        solver=((lambda progress=None: solve(game, progress, game._parts.proof_search))
                if standard and size != "tsivy" else None),
        endgame_tables=FanoronaTables(game) if standard and size != "telo" else None,
        notation_help=T("notation", (
            "A move is <from>-<to>: d2-e3 is a plain step (paika); add A for a capture by approach "
            "(d2-e3A takes the enemy line in front) or W by withdrawal (takes the line behind). "
            "During a capture chain keep moving the same stone, or type end. W = White (moves first), "
            "B = Black.")),
        rules=T("rules", rules_page(__package__)),
        seats=(SeatStyle(T("seat.0", "White"), "#fbf8f0", "#222"),
               SeatStyle(T("seat.1", "Black"), "#2a2622", "#fff")),
        board={"background": "#e9d8b0", "lines": "#7a6440"},
        variants=VARIANTS,
        web=web_dir(__package__),
        resources=package_files(__package__),
        options=OPTIONS,
        draw=diagram,
        examples=EXAMPLES,
        lessons=LESSONS,
        # trained on 9×5 with the standard rules (abstracta learn fanorona; issue 47)
        learned=LEARNED if standard and size == "tsivy" else None,
    )
