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
    stdin = "help\n?\nd3-c3X\nz9-z8A\nb2-c3A\nundo\nresign\nn\nresign\ny\n"
    result = play(["fanorona", "--option", "size=dimy", "--seat", "1=random", "--records", str(tmp_path)], stdin)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "undo     take back" in out
    assert "b2-c3A  c2-c3A  d2-c3A  d3-c3A  d3-c3W" in out
    assert "'d3-c3X' is not Fanorona notation" in out
    assert "Traceback" not in out
    assert "taken back" in out and "not resigned; play on" in out
    assert "Resign? Then Black wins. [y/N]" in out and "White resigns — Black wins" in out
    assert "White move> " in out and "seat 0 move>" not in out
    assert "legal here: b2-c3A  c2-c3A  d2-c3A  d3-c3A  d3-c3W" in out  # after the bad moves
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
    # look-alike digits ('²' passes str.isdigit(), int() refuses it): the same clear errors
    result = play(["fanorona", "--seat", "²=random"])
    assert result.exit_code == 2 and "INDEX=SPEC" in result.stderr, result.output
    for spec, words in (("level:²", "level must be 1 to 6"), ("mcts:i²", "budget 'i²' is not seconds"),
                        ("alphabeta:d²", "budget 'd²' is not seconds")):
        result = play(["fanorona", "--seat", f"1={spec}"])
        assert result.exit_code == 2 and words in result.stderr, result.output


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


def test_records_of_games_in_the_same_second_do_not_collide(tmp_path):
    from abstracta.cli import unique_record_path

    paths = {unique_record_path(tmp_path, "fanorona") for _ in range(3)}
    assert len(paths) == 3 and all(p.exists() for p in paths)


def test_help_explains_the_notation(tmp_path):
    result = play(["fibonacci-cards", "--seed", "1", "--seat", "1=random", "--records", str(tmp_path)], "help\nquit\n")
    assert "7h>1 plays the 7 of hearts on pile 1" in result.output


def test_seed_contradiction_is_refused():
    result = play(["nibble", "--seed", "5", "--option", "seed=6"])
    assert result.exit_code == 2 and "--seed 5 contradicts --option seed=6" in result.stderr


def test_card_game_never_shows_the_opponents_hand(tmp_path):
    """Illegal input, ?, help and the board: nothing names a card seat 1 holds or the stock."""
    import abstracta

    state = abstracta.load_game("fibonacci-cards", seed=1, first_player=0).new_initial_state()
    text = state.to_text()
    hidden = set(text.split("|")[2].strip().split(",")) | set(text.split("|")[3].strip().split(","))
    result = play(["fibonacci-cards", "--seed", "1", "--option", "first_player=0", "--seat", "1=random",
                   "--records", str(tmp_path)], "Ks/1\nAd>1\ndraw\n99\n?\nboard\nquit\n")
    assert result.exit_code == 0, result.output
    shown = result.output.replace(",", " ").replace("(", " ").replace(")", " ").split()
    assert not hidden & set(shown), hidden & set(shown)
    assert "is not legal here" in result.output


def test_two_people_with_hidden_cards_get_a_hand_over_screen(tmp_path):
    result = play(["fibonacci-cards", "--seed", "1", "--option", "first_player=0", "--seat", "1=human",
                   "--records", str(tmp_path)], "\n6d>2\n\nquit\n")
    out = result.output
    assert out.count("pass the terminal to") == 2
    # seat 1's hand is only printed after the second hand-over
    first_handover = out.index("pass the terminal to Player 2 (seat 1)")
    assert "9s Jc 5d Kd 3c 2d Jh 5h" not in out[:first_handover]


def test_terminal_prompt_has_line_editing_and_history():
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from abstracta import cli

    import threading

    lines = []

    def session() -> None:
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            read = cli.line_reader(interactive=True)
            inp.send_text("b2-c4\x7f3A\r")  # a typo fixed with Backspace
            lines.append(read("White move> "))
            inp.send_text("\x1b[A\r")  # Up arrow brings the last line back
            lines.append(read("White move> "))

    # in a thread of its own: a browser test run earlier in the same pytest worker leaves
    # Playwright's event loop running in the main thread, where prompt_toolkit cannot start one
    worker = threading.Thread(target=session)
    worker.start()
    worker.join(30)
    assert lines == ["b2-c3A", "b2-c3A"]


def test_a_typed_nibble_take_is_the_whole_turn(tmp_path):
    # nibble.md §7 example 1 (seed 1): a1 is a free G disc; typed alone it takes a1 and ends the turn
    result = play(["nibble", "--seed", "1", "--option", "first_player=0", "--seat", "1=human",
                   "--records", str(tmp_path)], "a1\nquit\n")
    assert result.exit_code == 0, result.output
    record = saved_record(result.output)
    assert record.moves == ["a1", "end"]
    state, actions = record.replay()
    assert state.current_player() == 1 and len(actions) == 2  # a1, end: seat 1 is to move


def test_a_refused_move_is_quoted_as_typed(tmp_path):
    # "[b]…" in a refused move must not be read as rich markup and vanish from the message
    result = play(["fanorona", "--option", "size=dimy", "--seat", "1=random", "--records", str(tmp_path)],
                  "[b]d2-c3A\nquit\n")
    assert result.exit_code == 0, result.output
    assert "'[b]d2-c3A' is not Fanorona notation" in result.output
