"""The analysis board's search (abstracta.ai.analysis) on every shipped game and variant."""

from __future__ import annotations

import json
import random

import pytest

import abstracta
from abstracta.ai.analysis import (Analysis, DEFAULT_BUDGET, analyse, analysis_budget, analysis_search,
                                   check_line, display_value)
from abstracta.core.errors import IllegalActionError
from abstracta.core.registry import game_class

SHIPPED = ("fanorona", "nibble", "fibonacci", "fibonacci-cards", "slide-checkers")
#: small budgets: the tests check the answer's shape and rules, not its strength
SMALL = {"alphabeta": 1500, "mcts": 120, "ismcts": 120}


def configs() -> list[tuple[str, dict]]:
    out = []
    for name in SHIPPED:
        for variant in game_class(name)().description.variants:
            out.append((name, dict(variant.options)))
    return out


def ids(config) -> str:
    name, options = config
    return name + "".join(f"-{v}" for v in options.values())


def midgame(name: str, options: dict, plies: int = 8, seed: int = 3):
    game = abstracta.load_game(name, **options)
    state = game.new_initial_state(seed=5) if game.has_chance else game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        legal = state.legal_actions()
        nxt = state.clone()
        nxt.apply_action(legal[rng.randrange(len(legal))])
        if nxt.is_terminal():  # stop short of the end: the tests want a running position
            break
        state = nxt
    assert not state.is_terminal()
    return game, state


def small(game) -> int:
    return SMALL[analysis_search(game).bot]


@pytest.mark.parametrize("config", configs(), ids=ids)
def test_value_in_range_and_line_legal_in_sequence(config) -> None:
    game, state = midgame(*config)
    before = state.to_text()
    mover = state.current_player()
    a = analyse(state, mover, small(game))
    assert state.to_text() == before, "analyse changed the state"
    assert len(a.values) == game.num_players
    assert all(-1.0 <= v <= 1.0 for v in a.values)
    assert a.to_move == mover and a.value == a.values[mover]
    assert a.viewer == mover and not a.terminal
    assert a.line, "a running position has a best line"
    assert a.line[0].player == mover and a.line[0].turn == 1
    assert len(a.line) <= 4
    for turn in a.line:
        assert len(turn.touched) == len(turn.actions) >= 1
    check_line(state, a)  # raises at the first action that is not legal in sequence
    # consecutive turns belong to different seats (a line is grouped by turns)
    assert all(x.player != y.player for x, y in zip(a.line, a.line[1:]))
    json.dumps(a.to_dict())


@pytest.mark.parametrize("config", configs(), ids=ids)
def test_same_position_same_answer(config) -> None:
    game, state = midgame(*config, plies=5, seed=11)
    viewer = state.current_player()
    assert analyse(state, viewer, small(game)) == analyse(state.clone(), viewer, small(game))


def test_the_search_is_the_strongest_declared() -> None:
    assert analysis_search(abstracta.load_game("fanorona")).bot == "alphabeta"
    assert analysis_search(abstracta.load_game("fibonacci-cards")).bot == "ismcts"
    assert analysis_search(abstracta.load_game("slide-checkers", players=3)).bot == "mcts"  # not paranoid
    # Fibonacci's levels search whole turns: the board reads alpha-beta over its actions
    assert abstracta.load_game("fibonacci").description.levels[6].bot == "turns"
    assert analysis_search(abstracta.load_game("fibonacci")).bot == "alphabeta"
    # Telo's top levels play a table (a game's own bot): the strongest shared search below it
    telo = abstracta.load_game("fanorona", size="telo")
    assert telo.description.levels[6].bot == "table"
    assert analysis_search(telo).bot == "alphabeta"
    assert analysis_budget(telo) == DEFAULT_BUDGET["alphabeta"]


def test_a_bigger_budget_searches_more() -> None:
    game, state = midgame("fanorona", {}, plies=6)
    low, high = analyse(state, 0, 500), analyse(state, 0, 20000)
    assert low.search == "alphabeta:n500" and high.search == "alphabeta:n20000"
    assert high.depth > low.depth and high.iterations > low.iterations
    trees = abstracta.load_game("slide-checkers", players=3)
    s = trees.new_initial_state()
    assert analyse(s, 0, 50).iterations == 50


@pytest.mark.parametrize("config", [("fanorona", {"size": "dimy"}), ("fanorona", {"size": "telo"}),
                                    ("fibonacci-cards", {}), ("slide-checkers", {"players": 3})], ids=ids)
def test_terminal_position_gives_the_result_and_no_line(config) -> None:
    name, options = config
    game = abstracta.load_game(name, **options)
    state = game.new_initial_state(seed=2) if game.has_chance else game.new_initial_state()
    rng = random.Random(7)
    for _ in range(5000):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert state.is_terminal()
    a = analyse(state, 0)
    assert a.terminal and a.line == [] and a.to_move is None
    assert a.values == [float(r) for r in state.returns()]
    assert a.display == display_value(a.values[0])


def test_proved_result_is_shown_as_actions_to_the_end() -> None:
    # Dimy, seat 1 to move and lost (found by the search at this budget): "#-N" for it,
    # "#N" for the winner's seat
    game, state = midgame("fanorona", {"size": "dimy"}, plies=10)
    a = analyse(state, 0, 40000)
    assert a.mate is not None and a.mate < 0 and a.to_move == 1
    assert a.display == f"#{a.mate}" and a.viewer_display == f"#{-a.mate}"
    assert a.values[1] == -1.0 and a.values[0] == 1.0
    end = check_line(state, a)
    assert end.current_player() >= 0 or end.is_terminal()


def test_display_value() -> None:
    assert display_value(0.4249) == "+0.42"
    assert display_value(-0.1) == "-0.10"
    assert display_value(-0.001) == "0.00"
    assert display_value(1.0, mate=5) == "#5"
    assert display_value(-1.0, mate=-3) == "#-3"


