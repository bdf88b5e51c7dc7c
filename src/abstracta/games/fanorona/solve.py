"""Perfect play where it can be had (issues 18 and 46): the solvers of Fanoron-Telo and Dimy,
the table players and the oracle that levels 5–6 consult (Spec: fanorona.md §3–§4).

* :func:`solve` — ``abstracta solve fanorona --option size=…``: Telo is solved whole by the
  retrograde analysis of :mod:`.egtb` (every position with at most four stones a side); Dimy
  is proved a draw by proof-number search over its 4-stone tables (:mod:`.proof`), its checked
  strategies kept as the proof book.
* :class:`TablePlayer` — picks, at any point of a turn (also inside a capture chain), the
  action that starts the best complete turn by the tables: the fastest win, else a draw,
  else the slowest loss; ties go to the first action in canonical order. :class:`BookPlayer`
  adds Dimy's proof book above the tables and answers only where they vouch for a turn.
* :class:`Probe` — what levels 5–6 read: the table player's action as their oracle, exact
  values at their search's leaves, the tables built on first need (:mod:`.firstneed`).
"""

from __future__ import annotations

import time
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Callable

from ...core.description import Solution
from . import egtb, firstneed
from .egtb import Lookup, Progress, TableSet, after_turn, build_tables, decode, default_directory, materials_with
from .proof import BOOK_FILE, LEAF_STONES, ProofBook, prove
from .rules import FanoronaGame, FanoronaState

#: Stones a side at the start (Spec §2): Telo 4, Dimy 12, Tsivy 22.
START_STONES = {"telo": 4, "dimy": 12, "tsivy": 22}
#: Seconds between two looks for tables a level found missing (their build may have ended).
RECHECK_SECONDS = 30.0


def reachable(game: "FanoronaGame") -> dict[str, int]:
    """Count the positions reachable from the start (breadth-first over whole turns).

    Returns ``{"turn_starts": …, "terminal": …, "mid_chain": …, "total": …}``: turn-start
    positions (board and side to move; ``terminal`` of them end the game) and the distinct
    states inside a capture chain (board, side, chain point, last direction, visited points).
    A turn-start position is counted once whatever its history (repetition count,
    no-progress counter)."""
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

    #: :meth:`_after`'s rank of a position nothing here knows (a subclass may answer with some
    #: turns unknown: below every draw, above every known loss)
    UNKNOWN = -500
    #: ranks that may be played: a known draw or better
    PLAYABLE = 0

    def __init__(self, lookup: Lookup):
        self.lookup = lookup

    def position_code(self, state: "FanoronaState") -> int | None:
        """The table code of a turn-start ``state`` for its mover (``None``: not tabled)."""
        return self.lookup.code(*own_opp(state))

    def _after(self, state: "FanoronaState", side: int) -> int | None:
        """The rank, for ``side``, of ``state`` after ``side``'s turn (:func:`after_turn`; the
        game's own end first: a threefold repetition or the no-progress limit draws a position
        the tables call won), ``None`` where no table reaches."""
        if state.is_terminal():
            r = state.returns()[side]
            return 0 if r == 0 else 1000 if r > 0 else -1000
        white, black = state.bitboards()
        code = self.lookup.code(*((black, white) if side == 0 else (white, black)))
        return None if code is None else after_turn(code)

    def _best(self, state: "FanoronaState", side: int) -> int | None:
        """Best :meth:`_after` rank over the ways to finish the turn from ``state``."""
        best = None
        for action in list(state.legal_actions()):
            state.apply_action(action)
            try:
                r = self._best(state, side) if state.current_player() == side else self._after(state, side)
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
                r = self._best(work, side) if work.current_player() == side else self._after(work, side)
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

    def judge(self, state: "FanoronaState") -> dict[str, Any] | None:
        """``{"value", "distance", "best"}`` of ``state`` for its mover (distance in turns from
        the start of the current turn, ``None`` for a draw; ``best`` the action in notation), or
        ``None`` when the tables do not decide it."""
        if state.is_terminal():
            return None
        ranked = self.ranked(state)
        if not ranked:
            return None
        best = max(r for r, _ in ranked)
        action = next(a for r, a in ranked if r == best)
        # after_turn ranks: 1000 - d (the opponent loses in d), -1000 + d (it wins in d), 0 draw
        value, distance = (0, None) if best == 0 else ((1, 1001 - best) if best > 0 else (-1, best + 1001))
        return {"value": value, "distance": distance, "best": state.action_to_string(action)}


