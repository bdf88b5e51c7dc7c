"""Seat specs and strength levels (DESIGN.md "Players, seats and levels").

SPEC grammar (case-insensitive, surrounding spaces ignored)::

    human                       a person (make_bot returns None)
    random                      level 1
    greedy                      level 2: best evaluation after one action / one turn
    mcts[:BUDGET]               UCT with random playouts
    ismcts[:BUDGET]             information-set MCTS (hidden information)
    alphabeta[:BUDGET]          iterative-deepening alpha-beta (two players)
    turns[:BUDGET]              alpha-beta over whole turns (two players, multi-action turns)
    paranoid[:BUDGET]           paranoid alpha-beta: the others as one coalition (any number of players)
    NAME                        a bot the game brings (its description's ``bots``, e.g. ``rule``)
    level:N                     N = 1…6, see LEVELS (above a game's top level: its top level)
    SPEC+w=W1/W2/…              greedy or a search (above) reading the game's evaluator with these
                                weights, one per term of its ``GameDescription.tuning``, e.g.
                                ``alphabeta:d3+w=0.8/0.15/0.02/-0.01`` (``abstracta tune``)

    BUDGET = SECONDS            e.g. 0.5 (CPU seconds of the searching thread, > 0, at most 3600)
           | iN                 N iterations (mcts, ismcts): deterministic with a seed
           | dN                 search depth N in actions (alphabeta, paranoid) or in turns (turns):
                                deterministic

Weights are finite numbers separated by ``/`` (commas separate the specs of a tournament).
Without a budget the searches think ``DEFAULT_SECONDS`` per action. Iteration and depth
budgets give the same moves for the same seed; time budgets depend on the machine.

What each level *is* for a game (which bot, playout cap, evaluator) is declared by the game
(``GameDescription.levels``), and how many distinct levels it has (six, or fewer: the
Fibonacci card game has four); this module keeps only the seconds per level (:data:`LEVELS`).
A level above a game's top reads as its top level (a stored game or seat that names level 6
of a four-level game plays level 4), said once per process (:func:`read_level`).
"""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass, replace
from typing import Any, Sequence

from ..core.description import Search, check_search
from ..core.game import Game, State
from ..core.options import ascii_digits
from .alphabeta import AlphaBetaBot
from .base import Bot, Budget
from .greedy import GreedyBot
from .ismcts import ISMCTSBot
from .mcts import MCTSBot
from .paranoid import ParanoidBot
from .random_bot import RandomBot
from .turns import TurnSearchBot

DEFAULT_SECONDS = 1.0
MAX_SECONDS = 3600.0
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Level:
    """One row of the levels table: the thinking time of a level.

    Attributes:
        seconds: budget per action, ``None`` for budget-free bots (random, greedy).
        description: what the level is, for people.
    """

    seconds: float | None
    description: str


#: The seconds per action of each level; the search itself comes from the game's description.
LEVELS: dict[int, Level] = {
    1: Level(None, "random legal actions"),
    2: Level(None, "greedy: best evaluation after one action (one turn for multi-action turns)"),
    3: Level(0.2, "a quick search (MCTS, IS-MCTS with hidden information, or the game's choice), 0.2 s per action"),
    4: Level(0.5, "the strongest search for the game, 0.5 s per action"),
    5: Level(1.5, "the strongest search for the game, 1.5 s per action"),
    6: Level(4.0, "the strongest search for the game, 4 s per action"),
}
DEFAULT_ROLLOUT_CAP = 400

#: Fixed budgets standing in for the seconds of levels 3–6 where an episode must replay from its
#: seed (the research environments, issue 45): (iterations of MCTS and IS-MCTS, depth in actions
#: of alpha-beta and paranoid, depth in turns of the turn search). Deterministic, so the same
#: seed gives the same moves on any machine; their strength is near, not equal to, the level's.
FIXED_BUDGETS: dict[int, tuple[int, int, int]] = {3: (200, 2, 1), 4: (500, 3, 1), 5: (1500, 4, 2), 6: (4000, 5, 2)}

