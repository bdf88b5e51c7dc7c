"""The CLI's first screen (issue 38 §8): ``abstracta --help`` lists ``play`` and ``serve`` first,
``play --help`` names the games with an example, and ``--level N`` is the computer's level
against the person at seat 0."""

import re

from test_cli_play import play, runner, saved_record

from abstracta.cli import app
from abstracta.core.registry import registered_games


def commands_listed(output: str) -> list[str]:
    """The command names of a help screen's Commands panel, in order."""
    panel = output[output.index("Commands"):]
    return re.findall(r"^│ ([a-z][a-z-]+) ", panel, flags=re.M)


def test_the_help_lists_play_and_serve_first():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0, result.output
    listed = commands_listed(result.output)
    assert listed[:2] == ["play", "serve"]
    # every command is still there, once
    assert sorted(listed) == sorted(["play", "serve", "games", "perft", "moves", "apply", "analyse", "replay",
                                     "match", "tournament", "dataset", "tune", "learn", "board", "bench", "solve", "egtb", "users",
                                     "db",
                                     "moderation"])


def test_play_help_names_the_games_and_gives_an_example():
    # the games registered when the help is shown (a plug-in's too: the tests register toy-nim)
    result = runner.invoke(app, ["play", "--help"])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    games = registered_games()
    assert "fanorona" in games and f"Games: {', '.join(games)} (abstracta games describes them)." in said
    assert f"Example: abstracta play {games[0]} --level 2 — you play seat 0 against the computer at level 2." in said
    assert "--level" in said and "--seat" in said


def test_level_sets_the_computer_against_the_person_at_seat_0(tmp_path):
    result = play(["fanorona", "--option", "size=dimy", "--level", "2", "--records", str(tmp_path)], "quit\n")
    assert result.exit_code == 0, result.output
    assert "White (seat 0): you · Black (seat 1): computer, level 2" in " ".join(result.output.split())
    assert saved_record(result.output).players == ["human", "level:2"]
    # three players: every seat but the person's; --seat still changes one of them
    result = play(["slide-checkers", "--option", "players=3", "--level", "1", "--seat", "2=random",
                   "--records", str(tmp_path)], "quit\n")
    assert result.exit_code == 0, result.output
    assert saved_record(result.output).players == ["human", "level:1", "random"]


def test_a_level_the_game_does_not_have_is_refused(tmp_path):
    result = play(["fanorona", "--level", "9", "--records", str(tmp_path)], "quit\n")
    assert result.exit_code == 2 and "--level 9" in result.stderr
    assert not list(tmp_path.iterdir())  # no game was played
