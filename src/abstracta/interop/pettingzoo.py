"""Every abstracta game as a PettingZoo AEC environment (extra ``[pettingzoo]``; issue 19).

>>> from abstracta.interop.pettingzoo import env
>>> e = env("fanorona", size="telo")
>>> e.reset(seed=1)
>>> e.agent_selection
'player_0'

``env(game_name, render_mode=None, **params)``: ``params`` are the game's options and the
:class:`~abstracta.interop.core.InteropGame` parameters (``max_turns``, ``chance``,
``layout_seeds``, ``seed``, ``actions``: Slide Checkers' compact action space by default). Chance (the layout seed, card draws, pile reveals) is sampled
from the generator of ``reset(seed=…)``; ``layout_seeds`` defaults to 2**63 here.

* agents ``player_0`` … ``player_{n-1}`` (2–4);
* ``action_space(agent)``: ``Discrete(num_distinct_actions)`` (the game's integer actions, or
  the parts of its compact action space: :mod:`abstracta.core.actions`);
* ``observe(agent)`` / ``observation_space(agent)``: ``{"observation": float32 Box in [0, 1]
  of shape (observation size,), laid out by ``Game.observation_planes()``; "action_mask":
  int8 of shape (num_distinct_actions,)}`` — 1 at the legal actions of the agent to move, all
  0 for the others; the mask is also ``infos[agent]["action_mask"]``. The observation is a new
  array each time (copied from the seat's tensor, which is kept up to date by differences);
  the mask is built once per step, shared by ``observe`` and ``infos`` and read-only;
* rewards: the rules' returns (+1 win, −1 loss, 0 draw; Slide Checkers' eliminated seats −1)
  when the game ends, else 0; ``terminations`` all true at the end, ``truncations`` all true
  (rewards 0) when ``max_turns`` player actions were played first;
* ``reset(seed=…, options=…)``: ``seed`` is ``None`` or an integer ≥ 0 (a NumPy one too; a
  negative, ``bool``, float or string seed raises ``ValueError``); ``options`` go unused (PettingZoo's ``api_test`` resets with
  made-up ones and expects them taken; the configuration is ``env``'s arguments);
* ``render()``: the board as text (``render_mode="ansi"`` returns it, ``"human"`` prints it):
  the whole state, every hand included — the environment's picture for whoever runs it, not
  an agent's observation (agents get ``observe``).

An illegal action raises :class:`abstracta.IllegalActionError` (a ``ValueError``) and leaves
the game unchanged.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core.errors import IllegalActionError
from ..core.game import CHANCE, as_integer
from ..core.tensors import TensorBuffer
from .core import ENV_LAYOUT_SEEDS, EpisodeBinding, InteropGame, InteropState, as_action, render_text, resolve_chance


class AbstractaAECEnv(EpisodeBinding, AECEnv):
    """An abstracta game as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game_name: str, render_mode: str | None = None, **params: Any):
        super().__init__()
        params.setdefault("layout_seeds", ENV_LAYOUT_SEEDS)
        self.interop = InteropGame(game_name, **params)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"abstracta_{self.interop.name.replace('-', '_')}_v0"}
        n = self.interop.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = self.possible_agents[:]
        num_actions = self.interop.num_distinct_actions
        obs = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.interop.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
        })
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self._rng: random.Random | None = random.Random()
        self._seed: int | None = None
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self._num_actions = num_actions
        #: one tensor per seat, kept by differences (:class:`TensorBuffer`)
        self._buffers = [TensorBuffer(self.interop.observation_layout) for _ in range(n)]
        self._zero_mask = np.zeros(num_actions, np.int8)
        self._zero_mask.flags.writeable = False
        self._mover_mask = self._zero_mask
        self._marks = bytes(num_actions)  # the mover's mask, as bytes (step's legality check)
        self._mover = -1
        self.state: InteropState = self.interop.new_initial_state()
        self._bind()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- the game -------------------------------------------------------------------------
    def _mask(self, agent: str) -> np.ndarray:
        """The agent's action mask now (read-only; all 0 unless it is to move)."""
        seat = self._seat_of[agent]
        return self._mover_mask if seat == self._mover else self._zero_mask

    def _random(self) -> random.Random:
        """The generator of chance, seeded by the last ``reset(seed=…)`` (when first needed)."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._seed)
        return rng

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat_of[agent]
        return {"observation": self._buffers[seat].update(self._features(seat)).copy(),
                "action_mask": self._mover_mask if seat == self._mover else self._zero_mask}

    def _sync(self, mover: int) -> None:
        """After a change (``mover``: the state's current player, chance resolved): who moves,
        the mover's mask (built once) in ``infos``, the end."""
        infos = self.infos
        old = self._mover
        if old >= 0:
            infos[self.possible_agents[old]]["action_mask"] = self._zero_mask
        if mover < 0:  # the end
            state = self.state
            truncated = state.is_truncated()
            returns = state.returns()
            for i, agent in enumerate(self.agents):
                self.rewards[agent] = 0.0 if truncated else returns[i]
                self.terminations[agent] = not truncated
                self.truncations[agent] = truncated
            self._mover = -1
            self._mover_mask = self._zero_mask
            self._marks = bytes(self._num_actions)
            return
        marks = bytearray(self._num_actions)
        for a in self._legal_ids():
            marks[a] = 1
        # bytes are immutable: the array over them is read-only, and nothing can change the
        # legality check that step reads from them
        marks = self._marks = bytes(marks)
        mask = self._mover_mask = np.frombuffer(marks, np.int8)
        self._mover = mover
        agent = self.agent_selection = self.possible_agents[mover]
        infos[agent]["action_mask"] = mask

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            index = as_integer(seed)
            if index is None or index < 0:
                # random.Random would take -5 as 5, and a float or a string as some other seed:
                # refuse as Gymnasium's reset does, before anything changes
                raise ValueError(f"reset seed {seed!r}: expected None or an integer >= 0")
            # seeded when chance first draws from it (seeding costs 5 µs; Fanorona never draws)
            self._rng = None
            self._seed = index
        self.state = self.interop.new_initial_state()
        if self.state.is_chance_node():
            resolve_chance(self.state, self._random())
        self._bind()
        # each seat's tensor from the last episode's first one (a few bits away), not from
        # where that episode ended
        features = self._features
        for seat, buffer in enumerate(self._buffers):
            buffer.restart(features(seat))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"action_mask": self._zero_mask} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._mover = -1
        self._sync(self.state.current_player())

    def step(self, action: int | None) -> None:
        if self._mover < 0:  # the game is over (every agent is terminated or truncated)
            self._was_dead_step(action)
            return
        if type(action) is not int:
            try:
                action = as_action(action)  # a NumPy integer; None, a float or a string is refused
            except IllegalActionError:
                raise IllegalActionError(f"{self.agent_selection}: action {action!r} is not legal here") from None
        if not 0 <= action < self._num_actions or not self._marks[action]:
            raise IllegalActionError(f"{self.agent_selection}: action {action!r} is not legal here")
        state = self.state
        mover = state.apply_legal(action)
        if mover == CHANCE:
            resolve_chance(state, self._random())
            mover = state.current_player()
        agent = self.agent_selection
        self._sync(mover)
        if mover < 0:  # rewards come only at the end: the rest of the time they stay 0
            self._cumulative_rewards[agent] = 0.0
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        text = render_text(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(game_name: str, render_mode: str | None = None, **params: Any) -> AbstractaAECEnv:
    """The AEC environment of ``game_name`` (see the module docstring)."""
    return AbstractaAECEnv(game_name, render_mode=render_mode, **params)


__all__ = ["AbstractaAECEnv", "env", "render_text"]
