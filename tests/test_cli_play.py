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
    assert "Your move (White)> " in out and "seat 0 move>" not in out
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


def test_match_rows_of_one_spec_twice_name_their_seat_option_not_a_seat():
    # "random (#0)" read as seat 0, but seats rotate: the row is the bot given as --seat 0
    result = runner.invoke(app, ["match", "nibble", "--seat", "0=random", "--seat", "1=random",
                                 "--games", "2", "--seed", "1"])
    assert result.exit_code == 0, result.output
    rows = [line.split("│")[1].strip() for line in result.output.splitlines() if line.startswith("│")]
    assert rows == ["random (--seat 0)", "random (--seat 1)"], result.output
    assert "#0" not in result.output
    words = " ".join(result.output.split())
    assert "seats rotate from game to game" in words, result.output


def test_match_needs_a_bot_in_every_seat():
    result = runner.invoke(app, ["match", "fanorona", "--seat", "0=random", "--games", "1"])
    assert result.exit_code == 2 and "needs 2 seats" in result.stderr


def test_records_of_games_in_the_same_second_do_not_collide(tmp_path):
    from abstracta.cli.play import unique_record_path

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
    # a typed card the mover does not hold is named back as typed, in the same words for the
    # opponent's card and a stock card: it tells nothing
    said = result.output
    for typed in ("Ks", "Ad"):
        assert f"{typed} is not in your hand" in said
        said = said.replace(f"{typed} is not in your hand", "")
    shown = said.replace(",", " ").replace("(", " ").replace(")", " ").split()
    assert not hidden & set(shown), hidden & set(shown)
    assert "is not legal here" in result.output


def test_two_people_with_hidden_cards_get_a_hand_over_screen(tmp_path):
    result = play(["fibonacci-cards", "--seed", "1", "--option", "first_player=0", "--seat", "1=human",
                   "--records", str(tmp_path)], "\n6d>2\n\nquit\n")
    out = result.output
    assert out.count("pass the terminal to") == 2
    # seat 1's hand is only printed after the second hand-over
    first_handover = out.index("pass the terminal to Player 2 (seat 1),")
    assert "9s Jc 5d Kd 3c 2d Jh 5h" not in out[:first_handover]


def test_terminal_prompt_has_line_editing_and_history():
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from abstracta.cli import terminal as cli

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
                   "--records", str(tmp_path)], "help\na1\nquit\n")
    assert result.exit_code == 0, result.output
    # and the help says so: it read "a1 takes one disc", "(then end is implied)" only after a1+a9
    assert "a1 takes one disc and ends the turn" in " ".join(result.output.split())
    record = saved_record(result.output)
    assert record.moves == ["a1", "end"]
    state, actions = record.replay()
    assert state.current_player() == 1 and len(actions) == 2  # a1, end: seat 1 is to move


def test_replay_names_who_resigned_past_a_seat_the_rules_put_out(tmp_path):
    # three players: Green (seat 0) has no pieces left, Blue (seat 1) resigns, Red wins. Both
    # lose; the resigner is the one the rules had not put out (the browser's line took the first)
    record = Record(game="slide-checkers", options={"players": 3}, start="Ba1,Ba3,Bc1,Rj12,Rl10,Rl12 M B",
                    players=["human", "human", "level:1"], result=[-1.0, -1.0, 1.0], termination="resignation")
    path = tmp_path / "resigned.json"
    path.write_text(record.to_json())
    replay = runner.invoke(app, ["replay", str(path)])
    assert replay.exit_code == 0, replay.output
    assert "(Blue (seat 1) resigned; Red (seat 2) wins)" in replay.output


