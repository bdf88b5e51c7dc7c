"""`abstracta play`, `match` and `replay` on real games, as a terminal user drives them."""

import json

from typer.testing import CliRunner

from abstracta import Record
from abstracta.cli import app

runner = CliRunner()


def play(args, stdin=""):
    return runner.invoke(app, ["play", *args], input=stdin)


def saved_record(output: str) -> Record:
    line = next(l for l in output.splitlines() if l.startswith("record saved: "))
    return Record.load(line.removeprefix("record saved: ").strip())


def test_human_session_help_list_bad_input_undo_resign(tmp_path):
    stdin = "help\n?\nd3-c3X\nz9-z8A\nb2-c3A\nundo\nresign\n"
    result = play(["fanorona", "--option", "size=dimy", "--seat", "1=random", "--records", str(tmp_path)], stdin)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "undo     take back" in out
    assert "b2-c3A  c2-c3A  d2-c3A  d3-c3A  d3-c3W" in out
    assert "'d3-c3X' is not Fanorona notation" in out
    assert "Traceback" not in out
    assert "taken back" in out and "seat 0 resigns" in out
    record = saved_record(out)
    assert record.moves == [] and record.termination == "resignation" and record.result == [-1.0, 1.0]


def test_bots_only_game_runs_to_the_end_and_replays(tmp_path):
    result = play(["fanorona", "--option", "size=telo", "--seat", "0=random", "--seat", "1=greedy",
                   "--seed", "3", "--records", str(tmp_path)])
    assert result.exit_code == 0, result.output
    record = saved_record(result.output)
    final, _ = record.replay()
    assert final.is_terminal() and record.result == final.returns()
    replay = runner.invoke(app, ["replay", str(next(tmp_path.iterdir()))])
    assert replay.exit_code == 0 and "result:" in replay.output


def test_end_of_input_abandons_and_saves(tmp_path):
    result = play(["fanorona", "--option", "size=dimy", "--records", str(tmp_path), "--seat", "1=random"], "b2-c3A\n")
    assert result.exit_code == 0, result.output
    record = saved_record(result.output)
    assert record.termination == "abandoned" and record.moves[0] == "b2-c3A"
    Record.from_json(record.to_json()).replay()


def test_bad_seat_specs_are_one_line_errors():
    result = play(["fanorona", "--seat", "1=grandmaster"])
    assert result.exit_code == 2 and "seat 1" in result.stderr and "Traceback" not in result.output
    result = play(["fanorona", "--seat", "7=random"])
    assert result.exit_code == 2 and "seat 7 does not exist" in result.stderr
    result = play(["fanorona", "--seat", "one=random"])
    assert result.exit_code == 2 and "INDEX=SPEC" in result.stderr


def test_match_table_and_records(tmp_path):
    result = runner.invoke(app, ["match", "fanorona", "--option", "size=telo", "--seat", "0=greedy",
                                 "--seat", "1=random", "--games", "4", "--seed", "2", "--records", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output and "mean s/move" in result.output
    files = sorted(tmp_path.iterdir())
    assert len(files) == 4
    seats = [json.loads(f.read_text())["players"] for f in files]
    assert seats[0] == ["greedy", "random"] and seats[1] == ["random", "greedy"]
    for f in files:
        Record.load(f).replay()


def test_match_needs_a_bot_in_every_seat():
    result = runner.invoke(app, ["match", "fanorona", "--seat", "0=random", "--games", "1"])
    assert result.exit_code == 2 and "needs 2 seats" in result.stderr
