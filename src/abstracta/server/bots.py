"""Computer players for the web app: seat specs and the set-up of a bot worker process.

The jobs themselves (what a worker is sent and runs, the lanes, cancellation, Ray) are in
:mod:`abstracta.server.botjobs`. :func:`choose_action` answers one move from a whole record
(tests and tools; the server never sends a record with a seed to a worker).
"""

from __future__ import annotations

import re

from ..ai.levels import make_bot
from ..core.records import Record

SEAT_SPEC = re.compile(r"^(human|level:[1-6])$")


def is_bot(spec: str) -> bool:
    return spec.startswith("level:")


def worker_init(parent_pid: int) -> None:
    """Run in each bot worker at start. Ctrl-C in a terminal reaches the whole process group:
    workers ignore it (the server stops them itself, without tracebacks); and a worker exits
    when the server process is gone (killed without a chance to stop its pool), so no worker
    outlives the server."""
    import os
    import signal
    import threading
    import time

    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent_pid:
                os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def warm_up() -> int:
    """Import the games and bots in a fresh worker so that the first real move is quick."""
    from ..core.registry import game_class, registered_games

    names = registered_games()
    for name in names:
        game_class(name)
    return len(names)


def choose_action(record_json: str, spec: str, seed: int | None = None) -> str:
    """Replay ``record_json`` and return the notation of the action the bot ``spec`` plays.

    Raises :class:`abstracta.RecordError` if the record does not replay, ``ValueError`` if the
    game is over.
    """
    record = Record.from_json(record_json)
    state, _ = record.replay()
    if state.is_terminal():
        raise ValueError("the game is over")
    bot = make_bot(spec, state.game, seed=seed)
    if bot is None:
        raise ValueError(f"seat spec {spec!r} is not a computer player")
    action = bot.step(state.clone())
    if action not in state.legal_actions():
        raise ValueError(f"{spec} chose action {action!r}, which is not legal here")
    return state.action_to_string(action)