def test_a_nibble_move_in_another_notation_is_refused_once_in_words(tmp_path):
    # `d2-e3A` (Fanorona's notation) was refused as "'d2-e3A': 'd2-e3A' is not a cell of the
    # square9 board": the move quoted twice and the board by its option value
    result = play(["nibble", "--seed", "1", "--option", "first_player=0", "--seat", "1=human",
                   "--records", str(tmp_path)], "d2-e3A\ne3\na1+zz\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "'d2-e3A' is not a cell of the square 9×9 board\n" in out
    assert "'e3' is not legal here: e3 is not free (needs 2 consecutive exposed sides)" in out
    assert "'a1+zz': 'zz' is not a cell of the square 9×9 board" in out
    assert "square9" not in out and "'d2-e3A': " not in out and "'e3': " not in out
    assert saved_record(out).moves == []


def test_undo_never_goes_back_past_a_drawn_card(tmp_path):
    # seed 3, seat 0 first: piles K K J, so the only legal action is to draw (the stock's top card,
    # 4s, shows in the hand; it does not fit and the turn passes). Undoing the draw would let the
    # player choose again knowing the stock's next card: refused, as the web app refuses it.
    result = play(["fibonacci-cards", "--seed", "3", "--option", "first_player=0", "--seat", "1=random",
                   "--records", str(tmp_path)], "draw\nundo\nquit\n")
    assert result.exit_code == 0, result.output
    assert "taken back" not in result.output
    assert "showed hidden information or a chance outcome" in result.output
    record = saved_record(result.output)
    assert record.moves == ["draw", "Jc/3"] and record.termination == "abandoned"  # the 4s drawn did not fit


def test_a_seat_given_twice_is_refused_not_overwritten():
    # two --seat 0 passed the match's count of seats: seat 0's first bot was dropped and seat 1,
    # never named, played level:3
    result = runner.invoke(app, ["match", "fanorona", "--option", "size=telo", "--seat", "0=random",
                                 "--seat", "0=greedy", "--games", "1"])
    assert result.exit_code == 2, result.output
    assert "seat 0 is given twice" in result.stderr and "level:3" not in result.output
    result = play(["fanorona", "--seat", "1=random", "--seat", "1=greedy"])
    assert result.exit_code == 2 and "seat 1 is given twice" in result.stderr


def test_colourless_seats_are_named_as_in_the_browser_everywhere(tmp_path):
    # the terminal said "Seat 1" (board: "seat 1 to move") where the browser says "Player 2":
    # now the board, the play lines and the result say Player 2; --seat and the record's seat
    # numbers stay (the result line gives both)
    result = play(["nibble", "--seed", "1", "--option", "first_player=1", "--seat", "1=random",
                   "--records", str(tmp_path)], "resign\ny\n")
    assert result.exit_code == 0, result.output
    out = result.output
    # the seats line gives the numbers --seat takes, as the result line does: "Player 1 (seat 0): you"
    head, seats_line, body = out.split("\n", 2)
    assert seats_line == "Player 1 (seat 0): you · Player 2 (seat 1): computer, random"
    assert "seat 0" not in body.lower() and "Seat 1" not in out and "seat 1 to move" not in out, out
    assert "Player 2 (computer, random) plays" in out and "Player 1 to move" in out
    assert "Resign? Then Player 2 wins. [y/N]" in out and "You resign — Player 2 wins" in out  # not "You resigns"


def test_a_seat_put_out_of_a_three_player_game_is_told(capsys):
    # Green's jump takes Blue's last piece: the terminal said nothing, Blue's turns just stopped
    # (the browser says it); once, when it happens
    from abstracta import load_game
    from abstracta.ai.levels import make_bot
    from abstracta.cli.terminal import PlaySession

    game = load_game("slide-checkers", players="3")
    initial = game.state_from_text("Bc10,Gc8,Gi5,Rb4,Rb5,Rd5,Rh1,Rj11,Rl2,Rl7 M G nj=6")
    lines = iter(["c8>d9*b11e", "?", "quit"])
    seats = ["human", "random", "random"]
    session = PlaySession(game, initial, seats, [None, make_bot("random", game, seed=1), make_bot("random", game, seed=2)],
                          read=lambda prompt: next(lines))
    assert session.run([0]) == "abandoned"
    out = capsys.readouterr().out
    assert out.count("Blue is out — Blue has no pieces left") == 1, out
    assert out.index("Blue is out") < out.index("Red (computer, random) plays")


def test_a_nibble_hint_of_one_disc_is_the_turn_typed_at_the_prompt(monkeypatch):
    # the analysis' turn a1, end read "hint: a1, then end", but a1 typed at the prompt ends the
    # turn: "end" at the next prompt would be refused
    from types import SimpleNamespace

    from abstracta import load_game
    from abstracta.ai import analysis
    from abstracta.cli.terminal import PlaySession

    game = load_game("nibble", seed="1", first_player="0")
    best = SimpleNamespace(line=[SimpleNamespace(player=0, actions=["a1", "end"])], display="+0.10",
                           search="alphabeta:n100", iterations=100)
    monkeypatch.setattr(analysis, "analyse", lambda state, player: best)
    session = PlaySession(game, game.new_initial_state(), ["human", "random"], [None, None],
                          read=lambda prompt: "")
    hint = session.hint(0)
    assert hint.startswith("hint: a1   (evaluation +0.10 for "), hint


def test_hint_names_a_legal_turn_and_is_counted_in_the_record(tmp_path):
    # the browser offers hints against the computer (counted in the record's Hints tag); the
    # terminal took "hint" for a badly written move
    result = play(["fanorona", "--option", "size=telo", "--seat", "1=random", "--records", str(tmp_path)],
                  "hint\nhint\nquit\n")
    assert result.exit_code == 0, result.output
    assert "not Fanorona notation" not in result.output
    hints = [line.split("hint: ", 1)[1] for line in result.output.splitlines() if "hint: " in line]
    assert len(hints) == 2
    # the search in words, as the browser's analysis board says it (it printed "alphabeta:n60000")
    import re

    assert re.search(r"; alpha-beta search, [\d,]+ positions?\)$", hints[0]), hints[0]
    assert "alphabeta:" not in result.output
    best = hints[0].split()[0]
    import abstracta

    assert best in abstracta.load_game("fanorona", size="telo").new_initial_state().legal_action_strings()
    record = saved_record(result.output)
    assert record.moves == [] and record.tags["Hints"] == "2,0"
    # two people at one terminal: no hints, as the web app gives none there
    result = play(["fanorona", "--option", "size=telo", "--seat", "1=human", "--records", str(tmp_path)], "hint\nquit\n")
    assert "hints are for games against the computer" in result.output
    assert "Hints" not in saved_record(result.output).tags


def test_an_abandoned_game_is_resumed_from_its_record(tmp_path):
    # quit (or Ctrl-C, or the end of input) saves the game as abandoned; --resume plays it on
    # with its seats, options and seed, into a new record: the old one is kept as it was
    first = play(["nibble", "--seed", "1", "--option", "first_player=0", "--seat", "1=greedy",
                  "--records", str(tmp_path)], "a1\nquit\n")
    assert first.exit_code == 0, first.output
    old = saved_record(first.output)
    old_path = next(tmp_path.iterdir())
    old_text = old_path.read_text()
    assert old.termination == "abandoned" and len(old.moves) >= 3  # a1, end, greedy's turn
    assert f"play on with: abstracta play --resume {old_path}" in first.output

    again = play(["--resume", str(old_path), "--records", str(tmp_path)], "undo\nquit\n")
    assert again.exit_code == 0, again.output
    assert f"resumed {old_path}" in again.output and "ply" in again.output
    assert "Player 2 (computer, greedy) plays" not in again.output and " plays " not in again.output  # seat 0 is to move: nobody plays before it
    assert "taken back" in again.output  # undo reaches back into the first session
    new = saved_record(again.output)
    assert new.players == ["human", "greedy"] and new.seed == old.seed and new.options == old.options
    assert new.moves == [] and new.termination == "abandoned"
    assert old_path.read_text() == old_text and len(list(tmp_path.iterdir())) == 2

    # what --resume refuses, in one line and with exit 2
    done = play(["fanorona", "--option", "size=telo", "--seat", "0=random", "--seat", "1=random",
                 "--records", str(tmp_path / "done")])
    finished = saved_record(done.output)
    assert finished.termination == "normal"
    done_path = next((tmp_path / "done").iterdir())
    for args, words in ((["--resume", str(done_path)], "already over"),
                        (["--resume", str(tmp_path / "missing.json")], "cannot read"),
                        (["fanorona", "--resume", str(old_path)], "a record of nibble, not fanorona"),
                        (["--resume", str(old_path), "--option", "variant=hex"], "--resume takes"),
                        (["--resume", str(old_path), "--seed", "4"], "--resume takes"),
                        ([], "GAME")):
        result = play([*args, "--records", str(tmp_path / "x")])
        assert result.exit_code == 2 and words in result.stderr, (args, result.output)
    assert not (tmp_path / "x").exists() or not any((tmp_path / "x").iterdir())


def test_a_record_that_cannot_be_saved_is_printed_not_lost(tmp_path, monkeypatch):
    # the --records directory replaced by a file while the game was played: the game was lost
    # behind a one-line error
    from abstracta.cli import terminal as cli

    records = tmp_path / "records"
    original = cli.PlaySession.run

    def run_then_break_the_directory(self, humans):
        termination = original(self, humans)
        records.rmdir()
        records.write_text("in the way")
        return termination

    monkeypatch.setattr(cli.PlaySession, "run", run_then_break_the_directory)
    result = play(["fanorona", "--option", "size=telo", "--seat", "1=random", "--records", str(records)],
                  "c1-b2A\nquit\n")
    assert result.exit_code == 1, result.output
    assert "could not save the record" in result.stderr and str(records) in result.stderr
    printed = Record.from_json(result.stdout[result.stdout.index("{"):])
    assert printed.moves[0] == "c1-b2A" and printed.termination == "abandoned"


def test_a_terminal_that_cannot_encode_the_board_gets_replacements_not_a_traceback(tmp_path):
    # a terminal in ASCII or Latin-1: the first "—" of the header ended the command with a
    # UnicodeEncodeError before the game began, and a typed "é" with a UnicodeDecodeError
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONIOENCODING": "ascii", "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-m", "abstracta", "play", "nibble", "--seed", "1", "--seat", "1=random",
                           "--records", str(tmp_path)], input="é\n?\nquit\n".encode(), capture_output=True,
                          env=env, timeout=60)
    out, err = done.stdout.decode("ascii"), done.stderr.decode("ascii")
    assert done.returncode == 0, err
    assert "Traceback" not in err and "Player 1 (seat 0): you ? Player 2 (seat 1): computer, random" in out
    assert "'??' is not a cell" in out
    assert "record saved:" in out


def test_an_error_in_the_middle_of_a_game_still_saves_what_was_played(tmp_path, monkeypatch):
    # anything but Ctrl-C, Ctrl-D or quit (a bot's or an engine's bug, a full memory) ended the
    # command without a record: the game was lost with the traceback
    from abstracta.cli import terminal as cli

    def broken(self, player):
        raise RuntimeError("a bug")

    monkeypatch.setattr(cli.PlaySession, "hint", broken)
    result = play(["fanorona", "--option", "size=telo", "--seat", "1=random", "--records", str(tmp_path)],
                  "c1-b2A\nhint\n")
    assert isinstance(result.exception, RuntimeError) and result.exit_code == 1
    record = saved_record(result.output)
    assert record.moves[0] == "c1-b2A" and record.termination == "abandoned"
    assert "the game stopped on an error" in result.output


def test_a_board_wider_than_the_terminal_says_so(tmp_path, monkeypatch):
    # Fibonacci's board is 46 columns: at 40 the wrapped rows looked like a broken board.
    # The console's width is fixed when it is made (from COLUMNS then, which pytest-xdist sets
    # to 80 in its workers), so the test gives the command consoles of the widths it needs.
    from rich.console import Console

    import abstracta.cli.terminal as cli

    args = ["fibonacci", "--seed", "1", "--seat", "1=random", "--records", str(tmp_path)]
    monkeypatch.setattr(cli, "console", Console(highlight=False, width=40))
    narrow = runner.invoke(app, ["play", *args], input="quit\n")
    assert narrow.exit_code == 0, narrow.output
    assert "the board is wider than this terminal's 40 columns" in narrow.output.replace("\n", " ")
    monkeypatch.setattr(cli, "console", Console(highlight=False, width=100))
    wide = runner.invoke(app, ["play", *args], input="quit\n")
    assert wide.exit_code == 0 and "Red to move" in wide.output
    assert "wider than this terminal" not in wide.output.replace("\n", " ")


