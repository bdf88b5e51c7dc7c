"""``abstracta play``: a game in the terminal, from the command line to the saved record. The
game itself is a play session (:mod:`abstracta.play`) that :mod:`abstracta.cli.terminal`
drives.
"""

from __future__ import annotations

import contextlib
from datetime import datetime, timezone
from pathlib import Path
from typing import Optional

import typer

from ..ai.levels import seat_spec_grammar
from ..core.game import Game, State
from ..core.options import check_seed, parse_option_pairs
from ..core.records import DECIDED, OUT_OF_TIME_TAG, Record
from ..core.registry import game_class, load_game, registered_games
from .base import (CliError, OptionArg, app, console, err_console, guarded, help_made_when_shown, output_directory,
                   parse_seats)
from .records import check_record_game, describe_result, replayed
from .terminal import PlaySession, stopped_from_outside


# --------------------------------------------------------------------------- play
def recorded_seats(seats: list[str], game: Game, path: Path) -> list[str]:
    """The canonical specs of the seats of a resumed game (``" Level:1 "`` is ``level:1``); a
    record written elsewhere may name a seat by a person's name.

    Raises:
        CliError: naming the seat, what the record calls it and the ``--seat`` that replaces it.
    """
    from ..ai.levels import parse_seat_spec

    out = []
    for i, spec in enumerate(seats):
        try:
            out.append(parse_seat_spec(spec.strip(), game))
        except ValueError as exc:
            raise CliError(f"{path}: seat {i} of the record is {spec!r}, not a seat spec ({exc}); "
                           f"give --seat {i}=human or --seat {i}=SPEC") from None
    return out


def default_records_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("abstracta")) / "records"


def play_help() -> str:
    """``play --help``'s text: what it does, the games it plays (those registered now), an example
    (issue 38 §8)."""
    games = registered_games()
    first = games[0] if games else "GAME"
    return ("Play a game in the terminal against the computer or another person.\n\n"
            f"Games: {', '.join(games)} (abstracta games describes them).\n\n"
            f"Example: abstracta play {first} --level 2 — you play seat 0 against the computer at level 2.\n\n"
            f"Two people at one terminal: abstracta play {first} --seat 1=human")