SEARCHES = ("mcts", "ismcts", "alphabeta", "turns", "paranoid")
#: the searches whose budget is seconds or a depth (the others take seconds or iterations)
DEPTH_SEARCHES = ("alphabeta", "turns", "paranoid")
TWO_PLAYER_SEARCHES = ("alphabeta", "turns")
SIMPLE = ("human", "random", "greedy")
#: the specs that read an evaluator and so may carry weights (``+w=…``)
WEIGHTED = ("greedy",) + SEARCHES
WEIGHTS_MARK = "+w="

_NUMBER = re.compile(r"^(\d+(\.\d*)?|\.\d+)$")
_WORD = re.compile(r"^[a-z][a-z0-9_]*$")


#: Revision of each shared bot's behaviour. Bump a bot's number when a change alters the moves it
#: plays (search, pruning, evaluation order — not a refactor): ladder results measured with an
#: older revision then stop counting (:func:`level_fingerprint`, ``benchmarks/levels.py``).
#: A bot a game declares (``GameDescription.bots``) carries its own ``revision`` attribute.
#: Revision 2 of the time-budgeted searches: seconds became CPU seconds of the searching thread
#: (wall-clock levels measured on a loaded machine were weakened players).
#: Revision 2 of the turn search: chance between turns became explicit chance nodes
#: (abstracta.ai.turns), a change of play only in games with in-game chance, so only there.
#: Revision 3 of alpha-beta: a position that occurred before is a draw where it recurs, and
#: values resting on one stay out of its table (issue 46), a change of play only in games with a
#: repetition rule (``State.repetition_count``), so only there.
BOT_REVISIONS: dict[str, int] = {"random": 1, "greedy": 1, "mcts": 2, "ismcts": 2, "alphabeta": 3, "turns": 2,
                                 "paranoid": 2}


def _repeats(game: Game) -> bool:
    """Whether ``game``'s states count repetitions (its rules have a repetition draw)."""
    return type(game.new_initial_state()).repetition_count is not State.repetition_count


#: Revisions that changed a bot's play only in some games: (bot, the games, revision before).
_REVISION_SCOPE = {"turns": (lambda game: game.max_chance_outcomes() > 0, 1), "alphabeta": (_repeats, 2)}


def bot_revision(game: Game, bot: str) -> int:
    """The revision of the shared bot ``bot`` as it plays ``game`` (:data:`BOT_REVISIONS`)."""
    revision = BOT_REVISIONS.get(bot, 0)
    scope = _REVISION_SCOPE.get(bot)
    if scope is not None and not scope[0](game):
        return scope[1]
    return revision


def _callable_name(value: Any) -> Any:
    if callable(value):
        name = f"{getattr(value, '__module__', '?')}.{getattr(value, '__qualname__', repr(value))}"
        # a tuned evaluator (GameDescription.tuning), or a method of an object that reads one
        owner = getattr(value, "__self__", None)
        weights = getattr(value, "weights", getattr(owner, "weights", None))
        if weights is not None:
            name = f"{name}{list(weights)}"
        # what a method's object reads outside the code (a game's endgame tables on disk)
        reads = getattr(owner, "reads", None)
        return name if reads is None else f"{name}+{reads}"
    return value


#: :class:`Search` fields added after ladder results were recorded: left out of a fingerprint
#: while at their default, so adding a field does not make every measured level a stranger.
_LATER_FIELDS = ("max_iterations", "extend", "determinize", "turn_widths", "turn_depth_step", "max_depth",
                 "turn_beam", "reductions", "contempt", "max_nodes")