def test_a_refused_move_is_quoted_as_typed(tmp_path):
    # "[b]…" in a refused move must not be read as rich markup and vanish from the message
    result = play(["fanorona", "--option", "size=dimy", "--seat", "1=random", "--records", str(tmp_path)],
                  "[b]d2-c3A\nquit\n")
    assert result.exit_code == 0, result.output
    assert "'[b]d2-c3A' is not Fanorona notation" in result.output


def test_a_move_typed_in_the_other_case_is_played(tmp_path):
    result = play(["fanorona", "--option", "size=dimy", "--seat", "1=human", "--records", str(tmp_path)], "D3-C3W\n")
    assert result.exit_code == 0, result.output
    assert "not Fanorona notation" not in result.output
    assert saved_record(result.output).moves == ["d3-c3W"]
    result = play(["nibble", "--option", "seed=1", "--option", "first_player=0", "--seat", "1=human",
                   "--records", str(tmp_path)], "A1\n")
    assert "is not a cell" not in result.output, result.output
    assert saved_record(result.output).moves == ["a1", "end"]


def test_ctrl_c_saves_the_game_and_exits_130_as_match_does(tmp_path, monkeypatch):
    from abstracta.cli import terminal as cli

    # end of input (Ctrl-D) and quit stay a normal exit
    result = play(["fanorona", "--option", "size=telo", "--seat", "1=random", "--records", str(tmp_path)], "quit\n")
    assert result.exit_code == 0, result.output
    typed = iter(["c1-b2A"])

    def reader(interactive=None):
        def read(prompt):
            try:
                return next(typed)
            except StopIteration:
                raise KeyboardInterrupt from None
        return read

    monkeypatch.setattr(cli, "line_reader", reader)
    result = play(["fanorona", "--option", "size=telo", "--seat", "1=random", "--records", str(tmp_path)])
    assert result.exit_code == 130, result.output
    record = saved_record(result.output)
    assert record.moves[0] == "c1-b2A" and record.termination == "abandoned"
    assert "play on with: abstracta play --resume " in result.output
    # Ctrl-C while a bot thinks: the same
    from abstracta.ai import levels

    original = levels.make_bot

    def slow_bot(spec, game, seed=0):
        bot = original(spec, game, seed=seed)
        if bot is not None:
            bot.step = lambda state: (_ for _ in ()).throw(KeyboardInterrupt())
        return bot

    monkeypatch.setattr(levels, "make_bot", slow_bot)
    result = play(["fanorona", "--option", "size=telo", "--seat", "0=random", "--seat", "1=random",
                   "--records", str(tmp_path)])
    assert result.exit_code == 130, result.output
    assert saved_record(result.output).termination == "abandoned"


def card_record(tmp_path, name, options, plies, termination="abandoned"):
    import random

    from abstracta import load_game

    game = load_game(name, seed="3", **options)
    state = game.new_initial_state()
    initial, actions, rng = state.clone(), [], random.Random(1)
    while len(actions) < plies and not state.is_terminal():
        actions.append(rng.choice(state.legal_actions()))
        state.apply_action(actions[-1])
    path = tmp_path / f"{name}-{len(actions)}.json"
    Record.from_play(game, initial, actions, players=["human", "human"],
                     termination=termination if not state.is_terminal() else "normal").save(path)
    return path, state


def test_replay_of_an_unfinished_card_game_hides_the_hands_unless_revealed(tmp_path):
    path, state = card_record(tmp_path, "fibonacci-cards", {}, 6)
    hands = [state.observation(p).split(" | ")[1 + p] for p in (0, 1)]
    stock = state.to_text().split(" | ")[3]
    shown = runner.invoke(app, ["replay", str(path)])
    assert shown.exit_code == 0, shown.output
    out = shown.output
    assert not any(card in out for card in ",".join(hands).split(",")), out  # no card of either hand
    assert stock not in out and "seed=3" not in out
    assert f"public position: {state.public_observation()}" in out
    assert "--reveal" in out and "result: unfinished" in out
    as_json = json.loads(runner.invoke(app, ["replay", str(path), "--json"]).output)
    assert as_json["position"] == state.public_observation() and as_json["hidden"] is True
    revealed = runner.invoke(app, ["replay", str(path), "--reveal"])
    assert revealed.exit_code == 0 and f"position: {state.to_text()}" in revealed.output
    assert all(card in revealed.output for card in ",".join(hands).split(",")) and "seed=3" in revealed.output
    as_json = json.loads(runner.invoke(app, ["replay", str(path), "--json", "--reveal"]).output)
    assert as_json["position"] == state.to_text() and as_json["hidden"] is False


def test_replay_of_an_unfinished_fibonacci_cards_variant_hides_the_piles(tmp_path):
    path, state = card_record(tmp_path, "fibonacci", {"variant": "cards"}, 6)
    out = runner.invoke(app, ["replay", str(path)]).output
    assert state.to_text() not in out and "rng=" not in out and "seed=3" not in out
    assert f"public position: {state.public_observation()}" in out
    assert "revealed card:" in out  # the board: every seat sees the same drawing, so a spectator may too
    assert f"position: {state.to_text()}" in runner.invoke(app, ["replay", str(path), "--reveal"]).output


def test_replay_of_a_finished_card_game_shows_the_deal(tmp_path):
    path, state = card_record(tmp_path, "fibonacci-cards", {}, 10_000)
    assert state.is_terminal()
    out = runner.invoke(app, ["replay", str(path)]).output
    assert f"position: {state.to_text()}" in out and "seed=3" in out and "--reveal" not in out


