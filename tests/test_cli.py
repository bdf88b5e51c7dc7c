"""Game-neutral CLI commands on the toy game (real games have their own CLI tests)."""

import json

import pytest
from typer.testing import CliRunner

from abstracta import Record
from abstracta.cli import app
from abstracta.core.registry import register_game

register_game("toy-nim", "toy_nim:NimGame")
runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def test_perft_json():
    result = run("perft", "toy-nim", "--depth", "4", "--option", "stones=4", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"1": 3, "2": 6, "3": 4, "4": 1}


def test_perft_from_position_text():
    result = run("perft", "toy-nim", "--depth", "2", "--position", "2 1", "--json")
    assert json.loads(result.stdout) == {"1": 2, "2": 1}


def test_moves_lines_and_json():
    assert run("moves", "toy-nim", "--position", "2 0").stdout.split() == ["1", "2"]
    assert json.loads(run("moves", "toy-nim", "--json").stdout) == ["1", "2", "3"]


def test_moves_turns_unsupported_is_clear():
    result = run("moves", "toy-nim", "--turns")
    assert result.exit_code == 2
    assert "has no whole-turn notation" in result.stderr


def test_apply_and_json():
    result = run("apply", "toy-nim", "3", "1", "--option", "stones=7")
    assert result.stdout.strip() == "3 0"
    result = run("apply", "toy-nim", "3", "3", "1", "--json")
    assert json.loads(result.stdout) == {"position": "0 0", "terminal": True, "returns": [1.0, -1.0]}


def test_apply_illegal_names_action_and_exits_nonzero():
    result = run("apply", "toy-nim", "--position", "2 0", "1", "3")
    assert result.exit_code == 2
    assert "action 2 '3' is illegal" in result.stderr


def test_bad_position_and_option():
    result = run("moves", "toy-nim", "--position", "lots 0")
    assert result.exit_code == 2 and "is not '<stones> <player>'" in result.stderr
    result = run("moves", "toy-nim", "--option", "stones=-1")
    assert result.exit_code == 2 and "option stones" in result.stderr
    result = run("moves", "chess")
    assert result.exit_code == 2 and "unknown game 'chess'" in result.stderr


def test_replay_good_and_corrupt(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"game": "toy-nim", "options": {"stones": 5}, "moves": ["3", "2"],
                                "result": [-1, 1], "termination": "normal"}))
    result = run("replay", str(good))
    assert result.exit_code == 0, result.output
    assert "Player 2 (seat 1) wins" in result.stdout  # the browser's name, and the record's seat
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "toy-nim", "options": {"stones": 5}, "moves": ["3", "3"]}))
    result = run("replay", str(bad))
    assert result.exit_code == 2
    assert "ply 2 ('3')" in result.stderr
    result = run("replay", str(tmp_path / "missing.json"))
    assert result.exit_code == 2 and "cannot read" in result.stderr
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    result = run("replay", str(deep))
    assert result.exit_code == 2 and "nested too deep" in result.stderr, result.output


def test_solve_and_egtb_need_a_game_that_declares_them(tmp_path):
    result = run("solve", "toy-nim")
    assert result.exit_code == 2 and "cannot be solved here" in result.stderr
    result = run("egtb", "build", "toy-nim", "--dir", str(tmp_path))
    assert result.exit_code == 2 and "has no endgame tables; none of its variants has any" in result.stderr


def test_seat_help_is_the_seat_spec_grammar():
    import typer

    from abstracta.ai.levels import seat_spec_grammar

    commands = typer.main.get_command(app).commands
    for name in ("play", "match"):
        seat = next(p for p in commands[name].params if p.name == "seat")
        assert seat_spec_grammar() in seat.help
    assert ":iN" in seat_spec_grammar() and ":dN" in seat_spec_grammar() and "+w=" in seat_spec_grammar()


def test_version_is_the_installed_distributions() -> None:
    from importlib.metadata import version

    result = run("--version")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"abstracta {version('abstracta')}"
    # no subcommand still prints the help, naming the subcommands
    bare = run()
    assert "tournament" in bare.output and "--version" in bare.output


