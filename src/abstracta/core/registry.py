"""Registry: game name -> Game class (DESIGN.md "Layout").

Each game package is listed here by import path and imported on first use, so the CLI and
server start fast and only talk to games through this registry and the spine.
"""

from __future__ import annotations

import importlib
from typing import Any

from .errors import UnknownGameError
from .game import Game

_GAMES: dict[str, str] = {
    "fanorona": "abstracta.games.fanorona:FanoronaGame",
    "nibble": "abstracta.games.nibble:NibbleGame",
    "fibonacci": "abstracta.games.fibonacci:FibonacciGame",
    "fibonacci-cards": "abstracta.games.fibonacci_cards:FibonacciCardsGame",
    "slide-checkers": "abstracta.games.slide_checkers:SlideCheckersGame",
}


def _import(path: str) -> type[Game] | None:
    module_name, _, attr = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            return None  # the game package is not written yet
        raise
    return getattr(module, attr, None)


def game_class(name: str) -> type[Game]:
    """The Game class registered as ``name``. Raises :class:`UnknownGameError`."""
    key = name.strip().lower()
    path = _GAMES.get(key)
    cls = _import(path) if path else None
    if cls is None:
        known = ", ".join(registered_games()) or "none"
        raise UnknownGameError(f"unknown game {name!r} (games: {known})")
    return cls


def load_game(name: str, **options: Any) -> Game:
    """``load_game("fanorona", size="dimy")`` — a Game with validated options.

    Raises:
        UnknownGameError: ``name`` is not registered.
        OptionError: an unknown option or a bad value.
    """
    return game_class(name)(**options)


def registered_games() -> list[str]:
    """Names of the games available in this installation, in the order of DESIGN.md."""
    return [name for name, path in _GAMES.items() if _import(path) is not None]


def register_game(name: str, path: str) -> None:
    """Register an extra game (``"package.module:GameClass"``)."""
    _GAMES[name] = path