def test_match_json_gives_the_option_values_not_their_text():
    result = runner.invoke(app, ["match", "slide-checkers", "--seat", "0=random", "--seat", "1=random",
                                 "--games", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["options"] == {"players": 2, "board": [1, 1]}
    result = runner.invoke(app, ["match", "fanorona", "--option", "size=telo", "--option", "vela=true",
                                 "--seat", "0=random", "--seat", "1=random", "--games", "1", "--json"])
    assert json.loads(result.stdout.strip().splitlines()[-1])["options"] == {
        "size": "telo", "vela": True, "first_turn_single_capture": False}


def test_resume_reads_the_game_name_as_every_command_does_in_either_case(tmp_path):
    # `abstracta play Nibble` starts a Nibble game (names are case-insensitive), but
    # `play Nibble --resume R` refused R, a record of nibble, as "a record of nibble, not Nibble"
    first = play(["nibble", "--seed", "1", "--option", "first_player=0", "--seat", "1=greedy",
                  "--records", str(tmp_path)], "quit\n")
    assert first.exit_code == 0, first.output
    old_path = next(tmp_path.iterdir())
    again = play(["Nibble", "--resume", str(old_path), "--records", str(tmp_path / "new")], "quit\n")
    assert again.exit_code == 0, again.output
    assert f"resumed {old_path}" in again.output
    assert saved_record(again.output).game == "nibble"


def test_resume_reads_the_seats_a_record_names_in_its_own_way(tmp_path):
    # a record written elsewhere (imported in the web app, edited by hand) may name a seat in
    # another case or by a person's name: the seats went to the session and the new record as
    # written (" Level:1 "), and a name stopped the game with no word of which seat or what to do
    from abstracta import load_game

    game = load_game("nibble", seed="1")
    path = tmp_path / "elsewhere.json"
    Record.from_play(game, game.new_initial_state(), [], players=["alice", " Level:1 "],
                     termination="abandoned").save(path)
    refused = play(["--resume", str(path), "--records", str(tmp_path / "new")], "quit\n")
    assert refused.exit_code == 2, refused.output
    assert "seat 0" in refused.stderr and "'alice'" in refused.stderr and "--seat 0=" in refused.stderr
    again = play(["--resume", str(path), "--seat", "0=human", "--records", str(tmp_path / "new")], "quit\n")
    assert again.exit_code == 0, again.output
    assert "Player 1 (seat 0): you · Player 2 (seat 1): computer, level 1\n" in again.output
    assert saved_record(again.output).players == ["human", "level:1"]


def test_analyse_reads_a_record_at_its_last_or_a_given_ply(tmp_path):
    import random

    from abstracta import load_game
    from abstracta.ai.analysis import analyse

    game = load_game("fanorona", size="dimy")
    state, actions, rng = game.new_initial_state(), [], random.Random(4)
    for _ in range(5):
        actions.append(rng.choice(state.legal_actions()))
        state.apply_action(actions[-1])
    path = tmp_path / "fanorona.json"
    Record.from_play(game, game.new_initial_state(), actions, players=["human", "level:1"],
                     termination="abandoned").save(path)
    last = runner.invoke(app, ["analyse", "--record", str(path), "--budget", "300", "--json"])
    assert last.exit_code == 0, last.output
    assert json.loads(last.output) == json.loads(json.dumps({**analyse(state, None, 300).to_dict(), "ply": 5}))
    at2 = game.new_initial_state()
    for action in actions[:2]:
        at2.apply_action(action)
    second = runner.invoke(app, ["analyse", "fanorona", "--record", str(path), "--ply", "2", "--budget", "300"])
    assert second.exit_code == 0, second.output
    assert second.output.startswith("ply 2 of 5\n") and analyse(at2, None, 300).display in second.output
    bad = runner.invoke(app, ["analyse", "--record", str(path), "--ply", "6"])
    assert bad.exit_code == 2 and "--ply 6 is not a ply of" in bad.stderr and "(0…5)" in bad.stderr
    bad = runner.invoke(app, ["analyse", "nibble", "--record", str(path)])
    assert bad.exit_code == 2 and "is a record of fanorona, not nibble" in bad.stderr
    bad = runner.invoke(app, ["analyse", "--record", str(path), "-o", "size=telo"])
    assert bad.exit_code == 2 and "--record takes the game" in bad.stderr
    bad = runner.invoke(app, ["analyse", "fanorona", "--ply", "2"])
    assert bad.exit_code == 2 and "--ply needs --record" in bad.stderr


def test_analyse_of_an_unfinished_card_game_record_needs_reveal_as_replay_does(tmp_path):
    from abstracta.ai.analysis import analyse

    path, state = card_record(tmp_path, "fibonacci-cards", {}, 6)
    hands = ",".join(state.observation(p).split(" | ")[1 + p] for p in (0, 1)).split(",")
    refused = runner.invoke(app, ["analyse", "--record", str(path), "--budget", "200"])
    assert refused.exit_code == 2 and "--reveal" in refused.stderr
    assert not any(card in refused.output for card in hands)
    shown = runner.invoke(app, ["analyse", "--record", str(path), "--budget", "200", "--reveal", "--json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.output)["values"] == analyse(state, None, 200).values
    # a finished game's deal is public: every position of it may be analysed
    path, state = card_record(tmp_path, "fibonacci-cards", {}, 10_000)
    assert state.is_terminal()
    earlier = runner.invoke(app, ["analyse", "--record", str(path), "--ply", "4", "--budget", "200", "--json"])
    assert earlier.exit_code == 0, earlier.output
    assert json.loads(earlier.output)["ply"] == 4 and json.loads(earlier.output)["line"]


def test_hint_and_replay_name_the_seat_as_the_game_does(tmp_path):
    # a seat without a name in the game (Nibble, the card game) is "you" mid-sentence, not "You"
    result = play(["fibonacci-cards", "--seed", "2", "--seat", "1=random", "--records", str(tmp_path)], "hint\nquit\n")
    assert result.exit_code == 0, result.output
    assert "for you; Monte Carlo tree search (hidden cards guessed), 2,000 playouts)" in result.output
    assert "for You" not in result.output
    # replay names the winner as play announced it ("Black wins"), beside the seat number
    result = play(["fanorona", "--option", "size=telo", "--seat", "1=random", "--records", str(tmp_path)],
                  "resign\ny\n")
    assert "White resigns — Black wins" in result.output
    path = next(line.removeprefix("record saved: ").strip() for line in result.output.splitlines()
                if line.startswith("record saved: "))
    replay = runner.invoke(app, ["replay", path])
    assert replay.exit_code == 0, replay.output
    # and who resigned, as the browser's result line does ("White resigned — Black wins")
    assert "result: [-1.0, 1.0] (White (seat 0) resigned; Black (seat 1) wins)" in replay.output
    assert Record.load(path).tags["Resigned"] == "0"  # the record keeps who resigned
    # no options: no trailing blank after the title
    cards = runner.invoke(app, ["replay", str(next(tmp_path.glob("fibonacci-cards-*.json")))])
    assert cards.output.splitlines()[0] == "Fibonacci card game"


def test_a_hint_that_finds_no_turn_is_not_counted(tmp_path, monkeypatch):
    from abstracta.ai import analysis

    real = analysis.analyse

    def no_line(state, viewer=None, budget=None, **kw):  # e.g. a line cut before the seat's own turn
        import dataclasses

        return dataclasses.replace(real(state, viewer, 50), line=[])

    monkeypatch.setattr(analysis, "analyse", no_line)
    result = play(["fanorona", "--option", "size=telo", "--seat", "1=random", "--records", str(tmp_path)],
                  "hint\nquit\n")
    assert result.exit_code == 0, result.output
    assert "no hint here" in result.output
    assert "Hints" not in saved_record(result.output).tags


def run_in_terminal(args, typed, env):
    """``abstracta ARGS`` with a pseudo-terminal for stdin, stdout and stderr (as a person runs it),
    each line of ``typed`` written at a prompt (a line ending in ">"); returns all it printed."""
    import os
    import select
    import subprocess
    import sys
    import time

    import abstracta

    src = os.path.dirname(os.path.dirname(abstracta.__file__))
    main, child = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "abstracta", *args], stdin=child, stdout=child, stderr=child,
                            env={**os.environ, "PYTHONPATH": src, "COLUMNS": "100", "LINES": "30", **env})
    os.close(child)
    out, answered, pending = b"", 0, list(typed)
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(main, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                out += chunk
            if pending and len(out) > answered and out.rstrip().endswith(b">"):
                os.write(main, pending.pop(0).encode() + b"\r")
                answered = len(out)  # this prompt is answered
            if proc.poll() is not None and not ready:
                break
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        os.close(main)
    return out.decode("utf-8", "replace")


def test_a_dumb_terminal_gets_plain_prompts_without_cursor_escapes(tmp_path):
    out = run_in_terminal(["play", "fanorona", "--option", "size=telo", "--seat", "1=random",
                           "--records", str(tmp_path)], ["quit"], {"TERM": "dumb"})
    assert "Your move (White)> " in out and "record saved:" in out, out
    assert "\x1b" not in out, repr(out)  # no colour, cursor movement or position request


def test_the_hand_over_clears_the_screen_and_the_scrollback_of_a_real_terminal(monkeypatch):
    import io

    from rich.console import Console

    import abstracta
    from abstracta.cli import terminal as cli

    monkeypatch.setenv("TERM", "xterm-256color")
    screen = io.StringIO()
    monkeypatch.setattr(cli, "console", Console(file=screen, force_terminal=True, color_system=None,
                                                width=100, height=30))
    game = abstracta.load_game("fibonacci-cards", seed=1, first_player=0)
    initial = game.new_initial_state()
    hands = [" ".join(initial.observation(p).split(" | ")[1 + p].split(",")) for p in (0, 1)]
    typed = iter(["", "6d>2", "", "quit"])
    session = cli.PlaySession(game, initial, ["human", "human"], [None, None], read=lambda prompt: screen.write(prompt) and next(typed))
    assert session.run([0, 1]) == "abandoned"
    out = screen.getvalue()
    clear = "\x1b[2J\x1b[H\x1b[3J"  # the screen, the cursor home, then the scrollback
    assert out.count(clear) == 1  # between the hands; before the first, the title stays
    between = out.index(clear)
    assert out.index("type help") < out.index(hands[0]) < between and hands[0] not in out[between:]
    assert hands[1] not in out[:between] and out.index("pass the terminal to Player 2 (seat 1)") > between


def test_the_hand_over_writes_no_escape_to_a_pipe(tmp_path):
    result = play(["fibonacci-cards", "--seed", "1", "--option", "first_player=0", "--seat", "1=human",
                   "--records", str(tmp_path)], "\n6d>2\n\nquit\n")
    assert result.output.count("pass the terminal to") == 2 and "\x1b" not in result.output


def test_two_people_see_the_same_in_fibonaccis_card_variant_so_nothing_is_handed_over(tmp_path):
    # its hidden cards (the order of the draw piles) are hidden from both seats alike: as in the
    # web app (a hand-over only where the persons' views differ), the board stays on the screen
    # and the turns follow each other without "pass the terminal" and a cleared scrollback
    from abstracta import load_game

    state = load_game("fibonacci", variant="cards", seed=3).new_initial_state()
    first = state.legal_action_strings()[0]
    result = play(["fibonacci", "--variant", "cards", "--seed", "3", "--seat", "1=human",
                   "--records", str(tmp_path)], f"{first}\nquit\n")
    assert result.exit_code == 0, result.output
    assert "pass the terminal" not in result.output
    assert saved_record(result.output).moves[:1] == [first]
    # the card game's hands differ: still handed over
    cards = play(["fibonacci-cards", "--seed", "1", "--seat", "1=human", "--records", str(tmp_path)], "\nquit\n")
    assert "pass the terminal to" in cards.output


def test_analyse_names_the_seats_as_play_does():
    # analyse said "for seat 1" where play says "Black move>" and "evaluation … for Black"
    from abstracta.ai.analysis import analyse
    from abstracta.cli.base import make_game, played_state

    out = runner.invoke(app, ["analyse", "fanorona", "--option", "size=telo", "--budget", "50"])
    assert out.exit_code == 0, out.output
    state = played_state(make_game("fanorona", ["size=telo"]), None, None)
    result = analyse(state, None, 50)
    lines = out.output.splitlines()
    assert lines[0] == f"{result.display} for White ({result.search}, depth {result.depth})"
    names = {0: "White", 1: "Black"}
    assert lines[1:] == [f"{t.turn}. {names[t.player]}: {', '.join(t.actions)}" for t in result.line]
    assert "seat" not in out.output
    # colours chosen by option are the seats' names; a finished game too
    out = runner.invoke(app, ["analyse", "slide-checkers", "-o", "players=3", "-o", "colours=RYB", "--budget", "20"])
    assert out.output.splitlines()[0].startswith("0.00 for Red (") and "\n1. Red: @" in out.output
    out = runner.invoke(app, ["analyse", "slide-checkers", "--position", "Be8,Gc9 M G", "c9>d8*f8r"])
    assert out.output == "game over: +1.00 for Green\n"
    # a game without seat names: the browser's names ("Player 2" for --seat 1), as play says them
    out = runner.invoke(app, ["analyse", "nibble", "--budget", "30", "--seat", "1", "a1"])
    assert " for Player 2 (" in out.output.splitlines()[0] and "seat" not in out.output


def test_slide_checkers_question_mark_lists_the_spec_canonical_order(tmp_path):
    # §4.3: ASCII order of the action strings, so @d12 before @d5 (§7.2 says so); `?` and
    # `moves` agree with it
    listed = runner.invoke(app, ["moves", "slide-checkers"]).output.split()
    assert listed == sorted(listed) and listed.index("@d12") < listed.index("@d5") and len(listed) == 24
    out = play(["slide-checkers", "--records", str(tmp_path)], "?\nquit\n").output
    assert out.split("Your move (Green)> ")[1].split() == listed


def test_replay_wraps_the_move_list_between_entries(tmp_path):
    # the no-break space in "7. a3-b2A" did not hold it together: rich breaks at it, and an
    # 80-column terminal showed "7." at a line's end and "a3-b2A" on the next
    import re

    from abstracta.cli.base import console

    result = play(["slide-checkers", "--seat", "0=random", "--seat", "1=random", "--seed", "5",
                   "--records", str(tmp_path)])
    record = saved_record(result.output)
    assert len(record.moves) > 30
    out = runner.invoke(app, ["replay", str(next(tmp_path.iterdir()))]).output.splitlines()
    start = next(i for i, line in enumerate(out) if line.startswith("1. "))
    board = record.make_game().render(record.replay()[0]).plain.splitlines()[0].rstrip()
    lines = out[start:next(i for i in range(start, len(out)) if out[i].rstrip() == board)]  # up to the final board
    # turns numbered, moves whole: a number never ends a line, a move never starts one in pieces
    assert all(re.fullmatch(r"(\d+\. )?\S+(,? +(\d+\. )?\S+)*", line) for line in lines), lines
    assert not any(re.search(r"\d+\.$", line) for line in lines)
    assert all(len(line) <= console.width for line in lines) and len(lines) > 1
    words = [w.rstrip(",") for w in " ".join(lines).split() if not re.fullmatch(r"\d+\.", w)]
    assert words == record.moves


def test_the_terminal_says_who_plays_each_seat_and_when_it_is_your_move(tmp_path):
    # it said "seats: 0=human, 1=level:1", "Black (level:1) plays" and "White move> ": seat specs,
    # and a prompt that never said the move was yours; the browser says "Your move (White)" and
    # "computer 1", and names a seat without a colour "You" or "Computer (level 1)"
    out = play(["fanorona", "--option", "size=telo", "--seat", "1=level:1", "--seed", "1",
                "--records", str(tmp_path)], "c1-b2A\nquit\n").output
    assert "White (seat 0): you · Black (seat 1): computer, level 1\n" in out
    assert "Your move (White)> " in out and "White move>" not in out
    assert "Your move (White)> Black (computer, level 1) plays " in out and "level:1" not in out
    out = play(["nibble", "--seed", "1", "--seat", "1=mcts:i5", "--option", "first_player=1",
                "--records", str(tmp_path)], "quit\n").output
    assert "Player 1 (seat 0): you · Player 2 (seat 1): computer, mcts:i5\n" in out
    assert "\nPlayer 2 (computer, mcts:i5) plays " in out and "Your move (Player 1)> " in out
    # two people at one terminal: neither is "you"; the prompt names the seat to move
    out = play(["fanorona", "--option", "size=telo", "--seat", "1=human", "--records", str(tmp_path)],
               "quit\n").output
    assert "White (seat 0): a person · Black (seat 1): a person\n" in out and "White move> " in out
    # replay names the seats the same way
    record = next(p for p in sorted(tmp_path.iterdir()) if p.name.startswith("nibble"))
    shown = runner.invoke(app, ["replay", str(record)]).output
    assert "Player 1 (seat 0): a person · Player 2 (seat 1): computer, mcts:i5\n" in shown


def test_play_help_fits_an_80_column_terminal(tmp_path):
    # "hint ... (against the computer; counted in the record)" was 95 columns: an 80-column
    # terminal broke it at the margin, its end under the command names
    out = play(["fanorona", "--option", "size=telo", "--seat", "1=random", "--records", str(tmp_path)],
               "help\nquit\n").output
    help_text = out[out.index("Type a move"):out.index("help     this text") + len("help     this text")]
    assert "           counted in the record)" in help_text
    assert max(len(line) for line in help_text.splitlines()) <= 80


def test_every_board_fits_an_80_column_terminal():
    # Fibonacci's legend (90 columns) and Slide Checkers' (96) were broken mid-phrase by an
    # 80-column terminal ("Green (seat 1): c core, a" / "attacker, s support")
    from abstracta import load_game
    from abstracta.core.registry import registered_games

    widest = {}
    for name in registered_games():
        for variant in load_game(name).description.variants:
            game = load_game(name, **variant.options)
            state = game.new_initial_state(seed=1)
            for eyes in (None, 0):
                board = game.render(state, eyes)
                lines = (board.plain if hasattr(board, "plain") else str(board)).splitlines()
                widest[name, str(variant.options), eyes] = max(len(line.rstrip()) for line in lines)
    assert max(widest.values()) <= 80, {k: w for k, w in widest.items() if w > 80}
    assert len(widest) >= 2 * 10  # every game and variant was drawn


def test_a_hint_cut_inside_a_long_turn_says_the_turn_goes_on(tmp_path, monkeypatch):
    # Fibonacci's card variant opens with 3 moves; the analysis board's search reached 2 of them
    # and the hint read "hint: a1-c6, then a2-d6" as if that were the whole turn
    import dataclasses

    from abstracta.ai import analysis

    real = analysis.analyse

    def first_action_only(state, viewer=None, budget=None, **kw):
        found = real(state, viewer, 50)
        first = dataclasses.replace(found.line[0], actions=found.line[0].actions[:1],
                                    touched=found.line[0].touched[:1])
        return dataclasses.replace(found, line=[first])

    monkeypatch.setattr(analysis, "analyse", first_action_only)
    result = play(["fibonacci", "--variant", "cards", "--seed", "6", "--seat", "1=random",
                   "--records", str(tmp_path)], "hint\nquit\n")
    assert result.exit_code == 0, result.output
    hint = next(line for line in result.output.splitlines() if "hint: " in line)
    move = hint.split("hint: ", 1)[1].split(",")[0]
    assert hint.split("hint: ", 1)[1].startswith(
        f"{move}, then the rest of the turn is yours to choose (the search stopped there)   (evaluation "), hint
    # a hint of a whole turn says nothing of the kind
    monkeypatch.setattr(analysis, "analyse", real)
    result = play(["fanorona", "--option", "size=telo", "--seat", "1=random", "--records", str(tmp_path)],
                  "hint\nquit\n")
    assert "hint: " in result.output and "the rest of the turn" not in result.output


def test_closing_the_terminal_saves_the_game(tmp_path):
    # closing the terminal window (SIGHUP, and the end of the terminal's input) ended the process
    # at once: no record, the game lost; now it stops as Ctrl-C does, saved as abandoned
    import os
    import select
    import signal
    import subprocess
    import sys
    import time

    import abstracta

    src = os.path.dirname(os.path.dirname(abstracta.__file__))
    main, child = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "abstracta", "play", "fanorona", "--option", "size=telo",
                             "--seat", "1=random", "--seed", "1", "--records", str(tmp_path)],
                            stdin=child, stdout=child, stderr=child,
                            env={**os.environ, "PYTHONPATH": src, "TERM": "dumb"})
    os.close(child)
    out, prompts = b"", 0
    deadline = time.monotonic() + 60
    while prompts < 2 and time.monotonic() < deadline:
        if select.select([main], [], [], 0.2)[0]:
            out += os.read(main, 65536)
        if out.rstrip().endswith(b">") and out.count(b"> ") > prompts:
            prompts += 1
            if prompts == 1:
                os.write(main, b"c1-b2A\r")
    assert prompts == 2, out.decode()  # the move is played, the computer answered
    proc.send_signal(signal.SIGHUP)
    os.close(main)  # the window is gone: nothing can be printed any more
    assert proc.wait(60) == 128 + signal.SIGHUP, out.decode()
    (saved,) = tmp_path.iterdir()
    record = Record.load(saved)
    assert record.termination == "abandoned" and record.moves[0] == "c1-b2A" and len(record.moves) >= 2



def test_the_end_of_a_card_game_shows_every_hand(capsys):
    # the last board still said "Player 2: 2 cards (hidden)" although the game was over, and
    # replay of the same record shows the whole deal
    from abstracta import load_game
    from abstracta.ai.levels import make_bot
    from abstracta.cli.terminal import PlaySession

    game = load_game("fibonacci-cards")
    initial = game.state_from_text("2c 5d Jh | 7s | Kc,Qd | - | 0")  # 7s>1 empties seat 0's hand
    lines = iter(["7s>1"])
    session = PlaySession(game, initial, ["human", "random"], [None, make_bot("random", game, seed=1)],
                          read=lambda prompt: next(lines))
    assert session.run([0]) == "normal"
    out = capsys.readouterr().out
    last_board = out[out.rindex("piles"):]
    assert "Player 2: Kc Qd" in last_board and "hidden" not in last_board, out
    assert "You win" in last_board


def test_replay_names_who_ran_out_of_time(tmp_path):
    # a server record ended on time: the game is not over by the rules (it said "unfinished")
    record = Record(game="fanorona", options={"size": "telo"}, result=[1.0, -1.0], termination="time",
                    tags={"OutOfTime": "1"})
    path = tmp_path / "time.json"
    path.write_text(record.to_json())
    replay = runner.invoke(app, ["replay", str(path)])
    assert replay.exit_code == 0, replay.output
    assert "result: [1.0, -1.0] (Black (seat 1) ran out of time; White (seat 0) wins)" in replay.output
    # an older record without the tag: the loser
    path.write_text(Record(**{**record.__dict__, "tags": {}}).to_json())
    assert "(Black (seat 1) ran out of time; White (seat 0) wins)" in runner.invoke(app, ["replay", str(path)]).output


def test_the_last_line_gives_why_the_game_ended_as_a_sentence_of_its_own(capsys):
    # "Green wins — Only Green pieces are left on the board": the reason, written to start a
    # sentence (as the browser's board descriptions use it), followed a dash with its capital
    from abstracta import load_game
    from abstracta.ai.levels import make_bot
    from abstracta.cli.terminal import PlaySession

    game = load_game("slide-checkers")
    initial = game.state_from_text("Ge4,Bf5 M G")
    lines = iter(["e4*g6r"])
    session = PlaySession(game, initial, ["human", "random"], [None, make_bot("random", game, seed=1)],
                          read=lambda prompt: next(lines))
    assert session.run([0]) == "normal"
    out = capsys.readouterr().out
    assert "Green wins. Only Green pieces are left on the board.\n" in out, out
    assert " — Only" not in out


def test_kill_saves_the_game_as_closing_the_window_does(tmp_path):
    # `kill` (SIGTERM) ended the process at once, the game unsaved; SIGHUP and Ctrl-C saved it
    import os
    import select
    import signal
    import subprocess
    import sys
    import time

    import abstracta

    src = os.path.dirname(os.path.dirname(abstracta.__file__))
    main, child = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "abstracta", "play", "fanorona", "--option", "size=telo",
                             "--seat", "1=random", "--seed", "1", "--records", str(tmp_path)],
                            stdin=child, stdout=child, stderr=child,
                            env={**os.environ, "PYTHONPATH": src, "TERM": "dumb"})
    os.close(child)
    out, prompts = b"", 0
    deadline = time.monotonic() + 60
    while prompts < 2 and time.monotonic() < deadline:
        if select.select([main], [], [], 0.2)[0]:
            out += os.read(main, 65536)
        if out.rstrip().endswith(b">") and out.count(b"> ") > prompts:
            prompts += 1
            if prompts == 1:
                os.write(main, b"c1-b2A\r")
    assert prompts == 2, out.decode()
    proc.send_signal(signal.SIGTERM)  # the terminal stays open: the prompt's read does not end by itself
    assert proc.wait(60) == 128 + signal.SIGTERM, out.decode()
    while select.select([main], [], [], 0.2)[0]:
        try:
            out += os.read(main, 65536)
        except OSError:
            break
    os.close(main)
    (saved,) = tmp_path.iterdir()
    record = Record.load(saved)
    assert record.termination == "abandoned" and record.moves[0] == "c1-b2A"
    assert b"record saved" in out and b"play on with" in out, out.decode()


