"""What Slide Checkers declares about itself, per player count and board (:class:`GameDescription`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.description import (GameDescription, OptionText, Search, SeatStyle, Tuning, Variant, rules_page,
                                 standard_levels, texts, web_dir, package_files)
from .geometry import SEAT_NAMES
from .evaluate import TERMS, WEIGHTS, evaluate, evaluate_multiplayer, make_evaluator, squash, terms
from .examples import EXAMPLES
from .learned import LEARNED
from .lessons import LESSONS
from .svg import diagram

if TYPE_CHECKING:  # pragma: no cover
    from .rules import SlideCheckersGame

T = texts("slide-checkers")

VARIANTS = (
    Variant({"players": 2}, T("variant.2", "2 players"),
            ("Ba7,Ba8,Bc5,Bc12,Bd8,Gh9,Gh10,Gi4,Gi6,Gi12,Gl1 M G",)),
    Variant({"players": 3}, T("variant.3", "3 players")),
    Variant({"players": 4}, T("variant.4", "4 players"), ("Rb6,Rg2,Rg4,Rh3,Rl2,Ya11,Yb12,Yj12,Yl6,Yl12 M R nj=1",)),
)

#: Pieces of each major colour, and a text colour that reads on it.
PIECE = {"R": ("#c8322b", "#fff"), "O": ("#e07b12", "#fff"), "Y": ("#d9b80f", "#222"),
         "G": ("#2f8a3e", "#fff"), "B": ("#2f64c8", "#fff")}
#: Squares of each colour class (pale, so that pieces stand out).
SQUARE = {"R": "#f3b0a8", "O": "#f8cc95", "Y": "#f6e79a", "G": "#b5dfa6", "B": "#a9c8ef",
          "z": "#dddddd", "p": "#e4dcd0", "q": "#d9d2e6", "s": "#d4e4e2", "t": "#e8d7e2"}


OPTIONS = {
    "players": OptionText(T("option.players", "Players"), T("option.players.help", "Two, three or four seats"),
                          {"2": T("players.2", "2 players"), "3": T("players.3", "3 players"),
                           "4": T("players.4", "4 players")}),
    "board": OptionText(T("option.board", "Board colouring"),
                        T("option.board.help", "One of the designer's six colourings of the 12×12 board by the "
                                               "Fibonacci sequence modulo 12"),
                        {"1,1": T("board.1,1", "Classic (1,1)"), "5,1": T("board.5,1", "(5,1)"),
                         "7,1": T("board.7,1", "(7,1)"), "11,1": T("board.11,1", "(11,1)"),
                         "1,7": T("board.1,7", "(1,7)"), "5,7": T("board.5,7", "(5,7)")}),
    "colours": OptionText(T("option.colours", "Colours"),
                          T("option.colours.help", "One letter per seat: R red, O orange, Y yellow, G green, B blue "
                                                   "(empty: green, blue, red, yellow)"),
                          # the box's placeholder: what to type (the colour names read as an
                          # example to type); the help says what leaving it empty means
                          unset=T("option.colours.unset", "Letters such as GB or GBRY")),
}


#: Level 3's playouts an action with three or four players (within its 0.2 s): MCTS held below
#: what its time allows so that level 4 (the same search, 0.5 s) stands clear of it, while it
#: stays well above greedy (docs: strength.md, Slide Checkers 3–4 players).
LEVEL3_PLAYOUTS = 250


def describe(game: "SlideCheckersGame") -> GameDescription:
    # Two players: alpha-beta. Three or four: MCTS with max^n backups and short playouts scored
    # by the evaluator at every level from 3 (full random playouts lost to greedy 1.5-2.5 at
    # 0.2 s; capped at 12 actions MCTS won 3.5-0.5). Paranoid alpha-beta, which treats the
    # others as one coalition, lost to MCTS: depth 3 scored 44 % against 900 playouts with four
    # players and 29 % against 250 with three (docs: measurements/levels.md). Level 3 is held to LEVEL3_PLAYOUTS.
    if game.num_players == 2:
        heuristic = evaluate
        strongest = Search("alphabeta", rollout_cap=12, evaluator=evaluate)
        level3 = None
    else:
        heuristic = evaluate_multiplayer
        strongest = Search("mcts", rollout_cap=12, evaluator=heuristic)
        level3 = Search("mcts", rollout_cap=12, evaluator=heuristic, max_iterations=LEVEL3_PLAYOUTS)
    levels = standard_levels(strongest, level3=level3)
    # The learned value (issue 47) is trained on the two-player game on the default board and
    # colours (the features read any board, the weights only this one's play): there level 4
    # reads it, its seconds unchanged. At equal positions searched it beat the hand-set
    # evaluator by +195 Elo at 1,000 positions an action and by +94 at 10,000 (SPRT of 0 against
    # +50 Elo accepted both times; benchmarks/learned.py; docs: strength.md), so its gain shrinks
    # as the search grows: level 4 searches about 29,000 positions an action, level 6 about
    # 230,000 (docs: strength.md, what bounds each level). Read at level 6 it gave no step the ladder could see — 5-6 scored 61 % over 53
    # games (SPRT undecided) where the hand-set 5-6 had separated at 75 % — and read at 4-6 it
    # lifted level 5 almost to level 6. Greedy (level 2) lost with it at one ply (-280 Elo,
    # benchmarks/learned.py --level 2): it needs a search under it. So level 4 alone.
    learned = LEARNED if game.num_players == 2 and not game.non_default_options() else None
    if learned is not None:
        learned.play_at(levels, (4,))
    return GameDescription(
        name=game.name,
        title=T("title", "Slide Checkers"),
        summary=T("summary", "William Sethares' Fibonacci checkers for 2–4: slide freely through your own "
                             "colour, jump and capture or convert enemy pieces."),
        num_players=game.num_players, min_players=2, max_players=4,
        chance=False, hidden_information=False,
        evaluator=heuristic,
        levels=levels,
        tuning=Tuning(TERMS, WEIGHTS, terms, make_evaluator, squash,
                      "alphabeta:d2" if game.num_players == 2 else "paranoid:d2"),
        notation_help=T("notation", (
            "Placement: @e4. A step or slide is <from>-<to> (slides run through empty squares of your "
            "colour). A jump is <from>*<landing> plus r (remove the jumped piece) or e (exchange it for "
            "yours); c9>d8*f8r first slides to d8, then jumps. Continue a jump chain with *<landing>r or "
            "*<landing>e. pass when blocked.")),
        rules=T("rules", rules_page(__package__)),
        seats=tuple(SeatStyle(SEAT_NAMES[c], *PIECE[c]) for c in game.colours),
        board={f"square.{k}": v for k, v in SQUARE.items()},
        printable_board=True,
        learned=learned,
        variants=VARIANTS,
        web=web_dir(__package__),
        resources=package_files(__package__),
        options=OPTIONS,
        draw=diagram,
        examples=EXAMPLES,
        lessons=LESSONS,
    )