def test_games_json_gives_each_variants_evaluator_terms_and_levels() -> None:
    from abstracta.ai.levels import LEVELS, level_fingerprint
    from abstracta.core.registry import load_game

    result = run("games", "--json")
    assert result.exit_code == 0, result.output
    listing = json.loads(result.stdout)
    assert listing
    assert {e["name"]: e["levels"][-1] for e in listing}["fibonacci-cards"] == 4
    for entry in listing:
        assert [d["options"] for d in entry["variant_details"]] == entry["variants"]
        for details in entry["variant_details"]:
            game = load_game(entry["name"], **details["options"])
            tuning = game.description.tuning
            if tuning is None:
                assert details["evaluator_terms"] is None
            else:
                assert list(details["evaluator_terms"]) == list(tuning.names)
                assert list(details["evaluator_terms"].values()) == list(tuning.weights)
            # the levels the game declares: six, four for the card game (issue 46)
            assert sorted(details["levels"]) == [str(level) for level in game.description.level_numbers]
            assert set(game.description.level_numbers) <= set(LEVELS)
            for level, described in details["levels"].items():
                search = game.description.levels[int(level)]
                assert described["search"] == search.bot
                assert described["seconds"] == LEVELS[int(level)].seconds
                assert described["fingerprint"] == level_fingerprint(game, int(level))
                assert described.get("max_playouts") == search.max_iterations
                assert described.get("turn_widths") == (list(search.turn_widths) if search.turn_widths else None)
                assert ("oracle" in described) == (search.oracle is not None)


def test_unwritable_output_paths_are_one_line_errors(tmp_path):
    # --records / --out naming a file where a directory must be: a message and exit 2
    afile = tmp_path / "a-file"
    afile.write_text("")
    result = run("match", "toy-nim", "-s", "0=random", "-s", "1=random", "-n", "1", "--records", str(afile))
    # ("File exists" named the file in the way as if it were the trouble, not the option)
    assert result.exit_code == 2 and f"--records {afile}: not a directory" in result.stderr, result.output
    result = run("tournament", "toy-nim", "--bots", "random,random", "--games", "1", "--out", str(afile / "sub"))
    assert result.exit_code == 2 and f"--out {afile / 'sub'}: not a directory" in result.stderr, result.output
    assert not isinstance(result.exception, OSError)
    # play finds out before the game, not after it (the game would be lost)
    result = runner.invoke(app, ["play", "toy-nim", "--seat", "1=random", "--records", str(afile)], input="1\n")
    assert result.exit_code == 2 and f"--records {afile}: not a directory" in result.stderr, result.output
    assert "Toy Nim" not in result.stdout


@pytest.mark.parametrize("url, words", [
    ("garbage", "could not parse"),
    ("nope://x", "nope"),
    ("sqlite:///{dir}", "unable to open database file"),
    ("sqlite:///{file}/x.db", "File exists"),
])
def test_serve_with_an_unusable_database_is_a_one_line_error(tmp_path, url, words):
    afile = tmp_path / "a-file"
    afile.write_text("")
    url = url.format(dir=tmp_path, file=afile)
    result = run("serve", "--port", "0", "--bot-workers", "0", "--db", url)
    assert result.exit_code == 2 and "cannot use the database" in result.stderr, result.output
    assert words in result.stderr.lower() or words in result.stderr, result.stderr


def test_serve_with_a_ray_address_where_nothing_answers_is_a_one_line_error(tmp_path):
    # the bot workers start in the app's lifespan: a wrong ray:ADDRESS was a traceback
    # ("Application startup failed", exit code 3) after the server said where to open it
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = run("serve", "--port", "0", "--db", str(tmp_path / "x.db"), "--bot-workers", f"ray:127.0.0.1:{port}")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: no Ray cluster answers at 127.0.0.1:{port}"), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "open http" not in result.stdout
    result = run("serve", "--port", "0", "--db", str(tmp_path / "x.db"), "--bot-workers", "ray:headnode")
    assert result.exit_code == 2 and "Ray address 'headnode': expected host:port" in result.stderr, result.stderr
    assert "--ray-address" not in result.stderr  # serve has no such option