def level_fingerprint(game: Game, level: int) -> str:
    """A short stable digest of what level ``level`` plays in ``game``: its declared
    :class:`Search` (callables by qualified name, an evaluator built from weights with its
    weights: :meth:`~abstracta.core.description.Tuning.make`), its seconds, and the revision of its bot
    (:data:`BOT_REVISIONS`, or the ``revision`` attribute of a game's own bot factory). Two
    measurements with equal fingerprints measured the same player."""
    import hashlib
    import json

    level = read_level(game, level)
    search = level_search(game, level)
    declared = search.__dataclass_fields__
    fields = {name: _callable_name(getattr(search, name)) for name in declared
              if not (name in _LATER_FIELDS and getattr(search, name) == declared[name].default)}
    factory = game.description.bots.get(search.bot)
    revision = getattr(factory, "revision", 0) if factory is not None else bot_revision(game, search.bot)
    text = json.dumps([fields, LEVELS[level].seconds, revision], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


_SAID: set[tuple[str, int]] = set()


def read_level(game: Game, level: int) -> int:
    """The level ``level`` plays as in ``game``: itself, or the game's top level where the game
    declares fewer (the first time in a process a game's level is read so, a warning says it)."""
    top = game.description.top_level
    if level <= top:
        return level
    if (game.name, level) not in _SAID:
        _SAID.add((game.name, level))
        log.warning("%s has %d levels: level %d plays as level %d", game.name, top, level, top)
    return top


def level_search(game: Game, level: int) -> Search:
    """The search level ``level`` runs for ``game`` (from its description; a level above its
    top: the top level's, :func:`read_level`)."""
    return game.description.levels[read_level(game, level)]


def describe_level(game: Game, level: int) -> dict[str, Any]:
    """What level ``level`` plays in ``game``, for people and tools (``abstracta games --json``).

    Returns:
        ``{"search": bot name, "seconds": the level's CPU seconds an action (:data:`LEVELS`; None
        for levels 1-2, and spent only by the searches: a greedy or a game's own bot at a timed
        level thinks no longer for them), "fingerprint": see :func:`level_fingerprint`}`` plus,
        where the level sets them, ``"max_playouts"`` (MCTS held below its time), ``"rollout_cap"``
        (playout length in actions, for the tree searches), ``"determinize"`` (IS-MCTS: the
        qualified name of the function that deals its hidden state), ``"turn_widths"`` ([root,
        reply] candidate turns), ``"turn_depth_step"`` (2: even depths only), ``"turn_beam"``
        (the partial turns the turn search's beam keeps), ``"max_depth"`` (alpha-beta held to
        that many actions), ``"max_nodes"`` (alpha-beta held to about that many positions an
        action), ``"reductions"`` (alpha-beta's late move reductions, in actions),
        ``"contempt"`` (alpha-beta: what a draw costs it), ``"extend"`` (greedy),
        ``"turn_extension"`` (alpha-beta), ``"oracle"`` (the qualified name of the function it
        asks first) and ``"evaluator"`` (the qualified name, with its weights if tuned).
    Raises:
        KeyError: ``level`` is not 1–6 (above the game's top level: the top level's answer).
    """
    LEVELS[level]  # noqa: B018  # KeyError outside 1-6
    level = read_level(game, level)
    search = level_search(game, level)
    out: dict[str, Any] = {"search": search.bot, "seconds": LEVELS[level].seconds,
                           "fingerprint": level_fingerprint(game, level)}
    if search.max_iterations is not None:
        out["max_playouts"] = search.max_iterations
    if search.bot in ("mcts", "ismcts"):
        out["rollout_cap"] = rollout_cap(game, search)
    if search.determinize is not None:
        out["determinize"] = _callable_name(search.determinize)
    if search.turn_widths is not None:
        out["turn_widths"] = list(search.turn_widths)
    if search.max_depth is not None:
        out["max_depth"] = search.max_depth
    if search.max_nodes is not None:
        out["max_nodes"] = search.max_nodes
    if search.reductions:
        out["reductions"] = search.reductions
    if search.contempt:
        out["contempt"] = search.contempt
    if search.turn_depth_step != 1:
        out["turn_depth_step"] = search.turn_depth_step
    if search.turn_beam:
        out["turn_beam"] = search.turn_beam
    if search.extend is not None:
        out["extend"] = search.extend
    if search.turn_extension:
        out["turn_extension"] = search.turn_extension
    if search.oracle is not None:
        out["oracle"] = _callable_name(search.oracle)
    if search.bot != "random":
        evaluator = search.evaluator or game.description.evaluator
        if evaluator is not None:
            out["evaluator"] = _callable_name(evaluator)
    return out


def top_search(game: Game) -> Search:
    """The search of ``game``'s top level (6, or fewer where the game declares fewer)."""
    d = game.description
    return d.levels[d.top_level]


def strongest_search(game: Game) -> str:
    """The bot of ``game``'s top level (``"alphabeta"``, ``"mcts"``, ``"ismcts"`` …): the one
    levels 4–6 share, except where a game's own bot plays the top levels (a solved board's
    table at 5–6)."""
    return top_search(game).bot


def rollout_cap(game: Game, search: Search | None = None) -> int:
    """Playout length cap (actions) of an MCTS bot for ``game``: the given search's, else the one
    of the game's strongest level, else :data:`DEFAULT_ROLLOUT_CAP`."""
    for candidate in (search, top_search(game), game.description.levels[3]):
        if candidate is not None and candidate.rollout_cap is not None:
            return candidate.rollout_cap
    return DEFAULT_ROLLOUT_CAP


def _parse_budget(kind: str, text: str, spec: str) -> Budget:
    text = text.strip()
    if not text:
        raise ValueError(f"seat spec {spec!r}: nothing after ':' (expected seconds, e.g. {kind}:0.5)")
    head, rest = text[0], text[1:]
    if head in "id" and ascii_digits(rest):
        if head == "i" and kind in DEPTH_SEARCHES:
            raise ValueError(f"seat spec {spec!r}: {kind} takes seconds or a depth dN, not iterations")
        if head == "d" and kind not in DEPTH_SEARCHES:
            raise ValueError(f"seat spec {spec!r}: {kind} takes seconds or iterations iN, not a depth")
        value = int(rest)
        if value < 1:
            raise ValueError(f"seat spec {spec!r}: the {'iterations' if head == 'i' else 'depth'} must be at least 1")
        return Budget(iterations=value) if head == "i" else Budget(depth=value)
    if not _NUMBER.match(text):
        extra = "iN (iterations)" if kind not in DEPTH_SEARCHES else "dN (depth)"
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


def seat_spec_grammar(game: Game | None = None) -> str:
    """The SPEC grammar in one line, the text of the ``--seat`` help and of a refused spec's error.

    With ``game`` it names that game's own bots (its description's ``bots``); without, it says
    that a game may bring some.
    """
    if game is None:
        own = ", a bot the game brings by its name (e.g. table, rule)"
    else:
        own = "".join(f", {name}" for name in game.description.bots)
    return ("human, random, greedy, mcts[:SECONDS|:iN], ismcts[:SECONDS|:iN], alphabeta[:SECONDS|:dN], "
            f"turns[:SECONDS|:dN], paranoid[:SECONDS|:dN]{own} or level:N "
            f"(1-{max(LEVELS) if game is None else game.description.top_level}); "
            "SECONDS are CPU seconds (e.g. 0.5), iN N iterations, dN depth N; greedy and the searches "
            "may end in +w=W1/W2/... (one weight per term of the game's evaluator)")


def _expected(game: Game | None) -> str:
    return f"expected {seat_spec_grammar(game)}"


def format_weights(weights: Sequence[float]) -> str:
    """The ``+w=…`` suffix of a seat spec for ``weights`` (shortest text that reads back the
    same floats): ``(0.8, 0.15)`` → ``"+w=0.8/0.15"``."""
    return WEIGHTS_MARK + "/".join(repr(float(w)) for w in weights)


def spec_weights(spec: str) -> tuple[float, ...] | None:
    """The weights a seat spec names (``alphabeta:d3+w=0.8/0.15`` → ``(0.8, 0.15)``), else ``None``.

    Raises:
        ValueError: a weight that is not a finite number, or none.
    """
    if not isinstance(spec, str):
        raise ValueError(f"seat spec must be text, got {spec!r}")
    norm = spec.strip().lower()
    head, sep, text = norm.partition(WEIGHTS_MARK)
    if not sep:
        return None
    parts = text.split("/")
    weights = []
    for part in parts:
        part = part.strip()
        try:
            value = float(part)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):  # also '' and words: float() refused them
            raise ValueError(f"seat spec {spec!r}: weight {part!r} is not a finite number (weights are numbers "
                             f"separated by '/', e.g. {head or 'alphabeta:d3'}+w=0.8/0.15)")
        weights.append(value)
    return tuple(weights)


