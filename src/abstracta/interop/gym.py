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

``make(game_name, opponent="level:2", seat=0, render_mode=None, **params)``: the agent plays
seat ``seat``; every other seat is an abstracta bot built from the seat spec ``opponent``
(``abstracta.ai.make_bot``: ``level:1`` … ``level:6``, ``random``, ``mcts:0.5`` …), seeded
from ``reset(seed=…)``. ``params`` are the game's options and the
:class:`~abstracta.interop.core.InteropGame` parameters; chance is sampled from the reset's
generator (``layout_seeds`` defaults to 2**63 here).

* ``observation_space``: float32 ``Box`` in [0, 1] of shape (observation size,), laid out by
  ``Game.observation_planes()``, from the agent's seat;
* ``action_space``: ``Discrete(num_distinct_actions)``; the legal ones are
  ``info["action_mask"]`` and ``action_masks()`` (int8, for MaskablePPO and the like);
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

from ..ai import make_bot
from ..core.errors import IllegalActionError
from ..core.registry import registered_games
from ..core.game import as_integer
from .core import ENV_LAYOUT_SEEDS, InteropGame, InteropState, as_action, render_text, resolve_chance


class AbstractaGymEnv(gymnasium.Env):
    """A game against abstracta bots, from one seat (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, game_name: str, opponent: str = "level:2", seat: int = 0,
                 render_mode: str | None = None, **params: Any):
        params.setdefault("layout_seeds", ENV_LAYOUT_SEEDS)
        self.interop = InteropGame(game_name, **params)
        n = self.interop.num_players
        index = as_integer(seat)  # a NumPy integer too
        if index is None or not 0 <= index < n:
            raise ValueError(f"seat {seat!r} is not a seat of {game_name} (0..{n - 1})")
        seat = index
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        if make_bot(opponent, self.interop.game, 0) is None:  # a bad spec fails here, not at reset
            raise ValueError(f"opponent {opponent!r} is not a bot: every other seat is played by one")
        self.opponent = opponent
        self.seat = seat
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (self.interop.observation_size,), np.float32)
        self.action_space = spaces.Discrete(self.interop.num_distinct_actions)
        self._rng = random.Random()
        self._bots: dict[int, Any] = {}
        self.state: InteropState = self.interop.new_initial_state()
        self._over = True  # no episode before the first reset()

    # --- helpers ---------------------------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """int8 of shape (num_distinct_actions,): 1 at the agent's legal actions (all 0 at the end)."""
        mask = np.zeros(self.interop.num_distinct_actions, np.int8)
        if self.state.current_player() == self.seat:
            mask[self.state.legal_actions()] = 1
        return mask

    def _obs(self) -> np.ndarray:
        return np.asarray(self.state.observation_tensor(self.seat), np.float32)

    def _info(self, **more: Any) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), **more}

    def _advance(self) -> None:
        """Resolve chance and let the bots play until the agent is to move or the game is over."""
        state = self.state
        while True:
            resolve_chance(state, self._rng)
            mover = state.current_player()
            if mover < 0 or mover == self.seat:
                return
            state.apply_engine_action(self._bots[mover].step(state.bot_view()))

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
        game = self.interop.game
        self._bots = {i: make_bot(self.opponent, game, self._rng.getrandbits(32))
                      for i in range(self.interop.num_players) if i != self.seat}
        self.state = self.interop.new_initial_state()
        self._advance()
        if self.state.is_terminal() and self.state.is_truncated():
            # an episode must start with the agent's move: refuse rather than hand back one over
            raise ValueError(f"max_turns={self.interop.max_turns} ends the game before seat {self.seat} moves "
                             f"(the opponents' actions come first): give max_turns more")
        self._over = False
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        state = self.state
        if self._over or state.is_terminal():  # an illegal action ends the episode too
            raise RuntimeError("step() with no episode running (it ended, or reset() was never called): call reset()")
        legal = state.legal_actions(self.seat)
        try:
            a = as_action(action)
        except IllegalActionError:
            a = -1
        if a not in legal:
            self._over = True
            return self._obs(), -1.0, True, False, self._info(illegal_action=True)
        state.apply_action(a)
        self._advance()
        if self.render_mode == "human":
            self.render()
        if state.is_terminal():
            self._over = True
            truncated = state.is_truncated()
            reward = 0.0 if truncated else float(state.returns()[self.seat])
            return self._obs(), reward, not truncated, truncated, self._info()
        return self._obs(), 0.0, False, False, self._info()

    def render(self) -> str | None:
        state = self.state
        text = render_text(state, None if state.is_terminal() else self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def make(game_name: str, opponent: str = "level:2", **kwargs: Any) -> AbstractaGymEnv:
    """The environment of ``game_name`` against ``opponent`` (see the module docstring)."""
    return AbstractaGymEnv(game_name, opponent=opponent, **kwargs)


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

__all__ = ["AbstractaGymEnv", "NAMESPACE", "REGISTERED", "env_id", "make", "register_all"]
