"""The wrapper the three adapters share: layout chance node, explicit chance, truncation.

Generic: it reads the game's description and the spine (``Game.max_game_length``,
``Game.max_chance_outcomes``, ``State.set_explicit_chance``, the tensors), never a game's name.
"""

from __future__ import annotations

import io
import random
from functools import partial
from typing import Any, Iterable, Mapping

import numpy as np

from ..core.actions import ActionCodec
from ..core.errors import IllegalActionError, OptionError
from ..core.game import CHANCE, TERMINAL, Game, State, as_integer
from ..core.registry import load_game
from ..core.tensors import BufferPool, Features, Layout, ListBuffer, Plane, write_tensor

#: Truncation (player actions) of a game whose rules set no bound on its length.
DEFAULT_MAX_TURNS = 1000
#: K, the outcomes of the layout chance node (seeds 0..K-1).
DEFAULT_LAYOUT_SEEDS = 100
#: K of the environments (PettingZoo, Gymnasium): they sample the layout seed directly, so
#: any seed below 2**63 may come up.
ENV_LAYOUT_SEEDS = 2**63
#: The chance modes: explicit chance nodes, or one seeded engine resolving chance itself.
CHANCE_MODES = ("explicit", "seeded")
#: The action spaces: the game's compact one where it has one (its codec), or the engine's ids.
ACTION_SPACES = ("compact", "engine")
_SEED_LIMIT = 2**64
#: starts kept per game for their layout seeds (:meth:`InteropGame.start`)
START_CACHE = 256


def as_action(action: Any) -> int:
    """``action`` as a Python ``int``: an ``int`` or a NumPy integer (scalar or 0-d array), what
    agents hand over. Raises :class:`IllegalActionError` for anything else (a bool, a float,
    a string, ``None``) rather than rounding or parsing it into some other action."""
    index = as_integer(action)
    if index is None:
        raise IllegalActionError(f"action {action!r}: expected an integer action id")
    return index


def _integer_or(value: Any) -> Any:
    """``value`` as an ``int`` if it is an integer (a NumPy one too), else unchanged (to be refused)."""
    index = as_integer(value)
    return value if index is None else index


def variant_options(game_name: str) -> list[dict[str, Any]]:
    """The option sets of every declared variant of ``game_name`` (``description.variants``)."""
    return [dict(v.options) for v in load_game(game_name).description.variants]


def _with_codec(layout: Layout, codec: ActionCodec | None) -> Layout:
    """``layout`` with the codec's planes after the game's (their bits after the game's bits)."""
    if codec is None or not codec.planes:
        return layout
    extended = Layout(layout.planes + codec.planes)
    return extended.with_blocks(layout.tables + (tuple(range(layout.size, extended.size)),), layout.scalars,
                                layout.divisors)


