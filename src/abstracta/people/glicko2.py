"""The Glicko-2 rating system (Glickman, "Example of the Glicko-2 system", 2013), as lichess
runs it: one rating period per game, the deviation growing with the days between games.

Our own implementation, checked number for number against Glickman's worked example
(``tests/people/test_glicko2.py``). The ``glicko2`` package on PyPI (2.1.0) was looked at and
not taken: its volatility function ``f(x)`` uses the player's *rating* μ² where the paper has the
deviation φ², an error that Glickman's example cannot show (its player is at 1500, μ = 0); its
τ is a class attribute shared by every player, and it has no time decay.

Units: :class:`Glicko` holds the Glicko scale (rating ≈ 1500, deviation in rating points);
the algorithm works on the Glicko-2 scale (μ, φ), converted with :data:`SCALE`.

    >>> player = Glicko(1500, 200, 0.06)
    >>> after = rate(player, [Result(Glicko(1400, 30, 0.06), 1.0), Result(Glicko(1550, 100, 0.06), 0.0),
    ...                       Result(Glicko(1700, 300, 0.06), 0.0)], tau=0.5, periods=1.0, bounds=None)
    >>> round(after.rating, 2), round(after.deviation, 2), round(after.volatility, 6)
    (1464.05, 151.52, 0.059996)

(The paper prints 1464.06 and 0.05999: it rounds μ' to −0.2069 before converting back, and
cuts σ' to five places.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

#: rating points per unit of the Glicko-2 scale (Glickman step 2)
SCALE = 173.7178
#: the convergence tolerance of the volatility iteration (Glickman step 5)
EPSILON = 0.000001

# lichess's settings (lila modules/rating Glicko.scala): a new player is 1500 ± 500 with
# volatility 0.09; τ 0.75; the deviation stays within [45, 500]; the volatility at most 0.1;
# a typical player's deviation goes from 60 to 110 in a year without games (0.21436 periods a day)
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 500.0
DEFAULT_VOLATILITY = 0.09
TAU = 0.75
MIN_DEVIATION = 45.0
MAX_DEVIATION = 500.0
MAX_VOLATILITY = 0.1
PERIODS_PER_DAY = 0.21436
#: a rating is provisional (shown with "?") while its deviation is above this (issue 41 §4)
PROVISIONAL_DEVIATION = 110.0
#: no rating goes below this, and no game moves one by more than MAX_CHANGE (lichess: 600, 700)
MIN_RATING = 100.0
MAX_CHANGE = 700.0


@dataclass(frozen=True)
class Glicko:
    """A rating on the Glicko scale: ``rating`` (points), ``deviation`` (RD, points),
    ``volatility`` (σ, on the Glicko-2 scale)."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def provisional(self) -> bool:
        """RD above :data:`PROVISIONAL_DEVIATION`: too few recent games to trust (shown ``1500?``)."""
        return self.deviation > PROVISIONAL_DEVIATION

    def after_days(self, days: float) -> "Glicko":
        """This rating ``days`` later without games: the deviation grows as
        φ* = √(φ² + t·σ²), t = days × :data:`PERIODS_PER_DAY` (capped at :data:`MAX_DEVIATION`)."""
        if days <= 0:
            return self
        phi = self.deviation / SCALE
        grown = math.sqrt(phi * phi + days * PERIODS_PER_DAY * self.volatility ** 2) * SCALE
        return Glicko(self.rating, min(MAX_DEVIATION, max(self.deviation, grown)), self.volatility)

    def expected(self, other: "Glicko") -> float:
        """The expected score of this player against ``other`` (Glickman's E, in [0, 1]), with
        the uncertainty of both: g(√(φ₁² + φ₂²))."""
        phi = math.hypot(self.deviation, other.deviation) / SCALE
        return _expected((self.rating - DEFAULT_RATING) / SCALE, (other.rating - DEFAULT_RATING) / SCALE, phi)


@dataclass(frozen=True)
class Result:
    """One game of a rating period against ``opponent`` (their rating before it), with
    ``score`` 1 (a win), 0.5 (a draw) or 0 (a loss)."""

    opponent: Glicko
    score: float


@dataclass(frozen=True)
class Bounds:
    """What lichess clamps after each update (its ``Glicko.cap``)."""

    min_deviation: float = MIN_DEVIATION
    max_deviation: float = MAX_DEVIATION
    max_volatility: float = MAX_VOLATILITY
    min_rating: float = MIN_RATING
    max_change: float = MAX_CHANGE


LICHESS = Bounds()


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """σ' by Glickman's step 5 (the Illinois variant of regula falsi on f(x), x = ln σ²)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Glicko, results: Iterable[Result], *, tau: float = TAU, periods: float = 1.0,
         bounds: Bounds | None = LICHESS) -> Glicko:
    """``player`` after one rating period with ``results`` (Glickman steps 2–8).

    ``periods``: rating periods since the player's last one, which the deviation grows by
    (step 6: φ* = √(φ² + periods·σ'²); Glickman: 1; lichess: the days since the player's last
    rated game × :data:`PERIODS_PER_DAY`). No results: only the deviation grows (step 6 alone).
    ``bounds``: clamp as lichess does (None: the paper's numbers, unclamped).
    """
    results = list(results)
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + periods * sigma * sigma)
        return _clamped(player, Glicko(player.rating, phi_star * SCALE, sigma), bounds)
    # step 3: the estimated variance v; step 4: the estimated improvement Δ
    inv_v, improvement = 0.0, 0.0
    for r in results:
        if not 0.0 <= r.score <= 1.0:
            raise ValueError(f"a score is 0, 0.5 or 1 (or between), not {r.score!r}")
        mu_j = (r.opponent.rating - DEFAULT_RATING) / SCALE
        g_j = _g(r.opponent.deviation / SCALE)
        e_j = _expected(mu, mu_j, r.opponent.deviation / SCALE)
        inv_v += g_j * g_j * e_j * (1.0 - e_j)
        improvement += g_j * (r.score - e_j)
    v = 1.0 / inv_v
    delta = v * improvement
    # step 5: the new volatility; step 6: the pre-period deviation; step 7: the new φ and μ
    sigma_new = new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + periods * sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    # step 8: back to the Glicko scale
    return _clamped(player, Glicko(SCALE * mu_new + DEFAULT_RATING, SCALE * phi_new, sigma_new), bounds)


def _clamped(before: Glicko, after: Glicko, bounds: Bounds | None) -> Glicko:
    if bounds is None:
        return after
    change = max(-bounds.max_change, min(bounds.max_change, after.rating - before.rating))
    return Glicko(max(bounds.min_rating, before.rating + change),
                  min(bounds.max_deviation, max(bounds.min_deviation, after.deviation)),
                  min(bounds.max_volatility, after.volatility))


__all__ = ["Bounds", "DEFAULT_DEVIATION", "DEFAULT_RATING", "DEFAULT_VOLATILITY", "Glicko", "LICHESS",
           "PERIODS_PER_DAY", "PROVISIONAL_DEVIATION", "Result", "SCALE", "TAU", "new_volatility", "rate"]