def test_serve_reads_a_file_path_as_an_sqlite_database(tmp_path, monkeypatch):
    from abstracta.cli.base import database_url

    monkeypatch.chdir(tmp_path)
    assert database_url(None) is None
    assert database_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url(str(tmp_path / "club.sqlite")) == f"sqlite:///{tmp_path / 'club.sqlite'}"
    assert database_url("games.db") == f"sqlite:///{tmp_path / 'games.db'}"
    assert database_url("sub/x") == f"sqlite:///{tmp_path / 'sub' / 'x'}"
    assert database_url("garbage") == "garbage"  # no path, no URL: SQLAlchemy's refusal stands
    # a ? or # in a file name is not read as a URL's query or fragment: the file is made where named
    from abstracta.server.storage import make_engine

    odd = tmp_path / "odd?name#1" / "club.db"
    make_engine(database_url(str(odd))).dispose()
    assert odd.is_file() and not (tmp_path / "odd").exists()
    # the path serves: a file that cannot be opened is named as a database problem, not a URL one
    afile = tmp_path / "a-file"
    afile.write_text("")
    result = run("serve", "--port", "0", "--bot-workers", "0", "--db", f"{afile}/x.sqlite")
    assert result.exit_code == 2 and "cannot use the database" in result.stderr
    assert "parse" not in result.stderr.lower(), result.stderr