def parse_seat_spec(spec: str, game: Game | None = None) -> str:
    """Validate a seat SPEC and return its canonical form (``"MCTS:0.50"`` → ``"mcts:0.5"``).

    With ``game``, a plain word must be one of its own bots (description ``bots``), and weights
    (``+w=…``) must be one per term of its evaluator (``GameDescription.tuning``); without, any
    plain word and any number of weights pass here and :func:`make_bot` checks them.

    Raises:
        ValueError: naming the spec and what is wrong with it.
    """
    weights = spec_weights(spec)
    if weights is not None:
        base = spec.strip().lower().partition(WEIGHTS_MARK)[0]
        kind = _split(base)[0]
        if kind not in WEIGHTED:
            raise ValueError(f"seat spec {spec!r}: only greedy and the searches ({', '.join(SEARCHES)}) read "
                             f"an evaluator, so only they take weights (+w=…)")
        if game is not None:
            tuning = game.description.tuning
            if tuning is None:
                raise ValueError(f"seat spec {spec!r}: {game.name} declares no weighted evaluator "
                                 "(GameDescription.tuning)")
            if len(weights) != len(tuning.names):
                raise ValueError(f"seat spec {spec!r}: {len(weights)} weights for {len(tuning.names)} terms "
                                 f"({'/'.join(tuning.names)})")
        return parse_seat_spec(base, game) + format_weights(weights)
    kind, arg, norm = _split(spec)
    if not kind:
        raise ValueError(f"empty seat spec {spec!r} ({_expected(game)})")
    if kind not in SIMPLE and kind not in SEARCHES and kind != "level" and arg is None and _WORD.match(kind):
        if game is not None and kind not in game.description.bots:
            raise ValueError(f"unknown seat spec {spec!r}: {game.name} has no bot of that name ({_expected(game)})")
        return kind
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
        if not ascii_digits(arg.strip()) or int(arg) not in LEVELS:
            raise ValueError(f"seat spec {spec!r}: level must be 1 to {max(LEVELS)}, got {arg.strip()!r}")
        return f"level:{int(arg)}"
    raise ValueError(f"unknown seat spec {spec!r} ({_expected(game)})")


