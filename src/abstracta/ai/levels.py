"""Seat specs and strength levels (DESIGN.md "Players, seats and levels").

SPEC grammar (case-insensitive, surrounding spaces ignored)::

    human                       a person (make_bot returns None)
    random                      level 1
    greedy                      level 2: best game.evaluate after one action / one turn
    mcts[:BUDGET]               UCT with random playouts
    ismcts[:BUDGET]             information-set MCTS (hidden information)
    alphabeta[:BUDGET]          iterative-deepening alpha-beta (two players)
    rule                        FibonacciCardsRuleBot (fibonacci-cards only)
    level:N                     N = 1…6, see LEVELS

    BUDGET = SECONDS            e.g. 0.5 (wall clock, > 0, at most 3600)
           | iN                 N iterations (mcts, ismcts): deterministic with a seed
           | dN                 search depth N in actions (alphabeta): deterministic

Without a budget the searches think ``DEFAULT_SECONDS`` per action. Iteration and depth
budgets give the same moves for the same seed; time budgets depend on the machine.

The "strongest search for the game" of levels 4–6 comes from :data:`STRONGEST`, a small
table keyed by game name and options, to be revised after tournaments; :data:`ROLLOUT_CAPS`
sets per-game playout lengths of the MCTS bots.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..core.game import Game
from .base import Bot, Budget

DEFAULT_SECONDS = 1.0
MAX_SECONDS = 3600.0


@dataclass(frozen=True)
class Level:
    """One row of the levels table.

    Attributes:
        bot: ``"random"``, ``"greedy"``, ``"mcts"`` (IS-MCTS with hidden information) or
            ``"strongest"`` (per game, see :data:`STRONGEST`).
        seconds: budget per action, ``None`` for budget-free bots.
    """

    bot: str
    seconds: float | None
    description: str


LEVELS: dict[int, Level] = {
    1: Level("random", None, "random legal actions"),
    2: Level("greedy", None, "greedy: best evaluation after one action (one turn for multi-action turns)"),
    3: Level("mcts", 0.2, "MCTS (IS-MCTS with hidden information; see LEVEL3), 0.2 s per action"),
    4: Level("strongest", 0.5, "strongest search for the game, 0.5 s per action"),
    5: Level("strongest", 1.5, "strongest search for the game, 1.5 s per action"),
    6: Level("strongest", 4.0, "strongest search for the game, 4 s per action"),
}

#: (game name, options that must match, search) — first match wins; revise after tournaments.
STRONGEST: list[tuple[str, dict[str, Any], str]] = [
    ("fanorona", {}, "alphabeta"),
    ("nibble", {}, "alphabeta"),
    # measured: alpha-beta on a resampled draw pile beat IS-MCTS 4-0 at 0.5 s (both piles are
    # hidden from both players, so one resample loses little)
    ("fibonacci", {"variant": "cards"}, "alphabeta"),
    ("fibonacci", {}, "alphabeta"),            # standard and go
    ("fibonacci-cards", {}, "ismcts"),
    ("slide-checkers", {"players": 2}, "alphabeta"),
    ("slide-checkers", {}, "mcts"),            # 3 or 4 players
]

#: (game name, options that must match, playout cap in actions) for MCTS/IS-MCTS built here:
#: random Fibonacci games hardly ever end, so playouts stop early and ``game.evaluate`` scores them.
ROLLOUT_CAPS: list[tuple[str, dict[str, Any], int]] = [
    ("fibonacci", {}, 60),
    # Short playouts scored by the evaluator: with full random playouts MCTS at 0.2 s lost to
    # greedy (Nibble 1-3, Slide Checkers 1.5-2.5 over 4 games); capped at 12 it won 4-0 and 3.5-0.5.
    ("nibble", {}, 12),
    ("slide-checkers", {}, 12),
]

#: (game name, options that must match, search) replacing level 3's MCTS where measured weaker
#: than level 2: on Fibonacci MCTS at 0.2 s lost every game to greedy (0-4 with playout caps
#: 4, 12 and 60), while alpha-beta beats MCTS there (2-0 at 0.1 s).
LEVEL3: list[tuple[str, dict[str, Any], str]] = [
    ("fibonacci", {"variant": "standard"}, "alphabeta"),
    ("fibonacci", {"variant": "go"}, "alphabeta"),
    # cards: IS-MCTS at 0.2 s lost 0-4 to greedy, alpha-beta at 0.2 s drew 2-2
    ("fibonacci", {"variant": "cards"}, "alphabeta"),
]
DEFAULT_ROLLOUT_CAP = 400

SEARCHES = ("mcts", "ismcts", "alphabeta")
SIMPLE = ("human", "random", "greedy", "rule")

_NUMBER = re.compile(r"^(\d+(\.\d*)?|\.\d+)$")


def strongest_search(game: Game) -> str:
    """The search levels 4–6 use for ``game``: ``"alphabeta"``, ``"mcts"`` or ``"ismcts"``.

    From :data:`STRONGEST`; games not listed get IS-MCTS with hidden information, MCTS for
    more than two players, alpha-beta for two players when the game has an evaluator.
    """
    for name, options, search in STRONGEST:
        if name == game.name and all(game.options.get(k) == v for k, v in options.items()):
            if search == "alphabeta" and game.num_players != 2:
                continue
            return search
    if game.has_hidden_information:
        return "ismcts"
    if game.num_players != 2:
        return "mcts"
    if type(game).evaluate is not Game.evaluate:
        return "alphabeta"
    return "mcts"


def rollout_cap(game: Game) -> int:
    """Playout length cap (actions) the MCTS bots of :func:`make_bot` use for ``game``."""
    for name, options, cap in ROLLOUT_CAPS:
        if name == game.name and all(game.options.get(k) == v for k, v in options.items()):
            return cap
    return DEFAULT_ROLLOUT_CAP


def _parse_budget(kind: str, text: str, spec: str) -> Budget:
    text = text.strip()
    if not text:
        raise ValueError(f"seat spec {spec!r}: nothing after ':' (expected seconds, e.g. {kind}:0.5)")
    head, rest = text[0], text[1:]
    if head in "id" and rest.isdigit():
        if head == "i" and kind == "alphabeta":
            raise ValueError(f"seat spec {spec!r}: alphabeta takes seconds or a depth dN, not iterations")
        if head == "d" and kind != "alphabeta":
            raise ValueError(f"seat spec {spec!r}: {kind} takes seconds or iterations iN, not a depth")
        value = int(rest)
        if value < 1:
            raise ValueError(f"seat spec {spec!r}: the {'iterations' if head == 'i' else 'depth'} must be at least 1")
        return Budget(iterations=value) if head == "i" else Budget(depth=value)
    if not _NUMBER.match(text):
        extra = "iN (iterations)" if kind != "alphabeta" else "dN (depth)"
        raise ValueError(f"seat spec {spec!r}: budget {text!r} is not seconds (e.g. 0.5) or {extra}")
    seconds = float(text)
    if not 0 < seconds <= MAX_SECONDS:
        raise ValueError(f"seat spec {spec!r}: seconds must be > 0 and at most {MAX_SECONDS:g}, got {text}")
    return Budget(seconds=seconds)


def _split(spec: str) -> tuple[str, str | None, str]:
    if not isinstance(spec, str):
        raise ValueError(f"seat spec must be text, got {spec!r}")
    norm = spec.strip().lower()
    kind, sep, arg = norm.partition(":")
    kind = kind.strip()
    return kind, (arg if sep else None), norm


def parse_seat_spec(spec: str) -> str:
    """Validate a seat SPEC and return its canonical form (``"MCTS:0.50"`` → ``"mcts:0.5"``).

    Raises:
        ValueError: naming the spec and what is wrong with it.
    """
    kind, arg, norm = _split(spec)
    if not kind:
        raise ValueError(f"empty seat spec {spec!r} (expected human, random, greedy, mcts[:SECONDS], "
                         "alphabeta[:SECONDS], ismcts[:SECONDS], rule or level:N)")
    if kind in SIMPLE:
        if arg is not None:
            raise ValueError(f"seat spec {spec!r}: {kind} takes no ':' argument")
        return kind
    if kind in SEARCHES:
        if arg is None:
            return kind
        return f"{kind}:{_parse_budget(kind, arg, spec).text()}"
    if kind == "level":
        if arg is None or not arg.strip():
            raise ValueError(f"seat spec {spec!r}: level needs a number, e.g. level:3")
        if not arg.strip().isdigit() or int(arg) not in LEVELS:
            raise ValueError(f"seat spec {spec!r}: level must be 1 to {max(LEVELS)}, got {arg.strip()!r}")
        return f"level:{int(arg)}"
    raise ValueError(f"unknown seat spec {spec!r} (expected human, random, greedy, mcts[:SECONDS], "
                     "alphabeta[:SECONDS], ismcts[:SECONDS], rule or level:N)")


def _search_bot(kind: str, game: Game, budget: Budget, seed: int | None, name: str) -> Bot:
    if kind == "mcts":
        from .mcts import MCTSBot
        return MCTSBot(game, budget, seed=seed, max_rollout_actions=rollout_cap(game), name=name)
    if kind == "ismcts":
        from .ismcts import ISMCTSBot
        return ISMCTSBot(game, budget, seed=seed, max_rollout_actions=rollout_cap(game), name=name)
    from .alphabeta import AlphaBetaBot
    return AlphaBetaBot(game, budget, seed=seed, name=name)


def make_bot(spec: str, game: Game, seed: int | None = None) -> Bot | None:
    """The bot a seat SPEC stands for in ``game``; ``None`` for ``human``.

    Args:
        spec: see the module docstring.
        game: the game the bot will play.
        seed: seed of the bot's generator (same seed and a deterministic budget → same moves).
    Raises:
        ValueError: a malformed spec, or one that does not fit the game (``alphabeta`` with more
            than two players, ``rule`` outside fibonacci-cards).
    """
    canonical = parse_seat_spec(spec)
    kind, arg, _ = _split(canonical)
    if kind == "human":
        return None
    if kind == "random":
        from .random_bot import RandomBot
        return RandomBot(game, seed=seed)
    if kind == "greedy":
        from .greedy import GreedyBot
        return GreedyBot(game, seed=seed)
    if kind == "rule":
        if game.name != "fibonacci-cards":
            raise ValueError(f"seat spec 'rule' plays fibonacci-cards only, not {game.name}")
        try:
            from .rulebased import FibonacciCardsRuleBot
        except ImportError as exc:
            raise ValueError(f"seat spec 'rule': the rule-based bot is not available ({exc})") from None
        return FibonacciCardsRuleBot(game, seed)
    if kind in SEARCHES:
        budget = _parse_budget(kind, arg, canonical) if arg is not None else Budget(seconds=DEFAULT_SECONDS)
        if kind == "alphabeta" and game.num_players != 2:
            raise ValueError(f"seat spec {spec!r}: alphabeta plays two-player games only; "
                             f"{game.name} has {game.num_players} players")
        return _search_bot(kind, game, budget, seed, canonical)
    level = LEVELS[int(arg)]
    if level.bot == "random":
        from .random_bot import RandomBot
        return RandomBot(game, seed=seed, name=canonical)
    if level.bot == "greedy":
        from .greedy import GreedyBot
        return GreedyBot(game, seed=seed, name=canonical)
    assert level.seconds is not None
    if level.bot == "mcts":
        search = "ismcts" if game.has_hidden_information else "mcts"
        for name, options, override in LEVEL3:
            if name == game.name and all(game.options.get(k) == v for k, v in options.items()):
                search = override
    else:
        search = strongest_search(game)
    return _search_bot(search, game, Budget(seconds=level.seconds), seed, canonical)
