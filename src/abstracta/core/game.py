"""The game-neutral spine (DESIGN.md "One spine, five games"), modelled on OpenSpiel.

A :class:`Game` holds the rules options and the precomputed tables of one geometry; a
:class:`State` is one position plus whatever history the rules need. Actions are integers;
``legal_actions()`` lists them in the spec's canonical order and the notation lives beside
them (``action_to_string`` / ``string_to_action``).

A turn made of several parts (a Fanorona capture chain, a Nibble take of several discs,
Fibonacci's several moves) is a sequence of actions by the same player; reading such a sequence
back as the numbered turns a person sees is :mod:`abstracta.core.turns`.
"""

from __future__ import annotations

import secrets
from abc import ABC, abstractmethod
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Sequence

import numpy as np

from .description import GameDescription
from .errors import AbstractaError, IllegalActionError, NotationError, game_over, not_legal
from .options import Option, as_integer, check_player, check_seed, resolve_options
from .rng import SplitMix64
from .view import StructHooks, build_struct

from .actions import ActionCodec, codec_class_of
from .tensors import TensorSpec, spec_class_of, write_tensor

if TYPE_CHECKING:  # pragma: no cover
    from .tensors import Plane

#: ``current_player()`` at a chance node.
CHANCE = -1
#: ``current_player()`` once the game is over.
TERMINAL = -4


