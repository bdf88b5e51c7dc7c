"""What Nibble declares about itself (the spine's :class:`GameDescription`)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ...core.description import (GameDescription, OptionText, Search, SeatStyle, Tuning, Variant, rules_page,
                                 standard_levels, texts, web_dir, package_files)
from .evaluate import TERMS, WEIGHTS, evaluate, make_evaluator, squash, terms
from .examples import EXAMPLES
from .learned import LEARNED
from .lessons import LESSONS
from .svg import diagram

if TYPE_CHECKING:  # pragma: no cover
    from .rules import NibbleGame

T = texts("nibble")

#: Level 3's playouts an action (within its 0.2 s): MCTS held below what its time allows
#: (1 000 and more playouts) so that level 4 stands clear of it. Uncapped, level 3 matched
#: level 4 on the 9×9 and hexagonal boards (ladder 3-4: 54 % of 24 and 45 % of 20 for level 4).
#: The same players by benchmarks/ab_levels.py, 20 games a pairing: 9×9, held to 500
#: playouts, level 4 scored 90 % against it and it 70 % against greedy; held to 700, 85 %
#: (13 games) and 80 %; hexagon, held to 500, 83 % (6 games) and 80 %. docs: measurements/levels.md.
LEVEL3_PLAYOUTS = 700

#: Level 4's deepest iteration on the 9×9 board (actions; alpha-beta held below what its 0.5 s
#: reaches there, 10-13 actions), so that it stands between levels 3 and 5: uncapped, level 5
#: (1.5 s, 11-15 actions) scored 60.7 % against it over 28 ladder games. Held to 8 actions it
#: fell to level 3's strength (3-4: 52.1 % over 96 ladder games; 4-5: 100 % of 12). Screening
#: with benchmarks/ab_levels.py (12 games a pairing, seeds 9400-9411 against level 3,
#: 9450-9461 against level 5): to 10 actions 75 % against level 3, level 5 4 of 7 against it.
#: docs: measurements/levels.md.
LEVEL4_DEPTH_9X9 = 10

VARIANTS = (
    Variant({"variant": "square9"}, T("variant.square9", "Square 9×9"), (
        "......EI./..HIFHGE./..EGDBHB./DBABHCIGI/EHIFAHAIA/.EGAFCEBI/.GIBC..../...C...../......... 1 "
        "4-2-3-6-0-3-0-2-0 0-1-2-1-3-3-4-1-1 take=I",)),
    Variant({"variant": "square13"}, T("variant.square13", "Square 13×13")),
    Variant({"variant": "hex"}, T("variant.hex", "Hexagon")),
)


def board_name(variant: str) -> str:
    """The board of ``variant`` in a sentence for people ("the square 9×9 board"), from its
    variant's label: refusals name the board a player chose, not the option's value."""
    label = next(v.label.en for v in VARIANTS if v.options["variant"] == variant)
    return f"the {label[0].lower()}{label[1:]} board"


#: Disc colours A… (13 for the larger boards), the palette of the board module.
DISC_COLOURS = ("#d7312b", "#f08c1e", "#f2d22e", "#9bd13b", "#2e9e48", "#1fa3a0", "#2f64c8", "#7b45b5",
                "#e86fb0", "#8a5a2b", "#8c8c8c", "#f4f4f4", "#222222")
DISC_NAMES = ("red", "orange", "yellow", "lime", "green", "teal", "blue", "purple", "pink", "brown", "grey",
              "white", "black")


OPTIONS = {
    "variant": OptionText(T("option.variant", "Board"), T("option.variant.help", "The size and shape of the board"),
                          {"square9": T("variant.choice.square9", "Square 9×9 (9 colours)"),
                           "square13": T("variant.choice.square13", "Square 13×13 (13 colours)"),
                           "hex": T("variant.choice.hex", "Hexagon (13 colours)")}),
    "seed": OptionText(T("option.seed", "Seed"), T("option.seed.help", "Fixes the layout of the discs; empty: a "
                                                                       "random layout"), unset=T("option.seed.unset", "Random")),
    "first_player": OptionText(T("option.first_player", "Who starts"),
                               T("option.first_player.help", "Empty: decided at random with the layout"),
                               {"0": T("first.0", "Player 1"), "1": T("first.1", "Player 2")},
                               unset=T("option.first_player.unset", "At random")),
}


def describe(game: "NibbleGame") -> GameDescription:
    # Short playouts scored by the evaluator: with full random playouts MCTS at 0.2 s lost to
    # greedy (1-3 over 4 games); capped at 12 actions it won 4-0.
    strongest = Search("alphabeta", rollout_cap=12, evaluator=evaluate)
    levels = standard_levels(strongest, level3=Search("mcts", strongest.rollout_cap, evaluate,
                                                      max_iterations=LEVEL3_PLAYOUTS))
    if game.options["variant"] == "square9":
        levels[4] = replace(strongest, max_depth=LEVEL4_DEPTH_9X9)
    # Level 6 reduces late actions by one (Search.reductions, late move reductions): plain,
    # its 4 s reached about one action deeper than level 5's 1.5 s, and 5-6 stood at 57.5 % over
    # 40 ladder games (9×9); reducing, it reaches one or two actions deeper still.
    # benchmarks/ab_levels.py against level 5, 9×9, 12 games (seeds 14000-14011): 75 % (9 of 12;
    # 5 of 6 as the first player).
    # docs: measurements/levels.md.
    levels[6] = replace(strongest, reductions=1)
    # The learned value (issue 47) is trained on the 9×9 board: there levels 4-6 read it, their
    # bounds unchanged. At equal positions searched (level 4's alpha-beta, 1,000 positions an
    # action) it scored 87.5 % over 32 games against the hand-set evaluator, +321 Elo
    # (+148 … +493), SPRT of 0 against +50 Elo accepted (benchmarks/learned.py; docs: strength.md).
    learned = LEARNED if game.options["variant"] == "square9" else None
    if learned is not None:
        learned.play_at(levels, (4, 5, 6))
    return GameDescription(
        name=game.name,
        title=T("title", "Nibble"),
        summary=T("summary", "Take coloured discs from the edge of a crowded board: collect a whole "
                             "colour, three neighbouring colours, or the most majorities."),
        num_players=2, min_players=2, max_players=2,
        chance=True, hidden_information=False,
        whole_turn_notation=True,
        records_by_turn=True,  # notation.format_moves writes turn by turn
        draws=False,  # rules §5: an odd number of colours, each of an odd number of discs
        evaluator=evaluate,
        levels=levels,
        tuning=Tuning(TERMS, WEIGHTS, terms, make_evaluator, squash, "alphabeta:d3"),
        notation_help=T("notation", (
            "Take free discs of one colour by their cells: a1 takes one disc and ends the turn; a1+a9 takes "
            "several of the same colour at once and ends it. In a turn still open, type another cell of that "
            "colour or end. "
            "A disc is free when two neighbouring sides (three on the hex board) are open.")),
        rules=T("rules", rules_page(__package__)),
        seats=(SeatStyle(None), SeatStyle(None)),
        board={f"disc.{chr(65 + i)}": c for i, c in enumerate(DISC_COLOURS)},
        variants=VARIANTS,
        web=web_dir(__package__),
        resources=package_files(__package__),
        options=OPTIONS,
        draw=diagram,
        examples=EXAMPLES,
        lessons=LESSONS,
        learned=learned,
    )
