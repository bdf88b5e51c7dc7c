"""What the Fibonacci card game declares about itself (the spine's :class:`GameDescription`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.description import (GameDescription, OptionText, Search, SeatStyle, Tuning, Variant, rules_page,
                                 standard_levels, texts, web_dir, package_files)
from .evaluate import TERMS, WEIGHTS, evaluate, make_evaluator, squash, terms

if TYPE_CHECKING:  # pragma: no cover
    from .rules import FibonacciCardsGame

T = texts("fibonacci-cards")

VARIANTS = (Variant({}, T("variant.standard", "Two players")),)


def _rule_bot(game: Any, seed: int | None) -> Any:
    from .bot import FibonacciCardsRuleBot

    return FibonacciCardsRuleBot(game, seed)


OPTIONS = {
    "seed": OptionText(T("option.seed", "Seed"), T("option.seed.help", "Fixes the deal; empty: shuffled at random"),
                       unset=T("option.seed.unset", "Random")),
    "first_player": OptionText(T("option.first_player", "Who leads"),
                               T("option.first_player.help", "Empty: decided at random after the deal"),
                               {"0": T("first.0", "Player 1"), "1": T("first.1", "Player 2")},
                               unset=T("option.first_player.unset", "At random")),
}


def describe(game: "FibonacciCardsGame") -> GameDescription:
    # Measured with iteration budgets on duplicate deals (benchmarks/cards_search.py): IS-MCTS
    # gains over greedy once (i200: 66 % over 40 games) but not with more iterations (i1600 vs
    # i400: 50 % over 48; i200 vs i25: 65 %, i25 vs greedy: 60 %); UCT that sees every card
    # scores 97.5 % against greedy, so the game is mostly hidden information, not luck. Three
    # levels are distinct: random, greedy, IS-MCTS; levels 4-6 are IS-MCTS with more time, not
    # stronger than level 3 (README "Strength").
    strongest = Search("ismcts", evaluator=evaluate)
    return GameDescription(
        name=game.name,
        title=T("title", "Fibonacci card game"),
        summary=T("summary", "A card game of sums: play a card worth the sum of two table piles, or cut a "
                             "big pile down to one; empty your hand first."),
        num_players=2, min_players=2, max_players=2,
        chance=True, hidden_information=True,
        evaluator=evaluate,
        levels=standard_levels(strongest, hidden_information=True),
        # the evaluator is read by greedy (level 2) and IS-MCTS's capped playouts, so greedy tunes it
        tuning=Tuning(TERMS, WEIGHTS, terms, make_evaluator, squash, "greedy"),
        bots={"rule": _rule_bot},
        notation_help=T("notation", (
            "7h>1 plays the 7 of hearts on pile 1 as a sum (it equals two piles, or all three); "
            "5s/2 cuts pile 2 down with a card of the same rank (needs two piles summing over 14). "
            "draw when you cannot play (only the drawn card may then be played); pass when the stock is "
            "empty. Ace = 14 in hand, 1 on the table.")),
        rules=T("rules", rules_page(__package__)),
        seats=(SeatStyle(None), SeatStyle(None)),
        board={"table": "#2f6b45", "card": "#fffdf7", "red_suit": "#c8322b", "black_suit": "#222222"},
        variants=VARIANTS,
        web=web_dir(__package__),
        resources=package_files(__package__),
        options=OPTIONS,
    )
