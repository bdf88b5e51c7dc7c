"""``abstracta replay`` of a game a player left (termination ``left``, issue 42 §5): the server
writes such a record when the other player claims the game of an opponent gone on their turn;
the replay says who left, as the browser does ("Black (seat 1) left the game"), not that a flag
fell (it did, before ``ending_words`` had a branch for ``left``)."""

import json

from typer.testing import CliRunner

from abstracta.cli import app

runner = CliRunner()


def left_record(result):
    return {"format": "abstracta-record", "version": 1, "game": "fanorona", "options": {"size": "dimy"},
            "players": ["human", "human"], "moves": ["b2-c3A", "d5-d4A", "end"],
            "tags": {"Left": "1"}, "result": result, "termination": "left"}


def test_replay_of_a_game_a_player_left_says_who_left_not_time(tmp_path):
    path = tmp_path / "left.json"
    path.write_text(json.dumps(left_record([1.0, -1.0])))
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    line = next(l for l in out.stdout.splitlines() if l.startswith("result:"))
    assert "time" not in line, line  # nobody's flag fell: seat 1 left
    assert "Black (seat 1) left the game; White (seat 0) wins" in line, line


def test_replay_of_a_game_called_a_draw_after_a_player_left_is_not_time(tmp_path):
    path = tmp_path / "left-draw.json"
    path.write_text(json.dumps(left_record([0.0, 0.0])))
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    line = next(l for l in out.stdout.splitlines() if l.startswith("result:"))
    assert "time" not in line and "left" in line, line
