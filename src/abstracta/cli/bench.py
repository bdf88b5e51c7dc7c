"""Boards, benchmarks and perfect play: ``board``, ``bench``, ``solve``, ``egtb``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Optional

import typer
from rich.markup import escape
from rich.table import Table

from ..core.registry import game_class, game_key, load_game, registered_games
from .base import (_Group, _Typer, app, CliError, console, err_console, guarded, JsonArg, make_game, no_tables,
                   OptionArg, PositionArg, print_table, start_state)


# --------------------------------------------------------------------------- board
@app.command("board")
@guarded
def board_cmd(
    game_name: str = typer.Argument(..., metavar="GAME"),
    option: Optional[list[str]] = OptionArg,
    out: Optional[Path] = typer.Option(None, "--out", metavar="FILE", help="Also write the board as an SVG file."),
) -> None:
    """Print the empty board (in colour) and optionally write it as SVG (the games with a printed board)."""
    game = make_game(game_name, option)
    if not game.description.printable_board:
        printable = [n for n in registered_games() if load_game(n).description.printable_board]
        raise CliError(f"{game.name} has no printed board (games with one: {', '.join(printable) or 'none'})")
    console.print(game.render_board())
    if out is not None:
        if out.suffix.lower() != ".svg":
            raise CliError(f"--out {out}: only .svg files are written")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(game.board_svg())
        console.print(f"wrote {out}")


# --------------------------------------------------------------------------- bench
@app.command("bench")
@guarded
def bench_cmd(
    games: Optional[list[str]] = typer.Argument(None, metavar="GAME...", help="Games to measure (default: all)."),
    seconds: float = typer.Option(2.0, "--seconds", help="Seconds of random play per configuration."),
    min_leaves: int = typer.Option(100_000, "--min-leaves", help="Perft runs at the smallest depth with this many leaves."),
    no_mcts: bool = typer.Option(False, "--no-mcts", help="Skip the MCTS iteration rate."),
    quick: bool = typer.Option(False, "--quick", help="Short run (0.3 s, perft >= 20,000 leaves) for CI."),
    baseline: Optional[Path] = typer.Option(None, "--baseline", help="Fail if a ratio falls below a third of this file's."),
    write_baseline: Optional[Path] = typer.Option(None, "--write-baseline", help="Write the measured ratios to this file."),
    as_json: bool = JsonArg,
) -> None:
    """Engine speed of every game and variant, with ratios to python-chess measured in the same run."""
    from .. import bench

    for name in games or []:
        game_class(name)  # unknown names fail early with the list of games
    # the rows and the baseline's keys carry the registry's reading of each name; the guard compares only those
    games = [game_key(name) for name in games] if games else games
    if quick:
        seconds, min_leaves = min(seconds, 0.3), min(min_leaves, 20_000)
    status = err_console.status("benchmarking")
    with status:
        rows, ref = bench.run(games, seconds=seconds, min_leaves=min_leaves, with_mcts=not no_mcts,
                              progress=lambda label: status.update(f"benchmarking {label}"))
    if as_json:
        print(json.dumps(bench.rows_as_dicts(rows)))
    else:
        print_table(console, render_bench_table(rows, ref))
    if ref is None and (baseline or write_baseline):
        raise CliError("ratios need python-chess: pip install 'abstracta[bench]'")
    if write_baseline is not None:
        write_baseline.write_text(json.dumps(bench.baseline_from_rows(rows), indent=2, sort_keys=True) + "\n")
        err_console.print(f"wrote {write_baseline}")
    if baseline is not None:
        try:
            base = json.loads(baseline.read_text())
        except (OSError, ValueError) as exc:
            raise CliError(f"cannot read baseline {baseline}: {exc}") from None
        problems = bench.check_baseline(rows, base, games=games or None)
        for problem in problems:  # escaped: a key's "[size=dimy]" is not rich markup
            err_console.print(f"[red]regression:[/] {escape(problem)}", soft_wrap=True)
        if problems:
            raise typer.Exit(1)
        err_console.print(f"no ratio fell below a third of {baseline}")


def render_bench_table(rows: list[Any], ref: dict | None) -> Table:
    by_config: dict[str, dict[str, Any]] = {}
    for row in rows:
        label = row.game + ("" if not row.options else " " + ",".join(f"{k}={v}" for k, v in row.options.items()))
        if row.position != "start":
            by_config.setdefault(label, {}).setdefault("mid", []).append(row)
        else:
            by_config.setdefault(label, {})[row.metric] = row

    def fmt(row: Any, ratio_attr: str = "ratio_to_python_chess") -> str:
        if row is None:
            return "—"
        ratio = getattr(row, ratio_attr)
        return f"{row.value:,.0f}" + (f" ({ratio:.2f}×)" if ratio is not None else "")

    table = Table(title="abstracta engine benchmark" + (
        f" — python-chess: perft {ref['perft_nodes_per_s']:,.0f} nodes/s, random play {ref['moves_per_s']:,.0f} moves/s"
        if ref else " (python-chess not installed: no ratios)"))
    for col in ("game", "perft nodes/s (×chess)", "perft depth", "mid-game perft nodes/s (×chess)", "playouts/s",
                "actions/s (×chess)", "actions/game", "turns/game", "MCTS it/s (×playouts)", "peak MiB"):
        table.add_column(col, justify="left" if col == "game" else "right")
    for label, m in by_config.items():
        p = m.get("perft_nodes_per_s")
        mid = " ".join(fmt(r) for r in m.get("mid", [])) or "—"
        table.add_row(label, fmt(p), p.unit.split("(")[1].split(",")[0] if p else "—", mid,
                      f"{m['playouts_per_s'].value:,.1f}", fmt(m.get("actions_per_s")),
                      f"{m['mean_actions'].value:,.1f}", f"{m['mean_turns'].value:,.1f}",
                      fmt(m.get("mcts_iterations_per_s"), "ratio_to_playouts"), f"{m['peak_memory_mb'].value:,.2f}")
    return table


# --------------------------------------------------------------------------- solve / egtb
@app.command("solve")
@guarded
def solve_cmd(
    game_name: str = typer.Argument(..., metavar="GAME"),
    option: Optional[list[str]] = OptionArg,
    as_json: bool = typer.Option(False, "--json", help="Also print the result as one JSON object (the last line)."),
) -> None:
    """Solve a game where its description says it fits (retrograde analysis): the value of the start for the side to move (+1 win, 0 draw, -1 loss) and the distance to the end in turns."""
    game = make_game(game_name, option)
    solver = game.description.solver
    if solver is None:
        able = []
        for name in registered_games():
            for variant in load_game(name).description.variants:
                if load_game(name, **dict(variant.options)).description.solver is not None:
                    opts = " ".join(f"--option {k}={v}" for k, v in variant.options.items())
                    able.append(f"{name} {opts}".strip())
        raise CliError(f"{game.name} with these options cannot be solved here "
                       f"(solvable: {', '.join(able) or 'none'})")
    status = err_console.status("solving")
    t0 = time.perf_counter()
    try:
        with status:
            solution = solver(lambda text: status.update(f"solving: {text}"))
    except ValueError as exc:
        raise CliError(str(exc)) from None
    seconds = time.perf_counter() - t0
    opts = {k: v for k, v in game.options.items()}
    if solution.solved:
        word = {1: "a win", 0: "a draw", -1: "a loss"}[solution.value]  # type: ignore[index]
        end = "" if solution.distance is None else f" in {solution.distance} turns"
        console.print(f"{game.name}: the start is {word} for the side to move{end} "
                      f"(value {solution.value:+d}); {solution.positions:,} positions proved in {seconds:.1f} s")
    else:
        console.print(f"{game.name}: not solved; {solution.positions:,} positions proved in {seconds:.1f} s")
    for key, value in solution.details.items():
        console.print(f"  {key}: {json.dumps(value) if not isinstance(value, str) else value}", soft_wrap=True)
    if as_json:
        print(json.dumps({"game": game.name, "options": opts, "solved": solution.solved, "value": solution.value,
                          "distance": solution.distance, "positions": solution.positions,
                          "seconds": round(seconds, 2), **dict(solution.details)}, default=str))


egtb_app = _Typer(cls=_Group, help="Endgame tables: build them (user data directory) for the strong levels to probe.",
                  no_args_is_help=True)
app.add_typer(egtb_app, name="egtb")


@egtb_app.command("build")
@guarded
def egtb_build_cmd(
    game_name: Optional[str] = typer.Argument(None, metavar="GAME", help="Default: every game that has tables."),
    option: Optional[list[str]] = OptionArg,
    stones: int = typer.Option(3, "--stones", min=2, help="Build every table with at most this many stones."),
    executor: str = typer.Option("serial", "--executor", "-x",
                                 help="serial, process or ray (the tables of one stone count in parallel)."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", min=1,
                                          help="Processes (process) or CPUs of a local Ray (ray); serial ignores it."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", help="Join this Ray cluster (default: start a local one)."),
    directory: Optional[Path] = typer.Option(None, "--dir", help="Where to write (default: the user data directory)."),
    as_json: bool = JsonArg,
) -> None:
    """Build endgame tables by retrograde analysis (one file per material)."""
    from ..executors import EXECUTORS

    if executor not in EXECUTORS:
        raise CliError(f"--executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
    if game_name is not None:
        games = [make_game(game_name, option)]
    else:
        games = [g for g in (load_game(n) for n in registered_games()) if g.description.endgame_tables is not None]
    out: dict[str, Any] = {}
    for game in games:
        tables = game.description.endgame_tables
        if tables is None:
            raise CliError(no_tables(game))
        where = directory or tables.directory()
        status = err_console.status(f"building {game.name} tables")
        t0 = time.perf_counter()
        with status:
            try:
                figures = tables.build(stones, where, executor=executor, workers=workers, ray_address=ray_address,
                                       progress=lambda text: err_console.print(text))
            except (ValueError, ImportError, ConnectionError) as exc:  # ConnectionError: joining Ray
                raise CliError(str(exc)) from None
        seconds = time.perf_counter() - t0
        out[game.name] = {"directory": str(where), "seconds": round(seconds, 2), "tables": figures}
        if not as_json:
            table = Table(title=f"{game.name} endgame tables in {where}")
            for col in ("table", "positions", "wins", "draws", "losses", "longest", "bytes", "build s"):
                table.add_column(col, justify="left" if col == "table" else "right")
            for name, f in sorted(figures.items()):
                table.add_row(name, f"{f['positions']:,}", f"{f['wins']:,}", f"{f['draws']:,}", f"{f['losses']:,}",
                              str(f["longest"]), f"{f['bytes']:,}", f"{f['seconds']:.1f}")
            print_table(console, table)
    if as_json:
        print(json.dumps(out))


@egtb_app.command("probe")
@guarded
def egtb_probe_cmd(
    game_name: str = typer.Argument(..., metavar="GAME"),
    position: Optional[str] = PositionArg,
    option: Optional[list[str]] = OptionArg,
    directory: Optional[Path] = typer.Option(None, "--dir", help="Where the tables are (default: the user data directory)."),
    as_json: bool = JsonArg,
) -> None:
    """A position's value by the tables: +1/0/-1 for the side to move, turns to the end, best action."""
    game = make_game(game_name, option)
    tables = game.description.endgame_tables
    if tables is None:
        raise CliError(no_tables(game))
    state = start_state(game, position)
    found = tables.probe(state, directory)
    if found is None:
        raise CliError("the tables do not cover this position (build more with: abstracta egtb build)")
    if as_json:
        print(json.dumps(dict(found)))
    else:
        word = {1: "wins", 0: "draws", -1: "loses"}[found["value"]]
        d = found["distance"]
        end = "" if d is None else f" in {d} turn{'s' if d != 1 else ''}"
        console.print(f"the side to move {word}{end}; best: {found['best']}")