def test_serve_refuses_a_url_without_its_slashes_and_creates_no_file(tmp_path, monkeypatch):
    # 'sqlite:x.db' ends in .db, so it was read as a file path: the server made a database file
    # named 'sqlite:x.db' in the working directory, where the user meant SQLite in x.db
    # (SQLAlchemy itself cannot parse it); refused, saying both spellings that work
    import abstracta.server

    monkeypatch.chdir(tmp_path)
    served = []  # the server never starts: it would run until stopped
    monkeypatch.setattr(abstracta.server, "run", lambda host, port, url, *a, **kw: served.append(url))
    result = run("serve", "--port", "0", "--bot-workers", "0", "--db", "sqlite:x.db")
    assert served == [], served
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: --db 'sqlite:x.db' is neither a URL (scheme://…) nor a file path"), result.stderr
    assert "--db sqlite:///x.db" in result.stderr and "--db x.db" in result.stderr, result.stderr
    assert list(tmp_path.iterdir()) == [] and "open http" not in result.stdout
    result = run("serve", "--port", "0", "--bot-workers", "0", "--db", "postgresql+psycopg:user@host/club")
    assert result.exit_code == 2 and "postgresql+psycopg://" in result.stderr, result.stderr
    # a path may still hold a colon where it does not start like a scheme
    assert database_url_of("./sqlite:x.db") == f"sqlite:///{tmp_path / 'sqlite:x.db'}".replace(":x.db", "%3Ax.db")
    assert database_url_of("sqlite:///x.db") == "sqlite:///x.db"


def database_url_of(value):
    from abstracta.cli.base import database_url

    return database_url(value)


def test_match_and_tournament_never_overwrite_the_records_of_an_earlier_run(tmp_path):
    # a second run into the same directory with the same seed wrote the same file names over the
    # first run's records (and results.json): refused before any game, the first run kept
    records = tmp_path / "match"
    assert run("match", "toy-nim", "-s", "0=random", "-s", "1=greedy", "-n", "2", "--records", str(records)).exit_code == 0
    before = {p.name: p.read_text() for p in records.iterdir()}
    result = run("match", "toy-nim", "-s", "0=greedy", "-s", "1=greedy", "-n", "3", "--records", str(records))
    assert result.exit_code == 2 and "toy-nim-000000.json" in result.stderr and "--seed" in result.stderr, result.output
    assert {p.name: p.read_text() for p in records.iterdir()} == before
    # another seed writes beside them
    assert run("match", "toy-nim", "-s", "0=greedy", "-s", "1=greedy", "-n", "1", "--seed", "2",
               "--records", str(records)).exit_code == 0
    assert len(list(records.iterdir())) == 3

    out = tmp_path / "tournament"
    assert run("tournament", "toy-nim", "--bots", "random,greedy", "--games", "1", "--out", str(out)).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    result = run("tournament", "toy-nim", "--bots", "greedy,random", "--games", "1", "--out", str(out))
    assert result.exit_code == 2 and "--out" in result.stderr and "already holds" in result.stderr, result.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_ctrl_c_in_a_match_or_tournament_keeps_the_records_of_the_games_played(tmp_path, monkeypatch):
    # records were written only after the last game: Ctrl-C threw away every game played so far
    import abstracta.ai.match as match_module
    import abstracta.ai.tournament as tournament_module

    def interrupted(original, hook):
        def run(*args, **kwargs):
            done = kwargs[hook]
            calls = []

            def on_done(*a, **k):
                done(*a, **k)
                calls.append(1)
                if len(calls) == 2:
                    raise KeyboardInterrupt
            return original(*args, **{**kwargs, hook: on_done})
        return run

    monkeypatch.setattr(match_module, "run_match", interrupted(match_module.run_match, "on_game_done"))
    result = run("match", "toy-nim", "-s", "0=random", "-s", "1=greedy", "-n", "5", "--records", str(tmp_path / "m"))
    assert result.exit_code == 130, result.output
    assert sorted(p.name for p in (tmp_path / "m").iterdir()) == ["toy-nim-000000.json", "toy-nim-000001.json"]
    assert "interrupted after 2 of 5 games" in result.stderr
    for path in (tmp_path / "m").iterdir():
        Record.load(path).replay()

    monkeypatch.setattr(tournament_module, "run_tournament", interrupted(tournament_module.run_tournament, "on_done"))
    result = run("tournament", "toy-nim", "--bots", "random,greedy", "--games", "4", "--out", str(tmp_path / "t"))
    assert result.exit_code == 130, result.output
    assert sorted(p.name for p in (tmp_path / "t").iterdir()) == ["toy-nim-00001.json", "toy-nim-00002.json"]
    assert "interrupted after 2 of 4 games" in result.stderr


def test_an_error_quotes_the_text_given_as_given():
    # rich markup in an error line would eat "[...]" from what the user typed
    result = run("apply", "toy-nim", "[bold]x[/bold]")
    assert result.exit_code == 2
    assert "[bold]x[/bold]" in result.output


@pytest.mark.parametrize("args, message", [
    (["perft", "toy-nim"], "error: Missing option '--depth' / '-d'. (see: abstracta perft --help)"),
    (["moves", "toy-nim", "--bogus"], "error: No such option: --bogus (see: abstracta moves --help)"),
    (["egtb", "probe"], "error: Missing argument 'GAME'. (see: abstracta egtb probe --help)"),
    (["--bogus"], "error: No such option: --bogus (see: abstracta --help)"),
])
def test_usage_errors_are_one_line_as_abstractas_own(args, message):
    # Click's usage errors were a Usage line, a Try line and a boxed message; abstracta's
    # own errors are one "error: ..." line on stderr, exit code 2
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [message] and result.stdout == ""


@pytest.mark.parametrize("args, usage", [
    (["bench"], "Usage: abstracta bench [OPTIONS] [GAME...] "),
    (["egtb", "build"], "Usage: abstracta egtb build [OPTIONS] [GAME]"),
    (["analyse"], "Usage: abstracta analyse [OPTIONS] [GAME] [ACTION...] "),
])
def test_help_writes_an_optional_argument_in_one_pair_of_brackets(args, usage):
    # the help puts brackets around an optional argument itself: a metavar of "[GAME]" read [[GAME]]
    result = run(*args, "--help")
    assert result.exit_code == 0
    assert usage in result.stdout and "[[" not in result.stdout


def test_a_record_that_does_not_read_or_replay_is_named_in_the_error(tmp_path):
    # a newcomer who passes the wrong file learns which file is wrong, not only that JSON is
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\n")
    empty = tmp_path / "empty.json"
    empty.write_text("{}")
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps({"game": "toy-nim", "options": {"stones": 5}, "moves": ["3", "3"]}))
    for command in (["replay"], ["analyse", "--record"], ["play", "--resume"]):
        result = run(*command, str(notes))
        assert result.exit_code == 2
        assert result.stderr.startswith(f"error: {notes}: not valid JSON: "), result.stderr
        result = run(*command, str(empty))
        assert result.stderr.startswith(f"error: {empty}: field 'game' must be a non-empty string"), result.stderr
        result = run(*command, str(illegal))
        assert result.stderr.startswith(f"error: {illegal}: ply 2 ('3'): "), result.stderr
    result = run("replay", str(tmp_path / "missing.json"))
    assert result.stderr.strip() == f"error: cannot read {tmp_path / 'missing.json'}: No such file or directory"


WIDE_BOTS = ["random", "greedy", "level:1", "mcts:i4", "mcts:i5", "mcts:i6", "mcts:i7", "mcts:i8"]


