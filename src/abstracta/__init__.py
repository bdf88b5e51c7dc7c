"""abstracta — five abstract games played exactly and well.

Examples:
    >>> import abstracta
    >>> game = abstracta.load_game("fanorona", size="dimy")
    >>> state = game.new_initial_state()
    >>> state.legal_action_strings()
    ['b2-c3A', 'c2-c3A', 'd2-c3A', 'd3-c3A', 'd3-c3W']
"""

from .core.errors import (
    AbstractaError,
    IllegalActionError,
    NotationError,
    OptionError,
    PositionError,
    RecordError,
    UnknownGameError,
)
from .core.game import CHANCE, TERMINAL, Game, State
from .core.perft import perft
from .core.records import Record, load_record
from .core.registry import game_class, load_game, registered_games
from .core.rng import SplitMix64

__version__ = "0.1.0"

__all__ = [
    "AbstractaError", "IllegalActionError", "NotationError", "OptionError", "PositionError",
    "RecordError", "UnknownGameError", "CHANCE", "TERMINAL", "Game", "State", "perft",
    "Record", "load_record", "game_class", "load_game", "registered_games", "SplitMix64",
]
