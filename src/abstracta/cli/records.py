"""Records: ``replay``, and how a game and its ending are said in the terminal (the move
list, the result line, the seats).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from ..core.description import seat_name
from ..core.errors import RecordError
from ..core.game import Game, State, seats_out
from ..core.records import DECIDED, DRAW_OFFERED_TAG, LEFT_TAG, Record, out_of_time_seats, resigned_seat, tag_seats
from ..core.registry import game_key
from ..core.turns import turn_texts
from .base import app, CliError, console, guarded, JsonArg


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
    (:func:`~abstracta.core.turns.turn_texts`): each turn's number (0: before the rules' first
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
    resigned; Black (seat 1) wins", "drawn by agreement, offered by White (seat 0); draw", "Black
    (seat 1) left the game; White (seat 0) wins"), or
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
    elif record.termination == "left":
        # the seat gone on its turn whose game the other claimed (issue 42 §5): the record's Left tag
        gone = tag_seats(record.tags.get(LEFT_TAG), state.num_players)
        who = f"{named(gone[0])} left the game" if gone and len(gone) == 1 else "a player left the game"
    else:
        flagged = out_of_time_seats(record.tags, state.num_players, record.result, record.termination, seats_out(state))
        who = f"{', '.join(map(named, flagged))} ran out of time" if flagged else "time"
    return f"{who}; {outcome_words(state, record.result)}"


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
