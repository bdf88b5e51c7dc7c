"""Every abstracta game for RLlib's new API stack (extra ``[rllib]``; issue 45).

``make_env({"game": NAME, **params})`` is the game's PettingZoo environment (``params``: its
options and the :class:`~abstracta.interop.core.InteropGame` parameters) wrapped in RLlib's
``PettingZooEnv``, its observations renamed as RLlib's action-masking ``RLModule``
(``ray.rllib.examples.rl_modules.classes.action_masking_rlm.ActionMaskingTorchRLModule``) reads
them: ``{"observations": float32 tensor, "action_mask": float32 0/1}``. Register it with
``ray.tune.registry.register_env("abstracta", make_env)``; it lives in the package so that Ray's
workers can import it. ``examples/rllib_nibble.py`` trains multi-agent PPO with it.

RLlib's environment check steps an unmasked random action, which the environment refuses as
illegal: give ``.environment(..., disable_env_checking=True)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import BaseWrapper

from .pettingzoo import env as abstracta_env


class MaskedObservations(BaseWrapper):
    """A PettingZoo environment of ours with RLlib's key names: ``{"observations",
    "action_mask"}`` (the mask as float32, as the module adds its logarithm to the logits)."""

    def __init__(self, env: Any):
        super().__init__(env)
        inner = env.observation_space(env.possible_agents[0])
        self._space = spaces.Dict({
            "observations": inner["observation"],
            "action_mask": spaces.Box(0.0, 1.0, inner["action_mask"].shape, np.float32),
        })

    def observation_space(self, agent: str) -> spaces.Space:
        return self._space

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self.env.observe(agent)
        return {"observations": obs["observation"], "action_mask": obs["action_mask"].astype(np.float32)}


def make_env(config: dict | None = None) -> Any:
    """RLlib's ``PettingZooEnv`` of ``config["game"]`` with the rest of ``config`` as its
    parameters (see the module docstring). Raises ``ValueError`` without a game."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    params = dict(config or {})
    game = params.pop("game", None)
    if not isinstance(game, str):
        raise ValueError(f"env_config {config!r}: give the game, e.g. {{'game': NAME}}")
    return PettingZooEnv(MaskedObservations(abstracta_env(game, **params)))


__all__ = ["MaskedObservations", "make_env"]