def run_piped(args: list[str], env: dict[str, str]) -> str:
    """The output of ``abstracta ARGS`` written to a pipe, with no terminal at all (no tty on
    stdin, stdout or stderr, where Rich looks for a width) and no COLUMNS unless ``env`` sets it."""
    import os
    import subprocess
    import sys

    import abstracta

    src = os.path.dirname(os.path.dirname(abstracta.__file__))
    environ = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    proc = subprocess.run([sys.executable, "-m", "abstracta", *args], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=120, env={**environ, "PYTHONPATH": src, **env})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def piped_crosstable(env: dict[str, str]) -> list[str]:
    """The crosstable of an 8-bot Nibble tournament written to a pipe."""
    out = run_piped(["tournament", "nibble", "--bots", ",".join(WIDE_BOTS), "--games", "1", "--seed", "1"], env)
    return out[out.index("Crosstable"):].splitlines()


def test_a_table_written_to_a_pipe_keeps_every_cell_whole():
    # with no terminal Rich laid tables out in 80 columns: the crosstable's names were cut
    # ("ran…", "mcts…") and wrapped, in `tournament … | tee log` and `games > file` alike
    lines = piped_crosstable({})
    assert not any("…" in line for line in lines), "\n".join(lines)
    rows = [[cell.strip() for cell in line.split("│")[1:-1]] for line in lines if line.startswith("│")]
    header = [cell.strip() for cell in next(line for line in lines if line.startswith("┃")).split("┃")[1:-1]]
    assert header == ["", *WIDE_BOTS], "\n".join(lines)
    assert [row[0] for row in rows] == WIDE_BOTS, "\n".join(lines)  # one line a bot: nothing wrapped
    assert all(len(row) == 9 and row[1 + i] == "-" for i, row in enumerate(rows)), "\n".join(lines)
    assert max(len(line) for line in lines) > 80


def test_a_table_written_to_a_pipe_keeps_to_columns_when_it_is_set():
    # COLUMNS is the user's own width: honoured in a pipe as in a terminal
    lines = piped_crosstable({"COLUMNS": "70"})
    assert max(len(line) for line in lines) <= 70, "\n".join(lines)


def test_the_games_list_written_to_a_file_keeps_each_option_on_one_line_and_wraps_the_prose():
    # a table as wide as its cells need would put each game's summary on one line of 150
    # characters: the prose is held to a readable measure, the option values are never cut
    lines = run_piped(["games"], {}).splitlines()
    assert not any("…" in line for line in lines)
    assert any("│ board=1,1 | 5,1 | 7,1 | 11,1 | 1,7 | 5,7 │" in line for line in lines), "\n".join(lines)
    assert max(len(line) for line in lines) <= 140, "\n".join(lines)


def command_paths(command=None, path=()):
    """Every command and group of ``abstracta`` as the words that name it (the root: ())."""
    import typer

    command = command or typer.main.get_command(app)
    yield path
    for name, sub in getattr(command, "commands", {}).items():
        yield from command_paths(sub, (*path, name))


def test_the_help_writes_a_flag_without_a_value_after_it():
    # Typer wrote every flag's Python type beside it, "--json <bool>", as if it took a value
    # (--json true); a flag reads as git's and pip's do: "--json  Print JSON instead of text."
    import re

    paths = list(command_paths())
    assert ("egtb", "probe") in paths and ("games",) in paths
    for path in paths:
        result = run(*path, "--help")
        assert result.exit_code == 0, result.output
        assert "<bool>" not in result.output, (path, result.output)
        assert re.search(r"--help +Show this", result.output), (path, result.output)
    assert re.search(r"--json +Print JSON instead of text\.", run("games", "--help").output)
    assert re.search(r"--version +Print abstracta's version", run("--help").output)
    assert re.search(r"--rate-limits +--no-rate-limits +Per-IP", run("serve", "--help").output)
    # an option that takes a value still says what it takes
    assert re.search(r"--seed +\S+ +Base seed", run("match", "--help").output)


