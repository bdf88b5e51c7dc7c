"""`abstracta play`'s draw offers (README "Draw offers"): people at one terminal agree a draw
as the web app's players do, and the record says so as the server writes it; the computer never
agrees to one."""

import json

from test_cli_play import play, runner, saved_record

from abstracta.cli import app
from abstracta.core.game import agreed_draw_returns


def test_two_people_agree_a_draw_and_the_record_is_the_servers(tmp_path):
    # White plays, Black offers, White declines (play goes on); Black offering again at once is
    # refused, as the server refuses it (the wait after a decline: the one rule of the play
    # session); Black plays, White offers, Black accepts
    stdin = "b2-c3A\ndraw\nn\ndraw\nb3-b2A\ndraw\ny\n"
    result = play(["fanorona", "--option", "size=dimy", "--seat", "1=human", "--records", str(tmp_path)], stdin)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Black offers a draw" in out and "White, accept a draw? [y/N] " in out
    assert "White declines the draw; play on" in out
    assert "no draw: you may offer a draw again after 3 more turns of yours" in out
    assert "White offers a draw" in out and "Black, accept a draw? [y/N] " in out
    assert "result: [0.0, 0.0] (drawn by agreement, offered by White (seat 0); draw)" in out
    record = saved_record(out)
    assert record.termination == "agreement" and record.tags["DrawOffered"] == "0"
    assert record.result == [0.0, 0.0] == agreed_draw_returns(2) and record.moves[:2] == ["b2-c3A", "b3-b2A"]
    final, _ = record.replay()
    assert not final.is_terminal()
    # replay() checked the draw by the one rule the server's import uses too (Record._check_agreement)
    path = next(tmp_path.iterdir())
    replay = runner.invoke(app, ["replay", str(path)])
    assert replay.exit_code == 0, replay.output
    assert "result: [0.0, 0.0] (drawn by agreement, offered by White (seat 0); draw)" in replay.output
    # hand-edited to a win, it no longer reads "drawn by agreement; White wins": refused, also to resume
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps({**record.to_dict(), "result": [1.0, -1.0]}))
    replay = runner.invoke(app, ["replay", str(edited)])
    assert replay.exit_code != 0 and "White wins" not in replay.output
    assert "a draw agreed at this position is [0.0, 0.0]" in " ".join(replay.output.split()), replay.output
    resumed = play(["--resume", str(edited), "--records", str(tmp_path / "again")], "quit\n")
    assert resumed.exit_code != 0 and "a draw agreed at this position is" in " ".join(resumed.output.split())