def _as_spec(search: Search) -> Search:
    """A level's search as a seat spec naming its bot plays it: every action to full depth and a
    draw worth 0, as many positions as its budget allows (late move reductions, contempt and a
    node cap are a level's choice, not the bot's)."""
    return replace(search, reductions=0, contempt=0.0, max_nodes=None)


def _search_bot(kind: str, game: Game, budget: Budget, seed: int | None, name: str,
                search: Search | None = None) -> Bot:
    evaluator = search.evaluator if search is not None else None
    if kind == "mcts":
        return MCTSBot(game, budget, seed=seed, max_rollout_actions=rollout_cap(game, search), name=name,
                       evaluator=evaluator, max_iterations=search.max_iterations if search is not None else None)
    if kind == "ismcts":
        return ISMCTSBot(game, budget, seed=seed, max_rollout_actions=rollout_cap(game, search), name=name,
                         evaluator=evaluator, max_iterations=search.max_iterations if search is not None else None,
                         determinize=search.determinize if search is not None else None)
    if kind == "alphabeta":
        if search is None and top_search(game).bot == "alphabeta":
            # a plain alphabeta spec searches like the levels (their leaves, their evaluator)
            search = _as_spec(top_search(game))
        return AlphaBetaBot(game, budget, seed=seed, name=name, evaluator=evaluator,
                            turn_extension=search.turn_extension if search is not None else 0,
                            max_depth=search.max_depth if search is not None else None,
                            reductions=search.reductions if search is not None else 0,
                            contempt=search.contempt if search is not None else 0.0,
                            max_nodes=search.max_nodes if search is not None else None)
    if kind == "turns":
        widths = search.turn_widths if search is not None else None
        more: dict[str, int] = {} if widths is None else {"width": widths[0], "reply_width": widths[1]}
        if search is not None:
            more["depth_step"] = search.turn_depth_step
            more["beam"] = search.turn_beam
        return TurnSearchBot(game, budget, seed=seed, name=name, evaluator=evaluator, **more)
    if kind == "paranoid":
        if search is None and top_search(game).bot == "paranoid":
            search = top_search(game)
        return ParanoidBot(game, budget, seed=seed, name=name,
                           evaluator=search.evaluator if search is not None else None,
                           turn_extension=search.turn_extension if search is not None else 0,
                           max_depth=search.max_depth if search is not None else None)
    raise ValueError(f"{kind!r} is not a search (expected one of {', '.join(SEARCHES)})")


