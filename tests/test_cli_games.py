"""Spec vectors through the commands the independent checkers use: moves, perft, apply."""

import json

import pytest
from typer.testing import CliRunner

from abstracta.cli import app

runner = CliRunner()


def cli_json(*args):
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_fanorona_perft_tsivy():
    assert cli_json("perft", "fanorona", "--depth", "5") == {"1": 5, "2": 17, "3": 64, "4": 337, "5": 1496}


@pytest.mark.parametrize("size, counts", [("dimy", [5, 12, 35, 126, 413]), ("telo", [4, 7, 13, 28, 63])])
def test_fanorona_perft_small_boards(size, counts):
    got = cli_json("perft", "fanorona", "--depth", "5", "--option", f"size={size}")
    assert got == {str(i + 1): n for i, n in enumerate(counts)}


def test_fanorona_moves_and_apply():
    assert cli_json("moves", "fanorona", "--position", "........./........./..B....../........./BW..B.... W") == ["b1-c1W"]
    assert cli_json("apply", "fanorona", "d2-e3A") == {
        "position": "BBBBBB.BB/BBBBB.BBB/BWBWWBWBW/WWW.WWWWW/WWWWWWWWW B", "terminal": False, "returns": [0.0, 0.0]}
    after = cli_json("apply", "fanorona", "d2-e3A", "e5-f4A")["position"]
    assert cli_json("moves", "fanorona", "--position", after) == ["f4-g5W", "end"]


