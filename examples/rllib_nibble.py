"""Multi-agent PPO on Nibble with RLlib, through the PettingZoo environment (issue 45).

RLlib's new API stack: the AEC environment wrapped in ``ray.rllib.env.wrappers.pettingzoo_env.
PettingZooEnv`` (:func:`abstracta.interop.rllib.make_env`), one ``RLModule`` per seat (``player_0``, ``player_1``; ``--shared`` gives both
seats one), each masking the illegal actions (RLlib's ``ActionMaskingTorchRLModule``, which reads
the observation ``{"observations", "action_mask"}``). Every ``--eval-every`` iterations the
learned modules play ``--eval-games`` games per seat against uniformly random legal moves; the
curve goes to ``--out`` as JSON (``benchmarks/research_docs.py`` draws it for docs/research.md).

    pip install torch==2.13.0 'abstracta[rllib]'      # torch's CPU build first: see docs/research.md
    python examples/rllib_nibble.py --iterations 40 --out benchmarks/results/rllib_nibble.json
    python examples/rllib_nibble.py --iterations 1 --steps 400      # a smoke run (the test's)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from typing import Any

import numpy as np

from abstracta.interop.pettingzoo import env as abstracta_env
from abstracta.interop.rllib import make_env

SEATS = ("player_0", "player_1")


def build(args: argparse.Namespace) -> Any:
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    register_env("abstracta_nibble", make_env)
    modules = ("shared",) if args.shared else SEATS
    model = DefaultModelConfig(fcnet_hiddens=[256, 256], fcnet_activation="relu")
    config = (
        PPOConfig()
        # RLlib's check steps an unmasked random action, which the environment refuses (illegal)
        .environment("abstracta_nibble", env_config={"game": "nibble"}, disable_env_checking=True)
        # short fragments and no sampling deadline: a busy two-core machine samples slowly
        .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=1, rollout_fragment_length=200,
                     sample_timeout_s=None)
        .multi_agent(policies=set(modules),
                     policy_mapping_fn=(lambda agent_id, episode, **kw: "shared") if args.shared
                     else (lambda agent_id, episode, **kw: agent_id))
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            m: RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model) for m in modules}))
        .training(train_batch_size_per_learner=args.steps, minibatch_size=min(256, args.steps), num_epochs=args.epochs,
                  lr=3e-4, gamma=0.99, lambda_=0.95, entropy_coeff=0.01)
        .debugging(seed=args.seed)
    )
    return config.build_algo()


def module_action(module: Any, observation: np.ndarray, mask: np.ndarray) -> int:
    """The module's most likely legal action (inference: masked logits, argmax)."""
    import torch
    from ray.rllib.core.columns import Columns

    batch = {Columns.OBS: {"observations": torch.as_tensor(observation[None]),
                           "action_mask": torch.as_tensor(mask[None].astype(np.float32))}}
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0].numpy()
    logits = np.where(mask > 0, logits, -np.inf)
    return int(np.argmax(logits))


def evaluate(algo: Any, games: int, seed: int, shared: bool) -> dict[str, Any]:
    """Games of the learned module against uniformly random legal moves, ``games`` per seat."""
    rng = random.Random(seed)
    wins = [0, 0]
    lengths = []
    for seat in (0, 1):
        module = algo.get_module("shared" if shared else SEATS[seat])
        e = abstracta_env("nibble")
        for g in range(games):
            e.reset(seed=seed * 10_000 + seat * 1000 + g)
            for agent in e.agent_iter():
                obs, reward, term, trunc, info = e.last()
                if term or trunc:
                    e.step(None)
                    continue
                mask = obs["action_mask"]
                if agent == SEATS[seat]:
                    e.step(module_action(module, obs["observation"], mask))
                else:
                    legal = np.flatnonzero(mask)
                    e.step(int(legal[rng.randrange(len(legal))]))
            wins[seat] += e.state.returns()[seat] > 0
            lengths.append(e.state.move_number)
    return {"win_rate": (wins[0] + wins[1]) / (2 * games), "win_rate_seat": [w / games for w in wins],
            "mean_length": sum(lengths) / len(lengths)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=40, help="PPO iterations (default 40)")
    ap.add_argument("--steps", type=int, default=4000, help="environment steps per iteration (default 4000)")
    ap.add_argument("--epochs", type=int, default=6, help="passes over each batch (default 6)")
    ap.add_argument("--env-runners", type=int, default=1, help="RLlib env runners (default 1)")
    ap.add_argument("--shared", action="store_true", help="one module for both seats (self-play)")
    ap.add_argument("--eval-every", type=int, default=5, help="iterations between evaluations (default 5)")
    ap.add_argument("--eval-games", type=int, default=50, help="games per seat against random per evaluation")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", metavar="FILE", help="write the learning curve there as JSON")
    args = ap.parse_args(argv)

    import ray

    ray.init(num_cpus=max(2, args.env_runners + 1), include_dashboard=False, log_to_driver=False,
             ignore_reinit_error=True)
    t0 = time.perf_counter()
    curve: list[dict] = []

    def save() -> None:  # after every evaluation: a long run stopped early keeps its curve
        if not args.out:
            return
        data = {"game": "nibble", "algorithm": "PPO (RLlib, new API stack)", "iterations": curve[-1]["iteration"],
                "steps_per_iteration": args.steps, "epochs": args.epochs, "shared": args.shared,
                "eval_every": args.eval_every, "eval_games": args.eval_games, "seed": args.seed,
                "seconds": round(time.perf_counter() - t0), "machine": f"{os.cpu_count()} CPUs, {platform.machine()}",
                "curve": curve}
        with open(args.out, "w") as f:
            json.dump(data, f, indent=1)
            f.write("\n")

    try:
        algo = build(args)
        start = evaluate(algo, args.eval_games, args.seed, args.shared)
        curve.append({"iteration": 0, "env_steps": 0, **start, "episode_len_mean": start["mean_length"]})
        save()
        print(f"iteration 0: win rate vs random {start['win_rate']:.2f}", flush=True)
        for it in range(1, args.iterations + 1):
            result = algo.train()
            runners = result.get("env_runners", {})
            steps = int(result.get("num_env_steps_sampled_lifetime", runners.get("num_env_steps_sampled_lifetime", 0)))
            length = float(runners.get("episode_len_mean", float("nan")))
            line = f"iteration {it}: {steps} env steps, mean episode length {length:.0f}"
            if it % args.eval_every == 0 or it == args.iterations:
                score = evaluate(algo, args.eval_games, args.seed + it, args.shared)
                curve.append({"iteration": it, "env_steps": steps, **score, "episode_len_mean": length})
                save()
                line += f", win rate vs random {score['win_rate']:.2f} {score['win_rate_seat']}"
            print(line, flush=True)
        algo.stop()
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
