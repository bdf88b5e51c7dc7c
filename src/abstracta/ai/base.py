"""The bot protocol every player of abstracta implements (DESIGN.md "Players, seats and levels").

A bot is handed a :class:`~abstracta.core.game.State` whose ``current_player()`` it plays and
answers one legal action. It never mutates the state it is given (searches work on clones).

Budgets: a search bot stops after a number of *iterations* (deterministic: same seed, same
moves) or after a number of *seconds* (not reproducible move for move). Seconds are CPU seconds
of the searching thread (:func:`search_clock`): on an idle machine the same as the wall clock;
on a loaded one a search takes longer instead of playing weaker, so a level is the same player
on a shared machine, in a busy server and in a tournament (issue 17).
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from dataclasses import dataclass
from typing import Any, Iterable, Protocol, runtime_checkable

from ..core.game import CHANCE, Game, State


@runtime_checkable
class Bot(Protocol):
    """A player: ``step`` answers a legal action for ``state.current_player()``.

    Attributes:
        name: short label shown in tables (e.g. ``"mcts:0.5"``).
    """

    name: str

    def step(self, state: State) -> int:
        """A legal action for ``state.current_player()``; never mutates ``state``."""
        ...

    def restart(self) -> None:
        """Forget everything about the previous game (called before each new game)."""
        ...


@dataclass(frozen=True)
class Budget:
    """How long a search may think about one action.

    Exactly one of the fields is set.

    Attributes:
        seconds: CPU seconds of the searching thread per action (> 0; :func:`search_clock`).
        iterations: search iterations per action (MCTS playouts; ≥ 1); deterministic.
        depth: fixed search depth in actions (alpha-beta only; ≥ 1); deterministic.
    """

    seconds: float | None = None
    iterations: int | None = None
    depth: int | None = None

    def __post_init__(self) -> None:
        given = [v for v in (self.seconds, self.iterations, self.depth) if v is not None]
        if len(given) != 1:
            raise ValueError("a budget is exactly one of seconds, iterations or depth")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"a time budget must be positive, got {self.seconds} s")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"an iteration budget must be at least 1, got {self.iterations}")
        if self.depth is not None and self.depth < 1:
            raise ValueError(f"a depth budget must be at least 1, got {self.depth}")

    @property
    def deterministic(self) -> bool:
        return self.seconds is None

    def text(self) -> str:
        """The SPEC suffix: ``"0.5"``, ``"i1000"`` or ``"d4"``."""
        if self.seconds is not None:
            return f"{self.seconds:g}"
        if self.iterations is not None:
            return f"i{self.iterations}"
        return f"d{self.depth}"


def as_budget(budget: Budget | float | int | None, default_seconds: float = 1.0) -> Budget:
    """Accept a :class:`Budget`, a number of seconds (float) or ``None`` (the default)."""
    if budget is None:
        return Budget(seconds=default_seconds)
    if isinstance(budget, Budget):
        return budget
    return Budget(seconds=float(budget))


_stops = threading.local()
_NEVER = threading.Event()  # never set: the stop signal of a thread nobody can stop


def stop_signal() -> threading.Event:
    """The event that asks the searches of this thread to stop now (see :func:`stoppable`)."""
    return getattr(_stops, "event", _NEVER)


@contextlib.contextmanager
def stoppable(event: threading.Event):
    """Searches started in this thread inside the block end early once ``event`` is set: a
    time-budgeted search is anytime, so it then answers its best action so far (the server's bot
    jobs set it when a job is cancelled or overruns its budget)."""
    previous = getattr(_stops, "event", None)
    _stops.event = event
    try:
        yield event
    finally:
        if previous is None:
            del _stops.event
        else:
            _stops.event = previous


def search_clock() -> float:
    """The clock time budgets are counted on: CPU seconds of the calling thread (~1 µs a read).

    Wall-clock budgets made the ladder depend on the machine's load: at a load of 20 a level
    got a tenth of its thinking and lost to the level below (issue 17)."""
    return time.thread_time()


class Deadline:
    """Cheap budget check: ``expired()`` reads :func:`search_clock` only every ``every`` calls.

    It also expires when the thread's :func:`stop_signal` is set (checked as often as the
    clock), with or without a time budget."""

    __slots__ = ("end", "every", "_count", "_hit", "_stop")

    def __init__(self, seconds: float | None, every: int = 64):
        self.end = None if seconds is None else search_clock() + seconds
        self.every = every
        self._count = 0
        self._hit = False
        self._stop = stop_signal()

    def expired(self) -> bool:
        if self._hit:
            return True
        self._count += 1
        if self._count >= self.every:
            self._count = 0
            if self._stop.is_set() or (self.end is not None and search_clock() >= self.end):
                self._hit = True
        return self._hit

    def remaining(self) -> float:
        return float("inf") if self.end is None else self.end - search_clock()


def player_view(state: State, rng: random.Random) -> State:
    """The state a bot may search from without peeking.

    Perfect information: ``state`` itself (callers clone before mutating). Hidden
    information: a determinization drawn with ``resample_from_infostate`` for the player to move.
    """
    if state.game.has_hidden_information:
        return state.resample_from_infostate(state.current_player(), rng)
    return state


def sample_chance(state: State, rng: random.Random) -> int:
    """An outcome of the chance node ``state`` drawn by its probabilities."""
    outcomes = state.chance_outcomes()
    x = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if x < acc:
            return action
    return outcomes[-1][0]


def check_playable(state: State) -> int:
    """The player to move; raises ``ValueError`` if the state is terminal or a chance node."""
    player = state.current_player()
    if player < 0:
        what = "chance node" if player == CHANCE else "finished game"
        raise ValueError(f"a bot cannot move in a {what}: {state.to_text()!r}")
    return player


__all__ = ["Bot", "Budget", "Deadline", "search_clock", "as_budget", "stop_signal", "stoppable", "player_view", "sample_chance", "check_playable",
           "Game", "State"]


def most_visited(children: Iterable[Any]) -> Any | None:
    """The child a tree search plays: most visits, then best mean value (``None`` if empty).

    Children are tree nodes with ``visits`` and ``value`` (sum of returns) attributes."""
    return max(children, key=lambda ch: (ch.visits, ch.value / ch.visits if ch.visits else 0.0), default=None)