def test_games_table_shows_every_option_value_at_80_columns():
    # the table cut long options with "…" (first_turn_single_cap…, variant=standard|card…):
    # in a standard terminal a newcomer could not read which values an option takes
    result = runner.invoke(app, ["games"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "…" not in result.output
    # the options are the last of the five columns (game, title, players, levels, options)
    cells = "".join(line.split("│")[5] for line in result.output.splitlines() if line.count("│") == 6)
    flat = cells.replace(" ", "")
    for text in ("first_turn_single_capture=false", "variant=standard|cards|go",
                 "variant=square9|square13|hex", "board=1,1|5,1|7,1|11,1"):
        assert text in flat, (text, flat)


def test_fanorona_immobile_side_has_lost():
    got = cli_json("apply", "fanorona", "--position", "........./........./........./WW......./BW....... B")
    assert got["terminal"] is True and got["returns"] == [1.0, -1.0]


def test_nibble_turns_seed_1_and_2():
    assert cli_json("moves", "nibble", "--turns", "--option", "seed=1") == ["a1", "a9", "a1+a9", "i1", "i9", "i1+i9"]
    assert cli_json("moves", "nibble", "--turns", "--option", "seed=2") == ["i1", "i9", "a1", "a9"]
    assert cli_json("moves", "nibble", "--turns", "--option", "seed=1", "--option", "variant=hex") == \
        ["a1", "h15", "h1", "o8", "h1+o8", "a8", "o15"]


def test_nibble_apply_whole_turn_equals_its_actions():
    whole = cli_json("apply", "nibble", "--option", "seed=1", "a1+a9")
    split = cli_json("apply", "nibble", "--option", "seed=1", "a1", "a9")
    assert whole == split
    assert whole["position"].endswith(" 0 0-0-0-0-0-0-0-0-0 0-0-0-0-0-0-2-0-0")


def test_fibonacci_perft_and_first_move():
    assert cli_json("perft", "fibonacci", "--depth", "2") == {"1": 133, "2": 17689}
    moves = cli_json("moves", "fibonacci")
    assert len(moves) == 133 and moves[-1] == "pass" and "a1-a2" not in moves


def test_fibonacci_cards_seed_1():
    assert cli_json("moves", "fibonacci-cards", "--option", "seed=1", "--option", "first_player=0") == \
        ["6d>2", "6d>3", "9c>1", "9c>3", "Jd>1", "Jd>2"]
    assert cli_json("moves", "fibonacci-cards", "--option", "seed=1") == \
        ["9s>1", "9s>3", "Jc>1", "Jc>2", "Jh>1", "Jh>2", "Kd>1", "Kd>2", "Kd>3"]


def test_slide_checkers_free_move_and_jump():
    assert cli_json("moves", "slide-checkers", "--position", "Bl12,Ge4 M G") == [
        f"e4-{sq}" for sq in "c4 c5 c6 d3 d4 d5 d6 e3 e5 e6 f3 f4 f5 g3 g4 g5".split()]
    assert cli_json("moves", "slide-checkers", "--position", "Be8,Gc9 M G") == \
        ["c9>d8*f8e", "c9>d8*f8r", "c9>d9*f7e", "c9>d9*f7r"]
    done = cli_json("apply", "slide-checkers", "--position", "Be8,Gc9 M G", "c9>d8*f8r")
    assert done["terminal"] is True and done["returns"] == [1.0, -1.0]


def test_illegal_apply_names_the_action():
    result = runner.invoke(app, ["apply", "fibonacci", "a1-a2"])
    assert result.exit_code == 2 and "action 1 'a1-a2' is illegal" in result.stderr


def test_position_with_lookalike_digits_is_a_clear_error():
    # '²' passes str.isdigit(), int() refuses it: a message and exit 2, not a traceback
    result = runner.invoke(app, ["moves", "slide-checkers", "--position", "- P:²/7 G"])
    assert result.exit_code == 2 and "phase 'P:²/7' must give 2 counts" in result.stderr, result.output


# --- canonical orders as the outside checker reads them (each spec's rule, not Python's accident)

def test_fibonacci_moves_order_cells_by_row_then_column_number():
    # fibonacci.md §4: f9 before f10, g7 before g11 (numeric columns, not ASCII)
    moves = cli_json("moves", "fibonacci")
    assert [m for m in moves if m.startswith("e8-")] == [
        "e8-d7", "e8-d8", "e8-e7", "e8-e9", "e8-f7", "e8-f9", "e8-f10", "e8-g7", "e8-g11",
        "e8-h8", "e8-h9", "e8-h10", "e8-i11"]
    go = cli_json("moves", "fibonacci", "--option", "variant=go")
    assert go[:8] == ["S@a1", "S@a2", "S@a3", "S@a4", "S@a5", "S@a6", "S@b1", "S@b2"] and len(go) == 91


def test_slide_checkers_moves_order_is_ascii():
    # slide-checkers.md §7.2: "@d12 comes before @d5"
    assert cli_json("moves", "slide-checkers") == [
        "@b4", "@b8", "@c2", "@d12", "@d5", "@d8", "@d9", "@e4", "@e8", "@f12", "@f4", "@g2", "@g6",
        "@h11", "@h12", "@h7", "@h9", "@i12", "@i4", "@k6", "@l3", "@l5", "@l7", "@l8"]
    assert cli_json("moves", "slide-checkers", "--position", "Bl1,Gc9 M G")[:5] == [
        "c9-a7", "c9-a8", "c9-a9", "c9-b10", "c9-b7"]


def test_nibble_engine_actions_in_canonical_cell_order_end_last():
    # nibble.md §4: engine actions by rank then file (a1, i1, a9, i9), `end` last
    assert cli_json("moves", "nibble", "--option", "seed=1") == ["a1", "i1", "a9", "i9"]
    mid = cli_json("apply", "nibble", "--option", "seed=1", "a1")["position"]
    assert mid.endswith(" take=G")
    assert cli_json("moves", "nibble", "--position", mid) == ["a9", "end"]
    assert cli_json("moves", "nibble", "--option", "seed=1", "--option", "variant=hex") == \
        ["a1", "a8", "h1", "h15", "o8", "o15"]


def test_a_move_the_shell_would_read_is_quoted_in_the_help_and_plays_quoted():
    # unquoted, 8s>1 is '8s' written to a file named 1: the help of the commands that take moves says to quote
    for command in ("apply", "analyse"):
        words = " ".join(runner.invoke(app, [command, "--help"]).stdout.replace("│", " ").split())
        assert "quote a move with > or * for the shell: '8s>1'" in words, words
    assert cli_json("apply", "fibonacci-cards", "8s>1")["terminal"] is False