def test_a_bot_given_twice_to_a_tournament_is_named_by_its_place_in_bots(monkeypatch):
    # "random (#2)" read as a rank in the table sorted by Elo, or as seat 2; match names a bot
    # given twice by its option ("random (--seat 0)"), the tournament by its place in --bots
    from rich.console import Console

    import abstracta.cli.bots as cli

    monkeypatch.setattr(cli, "console", Console(highlight=False, width=200))  # no label wraps
    result = run("tournament", "toy-nim", "--bots", "random,greedy,random", "--games", "1", "--seed", "3")
    assert result.exit_code == 0, result.output
    labels = {"random (1st in --bots)", "greedy", "random (3rd in --bots)"}
    tables = result.output.split("Pairings")
    results = [line.split("│")[1].strip() for line in tables[0].splitlines() if line.startswith("│")]
    assert set(results) == labels and len(results) == 3, result.output
    pairs = [[cell.strip() for cell in line.split("│")[1:3]] for line in tables[1].splitlines() if line.startswith("│")]
    assert pairs[:3] == [["random (1st in --bots)", "greedy"], ["random (1st in --bots)", "random (3rd in --bots)"],
                         ["greedy", "random (3rd in --bots)"]], result.output
    assert "#" not in result.output
    # --json is unchanged: bots by their index in "bots"
    data = json.loads(run("tournament", "toy-nim", "--bots", "random,greedy,random", "--games", "1", "--seed", "3",
                          "--json").stdout.splitlines()[-1])
    assert data["bots"] == ["random", "greedy", "random"]
    assert [p["index"] for p in data["pairings"]] == [[0, 1], [0, 2], [1, 2]]



def test_the_help_names_what_an_option_takes_as_git_and_pip_do():
    # Typer wrote a value's Python type, "--option <list[str]>", "--depth <int range>",
    # "--records <path>", wrote a required argument "{GAME}" in the usage line and "GAME <str>"
    # in its panel, and a flag's default as "rate-limits"; a value has a name a user reads
    import re

    for path in command_paths():
        output = run(*path, "--help").output
        for raw in ("<str>", "<int", "<float>", "<list", "<path>", "<bool>"):
            assert raw not in output, (path, raw, output)
        assert not re.search(r"\{[A-Z]", output), (path, output)
        assert "...]..." not in output, (path, output)

    def help_of(*words):  # on one line, as wide as it needs
        return " ".join(runner.invoke(app, [*words, "--help"], env={"COLUMNS": "200"}).output.split())

    perft = help_of("perft")
    assert "Usage: abstracta perft [OPTIONS] GAME " in perft
    assert re.search(r"│ \* GAME \[required\] │", perft), perft
    assert "--depth -d N [x>=1] Count action sequences" in perft
    assert "--position -p POSITION Start from" in perft
    assert "--option -o KEY=VALUE Rules option" in perft
    assert "Usage: abstracta apply [OPTIONS] GAME [ACTION...] " in help_of("apply")
    assert "Usage: abstracta analyse [OPTIONS] [GAME] [ACTION...] " in help_of("analyse")
    assert "--seat SEAT Whose information" in help_of("analyse")
    assert "Usage: abstracta replay [OPTIONS] FILE " in help_of("replay")
    assert "Usage: abstracta bench [OPTIONS] [GAME...] " in help_of("bench")
    play = help_of("play")
    assert "--seat -s INDEX=SPEC INDEX=SPEC (repeatable)" in play
    assert "--seed N Seed for games" in play and "--records DIR Directory" in play
    assert "--variant VARIANT Shorthand" in play
    tournament = help_of("tournament")
    assert "--bots -b SPEC,... Bot SPECs" in tournament
    assert "--executor -x EXECUTOR serial, process or ray." in tournament
    assert "--ray-address ADDRESS Join" in tournament and "--out DIR Write every" in tournament
    assert "--bot SPEC The search" in help_of("tune")
    assert "--out FILE Also write the board" in help_of("board")
    bench = help_of("bench")
    assert "--seconds SECONDS Seconds" in bench and "--baseline FILE Fail" in bench
    assert "--dir DIR Where the tables are" in help_of("egtb", "probe")
    serve = help_of("serve")
    assert "--host ADDRESS Bind address" in serve and "--db URL SQLAlchemy URL" in serve
    assert "--port PORT [0<=x<=65535]" in serve and "--allowed-host HOST A name" in serve
    assert "--bot-workers N|ray|ray:ADDRESS Where" in serve
    assert "[default: --rate-limits]" in serve and "[default: rate-limits]" not in serve


def test_one_game_is_one_game_in_the_match_and_tournament_titles():
    out = run("match", "nibble", "-s", "0=random", "-s", "1=random", "--games", "1")
    assert out.exit_code == 0, out.output
    assert ": 1 game, seed 0" in out.output
    out = run("tournament", "nibble", "--bots", "random,greedy", "--games", "1")
    assert out.exit_code == 0, out.output
    assert ": 1 game per pairing, seed 0" in out.output
    assert ": 2 games, seed 0" in run("match", "nibble", "-s", "0=random", "-s", "1=random", "--games", "2").output
