"""Studying a game's rules: ``games``, ``perft``, ``moves``, ``apply``, ``analyse``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Optional

import typer
from rich.markup import escape
from rich.table import Table

from ..core.description import seat_name
from ..core.errors import AbstractaError
from ..core.game import Game
from ..core.perft import perft
from ..core.registry import load_game, registered_games
from .base import (app, CliError, console, err_console, guarded, JsonArg, make_game, OptionArg, played_state,
                   PositionArg, print_table, QUOTE_MOVES, start_state)
from .records import ending_words, recorded_position


# --------------------------------------------------------------------------- games
def _variant_details(game: Game) -> list[dict[str, Any]]:
    """Each variant's evaluator (its terms and default weights, where the game declares them for
    ``abstracta tune``) and what each level plays (:func:`~abstracta.ai.levels.describe_level`)."""
    from ..ai.levels import describe_level

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
    """The analysis board: the evaluation of a position and the best line (docs: playing/analysis.md)."""
    from ..ai.analysis import analyse

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
