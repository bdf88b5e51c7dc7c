"""Round-robin tournaments between bots, with Elo ratings (``abstracta tournament``).

The schedule: every unordered pair of bots ``{a, b}`` is a *pairing*. With two players a
pairing's games alternate the seat orders ``(a, b)`` and ``(b, a)``. With ``n`` > 2 players a
table holds one copy of one bot and ``n − 1`` copies of the other, and the games cycle through
all ``2n`` such seat orders (the lone bot at each seat, ``a`` alone then ``b`` alone).

Each game is one :class:`GameTask` (game, options, seed, specs in seat order) played by
:func:`play_task` in any process: bots are built inside the task and seeded from the game's
seed (:func:`~abstracta.ai.match.bot_seed`), so serial, process and Ray executors play the same
games and, with iteration or depth budgets, give the same results.

Scoring: the lone bot (seat order's first spec with two players) scores, against each other
seat, 1 if its return is higher, 0 if lower, ½ if equal, averaged over the other seats — so
1 / ½ / 0 for a two-player win / draw / loss, and ¼ for a 3-player game another seat won
(equal bots expect ½ either way). Unfinished games score ½.

Ratings: Bradley–Terry on the Elo scale (``P(a beats b) = 1 / (1 + 10^((Rb − Ra)/400))``),
fitted by maximum likelihood with a weak prior — every pairing that was played gets
:data:`PRIOR_DRAWS` virtual draws, so 20–0 stays finite (≈ +640) — with the first bot anchored
at 0; the 95 % intervals are ±1.96 standard errors from the inverse of the information matrix.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from ..core.game import CHANCE, Game, State
from ..core.turns import canonical_actions
from ..core.records import Record
from ..core.registry import load_game
from ..executors import EXECUTORS, map_unordered  # noqa: F401 - EXECUTORS: re-exported for callers of this module
from .levels import parse_seat_spec
from .base import sample_chance
from .match import DEFAULT_MAX_ACTIONS, _play, max_actions_for, seat_bots

#: Virtual draws added to every pairing played (the prior that keeps 20–0 finite).
PRIOR_DRAWS = 1.0
ELO_SCALE = 400.0 / math.log(10.0)   # Elo points per natural-log odds unit
Z95 = 1.959964


@dataclass(frozen=True)
class GameTask:
    """One game of a tournament: everything needed to play it anywhere.

    Attributes:
        index: position in the schedule (0-based).
        game: registry name. options: rules options (without ``seed``).
        seed: the game's seed (deal and bots).
        specs: canonical bot specs in seat order.
        pairing: index of the pairing in :attr:`Tournament.pairings`.
        lone: the seat of the bot scored for the pairing (its first bot at seat ``lone``…
            see :attr:`first_is_lone`).
        first_is_lone: the lone bot is the pairing's first bot (else its second).
        max_actions: cut a game still running after this many actions, the opening's included
            (unfinished; :func:`~abstracta.ai.match.max_actions_for` unless the caller gave one).
        opening: random legal actions played before the bots take over (chance by its
            probabilities), so that deterministic searches meet in different positions;
            they count as the game's first actions (records replay from the start).
        opening_seed: seed of those random actions; games that share it share the opening.
    """

    index: int
    game: str
    options: tuple[tuple[str, Any], ...]
    seed: int
    specs: tuple[str, ...]
    pairing: int
    lone: int
    first_is_lone: bool
    max_actions: int = DEFAULT_MAX_ACTIONS
    opening: int = 0
    opening_seed: int = 0


@dataclass
class GameOutcome:
    """What :func:`play_task` returns (picklable, no timings).

    Attributes:
        index: the task's index. returns: final returns per seat (``None``: unfinished).
        plies: actions played. record: the game's record as a dict (``Record.to_dict``).
        seconds: thinking time per seat (for people only; never in the JSON results).
    """

    index: int
    returns: list[float] | None
    plies: int
    record: dict[str, Any]
    seconds: list[float] = field(default_factory=list)


def play_task(task: GameTask) -> GameOutcome:
    """Play one scheduled game (in this process); see :class:`GameTask`."""
    game = load_game(task.game, **dict(task.options))
    bots = seat_bots(game, task.specs, task.seed)
    start = game.new_initial_state(seed=task.seed if game.has_chance else None)
    opening = random_opening(start, task.opening, task.opening_seed) if task.opening else []
    after = start.clone()
    for action in opening:
        after.apply_action(action)
    _, actions, final, spent, _ = _play(game, bots, task.seed, max(0, task.max_actions - len(opening)), after)
    actions = opening + actions
    returns = final.returns() if final.is_terminal() else None
    # each turn as the game's notation lists it (a bot takes a turn's discs in its own order)
    record = Record.from_play(game, start, canonical_actions(start, actions), players=list(task.specs),
                              tags={"event": "tournament", "round": str(task.index + 1),
                                    "pairing": str(task.pairing + 1)},
                              termination=None if returns is not None else "abandoned")
    return GameOutcome(task.index, [float(r) for r in returns] if returns is not None else None,
                       len(actions), record.to_dict(), [float(s) for s in spent])


def random_opening(state: State, plies: int, seed: int) -> list[int]:
    """``plies`` random legal actions from ``state`` (chance by its probabilities; fewer if the
    game ends), drawn by a generator seeded with ``seed`` alone (the same in every process)."""
    rng = random.Random(f"opening:{seed}")
    state = state.clone()
    out: list[int] = []
    while len(out) < plies and not state.is_terminal():
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        out.append(action)
    return out


def lone_score(returns: Sequence[float] | None, lone: int) -> float:
    """Score in [0, 1] of the bot at seat ``lone`` against the other seats (module docstring)."""
    if returns is None:
        return 0.5
    others = [r for seat, r in enumerate(returns) if seat != lone]
    mine = returns[lone]
    return sum(1.0 if mine > r else 0.0 if mine < r else 0.5 for r in others) / len(others)


def seat_orders(num_players: int) -> list[tuple[bool, int]]:
    """The seat orders of a pairing as (first bot is the lone one, its seat).

    Two players: ``[(True, 0), (True, 1)]`` — the first bot at seat 0, then at seat 1.
    ``n`` players: the first bot alone at each seat, then the second bot alone at each seat.
    """
    if num_players == 2:
        return [(True, 0), (True, 1)]
    return [(first, seat) for first in (True, False) for seat in range(num_players)]


def schedule(game: Game, specs: Sequence[str], games: int, seed: int,
             max_actions: int | None = None,
             opening: int = 0) -> tuple[list[str], list[tuple[int, int]], list[GameTask]]:
    """The canonical specs, the pairings (index pairs ``(a, b)``, ``a < b``) and every game's
    task, in order.

    Game ``k`` of pairing ``p`` is task ``p * games + k`` with seed ``seed + p * games + k`` and
    seat order ``seat_orders(n)[k % len]``. With ``opening`` random actions first, the games of
    one round of seat orders share their opening (the seed of the round's first game). A game
    is cut after ``max_actions`` actions, by default :func:`~abstracta.ai.match.max_actions_for`.

    Raises:
        ValueError: fewer than two specs, a bad spec, ``games`` < 1, ``opening`` < 0.
    """
    if opening < 0:
        raise ValueError(f"opening must be >= 0 random actions, got {opening}")
    if len(specs) < 2:
        raise ValueError(f"a tournament needs at least two bots, got {len(specs)}")
    if games < 1:
        raise ValueError(f"number of games per pairing must be >= 1, got {games}")
    canonical = [parse_seat_spec(s, game) for s in specs]
    if "human" in canonical:
        raise ValueError("a tournament is for bots: 'human' is not a bot spec")
    if max_actions is None:
        max_actions = max_actions_for(game)
    n = game.num_players
    for spec in dict.fromkeys(canonical):
        seat_bots(game, [spec] * n, 0)  # reject specs that do not fit the game before playing
    options = tuple(sorted((k, v) for k, v in game.options.items() if k != "seed" and v is not None))
    pairings = list(itertools.combinations(range(len(canonical)), 2))
    orders = seat_orders(n)
    tasks = []
    for p, (a, b) in enumerate(pairings):
        for k in range(games):
            first_is_lone, lone = orders[k % len(orders)]
            alone, crowd = (a, b) if first_is_lone else (b, a)
            seats = tuple(canonical[alone] if s == lone else canonical[crowd] for s in range(n))
            index = p * games + k
            tasks.append(GameTask(index, game.name, options, seed + index, seats, p, lone,
                                  first_is_lone, max_actions, opening, seed + index - k % len(orders)))
    return canonical, pairings, tasks


# --------------------------------------------------------------------------- executors
def run_tasks(tasks: Sequence[GameTask], executor: str = "serial", workers: int | None = None,
              ray_address: str | None = None,
              on_done: Callable[[GameOutcome], None] | None = None) -> list[GameOutcome]:
    """Play ``tasks`` and return their outcomes in task order.

    Args:
        executor: ``serial`` (this process; ignores ``workers``), ``process`` (a pool of
            ``workers`` processes, default the CPU count) or ``ray`` (a Ray cluster: the one at
            ``ray_address``, else a local one started with ``workers`` CPUs and shut down after);
            see :func:`abstracta.executors.map_unordered`.
        on_done: called with each outcome as it arrives (any order).
    Raises:
        ValueError: an unknown executor or ``workers`` < 1. ImportError: Ray is not installed.
    """
    done = on_done or (lambda outcome: None)
    return map_unordered(play_task, tasks, executor, workers, ray_address,
                         on_done=lambda _, outcome: done(outcome))


# --------------------------------------------------------------------------- results
@dataclass
class PairingResult:
    """Tally of one pairing from its first bot's point of view (scores as in the module doc)."""

    a: int
    b: int
    games: int = 0
    wins: int = 0        # lone-bot scores 1 for a, 0 for b … i.e. a's full wins
    draws: int = 0       # anything between (draws, partial 3-4 player scores)
    losses: int = 0
    unfinished: int = 0
    score: float = 0.0   # a's points (sum of its per-game scores)
    plies: int = 0

    @property
    def rate(self) -> float:
        """a's mean score in [0, 1]."""
        return self.score / self.games if self.games else 0.5


@dataclass
class Rating:
    """An Elo rating with its 95 % interval (``low`` … ``high``; the anchor has width 0)."""

    elo: float
    low: float
    high: float


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` … ``11th``, ``21st``."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass
class Tournament:
    """A finished tournament: pairings, per-game outcomes and ratings."""

    game: str
    options: dict[str, Any]
    specs: list[str]
    games: int
    seed: int
    pairings: list[PairingResult]
    outcomes: list[GameOutcome]
    ratings: list[Rating]
    opening: int = 0
    max_actions: int = DEFAULT_MAX_ACTIONS

    @property
    def unfinished(self) -> int:
        """Games cut at :attr:`max_actions` (unfinished, scored as draws)."""
        return sum(1 for o in self.outcomes if o.returns is None)

    def labels(self) -> list[str]:
        """Each bot's name in the tables and the plot: its spec, and for a spec given twice its
        place in ``--bots`` (``random (1st in --bots)``), as ``match`` names such a bot by its
        ``--seat``. "random (#2)" read as a rank in the table sorted by Elo, or as seat 2. Not in
        :meth:`to_json`, whose bots are told by their index in ``bots``."""
        return [f"{spec} ({ordinal(i + 1)} in --bots)" if self.specs.count(spec) > 1 else spec
                for i, spec in enumerate(self.specs)]

    def to_json(self) -> dict[str, Any]:
        """The results as JSON-ready data; nothing in it depends on the executor or the clock."""
        return {
            "game": self.game, "options": self.options, "bots": self.specs,
            "games_per_pairing": self.games, "seed": self.seed,
            "max_actions": self.max_actions, "unfinished": self.unfinished,
            "pairings": [{"bots": [self.specs[p.a], self.specs[p.b]], "index": [p.a, p.b],
                          "games": p.games, "wins": p.wins, "draws": p.draws, "losses": p.losses,
                          "unfinished": p.unfinished, "score": round(p.rate, 6),
                          "mean_plies": round(p.plies / p.games, 3) if p.games else 0.0}
                         for p in self.pairings],
            "elo": [{"bot": spec, "elo": round(r.elo, 1), "low": round(r.low, 1), "high": round(r.high, 1)}
                    for spec, r in zip(self.specs, self.ratings)],
            "results": [{"seats": list(o.record["players"]), "seed": self.seed + o.index,
                         "returns": o.returns, "plies": o.plies} for o in self.outcomes],
        } | ({"opening": self.opening} if self.opening else {})

    def crosstable(self) -> list[list[float | None]]:
        """``table[i][j]``: bot i's mean score against bot j (``None`` on the diagonal)."""
        m = len(self.specs)
        table: list[list[float | None]] = [[None] * m for _ in range(m)]
        for p in self.pairings:
            if p.games:
                table[p.a][p.b] = p.rate
                table[p.b][p.a] = 1.0 - p.rate
        return table

    def totals(self) -> list[tuple[int, float]]:
        """Per bot: (games played, points scored)."""
        out = [[0, 0.0] for _ in self.specs]
        for p in self.pairings:
            out[p.a][0] += p.games
            out[p.a][1] += p.score
            out[p.b][0] += p.games
            out[p.b][1] += p.games - p.score
        return [(int(g), s) for g, s in out]


def tally(tasks: Sequence[GameTask], outcomes: Sequence[GameOutcome],
          pairings: Sequence[tuple[int, int]]) -> list[PairingResult]:
    """Sum the outcomes by pairing (from each pairing's first bot's point of view)."""
    results = [PairingResult(a, b) for a, b in pairings]
    by_index = {t.index: t for t in tasks}
    for outcome in outcomes:
        task = by_index[outcome.index]
        pr = results[task.pairing]
        s = lone_score(outcome.returns, task.lone)
        score = s if task.first_is_lone else 1.0 - s
        pr.games += 1
        pr.score += score
        pr.plies += outcome.plies
        if outcome.returns is None:
            pr.unfinished += 1
        elif score == 1.0:
            pr.wins += 1
        elif score == 0.0:
            pr.losses += 1
        else:
            pr.draws += 1
    return results


def elo_ratings(num_bots: int, results: Iterable[tuple[int, int, float, float]],
                prior_draws: float = PRIOR_DRAWS, iterations: int = 100) -> list[Rating]:
    """Maximum-likelihood Elo ratings with a weak prior; bot 0 anchored at 0.

    Args:
        num_bots: number of bots.
        results: ``(a, b, games, a's points)`` per pairing (points in [0, games]).
        prior_draws: virtual draws added to every pairing with games.
    Returns:
        one :class:`Rating` per bot. Bots not connected to bot 0 by played pairings get 0 ± inf.
    """
    pairs = []
    for a, b, games, points in results:
        if games > 0:
            pairs.append((a, b, games + prior_draws, points + prior_draws / 2))
    m = num_bots
    r = [0.0] * m   # natural-log odds units; bot 0 fixed
    free = list(range(1, m))
    connected = _connected(m, [(a, b) for a, b, _, _ in pairs])
    free = [i for i in free if i in connected]
    cov: list[list[float]] = []
    for _ in range(iterations):
        grad = [0.0] * m
        hess = [[0.0] * m for _ in range(m)]
        for a, b, n, s in pairs:
            p = 1.0 / (1.0 + math.exp(r[b] - r[a]))
            g = s - n * p
            grad[a] += g
            grad[b] -= g
            w = n * p * (1.0 - p)
            hess[a][a] += w
            hess[b][b] += w
            hess[a][b] -= w
            hess[b][a] -= w
        if not free:
            break
        info = [[hess[i][j] for j in free] for i in free]
        cov = _inverse(info)
        step = [sum(cov[x][y] * grad[free[y]] for y in range(len(free))) for x in range(len(free))]
        for x, i in enumerate(free):
            r[i] += step[x]
        if max(abs(s) for s in step) < 1e-10:
            break
    ratings = [Rating(0.0, 0.0, 0.0) for _ in range(m)]
    for i in range(1, m):
        if i not in free:
            ratings[i] = Rating(0.0, -math.inf, math.inf)
    for x, i in enumerate(free):
        elo = r[i] * ELO_SCALE
        half = Z95 * math.sqrt(max(cov[x][x], 0.0)) * ELO_SCALE
        ratings[i] = Rating(elo, elo - half, elo + half)
    return ratings


def _connected(m: int, edges: Sequence[tuple[int, int]]) -> set[int]:
    seen = {0}
    frontier = [0]
    while frontier:
        x = frontier.pop()
        for a, b in edges:
            for u, v in ((a, b), (b, a)):
                if u == x and v not in seen:
                    seen.add(v)
                    frontier.append(v)
    return seen


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss–Jordan inverse of a small symmetric positive-definite matrix."""
    n = len(matrix)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda i: abs(a[i][col]))
        a[col], a[pivot] = a[pivot], a[col]
        d = a[col][col]
        a[col] = [v / d for v in a[col]]
        for i in range(n):
            if i != col and a[i][col]:
                f = a[i][col]
                a[i] = [v - f * w for v, w in zip(a[i], a[col])]
    return [row[n:] for row in a]


def run_tournament(game: Game, specs: Sequence[str], games: int, seed: int = 0,
                   executor: str = "serial", workers: int | None = None, ray_address: str | None = None,
                   on_done: Callable[[GameOutcome], None] | None = None,
                   max_actions: int | None = None, opening: int = 0) -> Tournament:
    """Play a round robin of ``games`` games per pairing of ``specs`` and rate the bots
    (``opening``: random actions first; ``max_actions``: the cap; see :func:`schedule`).

    Raises:
        ValueError: see :func:`schedule` and :func:`run_tasks`.
    """
    canonical, pairings, tasks = schedule(game, specs, games, seed, max_actions, opening)
    outcomes = run_tasks(tasks, executor, workers, ray_address, on_done)
    results = tally(tasks, outcomes, pairings)
    ratings = elo_ratings(len(specs), [(p.a, p.b, p.games, p.score) for p in results])
    options = {k: v for k, v in game.option_values().items() if k != "seed"}
    return Tournament(game.name, options, canonical, games, seed, results, outcomes, ratings, opening,
                      tasks[0].max_actions)


def plot_ratings(tournament: Tournament, path: Any, title: str | None = None) -> None:
    """Write a PNG bar chart of the ratings with their 95 % intervals (needs matplotlib).

    Raises:
        ImportError: matplotlib is not installed (``pip install 'abstracta[plot]'``).
    """
    try:
        import matplotlib
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError("the rating plot needs matplotlib: pip install 'abstracta[plot]'") from exc
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = tournament.labels()
    elo = [r.elo for r in tournament.ratings]
    low = [r.elo - r.low if math.isfinite(r.low) else 0.0 for r in tournament.ratings]
    high = [r.high - r.elo if math.isfinite(r.high) else 0.0 for r in tournament.ratings]
    fig, ax = plt.subplots(figsize=(max(4.0, 1.1 * len(labels) + 1.5), 3.6), dpi=100)
    ax.bar(range(len(labels)), elo, yerr=[low, high], capsize=4, color="#4a78b5")
    ax.axhline(0.0, color="#888", linewidth=0.8)
    ax.set_xticks(range(len(labels)), labels, rotation=20, ha="right")
    ax.set_ylabel("Elo (95 % interval)")
    ax.set_title(title or f"{tournament.game}: {tournament.games} games per pairing, seed {tournament.seed}")
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
