"""What the Fibonacci card game declares about itself (the spine's :class:`GameDescription`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.description import (GameDescription, OptionText, Search, SeatStyle, Tuning, Variant, rules_page,
                                 texts, web_dir, package_files)
from .bot import FibonacciCardsRuleBot
from .evaluate import TERMS, WEIGHTS, evaluate, make_evaluator, squash, terms
from .examples import EXAMPLES
from .lessons import LESSONS
from .svg import diagram

if TYPE_CHECKING:  # pragma: no cover
    from .rules import FibonacciCardsGame

T = texts("fibonacci-cards")

VARIANTS = (Variant({}, T("variant.standard", "Two players")),)


def inferred_deal(state: Any, observer: int, rng: Any) -> Any:
    """A determinization that deals the opponent only cards his draws and passes showed he
    could hold (``resample_from_infostate(..., infer=True)``; level 4)."""
    return state.resample_from_infostate(observer, rng, infer=True)


def _rule_bot(game: Any, seed: int | None) -> Any:
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
    # Measured with iteration budgets on duplicate deals (benchmarks/cards_search.py, docs:
    # strength.md): IS-MCTS beats greedy (i200: 64.8 % over 200 games) but more iterations gain
    # next to nothing (i800 vs i200: 54 %); what gains is information: IS-MCTS that knows the
    # opponent's hand scores 68.8 % against it, one that deals him only the cards his draws and
    # passes allow (``infer``) 54.0 % at equal iterations and 62.9 % with 1000 against 200.
    # So level 3 is plain IS-MCTS held to 200 playouts, level 4 IS-MCTS on inferred deals. The
    # game has four distinct strengths (issue 46, the owner's decision): a fifth and sixth were
    # the same search with more time, which did not make it stronger (4-5: 49.1 % over 56 ladder
    # games), and the whole legal range (+310 Elo, level 4 against random) holds no two more
    # steps of 65 %. A seat or record naming level 5 or 6 plays level 4 (ai.levels.read_level).
    levels = {1: Search("random"), 2: Search("greedy", evaluator=evaluate),
              3: Search("ismcts", evaluator=evaluate, max_iterations=200),
              4: Search("ismcts", evaluator=evaluate, determinize=inferred_deal)}
    return GameDescription(
        name=game.name,
        title=T("title", "Fibonacci card game"),
        summary=T("summary", "A card game of sums: play a card worth the sum of two table piles, or cut a "
                             "big pile down to one; empty your hand first."),
        num_players=2, min_players=2, max_players=2,
        chance=True, hidden_information=True,
        evaluator=evaluate,
        levels=levels,
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
        draw=diagram,
        examples=EXAMPLES,
        lessons=LESSONS,
    )
