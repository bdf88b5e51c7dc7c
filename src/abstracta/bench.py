"""Engine benchmarks (``abstracta bench``): speed of every game and variant, side by side with
python-chess measured in the same run.

Metrics (one row each, per game and options):

* ``perft_nodes_per_s`` — leaves at the last depth, each reached by applying its action, per
  second of wall time, from a fixed position whose tree has at least ``min_leaves`` leaves.
* ``playouts_per_s`` / ``actions_per_s`` — uniformly random games from the start to the end
  (the start is built once, as a search does; Nibble's layout generation is not timed).
* ``mean_actions`` / ``mean_turns`` — per random game (a turn = a maximal run of actions by one player).
* ``mcts_iterations_per_s`` — UCT with random rollouts from the start (when the MCTS bot exists).
* ``peak_memory_mb`` — peak traced Python memory of a short random-play pass.

Each speed figure is also given as a ratio to python-chess's random-play moves/s (or perft
nodes/s for perft rows), so the comparison holds on a noisy machine.
"""

from __future__ import annotations

import random
import time
import tracemalloc
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from .ai.levels import make_bot
from .core.game import Game, State
from .core.perft import perft
from .core.registry import load_game, registered_games


@dataclass
class Config:
    """One benchmarked game configuration."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    perft_position: str | None = None  # None: the initial position (seed 0)
    perft_depth: int | None = None  # None: the smallest depth with >= min_leaves leaves
    mid_positions: tuple[str, ...] = ()  # mid-game positions also timed by perft

    def label(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.game}" + (f" [{opts}]" if opts else "")


def configs(games: list[str] | None = None) -> list[Config]:
    """One configuration per declared variant of each game (its description's ``variants``, with
    their mid-game positions), for ``games`` or every registered game."""
    out = []
    for name in games or registered_games():
        variants = load_game(name).description.variants
        for variant in variants or ():
            out.append(Config(name, dict(variant.options), mid_positions=tuple(variant.positions)))
        if not variants:
            out.append(Config(name))
    return out


@dataclass
class Row:
    game: str
    options: dict[str, Any]
    metric: str
    value: float
    unit: str
    ratio_to_python_chess: float | None = None
    ratio_to_playouts: float | None = None  # MCTS rows: iterations/s over random playouts/s
    position: str = "start"  # perft rows: "start" or "mid-<i>" (Config.mid_positions[i])


def _initial(game: Game, seed: int) -> State:
    return game.new_initial_state(seed=seed if game.has_chance else None)


def random_play(game: Game, seconds: float, seed: int = 0,
                clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Uniformly random games from the start (seed 0's initial state, cloned for each game:
    a one-off layout or deal is not part of a playout) until ``seconds`` have passed on
    ``clock`` (default wall time; ``time.process_time`` counts this process's CPU time only,
    as ``benchmarks/interop_speed.py`` does on a shared machine)."""
    rng = random.Random(seed)
    games = actions = turns = 0
    start = _initial(game, 0)
    t0 = clock()
    deadline = t0 + seconds
    while True:
        state = start.clone()
        last = None
        while not state.is_terminal():
            legal = state.legal_actions()
            player = state.current_player()
            if player != last:
                turns += 1
                last = player
            state.apply_action(legal[int(rng.random() * len(legal))])
            actions += 1
        games += 1
        if clock() >= deadline:
            break
    elapsed = clock() - t0
    return {"playouts_per_s": games / elapsed, "actions_per_s": actions / elapsed,
            "mean_actions": actions / games, "mean_turns": turns / games, "games": games}


def perft_speed(game: Game, state: State, min_leaves: int, max_seconds: float,
                depth: int | None = None) -> dict[str, float]:
    """Perft nodes/s from ``state`` at ``depth`` (default: the smallest depth with at least
    ``min_leaves`` leaves, or the last one tried within ``max_seconds``)."""
    if depth is None:
        depth = 1
        while True:
            t0 = time.perf_counter()
            n = perft(state, depth)
            dt = time.perf_counter() - t0
            if n >= min_leaves or dt > max_seconds or depth >= 20:
                break
            depth += 1
    else:
        t0 = time.perf_counter()
        n = perft(state, depth)
        dt = time.perf_counter() - t0
    return {"perft_nodes_per_s": n / dt if dt else 0.0, "perft_depth": depth, "perft_leaves": n, "perft_seconds": dt}


def mcts_speed(game: Game, seconds: float) -> float | None:
    """MCTS iterations per second from the start (the seat spec ``mcts:SECONDS``: the game's
    playout cap applies)."""
    bot = make_bot(f"mcts:{seconds}", game, seed=0)
    bot.step(_initial(game, 0))
    return bot.iterations / seconds if bot.iterations else None


def peak_memory(game: Game, seconds: float) -> float:
    """Peak traced Python memory (MiB) of an MCTS search of ``seconds`` from the start: what a
    search tree of that length costs."""
    tracemalloc.start()
    try:
        make_bot(f"mcts:{seconds}", game, seed=0).step(_initial(game, 0))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 2**20


