"""Every game declares itself (issue: "One game, one package"): the description per instance,
the registry by entry point, and the shared rules checked in one place."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from importlib.metadata import requires
from pathlib import Path

import pytest

import abstracta
from abstracta import OptionError, RecordError, UnknownGameError, load_game
from abstracta.ai import make_bot
from abstracta.ai.levels import parse_seat_spec
from abstracta.core.description import Search, Text
from abstracta.core.game import resignation_returns
from abstracta.core.options import check_seed
from abstracta.core.records import Record
from abstracta.core.registry import GameLoadError, game_class, register_game
from abstracta.testing import check_description

BUILT_IN = ("fanorona", "fibonacci", "fibonacci-cards", "nibble", "slide-checkers")
SRC = Path(abstracta.__file__).resolve().parent


def test_built_in_games_register_through_entry_points():
    from importlib.metadata import entry_points

    names = {ep.name for ep in entry_points(group="abstracta.games")}
    assert set(BUILT_IN) <= names
    assert abstracta.registered_games() == sorted(abstracta.registered_games())
    with pytest.raises(UnknownGameError, match="fanorona, fibonacci"):
        load_game("chess")


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_variant_has_a_complete_description(name):
    for variant in load_game(name).description.variants:
        check_description(load_game(name, **variant.options))


def test_chance_and_hidden_information_follow_the_instance():
    assert (load_game("fibonacci").has_chance, load_game("fibonacci").has_hidden_information) == (False, False)
    cards = load_game("fibonacci", variant="cards")
    assert (cards.has_chance, cards.has_hidden_information) == (True, True)
    assert load_game("nibble").description.chance and not load_game("nibble").description.hidden_information
    assert load_game("nibble").description.whole_turn_notation
    assert not any(load_game(n).description.whole_turn_notation for n in BUILT_IN if n != "nibble")


def test_seat_styles_follow_the_options():
    names = [str(s.name) for s in load_game("slide-checkers", players=3, colours="RYB").description.seats]
    assert names == ["Red", "Yellow", "Blue"]
    assert [str(s.name) for s in load_game("fanorona").description.seats] == ["White", "Black"]
    assert [s.name for s in load_game("fibonacci-cards").description.seats] == [None, None]


def test_levels_read_the_description():
    # three or four Slide Checkers players: MCTS with short playouts scored by the evaluator at
    # levels 3-6, level 3 held to a number of playouts
    four = load_game("slide-checkers", players=4)
    assert four.description.levels[3].bot == "mcts" and four.description.levels[3].rollout_cap == 12
    assert type(make_bot("level:3", four, seed=0)).__name__ == "MCTSBot"
    assert make_bot("level:3", four, seed=0).max_iterations == 250
    assert four.description.levels[5].bot == "mcts"
    bot = make_bot("level:5", four, seed=0)
    assert type(bot).__name__ == "MCTSBot" and bot.budget.seconds == 1.5 and bot.max_iterations is None
    assert type(make_bot("level:5", load_game("slide-checkers"), seed=0)).__name__ == "AlphaBetaBot"
    # a bot the game brings is a seat spec for that game only
    assert type(make_bot("rule", load_game("fibonacci-cards"), seed=0)).__name__ == "FibonacciCardsRuleBot"
    with pytest.raises(ValueError, match="fanorona has no bot of that name"):
        parse_seat_spec("rule", load_game("fanorona"))
    # the refusal names the bots this game brings, after the shared grammar
    with pytest.raises(ValueError, match=r"paranoid\[:SECONDS\|:dN\], table or level:N"):
        parse_seat_spec("rule", load_game("fanorona", size="telo"))


def test_texts_are_keyed_under_the_game():
    texts = load_game("fanorona").description.texts()
    assert texts["fanorona.title"] == "Fanorona" and texts["fanorona.seat.1"] == "Black"
    assert "<h3>" in texts["fanorona.rules"]
    assert str(Text("x.y", "words")) == "words"


def test_registry_names_a_broken_game_instead_of_dropping_it():
    register_game("broken-for-test", "no_such_module_anywhere:Game")
    try:
        assert "broken-for-test" in abstracta.registered_games()
        with pytest.raises(GameLoadError, match="does not import"):
            game_class("broken-for-test")
    finally:
        from abstracta.core import registry
        registry._extra.pop("broken-for-test")
    register_game("misnamed-for-test", game_class("fanorona"))
    try:
        with pytest.raises(GameLoadError, match="calls itself 'fanorona'"):
            game_class("misnamed-for-test")
    finally:
        from abstracta.core import registry
        registry._extra.pop("misnamed-for-test")


# --- one check per shared rule ------------------------------------------------------------------
def test_seed_range_is_checked_in_one_place():
    assert check_seed(2**64 - 1) == 2**64 - 1
    for bad in (2**64, 2**70, -1, True, "3"):
        with pytest.raises(OptionError, match="from 0 to 2\\*\\*64 - 1"):
            check_seed(bad)
    with pytest.raises(OptionError, match="from 0 to 2\\*\\*64 - 1"):
        load_game("nibble", seed=2**70)
    with pytest.raises(RecordError, match="from 0 to 2\\*\\*64 - 1"):
        Record.from_dict({"game": "nibble", "seed": 2**70, "moves": []})
    cli = subprocess.run([sys.executable, "-m", "abstracta", "play", "nibble", "--seed", str(2**70)],
                         capture_output=True, text=True, input="")
    assert cli.returncode == 2 and "from 0 to 2**64 - 1" in cli.stderr
    cli = subprocess.run([sys.executable, "-m", "abstracta", "match", "nibble", "--seat", "0=random",
                          "--seat", "1=random", "--games", "2", "--seed", str(2**64 - 1)],
                         capture_output=True, text=True)
    assert cli.returncode == 2 and "last game's seed" in cli.stderr


def test_resignation_returns():
    assert resignation_returns(2, 0) == [-1.0, 1.0]
    assert resignation_returns(2, 1) == [1.0, -1.0]
    assert resignation_returns(3, 1) == [0.0, -1.0, 0.0]
    # seats already out stay lost; the one seat left wins
    assert resignation_returns(4, 0, out=[1, 2]) == [-1.0, -1.0, -1.0, 1.0]
    assert resignation_returns(4, 0, out=[2]) == [-1.0, 0.0, -1.0, 0.0]
    assert resignation_returns(2, 1, out=[1]) == [1.0, -1.0]


def test_option_errors_list_values_unambiguously():
    with pytest.raises(OptionError) as info:
        load_game("slide-checkers", board="9,9")
    assert str(info.value) == "option board: (9,9) is not one of (1,1), (5,1), (7,1), (11,1), (1,7), (5,7)"
    with pytest.raises(OptionError, match="'big' is not one of tsivy, dimy, telo"):
        load_game("fanorona", size="big")


def test_the_web_app_is_part_of_the_default_install():
    unconditional = [r.split(";")[0].strip() for r in requires("abstracta") if "extra ==" not in r]
    for package in ("fastapi", "uvicorn", "sqlalchemy", "websockets"):
        assert any(r.startswith(package) for r in unconditional), f"{package} is not a default dependency"


def test_search_is_a_value():
    assert Search("mcts", 12) == Search("mcts", 12) and Search("mcts", 12) != Search("mcts", 60)


# --- nothing outside games/ names a game -----------------------------------------------------------
def _string_constants(tree: ast.AST) -> list[tuple[int, str]]:
    """String literals that are not docstrings (comments are not in the tree)."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings]