class BookPlayer(TablePlayer):
    """Dimy's perfect play where it is proved: the endgame tables below, the proof book
    (:class:`.proof.ProofBook`) above them. A turn the book vouches for ranks as the book
    bounds it (a win by the most turns its strategy takes, a draw or better, a draw at most);
    a turn nothing here knows ranks :attr:`UNKNOWN`, so :meth:`choose` answers only with a turn
    that keeps at least a draw, and otherwise leaves the position to the search."""

    def __init__(self, lookup: Lookup, book: Any, n: int):
        super().__init__(lookup)
        self.book = book
        self.n = n

    def _entry(self, own: int, opp: int) -> tuple[int, int, int | None, int] | None:
        return None if self.book is None else self.book.get(own | opp << self.n)

    def _after(self, state: "FanoronaState", side: int) -> int | None:
        r = super()._after(state, side)
        if r is not None:
            return r
        white, black = state.bitboards()
        entry = self._entry(*((black, white) if side == 0 else (white, black)))
        if entry is None:
            return self.UNKNOWN
        lo, hi, turns, _ = entry
        if hi < 0:  # the opponent loses within ``turns``: a win for the side that moved
            return 1000 - (turns if turns is not None else 99)
        if lo > 0:
            return -1000 + (turns if turns is not None else 99)
        if hi <= 0:
            return 1 if lo < 0 else 0  # a draw at least (maybe a win), or exactly a draw
        return -2  # a draw at most

    def choose(self, state: "FanoronaState") -> int | None:
        if state.is_terminal():
            return None
        ranked = self.ranked(state)
        if not ranked:
            return None
        best = max(r for r, _ in ranked)
        return next(a for r, a in ranked if r == best) if best >= self.PLAYABLE else None

    def judge(self, state: "FanoronaState") -> dict[str, Any] | None:
        if state.is_terminal():
            return None
        ranked = self.ranked(state)
        if not ranked:
            return None
        best = max(r for r, _ in ranked)
        action = state.action_to_string(next(a for r, a in ranked if r == best))
        if best > 500:
            return {"value": 1, "distance": 1001 - best, "best": action}
        if all(r == 0 or r <= -900 for r, _ in ranked) or best <= -900:
            return super().judge(state)  # every turn known exactly (tables, exact book entries)
        entry = self._entry(*own_opp(state)) if state.chain() is None else None
        if entry is not None and entry[0] == entry[1] == 0 and best >= 0:
            return {"value": 0, "distance": None, "best": action}
        return None


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
    use, about a second), else the endgame tables on disk (``directory`` or the default) and,
    on Dimy, the proof book beside them (:class:`BookPlayer`)."""
    size = game.geometry.size
    if size == "telo":
        return TablePlayer(_solved_tables(size)[0])
    tables = TableSet(game, directory)
    if size == "dimy":
        book = ProofBook.load(tables.directory / BOOK_FILE.format(size=size))
        return BookPlayer(tables, book, game.geometry.n)
    return TablePlayer(tables)


def make_table_bot(game: "FanoronaGame", seed: int | None = None, *, fallback: Callable[..., Any]) -> TableBot:
    """Factory of the ``table`` seat (``GameDescription.bots``, with ``fallback`` bound): falls
    back on ``fallback(game, 1.0, seed=seed)`` (1-second alpha-beta, which the package's entry
    module hands in: a game imports nothing of :mod:`abstracta.ai`) where no table reaches."""
    # a partial, not a lambda: the bot pickles (a Gymnasium environment, a Ray worker)
    return TableBot(table_player(game), partial(fallback, game, 1.0, seed=seed))


class Probe:
    """What levels 5–6 read from the tables of ``game``'s board, found lazily: the first need
    starts their build in the background (:mod:`.firstneed`), and until they are there (looked
    for again every :data:`RECHECK_SECONDS`) the levels simply search.

    * :meth:`oracle` (``Search.oracle``): the table player's action when every way to finish
      the current turn reaches a tabled position (on Dimy: when the tables or the proof book
      vouch for a turn that keeps at least a draw), else ``None``;
    * :meth:`evaluate` (``Search.evaluator``): at a search leaf, the exact value of a tabled
      turn-start position (a win ``0.99 − d/10⁴``, a loss its negative, shorter wins and longer
      losses preferred, a draw 0 — beyond any heuristic value, which stays within ±0.95; on
      Dimy also a position the proof book settles exactly), else ``base``.
    """

    def __init__(self, game: "FanoronaGame", base: Callable[["FanoronaState", int], float]):
        self.game = game
        self.base = base
        self._player: TablePlayer | None = None
        self._stones = 0
        self._complete = False
        self._looked = 0.0
        self._asked = False  # the build was asked for (once: firstneed keeps it to one a process)

    @property
    def player(self) -> TablePlayer:
        """The table player, for play: the first need starts the build of what is missing."""
        return self._look(build=True)

    def _look(self, build: bool) -> TablePlayer:
        if self._player is None or (not self._complete and time.monotonic() - self._looked > RECHECK_SECONDS):
            player = table_player(self.game)
            self._looked = time.monotonic()
            lookup = player.lookup
            if isinstance(lookup, TableSet):
                self._stones = max((s for s in range(2, 9) if lookup.covers(s)), default=0)
                book = getattr(player, "book", True)
                self._complete = self._stones >= firstneed.STONES and book is not None
            else:
                self._stones = 2 * START_STONES[self.game.geometry.size]
                self._complete = True
            self._player = player
        if build and not self._complete and not self._asked:
            self._asked = True
            firstneed.start(self.game.geometry.size, self._player.lookup.directory)  # type: ignore[attr-defined]
        return self._player

    @property
    def reads(self) -> str | None:
        """The tables this probe finds (``"tables of 2-4 stones"``, on Dimy ``"… and the proof
        book"``), ``None`` without any: part of the levels' fingerprints
        (``abstracta.ai.levels.level_fingerprint``), as a level with tables is another player
        than the same level without them. Only looks: describing a level builds nothing."""
        player = self._look(build=False)
        if self._stones < 2 or self.game.geometry.size == "telo":
            return None
        book = " and the proof book" if getattr(player, "book", None) is not None else ""
        return f"tables of 2-{self._stones} stones{book}"

    def oracle(self, state: "FanoronaState") -> int | None:
        # cheap above the tables: the first turn ending in an untabled material stops the probe
        return self.player.choose(state)

    def evaluate(self, state: "FanoronaState", player: int) -> float:
        tables = self.player
        if state.chain() is None:
            white, black = state.bitboards()
            own, opp = (white, black) if state.side == 0 else (black, white)
            code = tables.lookup.code(own, opp) if (white | black).bit_count() <= self._stones else None
            if code is not None:
                value, d = decode(code)
            else:
                entry = tables._entry(own, opp) if isinstance(tables, BookPlayer) else None
                if entry is None or entry[0] != entry[1]:
                    return self.base(state, player)
                value, d = entry[0], entry[2] if entry[2] is not None else 99
            v = 0.0 if not value else value * (0.99 - d * 1e-4)  # type: ignore[operator]
            return v if player == state.side else -v
        return self.base(state, player)


def make_probe(game: "FanoronaGame", base: Callable[["FanoronaState", int], float]) -> Probe:
    """The :class:`Probe` of levels 5–6 for ``game`` (see there)."""
    return Probe(game, base)


# --- the solver -------------------------------------------------------------------------------

def solve(game: "FanoronaGame", progress: Callable[[str], None] | None = None, search: Any = None) -> Solution:
    """Solve ``game`` (``abstracta solve``): Telo whole by retrograde analysis; Dimy by
    proof-number search over the 4-stone tables (:mod:`.proof`), with ``search`` the proof
    search the game's composing module hands in (:mod:`abstracta.ai.proof`). Dimy's checked
    strategies are written as the proof book beside the endgame tables, where levels 5–6 and
    the analysis board read them.

    Raises ``ValueError`` for Tsivy (use the endgame tables), for the ``vela`` and
    ``first_turn_single_capture`` options, and for Dimy without ``search``."""
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
        if search is None:
            raise ValueError("Dimy is proved by proof-number search, which the game's description hands in")
        found = prove(game, search, progress)
        book = found["book"]
        path: Path | None = egtb.default_directory() / BOOK_FILE.format(size=size)
        try:
            book.save(path)  # type: ignore[arg-type]
        except OSError:
            path = None  # a read-only data directory: the proof stands, levels search as before
        if progress and path is not None:
            progress(f"the proof book ({len(book):,} positions) is in {path}")
        seconds = time.perf_counter() - t0
        value = found["value"]
        return Solution(True, value, None, len(book), {
            "first_turns": [{k: f[k] for k in ("turn", "value", "turns")} for f in found["first_turns"]],
            "strategies": found["strategies"],
            "searched": found["searched"],
            "leaf_tables": {"stones": LEAF_STONES, "positions": sum(f["positions"] for f in found["tables"].values())},
            "seconds": {**found["seconds"], "total": round(seconds, 2)},
            "book": None if path is None else str(path),
            "method": ("df-pn over whole turns with the tables of 2-4 stones at the leaves; every strategy "
                       "checked position by position against the rules engine (values for White; a win's "
                       "turns are the most its checked strategy takes)")})
    raise ValueError(f"{size}: the whole game is out of reach here; build its endgame tables "
                     "(abstracta egtb build) instead")


def _reachable_values(game: "FanoronaGame", lookup: Lookup) -> dict[str, int]:
    """Wins, draws and losses (for the side to move) among the turn-start positions reachable
    from the start."""
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


class FanoronaTables:
    """The :class:`~abstracta.core.description.EndgameTables` of one board size (the
    description's ``endgame_tables``)."""

    def __init__(self, game: "FanoronaGame"):
        self.game = game

    def directory(self) -> Path:
        return default_directory()

    def probe(self, state: "FanoronaState", directory: Path | None = None) -> dict[str, Any] | None:
        """Value, distance (turns, counted from the start of the current turn) and the best
        action of ``state`` for its mover, or ``None`` if a table it needs is missing (on Dimy
        also the proof book's positions: :class:`.solve.BookPlayer`)."""
        return table_player(self.game, directory).judge(state)

    def build(self, stones: int, directory: Path | None = None, *, executor: str = "serial",
              workers: int | None = None, ray_address: str | None = None,
              progress: Progress | None = None) -> dict[str, Any]:
        if stones < 2:
            raise ValueError(f"--stones {stones}: the smallest tables have 2 stones")
        manifest = build_tables(self.game, stones, directory, executor=executor, workers=workers,
                                ray_address=ray_address, progress=progress)
        size = self.game.geometry.size
        wanted = {m.name(size) for s in range(2, stones + 1) for pair in materials_with(s) for m in pair}
        return {k: v for k, v in manifest.items() if k in wanted}