def python_chess_reference(seconds: float) -> dict[str, float] | None:
    """python-chess perft 4 from the start (197,281 leaves) and random-play moves/s."""
    try:
        import chess
    except ImportError:
        return None

    def chess_perft(board: "chess.Board", depth: int) -> int:
        if depth == 0:
            return 1
        n = 0
        for move in board.legal_moves:
            board.push(move)
            n += chess_perft(board, depth - 1)
            board.pop()
        return n

    board = chess.Board()
    t0 = time.perf_counter()
    leaves = chess_perft(board, 4)
    perft_rate = leaves / (time.perf_counter() - t0)
    rng = random.Random(0)
    moves = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False):
            legal = list(board.legal_moves)
            board.push(legal[rng.randrange(len(legal))])
            moves += 1
    return {"perft_nodes_per_s": perft_rate, "moves_per_s": moves / (time.perf_counter() - t0)}


def run(games: list[str] | None = None, seconds: float = 2.0, min_leaves: int = 100_000,
        with_mcts: bool = True, progress: Callable[[str], None] | None = None) -> tuple[list[Row], dict | None]:
    """Measure every configuration of ``games`` (default: all registered). Returns (rows, chess reference)."""
    wanted = configs(games)
    if progress:
        progress("python-chess reference")
    ref = python_chess_reference(seconds)
    rows: list[Row] = []

    def ratio(value: float, key: str) -> float | None:
        return value / ref[key] if ref else None

    for config in wanted:
        if progress:
            progress(config.label())
        game = load_game(config.game, **config.options)
        play = random_play(game, seconds)
        opts = dict(config.options)
        starts = [("start", _initial(game, 0))] + [
            (f"mid-{i}", game.state_from_text(text)) for i, text in enumerate(config.mid_positions)]
        for label, state in starts:
            pf = perft_speed(game, state, min_leaves, max_seconds=max(10.0, 5 * seconds), depth=config.perft_depth)
            rows.append(Row(config.game, opts, "perft_nodes_per_s", pf["perft_nodes_per_s"],
                            f"leaves/s (depth {pf['perft_depth']}, {pf['perft_leaves']:,} leaves)",
                            ratio(pf["perft_nodes_per_s"], "perft_nodes_per_s"), position=label))
        rows.append(Row(config.game, opts, "playouts_per_s", play["playouts_per_s"], "games/s", None))
        rows.append(Row(config.game, opts, "actions_per_s", play["actions_per_s"], "actions/s", ratio(play["actions_per_s"], "moves_per_s")))
        rows.append(Row(config.game, opts, "mean_actions", play["mean_actions"], "actions/game"))
        rows.append(Row(config.game, opts, "mean_turns", play["mean_turns"], "turns/game"))
        if with_mcts:
            it = mcts_speed(game, min(seconds, 2.0))
            if it is not None:
                rows.append(Row(config.game, opts, "mcts_iterations_per_s", it, "iterations/s", None,
                                it / play["playouts_per_s"] if play["playouts_per_s"] else None))
        rows.append(Row(config.game, opts, "peak_memory_mb", peak_memory(game, min(seconds, 1.0)), "MiB"))
    return rows, ref


def rows_as_dicts(rows: list[Row]) -> list[dict[str, Any]]:
    return [asdict(r) for r in rows]


def _key(row: dict[str, Any]) -> str:
    opts = ",".join(f"{k}={v}" for k, v in sorted(row["options"].items()))
    where = "" if row.get("position", "start") == "start" else "@" + row["position"]
    return f"{row['game']}[{opts}]{where}:{row['metric']}"


def baseline_from_rows(rows: list[Row]) -> dict[str, float]:
    """The ratios worth guarding: ``{"game[options]:metric": ratio}``."""
    out = {}
    for row in rows_as_dicts(rows):
        ratio = row["ratio_to_python_chess"] if row["ratio_to_python_chess"] is not None else row["ratio_to_playouts"]
        if ratio is not None:
            out[_key(row)] = round(ratio, 4)
    return out


def check_baseline(rows: list[Row], baseline: dict[str, float], factor: float = 3.0,
                   games: list[str] | None = None) -> list[str]:
    """Regressions: every guarded ratio that fell below ``baseline / factor`` (or went missing).

    ``games``: the games the run was asked for; the baseline's ratios of other games are not
    compared (``None``, every game: a ratio of any game that went missing is a regression)."""
    current = baseline_from_rows(rows)
    problems = []
    for key, base in baseline.items():
        if games is not None and key.split("[", 1)[0] not in games:
            continue
        now = current.get(key)
        if now is None:
            problems.append(f"{key}: not measured (baseline ratio {base})")
        elif now < base / factor:
            problems.append(f"{key}: ratio {now:.3f} fell below a third of the baseline {base:.3f}")
    return problems