def test_no_module_outside_the_games_names_a_built_in_game():
    words = BUILT_IN + ("slide_checkers", "fibonacci_cards")
    found = []
    for path in SRC.rglob("*.py"):
        if "games" in path.relative_to(SRC).parts:
            continue
        for line, text in _string_constants(ast.parse(path.read_text())):
            if any(w in text.lower() for w in words):
                found.append(f"{path.relative_to(SRC)}:{line}: {text[:60]!r}")
    for path in (SRC / "web").rglob("*"):
        if path.is_file() and any(w in path.read_text().lower() for w in words):
            found.append(str(path.relative_to(SRC)))
    assert not found, "game names outside games/: " + "; ".join(found)


# --- spec readings ------------------------------------------------------------------------------------
def test_fibonacci_cards_text_without_rng_starts_the_generator_at_the_seed():
    text = "cA3s/AAA4/1A6/9/2A7/11/10/9/aaa5/aaa4/3S1C R 2 11 123 456"
    state = load_game("fibonacci", variant="cards").state_from_text(text)
    assert state.to_text().endswith("rng=0000000000000000")
    state.apply_action(state.string_to_action("g4-h5"))
    assert state.is_terminal() and state.returns() == [1.0, -1.0]  # group-and-3 (fibonacci.md §9.2)
    seeded = load_game("fibonacci", variant="cards", seed=7).state_from_text(text)
    assert seeded.to_text().endswith("rng=0000000000000007")


