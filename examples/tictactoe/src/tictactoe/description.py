"""What tic-tac-toe declares about itself: abstracta reads this and nothing else about the game."""

from __future__ import annotations

from typing import Any

from abstracta.core.description import (GameDescription, Search, SeatStyle, Variant, rules_page,
                                        standard_levels, texts, web_dir)

from .evaluate import evaluate

T = texts("tictactoe")


def describe(game: Any) -> GameDescription:
    # The whole game tree has 549,946 nodes: alpha-beta solves it within level 4's half second.
    strongest = Search("alphabeta", evaluator=evaluate)
    return GameDescription(
        name=game.name,
        title=T("title", "Tic-tac-toe"),
        summary=T("summary", "Three in a row on a 3×3 grid. A plug-in example: installed beside abstracta, "
                             "it appears everywhere."),
        num_players=2, min_players=2, max_players=2,
        chance=False, hidden_information=False,
        evaluator=evaluate,
        levels=standard_levels(strongest),
        notation_help=T("notation", "A move is the cell you mark: a1 (bottom left) … c3 (top right)."),
        rules=T("rules", rules_page(__package__)),
        seats=(SeatStyle(T("seat.0", "X"), "#1f5fa8", "#fff"), SeatStyle(T("seat.1", "O"), "#c8322b", "#fff")),
        board={"background": "#f7f3ea", "lines": "#333333"},
        variants=(Variant({}, T("variant.default", "Tic-tac-toe"), (".../.X./... O",)),),
        web=web_dir(__package__),
    )