class Game(ABC):
    """A game with fixed options.

    Subclasses set :attr:`name` and :attr:`option_specs` (and the player range), and implement
    :meth:`describe`, :meth:`new_initial_state` and :meth:`state_from_text`.

    Attributes:
        name: registry name, e.g. ``"fanorona"`` (the game's ``abstracta.games`` entry point).
        option_specs: the options the game accepts.
        min_players, max_players: seats over all options (the new-game form needs them
            before an instance exists).
        options: the complete, validated option dict of this instance.
    """

    name: ClassVar[str] = ""
    #: The parts of the game's package above its rules (they import ``rules.py``): its
    #: ``description``, ``notation`` and ``render`` modules and what else the game names in its
    #: docstring, bound by the package's entry module with :func:`compose`. The rules reach them
    #: only through this, so that they import nothing above them and a package has no import
    #: cycle; importing ``rules.py`` runs the package's ``__init__.py`` first, which binds them.
    _parts: ClassVar[SimpleNamespace]
    option_specs: ClassVar[tuple[Option, ...]] = ()
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2

    def __init__(self, **options: Any):
        self.options: dict[str, Any] = resolve_options(self.option_specs, options)

    def __reduce__(self) -> tuple:
        # a game pickles as its class and options: what an instance builds and caches from them
        # (its description with evaluators and closures, geometry tables) need not, and often
        # cannot, be pickled
        return _rebuild_game, (type(self), self.non_default_options())

    # --- facts -----------------------------------------------------------------------
    @abstractmethod
    def describe(self) -> GameDescription:
        """This instance's :class:`GameDescription` (read it through :attr:`description`)."""

    @property
    def description(self) -> GameDescription:
        """What this instance declares about itself (built once per instance)."""
        cached = self.__dict__.get("_description")
        if cached is None:
            cached = self.__dict__["_description"] = self.describe()
        return cached

    @property
    def title(self) -> str:
        return str(self.description.title)

    @property
    def has_chance(self) -> bool:
        """Randomness in the rules of this instance (the description's ``chance``)."""
        return self.description.chance

    @property
    def has_hidden_information(self) -> bool:
        """Players see different things in this instance (the description's ``hidden_information``)."""
        return self.description.hidden_information

    @property
    def num_players(self) -> int:
        """Number of players (seats) of this instance."""
        return self.min_players

    def option_text(self) -> dict[str, str]:
        """The options as ``KEY=VALUE`` text values (the CLI's and records' form), defaults included."""
        out = {}
        for spec in self.option_specs:
            value = self.options[spec.name]
            if value is not None:
                out[spec.name] = spec.to_text(value) if not isinstance(value, bool) else str(value).lower()
        return out

    def option_values(self) -> dict[str, Any]:
        """The options that are set, as their parsed values (``{"vela": False, "players": 2,
        "board": (1, 1)}``; JSON writes a tuple as a list), defaults included: the form of
        ``--json`` outputs, where :meth:`option_text` is the form of command lines and records."""
        return {spec.name: self.options[spec.name] for spec in self.option_specs
                if self.options[spec.name] is not None}

    def non_default_options(self) -> dict[str, Any]:
        return {s.name: self.options[s.name] for s in self.option_specs if self.options[s.name] != s.default}

    # --- states ----------------------------------------------------------------------
    def resolve_seed(self, seed: int | None) -> int | None:
        """The seed a new game uses: ``seed`` if given, else the ``seed`` option, else a fresh
        random one for games with chance (rules/README.md "Options"); ``None`` without chance."""
        if not self.has_chance:
            return None
        if seed is None:
            seed = self.options.get("seed")
        if seed is None:
            seed = secrets.randbits(63)
        return check_seed(seed)

    @abstractmethod
    def new_initial_state(self, seed: int | None = None) -> "State":
        """The start of a new game. ``seed`` overrides the ``seed`` option (games with chance)."""

    @abstractmethod
    def state_from_text(self, text: str) -> "State":
        """Parse the spec's position text. Raises :class:`PositionError` naming the problem."""

    # --- notation of whole moves (records, CLI) ---------------------------------------------
    def parse_move(self, state: "State", text: str) -> list[int]:
        """Turn one entry of a record or one typed move into the actions it stands for.

        Default: one action string. Games whose records use whole-turn strings (Nibble's
        ``a1+a9``) override this. Raises :class:`IllegalActionError` (or its subclass
        :class:`NotationError`) without changing ``state``.
        """
        return [state.string_to_action(text)]

    def parse_turn(self, state: "State", text: str) -> list[int]:
        """A move as a person types it at a prompt (the terminal): the actions it stands for.

        Default :meth:`parse_move`; a game with a whole-turn notation may read a typed move as
        the whole turn (Nibble: ``a1`` takes a1 and ends the turn). Raises like ``parse_move``."""
        return self.parse_move(state, text)

    def format_moves(self, initial: "State", actions: Sequence[int]) -> list[str]:
        """The record's move list for ``actions`` played from ``initial`` (default: one string
        per action; games with a whole-turn notation write whole turns). A game that writes
        its records otherwise than one string per action declares ``whole_turn_notation``: the
        server writes the others' records from the notation as played, without asking this."""
        return action_strings(initial, actions)

    def format_turn(self, state: "State", actions: Sequence[int]) -> list[str]:
        """One turn ``actions`` played from ``state`` as a person reads it and types it at the
        prompt (:meth:`parse_turn` of each entry plays them back): the terminal's computer turns,
        its hints and ``replay``. Default :meth:`format_moves`; a game whose typed move is a whole
        turn writes one (Nibble's one-disc turn is ``a1`` here, ``a1``, ``end`` in a record,
        where an entry without ``+`` is one action)."""
        return self.format_moves(state, actions)

    def canonical_turn(self, state: "State", actions: Sequence[int]) -> list[int]:
        """``actions`` (one whole turn played from ``state``) in the order the game's notation
        lists them. Default: unchanged. A game whose turn is a set (Nibble's ``a1+c1``) returns
        the same turn in canonical order, so that a computer's take reads as the spec writes it.
        Never raises for a turn that plays; the result reaches the same state."""
        return list(actions)

    @property
    def num_distinct_actions(self) -> int:
        """Size of the action space: every action of every state is in ``range(num_distinct_actions)``."""
        raise NotImplementedError

    # --- presentation (implemented in each game's render.py) ---------------------------------
    def render(self, state: "State", player: int | None = None) -> Any:
        """A ``rich`` renderable of ``state`` for a terminal, as ``player`` may see it
        (``None``: an onlooker who sees everything public). Default: the position text."""
        return state.to_text() if player is None else state.observation(player)

    def render_board(self) -> Any:
        """The empty board as a ``rich`` renderable, for games whose description declares
        ``printable_board``. Raises ``NotImplementedError`` for the others."""
        raise NotImplementedError(f"{self.name} has no printed board")

    def board_svg(self) -> str:
        """The empty board as an SVG document (``printable_board`` games)."""
        raise NotImplementedError(f"{self.name} has no printed board")

    def turn_strings(self, state: "State") -> list[str]:
        """Whole-turn notation of the legal turns at a turn boundary, canonical order
        (``abstracta moves --turns``), for games whose description declares
        ``whole_turn_notation``. Raises ``NotImplementedError`` for the others."""
        raise NotImplementedError(f"{self.name} has no whole-turn notation")

    # --- search support -------------------------------------------------------------------
    def evaluate(self, state: "State", player: int) -> float:
        """Heuristic value of a non-terminal ``state`` for ``player``, in [-1, 1]: the
        description's evaluator, or 0 (no knowledge) for a game without one."""
        evaluator = self.description.evaluator
        return evaluator(state, player) if evaluator is not None else 0.0

    # --- research interop (abstracta.interop; issue 19) -------------------------------------
    def max_game_length(self) -> int | None:
        """A true upper bound on the player actions of any game of this instance played from
        :meth:`new_initial_state` (explicit chance outcomes not counted), or ``None`` where the
        rules set none (the adapters then truncate at their ``max_turns``). Default ``None``."""
        return None

    def max_chance_outcomes(self) -> int:
        """Outcomes of the largest in-game chance node of :meth:`State.set_explicit_chance` mode
        (a card draw: 52); 0 for games without in-game chance (the default). The deal or layout
        is not counted: the adapters make it one node over K layout seeds."""
        return 0

    def max_chance_nodes(self) -> int:
        """An upper bound on the in-game chance nodes of one game in explicit mode (default 0)."""
        return 0

    def tensors(self) -> TensorSpec:
        """This instance's tensors (:mod:`.tensors`): the spec its package registered for its
        class (:func:`.tensors.register_tensors`), else the spine's default; built once."""
        spec = self.__dict__.get("_tensor_spec")
        if spec is None:
            spec = self.__dict__["_tensor_spec"] = spec_class_of(type(self))(self)
        return spec

    def action_codec(self) -> ActionCodec | None:
        """This instance's compact action space for the research adapters (:mod:`.actions`):
        the codec its package registered for its class, else ``None`` (the engine's ids are
        compact enough); built once."""
        if "_action_codec" not in self.__dict__:
            cls = codec_class_of(type(self))
            self.__dict__["_action_codec"] = cls(self) if cls is not None else None
        return self.__dict__["_action_codec"]

    def observation_planes(self) -> "tuple[Plane, ...]":
        """The named parts of :meth:`State.observation_tensor`, in order (:mod:`.tensors`).

        Default (a game without its own tensors): two one-hot planes of ``num_players`` floats,
        ``current_player`` and ``observer``, so that every game has a fixed shape."""
        return self.tensors().observation.planes

    def information_state_planes(self) -> "tuple[Plane, ...]":
        """The named parts of :meth:`State.information_state_tensor` (default: the observation's)."""
        return self.tensors().information_state.planes

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.non_default_options().items())
        return f"{type(self).__name__}({opts})"


