"""Registry: game name -> Game class (DESIGN.md "Layout").

Games register through the ``abstracta.games`` entry-point group, the built-in ones too (see
``pyproject.toml``): a package installed beside abstracta that declares::

    [project.entry-points."abstracta.games"]
    tictactoe = "tictactoe:TicTacToeGame"

appears in every command, the levels, the benchmarks and the web app. Entry points are read
once and imported on first use, so the CLI and server start fast. :func:`register_game` adds a
game at run time (tests, notebooks).
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any

from .errors import UnknownGameError
from .game import Game

#: The entry-point group games register in.
GROUP = "abstracta.games"

_extra: dict[str, str | type[Game]] = {}
_found: dict[str, str] | None = None
_loaded: dict[str, type[Game]] = {}


class GameLoadError(UnknownGameError):
    """A registered game whose package fails to import or does not hold a Game class."""


def game_key(name: str) -> str:
    """The registry's reading of a game name: case and the spaces around it tell nothing
    (``" Fanorona "`` is ``fanorona``)."""
    return name.strip().lower()


def _entry_points() -> dict[str, str]:
    global _found
    if _found is None:
        # filled aside and published whole: the server's threads ask at once at its start, and
        # one that read the dict while another filled it saw no games (the served catalog of
        # messages, cached, then had none of theirs: an English page read their keys)
        found: dict[str, str] = {}
        for ep in entry_points(group=GROUP):
            found.setdefault(game_key(ep.name), ep.value)
        _found = found
    return _found


def _targets() -> dict[str, str | type[Game]]:
    return {**_entry_points(), **_extra}


def _load(name: str, target: str | type[Game]) -> type[Game]:
    if isinstance(target, type):
        cls: Any = target
    else:
        module_name, _, attr = target.partition(":")
        try:
            module = importlib.import_module(module_name)
        except Exception as exc:  # a broken plug-in is named, never silently dropped
            raise GameLoadError(f"game {name!r} ({target}) does not import: "
                                f"{type(exc).__name__}: {exc}") from exc
        cls = module
        for part in attr.split(".") if attr else []:
            cls = getattr(cls, part, None)
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise GameLoadError(f"game {name!r}: {target} is not a Game class")
    if cls.name != name:
        raise GameLoadError(f"game {name!r}: {target} calls itself {cls.name!r}")
    return cls


def game_class(name: str) -> type[Game]:
    """The Game class registered as ``name``.

    Raises:
        UnknownGameError: ``name`` is not registered (the message lists the games).
        GameLoadError: it is registered but its package does not import or is not a game.
    """
    if not isinstance(name, str):
        raise UnknownGameError(f"unknown game {name!r}: a game name is a string")
    key = game_key(name)
    cls = _loaded.get(key)
    if cls is not None:
        return cls
    target = _targets().get(key)
    if target is None:
        known = ", ".join(registered_games()) or "none"
        raise UnknownGameError(f"unknown game {name!r} (games: {known})")
    cls = _loaded[key] = _load(key, target)
    return cls


def load_game(name: str, **options: Any) -> Game:
    """``load_game("fanorona", size="dimy")`` — a Game with validated options.

    Raises:
        UnknownGameError: ``name`` is not registered (or its package is broken: GameLoadError).
        OptionError: an unknown option or a bad value.
    """
    return game_class(name)(**options)


def registered_games() -> list[str]:
    """Names of the registered games, sorted (nothing is imported)."""
    return sorted(_targets())


def register_game(name: str, target: str | type[Game]) -> None:
    """Register a game at run time: a Game class or ``"package.module:GameClass"``.

    Overrides an entry point of the same name."""
    key = game_key(name)
    _extra[key] = target
    _loaded.pop(key, None)


def rescan() -> None:
    """Read the entry points again (after installing a game into the running interpreter)."""
    global _found
    _found = None
    _loaded.clear()
