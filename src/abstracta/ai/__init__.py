"""Game-neutral bots (DESIGN.md "Players, seats and levels").

* :class:`RandomBot` (level 1), :class:`GreedyBot` (level 2),
* :class:`MCTSBot` — UCT for any number of players,
* :class:`AlphaBetaBot` — iterative-deepening alpha-beta for two players,
* :class:`ISMCTSBot` — information-set MCTS for hidden information,
* :class:`TurnSearchBot` — alpha-beta over whole turns (two players, multi-action turns),
* :func:`make_bot` / :func:`parse_seat_spec` — the seat SPEC grammar and :data:`LEVELS`,
* :func:`run_match` / :func:`play_game` — bot-versus-bot games.
"""

from .alphabeta import AlphaBetaBot
from .base import Bot, Budget
from .greedy import GreedyBot
from .ismcts import ISMCTSBot
from .levels import LEVELS, level_search, make_bot, parse_seat_spec, strongest_search
from .match import MatchResult, play_game, run_match
from .mcts import MCTSBot
from .random_bot import RandomBot
from .turns import TurnSearchBot

__all__ = ["AlphaBetaBot", "Bot", "Budget", "GreedyBot", "ISMCTSBot", "LEVELS", "level_search", "make_bot",
           "parse_seat_spec", "strongest_search", "MatchResult", "play_game", "run_match", "MCTSBot",
           "RandomBot", "TurnSearchBot"]
