"""Computer players for the web app, run in worker processes (issue 7 §3).

:func:`choose_action` is the function a worker runs: it replays the match's record, asks the
bot of ``spec`` (``level:N``, DESIGN.md "Players, seats and levels") for one action and returns
its notation.
"""

from __future__ import annotations

import re

from ..ai.levels import LEVELS, make_bot
from ..core.records import Record

SEAT_SPEC = re.compile(r"^(human|level:[1-6])$")


def is_bot(spec: str) -> bool:
    return spec.startswith("level:")


def timeout_for(spec: str) -> float:
    """How long the server waits for one bot action before falling back to a random move."""
    try:
        level = int(spec.split(":", 1)[1])
    except (IndexError, ValueError):
        level = 1
    budget = LEVELS[level].seconds if level in LEVELS else None
    return 20.0 + 4 * (budget or 0.0)


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


def analysis_job(record_json: str, points: list[tuple[int, int | None]], scale: float = 1.0,
                 seed: int = 0) -> list[dict]:
    """The analysis board's job (issue 16): replay ``record_json`` and analyse the position
    after each ``(ply, viewer)`` of ``points`` (``abstracta.ai.analysis.analyse``, from what
    ``viewer`` may know) with ``scale`` × the game's fixed budget. Returns one
    ``Analysis.to_dict()`` per point, in order. Pure: same arguments, same answer.

    Raises :class:`abstracta.RecordError` if the record does not replay, ``ValueError`` for a
    ply outside the record or a chance node."""
    from ..ai.analysis import analyse, analysis_budget

    record = Record.from_json(record_json)
    game = record.make_game()
    state = record.initial_state(game)
    actions = record.replay()[1]
    budget = max(1, int(round(analysis_budget(game) * scale)))
    out = []
    at = 0
    for ply, viewer in points:
        if not 0 <= ply <= len(actions) or ply < at:
            raise ValueError(f"ply {ply} is not in the record (0…{len(actions)}, in order)")
        while at < ply:
            state.apply_action(actions[at])
            at += 1
        out.append(analyse(state, viewer, budget, seed=seed).to_dict())
    return out