def _simple_bot(kind: str, game: Game, seed: int | None, name: str, search: Search | None = None) -> Bot:
    if kind == "random":
        return RandomBot(game, seed=seed, name=name)
    if kind == "greedy":
        extend = {"extend": search.extend} if search is not None and search.extend is not None else {}
        return GreedyBot(game, seed=seed, name=name, evaluator=search.evaluator if search else None, **extend)
    factory = game.description.bots.get(kind)
    if factory is None:
        own = ", ".join(game.description.bots) or "none"
        raise ValueError(f"seat spec {kind!r}: {game.name} has no bot of that name (its own bots: {own})")
    return factory(game, seed)


def make_bot(spec: str, game: Game, seed: int | None = None) -> Bot | None:
    """The bot a seat SPEC stands for in ``game``; ``None`` for ``human``.

    Args:
        spec: see the module docstring.
        game: the game the bot will play.
        seed: seed of the bot's generator (same seed and a deterministic budget → same moves).
    Raises:
        ValueError: a malformed spec, or one that does not fit the game (``alphabeta`` with more
            than two players, a bot name the game does not declare).
    """
    canonical = parse_seat_spec(spec, game)
    weights = spec_weights(canonical)
    if weights is not None:
        return _weighted_bot(canonical, weights, game, seed)
    kind, arg, _ = _split(canonical)
    if kind == "human":
        return None
    if kind in SEARCHES:
        budget = _parse_budget(kind, arg, canonical) if arg is not None else Budget(seconds=DEFAULT_SECONDS)
        if kind in TWO_PLAYER_SEARCHES and game.num_players != 2:
            raise ValueError(f"seat spec {spec!r}: {kind} plays two-player games only; "
                             f"{game.name} has {game.num_players} players")
        return _search_bot(kind, game, budget, seed, canonical)
    if kind != "level":
        bot = _simple_bot(kind, game, seed, kind)
        return bot
    return level_bot(game, int(arg), seed, name=canonical)


def level_bot(game: Game, level: int, seed: int | None = None, *, search: Search | None = None,
              budget: Budget | None = None, name: str | None = None) -> Bot:
    """The bot of level ``level`` in ``game`` (``make_bot("level:N")``), or that level with its
    declared :class:`Search` or its budget replaced (``benchmarks/ab_levels.py`` tries designs
    so).

    Args:
        search: the search to run instead of the declared one (same level, same oracle rules).
        budget: the budget instead of the level's seconds (a search only; ignored by greedy,
            random and a game's own bots).
        name: the bot's name (default ``level:N``).
    Raises:
        ValueError: the search needs a budget the level does not give, or plays two players only,
            or a replaced search sets a field its bot never reads (as a description refuses it).
    """
    level = read_level(game, level)
    if search is not None:
        check_search(search, f"{game.name}: level {level}")
    search = search or level_search(game, level)
    name = name or f"level:{level}"
    seconds = LEVELS[level].seconds
    if search.bot in SEARCHES:
        if budget is None:
            if seconds is not None:
                budget = Budget(seconds=seconds)
            elif search.bot not in DEPTH_SEARCHES and search.max_iterations is not None:
                # a level without seconds (1-2) may still be a search held to a few playouts
                budget = Budget(iterations=search.max_iterations)
            else:
                raise ValueError(f"{game.name}: level {level} declares the search {search.bot!r}, "
                                 "but that level has no time budget (nor max_iterations for MCTS)")
        if search.bot in TWO_PLAYER_SEARCHES and game.num_players != 2:
            raise ValueError(f"{game.name}: level {level} declares {search.bot} for {game.num_players} players")
        bot = _search_bot(search.bot, game, budget, seed, name, search)
    else:
        bot = _simple_bot(search.bot, game, seed, name, search)
        if hasattr(bot, "name"):
            try:
                bot.name = name
            except AttributeError:
                pass
    if search.oracle is not None:
        return OracleBot(bot, search.oracle, name)
    return bot


