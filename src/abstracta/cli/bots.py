"""Bots against bots: ``match``, ``tournament``, ``tune``, ``dataset``, ``learn``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from ..ai.levels import seat_spec_grammar
from ..ai.match import DEFAULT_MAX_ACTIONS
from ..core.options import check_seed
from ..core.records import Record
from .base import (app, CliError, console, err_console, fresh_output_directory, guarded, JsonArg, make_game, OptionArg,
                   parse_seats, print_table)


# --------------------------------------------------------------------------- match
MAX_ACTIONS_HELP = (f"Cut a game still running after N actions: unfinished, scored as a draw (default: the "
                    f"game's own bound on its length where its rules set one, else {DEFAULT_MAX_ACTIONS:,}).")


def say_cut(shown: Console, unfinished: int, games: int, cap: int) -> None:
    """How many games were cut at the cap (nothing when every game ended by the rules)."""
    if unfinished:
        shown.print(f"{unfinished} of {games} game{'s' if games != 1 else ''} cut at {cap:,} actions "
                    "(unfinished, scored as draws; --max-actions)")


@app.command("match")
@guarded
def match_cmd(
    game_name: str = typer.Argument(..., metavar="GAME"),
    option: Optional[list[str]] = OptionArg,
    seat: list[str] = typer.Option(..., "--seat", "-s", help=f"INDEX=SPEC for every seat, each a bot: any SPEC but human. SPEC: {seat_spec_grammar()}."),
    games: int = typer.Option(10, "--games", "-n", min=1, help="Number of games."),
    seed: int = typer.Option(0, "--seed", help="Base seed (game i uses seed+i)."),
    records: Optional[Path] = typer.Option(None, "--records", help="Save each game's record in this directory."),
    max_actions: Optional[int] = typer.Option(None, "--max-actions", metavar="N", min=1, help=MAX_ACTIONS_HELP),
    as_json: bool = JsonArg,
) -> None:
    """Bots play each other; they rotate through the seats from game to game."""
    from rich.progress import Progress

    from ..ai.match import run_match

    check_seed(seed, "--seed")
    check_seed(seed + games - 1, f"--seed {seed} with --games {games}: the last game's seed")
    game = make_game(game_name, option)
    n = game.num_players
    specs = parse_seats(seat, game, {})
    for i, spec in enumerate(specs):
        if spec == "human":
            raise CliError(f"seat {i} is human: match plays bots only (a person plays with abstracta play); "
                           f"give it a bot SPEC, e.g. {i}=random or {i}=level:3")
    if len(seat) != n:
        raise CliError(f"{game.title} needs {n} seats: give --seat 0=SPEC … --seat {n - 1}=SPEC")
    if records is not None:
        fresh_output_directory(records, [f"{game.name}-{seed + i:06d}.json" for i in range(games)], "--records",
                               "choose another directory or another --seed (game i is saved as seed+i)")
    played = []

    def done(index: int, record: Record, _result: Any) -> None:
        if records is not None:  # at once: Ctrl-C later keeps this game
            record.save(records / f"{game.name}-{seed + index:06d}.json")
        played.append(index)
        progress.advance(task)

    with Progress(console=err_console, transient=True) as progress:
        task = progress.add_task(f"{game.name}: {' vs '.join(specs)}", total=games)
        try:
            result = run_match(game, specs, games=games, seed=seed, on_game_done=done, max_actions=max_actions)
        except KeyboardInterrupt:
            interrupted(len(played), games, records)
    if as_json:
        print(json.dumps({"game": game.name, "options": game.option_values(), "games": games, "seed": seed,
                          "max_actions": result.max_actions, "unfinished": result.unfinished,
                          "mean_plies": result.mean_plies,
                          "seats": [{"spec": st.spec, "wins": st.wins, "draws": st.draws,
                                     "losses": st.losses, "unfinished": st.unfinished, "score": st.score,
                                     "seconds_per_move": st.seconds_per_move} for st in result.stats]}))
        return
    # a row is the bot of one --seat option over all its games: seats rotate from game to game,
    # so a row named by its seat ("#0") read as the results of that seat
    table = Table(title=f"{game.title}: {games} game{'' if games == 1 else 's'}, seed {seed}",
                  caption="a row: one --seat's bot in all its games (seats rotate from game to game)")
    # the unfinished column only where a game was cut: it would be zeros in every other match
    cut = ("unfinished",) if result.unfinished else ()
    for col in ("bot", "wins", "draws", "losses", *cut, "score %", "mean plies", "mean s/move"):
        table.add_column(col, justify="right" if col != "bot" else "left", no_wrap=col == "bot")
    repeated = {spec for spec in specs if specs.count(spec) > 1}
    for index, stats in enumerate(result.stats):
        label = f"{stats.spec} (--seat {index})" if stats.spec in repeated else stats.spec
        table.add_row(label, str(stats.wins), str(stats.draws), str(stats.losses),
                      *([str(stats.unfinished)] if cut else []),
                      f"{stats.score * 100:.1f}", f"{result.mean_plies:.1f}", f"{stats.seconds_per_move:.4f}")
    print_table(console, table)
    say_cut(console, result.unfinished, games, result.max_actions)
    if records is not None:
        console.print(f"records saved in {records}")


def interrupted(done: int, total: int, directory: Path | None) -> None:
    """Ctrl-C during bot games: say what was kept and exit 130 (the shell's code for it)."""
    kept = f"; their records are in {directory}" if directory is not None and done else ""
    err_console.print(f"interrupted after {done} of {total} games{kept}", soft_wrap=True)
    raise typer.Exit(130)


# --------------------------------------------------------------------------- tournament
@app.command("tournament")
@guarded
def tournament_cmd(
    game_name: str = typer.Argument(..., metavar="GAME"),
    option: Optional[list[str]] = OptionArg,
    bots: str = typer.Option(..., "--bots", "-b", help="Bot SPECs separated by commas (SPEC as for match --seat), e.g. level:1,level:2,mcts:i200."),
    games: int = typer.Option(10, "--games", "-n", min=1, help="Games per pairing (seat orders alternate)."),
    seed: int = typer.Option(0, "--seed", help="Base seed (game k of the schedule uses seed+k)."),
    executor: str = typer.Option("serial", "--executor", "-x", help="serial, process or ray."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", min=1,
                                          help="Processes (process) or CPUs of a local Ray (ray); serial ignores it."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", help="Join this Ray cluster (default: start a local one)."),
    out: Optional[Path] = typer.Option(None, "--out", metavar="DIR", help="Write every game's record, results.json and elo.png here."),
    max_actions: Optional[int] = typer.Option(None, "--max-actions", metavar="N", min=1, help=MAX_ACTIONS_HELP),
    opening: int = typer.Option(0, "--opening", min=0, help="Random actions before the bots play (shared by the games of one round of seat orders)."),
    as_json: bool = typer.Option(False, "--json", help="Print the results as one JSON object (the last line; tables go to stderr)."),
) -> None:
    """Round robin between bots: every pairing plays --games games with seats rotated; Elo ratings with 95% intervals."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ..ai.tournament import run_tournament, schedule
    from ..executors import EXECUTORS, RayAddressError

    if executor not in EXECUTORS:
        raise CliError(f"--executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
    check_seed(seed, "--seed")
    game = make_game(game_name, option)
    specs = [s.strip() for s in bots.split(",") if s.strip()]
    try:
        _, _, tasks = schedule(game, specs, games, seed, max_actions, opening)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    check_seed(seed + len(tasks) - 1, f"--seed {seed} with {len(tasks)} games: the last game's seed")
    shown = err_console if as_json else console
    if out is not None:
        fresh_output_directory(out, [f"{game.name}-{k + 1:05d}.json" for k in range(len(tasks))]
                               + ["results.json", "elo.png"], "--out", "give each tournament a directory of its own")
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err_console, transient=True) as progress:
        bar = progress.add_task(f"{game.name}: {len(tasks)} games ({executor})", total=len(tasks))
        finished = []

        def done(outcome: Any) -> None:
            if out is not None:  # at once: Ctrl-C later keeps this game
                Record.from_dict(outcome.record).save(out / f"{game.name}-{outcome.index + 1:05d}.json")
            finished.append(outcome.index)
            progress.advance(bar)

        try:
            result = run_tournament(game, specs, games, seed, executor=executor, workers=workers,
                                    ray_address=ray_address, max_actions=max_actions, opening=opening,
                                    on_done=done)
        # no Ray; an address where no cluster answers; a cluster refusing us. Not every ValueError:
        # one raised while the games play is a bug, and stays a traceback
        except (ImportError, RayAddressError, ConnectionError) as exc:
            raise CliError(str(exc)) from None
        except KeyboardInterrupt:
            interrupted(len(finished), len(tasks), out)
    data = result.to_json()
    labels = result.labels()  # a bot given twice by its place in --bots, as in elo.png
    title = f"{game.title}{' (' + ', '.join(option) + ')' if option else ''}"
    table = Table(title=f"{title}: {games} game{'' if games == 1 else 's'} per pairing, seed {seed}")
    for col in ("bot", "games", "score %", "Elo", "95% interval"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    order = sorted(range(len(labels)), key=lambda i: -result.ratings[i].elo)
    totals = result.totals()
    for i in order:
        g, pts = totals[i]
        r = result.ratings[i]
        interval = "anchor" if i == 0 else f"{r.low:+.0f} … {r.high:+.0f}"
        table.add_row(labels[i], str(g), f"{100 * pts / g:.1f}" if g else "-", f"{r.elo:+.0f}", interval)
    print_table(shown, table)
    pairs = Table(title="Pairings (first bot's view; 3-4 players: partial scores count under draws)")
    for col in ("first", "second", "W", "D", "L", "unfinished", "score %", "mean plies"):
        pairs.add_column(col, justify="left" if col in ("first", "second") else "right")
    for p in result.pairings:
        pairs.add_row(labels[p.a], labels[p.b], str(p.wins), str(p.draws), str(p.losses), str(p.unfinished),
                      f"{100 * p.rate:.1f}", f"{p.plies / p.games:.1f}" if p.games else "-")
    print_table(shown, pairs)
    cross = Table(title="Crosstable: row's score % against column")
    cross.add_column("")
    for label in labels:
        cross.add_column(label, justify="right")
    for i, row in enumerate(result.crosstable()):
        cross.add_row(labels[i], *["-" if v is None else f"{100 * v:.0f}" for v in row])
    print_table(shown, cross)
    say_cut(shown, result.unfinished, len(result.outcomes), result.max_actions)
    if out is not None:
        from ..ai.tournament import plot_ratings

        (out / "results.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        try:
            plot_ratings(result, out / "elo.png", title=f"{title}: Elo, {games} games per pairing")
            shown.print(f"{len(result.outcomes)} records, results.json and elo.png written in {out}")
        except ImportError as exc:
            shown.print(f"{len(result.outcomes)} records and results.json written in {out}; no plot: {exc}")
    if as_json:
        print(json.dumps(data))


# --------------------------------------------------------------------------- tune
@app.command("tune")
@guarded
def tune_cmd(
    game_name: str = typer.Argument(..., metavar="GAME"),
    option: Optional[list[str]] = OptionArg,
    games: int = typer.Option(100, "--games", "-n", min=1, help="Self-play games whose positions are fitted."),
    verify_games: Optional[int] = typer.Option(None, "--verify-games", min=1,
                                               help="Games of the tuned against the default weights (default: --games)."),
    seed: int = typer.Option(0, "--seed", help="Base seed (self-play game k uses seed+k, verification game k seed+games+k)."),
    bot: Optional[str] = typer.Option(None, "--bot", help="The search that plays, without weights (default: the game's cheap search, e.g. alphabeta:d3)."),
    opening: int = typer.Option(4, "--opening", min=0, help="Random actions that open every game (deterministic searches would replay one game)."),
    skip: int = typer.Option(4, "--skip", min=0, help="Plies skipped at the start of every self-play game (the opening's included)."),
    executor: str = typer.Option("serial", "--executor", "-x", help="serial, process or ray."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", min=1,
                                          help="Processes (process) or CPUs of a local Ray (ray); serial ignores it."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", help="Join this Ray cluster (default: start a local one)."),
    max_actions: Optional[int] = typer.Option(None, "--max-actions", metavar="N", min=1, help=MAX_ACTIONS_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the results as one JSON object (the last line; tables go to stderr)."),
) -> None:
    """Tune the evaluator's weights from self-play (Texel-style fit) and verify them by a tournament against the defaults."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ..ai.tournament import EXECUTORS
    from ..ai.tune import tune

    if executor not in EXECUTORS:
        raise CliError(f"--executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
    check_seed(seed, "--seed")
    game = make_game(game_name, option)
    total = games + (verify_games if verify_games is not None else games)
    check_seed(seed + total - 1, f"--seed {seed} with {total} games: the last game's seed")
    shown = err_console if as_json else console
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err_console, transient=True) as progress:
        bar = progress.add_task(f"{game.name}: {total} games ({executor})", total=total)
        try:
            result = tune(game, games, seed, verify_games=verify_games, search=bot, opening=opening, skip=skip, executor=executor,
                          workers=workers, ray_address=ray_address, max_actions=max_actions,
                          on_done=lambda stage, outcome: progress.advance(bar))
        except (ValueError, ImportError, ConnectionError) as exc:  # ConnectionError: joining Ray
            raise CliError(str(exc)) from None
    fit = result.fit
    table = Table(title=f"{game.title}{' (' + ', '.join(option) + ')' if option else ''}: {result.search}, "
                        f"{result.selfplay_games} self-play games, {fit.positions} positions")
    for col in ("term", "default", "tuned"):
        table.add_column(col, justify="left" if col == "term" else "right")
    for name, w0, w in zip(result.names, result.default, fit.weights):
        table.add_row(name, f"{w0:g}", f"{w:g}")
    print_table(shown, table)
    shown.print(f"scale K {fit.scale:.4g}; loss (mean cross-entropy) default {fit.loss_default:.5f}, "
                f"tuned {fit.loss_tuned:.5f}")
    verdict = "keep the tuned weights" if result.kept else "keep the default weights (the interval does not exclude 0)"
    shown.print(f"verification, {result.verify_games} games, tuned vs default: {result.wins} W {result.draws} D "
                f"{result.losses} L{f' ({result.unfinished} unfinished)' if result.unfinished else ''}, score {100 * result.score:.1f} %, Elo {result.elo:+.0f} "
                f"({result.low:+.0f} … {result.high:+.0f}): {verdict}")
    shown.print(f"tuned seat spec: {result.tuned_spec}")
    if as_json:
        print(json.dumps(result.to_json()))


# --------------------------------------------------------------------------- dataset
@app.command("dataset")
@guarded
def dataset_cmd(
    game_name: str = typer.Argument(..., metavar="GAME"),
    option: Optional[list[str]] = OptionArg,
    games: int = typer.Option(..., "--games", "-n", min=1, help="Games to play."),
    bots: str = typer.Option(..., "--bots", "-b", help="One bot SPEC per seat, separated by commas, e.g. level:3,level:3."),
    seed: int = typer.Option(0, "--seed", help="The dataset's seed: the same seed writes the same rows."),
    out: Path = typer.Option(..., "--out", metavar="DIR", help="Write the Parquet files and _dataset.json here."),
    executor: str = typer.Option("serial", "--executor", "-x", help="serial, process or ray."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", min=1, help="Processes or Ray CPUs."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", help="Join this Ray cluster."),
    opening: int = typer.Option(0, "--opening", min=0, help="Random actions that open every game (no rows)."),
) -> None:
    """Self-play games as training data: one Parquet row per decision (observation, legal_mask, policy, returns …)."""
    from ..executors import RayAddressError
    from ..interop.dataset import write_dataset  # pyarrow: the dataset extra, only when asked for

    check_seed(seed, "--seed")
    game = make_game(game_name, option)
    try:
        meta = write_dataset(game.name, games, [s.strip() for s in bots.split(",")], seed, out, executor=executor,
                             workers=workers, ray_address=ray_address, opening=opening,
                             **game.non_default_options())
    except (ImportError, ValueError, RayAddressError, ConnectionError) as exc:
        raise CliError(str(exc)) from None
    console.print(f"{meta['rows']} rows of {games} games in {len(meta['files'])} Parquet file(s) under {out}")


# --------------------------------------------------------------------------- learn
@app.command("learn")
@guarded
def learn_cmd(
    game_name: str = typer.Argument(..., metavar="GAME"),
    option: Optional[list[str]] = OptionArg,
    games: int = typer.Option(..., "--games", "-n", min=2, help="Self-play games to learn from."),
    seed: int = typer.Option(0, "--seed", help="Seed of the self-play and of the training: the same seed, the same weights."),
    bots: str = typer.Option("level:4,level:4", "--bots", "-b", help="One bot SPEC per seat for the self-play (levels play at their fixed budgets)."),
    opening: int = typer.Option(6, "--opening", min=0, help="Random actions that open every self-play game."),
    data: Path = typer.Option(..., "--data", metavar="DIR", help="Write the self-play dataset here (Parquet; files of an earlier dataset there are replaced)."),
    extra: Optional[list[Path]] = typer.Option(None, "--extra", metavar="DIR", help="Also train on this earlier dataset (repeatable)."),
    out: Optional[Path] = typer.Option(None, "--out", metavar="FILE", help="Write the weights here (default: the game's own learned.npz)."),
    hidden: int = typer.Option(16, "--hidden", min=0, help="Hidden tanh units (0: a linear model)."),
    mix: float = typer.Option(0.5, "--mix", help="Target: MIX × the search's value + (1 − MIX) × the game's result."),
    epochs: int = typer.Option(600, "--epochs", min=1, help="Full-batch Adam steps."),
    fit_seed: Optional[int] = typer.Option(None, "--fit-seed", help="Seed of the training alone (its held-out games, first weights); default: --seed."),
    executor: str = typer.Option("serial", "--executor", "-x", help="serial, process or ray (the self-play)."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", min=1, help="Processes or Ray CPUs."),
    ray_address: Optional[str] = typer.Option(None, "--ray-address", help="Join this Ray cluster."),
    as_json: bool = JsonArg,
) -> None:
    """Learn the game's value from its levels' self-play and write its weights (a small NumPy model)."""
    import shlex

    from ..ai.learn import learn
    from ..executors import RayAddressError

    check_seed(seed, "--seed")
    if fit_seed is not None:
        check_seed(fit_seed, "--fit-seed")
    game = make_game(game_name, option)
    shown = err_console if as_json else console
    # the command as asked (kept in the weights file): defaults written out, paths as given
    words = ["abstracta", "learn", game_name, *[w for o in option or () for w in ("--option", o)],
             "--games", str(games), "--seed", str(seed), "--bots", bots, "--opening", str(opening), "--data", str(data),
             *[w for e in extra or () for w in ("--extra", str(e))], *(["--out", str(out)] if out else []),
             "--hidden", str(hidden), "--mix", f"{mix:g}", "--epochs", str(epochs),
             *(["--fit-seed", str(fit_seed)] if fit_seed is not None else []), "--executor", executor,
             *(["--workers", str(workers)] if workers else [])]
    try:
        report = learn(game, games, seed, bots=[s.strip() for s in bots.split(",")], opening=opening, data=data,
                       extra=list(extra or ()), out=out, hidden=hidden, mix=mix, epochs=epochs, fit_seed=fit_seed,
                       executor=executor,
                       workers=workers, ray_address=ray_address, progress=shown.print,
                       command=shlex.join(words))
    except (ImportError, ValueError, RayAddressError, ConnectionError) as exc:
        raise CliError(str(exc)) from None
    played = report["self_play_seconds"]
    shown.print(f"weights written to {report['weights']} (self-play {'reused' if played is None else f'{played:.0f} s'}, "
                f"training {report['training_seconds']:.0f} s)")
    if as_json:
        print(json.dumps(report))
