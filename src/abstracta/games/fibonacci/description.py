"""What Fibonacci declares about itself, per variant (the spine's :class:`GameDescription`)."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from ...core.description import (GameDescription, OptionText, Search, SeatStyle, Tuning, Variant, rules_page,
                                 standard_levels, texts, web_dir, package_files)
from .finish import winning_action
from .evaluate import CARD_TERMS, CARD_WEIGHTS, TERMS, TUNED, WEIGHTS, evaluate, make_evaluator, squash, terms
from .examples import EXAMPLES
from .lessons import LESSONS
from .svg import diagram

if TYPE_CHECKING:  # pragma: no cover
    from .rules import FibonacciGame

T = texts("fibonacci")

VARIANTS = (
    Variant({"variant": "standard"}, T("variant.standard", "Standard"),
            ("c1a2a/1aaaa2/s4S2/1ss5S/10/s1s2S5/7S1S/s2AAS3/5A2/3A1A1/A1C3 R 3 13",)),
    Variant({"variant": "cards"}, T("variant.cards", "Card variant")),
    Variant({"variant": "go"}, T("variant.go", "Go start")),
)


OPTIONS = {
    "variant": OptionText(T("option.variant", "Variant"), T("option.variant.help", "Which rules: the moves of a turn "
                                                                                    "from a card pile, or an empty board"),
                          {"standard": T("variant.choice.standard", "Standard"),
                           "cards": T("variant.choice.cards", "Cards: moves from a card pile"),
                           "go": T("variant.choice.go", "Go start: place the pieces first")}),
    "seed": OptionText(T("option.seed", "Seed"), T("option.seed.help", "Fixes the card piles of the card variant; "
                                                                       "empty: shuffled at random"), unset=T("option.seed.unset", "Random")),
}


def describe(game: "FibonacciGame") -> GameDescription:
    cards = game.variant == "cards"
    # A turn is up to six actions, so every level from 3 decides whole turns (the card variant's
    # level 3 is the greedy that plans its turn, below; the others search, abstracta.ai.turns:
    # alpha-beta over candidate turns, each a best first action completed greedily; depth counts
    # turns). Alpha-beta over single actions lost to greedy: at 0.2 s
    # (≈ depth 3) it sees half of its own turn and none of the reply (0-4 against greedy).
    # With depth budgets (seed 500, 8 games a pairing): 2 turns scored 62.5 % against greedy,
    # 3 turns 87.5 %. The searching levels 3-6 get 0.2/0.5/1.5/4 CPU seconds per action of the turn.
    # weights tuned by self-play where they won a tournament (abstracta tune; docs: strength.md, tuned
    # evaluators), else the hand-set evaluator
    tuned = TUNED.get(game.variant)
    tuning = Tuning(CARD_TERMS if cards else TERMS, tuned or (CARD_WEIGHTS if cards else WEIGHTS), terms,
                    partial(make_evaluator, cards=cards), squash, "turns:d1")
    evaluator = tuning.make(tuned) if tuned else evaluate
    # The card variant's levels 4-6 first look for a turn that wins now (finish.winning_action,
    # an exact search over attacker moves and core drags, at most 20 000 nodes): the turn
    # search's greedily completed turns walk past wins that take the whole card, and more time
    # did not help it (3-4: 50 % over 12 games; turns:d2 against turns:d1 50 % over 16). With
    # the oracle, level 4 against level 3: 70.8 % and 62.5 % over 24 games each (tournament
    # seeds 9100 and 9400), 75 % over 24 (seeds 9000-9023, the same players built by hand);
    # docs: measurements/levels.md.
    strongest = Search("turns", rollout_cap=60, evaluator=evaluator,
                       oracle=winning_action if cards else None)
    level3 = Search("turns", evaluator=evaluator)
    levels = standard_levels(strongest, level3=level3)
    # Level 2 stays greedy on the hand-set weights: greedy on the tuned ones came within reach of
    # level 3 (2-3: 65.6 % over 16 games, against 93.8 % before the tuning; docs: measurements/levels.md
    # ladder"), and level 2 is meant as the simple player one step above random.
    # The card variant's level 3 scored 58-62 % against a greedy that plans its whole turn (2-3
    # undecided after 48 games): there level 2 judges each action by the position it leads to,
    # planning no further. 12 games each, seeds 7000-7011: 87.5 % against random, 0 % against
    # level 3 (docs: measurements/levels.md).
    levels[2] = Search("greedy", evaluator=evaluate, extend=0 if cards else None)
    if cards:
        # The card variant's level 3 is the greedy that plans its whole turn (the same hand-set
        # weights as level 2, which judges each action alone): the turn search at 0.2 s stood
        # close below level 4 (3-4: 59.1 % over 44 ladder games; with 4 and 3 candidate turns
        # 58.3 % over 12 A/B games), as far above level 2 as the turn-planning greedy is
        # (100 % over 12 games each). benchmarks/ab_levels.py: the turn-planning greedy 100 %
        # against level 2 (12 games, seeds 9300-9311), level 4 77.8 % against it (9 games,
        # seeds 9350-9358). docs: measurements/levels.md.
        levels[3] = Search("greedy", evaluator=evaluate)
    else:
        # Levels 5-6 spend their extra time on breadth: 16 candidate turns at the root and 12 at
        # every reply (level 4 had the bot's 10 and 8 then, as Go's still has; the standard
        # rules' levels 3-4 were narrowed since, below). With level 4's widths, level 5 scored
        # 33 % against level 4 on the ladder (12 games: 0 of 6 as Red, 4 of 6 as Green — Green wins most games
        # between these levels); with the wider candidates 58.3 % (12 games, seeds 9300-9311:
        # 2 of 6 as Red, 5 of 6 as Green). An odd-depth leaf read after the opponent's greedy
        # turn instead scored 28.6 % against the plain search at 0.5 s (14 games, seeds
        # 9100-9113). docs: measurements/levels.md.
        levels[5] = levels[6] = replace(strongest, turn_widths=(16, 12))
        if game.variant == "standard":
            # Level 6 of the standard rules also branches later in its turn: a beam keeps the
            # 16 best partial turns after each action (Search.turn_beam), so its root candidates
            # may share a first action. More time or breadth alone was no step above level 5
            # (above); the beam at equal time, 0.5 s, scored 75.0 % against the plain search
            # (24 games, benchmarks/ab_levels.py seeds 12000-12023: 6 of 12 as Red, 12 of 12
            # as Green). docs: measurements/levels.md.
            levels[6] = replace(levels[5], turn_beam=16)
            # Tried and not kept: level 6 on weights tuned a second time from the first tuning
            # (abstracta tune fibonacci --games 150 --seed 1000: +135 Elo over it at turns:d1) scored
            # 38.9 % over 18 ladder games against level 5 (5 of 9 won as Red, 2 of 9 as Green,
            # where the first tuning's level 6 won 47.3 % as Red and 70.5 % as Green of 56 each).
            # docs: measurements/levels.md.
            # Tried and not kept: level 5 at 8 and 6 candidates (between level 4's 6 and 4 and
            # level 6's 16 and 12), meant to split 4-5's +220 Elo with 5-6's +62: 4-5 fell to
            # 50.0 % over 14 ladder games (level 5 won 1 of 7 as Red, level 4 1 of 7; six of its
            # Red games lost by ply 30), 5-6 stood at 66.7 % over 12. docs: measurements/levels.md.
        # Level 3 compares fewer candidate turns (4 at the root, 3 at every reply): with level 4's
        # widths it stood too close below it (3-4: 60.8 % over 60 ladder games in the standard
        # game, 56.2 % over 32 in Go). The same players by benchmarks/ab_levels.py, standard
        # game, 12 games each (seeds 6000-6011): level 4 scored 66.7 % against it, it 91.7 %
        # against level 2; with 3 and 2 candidates it fell to 66.7 % against level 2 (9 games).
        # In the standard rules it compares 3 and 2 since level 4 was narrowed (below).
        # docs: measurements/levels.md.
        standard = game.variant == "standard"
        levels[3] = replace(level3, turn_widths=(3, 2) if standard else (4, 3))
        if standard:
            # Level 4 of the standard rules compares 6 candidate turns at the root and 4 at every
            # reply, between level 3 and level 5's 16 and 12: with 10 and 8 it stood far above
            # level 3 (3-4: 85 % over 20 ladder games) and close below level 5 (4-5: 52.3 % over
            # 44). benchmarks/ab_levels.py, 16 games each: 68.8 % against level 3 at 4 and 3
            # (seeds 9600-9615), level 5 87.5 % against it (9700-9715, 6 of 8 as Red); with 8
            # and 6, 66.7 % against level 3 (12 games, 9800-9811). Level 5 searching even depths
            # only (Search.turn_depth_step = 2, 10 and 8 candidates, reaching 4 turns where the
            # plain search stops at 3) scored 56.2 % against the old level 4 (16 games,
            # 9500-9515). Level 3 then stood close below the new level 4 with 4 and 3 (3-4: 60 %
            # over 20 ladder games, 68.8 % over 16 A/B games); with 3 and 2 it scored 75 %
            # against level 2 over 12 games (seeds 9620-9631) and 66.7 % over 9 earlier, and
            # level 4 8 of 11 against it (seeds 9640-9650). docs: measurements/levels.md.
            levels[4] = replace(strongest, turn_widths=(6, 4))
    return GameDescription(
        name=game.name,
        title=T("title", "Fibonacci"),
        summary=T("summary", "Thomas Naylor's hex game: move whole snakes of pieces, swap places with "
                             "anything, and ring the enemy core with your six attackers."),
        num_players=2, min_players=2, max_players=2,
        chance=cards, hidden_information=cards,
        evaluator=evaluator,
        levels=levels,
        tuning=tuning,
        notation_help=T("notation", (
            "A move is <from>-<to>, e.g. b6-c7: a piece may go to any cell next to its group (same owner "
            "and type, connected); onto an occupied cell it swaps places. pass ends the turn early. "
            "Go placement: S@e5, A@e5, C@e5. Red = upper case (C core, A attacker, S support), "
            "Green = lower case. Enemy attackers next to your core cut your moves per turn.")),
        rules=T("rules", rules_page(__package__)),
        seats=(SeatStyle(T("seat.0", "Red"), "#c8322b", "#fff"),
               SeatStyle(T("seat.1", "Green"), "#2f8a3e", "#fff")),
        board={"cell": "#efe6d2", "edge": "#b9a987", "core_ring": "#d9b80f"},
        printable_board=True,
        variants=VARIANTS,
        web=web_dir(__package__),
        resources=package_files(__package__),
        options=OPTIONS,
        draw=diagram,
        examples=EXAMPLES,
        lessons=LESSONS,
    )