def test_the_computer_never_agrees_to_a_draw(tmp_path):
    result = play(["fanorona", "--option", "size=dimy", "--seat", "1=random", "--records", str(tmp_path)],
                  "draw\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "no draw: Black (seat 1) is played by the computer, which does not agree to draws" in out
    assert "accept a draw?" not in out
    record = saved_record(out)
    assert record.termination == "abandoned" and record.result is None and "DrawOffered" not in record.tags


def test_a_computer_still_in_refuses_a_draw_between_the_people_too(tmp_path):
    # two people and the computer: nobody is asked, as the server refuses (error.draw_computer)
    result = play(["slide-checkers", "--option", "players=3", "--seat", "1=human", "--seat", "2=random",
                   "--records", str(tmp_path)], "draw\nquit\n")
    assert result.exit_code == 0, result.output
    assert "no draw: Red (seat 2) is played by the computer, which does not agree to draws" in result.output
    assert "accept a draw?" not in result.output
    assert saved_record(result.output).termination == "abandoned"


def test_three_people_every_other_seat_is_asked_in_turn_and_one_no_plays_on(tmp_path):
    # Green offers: Blue accepts, Red declines; Green waits before offering again (refused),
    # plays; Blue offers, Green and Red accept
    stdin = "draw\ny\nn\ndraw\n@b4\ndraw\ny\ny\n"
    result = play(["slide-checkers", "--option", "players=3", "--seat", "1=human", "--seat", "2=human",
                   "--records", str(tmp_path)], stdin)
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count("Blue, accept a draw? [y/N] ") == 1 and out.count("Red, accept a draw? [y/N] ") == 2
    assert out.count("Green, accept a draw? [y/N] ") == 1
    assert "Red declines the draw; play on" in out
    assert "no draw: you may offer a draw again after 3 more turns of yours" in out
    record = saved_record(out)
    assert record.termination == "agreement" and record.tags["DrawOffered"] == "1"
    assert record.result == [0.0, 0.0, 0.0] and record.moves == ["@b4"]


def test_a_seat_out_is_not_asked_and_keeps_its_loss(tmp_path):
    # Slide Checkers §5, as the server: Red has no pieces; Green and Blue agree; Red keeps -1
    start = {"format": "abstracta-record", "version": 1, "game": "slide-checkers", "options": {"players": 3},
             "players": ["human", "human", "human"], "start": "Ga1,Bl12 M G", "moves": [], "tags": {},
             "result": None, "termination": "abandoned"}
    path = tmp_path / "start.json"
    path.write_text(json.dumps(start))
    out_dir = tmp_path / "out"
    result = play(["--resume", str(path), "--records", str(out_dir)], "draw\ny\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Blue, accept a draw? [y/N] " in out and "Red, accept" not in out
    said = " ".join(out.split())
    assert "result: [0.0, 0.0, -1.0] (drawn by agreement, offered by Green (seat 0); " \
           "Green (seat 0), Blue (seat 1) draw)" in said, said
    record = saved_record(out)
    assert record.result == [0.0, 0.0, -1.0] and record.tags["DrawOffered"] == "0"
    record.replay()  # the rule the server's import applies: Red out keeps -1, Green offered


def test_the_card_games_draw_stays_a_move_and_offer_draw_offers(tmp_path):
    # fibonacci-cards.md: `draw` is a move (take the stock's top card); the offer is `offer draw`
    # there. People who see different hands pass the terminal before the other answers
    stdin = "\ndraw\noffer draw\n\ny\n"
    result = play(["fibonacci-cards", "--seed", "1", "--option", "first_player=0", "--seat", "1=human",
                   "--records", str(tmp_path)], stdin)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "'draw' is not legal here" in out
    assert "pass the terminal to Player 2 (seat 1), then press Enter" in out
    assert "Player 2, accept a draw? [y/N] " in out
    record = saved_record(out)
    assert record.termination == "agreement" and record.tags["DrawOffered"] == "0" and record.result == [0.0, 0.0]


def test_help_lists_the_draw_offer(tmp_path):
    out = play(["fanorona", "--option", "size=dimy", "--seat", "1=random", "--records", str(tmp_path)],
               "help\nquit\n").output
    assert "  draw     offer the other players a draw" in out
    cards = play(["fibonacci-cards", "--seed", "1", "--seat", "1=random", "--records", str(tmp_path)],
                 "help\nquit\n").output
    assert "  offer draw  offer the other players a draw" in cards


def test_nibble_has_no_draws_so_none_is_offered_or_listed(tmp_path):
    # nibble.md §5 "there are no draws": between two people `draw` is refused with the words the
    # server answers (error.draw_none), nobody is asked, and the help lists no draw offer
    result = play(["nibble", "--seed", "1", "--seat", "1=human", "--records", str(tmp_path)],
                  "help\ndraw\noffer draw\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count("no draw: this game has no draws: its rules always decide a winner") == 2
    assert "accept a draw?" not in out and "offers a draw" not in out
    assert "offer the other players a draw" not in out
    assert "  resign   give up\n  quit     stop" in out
    record = saved_record(out)
    assert record.termination == "abandoned" and record.result is None and "DrawOffered" not in record.tags


def test_a_declined_offer_with_hidden_cards_is_told_once_the_offerer_has_the_terminal_back(tmp_path):
    # the answer is given behind the offerer's back: the terminal is passed back, then told
    stdin = "\noffer draw\n\nn\n\nquit\n"
    result = play(["fibonacci-cards", "--seed", "1", "--option", "first_player=0", "--seat", "1=human",
                   "--records", str(tmp_path)], stdin)
    assert result.exit_code == 0, result.output
    out = result.output
    back = out.index("Player 2, accept a draw? [y/N] ")
    back = out.index("pass the terminal to Player 1 (seat 0), then press Enter", back)
    assert out.index("Player 2 declines the draw; play on", back) < out.index("Player 1 move> ", back)
    record = saved_record(out)
    assert record.termination == "abandoned" and "DrawOffered" not in record.tags