@pytest.mark.parametrize("text, to_move", [("........./........./........./........./W........ W", "W"),
                                           ("........./........./........./........./W........ B", "B")])
def test_fanorona_text_without_black_stones_is_won_by_white(text, to_move):
    state = load_game("fanorona").state_from_text(text)
    assert state.is_terminal() and state.returns() == [1.0, -1.0] and state.legal_actions() == []
    out = json.loads(subprocess.run([sys.executable, "-m", "abstracta", "apply", "fanorona", "--position", text,
                                     "--json"], capture_output=True, text=True, check=True).stdout)
    assert out["terminal"] and out["returns"] == [1.0, -1.0]


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_option_is_put_in_players_words(name):
    game = load_game(name)
    for spec in game.option_specs:
        words = game.description.options[spec.name]
        assert str(words.label) and str(words.help)
        if spec.choices is not None and len(spec.choices) > 2:
            assert set(words.choices) == {spec.text_of(c) for c in spec.choices}, spec.name
        if spec.default is None:
            assert words.unset is not None, f"{spec.name}: what does leaving it out mean?"


def test_late_move_reductions_are_refused_on_a_search_that_is_not_alpha_beta():
    # Search.reductions is read by alpha-beta only: on MCTS (or paranoid, or a game's own bot)
    # it was silently ignored, so a level claimed a selective search it never ran
    from dataclasses import replace

    description = load_game("nibble").description
    assert description.levels[6] == replace(description.levels[6], bot="alphabeta")  # the shipped one stands
    for bot in ("mcts", "paranoid", "greedy", "turns"):
        levels = {**description.levels, 5: Search(bot, reductions=1)}
        with pytest.raises(ValueError, match=rf"nibble: level 5 sets reductions=1 .* {bot}.* alpha-beta only"):
            replace(description, levels=levels)
    with pytest.raises(ValueError, match="nibble: level 6 sets reductions=-1"):
        replace(description, levels={**description.levels, 6: replace(description.levels[6], reductions=-1)})
    # alpha-beta keeps it, and every built-in variant is built as before (only alpha-beta levels reduce)
    assert replace(description, levels={**description.levels, 4: Search("alphabeta", reductions=2)}).levels[4].reductions == 2
    for name in BUILT_IN:
        for variant in load_game(name).description.variants:
            levels = load_game(name, **variant.options).description.levels.values()
            assert all(s.bot == "alphabeta" for s in levels if s.reductions), (name, variant.options)


#: each Search field meant for some bots, a value that sets it, and the bots that read it
ONE_BOT_FIELDS = [
    ("max_iterations", 10, ("mcts", "ismcts")),
    ("determinize", lambda state, observer, rng: state, ("ismcts",)),
    ("extend", 1, ("greedy",)),
    ("turn_widths", (3, 2), ("turns",)),
    ("turn_depth_step", 2, ("turns",)),
    ("turn_beam", 4, ("turns",)),
    ("max_depth", 3, ("alphabeta", "paranoid")),
    ("turn_extension", 4, ("alphabeta", "paranoid")),
]


@pytest.mark.parametrize("field,value,readers", ONE_BOT_FIELDS, ids=[f[0] for f in ONE_BOT_FIELDS])
def test_a_search_field_set_on_a_bot_that_does_not_read_it_is_refused(field, value, readers):
    # as reductions and contempt: set on another bot, the field was silently ignored, and the
    # level claimed (games --json, its fingerprint) a search it never ran
    from dataclasses import replace

    description = load_game("nibble").description
    for bot in ("random", "greedy", "mcts", "ismcts", "alphabeta", "paranoid", "turns"):
        levels = {**description.levels, 5: Search(bot, **{field: value})}
        if bot in readers:
            assert getattr(replace(description, levels=levels).levels[5], field) == value
            continue
        with pytest.raises(ValueError, match=rf"nibble: level 5 sets {field}=.* on a {bot} search; .* only"):
            replace(description, levels=levels)


def test_every_shipped_level_of_every_game_and_variant_still_builds():
    from abstracta.ai.levels import describe_level

    built = 0
    for name in BUILT_IN:
        for variant in load_game(name).description.variants:
            game = load_game(name, **variant.options)
            for level in game.description.levels:
                assert describe_level(game, level)["search"] == game.description.levels[level].bot
                built += 1
    assert built >= 6 * 12
