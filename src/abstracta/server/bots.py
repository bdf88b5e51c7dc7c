"""Computer players for the web app: seat specs and the set-up of a bot worker process.

The jobs themselves (what a worker is sent and runs, the lanes, cancellation, Ray) are in
:mod:`abstracta.server.botjobs`. :func:`choose_action` answers one move from a whole record
(tests and tools; the server never sends a record with a seed to a worker). In a game whose turn is written as one set
(``whole_turn_notation``: Nibble's ``a1+c1``) the bot's whole turn is played in the game's canonical
order. The server's jobs answer one action each, as the bot finds them; the match service puts a
computer's finished turn in that order (``MatchService._canonical_turn``).
"""

from __future__ import annotations

import re

from ..ai.levels import LEVELS, make_bot
from ..core.records import Record
from ..core.registry import game_class, registered_games

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
    if state.game.description.whole_turn_notation:
        action = _turn_action(bot, state, spec)
    else:
        action = bot.step(state.clone())
    if action not in state.legal_actions():
        raise ValueError(f"{spec} chose action {action!r}, which is not legal here")
    return state.action_to_string(action)


# (spec, position text) -> the next action of a turn this worker already planned
_PLANNED: dict[tuple[str, str], int] = {}
_MAX_TURN = 256


def _turn_action(bot, state, spec: str) -> int:
    """The bot's next action in a game whose turn is one set written in canonical order: the
    bot plays the rest of its turn on a copy and its actions are put in the game's canonical
    order (:meth:`Game.canonical_turn`), so a computer's take of a1 and c1 is always played
    a1 then c1, never in the order a tie-break happened to choose. The rest of the turn is
    remembered for the next calls in this worker (a miss, in another worker, plans again)."""
    key = (spec, state.to_text())
    planned = _PLANNED.pop(key, None)
    if planned is not None and planned in state.legal_actions():
        return planned
    import time

    mover = state.current_player()
    trial = state.clone()
    turn: list[int] = []
    # a long turn is planned in parts, so that no call outlasts the server's wait for it
    # (its level's seconds a few times over); each part is put in canonical order
    level = LEVELS.get(int(spec.split(":")[1])) if spec.startswith("level:") and spec[6:].isdigit() else None
    deadline = time.monotonic() + 4 * ((level.seconds if level else None) or 2.5)
    while (not trial.is_terminal() and trial.current_player() == mover and len(turn) < _MAX_TURN
           and (not turn or time.monotonic() < deadline)):
        action = bot.step(trial.clone())
        trial.apply_action(action)
        turn.append(action)
    turn = state.game.canonical_turn(state, turn)
    if len(_PLANNED) > 1024:
        _PLANNED.clear()
    walk = state.clone()
    for action, following in zip(turn, turn[1:]):
        walk.apply_action(action)
        _PLANNED[(spec, walk.to_text())] = following
    return turn[0]
