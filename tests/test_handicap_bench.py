"""benchmarks/handicap.py (issue 17): a player weakened by random actions, eps:P@SPEC."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from bench_util import BENCHMARKS, load_benchmark

from abstracta import load_game
from abstracta.ai.levels import make_bot


@pytest.fixture(scope="module")
def bench():
    return load_benchmark("handicap")


def _moves(bot, game, seed: int, plies: int) -> list[int]:
    state, out = game.new_initial_state(seed=seed), []
    bot.restart()
    while not state.is_terminal() and len(out) < plies:
        action = bot.step(state)
        assert action in state.legal_actions()
        out.append(action)
        state.apply_action(action)
    return out


def test_no_handicap_plays_the_inner_bots_moves(bench) -> None:
    game = load_game("fibonacci-cards")
    assert _moves(bench.bot("eps:0@greedy", game, 5), game, 3, 40) == _moves(make_bot("greedy", game, 5), game, 3, 40)


def test_full_handicap_never_asks_the_inner_bot(bench) -> None:
    game = load_game("fibonacci-cards")
    player = bench.bot("eps:1@greedy", game, 5)

    class Refuse:
        def restart(self):
            pass

        def step(self, state):
            if len(state.legal_actions()) > 1:
                raise AssertionError("asked with a choice to make")
            return state.legal_actions()[0]

    player.inner = Refuse()
    assert len(_moves(player, game, 3, 200)) > 20


# a person is no inner bot: refused as a plain ``human`` is, not a crash at its first decision
@pytest.mark.parametrize("spec", ["eps:1.5@greedy", "eps:0.5@", "eps:x@greedy", "eps:0.5@human", "human"])
def test_a_bad_handicap_is_refused(bench, spec) -> None:
    with pytest.raises(ValueError):
        bench.bot(spec, load_game("fibonacci-cards"), 1)


def test_the_command_prints_a_json_line(bench) -> None:
    out = subprocess.run([sys.executable, str(BENCHMARKS / "handicap.py"), "nibble", "--pairs", "greedy/random,random/random",
                          "--games", "4", "--seed", "3"], capture_output=True, text=True, check=True, timeout=120)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    assert [(p["a"], p["b"]) for p in data["pairs"]] == [("greedy", "random"), ("random", "random")]
    assert all(0.0 <= p["score"] <= 1.0 for p in data["pairs"])
    assert data["games"] == 4 and data["seed"] == 3


def test_an_option_without_a_value_is_a_usage_error(bench, capsys) -> None:
    # as every command reads --option (core.options.parse_option_pairs): not a traceback
    with pytest.raises(SystemExit) as exc:
        bench.main(["nibble", "--option", "variant", "--pairs", "random/random", "--games", "1"])
    assert exc.value.code == 2 and "option 'variant' is not of the form KEY=VALUE" in capsys.readouterr().err