@app.command("play", cls=help_made_when_shown(play_help))
@guarded
def play_cmd(
    game_name: Optional[str] = typer.Argument(None, metavar="GAME", help="The game (not needed with --resume)."),
    option: Optional[list[str]] = OptionArg,
    level: Optional[int] = typer.Option(
        None, "--level", "-l", metavar="N",
        help="The computer's level at every seat but seat 0, which you play (default: 3); --seat changes one seat."),
    seat: Optional[list[str]] = typer.Option(
        None, "--seat", "-s",
        help=f"INDEX=SPEC (repeatable). SPEC: {seat_spec_grammar()}. Default: seat 0 human, others level:3."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for games with chance (also --option seed=N) and for the bots."),
    variant: Optional[str] = typer.Option(None, "--variant", help="Shorthand for --option variant=VALUE."),
    records: Optional[Path] = typer.Option(None, "--records", help="Directory for the saved record (default: user data dir)."),
    resume: Optional[Path] = typer.Option(
        None, "--resume", metavar="RECORD",
        help="Play on an unfinished game (e.g. one you quit) from its record: its game, options, seed and seats "
             "(--seat may change seats). Saved as a new record; the old one is kept."),
) -> None:
    from ..ai.levels import make_bot

    if resume is not None:
        if level is not None:
            raise CliError("--resume plays on with the record's seats: give --seat INDEX=level:N to change one")
        game, initial, played, record = resumed_game(resume, game_name, option, variant, seed)
        defaults = dict(enumerate(record.players)) if len(record.players) == game.num_players else {0: "human"}
        seats = recorded_seats(parse_seats(seat, game, defaults), game, resume)
        bot_seed = record.seed or 0
    else:
        if game_name is None:
            raise CliError("missing argument GAME (abstracta games lists them), or --resume RECORD")
        game = load_game(game_name, **play_options(game_name, option, variant, seed))
        seats = parse_seats(seat, game, level_seats(game, level))
        initial, played, record, bot_seed = game.new_initial_state(), [], None, seed or 0
    try:
        bots = [make_bot(spec, game, seed=bot_seed + i) for i, spec in enumerate(seats)]
    except ValueError as exc:  # a seat a resumed record names
        raise CliError(f"{resume}: {exc}") from None
    directory = records or default_records_dir()
    output_directory(directory, "--records")  # before the game: a bad --records loses no game
    humans = [i for i, b in enumerate(bots) if b is None]
    tags: dict[str, str] = {}
    if record is not None:
        # the seats out on the server's clock are not out here (no clock: each plays as --seat
        # says), as the server's import of a game that goes on drops them too; the hints given
        # stay counted
        tags = {k: v for k, v in record.tags.items() if k not in ("date", OUT_OF_TIME_TAG)}
    session = PlaySession(game, initial, seats, bots, actions=played, tags=tags,
                          start=record.start if record is not None else None)
    if record is not None:
        console.print(f"resumed {resume} at ply {len(played)}", soft_wrap=True)
    with stopped_from_outside() as stop:
        try:
            termination = session.run(humans)
        except Exception:
            # a bug of a bot or an engine, or a terminal gone (EIO): what was played is saved first
            stop.armed = False
            save_played(session, game, directory, "abandoned")
            with contextlib.suppress(OSError):
                console.print("[bold red]the game stopped on an error[/]; what was played is kept")
            raise
        # a signal from now on waits for the record: the game is over or abandoned already
        stop.armed = False
        path = save_played(session, game, directory, termination)
        if stop.output_closed:
            # nothing reads the output any more: only where the game is, on the error output
            with contextlib.suppress(OSError):
                if termination == "abandoned":
                    err_console.print(f"output closed: game abandoned; record saved: {path}", soft_wrap=True,
                                      markup=False)
                    err_console.print(f"play on with: abstracta play --resume {path}", soft_wrap=True, markup=False)
                else:
                    err_console.print(f"output closed; record saved: {path}", soft_wrap=True, markup=False)
    if session.interrupted or stop.signum:  # saved and the resume command printed; the shell's code for Ctrl-C
        raise typer.Exit(128 + stop.signum if stop.signum else 130)


def save_played(session: PlaySession, game: Game, directory: Path, termination: str | None) -> Path:
    """Save a ``play`` game's record (the session's: its ending, its tags, ``termination`` for
    one not over) in ``directory``, print its path and what to do with it and return the path;
    when it cannot be saved, print the record on stdout and exit 1 (the game is never lost)."""
    saved = session.record(termination)
    try:
        path = saved.save(unique_record_path(directory, game.name))
    except (OSError, CliError) as exc:  # e.g. the directory removed or the disk full during the game
        reason = f"{exc.strerror}: {exc.filename}" if isinstance(exc, OSError) and exc.strerror else str(exc)
        err_console.print(f"[bold red]error:[/] could not save the record in {directory} ({reason}); it follows "
                          "on standard output: save it as a .json file to replay or resume the game",
                          markup=True, soft_wrap=True)
        print(saved.to_json())
        raise typer.Exit(1) from None
    console.print(f"record saved: {path}", soft_wrap=True)
    console.print(f"replay it with: abstracta replay {path}", soft_wrap=True)
    if termination == "abandoned":
        console.print(f"play on with: abstracta play --resume {path}", soft_wrap=True)
    return path


def level_seats(game: Game, level: int | None) -> dict[int, str]:
    """The seats of a new game before ``--seat``: seat 0 a person, the others the computer at
    ``--level`` (None: the default level). CliError for a level the game does not have."""
    if level is None:
        return {0: "human"}
    from ..ai.levels import parse_seat_spec

    try:
        spec = parse_seat_spec(f"level:{level}", game)
    except ValueError as exc:
        raise CliError(f"--level {level}: {exc}") from None
    return {0: "human", **{i: spec for i in range(1, game.num_players)}}


def play_options(game_name: str, option: list[str] | None, variant: str | None, seed: int | None) -> dict[str, str]:
    """The rules options of a new ``play`` game from ``--option``, ``--variant`` and ``--seed``.

    Raises:
        CliError: when two of them contradict each other; OptionError for a bad seed.
    """
    opts = parse_option_pairs(option)
    if variant is not None:
        if "variant" in opts and opts["variant"] != variant:
            raise CliError(f"--variant {variant} contradicts --option variant={opts['variant']}")
        opts["variant"] = variant
    if seed is not None:
        check_seed(seed, "--seed")
    if seed is not None and "seed" in {o.name for o in game_class(game_name).option_specs}:
        if "seed" in opts and opts["seed"] != str(seed):
            raise CliError(f"--seed {seed} contradicts --option seed={opts['seed']}")
        opts["seed"] = str(seed)
    return opts


def resumed_game(path: Path, game_name: str | None, option: list[str] | None, variant: str | None,
                 seed: int | None) -> tuple[Game, State, list[int], Record]:
    """``(game, initial state, actions played, record)`` of the unfinished game in the record at
    ``path``, replayed through the rules.

    Raises:
        CliError: rules options or a seed given beside it, a record of another game than
            ``game_name``, a game already over, a record that does not replay. RecordError: one that cannot be read.
    """
    if option or variant is not None or seed is not None:
        raise CliError("--resume takes the game, its options and seed from the record: give only --seat and --records")
    record = Record.load(path)
    check_record_game(path, record, game_name)
    final, played = replayed(path, record)
    if final.is_terminal() or record.termination in DECIDED:
        raise CliError(f"{path}: the game is already over ({describe_result(final, record).removeprefix('result: ')}); "
                       f"replay it with: abstracta replay {path}")
    game = record.make_game()
    return game, record.initial_state(game), played, record


def unique_record_path(directory: Path, game_name: str) -> Path:
    """``<dir>/<game>-<UTC time>.json``, made unique (``-2``, ``-3``…) against existing files and
    concurrent games: the file is created here, exclusively."""
    directory.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    for n in range(1, 10_000):
        path = directory / (f"{game_name}-{stamp}.json" if n == 1 else f"{game_name}-{stamp}-{n}.json")
        try:
            with open(path, "x"):
                return path
        except FileExistsError:
            continue
    raise CliError(f"cannot find a free record name in {directory}")