def test_a_closed_output_pipe_saves_the_game_as_abandoned_and_exits_141(tmp_path):
    # `abstracta play nibble | head -3`: the next line written after head exits met EPIPE and
    # rich ended the process (exit 1) without the record; Ctrl-C, SIGHUP and SIGTERM save it
    import os
    import select
    import signal
    import subprocess
    import sys
    import time

    import abstracta

    src = os.path.dirname(os.path.dirname(abstracta.__file__))
    proc = subprocess.Popen([sys.executable, "-m", "abstracta", "play", "nibble", "--seed", "1", "--option",
                             "first_player=0", "--seat", "1=random", "--records", str(tmp_path)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": src})
    out, deadline = b"", time.monotonic() + 60
    while b"Your move (Player 1)> " not in out and time.monotonic() < deadline:
        if select.select([proc.stdout], [], [], 0.2)[0]:
            out += os.read(proc.stdout.fileno(), 65536)
    assert b"Your move (Player 1)> " in out, out.decode()
    proc.stdout.close()  # the reader is gone, as head is after its lines
    proc.stdin.write(b"a1\n")  # the computer's reply is the next line written
    proc.stdin.close()
    assert proc.wait(60) == 128 + signal.SIGPIPE
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert "Traceback" not in err and "Exception ignored" not in err, err
    (saved,) = tmp_path.iterdir()
    record = Record.load(saved)
    assert record.termination == "abandoned" and record.moves[:2] == ["a1", "end"]
    # the only words: where the game is, on the output still open
    assert err == (f"output closed: game abandoned; record saved: {saved}\n"
                   f"play on with: abstracta play --resume {saved}\n"), err


def test_output_cut_after_the_game_ended_keeps_how_it_ended(monkeypatch):
    # a closed pipe (or Ctrl-C) while the last board or the resignation is printed stops play
    # as an abandoned game: the record said "abandoned" of a game the rules or a resignation ended
    from abstracta import load_game
    from abstracta.cli import terminal as cli
    from abstracta.ai.levels import make_bot
    from abstracta.cli.terminal import HungUp, PlaySession

    game = load_game("nibble", seed="1")
    bots = [make_bot("random", game, seed=1), make_bot("random", game, seed=2)]
    session = PlaySession(game, game.new_initial_state(), ["random", "random"], bots, read=lambda prompt: "")

    def cut(*_args):
        raise HungUp

    monkeypatch.setattr(session, "show", cut)  # the final board: the first thing shown to nobody
    assert session.run([]) == "normal" and session.state.is_terminal()

    lines = iter(["resign", "y"])
    session = PlaySession(game, game.new_initial_state(), ["human", "random"], [None, bots[1]],
                          read=lambda prompt: next(lines))
    printed = cli.console.print

    def cut_at_the_resignation(*args, **kwargs):
        if args and "resign — " in str(args[0]):
            raise HungUp
        printed(*args, **kwargs)

    monkeypatch.setattr(cli.console, "print", cut_at_the_resignation)
    assert session.run([0]) == "resignation" and session.resigned == 0


def test_a_sigterm_taken_by_another_thread_still_ends_the_wait_for_a_line():
    # a signal may be delivered to any thread that does not block it (a native library's): the
    # main thread, waiting in read() for the next line, was not woken and `kill` waited for one
    import os
    import signal
    import threading
    import time

    import pytest

    from abstracta.cli.terminal import HungUp, stopped_from_outside

    r, w = os.pipe()
    outer = signal.signal(signal.SIGTERM, lambda *_: None)  # before the fix: noted, not the end of pytest
    late = threading.Timer(8, lambda: os.write(w, b"a line\n"))  # ends the read if nothing else does
    late.start()
    try:
        with stopped_from_outside() as stop:
            sender = threading.Thread(target=lambda: (time.sleep(0.3),
                                                      signal.pthread_kill(threading.get_ident(), signal.SIGTERM)))
            began = time.monotonic()
            sender.start()
            with pytest.raises(HungUp):
                os.read(r, 100)  # the prompt's wait for a line
            waited = time.monotonic() - began
            sender.join()
        assert stop.signum == signal.SIGTERM and waited < 5, waited
    finally:
        late.cancel()
        signal.signal(signal.SIGTERM, outer)
        os.close(r)
        os.close(w)


def test_replay_of_a_three_player_draw_after_a_flag_names_who_drew(tmp_path):
    # "(Green (seat 0) ran out of time; draw)": in a 3-4 player game the flagged seat lost and
    # the others drew, which "draw" alone does not say. A 3-player game goes on after one flag:
    # the rules drew it after Green's (100 turns without a jump), as the server stores it
    record = Record(game="slide-checkers", options={"players": 3}, start="Bb2,Gl12,Rf6 M G nj=99",
                    moves=["l12-k12"], result=[-1.0, 0.0, 0.0], termination="time", tags={"OutOfTime": "0"})
    path = tmp_path / "time3.json"
    path.write_text(record.to_json())
    replay = runner.invoke(app, ["replay", str(path)])
    assert replay.exit_code == 0, replay.output
    said = " ".join(replay.output.split())  # the console wraps the line at its width
    assert "(Green (seat 0) ran out of time; Blue (seat 1), Red (seat 2) draw)" in said, replay.output


def test_replay_of_a_three_player_resignation_the_others_draw_names_who_drew(tmp_path):
    # Red resigns with Green and Blue still in: they draw (README "Clocks"); replay said
    # "(Red (seat 2) resigned;  win)", naming no winner before "win"
    record = Record(game="slide-checkers", options={"players": 3}, start="Ga1,Bl12,Rf6 M R",
                    result=[0.0, 0.0, -1.0], termination="resignation", tags={"Resigned": "2"})
    path = tmp_path / "resigned3.json"
    path.write_text(record.to_json())
    replay = runner.invoke(app, ["replay", str(path)])
    assert replay.exit_code == 0, replay.output
    said = " ".join(replay.output.split())  # the console wraps the line at its width
    assert "result: [0.0, 0.0, -1.0] (Red (seat 2) resigned; Green (seat 0), Blue (seat 1) draw)" in said, said


def test_a_three_player_resignation_in_the_terminal_says_who_draws(tmp_path):
    # the others draw: the prompt and the line said "nobody wins", which reads as if every seat lost
    record = Record(game="slide-checkers", options={"players": 3}, start="Ga1,Bl12,Rf6 M R",
                    players=["human", "human", "human"])
    path = tmp_path / "three.json"
    path.write_text(record.to_json())
    played = runner.invoke(app, ["play", "--resume", str(path), "--records", str(tmp_path / "new")], input="resign\ny\n")
    assert played.exit_code == 0, played.output
    said = " ".join(played.output.split())
    assert "Resign? Then Green, Blue draw. [y/N]" in said and "Red resigns — Green, Blue draw" in said, said
    assert "nobody wins" not in said
    saved = saved_record(played.output)
    assert saved.result == [0.0, 0.0, -1.0] and saved.termination == "resignation"


def test_replay_json_says_how_the_game_ended_and_who_resigned_or_ran_out_of_time(tmp_path):
    # --json gave the result without its termination, nor the Resigned and OutOfTime seats the
    # line names: a resignation after a flag read as a bare [-1, -1, 1]
    record = Record(game="slide-checkers", options={"players": 3}, start="Ga1,Bl12,Rf6 M B",
                    result=[-1.0, -1.0, 1.0], termination="resignation", tags={"OutOfTime": "0", "Resigned": "1"})
    path = tmp_path / "resigned.json"
    path.write_text(record.to_json())
    as_json = json.loads(runner.invoke(app, ["replay", str(path), "--json"]).output)
    assert as_json["result"] == [-1.0, -1.0, 1.0] and as_json["termination"] == "resignation"
    assert as_json["resigned"] == 1 and as_json["out_of_time"] == [0]
    unfinished = Record(game="slide-checkers", options={"players": 3}, start="Ga1,Bl12,Rf6 M B")
    path.write_text(unfinished.to_json())
    as_json = json.loads(runner.invoke(app, ["replay", str(path), "--json"]).output)
    assert as_json["termination"] is None and as_json["resigned"] is None and as_json["out_of_time"] == []


def test_replay_numbers_turns_as_the_browser_does(tmp_path):
    # replay numbered actions ("1. c2-c3A  2. b4-c5W  3. end": Black's capture and its end as two
    # moves) where the browser's list numbers turns: a seat's actions in a row, the turns as the
    # board numbers them (Fibonacci Go's placements are no turns)
    import random

    import abstracta

    moves = ["c2-c3A", "b4-c5W", "end", "c3-c4A", "c4-b4W", "a4-a3A", "d3-d4A", "d4-c3W", "e3-e4W",
             "c3-d3W", "e4-e5", "b4-b3W"]
    path = tmp_path / "fanorona.json"
    path.write_text(json.dumps({"game": "fanorona", "options": {"size": "dimy"}, "moves": moves}))
    out = " ".join(runner.invoke(app, ["replay", str(path)]).output.split())  # lines wrapped as they fit
    assert ("1. c2-c3A 2. b4-c5W, end 3. c3-c4A, c4-b4W 4. a4-a3A 5. d3-d4A, d4-c3W 6. e3-e4W "
            "7. c3-d3W 8. e4-e5 9. b4-b3W") in out, out
    game = abstracta.load_game("fibonacci", variant="go")
    state, played, rng = game.new_initial_state(), [], random.Random(1)
    while state.to_struct(None)["board"]["t"] < 2:
        action = rng.choice(state.legal_actions())
        played.append(state.action_to_string(action))
        state.apply_action(action)
    path = tmp_path / "go.json"
    path.write_text(json.dumps({"game": "fibonacci", "options": {"variant": "go"}, "moves": played}))
    out = " ".join(runner.invoke(app, ["replay", str(path)]).output.split())
    assert " ".join(played[:26]) + f" 1. {played[26]}" in out, out


def test_every_board_ends_with_game_over_and_the_winners_seat_name():
    # "game over: …" in lower case for Nibble, the card game and Slide Checkers, "Game over: …"
    # for Fanorona; Slide Checkers said "game over: G wins" (its position-text letter) above
    # play's "Green wins."
    import random

    import abstracta
    from abstracta.core.description import seat_name

    for name in ("fanorona", "nibble", "fibonacci-cards", "slide-checkers"):
        game = abstracta.load_game(name)
        state, rng = game.new_initial_state(seed=1), random.Random(1)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        winner = seat_name(game.description.seats, state.returns().index(1.0))
        text = game.render(state).plain
        assert f"Game over: {winner} wins" in text and "game over" not in text, (name, text)


def test_a_record_keeps_a_seed_only_for_a_game_with_chance(tmp_path):
    # the terminal wrote "seed": 5 for standard Fibonacci (no chance: the seed changes nothing in
    # it), which the server's import and download gave back as null; the record's seed is the
    # rules' seed (it rebuilds a deal or a layout), as the server and match write it
    standard = saved_record(play(["fibonacci", "--seed", "5", "--records", str(tmp_path / "a")], "quit\n").output)
    assert standard.seed is None and standard.options == {"variant": "standard"}
    cards = saved_record(play(["fibonacci", "--variant", "cards", "--seed", "5", "--records", str(tmp_path / "b")],
                              "quit\n").output)
    assert cards.seed == 5


def test_analyse_of_a_record_the_clock_decided_says_so_as_replay_does(tmp_path):
    # a three-player game whose flagged Green played on as the computer until the rules drew it
    # (100 turns without a jump): analyse said "game over: 0.00 for Green", the rules' value, for
    # a Green that lost on time
    record = Record(game="slide-checkers", options={"players": 3}, start="Ga1,Bl12,Rf6 M G nj=99",
                    moves=["a1-b1"], result=[-1.0, 0.0, 0.0], termination="time", tags={"OutOfTime": "0"})
    path = tmp_path / "time3.json"
    path.write_text(record.to_json())
    out = runner.invoke(app, ["analyse", "--record", str(path)])
    assert out.exit_code == 0, out.output
    assert out.output == ("ply 1 of 1\n"
                          "game over: Green (seat 0) ran out of time; Blue (seat 1), Red (seat 2) draw\n")
    # two players: the flag ended a game the rules had not; its last position is still analysed
    record = Record(game="fanorona", options={"size": "telo"}, result=[1.0, -1.0], termination="time",
                    tags={"OutOfTime": "1"})
    path.write_text(record.to_json())
    lines = runner.invoke(app, ["analyse", "--record", str(path), "--budget", "50"]).output.splitlines()
    assert lines[:2] == ["ply 0 of 0", "game over: Black (seat 1) ran out of time; White (seat 0) wins"]
    assert " for White (" in lines[2]


def test_a_computers_nibble_take_of_several_discs_reads_as_one_whole_turn(tmp_path):
    # random bots take a turn's discs in any order; the terminal plays them in the canonical
    # order, as the server does, so that the turn is written as the spec writes it (a1+a9)
    result = play(["nibble", "--seed", "3", "--seat", "0=random", "--seat", "1=random",
                   "--records", str(tmp_path)])
    assert result.exit_code == 0, result.output
    played = [line.split(" plays ", 1)[1] for line in result.output.splitlines() if " plays " in line]
    several = [text for text in played if "+" in text]
    assert several, played
    # a turn is one whole-turn entry, as the spec writes it (§4: a1+a9, a1): never takes listed
    # one by one, nor a one-disc turn as "a1, end"
    assert all(", " not in text for text in played), played
    record = saved_record(result.output)
    assert set(several) <= set(record.moves)
    assert record.replay()[0].is_terminal()
    # the record keeps a one-disc turn as its actions ("b1", "end"): an entry without '+' is one
    # engine action for replay, apply and the server's import
    ended = [record.moves[i] for i in range(1, len(record.moves)) if record.moves[i] == "end"]
    assert ended and all(f"plays {record.moves[i - 1]}\n" in result.output
                         for i in range(1, len(record.moves)) if record.moves[i] == "end")
    # and replay prints the turns as play printed them
    replay = runner.invoke(app, ["replay", str(next(tmp_path.iterdir()))])
    assert replay.exit_code == 0 and ", end" not in replay.output
    listed = " ".join(replay.output.split())
    assert all(f". {text} " in listed for text in played), played


def test_replay_help_says_what_reveal_does_in_plain_words():
    # the second paragraph of the docstring was shown with its reST quotes and its line break
    result = runner.invoke(app, ["replay", "--help"])
    assert result.exit_code == 0
    words = " ".join(result.stdout.replace("│", " ").split())
    assert "``" not in words
    assert ("A game with hidden cards that is not over shows only what a spectator sees, unless --reveal: "
            "the record may be shown to someone who is still to play it.") in words


def test_match_says_a_person_plays_in_play_not_in_match():
    # the grammar --seat shares with play begins with "human": match's help and error say it is not for match
    result = runner.invoke(app, ["match", "fanorona", "--seat", "0=random", "--seat", "1=human", "--games", "1"])
    assert result.exit_code == 2
    assert result.stderr.strip() == ("error: seat 1 is human: match plays bots only (a person plays with "
                                     "abstracta play); give it a bot SPEC, e.g. 1=random or 1=level:3")
    help_text = " ".join(runner.invoke(app, ["match", "--help"]).stdout.replace("│", " ").split())
    assert "INDEX=SPEC for every seat, each a bot: any SPEC but human. SPEC: human, random, greedy," in help_text


def test_a_nibble_hint_cut_inside_the_turn_names_a_turn_that_can_be_typed(monkeypatch):
    # the search stopped after a1 with the turn still open, and the hint read "a1, then the rest
    # of the turn is yours to choose"; but a1 typed at the prompt takes a1 and ends the turn (a
    # turn is typed whole there), so following the hint ended the turn early. The hint now
    # searches on to the turn's end and names it as it is typed
    from types import SimpleNamespace

    from abstracta import load_game
    from abstracta.ai import analysis
    from abstracta.cli.terminal import PlaySession

    game = load_game("nibble", seed="1", first_player="0")
    asked = []

    def search(state, player):
        asked.append(state.to_text())
        rest = {0: ["a1"], 1: ["a9"]}[len(asked) - 1]  # a1 opens the take; a9 is its last disc
        return SimpleNamespace(line=[SimpleNamespace(player=0, actions=rest)], display="+0.10",
                               search="alphabeta:n100", iterations=100)

    monkeypatch.setattr(analysis, "analyse", search)
    session = PlaySession(game, game.new_initial_state(), ["human", "random"], [None, None],
                          read=lambda prompt: "")
    hint = session.hint(0)
    assert hint.startswith("hint: a1+a9   (evaluation +0.10 for "), hint
    assert asked[1].endswith(" take=G"), asked  # the second search went on from inside the turn
    assert session.hints == [1, 0]
    # the search ends the turn after a1 itself: the turn typed is a1
    asked.clear()
    monkeypatch.setattr(analysis, "analyse", lambda state, player: (asked.append(1), SimpleNamespace(
        line=[SimpleNamespace(player=0, actions=[["a1"], ["end"]][len(asked) - 1])], display="+0.10",
        search="alphabeta:n100", iterations=100))[1])
    assert session.hint(0).startswith("hint: a1   (evaluation +0.10 for ")