class State(StructHooks, ABC):
    """One position of a game, OpenSpiel style.

    Subclasses implement the abstract methods; the defaults here cover perfect-information
    games without chance. ``apply_action`` must raise :class:`IllegalActionError` and leave
    the state unchanged for any integer that is not in ``legal_actions()``.
    """

    game: Game

    # --- whose turn and what is legal -----------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """0..n-1, :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Legal actions in the spec's canonical order; empty only when terminal.

        Callers must not mutate the returned list (games may cache it)."""

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Apply one legal action. Raises :class:`IllegalActionError` (state unchanged)."""

    def undo_action(self) -> None:
        """Take back the last action (make/unmake for search). Games that support it override
        this and set ``supports_undo = True``; with no action to take back (the start, or a
        position read from text) they raise :class:`IllegalActionError`, state unchanged."""
        raise NotImplementedError(f"{type(self).__name__} does not support undo")

    supports_undo: ClassVar[bool] = False

    # --- notation ---------------------------------------------------------------------------
    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """The spec's notation of ``action`` in this state."""

    def string_to_action(self, text: str) -> int:
        """Parse the spec's notation of one legal action of this state.

        Raises :class:`NotationError` when the text is not notation at all and
        :class:`IllegalActionError` when it names an action that is not legal here.
        Default: match against the legal list's strings."""
        wanted = text.strip()
        for action in self.legal_actions():
            if self.action_to_string(action) == wanted:
                return action
        if self.is_terminal():
            raise game_over(repr(wanted))
        raise not_legal(repr(wanted))

    def legal_action_strings(self) -> list[str]:
        return [self.action_to_string(a) for a in self.legal_actions()]

    # --- results ---------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    @abstractmethod
    def returns(self) -> list[float]:
        """Per-player results: +1 win, −1 loss, 0 draw; all 0 while the game is running."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(action, probability)`` pairs at a chance node; empty elsewhere."""
        return []

    # --- copies, history, text ---------------------------------------------------------------
    @abstractmethod
    def clone(self) -> "State":
        """An independent copy: applying actions to it never changes this state."""

    @abstractmethod
    def history(self) -> list[int]:
        """Actions applied since this state's starting position (new game or position text)."""

    @abstractmethod
    def to_text(self) -> str:
        """The spec's position text; ``game.state_from_text(s.to_text())`` is an equal position."""

    @property
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def seed(self) -> int | None:
        """The seed this game was created with (games with chance), else ``None``."""
        return getattr(self, "_seed", None)

    # --- structured view (see :mod:`abstracta.core.view`) ---------------------------------------
    def to_struct(self, player: int | None = None, reveal: bool = False,
                  shared: dict[str, Any] | None = None, carried: dict[str, Any] | None = None) -> dict[str, Any]:
        """This state as plain JSON-ready data for ``player``'s eyes (``None``: a spectator, who
        sees what is public): board, whose turn and what is left of it, the legal actions
        grouped as a person picks them, the turns since ``player`` last moved, the end reason.
        The envelope is documented in :mod:`abstracta.core.view`, the ``board`` and ``choices``
        in each game's ``view.py``. Never holds a card ``player`` may not see, unless ``reveal``:
        then the board shows every hidden card (a finished game's replay: the deal is public at
        the end; only for a game that is over, which the caller knows and the state may not, as
        after a resignation).

        ``shared``: a dict kept with this unchanged state for all the viewers it is described
        to, so that what they see alike is computed once (:func:`~abstracta.core.view.build_struct`).
        ``carried``: a dict kept along a line of states of one game (a match's revisions: each
        the last plus actions, or one taken back to), so that the recent history is walked from
        the last state's walk, not afresh (the same structs).

        Raises ``ValueError`` for a ``player`` that is not a seat."""
        return build_struct(self, player, reveal, shared, carried)

    # --- hidden information -----------------------------------------------------------------
    def information_state_string(self, player: int) -> str:
        """Everything ``player`` knows: for perfect information, the position and history.
        ``ValueError`` unless ``player`` is a seat (as every game's tensors and hidden views)."""
        check_player(player, self.num_players)
        return self.to_text() + " | " + " ".join(str(a) for a in self.history())

    def observation(self, player: int) -> str:
        """What ``player`` sees now (for perfect information: the position text).
        ``ValueError`` unless ``player`` is a seat."""
        check_player(player, self.num_players)
        return self.to_text()

    def resample_from_infostate(self, player: int, rng: Any) -> "State":
        """A state consistent with what ``player`` knows (IS-MCTS determinization; ``rng``: a
        :class:`random.Random`). ``ValueError`` unless ``player`` is a seat.

        Perfect information: a clone."""
        check_player(player, self.num_players)
        return self.clone()

    def public_observation(self) -> str | None:
        """What a spectator sees now (nobody's hidden cards), or ``None`` when the game has no
        text for it. Default: the position text for perfect information; with hidden
        information, the seats' common observation when every seat sees the same thing, else
        ``None``. Games whose seats see different things override this."""
        if not self.game.has_hidden_information:
            return self.to_text()
        seen = {self.observation(p) for p in range(self.num_players)}
        return seen.pop() if len(seen) == 1 else None

    #: Samples per seat in the default :meth:`reveals` test.
    REVEAL_SAMPLES: ClassVar[int] = 8

    def reveals(self, action: int) -> bool:
        """Whether ``action`` (legal here; this state is not changed) tells some seat more than
        its notation: a chance outcome, a draw, a deal, a pile card turned over. Such an action
        can never be taken back, since replaying from before it would show the same card again.

        Default, for any game (conservative where it can be):

        * at a chance node: True;
        * ``action_effects(action, p)["revealed"]`` lists, for some seat ``p``, something the
          action's notation does not name (a card played names itself: everyone who sees the
          move knows it; a card drawn or turned over does not): True;
        * hidden information: for each seat ``p``, up to :attr:`REVEAL_SAMPLES` states
          consistent with what ``p`` knows (``resample_from_infostate``, fixed generator) where
          the same notation is legal are played on; if ``p``'s observation or information state
          after the action differs from the real one in any of them, the action told ``p``
          something its notation does not: True;
        * otherwise False. A perfect-information game that draws from its generator inside
          ``apply_action`` must override this (the built-in ones draw only at the start).
        """
        import random
        import re

        if self.is_chance_node():
            return True
        game = self.game
        if not (game.has_hidden_information or game.has_chance):
            return False
        n = self.num_players
        text = self.action_to_string(action)
        named = set(re.findall(r"[A-Za-z0-9]+", text))
        for p in range(n):
            for item in self.action_effects(action, p).get("revealed") or ():
                if not (isinstance(item, str) and item in named):
                    return True
        if not game.has_hidden_information:
            return False
        after = self.clone()
        after.apply_action(action)
        for p in range(n):
            seen = (after.observation(p), after.information_state_string(p))
            rng = random.Random(p)
            for _ in range(self.REVEAL_SAMPLES):
                other = self.resample_from_infostate(p, rng)
                try:
                    other.apply_action(other.string_to_action(text))
                except Exception:  # noqa: BLE001 - not legal in this sample: no evidence
                    continue
                if (other.observation(p), other.information_state_string(p)) != seen:
                    return True
        return False

    def could_still_win(self, player: int) -> bool:
        """Whether ``player`` could still win this game by the rules (some continuation makes
        it a winner). Decides a flag fall: the flagged seat loses, but the game is drawn when
        no opponent could still win. Default: True (every built-in game: a seat still in the
        game can win)."""
        return True

    # --- search support ------------------------------------------------------------------------
    def hash_key(self) -> int:
        """A hash of everything that decides future play (used by transposition tables).

        Default: hash of the position text; games override with incremental Zobrist keys."""
        return hash(self.to_text())

    def repetition_count(self) -> int:
        """How often the current position has occurred at a turn boundary in this game, this
        time included (1 the first time); 0 inside a turn and in games whose rules have no
        repetition draw (the default). A search reads a position that occurred before as a
        draw where it recurs (:mod:`abstracta.ai.alphabeta`), as chess engines do."""
        return 0

    def turn_player(self) -> int:
        """The player the current turn belongs to (equals ``current_player()`` except at chance)."""
        return self.current_player()

    def turn_number(self) -> int | None:
        """The number the rules give the turn in progress (Fibonacci's ``t``), 0 before their
        first turn (Fibonacci Go's placements); ``None`` (default) where the rules number no
        turns, and a turn is a seat's actions in a row (:func:`~abstracta.core.turns.turn_numbers`)."""
        return None

    # --- research interop (abstracta.interop; issue 19) ---------------------------------------
    def observation_tensor(self, player: int, out: "np.ndarray | None" = None) -> "np.ndarray":
        """What ``player`` sees now: ``float32`` of shape ``(size,)`` laid out by
        ``game.observation_planes()`` (each plane flattened in C order), written into ``out``
        (a float32 array of that shape, every entry written) or a new array; returns it.

        Games write it through their :class:`.tensors.TensorSpec`. Raises ``ValueError`` for a
        ``player`` that is not a seat."""
        spec = self.game.tensors()
        if out is None:  # a new array, through this thread's kept tensor of that player
            return spec.pool().array(player, spec.observation_features(self, player))
        return write_tensor(spec.observation, spec.observation_features(self, player), out)

    def information_state_tensor(self, player: int, out: "np.ndarray | None" = None) -> "np.ndarray":
        """What ``player`` knows, as :meth:`observation_tensor` does, laid out by
        ``game.information_state_planes()``: a game with hidden information may give a
        fixed-size summary rather than its whole history (two histories can share a tensor);
        :meth:`information_state_string` is the exact information state. Default: the
        observation (perfect information: the position decides play)."""
        spec = self.game.tensors()
        if out is None:
            return spec.pool(info=True).array(player, spec.information_state_features(self, player))
        return write_tensor(spec.information_state, spec.information_state_features(self, player), out)

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """``num_distinct_actions`` ints, 1 at each legal action of ``player`` (default: the
        player to move); all 0 when ``player`` is not to move, at chance and at the end."""
        mask = [0] * self.game.num_distinct_actions
        mover = self.current_player()
        if mover >= 0 and (player is None or player == mover):
            for action in self.legal_actions():
                mask[action] = 1
        return mask

    #: In-game chance events are explicit chance nodes (:meth:`set_explicit_chance`).
    explicit_chance: bool = False

    def set_explicit_chance(self, on: bool) -> None:
        """Switch this state between the seeded engine (default: the seed resolves draws and
        reveals, rules/README.md "Chance with a seed") and explicit chance nodes: where a draw
        or reveal happens, ``current_player()`` is :data:`CHANCE`, :meth:`chance_outcomes` gives
        the real distribution and ``apply_action(outcome)`` resolves it.

        Default: games without in-game chance have nothing to switch (no-op). Raises
        ``ValueError`` when switching off at a pending chance node."""
        if on and self.game.max_chance_outcomes():
            raise NotImplementedError(f"{type(self).__name__} has no explicit chance mode")

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.to_text()!r}>"


