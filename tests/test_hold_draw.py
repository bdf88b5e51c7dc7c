"""benchmarks/hold_draw.py (issue 18 §3): how a self-play record is judged against the tables."""

from __future__ import annotations

import random

import pytest
from bench_util import load_benchmark

from abstracta import load_game
from abstracta.ai import make_bot
from abstracta.core.records import Record



@pytest.fixture(scope="module")
def hold_draw():
    module = load_benchmark("hold_draw")
    return module


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    directory = tmp_path_factory.mktemp("egtb")
    game = load_game("fanorona")
    game.description.endgame_tables.build(3, directory)
    return directory


def _finish(game, state, actions, bots) -> None:
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        actions.append(action)
        state.apply_action(action)


def _a_blunder(game, directory):
    """A 3-stone turn start whose mover holds at least a draw but has a turn that loses."""
    from abstracta.games.fanorona.egtb import TableSet
    from abstracta.games.fanorona.solve import TablePlayer

    player = TablePlayer(TableSet(game, directory))
    rng = random.Random(5)
    cells = [f"{c}{r}" for c in "abcdefghi" for r in "12345"]
    while True:
        w1, w2, b = rng.sample(cells, 3)
        rows = [["."] * 9 for _ in range(5)]
        for cell, stone in ((w1, "W"), (w2, "W"), (b, "B")):
            rows[5 - int(cell[1])][ord(cell[0]) - 97] = stone
        side = rng.choice("WB")
        state = game.state_from_text("/".join("".join(r) for r in rows) + " " + side)
        if state.is_terminal():
            continue
        ranked = player.ranked(state)
        if ranked and max(r for r, _ in ranked) >= 0 and min(r for r, _ in ranked) < 0:
            return state, min(ranked)[1]


def test_a_lost_tabled_position_is_counted_and_perfect_play_loses_none(hold_draw, tables, monkeypatch):
    monkeypatch.setenv("ABSTRACTA_EGTB_DIR", str(tables))
    game = load_game("fanorona")
    start, blunder = _a_blunder(game, tables)
    text = start.to_text()
    perfect = [make_bot("level:6", game, seed=0), make_bot("level:6", game, seed=1)]

    state, actions = start.clone(), []
    _finish(game, state, actions, perfect)
    record = Record.from_play(game, start, actions, start=text).to_dict()
    judged = hold_draw.examine(record, game.description.endgame_tables)
    assert judged["tabled"] >= 1 and judged["first_tabled"]["ply"] == 0
    assert judged["lost_tabled"] == 0 and judged["unconverted"] == 0

    # the same start with the mover's worst turn first: it held a draw or a win and lost it
    mover = start.current_player()
    state, actions = start.clone(), [blunder]
    state.apply_action(blunder)  # a capture chain goes on with the best continuation (as ranked)
    _finish(game, state, actions, perfect)
    record = Record.from_play(game, start, actions, start=text).to_dict()
    judged = hold_draw.examine(record, game.description.endgame_tables)
    assert state.returns()[mover] == -1.0
    assert judged["lost_tabled"] >= 1 and judged["first_tabled"]["value"] >= 0
