"""Bot-versus-bot games and matches (used by ``abstracta match`` / tournaments).

``run_match`` rotates the specs through the seats from game to game — in game ``i`` spec
``j`` sits at seat ``(j + i) % n`` — so no spec keeps the first move, and records every game.
Every game builds its bots afresh, seeded from the game's seed and the seat (:func:`bot_seed`),
so a game depends on nothing but (game, options, seed, specs in seat order): it replays alone,
and a tournament can play its games in any order, in any process.

A game still running after its cap (:func:`max_actions_for`) is cut: it is unfinished, recorded
as abandoned and scored as a draw, as OpenSpiel truncates a game at its ``max_game_length`` and
a chess server adjudicates an endless one.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..core.game import CHANCE, Game, State
from ..core.turns import canonical_actions
from ..core.records import Record
from ..core.rng import SplitMix64
from .base import Bot, sample_chance
from .levels import make_bot, parse_seat_spec

#: Where a game is cut whose rules set no bound on its length (``Game.max_game_length()`` is
#: ``None``). The longest game measured that ended by the rules was 1,083 actions (the level
#: ladder, between searches, four players; random agents: 388), and the ladder itself cuts at
#: 2,000; a game that loops for ever (jumps that exchange a piece back and forth reset a
#: no-progress counter) then costs seconds, not the minutes of 100,000 actions.
DEFAULT_MAX_ACTIONS = 2_000


def max_actions_for(game: Game) -> int:
    """Actions after which ``match``, ``tournament`` and ``tune`` cut a game of ``game`` (the one
    place that says so): the rules' own bound where they set one (``Game.max_game_length()``,
    plus ``Game.max_chance_nodes()`` for chance outcomes, which count as actions here), which a
    game then never reaches; else :data:`DEFAULT_MAX_ACTIONS`."""
    bound = game.max_game_length()
    return DEFAULT_MAX_ACTIONS if bound is None else bound + game.max_chance_nodes()


def bot_seed(game_seed: int, seat: int) -> int:
    """Seed (0 ≤ seed < 2**64) of the bot at ``seat`` in the game played with ``game_seed``.

    Mixed by SplitMix64, so neighbouring games and seats get unrelated generators.
    """
    return SplitMix64((game_seed + 0x632BE59BD9B4E019 * (seat + 1)) & ((1 << 64) - 1)).next()


def seat_bots(game: Game, specs: Sequence[str], game_seed: int) -> list[Bot]:
    """Fresh bots for one game: ``specs[p]`` at seat ``p``, seeded by :func:`bot_seed`.

    Raises:
        ValueError: a bad spec, or ``human``.
    """
    bots: list[Bot] = []
    for seat, spec in enumerate(specs):
        bot = make_bot(spec, game, seed=bot_seed(game_seed, seat))
        if bot is None:
            raise ValueError(f"seat spec {spec!r}: a match needs bots, not humans")
        bots.append(bot)
    return bots


class BotError(RuntimeError):
    """A bot answered an action that is not legal (a bug in the bot)."""


def play_game(game: Game, bots: Sequence[Bot], seed: int | None = None,
              max_actions: int | None = None,
              initial: State | None = None) -> tuple[State, list[int], State, list[float]]:
    """Play one game between ``bots`` (``bots[p]`` plays seat ``p``).

    Args:
        game: the game.
        bots: one bot per seat (``game.num_players`` of them); each is ``restart()``-ed first.
        seed: the game's seed (games with chance; ignored otherwise).
        max_actions: stop a game still running after this many actions (it is then unfinished);
            default :func:`max_actions_for`.
        initial: start from this state instead of a new game (it is cloned, not mutated).
    Returns:
        (initial state, actions played, final state, mean seconds per action for each seat).
    Raises:
        ValueError: wrong number of bots. BotError: a bot answered an illegal action.
    """
    cap = max_actions_for(game) if max_actions is None else max_actions
    initial, actions, state, spent, moves = _play(game, bots, seed, cap, initial)
    per_move = [spent[p] / moves[p] if moves[p] else 0.0 for p in range(len(bots))]
    return initial, actions, state, per_move


def _play(game: Game, bots: Sequence[Bot], seed: int | None, max_actions: int,
          initial: State | None) -> tuple[State, list[int], State, list[float], list[int]]:
    n = game.num_players
    if len(bots) != n:
        raise ValueError(f"{game.name} needs {n} bots, got {len(bots)}")
    if initial is None:
        initial = game.new_initial_state(seed=seed if game.has_chance else None)
    state = initial.clone()
    for bot in bots:
        bot.restart()
    chance_rng = random.Random(seed)
    actions: list[int] = []
    spent = [0.0] * n
    moves = [0] * n
    clock = time.perf_counter
    while not state.is_terminal() and len(actions) < max_actions:
        player = state.current_player()
        if player == CHANCE:
            action = sample_chance(state, chance_rng)
        else:
            bot = bots[player]
            start = clock()
            action = bot.step(state)
            spent[player] += clock() - start
            moves[player] += 1
            if action not in state.legal_actions():
                raise BotError(f"bot {bot.name} at seat {player} answered illegal action {action!r} "
                               f"in {state.to_text()!r}")
        state.apply_action(action)
        actions.append(action)
    return initial, actions, state, spent, moves


@dataclass
class SpecStats:
    """Results of one spec over a match (from its own seat's point of view)."""

    spec: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    unfinished: int = 0
    seconds: float = 0.0   # thinking time, summed
    moves: int = 0         # actions chosen

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses + self.unfinished

    @property
    def score(self) -> float:
        """(wins + (draws + unfinished) / 2) / games, 0 without games: a game cut at the cap
        scores a draw, as in a tournament."""
        return (self.wins + 0.5 * (self.draws + self.unfinished)) / self.games if self.games else 0.0

    @property
    def seconds_per_move(self) -> float:
        return self.seconds / self.moves if self.moves else 0.0


@dataclass
class MatchResult:
    """What ``run_match`` measured.

    Attributes:
        game: the game's name.
        specs: the canonical seat specs, in the order given.
        stats: one :class:`SpecStats` per spec, same order (spec text may repeat: ``random`` vs ``random``).
        plies: actions played in each game.
        records: one :class:`Record` per game (``players`` in seat order).
        seats: for each game, the spec index at each seat.
        max_actions: the cap at which a game was cut (:func:`max_actions_for` unless given).
    """

    game: str
    specs: list[str]
    stats: list[SpecStats]
    plies: list[int] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)
    seats: list[list[int]] = field(default_factory=list)
    max_actions: int = DEFAULT_MAX_ACTIONS

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def unfinished(self) -> int:
        """Games cut at :attr:`max_actions` (unfinished)."""
        return sum(1 for record in self.records if record.termination == "abandoned")

    @property
    def mean_plies(self) -> float:
        return sum(self.plies) / len(self.plies) if self.plies else 0.0