def compose(game_class: type[Game], **parts: Any) -> None:
    """Bind a game package's parts above its rules to its game class as ``game_class._parts``
    (:attr:`Game._parts`): the package's entry module (``__init__.py``) calls this once, as an
    OpenSpiel game module registers its game. ``compose(NibbleGame, description=description,
    notation=notation, render=render)``; then ``game._parts.notation.parse_move(…)``."""
    game_class._parts = SimpleNamespace(**parts)


def _rebuild_game(cls: type[Game], options: dict[str, Any]) -> Game:
    return cls(**options)


def seats_out(state: State) -> list[int]:
    """The seats a 3–4 player game has put out by its rules (:meth:`State.eliminated_struct`)."""
    return [e["seat"] for e in state.eliminated_struct()]


def seats_out_since(initial: State, actions: Sequence[int], final: State | None = None) -> dict[int, int]:
    """The seats the rules have put out (:func:`seats_out`) once ``actions`` are played from
    ``initial`` (not changed), each with the ply that put it out for good: the count of actions
    played when it was out and stayed out to the end (0: out from the start). A 3–4 player game's
    end then says when each seat went ("You were knocked out on turn 41"). ``final``: the state
    after ``actions`` when known. ``{}`` when nobody is out there (then nothing is replayed)."""
    if final is None:
        final = initial.clone()
        for action in actions:
            final.apply_action(action)
    if not seats_out(final):
        return {}
    state = initial.clone()
    return seats_out_on(state, {seat: 0 for seat in seats_out(state)}, 0, actions)