def fixed_budget(game: Game, level: int) -> Budget | None:
    """The fixed budget of level ``level`` (:data:`FIXED_BUDGETS`) for the search the game
    declares for it, or ``None`` where the level needs none (random, greedy, a game's own bot).
    A level above the game's top plays the top one (:func:`read_level`), at its budget."""
    level = read_level(game, level)
    search = level_search(game, level)
    if search.bot not in SEARCHES or level not in FIXED_BUDGETS:
        return None
    iterations, depth, turns = FIXED_BUDGETS[level]
    if search.bot == "turns":
        return Budget(depth=turns)
    return Budget(depth=depth) if search.bot in DEPTH_SEARCHES else Budget(iterations=iterations)


def fixed_level_bot(game: Game, level: int, seed: int | None = None) -> Bot:
    """Level ``level`` held to its fixed budget (:func:`fixed_budget`) instead of its seconds:
    the same seed plays the same moves (named ``level:N:fixed``)."""
    return level_bot(game, level, seed, budget=fixed_budget(game, level), name=f"level:{level}:fixed")


def is_reproducible(bot: Any) -> bool:
    """Whether ``bot`` (of :func:`make_bot`) plays the same moves for the same seed and
    positions: no time budget (a search's budget, an oracle's inner search)."""
    budget = getattr(bot, "budget", None)
    if budget is None and hasattr(bot, "inner"):
        budget = getattr(bot.inner, "budget", None)
    return budget is None or budget.deterministic


def _weighted_bot(canonical: str, weights: tuple[float, ...], game: Game, seed: int | None) -> Bot:
    """Greedy or a search on the game's evaluator with ``weights`` (the spec's ``+w=…``); a
    search keeps what the game's levels declare for it (playout cap, turn extension)."""

    tuning = game.description.tuning
    assert tuning is not None  # parse_seat_spec checked it
    evaluator = tuning.make(weights)
    kind, arg, _ = _split(canonical.partition(WEIGHTS_MARK)[0])
    if kind == "greedy":
        return _simple_bot(kind, game, seed, canonical, Search("greedy", evaluator=evaluator))
    budget = _parse_budget(kind, arg, canonical) if arg is not None else Budget(seconds=DEFAULT_SECONDS)
    if kind in TWO_PLAYER_SEARCHES and game.num_players != 2:
        raise ValueError(f"seat spec {canonical!r}: {kind} plays two-player games only; "
                         f"{game.name} has {game.num_players} players")
    declared = next((s for s in (top_search(game), game.description.levels[3]) if s.bot == kind), None)
    # the level-6 widths of the turn search stay out: a weighted spec differs from the plain
    # one (``turns:d1``, what tune verifies against) in its weights only
    search = (replace(_as_spec(declared), evaluator=evaluator, oracle=None, turn_widths=None)
              if declared is not None else Search(kind, evaluator=evaluator))
    return _search_bot(kind, game, budget, seed, canonical, search)


class OracleBot:
    """A level whose game knows perfect answers in some positions (``Search.oracle``, e.g.
    endgame tables): plays the oracle's action where it has one, else asks the search.

    Attributes:
        name: the seat spec (``level:6``).
        inner: the search used when the oracle has no answer.
        answered: actions the oracle chose since the last :meth:`restart`.
    """

    def __init__(self, inner: Bot, oracle, name: str):
        self.inner = inner
        self.oracle = oracle
        self.name = name
        self.answered = 0

    def step(self, state) -> int:
        action = self.oracle(state)
        if action is not None:
            self.answered += 1
            return action
        return self.inner.step(state)

    def restart(self) -> None:
        self.answered = 0
        if hasattr(self.inner, "restart"):
            self.inner.restart()
