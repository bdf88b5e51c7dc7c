"""Perfect play where it can be had (issue 18): the solver of Fanoron-Telo, Dimy's progress,
the table player and the oracle that levels 5–6 consult (Spec: fanorona.md §3–§4).

* :func:`solve` — ``abstracta solve fanorona --option size=…``: Telo is solved whole by the
  retrograde analysis of :mod:`.egtb` (every position with at most four stones a side);
  Dimy reports how far the same analysis gets (its small tables) and what is missing.
* :class:`TablePlayer` — picks, at any point of a turn (also inside a capture chain), the
  action that starts the best complete turn by the tables: the fastest win, else a draw,
  else the slowest loss; ties go to the first action in canonical order.
* :func:`oracle` — the :class:`~abstracta.core.description.Search` oracle of levels 5–6: the
  table player's action when the tables cover the position, else ``None`` (search on).
"""

from __future__ import annotations

import time
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ...core.description import Solution
from . import egtb
from .egtb import Lookup, TableSet, after_turn, decode

if TYPE_CHECKING:  # pragma: no cover
    from .rules import FanoronaGame, FanoronaState

#: Stones a side at the start (Spec §2): Telo 4, Dimy 12, Tsivy 22.
START_STONES = {"telo": 4, "dimy": 12, "tsivy": 22}
#: Dimy tables the solver builds in memory to report its progress (all with ≤ this many stones).
DIMY_STONES = 4


def reachable(game: "FanoronaGame") -> dict[str, int]:
    """Count the positions reachable from the start (breadth-first over whole turns).

    Returns ``{"turn_starts": …, "terminal": …, "mid_chain": …, "total": …}``: turn-start
    positions (board and side to move; ``terminal`` of them end the game) and the distinct
    states inside a capture chain (board, side, chain point, last direction, visited points).
    A turn-start position is counted once whatever its history (repetition count,
    no-progress counter)."""
    from .rules import FanoronaState

    start = game.new_initial_state()
    white, black = start.bitboards()
    seen = {(white, black, 0)}
    frontier = list(seen)
    mid: set[int] = set()
    terminal = 0

    def walk(state: "FanoronaState", out: list[tuple[int, int, int]]) -> None:
        side = state.current_player()
        for action in list(state.legal_actions()):
            state.apply_action(action)
            if state.current_player() == side:
                mid.add(state.hash_key())
                walk(state, out)
            else:
                w, b = state.bitboards()
                out.append((w, b, state.side))
            state.undo_action()

    while frontier:
        following = []
        for w, b, side in frontier:
            state = FanoronaState(game, w, b, side)
            if state.is_terminal():
                terminal += 1
                continue
            ends: list[tuple[int, int, int]] = []
            walk(state, ends)
            for key in ends:
                if key not in seen:
                    seen.add(key)
                    following.append(key)
        frontier = following
    return {"turn_starts": len(seen), "terminal": terminal, "mid_chain": len(mid), "total": len(seen) + len(mid)}


@lru_cache(maxsize=4)
def _solved_tables(size: str) -> tuple[Lookup, dict[str, Any]]:
    """Every table of a board solved whole in memory (Telo), cached per process."""
    from .rules import FanoronaGame

    game = FanoronaGame(size=size)
    per_side = START_STONES[size]
    return egtb.solve_in_memory(game, 2 * per_side, per_side)


def own_opp(state: "FanoronaState") -> tuple[int, int]:
    """``(mover's stones, other side's stones)`` of a state at a turn start."""
    white, black = state.bitboards()
    return (white, black) if state.side == 0 else (black, white)


