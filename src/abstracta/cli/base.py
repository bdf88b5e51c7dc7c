"""The machinery of the ``abstracta`` command: its Typer app (help written as git and pip
write theirs, usage errors in one line), the consoles, and what every command group shares
(``--option``/``--position``, reading a game and a position, one-line errors).
"""

from __future__ import annotations

import contextlib
import functools
import os
from pathlib import Path
from typing import Any, Callable, Optional, get_args

import typer
import typer.core
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..core.errors import AbstractaError, IllegalActionError
from ..core.game import Game, State
from ..core.options import ascii_digits, parse_option_pairs
from ..core.registry import load_game




# What the value of an option is, by its long name, where neither the name nor the type says
# it (the rest: _value_name); an option that takes a value shows it as git's and pip's help do
_VALUE_NAMES = {
    "--option": "KEY=VALUE", "--seat": "INDEX=SPEC", "--bots": "SPEC,...", "--bot": "SPEC",
    "--records": "DIR", "--dir": "DIR", "--baseline": "FILE", "--write-baseline": "FILE",
    "--seconds": "SECONDS", "--host": "ADDRESS", "--ray-address": "ADDRESS", "--port": "PORT",
    "--db": "URL", "--bot-workers": "N|ray|ray:ADDRESS", "--allowed-host": "HOST",
    "--redis": "URL", "--log-format": "text|json",
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


def help_made_when_shown(text: Callable[[], str]) -> type:
    """A command class whose help is ``text()``, made when the help is shown rather than when the
    command is defined (it may name what is registered by then: the games of plug-ins)."""

    class _MadeWhenShown(_Command):
        @property
        def help(self) -> str:  # type: ignore[override]
            return text()

        @help.setter
        def help(self, value: Any) -> None:  # click sets it from the docstring: the text() stands
            pass

    return _MadeWhenShown


class _Group(typer.core.TyperGroup):
    def get_params(self, ctx: Any) -> list[Any]:
        return _named_for_the_help(super().get_params(ctx))


class _Typer(typer.Typer):
    """A Typer app whose commands write their parameters as git and pip do (:func:`_named_for_the_help`)."""

    def command(self, name: Optional[str] = None, *, cls: Any = None, **kwargs: Any) -> Any:
        return super().command(name, cls=cls or _Command, **kwargs)


#: The order ``abstracta --help`` lists the commands in: what a newcomer starts with first
#: (issue 38 §8), then studying a game, records, bots, benchmarks (a command not named here last).
COMMAND_ORDER = ("play", "serve", "games", "perft", "moves", "apply", "analyse", "replay", "match", "tournament", "dataset",
                 "tune", "learn", "board", "bench", "solve", "egtb", "users", "db", "moderation")


class _OneLineUsageErrors(_Group):
    """Click's usage errors (an unknown option, a missing argument) as abstracta's own errors:
    one ``error: ...`` line on stderr and exit code 2, not Typer's boxed message. Every
    subcommand is parsed inside the root group's ``invoke``, the root's own options in its
    ``make_context``. The help lists the commands in :data:`COMMAND_ORDER`."""

    def list_commands(self, ctx: Any) -> list[str]:
        names = list(super().list_commands(ctx))
        return sorted(names, key=lambda n: COMMAND_ORDER.index(n) if n in COMMAND_ORDER else len(COMMAND_ORDER))

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
        from .. import __version__

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


def parse_seats(specs: list[str] | None, game: Game, default: dict[int, str]) -> list[str]:
    """The seat spec of every seat of ``game``: ``--seat INDEX=SPEC`` (``specs``, each checked)
    over ``default`` (seat -> spec), ``level:3`` for a seat named by neither (``play``, ``match``).

    Raises:
        CliError: naming the malformed, repeated or missing seat, or the spec refused.
    """
    from ..ai.levels import parse_seat_spec

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
