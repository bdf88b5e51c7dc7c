"""The ``abstracta`` command (Typer + Rich).

Every subcommand is game-neutral: it talks to games only through the registry and the spine,
so a newly registered game gets all of them for free.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Optional, get_args

import typer
import typer.core
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .ai.levels import seat_spec_grammar
from .ai.match import DEFAULT_MAX_ACTIONS
from .core.description import seat_name
from .core.errors import AbstractaError, IllegalActionError, NotationError, RecordError
from .core.game import (Game, State, agreed_draw_returns, draw_seats, resignation_returns, seats_out,
                        turn_texts, views_differ)
from .core.options import ascii_digits, check_seed, parse_option_pairs
from .core.perft import perft
from .core.records import (DECIDED, DRAW_OFFERED_TAG, HINTS_TAG, OUT_OF_TIME_TAG, RESIGNED_TAG, Record, hint_counts,
                           out_of_time_seats, resigned_seat, tag_seats)
from .core.registry import game_class, game_key, load_game, registered_games

# What the value of an option is, by its long name, where neither the name nor the type says
# it (the rest: _value_name); an option that takes a value shows it as git's and pip's help do
_VALUE_NAMES = {
    "--option": "KEY=VALUE", "--seat": "INDEX=SPEC", "--bots": "SPEC,...", "--bot": "SPEC",
    "--records": "DIR", "--dir": "DIR", "--baseline": "FILE", "--write-baseline": "FILE",
    "--seconds": "SECONDS", "--host": "ADDRESS", "--ray-address": "ADDRESS", "--port": "PORT",
    "--db": "URL", "--bot-workers": "N|ray|ray:ADDRESS", "--allowed-host": "HOST",
}


def _value_type(param: Any) -> Any:
    """The Python type of one value of ``param`` (an item's, for a repeatable one)."""
    desc = getattr(param, "type_descriptor", None)
    if desc is None:  # a Typer before 0.2x: its parameters carry a Click type
        kinds = {"integer": int, "integer range": int, "float": float, "float range": float, "path": Path}
        return kinds.get(getattr(getattr(param, "type", None), "name", ""), str)
    if desc.is_path:
        return Path
    return get_args(desc.annotation)[0] if desc.is_list else desc.annotation


def _value_name(param: Any) -> str:
    """The metavar of an option that takes a value: ``--depth N``, ``--position POSITION``."""
    long_name = next((opt for opt in param.opts if opt.startswith("--")), None)
    if long_name in _VALUE_NAMES:
        return _VALUE_NAMES[long_name]
    kind = _value_type(param)
    if kind is int:
        return "N"
    if kind is float:
        return "NUMBER"
    if kind is Path:
        return "PATH"
    return (long_name or param.name).lstrip("-").replace("-", "_").upper()


class _Argument(typer.core.TyperArgument):
    """An argument named by its metavar alone: ``GAME`` and ``[ACTION...]`` in the usage line,
    where Typer 0.2x writes ``{GAME}`` (which reads as a set to choose from, or a shell brace)
    and ``[ACTION...]...``, and no ``<str>`` beside its name in the Arguments panel."""

    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        if self.nargs != 1 and not name.endswith("..."):
            name += "..."
        return name if self.required else f"[{name}]"

    def display_type_rich(self, ctx: Any) -> Optional[str]:
        return None


class _Option(typer.core.TyperOption):
    """An option whose on/off default is written as the option to give, ``[default:
    --rate-limits]``; Typer writes ``[default: rate-limits]``, a value no option takes."""

    def _get_default_string(self, *, ctx: Any, show_default_is_str: bool, default_value: Any) -> str:
        if self.is_bool_flag and self.secondary_opts and not show_default_is_str:
            return (self.opts if self.default else self.secondary_opts)[0]
        return super()._get_default_string(ctx=ctx, show_default_is_str=show_default_is_str,
                                           default_value=default_value)


def _named_for_the_help(params: list[Any]) -> list[Any]:
    """``params`` as a user of git or pip reads their help. Typer 0.2x writes a parameter's Python
    type beside it: ``--json <bool>`` reads as an option taking a value (``--json true``), so a
    flag's metavar is empty and it stands alone; ``--option <list[str]>``, ``--depth <int range>``
    and ``--records <path>`` name no value, so an option that takes one gets a metavar
    (:func:`_value_name`: ``KEY=VALUE``, ``N``, ``DIR``). Typer builds its own parameter classes
    and has no hook for others, so the ones here take over how they are written
    (:class:`_Argument`, :class:`_Option`); parsing is theirs unchanged."""
    for param in params:
        if type(param) is typer.core.TyperArgument:
            param.__class__ = _Argument
        elif type(param) is typer.core.TyperOption:
            param.__class__ = _Option
        if param.metavar is not None:
            continue
        if getattr(param, "is_flag", False):
            param.metavar = ""
        elif param.param_type_name == "argument":
            param.metavar = param.name.upper() + ("..." if param.nargs != 1 else "")
        else:
            param.metavar = _value_name(param)
    return params


class _Command(typer.core.TyperCommand):
    def get_params(self, ctx: Any) -> list[Any]:  # the help option too, made here on first use
        return _named_for_the_help(super().get_params(ctx))


class _Group(typer.core.TyperGroup):
    def get_params(self, ctx: Any) -> list[Any]:
        return _named_for_the_help(super().get_params(ctx))


class _Typer(typer.Typer):
    """A Typer app whose commands write their parameters as git and pip do (:func:`_named_for_the_help`)."""

    def command(self, name: Optional[str] = None, *, cls: Any = None, **kwargs: Any) -> Any:
        return super().command(name, cls=cls or _Command, **kwargs)


class _OneLineUsageErrors(_Group):
    """Click's usage errors (an unknown option, a missing argument) as abstracta's own errors:
    one ``error: ...`` line on stderr and exit code 2, not Typer's boxed message. Every
    subcommand is parsed inside the root group's ``invoke``, the root's own options in its
    ``make_context``."""

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        with _usage_errors_in_one_line():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:
        with _usage_errors_in_one_line():
            return super().invoke(ctx)


#: Click's UsageError, found through Typer's public BadParameter: Typer 0.2x carries a copy of
#: Click (``typer._click``) whose errors are not the ``click`` package's
_UsageError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")


@contextlib.contextmanager
def _usage_errors_in_one_line() -> Any:
    try:
        yield
    except _UsageError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # `abstracta` alone: the help, as Click shows it
            raise
        where = f" (see: {exc.ctx.command_path} --help)" if exc.ctx is not None else ""
        fail(exc.format_message() + where, exc.exit_code)


app = _Typer(
    cls=_OneLineUsageErrors,
    name="abstracta",
    help="Play, study and benchmark abstract games (`abstracta games` lists them): in the terminal, in a browser (`abstracta serve`), bot against bot.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def _print_version(value: bool) -> None:
    if value:
        from . import __version__

        console.print(f"abstracta {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                       help="Print abstracta's version and exit.")) -> None:
    # a root callback turns the app into a group, so that options such as --version can sit
    # before any subcommand
    pass


OptionArg = typer.Option(None, "--option", "-o", help="Rules option KEY=VALUE (repeatable), e.g. size=dimy.")
PositionArg = typer.Option(None, "--position", "-p", help="Start from this position text (the spec's format).")
JsonArg = typer.Option(False, "--json", help="Print JSON instead of text.")
# unquoted, the shell reads 8s>1 as 8s written to a file named 1, and c9>d8*f8r as a file pattern
QUOTE_MOVES = "quote a move with > or * for the shell: '8s>1'"


class CliError(Exception):
    """A user error: printed as one line, exit code 2."""


def fail(message: str, code: int = 2) -> None:
    err_console.print(f"[bold red]error:[/] {escape(message)}", markup=True, soft_wrap=True)
    raise typer.Exit(code)


def print_table(out: Console, table: Table) -> None:
    """Print ``table`` on ``out``; in a pipe or a file, as wide as its cells need.

    Rich lays a table out in the width of a terminal it finds on stdin, stdout or stderr, else
    in 80 columns, wherever the table goes: a wider table (the tournament's crosstable, the
    benchmark's) wrapped its cells and cut names with "…", and ``abstracta tournament … | tee
    log`` or ``abstracta bench > file`` kept the cut table. On a terminal a table keeps to its
    width, as it does to a COLUMNS the user set.
    """
    if not _writes_to_a_terminal(out) and not os.environ.get("COLUMNS", "").isdigit():
        needed = out.measure(table, options=out.options.update(max_width=1_000_000)).maximum
        if needed > out.width:
            table.width = needed
            out.print(table, crop=False)  # print crops each line to the console's width
            return
    out.print(table)


def _writes_to_a_terminal(out: Console) -> bool:
    # not Console.is_terminal: FORCE_COLOR (set on many CI machines) makes that true in a pipe
    isatty = getattr(out.file, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed file
        return False


def make_game(name: str, options: list[str] | None) -> Game:
    return load_game(name, **parse_option_pairs(options))


def no_tables(game: Game) -> str:
    """Why ``egtb`` refuses ``game``: it has no endgame tables with these options, and which of
    its declared variants have some (``--option`` pairs), or that none has."""
    have = [" ".join(f"--option {k}={v}" for k, v in variant.options.items())
            for variant in game.description.variants
            if load_game(game.name, **variant.options).description.endgame_tables is not None]
    where = f"; those with tables: {', '.join(have)}" if have else "; none of its variants has any"
    return f"{game.name} with these options has no endgame tables{where}"


def start_state(game: Game, position: str | None) -> State:
    """``--position`` text, or the initial position (seed option, else 0, for games with chance)."""
    if position is not None:
        return game.state_from_text(position)
    seed = game.options.get("seed")
    return game.new_initial_state(seed=0 if game.has_chance and seed is None else seed)


def played_state(game: Game, position: str | None, actions: list[str] | None) -> State:
    """:func:`start_state` with ``actions`` (the spec's notation) applied in order.

    Raises:
        CliError: naming the first illegal action (1-based) and why.
    """
    state = start_state(game, position)
    for index, text in enumerate(actions or [], 1):
        try:
            for action in game.parse_move(state, text):
                state.apply_action(action)
        except IllegalActionError as exc:
            raise CliError(f"action {index} {text!r} is illegal: {exc}") from None
    return state


def guarded(fn):
    """Turn spine errors into one clear line and a non-zero exit, never a traceback."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (AbstractaError, CliError) as exc:
            fail(str(exc))
        except OSError as exc:  # a path given cannot be written or read (--records, --out, …)
            if isinstance(exc, BrokenPipeError) or not exc.filename:
                raise
            fail(f"{exc.strerror or exc}: {exc.filename}")

    return wrapper


# --------------------------------------------------------------------------- games
def _variant_details(game: Game) -> list[dict[str, Any]]:
    """Each variant's evaluator (its terms and default weights, where the game declares them for
    ``abstracta tune``) and what each level plays (:func:`~abstracta.ai.levels.describe_level`)."""
    from .ai.levels import describe_level

    out = []
    for variant in game.description.variants:
        played = load_game(game.name, **variant.options)
        tuning = played.description.tuning
        out.append({
            "options": dict(variant.options),
            "evaluator_terms": None if tuning is None else dict(zip(tuning.names, tuning.weights)),
            "levels": {str(level): describe_level(played, level) for level in played.description.level_numbers},
        })
    return out


@app.command("games")
@guarded
def games_cmd(as_json: bool = JsonArg) -> None:
    """List the registered games (built in or installed beside abstracta) and their options."""
    rows, broken = [], []
    for name in registered_games():
        try:
            game = load_game(name)
        except AbstractaError as exc:  # a broken plug-in must not hide the other games
            broken.append(str(exc))
            continue
        d = game.description
        rows.append({
            "name": name,
            "title": str(d.title),
            "summary": str(d.summary),
            "players": [d.min_players, d.max_players],
            "options": {o.name: {"default": o.default, "choices": o.choices, "help": o.help}
                        for o in game.option_specs},
            "variants": [dict(v.options) for v in d.variants],
            "levels": list(d.level_numbers),  # the strengths it declares (default options)
            "game": game,
        })
    if as_json:
        listing = [{k: v for k, v in row.items() if k != "game"} | {"variant_details": _variant_details(row["game"])}
                   for row in rows]
        print(json.dumps(listing, default=list))
    else:
        table = Table(title="abstracta games")
        table.add_column("game")
        # the summary is prose: held to a readable measure, also where the table may be as wide as it needs
        table.add_column("title", max_width=56)
        table.add_column("players")
        table.add_column("levels")
        # folded, never cut with "…": the values are what a reader comes for; " | " lets a long
        # list wrap between values
        table.add_column("options (default first)", overflow="fold")
        for row in rows:
            opts = []
            for o in row["game"].option_specs:
                values = [o.default] + [c for c in (o.choices or ()) if c != o.default]
                opts.append(f"{o.name}={' | '.join('(unset)' if v is None else o.text_of(v) for v in values)}")
            lo, hi = row["players"]
            table.add_row(row["name"], f"{row['title']}\n[dim]{row['summary']}[/]", str(lo) if lo == hi else f"{lo}–{hi}",
                          f"1–{row['levels'][-1]}", "\n".join(opts))
        print_table(console, table)
    for problem in broken:
        err_console.print(f"[yellow]warning:[/] {escape(problem)}", soft_wrap=True)


# --------------------------------------------------------------------------- perft / moves / apply
@app.command("perft")
@guarded
def perft_cmd(
    game_name: str = typer.Argument(..., metavar="GAME"),
    depth: int = typer.Option(..., "--depth", "-d", min=1, help="Count action sequences of length 1..DEPTH."),
    position: Optional[str] = PositionArg,
    option: Optional[list[str]] = OptionArg,
    as_json: bool = JsonArg,
) -> None:
    """Perft: the number of action sequences of each length 1..DEPTH (to compare with the counts of a rules specification)."""
    game = make_game(game_name, option)
    state = start_state(game, position)
    counts: dict[str, int] = {}
    for d in range(1, depth + 1):
        t0 = time.perf_counter()
        n = perft(state, d)
        dt = time.perf_counter() - t0
        counts[str(d)] = n
        if not as_json:
            rate = f"{n / dt:,.0f} leaves/s" if dt > 0 else ""
            console.print(f"perft({d}) = {n:,}   [dim]{dt:.2f} s  {rate}[/]")
    if as_json:
        print(json.dumps(counts))


@app.command("moves")
@guarded
def moves_cmd(
    game_name: str = typer.Argument(..., metavar="GAME"),
    position: Optional[str] = PositionArg,
    option: Optional[list[str]] = OptionArg,
    turns: bool = typer.Option(False, "--turns", help="List whole turns (games with a whole-turn notation, e.g. a1+a9)."),
    as_json: bool = JsonArg,
) -> None:
    """The legal actions of a position, in the spec's canonical order."""
    game = make_game(game_name, option)
    state = start_state(game, position)
    if turns:
        if not game.description.whole_turn_notation:
            raise CliError(f"{game.name} has no whole-turn notation: its moves are single actions")
        moves = game.turn_strings(state)
    else:
        moves = state.legal_action_strings()
    if as_json:
        print(json.dumps(moves))
    else:
        for move in moves:
            print(move)


@app.command("apply")
@guarded
def apply_cmd(
    game_name: str = typer.Argument(..., metavar="GAME"),
    actions: Optional[list[str]] = typer.Argument(None, metavar="ACTION...", help=f"Actions in the spec's notation; {QUOTE_MOVES}."),
    position: Optional[str] = PositionArg,
    option: Optional[list[str]] = OptionArg,
    as_json: bool = JsonArg,
) -> None:
    """Apply actions in order and print the resulting position text."""
    game = make_game(game_name, option)
    state = played_state(game, position, actions)
    if as_json:
        print(json.dumps({"position": state.to_text(), "terminal": state.is_terminal(),
                          "returns": [float(r) for r in state.returns()]}))
    else:
        print(state.to_text())


@app.command("analyse")
@guarded
def analyse_cmd(
    game_name: Optional[str] = typer.Argument(None, metavar="GAME", help="The game (not needed with --record)."),
    actions: Optional[list[str]] = typer.Argument(None, metavar="ACTION...", help=f"Actions played first; {QUOTE_MOVES}."),
    position: Optional[str] = PositionArg,
    option: Optional[list[str]] = OptionArg,
    record_file: Optional[Path] = typer.Option(
        None, "--record", metavar="RECORD", help="Analyse a position of this record (written by play, match or "
        "the web app): its game, options and moves."),
    ply: Optional[int] = typer.Option(None, "--ply", min=0, help="With --record: the position after this many "
                                      "actions (default: the last)."),
    reveal: bool = typer.Option(False, "--reveal", help="With --record: analyse an unfinished game with hidden "
                                "cards too (the line shows the cards of the seat searched for), as replay --reveal."),
    seat: Optional[int] = typer.Option(None, "--seat", metavar="SEAT", help="Whose information the search starts from "
                                                            "(default: the seat to move)."),
    budget: Optional[int] = typer.Option(None, "--budget", min=1, help="Positions (alpha-beta) or iterations "
                                                                       "(MCTS); default: the game's fixed budget."),
    as_json: bool = JsonArg,
) -> None:
    """The analysis board: the evaluation of a position and the best line (README "Analysis board")."""
    from .ai.analysis import analyse

    at: tuple[int, int] | None = None  # (ply, plies in the record)
    ended = None  # how the record ended beside the rules (a flag, a resignation), at its last ply
    if record_file is not None:
        if actions or position is not None or option:
            raise CliError("--record takes the game, its options and the position from the record: "
                           "give --ply to choose a position")
        state, at, record = recorded_position(record_file, game_name, ply, reveal, seat)
        ended = ending_words(state, record) if at[0] == at[1] else None
    else:
        if ply is not None or reveal:
            raise CliError(f"{'--ply' if ply is not None else '--reveal'} needs --record")
        if game_name is None:
            raise CliError("missing argument GAME (abstracta games lists them), or --record RECORD")
        state = played_state(make_game(game_name, option), position, actions)
    try:
        result = analyse(state, seat, budget)
    except AbstractaError:
        raise
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if as_json:
        print(json.dumps(result.to_dict() | ({"ply": at[0]} if at is not None else {})))
        return
    if at is not None:
        print(f"ply {at[0]} of {at[1]}")
    seats = state.game.description.seats

    def seat(i: int) -> str:  # as play and the browser name the seats: Black, Green; else Player 2
        return seat_name(seats, i)

    if ended is not None:
        # the server's clock or a resignation decided it, whatever the rules' value (a flagged
        # seat that played on as the computer lost), as replay says it; a position the rules had
        # not ended is still analysed below
        print(f"game over: {ended}")
        if result.terminal:
            return
    elif result.terminal:
        print(f"game over: {result.display} for {seat(result.viewer if result.viewer is not None else 0)}")
        return
    print(f"{result.display} for {seat(result.to_move)} ({result.search}"
          + (f", depth {result.depth}" if result.depth is not None else "") + ")")
    for turn in result.line:
        print(f"{turn.turn}. {seat(turn.player)}: {', '.join(turn.actions)}")
    if result.line_cut:
        print("… " + ("then a move the viewer cannot see" if result.line_cut == "hidden" else "then a card nobody knows yet"))


def recorded_position(path: Path, game_name: str | None, ply: int | None, reveal: bool,
                      seat: int | None) -> tuple[State, tuple[int, int], Record]:
    """The position after ``ply`` actions (default: all) of the record at ``path``, replayed
    through the rules, ``(ply, actions in the record)`` and the record.

    Raises:
        CliError: a record of another game than ``game_name``, a ply outside the record, an
            unfinished game with hidden cards without ``reveal`` (:func:`hides_cards`).
            RecordError: a record that cannot be read; CliError: one that does not replay (naming the file).
    """
    record = Record.load(path)
    check_record_game(path, record, game_name)
    final, played = replayed(path, record)
    game = record.make_game()
    if ply is not None and ply > len(played):
        raise CliError(f"--ply {ply} is not a ply of {path} (0…{len(played)})")
    ply = len(played) if ply is None else ply
    if hides_cards(game, final, record, reveal):
        whose = f"seat {seat}" if seat is not None else "the seat to move"
        raise CliError(f"{path}: the game is not over and {game.title} hides cards: its analysis would show "
                       f"those of {whose}; --reveal allows it (as replay --reveal)")
    state = record.initial_state(game)
    for action in played[:ply]:
        state.apply_action(action)
    return state, (ply, len(played)), record


def replayed(path: Path, record: Record) -> tuple[State, list[int]]:
    """:meth:`Record.replay` of the record read from ``path``, its errors naming the file.

    Raises:
        CliError: ``path``, then the ply and why it does not replay.
    """
    try:
        return record.replay()
    except RecordError as exc:
        raise CliError(f"{path}: {exc}") from None


def check_record_game(path: Path, record: Record, game_name: str | None) -> None:
    """Raises CliError when ``game_name`` (given beside a record) names another game than the record's."""
    if game_name is not None and game_key(game_name) != game_key(record.game):
        raise CliError(f"{path} is a record of {record.game}, not {game_name}")


def hides_cards(game: Game, final: State, record: Record, reveal: bool) -> bool:
    """Whether showing a record may show only what a spectator sees: a game with hidden
    information that is not over (the deal is public at the end), unless ``reveal`` — the
    record may be shown to someone who is still to play it. ``final``: the record replayed."""
    finished = final.is_terminal() or record.result is not None
    return game.has_hidden_information and not finished and not reveal


# --------------------------------------------------------------------------- replay
@app.command("replay")
@guarded
def replay_cmd(
    file: Path = typer.Argument(..., metavar="FILE", help="A record written by play, match or the web app."),
    as_json: bool = JsonArg,
    reveal: bool = typer.Option(False, "--reveal", help="Show the hidden cards of an unfinished game too "
                                "(hands, stock, pile orders, the seed); a finished game shows them anyway."),
) -> None:
    """Validate and replay a game record: the moves, the final position and the result.

    A game with hidden cards that is not over shows only what a spectator sees, unless --reveal: the record may be shown to someone who is still to play it."""  # one line: --help keeps a docstring's line breaks
    record = Record.load(file)
    final, actions = replayed(file, record)
    game = record.make_game()
    hidden = hides_cards(game, final, record, reveal)
    position = final.public_observation() if hidden else final.to_text()
    if as_json:
        # how it ended, as the server's view says it (the line below names the same seats)
        out = seats_out(final)
        print(json.dumps({"moves": record.moves, "position": position, "hidden": hidden,
                          "terminal": final.is_terminal(),
                          "returns": [float(r) for r in final.returns()], "result": record.result,
                          "termination": record.termination,
                          "resigned": resigned_seat(record.tags, record.result, record.termination, out),
                          "out_of_time": out_of_time_seats(record.tags, final.num_players, record.result,
                                                           record.termination, out)}))
        return
    opts = " ".join(f"{k}={v}" for k, v in game.option_text().items())
    seed = f"  seed={record.seed}" if record.seed is not None and not hidden else ""  # the seed makes the deal
    console.print(f"[bold]{game.title}[/]" + (f" {opts}" if opts else "") + seed)
    if record.players:
        console.print(escape(seats_line(game, [seat_role(p) for p in record.players])), soft_wrap=True)
    console.print(format_move_list(turn_entries(record.initial_state(game), actions), console.width),
                  soft_wrap=True, markup=False, highlight=False)
    if not hidden:
        console.print(game.render(final))
        console.print(f"position: {final.to_text()}", soft_wrap=True)
    else:
        board = spectator_board(game, final)
        if board is not None:
            console.print(board)
        if position is not None:
            console.print(f"public position: {position}", soft_wrap=True)
        console.print("[dim](the game is not over: hidden cards are not shown; --reveal shows them)[/]")
    console.print(describe_result(final, record))


def spectator_board(game: Game, state: State) -> Any:
    """The board as a spectator may see it, or None: a game draws a board for one seat's eyes
    (``Game.render``), so a drawing that is the same for every seat shows nothing hidden."""
    boards = [game.render(state, p) for p in range(state.num_players)]
    texts = {b.plain if hasattr(b, "plain") else str(b) for b in boards}
    return boards[0] if len(texts) == 1 else None


def turn_entries(initial: State, actions: list[int]) -> list[tuple[int, list[str]]]:
    """The turns of ``actions`` played from ``initial`` as the browser's move list shows them
    (:func:`~abstracta.core.game.turn_texts`): each turn's number (0: before the rules' first
    turn, e.g. Fibonacci Go's placements) and its moves as ``play`` prints a turn (Nibble's
    ``a1+a9``, ``a1`` for a one-disc turn: ``Game.format_turn``)."""
    return [(turn.number, turn.moves) for turn in turn_texts(initial, actions)]


def format_move_list(turns: list[tuple[int, list[str]]], width: int) -> str:
    """Numbered turns (:func:`turn_entries`: "7. a3-b2A, b2-c2W"; an unnumbered one without its
    number) two spaces apart, in lines of at most ``width`` columns broken between turns, and
    between the moves of a turn only where it is longer than a line, never inside a move ("7." at
    a line's end and "a3-b2A" on the next); print it with ``soft_wrap=True`` (rich breaks at a
    no-break space too, so the lines are made here)."""
    width = max(width, 20)
    lines: list[str] = []
    line = ""

    def put(piece: str, gap: str) -> None:
        nonlocal line
        if line and len(line) + len(gap) + len(piece) > width:
            lines.append(line)
            line = piece
        else:
            line = f"{line}{gap}{piece}" if line else piece

    for number, moves in turns:
        label = f"{number}. " if number else ""
        if len(label) + len(", ".join(moves)) <= width:
            put(label + ", ".join(moves), "  ")
            continue
        for k, move in enumerate(moves):
            put((label if k == 0 else "") + move + ("," if k < len(moves) - 1 else ""), "  " if k == 0 else " ")
    lines.append(line)
    return "\n".join(lines) if any(lines) else "(no moves)"


def describe_result(state: State, record: Record | None = None) -> str:
    """The result line of ``replay`` and ``play``: the result and how the game ended
    (``state``: the record's final position)."""
    ended = ending_words(state, record)
    if ended is not None:
        assert record is not None and record.result is not None
        return f"result: {record.result} ({ended})"
    if not state.is_terminal():
        return "result: unfinished"
    returns = state.returns()
    return f"result: {returns} — {outcome_words(state, returns)}"


def named_seat(state: State, i: int) -> str:
    # the names play and the browser say (Black, Player 2) with the seat numbers of --seat
    # and the record's seats: "Black (seat 1)"
    return f"{seat_name(state.game.description.seats, i)} (seat {i})"


def outcome_words(state: State, result: list[float]) -> str:
    """Who won, or who drew ("Blue (seat 1), Red (seat 2) draw"), or "draw"."""
    named = functools.partial(named_seat, state)
    winners = [named(i) for i, r in enumerate(result) if r > 0]
    if winners:
        return f"{', '.join(winners)} {'wins' if len(winners) == 1 else 'win'}"
    # three or four players: the seats still in share a draw (a resignation, a flag, no pieces
    # left), the others lost; a draw for all says "draw"
    drawn = [named(i) for i, r in enumerate(result) if r == 0]
    if len(result) > 2 and drawn and any(r < 0 for r in result):
        return f"{', '.join(drawn)} {'draws' if len(drawn) == 1 else 'draw'}"
    return "draw"


def ending_words(state: State, record: Record | None) -> str | None:
    """How a record the rules did not decide ended, as the browser's result line says it
    ("Green (seat 0) ran out of time; Blue (seat 1), Red (seat 2) draw", "White (seat 0)
    resigned; Black (seat 1) wins", "drawn by agreement, offered by White (seat 0); draw"), or
    None: ended by the rules, or not over. ``state``: the record's final position."""
    if record is None or not record.result or record.termination not in DECIDED:
        return None
    named = functools.partial(named_seat, state)
    if record.termination == "agreement":
        offered = tag_seats(record.tags.get(DRAW_OFFERED_TAG), state.num_players)
        who = "drawn by agreement" + (f", offered by {named(offered[0])}" if offered and len(offered) == 1 else "")
    elif record.termination == "resignation":
        # the record's Resigned tag; an older record's resigner is the loser the rules had not put
        # out (a 3-4 player game's earlier losers), none when that leaves more than one
        resigned = resigned_seat(record.tags, record.result, record.termination, seats_out(state))
        who = f"{named(resigned)} resigned" if resigned is not None else "resignation"
    else:
        flagged = out_of_time_seats(record.tags, state.num_players, record.result, record.termination, seats_out(state))
        who = f"{', '.join(map(named, flagged))} ran out of time" if flagged else "time"
    return f"{who}; {outcome_words(state, record.result)}"


# --------------------------------------------------------------------------- play
def parse_seats(specs: list[str] | None, game: Game, default: dict[int, str]) -> list[str]:
    from .ai.levels import parse_seat_spec

    n = game.num_players
    seats = dict(default)
    given: dict[int, str] = {}
    for item in specs or []:
        index, sep, spec = item.partition("=")
        if not sep or not ascii_digits(index.strip()):
            raise CliError(f"seat {item!r} is not of the form INDEX=SPEC (e.g. 1=mcts:1)")
        i = int(index)
        if not 0 <= i < n:
            raise CliError(f"seat {i} does not exist (this game has seats 0..{n - 1})")
        if i in given:
            raise CliError(f"seat {i} is given twice (--seat {given[i]} and --seat {item})")
        given[i] = item
        try:
            seats[i] = parse_seat_spec(spec.strip(), game)
        except ValueError as exc:
            raise CliError(f"seat {i}: {exc}") from None
    return [seats.get(i, "level:3") for i in range(n)]


def recorded_seats(seats: list[str], game: Game, path: Path) -> list[str]:
    """The canonical specs of the seats of a resumed game (``" Level:1 "`` is ``level:1``); a
    record written elsewhere may name a seat by a person's name.

    Raises:
        CliError: naming the seat, what the record calls it and the ``--seat`` that replaces it.
    """
    from .ai.levels import parse_seat_spec

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


#: The most searches a hint makes for one turn: the first, then more from inside a turn the
#: prompt reads whole (each search gives at least one more action of the turn).
MAX_HINT_SEARCHES = 6


PLAY_HELP = """Type a move in the game's notation, or:
  ?        list the legal moves
  hint     the analysis board's best turn for you (against the computer;
           counted in the record)
  undo     take back your last turn (against the computer)
  board    draw the board again
  resign   give up
{draw}
  quit     stop (the record is saved as abandoned)
  help     this text"""

#: The help's line for the draw offer: ``draw``, or ``offer draw`` in a game with a move written
#: ``draw`` (it stays the move there).
DRAW_HELP = """  draw     offer the other players a draw (people at one terminal; the
           computer never agrees to one)"""
OFFER_DRAW_HELP = """  offer draw  offer the other players a draw (draw is a move here; people
           at one terminal; the computer never agrees to one)"""


@app.command("play")
@guarded
def play_cmd(
    game_name: Optional[str] = typer.Argument(None, metavar="GAME", help="The game (not needed with --resume)."),
    option: Optional[list[str]] = OptionArg,
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
    """Play a game in the terminal against the computer or another person."""
    from .ai.levels import make_bot

    if resume is not None:
        game, initial, played, record = resumed_game(resume, game_name, option, variant, seed)
        defaults = dict(enumerate(record.players)) if len(record.players) == game.num_players else {0: "human"}
        seats = recorded_seats(parse_seats(seat, game, defaults), game, resume)
        bot_seed = record.seed or 0
    else:
        if game_name is None:
            raise CliError("missing argument GAME (abstracta games lists them), or --resume RECORD")
        game = load_game(game_name, **play_options(game_name, option, variant, seed))
        seats = parse_seats(seat, game, {0: "human"})
        initial, played, record, bot_seed = game.new_initial_state(), [], None, seed or 0
    try:
        bots = [make_bot(spec, game, seed=bot_seed + i) for i, spec in enumerate(seats)]
    except ValueError as exc:  # a seat a resumed record names
        raise CliError(f"{resume}: {exc}") from None
    directory = records or default_records_dir()
    output_directory(directory, "--records")  # before the game: a bad --records loses no game
    humans = [i for i, b in enumerate(bots) if b is None]
    session = PlaySession(game, initial, seats, bots)
    for action in played:
        session.apply(action)
    tags: dict[str, str] = {}
    if record is not None:
        # the seats out on the server's clock are not out here (no clock: each plays as --seat
        # says), as the server's import of a game that goes on drops them too
        tags = {k: v for k, v in record.tags.items() if k not in ("date", OUT_OF_TIME_TAG)}
        session.hints = hint_counts(record.tags, game.num_players)
        console.print(f"resumed {resume} at ply {len(played)}", soft_wrap=True)
    with stopped_from_outside() as stop:
        try:
            termination = session.run(humans)
        except Exception:
            # a bug of a bot or an engine, or a terminal gone (EIO): what was played is saved first
            stop.armed = False
            save_played(session, game, initial, seats, tags, record, directory, "abandoned")
            with contextlib.suppress(OSError):
                console.print("[bold red]the game stopped on an error[/]; what was played is kept")
            raise
        # a signal from now on waits for the record: the game is over or abandoned already
        stop.armed = False
        path = save_played(session, game, initial, seats, tags, record, directory, termination)
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


class HungUp(KeyboardInterrupt):
    """The terminal closed (SIGHUP), the process was asked to stop (SIGTERM, ``kill``) or its
    output pipe was closed (EPIPE: ``play … | head``) during ``play``: handled as Ctrl-C is, the
    game saved as abandoned."""


@contextlib.contextmanager
def stopped_from_outside() -> Any:
    """Turn SIGHUP and SIGTERM into :class:`HungUp` while a game is played: by default they end
    the process at once, and closing the terminal window or ``kill`` lost the whole game. Yields
    an object whose ``signum`` is the signal received (else 0), for the exit code (128 + signum),
    and ``armed``: whether a signal stops the game now (after it, the record is being saved: a
    signal then is only noted; the terminal closing gives end of input and SIGHUP in either order).

    The handler runs on the main thread, but only between two steps of its Python code: a
    SIGTERM delivered to another thread (any that does not block it may take it, a native
    library's) or just before the prompt's read of the next line began leaves it waiting for that
    read to end, which ``kill`` does not do (a closed terminal does). A watcher thread hears every
    signal through the wakeup file descriptor and sends SIGTERM to the main thread itself until
    the handler has run: a delivery there interrupts the read.

    A closed output pipe (EPIPE on a write: the reader of ``play … | head -3`` is gone) stops the
    game as SIGPIPE would (``signum`` SIGPIPE, and ``output_closed``): rich's own handling ended
    the process (exit 1) before the record was saved. Python ignores SIGPIPE itself, so the
    write fails instead of the process being killed."""
    import os
    import signal
    import threading
    import types

    stop = types.SimpleNamespace(signum=0, armed=True, output_closed=False)
    wanted = [getattr(signal, name) for name in ("SIGHUP", "SIGTERM") if hasattr(signal, name)]
    if threading.current_thread() is not threading.main_thread():  # only the main thread takes signals
        yield stop
        return

    def stopped(signum: int, _frame: Any) -> None:
        if stop.signum:  # once: a second raise could land in the first one's handling
            return
        stop.signum = signum
        if signum == getattr(signal, "SIGHUP", None):
            # no terminal any more: a print would fail (EIO) before the record is saved
            for out in (console, err_console):
                out.file = open(os.devnull, "w")  # noqa: SIM115 - for the rest of the process
        if stop.armed:
            raise HungUp

    def output_closed() -> None:  # rich calls it on EPIPE; its own exits
        console.quiet = True  # nothing more is written to the pipe
        # nor by Python's own flush at exit ("Exception ignored … BrokenPipeError")
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        stop.output_closed = True
        if stop.signum:
            return
        stop.signum = getattr(signal, "SIGPIPE", 13)
        if stop.armed:
            raise HungUp

    before = {signum: signal.signal(signum, stopped) for signum in wanted}
    quiet = console.quiet
    console.on_broken_pipe = output_closed  # type: ignore[method-assign]
    watcher = _watch_for_sigterm(stop) if hasattr(signal, "pthread_kill") else contextlib.nullcontext()
    try:
        with watcher:
            yield stop
    finally:
        del console.on_broken_pipe  # rich's again
        console.quiet = quiet
        for signum, handler in before.items():
            signal.signal(signum, handler)


@contextlib.contextmanager
def _watch_for_sigterm(stop: Any) -> Any:
    """While it lasts, a SIGTERM whose handler has not run is sent to the main thread again until
    it has (see :func:`stopped_from_outside`); ends before the handlers are restored, so no
    SIGTERM it sends meets the default handler."""
    import os
    import signal
    import threading
    import time

    main = threading.main_thread().ident
    r, w = os.pipe()
    os.set_blocking(w, False)  # the C handler must never wait on a full pipe
    old = signal.set_wakeup_fd(w, warn_on_full_buffer=False)

    def watch() -> None:
        while data := os.read(r, 64):
            # each delivery writes here, the ones sent below too: sent again until the handler ran
            if signal.SIGTERM in data:
                time.sleep(0.05)  # time for the main thread to run it, as it does when its read ends
                if not stop.signum:
                    signal.pthread_kill(main, signal.SIGTERM)

    thread = threading.Thread(target=watch, name="sigterm-watcher", daemon=True)
    thread.start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(old)
        os.close(w)  # the watcher reads the end of the pipe and returns
        thread.join()
        os.close(r)


def save_played(session: "PlaySession", game: Game, initial: State, seats: list[str], tags: dict[str, str],
                resumed: Record | None, directory: Path, termination: str | None) -> Path:
    """Save a ``play`` game's record in ``directory``, print its path and what to do with it and
    return the path; when it cannot be saved, print the record on stdout and exit 1 (the game
    is never lost)."""
    if any(session.hints):
        tags = {**tags, HINTS_TAG: ",".join(map(str, session.hints))}
    tags = {**tags, **session.ending_tags(termination)}
    saved = Record.from_play(game, initial, session.actions, players=seats, tags=tags,
                             start=resumed.start if resumed is not None else None,
                             termination=termination, result=session.forced_result)
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


def output_directory(directory: Path, flag: str) -> None:
    """Create ``directory`` (and its parents) for the files an option such as ``--records`` asks for.

    Raises:
        CliError: naming the option when a file stands where a directory must be, or the system
            refuses (e.g. permission denied).
    """
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise CliError(f"{flag} {directory}: not a directory (a file of that name is in the way)") from None
    except OSError as exc:
        raise CliError(f"{flag} {directory}: {exc.strerror or exc}") from None


def fresh_output_directory(directory: Path, names: list[str], flag: str, hint: str) -> None:
    """Create ``directory`` (before any game is played: a bad path loses none) and make sure none
    of ``names`` is in it already, so that an earlier run's files are never written over.

    Raises:
        CliError: naming the first file already there and ``hint`` (what to change).
    """
    output_directory(directory, flag)
    taken = next((name for name in names if (directory / name).exists()), None)
    if taken is not None:
        raise CliError(f"{flag} {directory} already holds {taken} (an earlier run?); nothing is "
                       f"overwritten: {hint}")


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


def line_reader(interactive: bool | None = None) -> Any:
    """A function ``read(prompt) -> str`` for the terminal: prompt_toolkit's line editing and
    history (Up arrow) when both ends are a terminal that moves its cursor (or ``interactive``),
    else plain input (pipes, tests, ``TERM=dumb``: prompt_toolkit's escapes would show as text).
    Raises ``EOFError`` at the end of input, ``KeyboardInterrupt`` on Ctrl-C."""
    if interactive is None:
        from prompt_toolkit.utils import is_dumb_terminal

        interactive = sys.stdin.isatty() and sys.stdout.isatty() and not is_dumb_terminal()
    if interactive:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import InMemoryHistory

        session: PromptSession = PromptSession(history=InMemoryHistory())
        return lambda prompt: session.prompt(prompt)
    return lambda prompt: console.input(prompt, markup=False)


def seat_role(spec: str) -> str:
    """Who plays a seat of this spec, in the browser's words: "a person", "computer, level 3", or
    the search the spec names ("computer, mcts:1"); a record written elsewhere may hold a name."""
    if spec == "human":
        return "a person"
    level = spec.removeprefix("level:")
    return f"computer, level {level}" if level != spec else f"computer, {spec}"


def seats_line(game: Game, roles: list[str]) -> str:
    """Every seat by its name, its number for ``--seat`` and records, and who plays it:
    "White (seat 0): you · Black (seat 1): computer, level 3"."""
    seats = game.description.seats
    return " · ".join(f"{seat_name(seats, i)} (seat {i}): {role}" for i, role in enumerate(roles))


class PlaySession:
    """A terminal game: bots move by themselves, humans type moves at a prompt."""

    def __init__(self, game: Game, initial: State, seats: list[str], bots: list[Any],
                 read: Any = None):
        self.game = game
        self.initial = initial
        self.seats = seats
        self.bots = bots
        self.actions: list[int] = []
        self.movers: list[int] = []
        self.state = initial.clone()
        self.forced_result: list[float] | None = None
        self.resigned: int | None = None  # the seat that resigned (the record's tag)
        self.draw_offered: int | None = None  # the seat whose draw offer all accepted (the record's tag)
        self.hints = [0] * initial.num_players
        self.read = read or line_reader()
        #: whether the game stopped on Ctrl-C (the command then exits 130, as match does)
        self.interrupted = False
        #: whether a person's hidden cards were shown (two people at one terminal: a hand-over hides them)
        self.hand_shown = False

    def who(self, player: int) -> str:
        """The seat's name in the game (White, Red), else "You" for the only person, else
        Player N (numbered from 1, as the browser names it; --seat N-1)."""
        seats = self.game.description.seats
        if seats[player].name is None and self.only_person(player):
            return "You"
        return seat_name(seats, player)

    def only_person(self, player: int) -> bool:
        """Whether ``player`` is the one seat a person plays (the others are bots): "you"."""
        return [i for i, b in enumerate(self.bots) if b is None] == [player]

    def role(self, player: int) -> str:
        """Who plays the seat: "you" when you are the only person, else :func:`seat_role`."""
        return "you" if self.only_person(player) else seat_role(self.seats[player])

    def seats_line(self) -> str:
        """Every seat by its name, its number for ``--seat`` and who plays it."""
        return seats_line(self.game, [self.role(i) for i in range(len(self.seats))])

    def prompt(self, player: int) -> str:
        """The move prompt: whose turn, and that it is yours when you are the only person
        ("Your move (White)> ", as the browser's status says); else the seat's name."""
        name = self.who(player)
        if self.role(player) == "you":
            return f"Your move ({seat_name(self.game.description.seats, player)})> "
        return f"{name} move> "

    def winners_text(self, returns: list[float]) -> str:
        winners = [self.who(i) for i, r in enumerate(returns) if r > 0]
        drawn = [self.who(i) for i, r in enumerate(returns) if r == 0]
        if not winners and len(returns) > 2 and drawn and any(r < 0 for r in returns):
            # three or four players: the seats still in share a draw (a resignation), the others lost
            return ", ".join(drawn) + (" draw" if len(drawn) > 1 or drawn[0] == "You" else " draws")
        if not winners:
            return "nobody wins"
        return ", ".join(winners) + (" win" if len(winners) > 1 or winners[0] == "You" else " wins")

    def view_for(self) -> int | None:
        humans = [i for i, b in enumerate(self.bots) if b is None]
        if not self.game.has_hidden_information or self.state.is_terminal():
            return None  # a finished game shows the whole deal, as replay shows it
        player = self.state.current_player()
        if player in humans:
            return player
        return humans[0] if humans else None

    def show(self) -> None:
        from rich.cells import cell_len

        board = self.game.render(self.state, self.view_for())
        console.print(board)
        lines = (board.plain if hasattr(board, "plain") else str(board)).splitlines()
        # rows of a board wrapped look like a broken board: say why (a line or two of a legend
        # wraps as any text does)
        if sum(cell_len(line.rstrip()) > console.width for line in lines) > 4:
            console.print(f"[dim](the board is wider than this terminal's {console.width} columns: "
                          "widen it to see the board whole)[/]")

    def apply(self, action: int) -> None:
        player = self.state.current_player()
        self.state.apply_action(action)
        self.actions.append(action)
        self.movers.append(player)

    def legal_moves_for_humans(self) -> list[str]:
        """Whole turns where the game has a whole-turn notation (at a turn start), else actions."""
        if self.game.description.whole_turn_notation:
            try:
                return self.game.turn_strings(self.state)
            except AbstractaError:  # mid-turn: the single actions that continue it
                pass
        return self.state.legal_action_strings()

    def undo(self) -> str | None:
        """Take back the bots' replies and the human's last turn. Returns None when done, else
        why not (nothing to undo; an action since then showed a card or a chance outcome, which
        replaying would show again, as the web app's undo refuses too: ``State.reveals``)."""
        humans = {i for i, b in enumerate(self.bots) if b is None}
        acts, movers = list(self.actions), list(self.movers)
        while movers and movers[-1] not in humans:
            acts.pop(); movers.pop()
        if not movers:
            return "nothing to undo"
        who = movers[-1]
        while movers and movers[-1] == who:
            acts.pop(); movers.pop()
        state = self.initial.clone()
        for a in acts:
            state.apply_action(a)
        probe = state.clone()
        for ply, action in enumerate(self.actions[len(acts):], len(acts) + 1):
            try:
                shown = probe.reveals(action)
            except (AbstractaError, NotImplementedError):  # a game that cannot tell: never cross it
                shown = True
            if shown:
                text = probe.action_to_string(action)
                return (f"ply {ply} ({text}) showed hidden information or a chance outcome; "
                        "no undo goes back past it")
            probe.apply_action(action)
        self.state, self.actions, self.movers = state, acts, movers
        for bot in self.bots:
            if bot is not None:
                bot.restart()
        return None

    def hint(self, player: int) -> str:
        """The analysis board's best turn for ``player`` (to move) from what that seat knows, in
        the notation typed at the prompt, and its evaluation; counted in :attr:`hints` (an
        answer that names no turn is not a hint given, and is not counted)."""
        from .ai.analysis import analyse
        from .server.i18n import search_words

        result = analyse(self.state, player)
        if not result.line or result.line[0].player != player:
            return "no hint here"
        self.hints[player] += 1
        probe, actions = self.state.clone(), []

        def take(line: Any) -> None:
            for text in line[0].actions:
                actions.append(probe.string_to_action(text))
                probe.apply_action(actions[-1])

        def open_turn() -> bool:
            return not probe.is_terminal() and probe.current_player() == player

        take(result.line)
        # a turn the prompt reads whole cannot be typed in part (a typed entry that plays other
        # actions than the search's, e.g. one that ends the turn too): search on from inside it
        # until it ends, so the hint names a turn that can be typed
        for _ in range(MAX_HINT_SEARCHES):
            if not open_turn() or self.typed_as(self.game.format_turn(self.state, actions)) == actions:
                break
            more = analyse(probe, player)
            if not more.line or more.line[0].player != player:
                break
            take(more.line)
        first, *rest = self.game.format_turn(self.state, actions)  # each entry typed at its own prompt
        then = f", then {', '.join(rest)}" if rest else ""
        # a search that stops inside a long turn (Fibonacci's six moves, a capture chain) names
        # only its start: say so, or the hint reads as a whole turn that leaves moves over
        if open_turn():
            then += ", then the rest of the turn is yours to choose (the search stopped there)"
        whom = self.who(player)
        whom = "you" if whom == "You" else whom  # mid-sentence
        return (f"hint: {first}{then}   (evaluation {result.display} for {whom}; "
                f"{search_words(result.search, result.iterations)})")

    def typed_as(self, entries: list[str]) -> list[int] | None:
        """The actions ``entries`` play when typed one at a prompt each from this position
        (``Game.parse_turn``), or None where one is refused."""
        trial, actions = self.state.clone(), []
        try:
            for entry in entries:
                for action in self.game.parse_turn(trial, entry):
                    trial.apply_action(action)
                    actions.append(action)
        except AbstractaError:
            return None
        return actions

    def ending_tags(self, termination: str | None) -> dict[str, str]:
        """The record's tags of an ending the players decided, as the server writes them: the
        seat that resigned, the seat whose draw offer the others accepted."""
        if termination == "resignation" and self.resigned is not None:
            return {RESIGNED_TAG: str(self.resigned)}
        if termination == "agreement" and self.draw_offered is not None:
            return {DRAW_OFFERED_TAG: str(self.draw_offered)}
        return {}

    def draw_is_a_move(self) -> bool:
        """Whether the game writes a move ``draw`` (a card drawn from the stock), legal here or
        not: typed, it is that move, and ``offer draw`` offers a draw."""
        try:
            self.game.parse_turn(self.state, "draw")
        except NotationError:
            return False
        except AbstractaError:  # the game's notation, not legal now
            return True
        return True

    def draw_refusal(self) -> str | None:
        """Why no draw can be offered now, by the server's rule (README "Draw offers"): a seat
        still in is the computer's, which never agrees to one. None: it can."""
        computer = [i for i in draw_seats(self.state.num_players, seats_out(self.state)) if self.bots[i] is not None]
        if not computer:
            return None
        return f"no draw: {named_seat(self.state, computer[0])} is played by the computer, which does not agree to draws"

    def offer_draw(self, player: int, humans: list[int]) -> str | None:
        """``player`` offers a draw (no :meth:`draw_refusal`): each other seat still in is asked
        in turn, and all must accept — a seat out has lost whatever the others agree (the
        server's rule). Returns None when drawn (:attr:`forced_result`, :attr:`draw_offered`),
        else what to tell the offerer. People who see different cards pass the terminal before
        each answer."""
        out = seats_out(self.state)
        console.print(f"{self.who(player)} offers a draw")
        hidden = views_differ(self.state, humans)
        for seat in draw_seats(self.state.num_players, out):
            if seat == player:
                continue
            answer = ""
            if not hidden or self._hand_over(seat):  # end of input at the hand-over: not accepted
                try:
                    answer = self.read(f"{self.who(seat)}, accept a draw? [y/N] ").strip().lower()
                except HungUp:  # the game stops: saved as abandoned
                    raise
                except (EOFError, KeyboardInterrupt):
                    answer = ""
            if answer not in ("y", "yes"):
                return f"{self.who(seat)} declines the draw; play on"
        self.forced_result = agreed_draw_returns(self.state.num_players, out)
        self.draw_offered = player
        return None

    def run(self, humans: list[int]) -> str | None:
        """Play until the game ends; returns the record's termination."""
        try:
            return self._run(humans)
        except KeyboardInterrupt:  # Ctrl-C while a bot thinks: keep what was played
            self.interrupted = True
            # stopped while the end was being told (the last board, a resignation): it ended
            if self.resigned is not None:
                return "resignation"
            if self.draw_offered is not None:
                return "agreement"
            if self.state.is_terminal():
                return "normal"
            console.print("\ngame abandoned")
            return "abandoned"

    def _hand_over(self, player: int) -> bool:
        """Between two people at one terminal with hidden cards: hide the screen until the next
        person is there. Returns False at end of input."""
        if console.is_terminal and not console.is_dumb_terminal:
            if self.hand_shown:  # before the first hand, the title and "type help" stay
                # the screen, then the scrollback (3J, after 2J for xterm): scrolling alone
                # leaves the last hand one scroll away
                console.file.write("\x1b[2J\x1b[H\x1b[3J")
                console.file.flush()
        else:  # a dumb terminal or a pipe understands no escape
            console.print("\n" * console.size.height)
        try:
            name = self.who(player)
            seat = f" (seat {player})"  # the number --seat gives it
            self.read(f"pass the terminal to {name}{seat}, then press Enter ")
        except EOFError:
            return False
        return True

    def _run(self, humans: list[int]) -> str | None:
        if humans:
            console.print(f"[bold]{self.game.title}[/] — type [bold]help[/] for the commands and how to write a move")
            console.print(escape(self.seats_line()), soft_wrap=True)
            if not views_differ(self.state, humans):
                self.show()
        shown_ply = len(self.actions)
        last_human: int | None = None
        bot_turns_in_a_row = 0
        told_out = set(seats_out(self.state))
        #: what to tell the next person after a hand-over (a draw offer declined behind their back)
        tell: str | None = None
        while not self.state.is_terminal():
            for gone in self.state.eliminated_struct():  # a 3-4 player game goes on without them
                if gone["seat"] not in told_out:
                    told_out.add(gone["seat"])
                    console.print(f"[bold]{self.who(gone['seat'])} is out[/] — {gone['text']}")
            player = self.state.current_player()
            bot = self.bots[player] if 0 <= player < len(self.bots) else None
            if bot is not None:
                # the bot's whole turn, printed as a person types it (e.g. Nibble's a1+a9, a1)
                before, turn = self.state.clone(), []
                if self.game.description.whole_turn_notation:
                    # a turn that is one set (Nibble's takes) is planned whole and played in the
                    # game's canonical order, as the server plays it: a bot's tie-break order
                    # would be written take by take, not as the spec writes the turn
                    trial = self.state.clone()
                    while trial.current_player() == player:
                        action = bot.step(trial.clone())
                        trial.apply_action(action)
                        turn.append(action)
                    turn = self.game.canonical_turn(before, turn)
                    for action in turn:
                        self.apply(action)
                else:
                    while self.state.current_player() == player:
                        action = bot.step(self.state.clone())
                        self.apply(action)
                        turn.append(action)
                text = ", ".join(self.game.format_turn(before, turn))
                console.print(f"{self.who(player)} ({escape(self.role(player))}) plays [bold]{text}[/]")
                bot_turns_in_a_row += 1
                if humans and bot_turns_in_a_row == 3 * self.state.num_players:
                    # e.g. every human seat eliminated in a 3-4 player game: say so, keep showing play
                    console.print("[yellow]no person has a turn any more; the computer plays on "
                                  "(Ctrl-C stops and saves)[/]")
                if humans and bot_turns_in_a_row >= 3 * self.state.num_players \
                        and bot_turns_in_a_row % self.state.num_players == 0:
                    self.show()
                continue
            bot_turns_in_a_row = 0
            # people who see different things (their own hands) pass the terminal on, as in the web app
            if player != last_human and views_differ(self.state, humans):
                if not self._hand_over(player):
                    console.print("\ngame abandoned")
                    return "abandoned"
                self.show()
                self.hand_shown = True
                shown_ply = len(self.actions)
                if tell:
                    console.print(tell)
                    tell = None
            last_human = player
            if len(self.actions) != shown_ply:
                self.show()
                shown_ply = len(self.actions)
            try:
                line = self.read(self.prompt(player)).strip()
            except (EOFError, KeyboardInterrupt) as exc:
                console.print("\ngame abandoned")
                self.interrupted = isinstance(exc, KeyboardInterrupt)
                return "abandoned"
            if not line:
                continue
            word = line.lower()
            if word in ("help", "h"):
                console.print(PLAY_HELP.format(draw=OFFER_DRAW_HELP if self.draw_is_a_move() else DRAW_HELP))
                console.print(f"\n{self.game.title}: {self.game.description.notation_help}")
            elif word in ("?", "moves"):
                console.print("  ".join(self.legal_moves_for_humans()))
            elif word == "board":
                self.show()
            elif word == "hint":
                if len(humans) == len(self.bots):  # as the web app: one person's hint is not another's
                    console.print("hints are for games against the computer")
                else:
                    console.print("thinking…")
                    console.print(self.hint(player), soft_wrap=True)
            elif word == "undo":
                refused = "undo is for games against the computer" if len(humans) == len(self.bots) else self.undo()
                if refused:
                    console.print(refused)
                else:
                    console.print("taken back")
                    self.show()
                    shown_ply = len(self.actions)
                    told_out = set(seats_out(self.state))  # a seat back in is told again when put out again
            elif word == "resign":
                result = resignation_returns(self.state.num_players, player, seats_out(self.state))
                try:
                    answer = self.read(f"Resign? Then {self.winners_text(result)}. [y/N] ").strip().lower()
                except HungUp:  # the game stops: saved as abandoned, not resigned
                    raise
                except (EOFError, KeyboardInterrupt):
                    answer = ""
                if answer not in ("y", "yes"):
                    console.print("not resigned; play on")
                    continue
                self.forced_result, self.resigned = result, player
                name = self.who(player)
                console.print(f"{name} {'resign' if name == 'You' else 'resigns'} — {self.winners_text(result)}")
                return "resignation"
            elif " ".join(word.split()) == "offer draw" or (word == "draw" and not self.draw_is_a_move()):
                refused = self.draw_refusal()
                if refused:
                    console.print(refused, soft_wrap=True)
                    continue
                declined = self.offer_draw(player, humans)
                if declined is None:
                    assert self.forced_result is not None
                    ended = Record(game=self.game.name, result=self.forced_result, termination="agreement",
                                   tags=self.ending_tags("agreement"))
                    console.print("[bold]Drawn by agreement.[/]")
                    console.print(describe_result(self.state, ended), soft_wrap=True)
                    return "agreement"
                if not views_differ(self.state, humans):
                    console.print(declined, soft_wrap=True)
                else:  # the terminal goes back to the offerer, who is told then
                    tell, last_human = declined, None
            elif word in ("quit", "exit"):
                console.print("game abandoned")
                return "abandoned"
            else:
                try:
                    parsed = self.game.parse_turn(self.state, line)
                    trial = self.state.clone()
                    for action in parsed:
                        trial.apply_action(action)
                except AbstractaError as exc:
                    legal = self.legal_moves_for_humans()
                    hint = ("legal here: " + "  ".join(legal)) if len(legal) <= 24 else "type ? for the legal moves"
                    console.print(f"[red]{escape(str(exc))}[/]\n{hint}  (help: the notation)", soft_wrap=True)
                    continue
                for action in parsed:
                    self.apply(action)
        self.show()
        end = self.state.to_struct(None)["end"]
        line = self.winners_text(self.state.returns())
        # the reason is a sentence of its own (its words start one, as in the browser's board
        # descriptions): "Green wins. Only Green pieces are left on the board."
        why = f" {end['text']}." if end and end.get("text") else ""
        console.print(f"[bold]{line[0].upper() + line[1:]}{'.' if why else ''}[/]{escape(why)}")
        console.print(describe_result(self.state))
        return "normal"


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

    from .ai.match import run_match

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

    from .ai.tournament import run_tournament, schedule
    from .executors import EXECUTORS, RayAddressError

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
        from .ai.tournament import plot_ratings

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

    from .ai.tournament import EXECUTORS
    from .ai.tune import tune

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
    from . import bench

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
    from .executors import EXECUTORS

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


# --------------------------------------------------------------------------- serve
@app.command("serve")
@guarded
def serve_cmd(
    host: str = typer.Option("127.0.0.1", "--host", help="Bind address (0.0.0.0: every interface, reachable by others)."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="0: a free port (printed)."),
    db: Optional[str] = typer.Option(None, "--db", help="SQLAlchemy URL or an SQLite file's path (default: SQLite in the user data directory); "
                                     "several processes may serve one PostgreSQL database (postgresql+psycopg://…)."),
    bot_workers: str = typer.Option("2", "--bot-workers", help="Where computer players search: N local worker "
                                    "processes, ray (a local Ray started here) or ray:ADDRESS (a Ray cluster). "
                                    "Levels 1-2 are always answered in the web process."),
    allowed_host: Optional[list[str]] = typer.Option(
        None, "--allowed-host", help="A name the server answers in the Host header (repeatable; any port; "
        "'*.example.org' for subdomains, '*' for any). Default: the bind address, localhost, 127.0.0.1, [::1]; "
        "bound to 0.0.0.0 also any IP address and this machine's name."),
    rate_limits: bool = typer.Option(
        True, "--rate-limits/--no-rate-limits", envvar="ABSTRACTA_RATE_LIMITS",
        help="Per-IP and per-token rate limits and the per-IP WebSocket bound (off: loopback benchmarks; "
             "env ABSTRACTA_RATE_LIMITS=off)."),
) -> None:
    """Start the web app: open http://HOST:PORT/ in a browser."""
    from .executors import check_ray_address
    from .server import run
    from .server.botjobs import parse_workers
    from .server.storage import DatabaseError

    try:
        kind, address = parse_workers(bot_workers)
        if kind == "ray" and address:  # checked here: the workers start in the app's lifespan,
            check_ray_address(address)  # where a refusal would be uvicorn's traceback
    except ValueError as exc:
        raise CliError(str(exc)) from None
    try:
        run(host, port, database_url(db), bot_workers, allowed_hosts=allowed_host or [], rate_limits=rate_limits)
    except DatabaseError as exc:
        raise CliError(f"cannot use the database (--db): {exc}") from None
    except OSError as exc:
        raise CliError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None


def database_url(value: str | None) -> str | None:
    """``--db`` as an SQLAlchemy URL: a URL as given; a file path (it names a directory or ends
    in ``.db``, ``.sqlite`` or ``.sqlite3``) as the SQLite database in that file, since a path is
    what a user types for a file; anything else as given, for SQLAlchemy to refuse. A scheme
    without its ``//`` (``sqlite:x.db``, as JDBC spells it) is refused (:class:`CliError`): it
    is no URL SQLAlchemy reads, and read as a path it made a file named ``sqlite:x.db``."""
    if value is None or "://" in value:
        return value
    import re

    scheme = re.match(r"([A-Za-z][A-Za-z0-9+.-]+):(.*)", value)  # two letters or more: not C:\…
    if scheme:
        name, rest = scheme[1], scheme[2] or "FILE"
        example = (f"--db {name}:///{rest} or the file's path, --db {rest} (a file named with the colon: --db ./{value})"
                   if name.lower().startswith("sqlite") else f"--db {name}://{rest.lstrip('/')}")
        raise CliError(f"--db {value!r} is neither a URL (scheme://…) nor a file path; did you mean {example}?")
    if "/" in value or "\\" in value or value.lower().endswith((".db", ".sqlite", ".sqlite3")):
        from sqlalchemy.engine import URL

        # URL.create escapes a path's ? and # (a query and a fragment in a URL)
        return URL.create("sqlite", database=str(Path(value).expanduser().resolve())).render_as_string()
    return value


def main() -> None:
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        # a terminal in ASCII or Latin-1 gets "?" for a board's "—" or "▶" (and a typed "é"
        # is a bad move), not a traceback
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    app()


if __name__ == "__main__":
    main()