class InteropGame:
    """An abstracta game as the adapters see it.

    Args:
        name: a registered game (``abstracta.registered_games()``).
        max_turns: truncate after this many player actions (≥ 0); 0 = the rules' own bound,
            allowed only where ``Game.max_game_length()`` gives one. Default: 0 where the rules
            bound the game, else :data:`DEFAULT_MAX_TURNS`.
        chance: ``"explicit"`` (default) or ``"seeded"`` (see :mod:`abstracta.interop`).
        layout_seeds: K from 1 to 2**64, outcomes of the layout chance node (explicit mode).
        seed: seeded mode: the seed of every game (one fixed deal or layout: OpenSpiel then sees
            a deterministic game, hidden information and all); ``None`` (the default) there
            means seed 0. Any seed, 0 included, is refused with explicit chance on a game with
            chance, where it would go unused.
        actions: ``"compact"`` (default: the game's codec, where it registers one) or
            ``"engine"`` (the engine's own action ids).
        **options: the game's options (values or their text form, as on the command line).

    Raises:
        OptionError: an unknown option or parameter, or a bad value.
    """

    def __init__(self, name: str, *, max_turns: int | None = None, chance: str = "explicit",
                 layout_seeds: int = DEFAULT_LAYOUT_SEEDS, seed: int | None = None, actions: str = "compact",
                 **options: Any):
        self.game: Game = load_game(name, **{k: v for k, v in options.items() if v is not None})
        self.name = self.game.name
        if chance not in CHANCE_MODES:
            raise OptionError(f"chance: {chance!r} is not one of {', '.join(CHANCE_MODES)}")
        if actions not in ACTION_SPACES:
            raise OptionError(f"actions: {actions!r} is not one of {', '.join(ACTION_SPACES)}")
        # NumPy integers (a sweep over np.arange) are integers: taken as the ints they are
        layout_seeds = _integer_or(layout_seeds)
        seed = _integer_or(seed)
        max_turns = _integer_or(max_turns)
        if isinstance(layout_seeds, bool) or not isinstance(layout_seeds, int) or not 1 <= layout_seeds <= _SEED_LIMIT:
            raise OptionError(f"layout_seeds: expected an integer from 1 to 2**64 (outcome k is seed k), "
                              f"got {layout_seeds!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < _SEED_LIMIT):
            raise OptionError(f"seed: expected an integer from 0 to 2**64 - 1, got {seed!r}")
        if seed is not None and chance == "explicit" and self.game.has_chance:
            # explicit chance deals from the layout chance node: the seed would go unused
            raise OptionError(f"seed {seed}: a seed plays one fixed deal or layout only with chance='seeded'; "
                              f"explicit chance (the default) samples {self.name}'s deal or layout at the "
                              "layout chance node and takes no seed, 0 included")
        bound = self.game.max_game_length()
        if max_turns is None:
            max_turns = 0 if bound is not None else DEFAULT_MAX_TURNS
        if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 0:
            raise OptionError(f"max_turns: expected an integer >= 0, got {max_turns!r}")
        if max_turns == 0 and bound is None:
            raise OptionError(f"max_turns: {self.name} has no bound on its length; give max_turns >= 1")
        self.max_turns = max_turns
        self.chance = chance
        self.actions = actions
        #: the compact action space, or ``None`` (the engine's ids)
        self.codec: ActionCodec | None = self.game.action_codec() if actions == "compact" else None
        parts = self.codec.max_parts if self.codec is not None else 1
        self.layout_seeds = layout_seeds
        #: the seed of every game (seeded mode: 0 unless given), else ``None`` or the unused seed of
        #: a game without chance
        self.seed: int | None = 0 if seed is None and chance == "seeded" else seed
        self._template: State | None = None  # the start of a game without chance, cloned
        #: the starts of the last layout seeds dealt, cloned (a Nibble layout takes milliseconds
        #: to draw; OpenSpiel's K seeds come up again and again)
        self._starts: dict[int, State] = {}
        #: player actions (parts, with a codec) of the longest possible game (truncation included)
        self.max_game_length: int = parts * min(b for b in (bound, max_turns or None) if b is not None)
        explicit = chance == "explicit" and self.game.has_chance
        #: a chance node over ``layout_seeds`` seeds starts each game
        self.layout_chance: bool = explicit
        self.explicit_chance: bool = explicit and self.game.max_chance_outcomes() > 0
        self.max_chance_outcomes: int = max(layout_seeds if explicit else 0,
                                            self.game.max_chance_outcomes() if explicit else 0)
        self.max_chance_nodes: int = (1 + self.game.max_chance_nodes()) if explicit else 0
        self.num_players: int = self.game.num_players
        self.num_distinct_actions: int = (self.codec.num_actions if self.codec is not None
                                          else self.game.num_distinct_actions)
        spec = self.tensors = self.game.tensors()
        #: where the observation and information-state features go (the game's, and the codec's
        #: planes after them)
        self.observation_layout: Layout = _with_codec(spec.observation, self.codec)
        self.information_state_layout: Layout = _with_codec(spec.information_state, self.codec)
        self.observation_planes: tuple[Plane, ...] = self.observation_layout.planes
        self.information_state_planes: tuple[Plane, ...] = self.information_state_layout.planes
        self.observation_size = self.observation_layout.size
        self.information_state_size = self.information_state_layout.size
        #: kept tensors (per thread and player) behind ``observation_tensor()`` without ``out``
        self.pools = (BufferPool(self.observation_layout), BufferPool(self.information_state_layout))
        #: the same as lists of floats (OpenSpiel's form: a list copy costs no new float)
        self.list_pools = (BufferPool(self.observation_layout, ListBuffer),
                           BufferPool(self.information_state_layout, ListBuffer))


    def params(self) -> dict[str, Any]:
        """Everything that rebuilds this object: ``InteropGame(name, **params())``."""
        opts = {s.name: self.game.options[s.name] for s in self.game.option_specs}
        return {**opts, "max_turns": self.max_turns, "chance": self.chance,
                "layout_seeds": self.layout_seeds, "seed": self.seed, "actions": self.actions}

    def new_initial_state(self) -> "InteropState":
        """A new game: at the layout chance node (explicit chance), else at its first action."""
        if self.layout_chance:
            return InteropState(self, None, [], 0, None)
        if not self.game.has_chance:
            template = self._template
            if template is None:
                template = self._template = self.game.new_initial_state()
            return InteropState(self, template.clone(), [], 0, None)
        return InteropState(self, self.start(self.seed), [], 0, self.seed)  # type: ignore[arg-type]

    def __reduce__(self) -> tuple:
        # rebuilt from its parameters: kept tensors and starts are this process's
        return (_rebuild_game, (self.name, self.params()))

    def start(self, seed: int) -> State:
        """A new game of the engine laid out or dealt with ``seed`` (a clone of a kept one)."""
        starts = self._starts
        template = starts.get(seed)
        if template is None:
            if len(starts) >= START_CACHE:
                del starts[next(iter(starts))]  # the oldest
            template = starts[seed] = self.game.new_initial_state(seed=seed)
        return template.clone()

    def __repr__(self) -> str:
        return f"InteropGame({self.name!r}, {self.params()!r})"


def render_text(state: InteropState, player: int | None = None) -> str:
    """The game's terminal picture of ``state`` as plain text (no colours), as seat ``player``
    may see it (``None``: everything, every hand included)."""
    if state.inner is None:
        return state.to_text()
    picture = state.game.game.render(state.inner, player)
    if isinstance(picture, str):
        return picture
    from rich.console import Console

    out = io.StringIO()
    Console(file=out, width=100, color_system=None, force_terminal=False).print(picture)
    return out.getvalue()


def resolve_chance(state: "InteropState", rng: random.Random) -> None:
    """Apply sampled chance outcomes until a player is to move or the game is over (the
    environments' chance: the layout seed uniformly from 0..K-1, draws and reveals from their
    distributions)."""
    while state.is_chance_node():
        if state.inner is None:
            state.apply_action(rng.randrange(state.game.layout_seeds))
            continue
        outcomes = state.chance_outcomes()
        r = rng.random()
        acc = 0.0
        pick = outcomes[-1][0]
        for outcome, p in outcomes:
            acc += p
            if r < acc:
                pick = outcome
                break
        state.apply_action(pick)


def _rebuild_game(name: str, params: Mapping[str, Any]) -> InteropGame:
    return InteropGame(name, **params)


def _rebuild_sample(name: str, params: Mapping[str, Any], inner: State, history: list[int], moves: int,
                    seed: int | None, parts: tuple[int, ...] = ()) -> "InteropState":
    state = InteropState(InteropGame(name, **params), inner, history, moves, seed, sampled=True)
    state._parts = parts
    return state


def _rebuild(name: str, params: Mapping[str, Any], seed: int | None, history: list[int]) -> "InteropState":
    game = InteropGame(name, **params)
    if seed is not None:
        state = InteropState(game, game.game.new_initial_state(seed), [], 0, seed)
    else:
        state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


#: A node of the parts tree of one state: part -> the engine action it completes, or the node
#: of the parts that may follow it.
Choices = dict


class InteropState:
    """One game in progress: the layout node, then the abstracta state (``inner``).

    Actions are the game's integers — with a codec (compact actions), the parts of the engine's
    actions (:mod:`abstracta.core.actions`); at chance nodes they are the outcomes (layout ``k``
    is seed ``k``). Pickles as (game, parameters, seed, history) and replays — except a
    determinization (:meth:`resample_from_infostate`), whose history would replay the real
    hidden cards: it pickles its own abstracta state.
    """

    __slots__ = ("game", "inner", "_history", "_moves", "_seed", "_sampled", "_parts", "_choices", "_player")

    def __init__(self, game: InteropGame, inner: State | None, history: list[int], moves: int,
                 seed: int | None, sampled: bool = False):
        self.game = game
        self.inner = inner
        self._history = history
        self._moves = moves  # engine actions by players (what max_turns counts)
        self._seed = seed
        self._sampled = sampled  # a determinization: its history replays the real cards
        self._parts: tuple[int, ...] = ()  # parts chosen so far of the engine action in progress
        self._choices: Choices | None = None  # the parts tree of this position (codec), built once
        #: :meth:`current_player`, kept until the next action (``None``: not yet known) — the
        #: adapters ask for it several times per action (OpenSpiel's is_terminal, is_chance_node,
        #: current_player, legal_actions, apply_action), and only this object changes ``inner``
        self._player: int | None = None
        if inner is not None and game.explicit_chance and not history:
            inner.set_explicit_chance(True)

    def __deepcopy__(self, memo: dict) -> "InteropState":
        return self.clone()  # pyspiel clones Python states with deepcopy: no replay

    def __reduce__(self) -> tuple:
        g = self.game
        if self._sampled:
            return (_rebuild_sample, (g.name, g.params(), self.inner, list(self._history), self._moves, self._seed,
                                      self._parts))
        seed = self._seed if g.chance == "seeded" else None
        return (_rebuild, (g.name, g.params(), seed, list(self._history)))

    # --- whose turn ---------------------------------------------------------------------------
    def is_truncated(self) -> bool:
        """Over by ``max_turns`` (not by the rules)."""
        inner = self.inner
        return (inner is not None and self.game.max_turns > 0 and self._moves >= self.game.max_turns
                and not inner.is_terminal())

    def current_player(self) -> int:
        """0..n-1, :data:`CHANCE` (-1) or :data:`TERMINAL` (-4)."""
        player = self._player
        if player is None:
            inner = self.inner
            if inner is None:
                player = CHANCE
            else:
                max_turns = self.game.max_turns
                player = TERMINAL if max_turns and self._moves >= max_turns else inner.current_player()
            self._player = player
        return player

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` in ascending outcome order at a chance node, else ``[]``."""
        if self.inner is None:
            k = self.game.layout_seeds
            return [(i, 1.0 / k) for i in range(k)]
        if self.current_player() != CHANCE:
            return []
        return sorted(self.inner.chance_outcomes())

    def choices(self) -> Choices:
        """The parts tree below the parts chosen so far (codec only; the mover's turn)."""
        node = self._choices
        codec = self.game.codec
        inner = self.inner
        if node is None:
            node = self._choices = codec.tree(inner, inner.legal_actions())  # type: ignore[union-attr]
        for part in self._parts:
            sub = node[part]
            if type(sub) is not dict:  # a branch the codec builds when its part is chosen
                sub = node[part] = codec.expand(inner, sub)  # type: ignore[union-attr]
            node = sub
        return node

    def legal_ids(self) -> "Iterable[int]":
        """The mover's legal actions in no particular order (the environments' masks); only at
        a player's turn."""
        if self.game.codec is None:
            return self.inner.legal_actions()  # type: ignore[union-attr]
        return self.choices().keys()

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Legal actions (or chance outcomes) in ascending order; ``[]`` if ``player`` is given
        and not to move, or at the end."""
        mover = self.current_player()
        if mover == TERMINAL or (player is not None and player != mover):
            return []
        if mover == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return sorted(self.legal_ids())

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """``num_distinct_actions`` ints, 1 at the legal actions of ``player`` (default: mover)."""
        mask = [0] * self.game.num_distinct_actions
        mover = self.current_player()
        if mover >= 0 and (player is None or player == mover):
            for a in self.legal_ids():
                mask[a] = 1
        return mask

    def apply_action(self, action: int) -> None:
        """Apply a legal action or chance outcome (an ``int`` or NumPy integer, :func:`as_action`).
        Raises :class:`IllegalActionError` (unchanged)."""
        mover = self.current_player()
        if mover == TERMINAL:
            raise IllegalActionError(f"action {action!r}: the game is over")
        if type(action) is not int:
            action = as_action(action)
        inner = self.inner
        if inner is None:
            if not 0 <= action < self.game.layout_seeds:
                raise IllegalActionError(f"layout {action!r} is not in 0..{self.game.layout_seeds - 1}")
            inner = self.inner = self.game.start(action)
            if self.game.explicit_chance:
                inner.set_explicit_chance(True)
            self._history.append(action)
            self._player = None
            return
        if mover >= 0 and self.game.codec is not None:
            nxt = self.choices().get(action)
            if nxt is None:
                raise IllegalActionError(f"action {action!r} is not legal here (legal: {self.legal_actions()})")
            self._history.append(action)
            if type(nxt) is not int:  # more parts follow: the same player acts again
                self._parts += (action,)
                return
            inner.apply_action(nxt)
            self._parts = ()
            self._choices = None
            self._moves += 1
            self._player = None
            return
        inner.apply_action(action)
        self._history.append(action)
        self._choices = None
        if mover >= 0:
            self._moves += 1
        self._player = None

    def apply_legal(self, action: int) -> int:
        """The environments' path: apply ``action``, an ``int`` from the mover's mask (so legal,
        at a player's turn: unchecked), and return the new :meth:`current_player`."""
        inner = self.inner
        if self.game.codec is not None:
            nxt = self.choices()[action]
            if type(nxt) is not int:  # more parts follow: the same player acts again
                self._history.append(action)
                self._parts += (action,)
                return self.current_player()
            inner.apply_action(nxt)  # type: ignore[union-attr]
            self._parts = ()
            self._choices = None
        else:
            inner.apply_action(action)  # type: ignore[union-attr]  (the engine refuses an illegal one, unchanged)
        self._history.append(action)
        moves = self._moves = self._moves + 1
        max_turns = self.game.max_turns
        if max_turns and moves >= max_turns:
            player = self._player = TERMINAL
        else:
            player = self._player = inner.current_player()  # type: ignore[union-attr]
        return player

    def apply_engine_action(self, action: int) -> None:
        """Apply the engine's ``action`` (a bot's) at a player's turn with no part pending: as
        its parts, with a codec, so that the history stays in this state's action space.
        Raises :class:`IllegalActionError`."""
        codec = self.game.codec
        if self.current_player() < 0:
            self.apply_action(action)  # refused: no player is to move
            return
        if codec is None:
            self.apply_legal(action)  # the engine refuses an illegal action, unchanged
            return
        if self._parts:
            raise IllegalActionError(f"engine action {action!r}: a move is half chosen ({self._parts})")
        if action not in self.inner.legal_actions():  # type: ignore[union-attr]
            raise IllegalActionError(f"engine action {action!r} is not legal here")
        for part in codec.encode(self.inner, action):
            self.apply_action(part)

    # --- results --------------------------------------------------------------------------
    def returns(self) -> list[float]:
        """Per seat: the rules' returns at the end, 0 for everyone while running or truncated."""
        if self.inner is None or self.is_truncated():
            return [0.0] * self.game.num_players
        return [float(r) for r in self.inner.returns()]

    def history(self) -> list[int]:
        """Every action (or part) and chance outcome since the start (the layout first)."""
        return list(self._history)

    @property
    def move_number(self) -> int:
        """Player actions of the engine so far (a codec's parts not counted)."""
        return self._moves

    @property
    def pending_parts(self) -> tuple[int, ...]:
        """The parts chosen so far of an engine action not yet complete (codec only)."""
        return self._parts

    def clone(self) -> "InteropState":
        inner = self.inner.clone() if self.inner is not None else None
        other = InteropState(self.game, inner, self._history[:], self._moves, self._seed, self._sampled)
        other._parts = self._parts
        other._player = self._player
        other._choices = self._choices  # built once per position, never changed
        return other

    # --- strings and tensors ---------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        """The engine's notation of the action ``action`` completes here; a part that does not
        complete one here gets the codec's label."""
        if self.inner is None:
            return f"layout {action}"
        codec = self.game.codec
        if codec is not None and self.current_player() >= 0:
            nxt = self.choices().get(action)
            if type(nxt) is int:
                return self.inner.action_to_string(nxt)
            try:
                return codec.part_string(int(action))
            except Exception:  # noqa: BLE001 - an id that names nothing here still gets a label
                return f"action {action}"
        try:
            return self.inner.action_to_string(int(action))
        except Exception:  # noqa: BLE001 - an id that names nothing here still gets a label
            return f"action {action}"

    def to_text(self) -> str:
        """The position text (``layout ?`` before the layout chance node)."""
        return "layout ?" if self.inner is None else self.inner.to_text()

    def _pending_text(self) -> str:
        codec = self.game.codec
        return " | picked " + " ".join(codec.part_string(p) for p in self._parts) if self._parts else ""  # type: ignore[union-attr]

    def observation_string(self, player: int) -> str:
        if self.inner is None:
            return "layout ?"
        return self.inner.observation(player) + self._pending_text()

    def information_state_string(self, player: int) -> str:
        """What ``player`` knows (the layout seed itself is not part of it: a hidden deal)."""
        if self.inner is None:
            return "layout ?"
        return self.inner.information_state_string(player) + self._pending_text()

    def observation_features(self, player: int) -> Features:
        """The observation of ``player`` as tensor features (:mod:`abstracta.core.tensors`),
        laid out by ``game.observation_layout``. ``ValueError`` for a player that is no seat."""
        inner = self.inner
        game = self.game
        if inner is None:
            layout = game.observation_layout
            return (0,) * len(layout.tables), (0,) * len(layout.scalars)
        features = game.tensors.observation_features(inner, player)
        codec = game.codec
        if codec is not None and codec.planes:
            return (*features[0], codec.pending_bits(self._parts)), features[1]
        return features

    def information_state_features(self, player: int) -> Features:
        """As :meth:`observation_features`, for the information state."""
        inner = self.inner
        game = self.game
        if inner is None:
            layout = game.information_state_layout
            return (0,) * len(layout.tables), (0,) * len(layout.scalars)
        features = game.tensors.information_state_features(inner, player)
        codec = game.codec
        if codec is not None and codec.planes:
            return (*features[0], codec.pending_bits(self._parts)), features[1]
        return features

    def observation_tensor(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """``float32`` of shape ``(observation_size,)`` (zeros before the layout), written into
        ``out`` when given, else a new array (through the game's kept tensor of ``player``)."""
        if out is None:
            return self.game.pools[0].array(player, self.observation_features(player))
        return write_tensor(self.game.observation_layout, self.observation_features(player), out)

    def information_state_tensor(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """``float32`` of shape ``(information_state_size,)``, as :meth:`observation_tensor`."""
        if out is None:
            return self.game.pools[1].array(player, self.information_state_features(player))
        return write_tensor(self.game.information_state_layout, self.information_state_features(player), out)

    # --- hidden information -------------------------------------------------------------------
    def resample_from_infostate(self, player: int, rng: random.Random | None = None) -> "InteropState":
        """A state ``player`` cannot tell from this one (the game's determinization), with this
        one's history, move number and pending parts."""
        if self.inner is None:
            return self.clone()
        inner = self.inner.resample_from_infostate(player, rng or random.Random())
        other = InteropState(self.game, inner, self._history[:], self._moves, self._seed, sampled=True)
        other._parts = self._parts
        return other

    def bot_view(self) -> State:
        """A copy of the abstracta state for abstracta's bots (seeded chance: their searches
        have no chance nodes). Only at a player's turn."""
        view = self.inner.clone()  # type: ignore[union-attr]
        view.set_explicit_chance(False)
        return view

    def __str__(self) -> str:
        return self.to_text() + (self._pending_text() if self.inner is not None else "")

    def __repr__(self) -> str:
        return f"<InteropState {self.game.name} {str(self)!r}>"


class EpisodeBinding:
    """What the Gymnasium and PettingZoo environments share: the episode's features and legal
    list bound once (:meth:`_bind`, from ``self.state`` and ``self.interop``), and a pickle or
    copy that binds its own."""

    state: InteropState
    interop: InteropGame

    def __getstate__(self) -> dict[str, Any]:
        # the bound features and legal list name this episode's game: a copy's state is rebuilt
        # on its own (InteropState pickles as its history), so the copy binds its own
        fields = self.__dict__.copy()
        fields.pop("_features", None)
        fields.pop("_legal_ids", None)
        return fields

    def __setstate__(self, fields: dict[str, Any]) -> None:
        self.__dict__.update(fields)
        self._bind()

    def _bind(self) -> None:
        """The episode's features and legal actions, bound once (the hot path calls them every
        step): straight to the game's tensors and the engine's legal list where no compact
        action space stands between (the engine state is fixed once the layout is dealt)."""
        state = self.state
        inner = state.inner
        if inner is None or self.interop.codec is not None:
            self._features = state.observation_features
            self._legal_ids = state.legal_ids
        else:
            self._features = partial(self.interop.tensors.observation_features, inner)
            self._legal_ids = inner.legal_actions


__all__ = ["EpisodeBinding", "ACTION_SPACES", "CHANCE_MODES", "DEFAULT_LAYOUT_SEEDS", "DEFAULT_MAX_TURNS", "ENV_LAYOUT_SEEDS", "as_action", "render_text", "resolve_chance", "InteropGame", "InteropState",
           "variant_options"]
