"""Self-play tuning of a game's evaluator weights (``abstracta tune``, issue 18 §4).

A game declares its evaluator as named terms times weights (``GameDescription.tuning``:
``squash(sum(w[i] * terms(state, player)[i]))``). Tuning then goes in three steps:

1. **Self-play.** A cheap deterministic search (``Tuning.search``, e.g. ``alphabeta:d3``)
   plays ``games`` games against itself, each game one task of the tournament executors
   (serial, process pool or Ray), each opened by a few seeded random actions (at a fixed
   depth alpha-beta would replay one game per seat order despite its seeded root noise).
2. **Texel fit.** Every position of those games — without the first ``skip`` plies, chance
   nodes and terminal positions — gives the terms from the view of the player to move and the
   game's result from that view (1 win, ½ draw, 0 loss; with more players the share of the
   others it finished above). First the scale ``K`` that best fits the default weights is
   found (``P(win) = σ(K · w₀·t)``), then all weights are fitted freely (``σ(β·t)``, logistic
   regression by Newton's method with a weak ridge towards ``K·w₀``) and divided by ``K``, so
   the tuned weights keep the default evaluator's scale (its squash and clamps keep their
   meaning). The loss is the mean cross-entropy in nats.
3. **Verification by tournament.** The same search with the tuned weights (a seat spec that
   carries them: ``alphabeta:d3+w=0.8/0.15/…``, so they travel to any process) plays the
   search with the default weights, seats alternated; the tuned side's Elo with its 95 %
   interval is the gain. Only a gain whose interval excludes zero is worth keeping.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..core.game import CHANCE, Game
from ..core.records import Record
from .levels import SEARCHES, WEIGHTED, format_weights, parse_seat_spec, spec_weights
from .tournament import (GameOutcome, GameTask, elo_ratings, lone_score, run_tasks, schedule, tally)

#: Random actions that open every game (self-play and verification): a deterministic search
#: replays one game per seat order from the start (Fanorona 9×5 at depth 3: 4 games, 1 line).
DEFAULT_OPENING = 4
#: Plies skipped at the start of every self-play game (openings repeat and say little).
DEFAULT_SKIP = 4
#: Weak ridge (per position) pulling the free fit towards the scaled default weights.
DEFAULT_RIDGE = 1e-3


@dataclass
class Fit:
    """What the Texel fit found.

    Attributes:
        scale: ``K``: the default weights' best scale (``σ(K · w₀·t)``).
        raw: the free fit ``β`` (``σ(β·t)``).
        weights: ``β / K``: the tuned weights on the default evaluator's scale (to four
            significant digits).
        loss_default: mean cross-entropy (nats) of the default weights at scale ``K``.
        loss_tuned: mean cross-entropy of the free fit.
        positions: positions fitted.
    """

    scale: float
    raw: tuple[float, ...]
    weights: tuple[float, ...]
    loss_default: float
    loss_tuned: float
    positions: int


def _loss(z, y) -> float:
    import numpy as np

    # log(1 + e^z) - y z, written stably
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def _sigmoid(z):
    import numpy as np

    return 0.5 * (1.0 + np.tanh(0.5 * z))  # no overflow for large |z|


def _damped(objective, at, step, decrease):
    """``step`` halved until it lowers ``objective`` (Armijo backtracking): Newton's full
    step can overshoot where the results are nearly separable by the terms."""
    before = objective(at)
    t = 1.0
    while t > 1e-10 and objective(at - t * step) > before - 1e-4 * t * decrease:
        t *= 0.5
    return t * step


def fit_weights(terms: Sequence[Sequence[float]], results: Sequence[float], default: Sequence[float],
                ridge: float = DEFAULT_RIDGE, iterations: int = 50) -> Fit:
    """Texel-style logistic fit of ``results`` (in [0, 1]) on ``terms`` (one row per position).

    Raises:
        ValueError: no positions, rows of the wrong length, or default weights that do not
            predict the results at all (best scale ≤ 0).
    """
    import numpy as np

    x = np.asarray(terms, dtype=float)
    y = np.asarray(results, dtype=float)
    w0 = np.asarray(default, dtype=float)
    if x.ndim != 2 or len(x) == 0:
        raise ValueError("no positions to fit")
    if x.shape[1] != len(w0) or len(y) != len(x):
        raise ValueError(f"{x.shape[1]} terms per position, {len(w0)} default weights, {len(y)} results for {len(x)} rows")
    n = len(y)
    z0 = x @ w0
    k = 1.0
    for _ in range(iterations):
        p = _sigmoid(k * z0)
        grad = float(np.sum((p - y) * z0))
        hess = float(np.sum(p * (1.0 - p) * z0 * z0)) + 1e-12
        step = _damped(lambda kk: _loss(kk * z0, y), k, grad / hess, grad * grad / hess / n)
        k -= step
        if abs(step) < 1e-12:
            break
    if not k > 0:
        raise ValueError(f"the default weights do not predict the results (best scale {k:.3g}); "
                         "play more games or check the terms' signs")
    prior = k * w0
    beta = prior.copy()
    lam = ridge * n
    eye = np.eye(len(w0))
    def objective(b):
        return _loss(x @ b, y) + 0.5 * ridge * float(np.sum((b - prior) ** 2))

    for _ in range(iterations):
        p = _sigmoid(x @ beta)
        grad = x.T @ (p - y) + lam * (beta - prior)
        hess = (x * (p * (1.0 - p))[:, None]).T @ x + lam * eye
        step = np.linalg.solve(hess, grad)
        step = _damped(objective, beta, step, float(grad @ step) / n)
        beta = beta - step
        if float(np.max(np.abs(step))) < 1e-12:
            break
    # four significant digits: the seat spec that carries them stays readable
    return Fit(float(k), tuple(float(b) for b in beta), tuple(float(f"{b / k:.4g}") for b in beta),
               _loss(k * z0, y), _loss(x @ beta, y), n)


def positions_of(game: Game, outcome: GameOutcome, skip: int = DEFAULT_SKIP) -> tuple[list[tuple[float, ...]], list[float]]:
    """The terms (the mover's view) and the mover's result of every position of one finished
    self-play game, without its first ``skip`` plies, chance nodes and terminal positions."""
    tuning = game.description.tuning
    assert tuning is not None
    rows: list[tuple[float, ...]] = []
    results: list[float] = []
    if outcome.returns is None:
        return rows, results
    record = Record.from_dict(outcome.record)
    state = record.initial_state(game)
    ply = 0
    for move in record.moves:
        for action in game.parse_move(state, move):
            mover = state.current_player()
            if ply >= skip and mover != CHANCE and not state.is_terminal():
                terms = tuning.terms(state, mover)
                if terms is not None:
                    rows.append(tuple(terms))
                    results.append(lone_score(outcome.returns, mover))
            state.apply_action(action)
            ply += 1
    return rows, results


@dataclass
class TuneResult:
    """A finished tuning run (:func:`tune`)."""

    game: str
    options: dict[str, Any]
    search: str
    names: tuple[str, ...]
    default: tuple[float, ...]
    fit: Fit
    selfplay_games: int
    selfplay_unfinished: int
    verify_games: int
    score: float            # the tuned side's mean score in the verification
    wins: int
    draws: int
    losses: int
    elo: float
    low: float
    high: float
    seed: int
    tuned_spec: str
    opening: int = DEFAULT_OPENING
    unfinished: int = 0     # verification games stopped by --max-actions (scored as draws)

    @property
    def kept(self) -> bool:
        """The gain's 95 % interval lies above zero."""
        return self.low > 0

    def to_json(self) -> dict[str, Any]:
        """JSON-ready figures (nothing depends on the executor or the clock)."""
        return {
            "game": self.game, "options": self.options, "search": self.search, "seed": self.seed,
            "opening": self.opening,
            "terms": list(self.names), "default_weights": list(self.default),
            "weights": [round(w, 6) for w in self.fit.weights], "scale": round(self.fit.scale, 6),
            "positions": self.fit.positions, "loss_default": round(self.fit.loss_default, 6),
            "loss_tuned": round(self.fit.loss_tuned, 6), "selfplay_games": self.selfplay_games,
            "selfplay_unfinished": self.selfplay_unfinished, "verify_games": self.verify_games,
            "tuned_spec": self.tuned_spec, "score": round(self.score, 6),
            "wins": self.wins, "draws": self.draws, "losses": self.losses, "unfinished": self.unfinished,
            "elo": round(self.elo, 1), "low": round(self.low, 1), "high": round(self.high, 1),
            "kept": self.kept,
        }


def tune(game: Game, games: int, seed: int = 0, *, verify_games: int | None = None, search: str | None = None,
         opening: int = DEFAULT_OPENING, skip: int = DEFAULT_SKIP, ridge: float = DEFAULT_RIDGE, executor: str = "serial",
         workers: int | None = None, ray_address: str | None = None, max_actions: int | None = None,
         on_done: Callable[[str, GameOutcome], None] | None = None) -> TuneResult:
    """Self-play ``games`` games, fit the weights, verify them over ``verify_games`` games
    (default: ``games``) against the default weights. Self-play game ``k`` uses seed
    ``seed + k``, verification game ``k`` seed ``seed + games + k``; every game opens with
    ``opening`` random actions (in the verification the same opening for both seat orders).

    Args:
        search: the seat spec that plays (default: the game's ``Tuning.search``), without weights.
        max_actions: cut a game still running after this many actions (unfinished: not fitted,
            a draw in the verification); default :func:`~abstracta.ai.match.max_actions_for`.
        on_done: called with ``("selfplay" | "verify", outcome)`` as each game ends.
    Raises:
        ValueError: a game without ``GameDescription.tuning``, a spec with weights, one that
            reads no evaluator (``random``, ``level:N``, a game's own bot) or does not fit the game, ``games`` < 1, no finished game to fit.
    """
    tuning = game.description.tuning
    if tuning is None:
        raise ValueError(f"{game.name} declares no weighted evaluator (GameDescription.tuning), so it cannot be tuned")
    spec = parse_seat_spec(search if search is not None else tuning.search, game)
    if spec_weights(spec) is not None:
        raise ValueError(f"search {spec!r}: give the search without weights (+w=…); the tuner sets them")
    if spec.partition(":")[0] not in WEIGHTED:  # spec is canonical here
        # the verification plays it with weights: refuse now, not after the self-play games
        raise ValueError(f"search {spec!r}: the tuned weights are played by greedy or a search "
                         f"({', '.join(SEARCHES)}), which read the evaluator; {spec} does not")
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    verify_games = games if verify_games is None else verify_games
    if verify_games < 1:
        raise ValueError(f"verification games must be >= 1, got {verify_games}")
    done = on_done or (lambda stage, outcome: None)
    _, _, tasks = schedule(game, [spec, spec], games, seed, max_actions, opening)
    outcomes = run_tasks(tasks, executor, workers, ray_address, lambda o: done("selfplay", o))
    rows: list[tuple[float, ...]] = []
    results: list[float] = []
    for outcome in outcomes:
        r, y = positions_of(game, outcome, skip)
        rows += r
        results += y
    unfinished = sum(o.returns is None for o in outcomes)
    if not rows:
        raise ValueError(f"no positions to fit: {games} self-play games, {unfinished} unfinished")
    fit = fit_weights(rows, results, tuning.weights, ridge)
    tuned_spec = spec + format_weights(fit.weights)
    canonical, pairings, vtasks = schedule(game, [spec, tuned_spec], verify_games, seed + games, max_actions, opening)
    voutcomes = run_tasks(vtasks, executor, workers, ray_address, lambda o: done("verify", o))
    [pairing] = tally(vtasks, voutcomes, pairings)
    ratings = elo_ratings(2, [(0, 1, pairing.games, pairing.score)])
    gain = ratings[1]
    options = {k: v for k, v in game.option_values().items() if k != "seed"}
    # the tally is the default's view; the tuned side's wins are its losses
    return TuneResult(game.name, options, spec, tuning.names, tuple(tuning.weights), fit, len(outcomes), unfinished,
                      pairing.games, 1.0 - pairing.rate, pairing.losses, pairing.draws, pairing.wins,
                      gain.elo, gain.low, gain.high, seed, canonical[1], opening, pairing.unfinished)


__all__ = ["DEFAULT_OPENING", "DEFAULT_RIDGE", "DEFAULT_SKIP", "Fit", "TuneResult", "fit_weights", "positions_of", "tune"]
