"""Rating pools from the clock and the game's declared variants (abstracta.people.pools)."""

from __future__ import annotations

import dataclasses

import pytest

from abstracta import load_game
from abstracta.core.registry import registered_games
from abstracta.people.errors import NotRatable
from abstracta.people.pools import SPEEDS, estimated_seconds, parse_key, pool_of, pools_of, speed_of


@pytest.mark.parametrize("clock, speed", [
    ({"initial": 60, "increment": 0}, "bullet"),
    ({"initial": 120, "increment": 1}, "bullet"),       # 160 s
    ({"initial": 120, "increment": 1.5}, "blitz"),      # 180 s: bullet is under 3 min
    ({"initial": 300, "increment": 3}, "blitz"),        # 420 s
    ({"initial": 480, "increment": 0}, "rapid"),        # 8 min: blitz is under 8
    ({"initial": 600, "increment": 5}, "rapid"),        # 800 s
    ({"initial": 900, "increment": 10}, "rapid"),       # 1300 s
    ({"initial": 1500, "increment": 0}, "classical"),   # 25 min: rapid is under 25
    ({"initial": 1800, "increment": 20}, "classical"),
    ({"per_turn": 4}, "bullet"),                        # 40 × 4 = 160 s
    ({"per_turn": 10}, "blitz"),                        # 400 s
    ({"per_turn": 30}, "rapid"),                        # 1200 s
    ({"per_turn": 60}, "classical"),
    ({"per_turn": 3600}, "classical"),
    ({"per_turn": 86400}, "correspondence"),            # a day per move
    ({"per_turn": 3 * 86400}, "correspondence"),
    (None, "correspondence"),                           # untimed games count as correspondence
])
def test_speed_from_the_clock(clock, speed):
    assert speed_of(clock) == speed


def test_estimated_seconds():
    assert estimated_seconds({"initial": 300, "increment": 3}) == 420
    assert estimated_seconds({"per_turn": 15}) == 600
    assert estimated_seconds(None) is None


def test_every_declared_variant_of_every_game_has_a_pool_per_speed():
    for name in registered_games():
        game = load_game(name)
        pools = pools_of(game)
        assert len(pools) == len(game.description.variants) * len(SPEEDS)
        keys = [p.key for p in pools]
        assert len(set(keys)) == len(keys)
        for key in keys:
            assert parse_key(key)[0] == name


def test_the_pool_of_a_game_names_its_variant_and_speed():
    game = load_game("fanorona", size="dimy")
    pool = pool_of(game, {"initial": 300, "increment": 3})
    assert (pool.key, pool.family, pool.label_key) == ("fanorona.dimy.blitz", "fanorona.dimy", "fanorona.variant.dimy")
    three = pool_of(load_game("slide-checkers", players=3), None)
    assert three.key == "slide-checkers.3.correspondence"
    # a game with chance keeps its pool whatever its seed
    assert pool_of(load_game("fibonacci-cards", seed=7), {"per_turn": 20}).key == "fibonacci-cards.standard.rapid"


def test_options_that_make_no_declared_variant_cannot_be_rated():
    game = load_game("fanorona", size="dimy")

    class Undeclared:  # the same game, its description declaring no variant
        description = dataclasses.replace(game.description, variants=())
        options = game.options

    with pytest.raises(NotRatable):
        pool_of(Undeclared(), None)


@pytest.mark.parametrize("bad", ["", "fanorona.dimy", "fanorona.dimy.lightning", "a.b.c.blitz", "Fanorona.dimy.blitz"])
def test_malformed_pool_keys(bad):
    with pytest.raises(ValueError):
        parse_key(bad)
