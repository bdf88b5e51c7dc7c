"""Every abstracta game as a single-agent Gymnasium environment (extra ``[gym]``; issue 19).

Importing this module registers every game of ``abstracta.registered_games()`` with
``gymnasium.register`` as ``abstracta/<name>-v0`` (:data:`REGISTERED`); ``gymnasium.make`` passes
its keyword arguments on (the options and the parameters below)::

    import gymnasium
    import abstracta.interop.gym  # registers abstracta/<name>-v0
    env = gymnasium.make("abstracta/fanorona-v0", size="telo", opponent="level:1")

(``gymnasium.make("abstracta.interop.gym:abstracta/fanorona-v0")`` imports the module itself.)

>>> from abstracta.interop.gym import make
>>> env = make("fanorona", opponent="level:1", size="telo")
>>> obs, info = env.reset(seed=0)
>>> obs.shape == env.observation_space.shape, int(info["action_mask"].sum())
(True, 4)

``make(game_name, opponent="level:2", seat=0, render_mode=None, budgets="fixed", **params)``:
the agent plays seat ``seat``; every other seat is played by ``opponent``, one of

* a **seat spec** (``abstracta.ai.make_bot``: ``level:1`` … ``level:6``, ``random``,
  ``mcts:i500`` …), an abstracta bot seeded from ``reset(seed=…)``. With ``budgets="fixed"``
  (the default) the levels 3–6 search a fixed number of iterations or a fixed depth
  (:data:`abstracta.ai.levels.FIXED_BUDGETS`), so an episode replays from its seed on any
  machine; ``budgets="time"`` gives them their seconds, as in play — not reproducible, and the
  environment says so (``reproducible`` is false and a warning is given when it is made). A spec
  with seconds (``mcts:0.5``) is not reproducible either;
* a **policy**: a callable ``policy(observation, action_mask) -> action``, or an object with
  ``predict(observation, action_masks=mask)`` (Stable-Baselines3's ``MaskablePPO``; its first
  return value is the action) or ``act(observation, action_mask)``. It sees the observation from
  its own seat and acts in the environment's action space, as the agent does (an illegal action
  raises ``ValueError``);
* a ``dict`` ``{seat: opponent}`` with one of those for each other seat.

``set_opponent(opponent)`` changes them between episodes. :class:`SelfPlayEnv`
(``self_play(game_name, policy=None, **params)``) is the same game where one policy plays
every seat: the agent plays a seat drawn per episode from the reset's generator, and the others
are played by ``policy`` — give it the agent's own policy (``set_policy``) and it plays itself.
``params`` are the game's options and the :class:`~abstracta.interop.core.InteropGame`
parameters; chance is sampled from the reset's generator (``layout_seeds`` defaults to 2**63
here).

* ``observation_space``: float32 ``Box`` in [0, 1] of shape (observation size,), laid out by
  ``Game.observation_planes()`` (and the compact actions' planes), from the agent's seat; each
  observation is a new array, copied from the seat's tensor kept up to date by differences;
* ``action_space``: ``Discrete(num_distinct_actions)`` (Slide Checkers: its compact parts,
  :mod:`abstracta.core.actions`); the legal ones are ``info["action_mask"]`` and
  ``action_masks()`` (int8, built once per step, for MaskablePPO and the like);
* ``step(action)`` returns ``(obs, reward, terminated, truncated, info)``: the reward is the
  agent's return when the game ends (+1 win, −1 loss, 0 draw), else 0; ``truncated`` when
  ``max_turns`` player actions were played first (reward 0; ``reset()`` raises ``ValueError``
  when they would all be played before the agent's first move);
* **an illegal action ends the episode as a loss**: reward −1, ``terminated`` true,
  ``info["illegal_action"]`` true, the game unchanged, ``step`` refused until ``reset()``
  (an action is an ``int`` or a NumPy integer: a float, a string or ``None`` is illegal) (so ``gymnasium.utils.env_checker.check_env``,
  which steps random actions, passes);
* ``reset(seed=…)``: ``seed`` is ``None`` or an integer ≥ 0 (a NumPy one too; a negative,
  ``bool``, float or string seed raises ``ValueError``); it takes no ``options`` (a non-empty
  dict is refused: ``ValueError``);
* ``render()``: the board as text, as the agent's seat sees it (an opponent's hand stays
  hidden until the game is over).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.envs.registration import parse_env_id

from ..ai.levels import FIXED_BUDGETS, fixed_level_bot, is_reproducible, make_bot, parse_seat_spec
from ..ai.random_bot import RandomBot
from ..core.errors import IllegalActionError
from ..core.game import CHANCE, TERMINAL, as_integer
from ..core.registry import registered_games
from ..core.tensors import TensorBuffer
from .core import ENV_LAYOUT_SEEDS, EpisodeBinding, InteropGame, InteropState, as_action, render_text, resolve_chance


#: What may play the other seats: a seat spec, a policy (see the module docstring), or one per seat.
Opponent = Any
#: The budgets of the levels 3–6 given as seat specs: fixed (reproducible) or their seconds.
BUDGETS = ("fixed", "time")

_frombuffer = np.frombuffer  # the hot path's calls, looked up once
_INT8 = np.int8


def policy_action(policy: Any, observation: np.ndarray, mask: np.ndarray) -> Any:
    """Ask ``policy`` for an action: ``predict(observation, action_masks=mask)`` (its first
    value), ``act(observation, mask)``, or ``policy(observation, mask)``."""
    if hasattr(policy, "predict"):
        return policy.predict(observation, action_masks=mask)[0]
    if hasattr(policy, "act"):
        return policy.act(observation, mask)
    return policy(observation, mask)


def _is_policy(opponent: Any) -> bool:
    return callable(opponent) or hasattr(opponent, "predict") or hasattr(opponent, "act")


class AbstractaGymEnv(EpisodeBinding, gymnasium.Env):
    """A game against abstracta bots or policies, from one seat (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, game_name: str, opponent: Opponent = "level:2", seat: int = 0,
                 render_mode: str | None = None, budgets: str = "fixed", **params: Any):
        params.setdefault("layout_seeds", ENV_LAYOUT_SEEDS)
        self.interop = InteropGame(game_name, **params)
        n = self.interop.num_players
        index = as_integer(seat)  # a NumPy integer too
        if index is None or not 0 <= index < n:
            raise ValueError(f"seat {seat!r} is not a seat of {game_name} (0..{n - 1})")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        if budgets not in BUDGETS:
            raise ValueError(f"budgets {budgets!r} is not one of {', '.join(BUDGETS)}")
        self.seat = index
        self.budgets = budgets
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (self.interop.observation_size,), np.float32)
        self.action_space = spaces.Discrete(self.interop.num_distinct_actions)
        self._rng = random.Random()
        self._bots: dict[int, Any] = {}
        self._bot_specs: dict[int, str] = {}  # the seat spec each of _bots was made from
        #: seat -> the generator of its random bot, where the environment draws the bot's own
        #: draw itself (see _opponent_action); set by reset()
        self._quick: dict[int, random.Random] = {}
        self._buffers = [TensorBuffer(self.interop.observation_layout) for _ in range(n)]
        self._num_actions = self.interop.num_distinct_actions
        self._marks = bytes(self._num_actions)
        self._mask = np.frombuffer(self._marks, np.int8)
        self.state: InteropState = self.interop.new_initial_state()
        self._bind()
        self._over = True  # no episode before the first reset()
        #: a random bot may read the game itself (see _opponent_action)
        self._direct = not self.interop.explicit_chance
        self.set_opponent(opponent)

    # --- opponents -------------------------------------------------------------------------
    def set_opponent(self, opponent: Opponent) -> None:
        """Who plays the other seats from the next ``reset()`` on (see the module docstring).
        Raises ``ValueError`` for a seat spec that is no bot, or a ``dict`` missing a seat."""
        n = self.interop.num_players
        others = [i for i in range(n) if i != self.seat]
        if isinstance(opponent, dict):
            seats = {as_integer(k): v for k, v in opponent.items()}
            if sorted(k for k in seats if k is not None) != others:
                raise ValueError(f"opponent: a dict gives one opponent to each other seat {others}, "
                                 f"got seats {sorted(opponent)}")
        else:
            seats = dict.fromkeys(others, opponent)
        reproducible = True
        for who in seats.values():
            if isinstance(who, str):
                bot = self._make_bot(who, 0)  # a bad spec fails here, not at reset
                if bot is None:
                    raise ValueError(f"opponent {who!r} is not a bot: every other seat is played by one")
                reproducible = reproducible and is_reproducible(bot)
            elif not _is_policy(who):
                raise ValueError(f"opponent {who!r}: expected a seat spec, a callable (observation, action_mask) "
                                 "-> action, or an object with predict or act")
        self._opponents: dict[int, Any] = seats
        self.opponent = opponent
        #: whether an episode replays from its reset seed (no time-budgeted bot; a policy
        #: opponent is taken to be deterministic — that is its own affair)
        self.reproducible = reproducible
        if not reproducible:
            gymnasium.logger.warn(f"{self.interop.name}: an opponent searches for a time, not a fixed budget: "
                                  "an episode does not replay from its seed (budgets='fixed' makes levels 3-6 "
                                  "reproducible; mcts:i500, alphabeta:d3 are)")

    def _make_bot(self, spec: str, seed: int | None) -> Any:
        game = self.interop.game
        if self.budgets == "fixed":
            canonical = parse_seat_spec(spec, game)
            if canonical.startswith("level:") and int(canonical[6:]) in FIXED_BUDGETS:
                return fixed_level_bot(game, int(canonical[6:]), seed)
        return make_bot(spec, game, seed)

    # --- helpers ---------------------------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """int8 of shape (num_distinct_actions,): 1 at the agent's legal actions (all 0 at the
        end); the same array as ``info["action_mask"]`` of this step (a copy: yours to keep)."""
        return self._mask.copy()

    def _obs(self) -> np.ndarray:
        seat = self.seat
        return self._buffers[seat].update(self._features(seat)).copy()

    def _build_mask(self, mover: int) -> None:
        """The agent's mask (all 0 unless ``mover``, the player to move, is the agent's seat),
        built once for this step: over immutable bytes, so it is read-only and nothing changes
        the legality check that :meth:`step` reads from the same bytes."""
        marks = bytearray(self._num_actions)
        if mover == self.seat:
            for a in self._legal_ids():
                marks[a] = 1
        marks = self._marks = bytes(marks)
        self._mask = _frombuffer(marks, _INT8)

    def _info(self, **more: Any) -> dict[str, Any]:
        return {"action_mask": self._mask, **more}

    def _opponent_action(self, mover: int) -> int:
        """One action (or part) of the opponent of seat ``mover``; returns the player to move next."""
        state = self.state
        bot = self._bots.get(mover)
        if bot is not None:
            if self._direct and isinstance(bot, RandomBot):
                # a random bot only reads the state: it may read the game itself (no copy),
                # unless chance is explicit, which bots never see (a plain RandomBot without
                # compact actions does not come here: _advance draws its action, _quick)
                state.apply_engine_action(bot.step(state.inner))
            else:
                state.apply_engine_action(bot.step(state.bot_view()))
            return state.current_player()
        policy = self._opponents[mover]
        observation = self._buffers[mover].update(state.observation_features(mover)).copy()
        marks = bytearray(self._num_actions)
        for a in state.legal_ids():
            marks[a] = 1
        action = policy_action(policy, observation, np.frombuffer(bytes(marks), np.int8))
        try:
            a = as_action(action)
        except IllegalActionError:
            a = -1
        if not 0 <= a < len(marks) or not marks[a]:
            raise ValueError(f"opponent of seat {mover}: action {action!r} is not legal here")
        return state.apply_legal(a)

    def _advance(self, mover: int) -> int:
        """From ``mover``, the player to move: resolve chance and let the opponents play until
        the agent is to move or the game is over; build the agent's mask; return the player to move."""
        state = self.state
        seat = self.seat
        quick = self._quick
        while mover != seat and mover != TERMINAL:
            rng = quick.get(mover)
            if rng is not None:  # RandomBot.step's own draw, from the same generator
                legal = self._legal_ids()
                mover = state.apply_legal(legal[rng.randrange(len(legal))])
            elif mover == CHANCE:
                resolve_chance(state, self._rng)
                mover = state.current_player()
            else:
                mover = self._opponent_action(mover)
        self._build_mask(mover)
        return mover

    # --- gymnasium ---------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        if options:
            # the whole configuration is given when the environment is made: an option here
            # would otherwise go unused without a word
            raise ValueError(f"reset options {sorted(options)}: this environment takes none (give the game's "
                             "options, opponent and seat when making it)")
        if seed is not None:
            index = as_integer(seed)
            if index is None or index < 0:
                # as PettingZoo's reset: Gymnasium would take True as 1 and raise its own error
                # type for the rest, before anything changes
                raise ValueError(f"reset seed {seed!r}: expected None or an integer >= 0")
            seed = index  # a NumPy seed (np.arange) is the int it is; Gymnasium takes only ints
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self._start_episode()
        self._bots = self._new_bots()
        state = self.state = self.interop.new_initial_state()
        if state.is_chance_node():
            resolve_chance(state, self._rng)
        self._bind()
        self._advance(state.current_player())
        if self.state.is_terminal() and self.state.is_truncated():
            # an episode must start with the agent's move: refuse rather than hand back one over
            raise ValueError(f"max_turns={self.interop.max_turns} ends the game before seat {self.seat} moves "
                             f"(the opponents' actions come first): give max_turns more")
        self._over = False
        seat = self.seat
        return self._buffers[seat].restart(self._features(seat)).copy(), self._info()

    def _new_bots(self) -> dict[int, Any]:
        """The seat specs' bots for a new episode, each seeded from the reset's generator. A
        random bot of the last episode with the same spec is reseeded instead of made again —
        the same bot as a new one (``Random(s)`` is ``seed(s)``), without parsing its spec and
        building it (7 µs, an eighth of a random Fanorona game's time in the environment)."""
        old = self._bots
        specs = self._bot_specs
        bots: dict[int, Any] = {}
        for i, who in self._opponents.items():
            if not isinstance(who, str):
                continue
            seed = self._rng.getrandbits(32)
            bot = old.get(i)
            if type(bot) is RandomBot and specs.get(i) == who:
                bot.rng.seed(seed)
                bot.seed = seed
            else:
                bot = self._make_bot(who, seed)
                specs[i] = who
            bots[i] = bot
        # a random bot only reads the state: the environment may draw its action on the game
        # itself (no copy, no call), unless chance is explicit (bots never see it) or compact
        # actions stand between (the bot picks an engine action, played as its parts)
        direct = self._direct and self.interop.codec is None
        self._quick = {i: bot.rng for i, bot in bots.items() if direct and type(bot) is RandomBot}
        return bots

    def _start_episode(self) -> None:
        """Before an episode's first action (self-play draws the agent's seat here)."""

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._over:  # an illegal action ends the episode too
            raise RuntimeError("step() with no episode running (it ended, or reset() was never called): call reset()")
        if type(action) is not int:
            try:
                action = as_action(action)
            except IllegalActionError:
                action = -1
        if not 0 <= action < self._num_actions or not self._marks[action]:
            self._over = True
            self._mask = self._mask.copy()  # every step hands out its own mask (Gymnasium's rule)
            return self._obs(), -1.0, True, False, self._info(illegal_action=True)
        state = self.state
        mover = state.apply_legal(action)
        if mover != self.seat:
            mover = self._advance(mover)
        else:  # the agent again (a capture chain, a multi-disc take)
            self._build_mask(mover)
        if self.render_mode == "human":
            self.render()
        seat = self.seat
        observation = self._buffers[seat].update(self._features(seat)).copy()
        if mover == TERMINAL:
            self._over = True
            truncated = state.is_truncated()
            reward = 0.0 if truncated else float(state.returns()[seat])
            return observation, reward, not truncated, truncated, {"action_mask": self._mask}
        return observation, 0.0, False, False, {"action_mask": self._mask}

    def render(self) -> str | None:
        state = self.state
        text = render_text(state, None if state.is_terminal() else self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


class SelfPlayEnv(AbstractaGymEnv):
    """One policy plays every seat (see the module docstring): the agent plays the seat drawn
    for the episode (``seat`` attribute, after ``reset``), ``policy`` the others — until
    :meth:`set_policy` gives one, a uniformly random legal action from the reset's generator.

    Args:
        game_name, render_mode, params: as :class:`AbstractaGymEnv`.
        policy: a callable ``(observation, action_mask) -> action`` or an object with
            ``predict``/``act`` (see the module docstring), or ``None``.
        seats: the seats the agent may be dealt (default: all); one seat fixes it.
    """

    def __init__(self, game_name: str, policy: Any = None, seats: Any = None, render_mode: str | None = None,
                 **params: Any):
        self._policy = policy if policy is not None else self._random_policy
        super().__init__(game_name, opponent=self._policy_of_the_others, seat=0, render_mode=render_mode, **params)
        n = self.interop.num_players
        seats = list(range(n)) if seats is None else [seats] if as_integer(seats) is not None else list(seats)
        checked = [as_integer(s) for s in seats]
        if not checked or any(s is None or not 0 <= s < n for s in checked):
            raise ValueError(f"seats {seats!r}: expected seats of {game_name} (0..{n - 1})")
        self.seats = checked

    def _random_policy(self, observation: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[self._rng.randrange(len(legal))])

    def _policy_of_the_others(self, observation: np.ndarray, mask: np.ndarray) -> Any:
        return policy_action(self._policy, observation, mask)

    def set_policy(self, policy: Any) -> None:
        """The policy of the other seats from now on (``None``: random legal actions)."""
        if policy is not None and not _is_policy(policy):
            raise ValueError(f"policy {policy!r}: expected a callable (observation, action_mask) -> action, "
                             "or an object with predict or act")
        self._policy = policy if policy is not None else self._random_policy

    def _start_episode(self) -> None:
        self.seat = self.seats[self._rng.randrange(len(self.seats))] if len(self.seats) > 1 else self.seats[0]
        others = [i for i in range(self.interop.num_players) if i != self.seat]
        self._opponents = dict.fromkeys(others, self._policy_of_the_others)


def make(game_name: str, opponent: Opponent = "level:2", **kwargs: Any) -> AbstractaGymEnv:
    """The environment of ``game_name`` against ``opponent`` (see the module docstring)."""
    return AbstractaGymEnv(game_name, opponent=opponent, **kwargs)


def self_play(game_name: str, policy: Any = None, **kwargs: Any) -> SelfPlayEnv:
    """The environment of ``game_name`` where ``policy`` plays the seats the agent does not."""
    return SelfPlayEnv(game_name, policy=policy, **kwargs)


#: Namespace and version of the registered ids (``abstracta/<name>-v0``).
NAMESPACE = "abstracta"
VERSION = 0
#: Registered ids: abstracta game name -> Gymnasium id.
REGISTERED: dict[str, str] = {}


def env_id(game_name: str) -> str:
    """``"fibonacci-cards"`` -> ``"abstracta/fibonacci-cards-v0"``."""
    return f"{NAMESPACE}/{game_name}-v{VERSION}"


def _parsed_id(gid: str) -> tuple[str | None, str, int | None] | None:
    """Gymnasium's reading of an id ``(namespace, name, version)``, or None if it takes none."""
    try:
        return parse_env_id(gid)
    except gymnasium.error.Error:
        return None


def register_all() -> dict[str, str]:
    """Register every game of ``abstracta.registered_games()`` not yet registered (a game added
    later with ``abstracta.register_game`` registers on the next call); returns
    :data:`REGISTERED`. A game whose name makes no Gymnasium id (a space, a ``/`` or a ``:``)
    is left out: :func:`make` still builds it. Called on import."""
    for name in registered_games():
        if name in REGISTERED:
            continue
        gid = env_id(name)
        if ":" in name or _parsed_id(gid) != (NAMESPACE, name, VERSION):
            # a plug-in may call itself what no id can say ("tic tac toe"; ":" would make
            # gymnasium.make import a module): it has make() only, and the others still register
            continue
        if gid not in gymnasium.registry:
            gymnasium.register(id=gid, entry_point=f"{__name__}:AbstractaGymEnv", kwargs={"game_name": name})
        REGISTERED[name] = gid
    return REGISTERED


register_all()

__all__ = ["AbstractaGymEnv", "BUDGETS", "NAMESPACE", "REGISTERED", "SelfPlayEnv", "env_id", "make", "policy_action",
           "register_all", "self_play"]
