"""Glicko-2 (abstracta.people.glicko2) against Glickman's worked example, and its lichess settings."""

from __future__ import annotations

import pytest

from abstracta.people import glicko2
from abstracta.people.glicko2 import SCALE, Glicko, Result, rate

# Glickman, "Example of the Glicko-2 system" (2013), §"Example calculation"
PLAYER = Glicko(1500, 200, 0.06)
GAMES = [Result(Glicko(1400, 30), 1.0), Result(Glicko(1550, 100), 0.0), Result(Glicko(1700, 300), 0.0)]


def test_glickmans_worked_example_number_for_number():
    after = rate(PLAYER, GAMES, tau=0.5, periods=1.0, bounds=None)
    # the paper's intermediate and final figures: μ' = −0.2069, φ' = 0.8722, σ' = 0.05999,
    # r' = 1464.06, RD' = 151.52
    assert round((after.rating - 1500) / SCALE, 4) == -0.2069
    assert round(after.deviation / SCALE, 4) == 0.8722
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)  # the paper prints 5 digits, cut
    assert round(1500 + SCALE * round((after.rating - 1500) / SCALE, 4), 2) == 1464.06
    assert round(after.deviation, 2) == 151.52


def test_the_papers_intermediate_steps():
    # steps 3-4 as the paper prints them: g(φj) = 0.9955, 0.9531, 0.7242; E = 0.639, 0.432, 0.303
    mu_j = [(r.opponent.rating - 1500) / SCALE for r in GAMES]
    g = [glicko2._g(r.opponent.deviation / SCALE) for r in GAMES]
    e = [glicko2._expected(0.0, m, r.opponent.deviation / SCALE) for m, r in zip(mu_j, GAMES)]
    assert [round(x, 4) for x in g] == [0.9955, 0.9531, 0.7242]
    assert [round(x, 3) for x in e] == [0.639, 0.432, 0.303]
    # from those rounded figures the paper gets v = 1.7785 and Δ = −0.4834, and σ' = 0.05999
    g_p, e_p = [0.9955, 0.9531, 0.7242], [0.639, 0.432, 0.303]
    v = 1 / sum(gg * gg * ee * (1 - ee) for gg, ee in zip(g_p, e_p))
    delta = v * sum(gg * (r.score - ee) for gg, ee, r in zip(g_p, e_p, GAMES))
    assert (round(v, 4), round(delta, 4)) == (1.7785, -0.4834)
    assert glicko2.new_volatility(0.06, 200 / SCALE, v, delta, 0.5) == pytest.approx(0.05999, abs=1e-5)


def test_a_player_away_from_1500_moves_the_volatility_as_the_paper_says():
    # the volatility function uses φ², not μ²: shifting every rating by the same amount changes
    # nothing (the PyPI glicko2 package's f(x) uses μ² and fails this)
    shifted = rate(Glicko(2100, 200, 0.06), [Result(Glicko(r.opponent.rating + 600, r.opponent.deviation), r.score)
                                             for r in GAMES], tau=0.5, bounds=None)
    plain = rate(PLAYER, GAMES, tau=0.5, bounds=None)
    assert shifted.rating - 600 == pytest.approx(plain.rating, abs=1e-9)
    assert shifted.volatility == pytest.approx(plain.volatility, abs=1e-12)


def test_a_win_raises_a_loss_lowers_and_a_new_player_moves_most():
    new, settled = Glicko(), Glicko(1500, 60, 0.06)
    opponent = Glicko(1500, 60)
    assert rate(new, [Result(opponent, 1.0)]).rating > rate(settled, [Result(opponent, 1.0)]).rating > 1500
    assert rate(new, [Result(opponent, 0.0)]).rating < 1500
    draw = rate(Glicko(1500, 80, 0.06), [Result(opponent, 0.5)])
    assert draw.rating == pytest.approx(1500, abs=1e-6) and draw.deviation < 80


def test_lichess_bounds_and_provisional():
    assert Glicko().deviation == 500 and Glicko().volatility == 0.09 and glicko2.TAU == 0.75
    assert Glicko(1500, 110.5).provisional and not Glicko(1500, 110).provisional
    # the deviation never falls below 45 nor grows past 500
    for _ in range(200):
        p = rate(Glicko(1500, 45.5, 0.06), [Result(Glicko(1500, 45), 0.5)], periods=0.0)
        assert p.deviation >= 45
    assert Glicko(1500, 480, 0.09).after_days(10_000).deviation == 500


def test_the_deviation_grows_with_the_days_without_games():
    # lichess: a typical player's RD goes from 60 to about 110 in a year
    year = Glicko(1500, 60, 0.06).after_days(365)
    assert 105 < year.deviation < 115
    assert Glicko(1500, 60, 0.06).after_days(0).deviation == 60


def test_scores_outside_zero_one_are_refused():
    with pytest.raises(ValueError):
        rate(PLAYER, [Result(Glicko(), 2.0)])