def seating(num_specs: int, game_index: int) -> list[int]:
    """Spec index at each seat in game ``game_index``: spec j sits at seat (j + i) % n."""
    seats = [0] * num_specs
    for j in range(num_specs):
        seats[(j + game_index) % num_specs] = j
    return seats


def run_match(game: Game, specs: Sequence[str], games: int, seed: int = 0,
              on_game_done: Callable[[int, Record, MatchResult], None] | None = None,
              max_actions: int | None = None) -> MatchResult:
    """Play ``games`` games between the bots of ``specs`` (one spec per seat).

    Game ``i`` uses seed ``seed + i`` (the deal of games with chance, and the bots' seeds:
    :func:`bot_seed`) and seats spec ``j`` at seat ``(j + i) % n``. With deterministic budgets
    a match replays exactly, and its games still differ from each other.

    Args:
        on_game_done: called after each game with (game index, its record, results so far).
        max_actions: cut a game still running after this many actions (unfinished); default
            :func:`max_actions_for`.
    Raises:
        ValueError: a bad spec, ``human`` in a spec, or the wrong number of specs.
    """
    n = game.num_players
    canonical = [parse_seat_spec(s, game) for s in specs]
    if len(canonical) != n:
        raise ValueError(f"{game.name} needs {n} seat specs, got {len(canonical)}")
    if games < 0:
        raise ValueError(f"number of games must be >= 0, got {games}")
    seat_bots(game, canonical, seed)  # reject bad specs before the first game
    cap = max_actions_for(game) if max_actions is None else max_actions
    result = MatchResult(game.name, canonical, [SpecStats(s) for s in canonical], max_actions=cap)
    for i in range(games):
        seats = seating(n, i)
        bots = seat_bots(game, [canonical[j] for j in seats], seed + i)
        initial, actions, final, spent, moves = _play(game, bots, seed + i, cap, None)
        returns = final.returns() if final.is_terminal() else None
        for seat, j in enumerate(seats):
            stats = result.stats[j]
            if returns is None:
                stats.unfinished += 1
            elif returns[seat] > 0:
                stats.wins += 1
            elif returns[seat] < 0:
                stats.losses += 1
            else:
                stats.draws += 1
        for seat, j in enumerate(seats):
            result.stats[j].moves += moves[seat]
            result.stats[j].seconds += spent[seat]
        # each turn as the game's notation lists it (a bot takes a turn's discs in its own order)
        record = Record.from_play(game, initial, canonical_actions(initial, actions),
                                  players=[canonical[j] for j in seats],
                                  tags={"event": "match", "round": str(i + 1)},
                                  termination=None if returns is not None else "abandoned")
        result.plies.append(len(actions))
        result.records.append(record)
        result.seats.append(seats)
        if on_game_done is not None:
            on_game_done(i, record, result)
    return result