def seats_out_on(state: State, since: dict[int, int], ply: int, actions: Sequence[int]) -> dict[int, int]:
    """:func:`seats_out_since` of a game whose first ``ply`` actions gave ``since`` and led to
    ``state``, once ``actions`` are played on (``state`` is played on: the state after them)."""
    for ply, action in enumerate(actions, ply + 1):
        state.apply_action(action)
        out = set(seats_out(state))
        since = {seat: at for seat, at in since.items() if seat in out}
        for seat in out:
            since.setdefault(seat, ply)
    return since


def views_differ(state: State, seats: Iterable[int]) -> bool:
    """Whether ``seats`` see different things in ``state`` (their observations differ): people
    sharing one screen then hand it over between turns. ``False`` without hidden information or
    for fewer than two seats (a game whose hidden cards nobody sees, such as a face-down pile,
    shows all of them the same); ``True`` for a game with no observations to compare."""
    seats = list(seats)
    if not state.game.has_hidden_information or len(seats) < 2:
        return False
    try:
        return len({state.observation(i) for i in seats}) > 1
    except (AbstractaError, NotImplementedError):  # no observations to compare: assume private
        return True


def action_strings(initial: State, actions: Sequence[int]) -> list[str]:
    """The notation of each of ``actions`` played in order from ``initial`` (not changed)."""
    if len(actions) == 1:  # a turn of one action (a move list writes one each move): no clone to play it on
        return [initial.action_to_string(actions[0])]
    state = initial.clone()
    out = []
    for action in actions:
        out.append(state.action_to_string(action))
        state.apply_action(action)
    return out


