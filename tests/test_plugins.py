"""Games written outside this repository plug in through the ``abstracta.games`` entry point
(issue: "One game, one package"): the example package, pip-installed as a user would, appears
in every command, the levels, the benchmarks and the web app."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from plugin_util import EXAMPLE, abstracta, env_with, pip_install_target


def test_games_lists_the_plugin(plugin_dir):
    out = abstracta(plugin_dir, "games", "--json").stdout
    games = {g["name"]: g for g in json.loads(out)}
    assert games["tictactoe"]["title"] == "Tic-tac-toe"
    assert {"fanorona", "nibble", "fibonacci", "fibonacci-cards", "slide-checkers"} <= set(games)
    # and a session without the plug-in does not see it
    plain = subprocess.run([sys.executable, "-m", "abstracta", "games", "--json"], capture_output=True,
                           text=True, check=True)
    assert "tictactoe" not in {g["name"] for g in json.loads(plain.stdout)}


def test_level4_does_not_lose_to_random(plugin_dir):
    out = abstracta(plugin_dir, "match", "tictactoe", "--seat", "0=level:4", "--seat", "1=random",
                    "--games", "10", "--json").stdout
    seats = json.loads(out)["seats"]
    assert seats[0]["spec"] == "level:4" and seats[0]["losses"] == 0 and seats[0]["wins"] >= 5


def test_every_command_takes_the_plugin(plugin_dir):
    assert abstracta(plugin_dir, "moves", "tictactoe").stdout.split() == [
        "a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    assert json.loads(abstracta(plugin_dir, "perft", "tictactoe", "--depth", "3", "--json").stdout) == {
        "1": 9, "2": 72, "3": 504}
    applied = json.loads(abstracta(plugin_dir, "apply", "tictactoe", "a1", "a2", "b1", "b2", "c1", "--json").stdout)
    assert applied == {"position": ".../OO./XXX O", "terminal": True, "returns": [1.0, -1.0]}
    bench = json.loads(abstracta(plugin_dir, "bench", "tictactoe", "--quick", "--no-mcts", "--json").stdout)
    assert {r["metric"] for r in bench} >= {"perft_nodes_per_s", "actions_per_s"}
    assert all(r["game"] == "tictactoe" for r in bench)
    board = abstracta(plugin_dir, "board", "tictactoe", check=False)
    assert board.returncode == 2 and "no printed board" in board.stderr
    played = subprocess.run([sys.executable, "-m", "abstracta", "play", "tictactoe", "--seat", "1=level:2",
                             "--records", str(plugin_dir / "records")], input="b2\nquit\n", env=env_with(plugin_dir),
                            capture_output=True, text=True, timeout=120)
    assert played.returncode == 0 and "O (computer, level 2) plays" in played.stdout


def test_the_example_passes_its_own_tests(plugin_dir):
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(EXAMPLE / "tests")],
                         env=env_with(plugin_dir), capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr


def test_web_app_lists_the_plugin(plugin_dir, tmp_path):
    code = f"""
import json
from fastapi.testclient import TestClient
from abstracta.server import security
from abstracta.server.app import create_app
hosts = security.HostPolicy.for_bind("127.0.0.1", ["testserver"])  # the TestClient's Host
with TestClient(create_app("sqlite:///{tmp_path / 'db.sqlite'}", bot_workers=0,
                           security_settings=security.Security(hosts=hosts))) as client:
    games = {{g["name"]: g for g in client.get("/api/games").json()}}
    t = games["tictactoe"]
    view = client.post("/api/matches", json={{"game": "tictactoe", "seats": ["human", "level:4"]}}).json()
    seat0 = {{"Authorization": "Bearer " + view["tokens"][0]["token"]}}  # the creator's seat token
    played = client.post(f"/api/matches/{{view['id']}}/actions", json={{"action": "b2", "ply": 0}}, headers=seat0).json()
    print(json.dumps([t["title"], t["chance"], t["hidden_information"], view["seats"][0]["name"], played["ply"] >= 1]))
"""
    run = subprocess.run([sys.executable, "-c", code], env=env_with(plugin_dir), capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.strip().splitlines()[-1]) == ["Tic-tac-toe", False, False, "X", True]


@pytest.fixture(scope="module")
def broken_dir(tmp_path_factory) -> Path:
    """A plug-in whose entry point names a module that does not import."""
    src = tmp_path_factory.mktemp("broken-src")
    (src / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=68"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "broken-game"\nversion = "0"\n'
        '[project.entry-points."abstracta.games"]\nbroken = "broken_game:Game"\n'
        '[tool.setuptools]\npy-modules = ["broken_game"]\n')
    (src / "broken_game.py").write_text("raise ImportError('this plug-in is [b]broken[/b] on purpose')\n")
    return pip_install_target(tmp_path_factory.mktemp("broken"), src)


def test_a_broken_plugin_is_named_not_dropped(broken_dir):
    listing = abstracta(broken_dir, "games", "--json")
    assert "fanorona" in {g["name"] for g in json.loads(listing.stdout)}
    assert "broken" in listing.stderr and "this plug-in is [b]broken[/b] on purpose" in listing.stderr  # as raised
    moves = abstracta(broken_dir, "moves", "broken", check=False)
    assert moves.returncode == 2 and "does not import" in moves.stderr and "Traceback" not in moves.stderr
