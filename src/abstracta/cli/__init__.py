"""The ``abstracta`` command (Typer + Rich), one module per group of subcommands.

Every subcommand is game-neutral: it talks to games only through the registry and the spine,
so a newly registered game gets all of them for free. ``abstracta --help`` lists the commands
playing first (``play``, ``serve``), then studying a game, records, bots against bots and
benchmarks (``base.COMMAND_ORDER``).

==========  =======================================================================
module      commands
==========  =======================================================================
play        ``play`` (the game itself runs in ``terminal``: the play session's front)
serve       ``serve``
rules       ``games``, ``perft``, ``moves``, ``apply``, ``analyse``
records     ``replay``
bots        ``match``, ``tournament``, ``tune``, ``dataset``
bench       ``board``, ``bench``, ``solve``, ``egtb``
users       ``users`` (accounts of the web app)
db          ``db backup``, ``db restore``
moderation  ``moderation list``, ``ban``, ``unban`` (the chat reports and bans of the web app)
base        the app, the consoles, what the groups share
==========  =======================================================================
"""

from __future__ import annotations

import sys

from . import rules, records, play, bots, bench, serve, users, db, moderation  # noqa: F401,E401 - each registers its commands
from .base import app


def main() -> None:
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        # a terminal in ASCII or Latin-1 gets "?" for a board's "—" or "▶" (and a typed "é"
        # is a bad move), not a traceback
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    app()


__all__ = ["app", "main"]
