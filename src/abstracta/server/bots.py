"""Computer players for the web app, run in worker processes (issue 7 §3).

:func:`choose_action` is the function a worker runs: it replays the match's record, asks the
bot of ``spec`` (``level:N``, DESIGN.md "Players, seats and levels") for one action and returns
its notation. ``abstracta.ai.levels.make_bot`` is used when it exists; otherwise (or when it
has no bot for the game) a uniformly random legal action is chosen.
"""

from __future__ import annotations

import random
import re
from typing import Any

from ..core.records import Record

SEAT_SPEC = re.compile(r"^(human|level:[1-6])$")

#: Per-level move time budgets in seconds (DESIGN.md); ``None``: instant.
BUDGETS: dict[int, float | None] = {1: None, 2: None, 3: 0.2, 4: 0.5, 5: 1.5, 6: 4.0}


def is_bot(spec: str) -> bool:
    return spec.startswith("level:")


def timeout_for(spec: str) -> float:
    """How long the server waits for one bot action before falling back to a random move."""
    try:
        level = int(spec.split(":", 1)[1])
    except (IndexError, ValueError):
        level = 1
    budget = BUDGETS.get(level) or 0.0
    return 20.0 + 4 * budget


def _make_bot(spec: str, game: Any, seed: int | None) -> Any:
    try:
        from ..ai.levels import make_bot  # type: ignore[import-not-found]
    except ImportError:
        return None
    try:
        return make_bot(spec, game, seed=seed)
    except Exception:  # noqa: BLE001 - a broken bot must not stop the game
        return None


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
    try:
        from ..ai import levels  # type: ignore[attr-defined]  # noqa: F401
    except ImportError:
        pass
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
    game = getattr(state, "game", None) or record.make_game()
    legal = state.legal_actions()
    bot = _make_bot(spec, game, seed)
    action = None
    if bot is not None:
        try:
            action = bot.step(state.clone())
        except Exception:  # noqa: BLE001
            action = None
    if action not in legal:
        action = random.Random(seed).choice(legal)
    return state.action_to_string(action)