class TablePlayer:
    """Perfect play from tables (``lookup``): see the module docstring.

    ``choose(state)`` returns ``None`` when a table the turn reaches is missing."""

    def __init__(self, lookup: Lookup):
        self.lookup = lookup

    def position_code(self, state: "FanoronaState") -> int | None:
        """The table code of a turn-start ``state`` for its mover (``None``: not tabled)."""
        return self.lookup.code(*own_opp(state))

    def _best(self, state: "FanoronaState", side: int) -> int | None:
        """Best :func:`after_turn` rank over the ways to finish the turn from ``state``."""
        best = None
        for action in list(state.legal_actions()):
            state.apply_action(action)
            try:
                if state.current_player() == side:
                    r = self._best(state, side)
                else:
                    white, black = state.bitboards()
                    code = self.lookup.code(*((black, white) if side == 0 else (white, black)))
                    r = None if code is None else after_turn(code)
            finally:
                state.undo_action()
            if r is None:
                return None
            if best is None or r > best:
                best = r
        return best

    def ranked(self, state: "FanoronaState") -> list[tuple[int, int]] | None:
        """``[(rank, action)]`` for every legal action (larger rank = better for the mover)."""
        work = state.clone()
        side = work.current_player()
        out = []
        for action in list(work.legal_actions()):
            work.apply_action(action)
            try:
                if work.current_player() == side:
                    r = self._best(work, side)
                else:
                    white, black = work.bitboards()
                    code = self.lookup.code(*((black, white) if side == 0 else (white, black)))
                    r = None if code is None else after_turn(code)
            finally:
                work.undo_action()
            if r is None:
                return None
            out.append((r, action))
        return out

    def choose(self, state: "FanoronaState") -> int | None:
        """The action of perfect play (first in canonical order among equals), or ``None``."""
        if state.is_terminal():
            return None
        ranked = self.ranked(state)
        if not ranked:
            return None
        best = max(r for r, _ in ranked)
        return next(a for r, a in ranked if r == best)


class TableBot:
    """The seat spec ``table``: perfect play where the tables reach, else ``fallback``.

    Attributes:
        name: ``"table"``.
        answered: actions the tables chose since :meth:`restart`.
    """

    def __init__(self, player: TablePlayer, fallback: Callable[[], Any] | None = None, name: str = "table"):
        self.player = player
        self.name = name
        self._fallback_factory = fallback
        self._fallback: Any = None
        self.answered = 0

    def step(self, state: "FanoronaState") -> int:
        action = self.player.choose(state)
        if action is not None:
            self.answered += 1
            return action
        if self._fallback is None:
            if self._fallback_factory is None:
                raise ValueError(f"no table covers {state.to_text()!r}")
            self._fallback = self._fallback_factory()
        return self._fallback.step(state)

    def restart(self) -> None:
        self.answered = 0
        if self._fallback is not None:
            self._fallback.restart()


def table_player(game: "FanoronaGame", directory: Path | None = None) -> TablePlayer:
    """The table player of ``game``'s board: Telo's whole solution (built in memory on first
    use, about a second), else the endgame tables on disk (``directory`` or the default)."""
    size = game.geometry.size
    if size == "telo":
        return TablePlayer(_solved_tables(size)[0])
    return TablePlayer(TableSet(game, directory))


def make_table_bot(game: "FanoronaGame", seed: int | None = None) -> TableBot:
    """Factory of the ``table`` seat (``GameDescription.bots``): falls back on 1-second
    alpha-beta where no table reaches."""
    from ...ai.alphabeta import AlphaBetaBot

    # a partial, not a lambda: the bot pickles (a Gymnasium environment, a Ray worker)
    return TableBot(table_player(game), partial(AlphaBetaBot, game, 1.0, seed=seed))


class Probe:
    """What levels 5–6 read from the tables of ``game``'s board, found lazily (a level built
    before ``abstracta egtb build`` simply searches; the directory is read on first use).

    * :meth:`oracle` (``Search.oracle``): the table player's action when every way to finish
      the current turn reaches a tabled position, else ``None``;
    * :meth:`evaluate` (``Search.evaluator``): at a search leaf, the exact value of a tabled
      turn-start position (a win ``0.99 − d/10⁴``, a loss its negative, shorter wins and longer
      losses preferred, a draw 0 — beyond any heuristic value, which stays within ±0.95),
      else ``base``.
    """

    def __init__(self, game: "FanoronaGame", base: Callable[["FanoronaState", int], float]):
        self.game = game
        self.base = base
        self._player: TablePlayer | None = None
        self._stones = 0

    @property
    def player(self) -> TablePlayer:
        if self._player is None:
            self._player = table_player(self.game)
            lookup = self._player.lookup
            if isinstance(lookup, TableSet):
                self._stones = max((s for s in range(2, 9) if lookup.covers(s)), default=0)
            else:
                self._stones = 2 * START_STONES[self.game.geometry.size]
        return self._player

    @property
    def reads(self) -> str | None:
        """The tables this probe finds (``"tables of 2-4 stones"``), ``None`` without any: part
        of the levels' fingerprints (``abstracta.ai.levels.level_fingerprint``), as a level with
        tables is another player than the same level without them."""
        self.player  # noqa: B018  # finds the tables and their stones
        if self._stones < 2 or self.game.geometry.size == "telo":
            return None
        return f"tables of 2-{self._stones} stones"

    def oracle(self, state: "FanoronaState") -> int | None:
        # cheap above the tables: the first turn ending in an untabled material stops the probe
        return self.player.choose(state)

    def evaluate(self, state: "FanoronaState", player: int) -> float:
        tables = self.player
        white, black = state.bitboards()
        if (white | black).bit_count() <= self._stones and state.chain() is None:
            code = tables.lookup.code(*((white, black) if state.side == 0 else (black, white)))
            if code is not None:
                value, d = decode(code)
                v = 0.0 if not value else value * (0.99 - d * 1e-4)  # type: ignore[operator]
                return v if player == state.side else -v
        return self.base(state, player)


