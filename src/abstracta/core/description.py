"""What a game declares about itself (DESIGN.md "One spine, five games").

A :class:`GameDescription` is built per game *instance* (options change it: Fibonacci's card
variant has chance and hidden information, the standard variant has neither), the way
OpenSpiel's ``GameType``/``GameInfo`` describe a game. Everything outside a game's package —
bots and levels, the CLI, benchmarks, the server and the browser — reads this description
instead of checking a game's name or comparing its methods with the base class.

Human-readable strings are :class:`Text` values: an English text with a key
(``"<game>.<field>"``) under which a translation can be looked up.

Examples:
    >>> from abstracta import load_game
    >>> d = load_game("fibonacci", variant="cards").description
    >>> d.chance, d.hidden_information, str(d.title)
    (True, True, 'Fibonacci')
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field, fields
from importlib.resources import files
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Protocol, Sequence

from .messages import format_message

if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path
    from importlib.resources.abc import Traversable

    from .diagrams import Diagram, Draw
    from .learned import LearnedValue
    from .lessons import Lesson

    from .game import Game, State

#: ``evaluator(state, player) -> float`` in [-1, 1]: heuristic value of a running position.
Evaluator = Callable[["State", int], float]
#: ``oracle(state) -> action | None``: the action perfect play chooses, where the game knows it.
Oracle = Callable[["State"], "int | None"]
#: ``factory(game, seed) -> bot``: a bot a game brings beside the shared ones (seat spec = its name).
BotFactory = Callable[["Game", "int | None"], Any]



@dataclass(frozen=True)
class Solution:
    """What a game's solver found (``abstracta solve``).

    Attributes:
        solved: the value below is proved for the start position.
        value: ``+1`` win, ``0`` draw, ``-1`` loss for the side to move at the start; ``None``
            when not solved.
        distance: turns to the end under perfect play (the winner as fast as possible, the
            loser as slowly); ``None`` for a draw or when not solved.
        positions: positions the analysis proved (every table entry it settled).
        details: further figures for people and ``--json`` (counts, seconds, what is missing),
            JSON-serialisable.
    """

    solved: bool
    value: int | None
    distance: int | None
    positions: int
    details: Mapping[str, Any] = field(default_factory=dict)


#: ``solver(progress) -> Solution``: solve this game instance; ``progress(text)`` reports steps.
Solver = Callable[[Callable[[str], None] | None], Solution]


class EndgameTables(Protocol):
    """Endgame tables a game can build and probe (``abstracta egtb``)."""

    def build(self, stones: int, directory: "Path | None" = None, *, executor: str = "serial",
              workers: int | None = None, ray_address: str | None = None,
              progress: Callable[[str], None] | None = None) -> Mapping[str, Any]:
        """Build every table with at most ``stones`` stones into ``directory`` (default: the
        user data directory) and return figures per table file (JSON-serialisable).
        ``executor``/``workers``/``ray_address`` as in :func:`abstracta.executors.map_unordered`
        (``ValueError`` for a bad one, ``ImportError`` for ``ray`` without Ray)."""
        ...

    def directory(self) -> "Path":
        """The default directory of the tables."""
        ...

    def probe(self, state: "State", directory: "Path | None" = None) -> Mapping[str, Any] | None:
        """``{"value": +1/0/-1, "distance": turns or None, "best": action string}`` for the
        side to move in ``state`` by the tables, or ``None`` when they do not cover it."""
        ...


@dataclass(frozen=True)
class Tuning:
    """A game's evaluator as named terms times weights (``abstracta tune``, issue 18 §4).

    For a running position the evaluator is ``squash(sum(w[i] * terms(state, player)[i]))``
    (up to rounding; terminal positions give their result), so self-play can fit the weights
    (Texel-style logistic regression, :mod:`abstracta.ai.tune`) and a tournament can try them.

    Attributes:
        names: one short name per term (``"material"``, ``"mobility"`` …).
        weights: the default weights, one per term: ``evaluator(weights)`` returns exactly what
            the game's own evaluator returns.
        terms: ``terms(state, player) -> tuple[float, ...]``: the terms of a running position
            from ``player``'s view, or ``None`` where the evaluator gives a fixed value instead
            (e.g. no opponent left); each term is a player-relative number (a difference).
        evaluator: ``evaluator(weights) -> Evaluator`` with those weights (any finite floats).
        squash: maps the weighted sum into the evaluator's range (``tanh``, a clamp …).
        search: the seat spec of a cheap deterministic search that reads this evaluator (a depth
            or iteration budget, e.g. ``"alphabeta:d2"``): the tuner's default for self-play
            and for the verification tournament.
    """

    names: tuple[str, ...]
    weights: tuple[float, ...]
    terms: Callable[["State", int], "tuple[float, ...] | None"]
    evaluator: Callable[[tuple[float, ...]], Evaluator]
    squash: Callable[[float], float]
    search: str

    def __post_init__(self) -> None:
        if len(self.names) != len(self.weights) or not self.names:
            raise ValueError(f"tuning: {len(self.names)} term names for {len(self.weights)} weights")

    def make(self, weights: "Sequence[float]") -> Evaluator:
        """The evaluator with ``weights``; it carries them as its ``weights`` attribute (level
        fingerprints hash them).

        Raises:
            ValueError: a wrong number of weights or one that is not a finite number.
        """
        ws = tuple(float(w) for w in weights)
        if len(ws) != len(self.names):
            raise ValueError(f"{len(ws)} weights given; this evaluator has {len(self.names)} terms "
                             f"({', '.join(self.names)})")
        bad = [w for w in ws if not math.isfinite(w)]
        if bad:
            raise ValueError(f"weights must be finite numbers, got {bad[0]!r}")
        return TunedEvaluator.of(self.evaluator, ws)


class TunedEvaluator(functools.partial):
    """An evaluator with weights (:meth:`Tuning.make`): the factory's function, called through a
    ``functools.partial`` (C: no Python frame added), that pickles as ``(factory, weights)``.

    A game's factory returns a closure over its weights, which ``pickle`` cannot name, so a bot
    holding one could not be handed to another process (multiprocessing, Ray, a pickled
    Gymnasium environment). It keeps the closure's name (``functools.update_wrapper``) and
    ``weights``, so level fingerprints read it as they read the closure.
    """

    __slots__ = ()

    @classmethod
    def of(cls, factory: Callable[[tuple[float, ...]], Evaluator], weights: tuple[float, ...]) -> "TunedEvaluator":
        fn = cls(factory(weights))
        functools.update_wrapper(fn, fn.func)
        fn.factory = factory  # type: ignore[attr-defined]
        fn.weights = weights  # type: ignore[attr-defined]
        return fn

    def __reduce__(self) -> tuple:
        return TunedEvaluator.of, (self.factory, self.weights)  # type: ignore[attr-defined]

    def __copy__(self) -> "TunedEvaluator":
        return self  # immutable

    def __deepcopy__(self, memo: dict) -> "TunedEvaluator":
        return self


#: The bots every game can use; a game may add its own (:attr:`GameDescription.bots`).
SHARED_BOTS = ("random", "greedy", "mcts", "ismcts", "alphabeta", "paranoid")
#: Strength levels 1..6 (their seconds per action are in :data:`abstracta.ai.levels.LEVELS`); a
#: game declares how many of them are distinct (:attr:`GameDescription.levels`: 1 … its top).
LEVEL_NUMBERS = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True, slots=True)
class Text:
    """A string for people, with the key a translation catalogue files it under.

    ``str(text)`` is the English text.
    """

    key: str
    en: str

    def __str__(self) -> str:
        return self.en


def texts(namespace: str) -> Callable[[str, str], Text]:
    """A maker of :class:`Text` values keyed ``"<namespace>.<key>"``:
    ``T = texts("fanorona"); T("title", "Fanorona")``."""

    def make(key: str, en: str) -> Text:
        return Text(f"{namespace}.{key}", en)

    return make


@dataclass(frozen=True, slots=True)
class Search:
    """The search one strength level runs for a game. A field only some bots read
    (:data:`ONE_BOT_FIELDS`, ``reductions``, ``contempt``) set on another bot is refused by the
    description (ValueError): the level would claim a search it never runs.

    Attributes:
        bot: ``"random"``, ``"greedy"``, ``"mcts"``, ``"ismcts"``, ``"alphabeta"``,
            ``"paranoid"`` or a bot the game declares in :attr:`GameDescription.bots`.
        rollout_cap: MCTS/IS-MCTS playout length in actions, after which the evaluator scores
            the playout; ``None``: playouts run to the end of the game (capped at 400 actions).
        evaluator: the heuristic the search reads (greedy, alpha-beta, capped playouts);
            ``None``: the game's own :attr:`GameDescription.evaluator`.
        oracle: ``oracle(state) -> action | None``: a perfect answer where the game knows one
            (endgame tables); the bot plays it instead of searching, and searches when it is
            ``None``.
        turn_extension: alpha-beta only: at the depth limit, a turn still in progress with at
            most this many legal actions (a capture chain) is searched to its end before the
            evaluator reads it; 0: evaluate where the depth ends.
        max_iterations: MCTS and IS-MCTS only: at most this many playouts an action within the
            level's seconds, for a level meant to stay weaker than its time would make it;
            ``None``: as many as its time allows.
        extend: greedy only: how many of the best actions that keep a turn going are completed
            to the turn's end before comparing; 0: every action is judged by the position it
            leads to, the turn planned no further; ``None``: the greedy bot's default.
        determinize: IS-MCTS only: ``determinize(state, observer, rng) -> state``, the full
            state each iteration searches (one consistent with what ``observer`` knows, e.g. a
            deal that also uses what the opponent's actions showed); ``None``:
            ``state.resample_from_infostate(observer, rng)``.
        turn_widths: the turn search only: ``(width, reply_width)``, the candidate turns it
            compares at the root and at every later turn; ``None``: the bot's defaults (10, 8).
        max_depth: alpha-beta only: the deepest iteration (actions) within the level's seconds,
            for a level meant to stay weaker than its time would make it (as ``max_iterations``
            for MCTS); ``None``: as deep as its time allows.
        max_nodes: alpha-beta only: at most about this many positions an action within the
            level's seconds (``AlphaBetaBot(max_nodes=…)``), for a level held below its time in
            every phase of a game — a depth cap holds the opening back far more than an endgame,
            where the same depth costs little; ``None``: as many as its time allows. Set on
            another bot, the description refuses it (ValueError).
        turn_depth_step: the turn search only: turns each iteration of its deepening adds after
            depth 2 (1, or 2 for even depths only: every leaf read at the start of the
            searching side's own turn).
        turn_beam: the turn search only: 0, or the partial turns a beam through the root's
            turn keeps after each action, so its candidate turns also differ after their first
            action (``TurnSearchBot(beam=…)``).
        reductions: alpha-beta only: late move reductions, in actions (``AlphaBetaBot(reductions=…)``):
            a selective search for a level that should reach deeper than plain alpha-beta in
            its time; 0: every action searched to full depth. Set on another bot, the
            description refuses it (ValueError): no other bot reads it.
        contempt: alpha-beta only: what a draw costs the side the level plays, in evaluator
            units (``AlphaBetaBot(contempt=…)``): a level meant to beat weaker players in a
            game whose best play draws plays on rather than take a draw; 0: a draw is worth 0.
            Set on another bot, the description refuses it (ValueError).
    """

    bot: str
    rollout_cap: int | None = None
    evaluator: Evaluator | None = None
    oracle: "Oracle | None" = None
    turn_extension: int = 0
    max_iterations: int | None = None
    extend: int | None = None
    determinize: "Callable[[Any, int, Any], Any] | None" = None
    turn_widths: tuple[int, int] | None = None
    turn_depth_step: int = 1
    max_depth: int | None = None
    turn_beam: int = 0
    reductions: int = 0
    contempt: float = 0.0
    max_nodes: int | None = None


#: The :class:`Search` fields only some bots read, and those bots: set on another bot, the level
#: would claim (``abstracta games --json``, its fingerprint) a search it never runs, so the
#: description refuses it. ``rollout_cap`` is not among them: any level's serves a plain ``mcts``
#: seat spec (``levels.rollout_cap``); ``reductions``, ``contempt`` and ``max_nodes`` are checked on
#: their own, with their bounds.
ONE_BOT_FIELDS: dict[str, tuple[str, ...]] = {
    "max_iterations": ("mcts", "ismcts"),
    "determinize": ("ismcts",),
    "extend": ("greedy",),
    "turn_widths": ("turns",),
    "turn_depth_step": ("turns",),
    "turn_beam": ("turns",),
    "max_depth": ("alphabeta", "paranoid"),
    "turn_extension": ("alphabeta", "paranoid"),
}


def check_search(search: Search, where: str) -> None:
    """Refuse (ValueError, naming ``where``) a field set on a bot that never reads it: the level
    would claim a search it never runs (a description's levels, and a level whose search a
    benchmark replaces, ``levels.level_bot(search=…)``)."""
    if search.reductions < 0 or (search.reductions and search.bot != "alphabeta"):
        raise ValueError(f"{where} sets reductions={search.reductions} on a {search.bot} "
                         "search; late move reductions are alpha-beta only, 0 or more actions")
    if search.max_nodes is not None and (search.max_nodes < 1 or search.bot != "alphabeta"):
        raise ValueError(f"{where} sets max_nodes={search.max_nodes} on a {search.bot} "
                         "search; a node cap is alpha-beta only, at least 1")
    if not 0 <= search.contempt < 1 or (search.contempt and search.bot != "alphabeta"):
        raise ValueError(f"{where} sets contempt={search.contempt} on a {search.bot} "
                         "search; contempt is alpha-beta only, at least 0 and below 1")
    for name, readers in ONE_BOT_FIELDS.items():
        value = getattr(search, name)
        if search.bot not in readers and value != Search.__dataclass_fields__[name].default:
            raise ValueError(f"{where} sets {name}={value!r} on a {search.bot} search; "
                             f"{' and '.join(readers)} only read it")


@dataclass(frozen=True, slots=True)
class SeatStyle:
    """How one seat is shown.

    Attributes:
        name: the seat's name in the game (``White``, ``Red``); ``None`` when the game has no
            colours and a client names the seat itself (You, Computer, Player 2).
        colour: CSS colour of the seat's pieces; ``None`` for none.
        ink: CSS colour of text written on ``colour``.
    """

    name: Text | None
    colour: str | None = None
    ink: str | None = None


@dataclass(frozen=True, slots=True)
class OptionText:
    """How an option is put to people (the new-game form).

    Attributes:
        label: the option's name in players' words ("Board", "Who starts").
        help: one sentence on what it changes.
        choices: a label per value, keyed by the value's text form (``"dimy"``, ``"5,1"``, ``"0"``).
        unset: what leaving the option out means, for options without a default ("At random");
            for a free text option it is its box's placeholder, and may say instead what to
            type there when the help says what leaving it out means.
    """

    label: Text
    help: Text
    choices: Mapping[str, Text] = field(default_factory=dict)
    unset: Text | None = None


@dataclass(frozen=True, slots=True)
class Variant:
    """One meaningful option set of a game (a variant, a size, a player count).

    Attributes:
        options: the options that make it, e.g. ``{"size": "dimy"}`` (others at their defaults).
        label: its name for people.
        positions: mid-game position texts (benchmarks and perft time them beside the start).
    """

    options: Mapping[str, Any]
    label: Text
    positions: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameDescription:
    """Everything outside a game's package may know about one game instance.

    Attributes:
        name: registry name (``"fanorona"``), also the entry-point name.
        title: the game's name for people.
        summary: one or two sentences for the list of games.
        num_players: seats of this instance; ``min_players``/``max_players`` over all options.
        chance: randomness in the rules of this instance (then games take the ``seed`` option).
        hidden_information: players see different things in this instance.
        whole_turn_notation: the game writes a whole turn of several actions as one string
            (``Game.parse_move``, ``Game.turn_strings``, ``Game.format_moves``; e.g. Nibble's
            ``a1+a9``). A game whose records are not one string per action declares it: the
            server writes the others' records from the action strings as played.
        records_by_turn: with ``whole_turn_notation``, the record's entries of each turn depend
            on that turn alone: ``Game.format_moves`` of the actions from any turn's start is
            the entries of the turns before it followed by those of the rest, from the state at
            that start. A server then writes each finished turn's entries once instead of the
            whole record at every move (tests/server check it for every game that declares it).
        evaluator: heuristic value of a running position for a player, in [-1, 1]; ``None``
            when the game has none (searches then play on results alone).
        levels: the search of each strength level of this instance, 1 … its top level: as many
            distinct strengths as the game has, at most six (every built-in game but the
            Fibonacci card game declares six; that one four, where a stronger legal player does
            not exist: README "Strength"). A seat naming a level above the top plays the top
            level (:func:`abstracta.ai.levels.read_level`).
        bots: bots this game brings beside the shared ones, by seat-spec name.
        printable_board: ``Game.render_board()`` and ``Game.board_svg()`` draw the empty
            board (``abstracta board``).
        solver: solves this instance (``abstracta solve``), e.g. by retrograde analysis over its
            whole state space; ``None`` when it does not fit.
        endgame_tables: endgame tables this instance builds and its strong levels probe
            (``abstracta egtb build``); ``None`` for none.
        notation_help: how a person types a move.
        rules: the rules page (HTML fragment: paragraphs, lists, headings from ``h3``).
        seats: per seat, its name and colours (the palette of the pieces).
        board: named colours of the board (``"background"``, ``"lines"`` …) for its board module.
        variants: the meaningful option sets of the game (the same list for every instance).
        options: per option name, its label, help and choice labels for people.
        web: the directory of the game's browser board module (``board.js``), served at
            ``/games/<name>/``; ``None`` if the game has none (then the position text is shown).
        tuning: the evaluator as weighted terms, for self-play tuning (``abstracta tune``);
            ``None``: not tunable.
        analysis_budget: the analysis board's fixed budget (``abstracta.ai.analysis``):
            iterations for MCTS/IS-MCTS, positions for alpha-beta; ``None``: the default of the
            strongest level's search.
        resources: the game's package directory, where translations are read: message catalogs
            ``i18n/<lang>.json`` (the Finnish of every :class:`Text` key, and the board module's
            and structured view's messages) and rules pages ``rules.<lang>.html``; ``None``:
            English only (the :class:`Text` values).
        draw: the game's diagram of a position (its ``svg.py``;
            :data:`abstracta.core.diagrams.Draw`); ``None``: no diagrams.
        examples: worked examples of the rules (:class:`abstracta.core.diagrams.Diagram`), which
            its rules pages place by id (``<figure data-diagram="ID"></figure>``).
        lessons: first lessons (:class:`abstracta.core.lessons.Lesson`), offered to a newcomer on
            the game's page.
        learned: a value learned by self-play (:class:`abstracta.core.learned.LearnedValue`:
            the game's features and its weights file, read lazily), which ``abstracta learn``
            trains, ``abstracta dataset`` writes the features of, and ``benchmarks/learned.py``
            measures against :attr:`evaluator`; ``None``: the game has none.
        draws: the game can end drawn (its rules give ``0`` results). ``False`` where its rules
            always decide a winner (Nibble, rules §5 "there are no draws"): then no draw can be
            offered or agreed either (:func:`abstracta.play.requests.draw_refusal`), since a
            draw by agreement is a result the rules never give.
    """

    name: str
    title: Text
    summary: Text
    num_players: int
    min_players: int
    max_players: int
    chance: bool
    hidden_information: bool
    levels: Mapping[int, Search]
    notation_help: Text
    rules: Text
    seats: tuple[SeatStyle, ...]
    variants: tuple[Variant, ...]
    whole_turn_notation: bool = False
    records_by_turn: bool = False
    evaluator: Evaluator | None = None
    bots: Mapping[str, BotFactory] = field(default_factory=dict)
    printable_board: bool = False
    solver: Solver | None = None
    endgame_tables: EndgameTables | None = None
    board: Mapping[str, str] = field(default_factory=dict)
    web: "Traversable | None" = None
    options: Mapping[str, OptionText] = field(default_factory=dict)
    tuning: Tuning | None = None
    analysis_budget: int | None = None
    resources: "Traversable | None" = None
    draw: "Draw | None" = None
    examples: "tuple[Diagram, ...]" = ()
    lessons: "tuple[Lesson, ...]" = ()
    learned: "LearnedValue | None" = None
    draws: bool = True

    def __post_init__(self) -> None:
        numbers = sorted(self.levels)
        if numbers != list(range(1, len(numbers) + 1)) or not 2 <= len(numbers) <= len(LEVEL_NUMBERS):
            raise ValueError(f"{self.name}: levels must be 1 … N with N from 2 to {len(LEVEL_NUMBERS)}, "
                             f"got {numbers}")
        if len(self.seats) != self.num_players:
            raise ValueError(f"{self.name}: {len(self.seats)} seat styles for {self.num_players} players")
        for name in self.bots:
            if name in SHARED_BOTS or not name.isidentifier():
                raise ValueError(f"{self.name}: bot name {name!r} is taken or not a plain word")
        for number, search in self.levels.items():
            check_search(search, f"{self.name}: level {number}")
        ids = [d.id for d in self.examples]
        if len(set(ids)) != len(ids):
            raise ValueError(f"{self.name}: example ids repeat ({', '.join(ids)})")
        if self.examples and self.draw is None:
            raise ValueError(f"{self.name}: examples need a drawing (GameDescription.draw)")

    @property
    def level_numbers(self) -> tuple[int, ...]:
        """The strength levels this instance declares: ``(1, 2, …, top)``."""
        return tuple(range(1, len(self.levels) + 1))

    @property
    def top_level(self) -> int:
        """The strongest level this instance declares (6 for every built-in game but one)."""
        return len(self.levels)

    def texts(self) -> dict[str, str]:
        """Every human-readable string of the description: ``{key: English text}``."""
        return {t.key: t.en for t in _walk_texts(self)}

    def variant_of(self, options: Mapping[str, Any]) -> Variant | None:
        """The declared variant whose options all equal those in ``options``, if any."""
        for variant in self.variants:
            if all(options.get(k) == v for k, v in variant.options.items()):
                return variant
        return None


def _walk_texts(value: Any) -> Iterator[Text]:
    if isinstance(value, Text):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _walk_texts(item)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _walk_texts(item)
    elif hasattr(value, "__dataclass_fields__"):
        for f in fields(value):
            yield from _walk_texts(getattr(value, f.name))


def standard_levels(strongest: Search, *, level3: Search | None = None,
                    hidden_information: bool = False) -> dict[int, Search]:
    """The usual ladder: random, greedy, then ``level3`` (default: MCTS, or IS-MCTS with hidden
    information, with ``strongest``'s rollout cap) and ``strongest`` at levels 4–6."""
    if level3 is None:
        level3 = Search("ismcts" if hidden_information else "mcts", strongest.rollout_cap,
                        strongest.evaluator)
    return {1: Search("random"), 2: Search("greedy", evaluator=strongest.evaluator),
            3: level3, 4: strongest, 5: strongest, 6: strongest}


def default_levels(num_players: int, *, hidden_information: bool = False,
                   evaluator: Evaluator | None = None, rollout_cap: int | None = None) -> dict[int, Search]:
    """A ladder for a game that has not measured its own: IS-MCTS with hidden information, MCTS
    for more than two players or without an evaluator, else alpha-beta on ``evaluator``."""
    if hidden_information:
        bot = "ismcts"
    elif num_players != 2 or evaluator is None:
        bot = "mcts"
    else:
        bot = "alphabeta"
    return standard_levels(Search(bot, rollout_cap, evaluator), hidden_information=hidden_information)


def describe_basic(game: "Game", *, title: str, summary: str = "", notation_help: str = "",
                   rules: str = "", chance: bool = False, hidden_information: bool = False,
                   evaluator: Evaluator | None = None, seats: tuple[SeatStyle, ...] | None = None,
                   variants: tuple[Variant, ...] = (), **more: Any) -> GameDescription:
    """A description with sensible defaults, for small games and tests: strings keyed under the
    game's name, :func:`default_levels`, unnamed seats; ``more`` sets any other field."""
    T = texts(game.name)
    n = game.num_players
    fields_: dict[str, Any] = dict(
        name=game.name, title=T("title", title), summary=T("summary", summary),
        num_players=n, min_players=game.min_players, max_players=game.max_players,
        chance=chance, hidden_information=hidden_information, evaluator=evaluator,
        levels=default_levels(n, hidden_information=hidden_information, evaluator=evaluator),
        notation_help=T("notation", notation_help), rules=T("rules", rules),
        seats=seats if seats is not None else tuple(SeatStyle(None) for _ in range(n)),
        variants=variants or (Variant({}, T("variant.default", title)),))
    fields_.update(more)
    return GameDescription(**fields_)


def rules_page(package: str, filename: str = "rules.html") -> str:
    """The text of a rules page shipped in ``package`` (read with :mod:`importlib.resources`)."""
    from importlib.resources import files

    return (files(package) / filename).read_text(encoding="utf-8")


def package_files(package: str) -> "Traversable":
    """The directory of ``package`` (:attr:`GameDescription.resources`: its translations)."""
    from importlib.resources import files

    return files(package)


def web_dir(package: str) -> "Traversable":
    """The ``web/`` directory of ``package`` (its browser board module)."""
    from importlib.resources import files

    return files(package) / "web"


__all__ = ["BotFactory", "EndgameTables", "Evaluator", "GameDescription", "Oracle", "Solution", "Solver", "Tuning", "LEVEL_NUMBERS", "OptionText", "SHARED_BOTS", "Search",
           "SeatStyle", "Text", "Variant", "default_levels", "describe_basic", "package_files", "rules_page",
           "standard_levels", "texts", "web_dir"]


@functools.lru_cache(maxsize=1)
def shell_english() -> dict[str, Any]:
    """The browser shell's English catalog (``web/i18n/en.json``, ``{key: message}``): the one
    source of the words the terminal shares with the browser (a seat's name, a search's)."""
    return json.loads((files("abstracta") / "web" / "i18n" / "en.json").read_text(encoding="utf-8"))


def english(said: dict[str, Any], texts: Iterable[Text] = ()) -> str:
    """A message (:func:`~abstracta.core.view.message`) of the shell's catalog in its English:
    its one source, for words the terminal and the browser both say (a refusal of the play
    session); ``texts``: a game's words it names (its seats' names)."""
    return format_message(said, {**shell_english(), **{t.key: t.en for t in texts}})


def search_words(search: str, n: int) -> str:
    """The analysis board's search in a player's English words, from the browser's catalog
    (``analysis.search_words.<kind>``, as web/analysis.js says it): ``"alphabeta:n60000"``
    having searched 60160 positions is "alpha-beta search, 60,160 positions"; a kind the
    catalog has no words for stays as it is ("turns:d3, 812 searched")."""
    messages = shell_english()
    key = f"analysis.search_words.{search.split(':')[0]}"
    if key not in messages:
        key = "analysis.search"
    return format_message({"key": key, "params": {"s": search, "n": n, "num": f"{n:,}"}}, messages)


def player_name(seat: int) -> str:
    """How people are told a seat without a name of its own: ``Player 1`` for seat 0, the
    browser's words (``seat.player`` of its English catalog)."""
    return str(shell_english()["seat.player"]).replace("{n}", str(seat + 1))


def seat_name(seats: Sequence[SeatStyle], seat: int) -> str:
    """A seat's name for people: the game's (White, Red), else :func:`player_name`. Machine
    output (records, ``--seat``, JSON) keeps the seat's number."""
    name = seats[seat].name if 0 <= seat < len(seats) else None
    return str(name) if name is not None else player_name(seat)