def test_bad_arguments() -> None:
    game, state = midgame("fanorona", {"size": "dimy"}, plies=2)
    with pytest.raises(ValueError, match="viewer"):
        analyse(state, 2)
    with pytest.raises(ValueError, match="budget"):
        analyse(state, 0, 0)


def test_arguments_of_the_wrong_type_are_refused() -> None:
    telo = abstracta.load_game("fanorona", size="telo").new_initial_state()
    for kwargs, field in ((dict(viewer=True), "viewer"), (dict(viewer=1.0), "viewer"), (dict(budget="x"), "budget"),
                          (dict(budget=1.5), "budget"), (dict(budget=True), "budget"),
                          (dict(max_turns="x"), "max_turns"), (dict(max_turns=-1), "max_turns"),
                          (dict(seed="x"), "seed"), (dict(seed=-1), "seed")):
        with pytest.raises(ValueError, match=field):
            analyse(telo, **{"budget": 50, **kwargs})
    assert analyse(telo, viewer=1, budget=50, max_turns=0).line == []


def test_check_line_refuses_an_illegal_line() -> None:
    game, state = midgame("fanorona", {"size": "dimy"}, plies=2)
    a = analyse(state, 0, 800)
    bad = Analysis(**{**a.__dict__, "line": [type(a.line[0])(1, a.line[0].player, ["a1-a1"], [[]])]})
    with pytest.raises(IllegalActionError):
        check_line(state, bad)


# --- hidden information ------------------------------------------------------------------------
def cards_hidden_from(state, viewer: int) -> set[str]:
    """The card game's cards ``viewer`` may not see: the other hand and the stock (from the
    position text ``piles | hand0 | hand1 | stock | ...``)."""
    parts = [p.strip() for p in state.to_text().split("|")]
    other = parts[2 - viewer]
    return {c for c in (other + "," + parts[3]).split(",") if c}


@pytest.mark.parametrize("viewer_moves", [True, False])
def test_card_game_answer_names_no_hidden_card(viewer_moves: bool) -> None:
    for seed in range(4):
        game = abstracta.load_game("fibonacci-cards", seed=seed)
        state = game.new_initial_state()
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 6)):
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        mover = state.current_player()
        viewer = mover if viewer_moves else 1 - mover
        a = analyse(state, viewer, 150)
        hidden = cards_hidden_from(state, viewer)
        text = json.dumps(a.to_dict())
        named = {c for c in hidden if f'"{c}' in text or f"{c}>" in text or f"{c}/" in text}
        assert not named, f"the answer for seat {viewer} names hidden cards {named}: {text}"
        for turn in a.line:
            assert turn.player == viewer or all(t in ("draw", "pass") for t in turn.actions), turn


def test_card_game_answer_depends_only_on_the_viewers_information() -> None:
    """Two deals that look the same to the viewer (its hand, the table, the history) get the
    same answer: the search never read the other hand or the stock."""
    game = abstracta.load_game("fibonacci-cards", seed=3)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    viewer = state.current_player()
    for k in range(3):
        other = state.resample_from_infostate(viewer, random.Random(100 + k))
        assert other.to_text() != state.to_text()
        assert other.observation(viewer) == state.observation(viewer)
        assert analyse(other, viewer, 150) == analyse(state, viewer, 150)


def test_fibonacci_card_variant_line_stops_at_a_revealed_pile_card() -> None:
    game, state = midgame("fibonacci", {"variant": "cards"}, plies=3)
    a = analyse(state, state.current_player(), 3000)
    check_line(state, a)
    # every turn end turns a pile card over: the line is the rest of this turn at most
    assert len(a.line) == 1 and a.line_cut in ("revealed", None)


# --- the command ---------------------------------------------------------------------------------
def test_analyse_command() -> None:
    from typer.testing import CliRunner

    from abstracta.cli import app

    runner = CliRunner()
    out = runner.invoke(app, ["analyse", "fanorona", "-o", "size=dimy", "d3-c3A", "--budget", "1500", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    game = abstracta.load_game("fanorona", size="dimy")
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("d3-c3A"))
    assert data == json.loads(json.dumps(analyse(state, None, 1500).to_dict()))
    text = runner.invoke(app, ["analyse", "fanorona", "-o", "size=dimy", "--budget", "1500"])
    assert text.exit_code == 0 and text.output.startswith(("+", "-", "0", "#")) and text.output.splitlines()[1].startswith("1. White: ")
    bad = runner.invoke(app, ["analyse", "fanorona", "-o", "size=dimy", "--position", "nonsense"])
    assert bad.exit_code == 2 and "position" in bad.output
    bad = runner.invoke(app, ["analyse", "fanorona", "-o", "size=dimy", "--seat", "5"])
    assert bad.exit_code == 2 and "not a seat" in bad.output


def test_fibonacci_card_variant_answer_ignores_the_hidden_pile_order() -> None:
    """Both piles are hidden from both players: positions that differ only in the piles' order
    get the same answer (the resample shuffles a sorted copy, never the real order)."""
    game, state = midgame("fibonacci", {"variant": "cards"}, plies=3)
    viewer = state.current_player()
    for k in range(3):
        other = state.resample_from_infostate(viewer, random.Random(200 + k))
        assert other.to_text() != state.to_text()
        assert other.information_state_string(viewer) == state.information_state_string(viewer)
        # the position the search starts from is the same: it cannot read the real order
        assert (other.resample_from_infostate(viewer, random.Random(0)).to_text()
                == state.resample_from_infostate(viewer, random.Random(0)).to_text())
        assert analyse(other, viewer, 1500) == analyse(state, viewer, 1500)