def make_probe(game: "FanoronaGame", base: Callable[["FanoronaState", int], float]) -> Probe:
    """The :class:`Probe` of levels 5–6 for ``game`` (see there)."""
    return Probe(game, base)


# --- the solver -------------------------------------------------------------------------------

def solve(game: "FanoronaGame", progress: Callable[[str], None] | None = None) -> Solution:
    """Solve ``game`` (``abstracta solve``): Telo whole, Dimy as far as the tables go.

    Raises ``ValueError`` for Tsivy (use the endgame tables) and for the ``vela`` and
    ``first_turn_single_capture`` options."""
    if game.vela or game.first_turn_single_capture:
        raise ValueError("the solver covers the standard rules only (no vela, no first_turn_single_capture)")
    size = game.geometry.size
    t0 = time.perf_counter()
    if size == "telo":
        lookup, figures = _solved_tables(size)
        seconds = time.perf_counter() - t0
        start = game.new_initial_state()
        value, distance = decode(lookup.code(*own_opp(start)))  # type: ignore[arg-type]
        counts = reachable(game)
        proved = sum(f["positions"] for f in figures.values())
        values = _reachable_values(game, lookup)
        return Solution(True, value, distance, proved, {
            "reachable": counts, "reachable_values": values,
            "tables": len(figures), "longest": max(f["longest"] for f in figures.values()),
            "seconds": round(seconds, 2),
            "method": "retrograde analysis of every position with at most 4 stones a side"})
    if size == "dimy":
        lookup, figures = egtb.solve_in_memory(game, DIMY_STONES, None, progress)
        seconds = time.perf_counter() - t0
        proved = sum(f["positions"] for f in figures.values())
        return Solution(False, None, None, proved, {
            "tables": {k: {x: f[x] for x in ("positions", "wins", "draws", "losses", "longest")}
                       for k, f in figures.items()},
            "stones": DIMY_STONES, "seconds": round(seconds, 2),
            # more tables may have been built (abstracta egtb build --option size=dimy --stones N)
            "tables_on_disk": max((s for s in range(2, 9) if TableSet(game).covers(s)), default=0),
            "missing": "tables up to 24 stones (3^25 boards): see the README, 'Perfect play'"})
    raise ValueError(f"{size}: the whole game is out of reach here; build its endgame tables "
                     "(abstracta egtb build) instead")


def _reachable_values(game: "FanoronaGame", lookup: Lookup) -> dict[str, int]:
    """Wins, draws and losses (for the side to move) among the turn-start positions reachable
    from the start."""
    from .rules import FanoronaState

    start = game.new_initial_state()
    w0, b0 = start.bitboards()
    seen = {(w0, b0, 0)}
    frontier = list(seen)
    tally = {"wins": 0, "draws": 0, "losses": 0}
    while frontier:
        following = []
        for w, b, side in frontier:
            own, opp = (w, b) if side == 0 else (b, w)
            value, _ = decode(lookup.code(own, opp))  # type: ignore[arg-type]
            tally[{1: "wins", 0: "draws", -1: "losses"}[value]] += 1
            state = FanoronaState(game, w, b, side)
            if state.is_terminal():
                continue
            ends: list[tuple[int, int]] = []
            egtb.turn_ends(state, ends)
            for o, p in ends:
                key = (p, o, side ^ 1) if side == 0 else (o, p, side ^ 1)
                if key not in seen:
                    seen.add(key)
                    following.append(key)
        frontier = following
    return tally


__all__ = ["Probe", "TableBot", "TablePlayer", "make_probe", "make_table_bot", "reachable", "solve", "table_player"]