def resignation_returns(num_players: int, seat: int, out: Iterable[int] = ()) -> list[float]:
    """Returns after ``seat`` resigns: it loses (−1), and so do the seats already ``out`` of a
    3–4 player game (eliminated by the rules, :meth:`State.eliminated_struct`, or out of time):
    a resignation does not bring them back. If one seat is left, it wins (+1; with two players,
    always the other); if more are, they draw (0) — none has beaten the rest yet."""
    lost = set(out) | {seat}
    left = [i for i in range(num_players) if i not in lost]
    return [-1.0 if i in lost else 1.0 if len(left) == 1 else 0.0 for i in range(num_players)]


def draw_seats(num_players: int, out: Iterable[int] = ()) -> list[int]:
    """The seats whose agreement a draw needs, in seat order: every seat still in. The seats
    already ``out`` of a 3–4 player game (eliminated by the rules, or out of time) have lost
    whatever the others agree (:func:`agreed_draw_returns`) and are not asked. The server's draw
    offers and ``play``'s ``draw`` ask these seats, and refuse an offer while one of them is the
    computer's (it never agrees to a draw)."""
    out = set(out)
    return [i for i in range(num_players) if i not in out]


def agreed_draw_returns(num_players: int, out: Iterable[int] = ()) -> list[float]:
    """Returns of a draw the players agreed: 0 for every seat still in; the seats already
    ``out`` of a 3–4 player game (eliminated by the rules, or out of time) keep their loss (−1),
    as in a draw the rules declare (slide-checkers.md §5)."""
    out = set(out)
    return [-1.0 if i in out else 0.0 for i in range(num_players)]


def check_action_in(action: Any, legal: Iterable[int], state: State) -> None:
    """Raise :class:`IllegalActionError` unless ``action`` is one of ``legal``."""
    if isinstance(action, bool) or not isinstance(action, int):
        raise IllegalActionError(f"action {action!r} is not an integer")
    if action not in legal:
        if state.is_terminal():
            raise IllegalActionError(f"action {action} is not legal: the game is over")
        raise IllegalActionError(f"action {action} is not legal here")


__all__ = ["CHANCE", "TERMINAL", "Game", "compose", "GameDescription", "State", "action_strings", "check_action_in",
           "resignation_returns", "agreed_draw_returns", "draw_seats", "as_integer", "check_player", "seats_out", "seats_out_since",
           "seats_out_on", "views_differ", "NotationError",
           "SplitMix64"]
